package org.bforest.bench.structures;

import org.bforest.Indexes;
import org.bforest.LongIndex;
import org.bforest.bench.workloads.Op;
import org.bforest.bench.workloads.Operations;

/**
 * The compressed BS-tree (compression forced on), with its own copy of the timed loop. The tree's
 * class is package-private in core, so the loop calls through {@link LongIndex}; but this copy's
 * call sites have their own profile and only ever see the one class this adapter builds, so C2
 * inlines that class's methods behind a class-check guard, whatever else the JVM has run (see
 * {@link IndexAdapter} on why every adapter keeps its own loop).
 */
final class CBSTreeAdapter extends LongIndexAdapter {
    CBSTreeAdapter() {
        super(Indexes::cbsTree);
    }

    @Override
    public long run(Operations ops, int from, int to) {
        final LongIndex ix = index();
        final byte[] codes = ops.codes();
        final long[] keys = ops.keys();
        final long[] ends = ops.ends();
        final ScanSum visitor = scan();
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
}
