package org.bforest.bench.structures;

import org.bforest.LongIndex;
import org.bforest.bench.workloads.Operations;

/**
 * One structure under test, behind the smallest interface the runner needs (the shape of
 * caffeine's {@code BasicCache}). One instance holds one built structure.
 *
 * <p>{@link #run} is the timed loop. Every adapter writes its own copy of that loop, so each
 * loop's call sites see one receiver type and stay monomorphic (a shared loop calling through
 * this interface would turn megamorphic as soon as a second structure ran, and charge every
 * structure an interface dispatch per operation). What matters is the call-site profile, not
 * the declared type: the bforest trees' classes are package-private in core, so their adapters'
 * loops call through {@code LongIndex}, but each loop copy sees only the one class its adapter
 * builds, and C2 inlines that class's methods behind a class-check guard. The loop must not
 * allocate for bforest structures; peers box by nature.
 *
 * <p>{@link #run} returns a checksum of the results (values found, keys visited, whether each
 * insert and delete took effect), computed the same way by every adapter. The runner folds it
 * into a blackhole, so the JIT cannot drop the work, and compares it across structures: with the
 * same operations every correct structure returns the same checksum.
 */
public interface IndexAdapter {

    /** Builds the structure from {@code sortedKeys} (strictly ascending) and their values. */
    void build(long[] sortedKeys, long[] values);

    /** Applies operations {@code [from, to)} of {@code ops}; returns their checksum. */
    long run(Operations ops, int from, int to);

    /**
     * The batched form of {@link #run} ({@code --batch}): applies operations {@code [from, to)}
     * in the batches {@link Batching} cuts (runs of one kind, at most {@code buffers.size()}
     * operations) and returns the same checksum as {@link #run}, leaving the same contents.
     * {@code buffers} is the scratch, allocated by the runner outside the clock; {@code from} is
     * a multiple of {@code buffers.size()}, or the range is the stream's end. Structures without
     * batched calls (the peers) keep this default: a batch of theirs is a loop over its
     * operations, so their batched form is {@link #run} itself.
     */
    default long runBatched(Operations ops, int from, int to, BatchBuffers buffers) {
        return run(ops, from, to);
    }

    /**
     * Operations the runner should hand {@link #run} at once, at least (a device structure wants
     * its whole batch); 0 for the runner's own chunk.
     */
    default int preferredChunk() {
        return 0;
    }

    /** Releases what the structure holds outside the heap (device memory); the runner calls it after each repetition. */
    default void release() {
    }

    /** The number of keys now held. */
    long size();

    /**
     * The bytes the structure holds: its own accounting where it has one, otherwise an estimate
     * from the JVM's object layout (see {@link JvmLayout}).
     */
    long memoryBytes();

    /**
     * The bforest index built, for {@code --snapshot} (saved, loaded and mapped through the core
     * API); null for a structure that is not a {@link LongIndex} (the peers), and before a build.
     * {@link Structure#snapshots()} says the same before anything is built.
     */
    default LongIndex longIndex() {
        return null;
    }

    /**
     * {@code --visit-all}: the sum of every value held (wrapping), by one full visit the way the
     * structure visits every entry: a bforest index's {@code forEach} (this default, through
     * {@link #longIndex()}), a peer's iteration of its entries, a device tree's pass on the device
     * ({@code DeviceIndex.sumValues()}). Every correct structure holding the same entries returns
     * the same sum.
     *
     * @throws UnsupportedOperationException for a structure without a full visit
     */
    default long visitSum() {
        LongIndex ix = longIndex();
        if (ix == null) {
            throw new UnsupportedOperationException("no full visit");
        }
        return ValueSum.of(ix);
    }

    /** What was built, when the structure chose something itself (for a note), else null. */
    default String describeBuilt() {
        return null;
    }
}
