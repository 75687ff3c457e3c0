package org.bforest.bench.structures;

import org.bforest.BSTreeIndex;
import org.bforest.Indexes;
import org.bforest.LongEntryVisitor;
import org.bforest.LongIndex;
import org.bforest.bench.workloads.Op;
import org.bforest.bench.workloads.Operations;

/**
 * The key-only BS-tree ({@link Indexes#bsTreeKeyOnly(long[])}): keys and no value storage, the
 * form the papers measure. A lookup is {@code containsKey}, as the reference's {@code search}
 * is; a found key contributes {@link Values#of(long)}, the value the other structures store, so
 * the checksums compare across structures (computing it costs a few instructions, no memory).
 * Inserts store nothing but the key. Its own copy of the timed loop (see {@link IndexAdapter}).
 */
final class KeyOnlyAdapter implements IndexAdapter {
    private final ScanSum scan = new ScanSum();
    /** Scans visit keys only; each key counts with the value the others store. */
    private final LongEntryVisitor keys = (k, v) -> scan.visit(k, Values.of(k));
    private BSTreeIndex index;

    @Override
    public void build(long[] sortedKeys, long[] values) {
        index = Indexes.bsTreeKeyOnly(sortedKeys);
    }

    @Override
    public long run(Operations ops, int from, int to) {
        final LongIndex ix = index;
        final byte[] codes = ops.codes();
        final long[] ks = ops.keys();
        final long[] ends = ops.ends();
        final LongEntryVisitor visitor = keys;
        long sum = 0;
        for (int i = from; i < to; i++) {
            long k = ks[i];
            switch (codes[i]) {
                case Op.LOOKUP -> sum += ix.containsKey(k) ? Values.of(k) : Values.ABSENT;
                case Op.INSERT -> sum += Values.effect(ix.upsert(k, 0));
                case Op.DELETE -> sum += Values.effect(ix.delete(k));
                default -> ix.rangeVisit(k, ends[i], visitor);
            }
        }
        return sum + scan.take();
    }

    @Override
    public long runBatched(Operations ops, int from, int to, BatchBuffers buffers) {
        return Batching.run(index, true, keys, ops, from, to, buffers) + scan.take();
    }

    /** Keys only: each key counts with the value the others store, as in its scans. */
    @Override
    public long visitSum() {
        long[] sum = {0};
        index.forEach((k, v) -> sum[0] += Values.of(k));
        return sum[0];
    }

    @Override
    public long size() {
        return index.size();
    }

    @Override
    public long memoryBytes() {
        return index.memoryBytes();
    }

    @Override
    public LongIndex longIndex() {
        return index;
    }

    @Override
    public String describeBuilt() {
        return "built a key-only BS-tree, " + index.leafNodes() + " leaves, " + index.innerNodes()
                + " inner nodes, height " + index.height();
    }
}
