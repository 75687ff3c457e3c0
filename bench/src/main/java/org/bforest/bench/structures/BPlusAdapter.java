package org.bforest.bench.structures;

import org.bforest.Indexes;
import org.bforest.LongIndex;
import org.bforest.bench.workloads.Op;
import org.bforest.bench.workloads.Operations;

/**
 * The plain B+-tree baseline ({@link Indexes#bPlusTreeBuilder}), dense or sparse (leaves bulk-loaded
 * {@code leafFill} full), with its own copy of the timed loop (see {@link IndexAdapter}): both
 * forms are the same class, so one copy serves them with one receiver type.
 */
final class BPlusAdapter extends LongIndexAdapter {
    BPlusAdapter(double leafFill) {
        super((k, v) -> Indexes.bPlusTreeBuilder().leafFill(leafFill).build(k, v));
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

    @Override
    public String describeBuilt() {
        return "built a " + index();
    }
}
