package org.bforest.bench.structures;

import java.util.function.BiFunction;
import org.bforest.BSTreeIndex;
import org.bforest.LongIndex;
import org.bforest.bench.workloads.Op;
import org.bforest.bench.workloads.Operations;

/**
 * A bforest structure through the primitive {@link LongIndex} API: bulk-loaded by its factory,
 * driven without boxing, memory from its own {@link LongIndex#memoryBytes()}.
 *
 * <p>This loop serves {@code bstree-auto}, whose class depends on the keys; {@link BSTreeAdapter}
 * and {@link CBSTreeAdapter} have their own copies, so the figures of one do not depend on
 * whether the other ran first in the same JVM (a shared loop turns bimorphic, and measured 20%
 * slower on the second structure). The tree classes are package-private in core, so every copy
 * calls through {@link LongIndex}; what keeps the calls cheap is that each copy has its own
 * call-site profile, sees one receiver class, and C2 inlines that class's methods behind a
 * class-check guard.
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
                case Op.INSERT -> sum += Values.effect(ix.upsert(k, Values.of(k)));
                case Op.DELETE -> sum += Values.effect(ix.delete(k));
                default -> ix.rangeVisit(k, ends[i], visitor);
            }
        }
        return sum + visitor.take();
    }

    /** The stream in batches ({@link Batching}); every bforest adapter on the CPU shares it. */
    @Override
    public long runBatched(Operations ops, int from, int to, BatchBuffers buffers) {
        return Batching.run(index, false, scan, ops, from, to, buffers) + scan.take();
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
            return "built a " + (t.isCompressed() ? "compressed BS-tree (CBS-tree)" : "plain BS-tree") + ", "
                    + t.leafNodes() + " leaves" + valuesClause(t.toString()) + ", " + t.innerNodes()
                    + " inner nodes, height " + t.height();
        }
        return null;
    }

    /**
     * How a CBS-tree stores its values, from its {@code toString} ("..., values=lanes in N leaves]"
     * or "..., values=packed (...)]"), as ", values: ..."; empty for a tree that does not say.
     */
    static String valuesClause(String described) {
        int at = described.indexOf("values=");
        if (at < 0) {
            return "";
        }
        int end = described.lastIndexOf(']');
        return ", values: " + described.substring(at + "values=".length(), end > at ? end : described.length());
    }

    @Override
    public LongIndex longIndex() {
        return index;
    }

    ScanSum scan() {
        return scan;
    }

    /** The structure itself, for tests and the per-class loops. */
    LongIndex index() {
        return index;
    }
}
