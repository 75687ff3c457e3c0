package org.bforest.bench.structures;

import org.bforest.BSTreeBuilder.Compression;
import org.bforest.Indexes;
import org.bforest.bench.workloads.Op;
import org.bforest.bench.workloads.Operations;
import org.bforest.bstree.BSTree;

/**
 * The plain BS-tree (compression forced off), with its own copy of the timed loop over the final class {@link BSTree}: its calls
 * are direct, whatever else the JVM has run (see {@link IndexAdapter} on why every adapter
 * keeps its own loop).
 */
final class BSTreeAdapter extends LongIndexAdapter {
    BSTreeAdapter() {
        super((k, v) -> Indexes.bsTreeBuilder().compression(Compression.NEVER).build(k, v));
    }

    @Override
    public long run(Operations ops, int from, int to) {
        final BSTree ix = (BSTree) index();
        final byte[] codes = ops.codes();
        final long[] keys = ops.keys();
        final long[] ends = ops.ends();
        final ScanSum visitor = scan();
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
}
