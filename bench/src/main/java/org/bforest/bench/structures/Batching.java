package org.bforest.bench.structures;

import org.bforest.LongEntryVisitor;
import org.bforest.LongIndex;
import org.bforest.bench.workloads.Op;
import org.bforest.bench.workloads.Operations;

/**
 * How {@code --batch N} cuts an operation stream into batched calls, written once for every
 * structure: a batch is a run of consecutive operations of one kind, at most N, that does not
 * cross a multiple of N from the stream's start (a window). Lookups go to
 * {@link LongIndex#getAll}, inserts to {@link LongIndex#putAll}, deletes to
 * {@link LongIndex#removeAll}; a range scan runs alone, as one {@code rangeVisit}.
 *
 * <p>Operations of one kind in a row commute: lookups change nothing, and a run of puts (or of
 * removes) leaves the index as the same puts one by one do. So every answer, the checksum and
 * the final contents are those of the stream run one operation at a time, whatever the stream
 * (a lookup of a key put earlier never shares its call). A stream of one kind (A, B, F) gives N
 * operations a call; a mixed one (C, E) gives its runs, about two operations on average, which is
 * what a batched caller that keeps the order of its operations gets from such a stream. The
 * windows make the cuts independent of how the runner chunks the stream (its chunks are whole
 * windows), and so the lengths known beforehand ({@link BatchBuffers#forStream}).
 *
 * <p>The checksum is the one the one-at-a-time loops compute: the values the lookups find (a
 * key-only index's found keys count with {@link Values#of(long)}, the value the others store),
 * {@link Values#effect} of each insert and delete (an insert took effect if it was new: the
 * number that did is the growth of {@code size()} across the {@code putAll}; a delete if the key
 * was there: {@code removeAll}'s count; a key given twice counts once, as the loop's second
 * operation on it changes nothing), and the entries the scans visit (through the caller's
 * visitor). The copy of each batch's keys into the preallocated buffers is timed with it (about a
 * nanosecond a key).
 *
 * <p>Structures without batched calls (the peers) keep {@link IndexAdapter#runBatched}'s default:
 * a batch of theirs is a loop over its operations, which is the stream one at a time. Here the
 * calls go through the {@link LongIndex} interface, one call site for every tree: next to a batch
 * of N operations that costs nothing, but at N = 1, or on a mixed stream's short runs, a batch's
 * calls, copy and buffer look-up come every operation or two, and the figures include them.
 */
public final class Batching {
    private Batching() {
    }

    /** Whether operation code {@code code} runs alone (a range scan). */
    static boolean isScan(byte code) {
        return code == Op.SCAN;
    }

    /**
     * The end (exclusive) of the batch that starts at operation {@code from} of {@code codes},
     * before {@code to}: the run of operations of {@code codes[from]}'s kind, up to the next
     * multiple of {@code size}; a scan's batch is the scan alone.
     */
    public static int end(byte[] codes, int from, int to, int size) {
        byte c = codes[from];
        if (c == Op.SCAN) {
            return from + 1;
        }
        int limit = (int) Math.min(to, ((long) from / size + 1) * size);
        int e = from + 1;
        while (e < limit && codes[e] == c) {
            e++;
        }
        return e;
    }

    /**
     * Runs operations {@code [from, to)} of {@code ops} on {@code ix} in batches and returns their
     * checksum (the scans' part goes to {@code scan}, which the caller adds). {@code from} is a
     * multiple of {@code buffers.size()} (or the range is the stream's end), as the runner's
     * chunks are.
     *
     * @param keyOnly whether {@code ix} stores keys only: its puts store 0 and a found key counts
     *                with {@link Values#of(long)}
     */
    static long run(LongIndex ix, boolean keyOnly, LongEntryVisitor scan, Operations ops, int from, int to,
                    BatchBuffers buffers) {
        final byte[] codes = ops.codes();
        final long[] keys = ops.keys();
        final int size = buffers.size();
        long sum = 0;
        int i = from;
        while (i < to) {
            int end = end(codes, i, to, size);
            byte code = codes[i];
            if (code == Op.SCAN) {
                ix.rangeVisit(keys[i], ops.ends()[i], scan);
                i = end;
                continue;
            }
            int n = end - i;
            long[] k = buffers.keys(n);
            long[] v = buffers.values(n);
            System.arraycopy(keys, i, k, 0, n);
            if (code == Op.LOOKUP) {
                ix.getAll(k, v, Values.ABSENT);
                for (int j = 0; j < n; j++) {
                    sum += !keyOnly || v[j] == Values.ABSENT ? v[j] : Values.of(k[j]);
                }
            } else if (code == Op.INSERT) {
                for (int j = 0; j < n; j++) {
                    v[j] = keyOnly ? 0 : Values.of(k[j]);
                }
                long before = ix.size();
                ix.putAll(k, v);
                long added = ix.size() - before;
                sum += added * Values.effect(true) + (n - added) * Values.effect(false);
            } else {
                long removed = ix.removeAll(k);
                sum += removed * Values.effect(true) + (n - removed) * Values.effect(false);
            }
            i = end;
        }
        return sum;
    }
}
