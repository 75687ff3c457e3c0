package org.bforest.bench.structures;

import org.bforest.Indexes;
import org.bforest.bench.workloads.Op;
import org.bforest.bench.workloads.Operations;
import org.bforest.bstree.CBSTree;

/**
 * The compressed BS-tree (compression forced on), with its own copy of the timed loop over the final class {@link CBSTree}: its calls
 * are direct, whatever else the JVM has run (see {@link IndexAdapter} on why every adapter
 * keeps its own loop).
 */
final class CBSTreeAdapter extends LongIndexAdapter {
    CBSTreeAdapter() {
        super(Indexes::cbsTree);
    }

    @Override
    public long run(Operations ops, int from, int to) {
        final CBSTree ix = (CBSTree) index();
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
