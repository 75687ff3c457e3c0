package org.bforest.bench.structures;

import java.util.function.BiFunction;
import org.bforest.BSTreeIndex;
import org.bforest.LongIndex;
import org.bforest.bench.workloads.Op;
import org.bforest.bench.workloads.Operations;
import org.bforest.bstree.CBSTree;

/**
 * A bforest structure through the primitive {@link LongIndex} API: bulk-loaded by its factory,
 * driven without boxing, memory from its own {@link LongIndex#memoryBytes()}.
 *
 * <p>This loop serves {@code bstree-auto}, whose class depends on the keys; {@link BSTreeAdapter}
 * and {@link CBSTreeAdapter} have their own copies over their final classes, so the figures of
 * one do not depend on whether the other ran first in the same JVM (a shared loop turns
 * bimorphic, and measured 20% slower on the second structure).
 */
class LongIndexAdapter implements IndexAdapter {
    private final BiFunction<long[], long[], LongIndex> bulkLoad;
    private final ScanSum scan = new ScanSum();
    private LongIndex index;

    public LongIndexAdapter(BiFunction<long[], long[], LongIndex> bulkLoad) {
        this.bulkLoad = bulkLoad;
    }

    @Override
    public void build(long[] sortedKeys, long[] values) {
        index = bulkLoad.apply(sortedKeys, values);
    }

    @Override
    public long run(Operations ops, int from, int to) {
        final LongIndex ix = index;
        final byte[] codes = ops.codes();
        final long[] keys = ops.keys();
        final long[] ends = ops.ends();
        final ScanSum visitor = scan;
        long sum = 0;
        for (int i = from; i < to; i++) {
            long k = keys[i];
            switch (codes[i]) {
                case Op.LOOKUP -> sum += ix.get(k, Values.ABSENT);
                case Op.INSERT -> sum += Values.effect(ix.put(k, Values.of(k)));
                case Op.DELETE -> sum += Values.effect(ix.remove(k));
                default -> ix.rangeVisit(k, ends[i], visitor);
            }
        }
        return sum + visitor.take();
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
    public String describeBuilt() {
        if (index instanceof BSTreeIndex t) {
            String lanes = t instanceof CBSTree c
                    ? (c.hasValueLanes() ? ", values as lanes in " + c.leavesWithValueLanes() + " leaves"
                            : ", values packed (they do not fit lanes)")
                    : "";
            return "built a " + (t.isCompressed() ? "compressed BS-tree (CBS-tree)" : "plain BS-tree") + ", "
                    + t.leafNodes() + " leaves" + lanes + ", " + t.innerNodes() + " inner nodes, height " + t.height();
        }
        return null;
    }

    ScanSum scan() {
        return scan;
    }

    /** The structure itself, for tests and the per-class loops. */
    LongIndex index() {
        return index;
    }
}
