package org.bforest.bench.structures;

import org.bforest.Indexes;
import org.bforest.LongIndex;
import org.bforest.bench.workloads.Op;
import org.bforest.bench.workloads.Operations;

/**
 * The concurrent BS-tree ({@link Indexes#concurrentBsTree}), thread-safe: with {@code --threads T}
 * the runner calls {@link #run} from T threads at once on one tree. Its own copy of the timed loop
 * (see {@link IndexAdapter}), with a scan visitor per call instead of the adapter's shared one, so
 * that threads share nothing but the tree.
 */
final class OlcAdapter extends LongIndexAdapter {
    OlcAdapter() {
        super(Indexes::concurrentBsTree);
    }

    @Override
    public long run(Operations ops, int from, int to) {
        final LongIndex ix = index();
        final byte[] codes = ops.codes();
        final long[] keys = ops.keys();
        final long[] ends = ops.ends();
        final ScanSum visitor = new ScanSum();
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
