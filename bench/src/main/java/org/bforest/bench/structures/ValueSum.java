package org.bforest.bench.structures;

import org.bforest.LongEntryConsumer;

/** {@code --visit-all}'s visitor: the sum of the values it is handed, wrapping. */
final class ValueSum implements LongEntryConsumer {
    long sum;

    @Override
    public void accept(long key, long value) {
        sum += value;
    }

    /** The sum of every value of {@code index}, by its {@code forEach}. */
    static long of(org.bforest.LongIndex index) {
        ValueSum s = new ValueSum();
        index.forEach(s);
        return s.sum;
    }

    /** The sum of boxed values (the JDK maps' {@code values()}), wrapping. */
    static long of(java.util.Collection<Long> values) {
        long sum = 0;
        for (Long v : values) {
            sum += v;
        }
        return sum;
    }

    /** The sum of fastutil's primitive values, wrapping. */
    static long of(it.unimi.dsi.fastutil.longs.LongCollection values) {
        long sum = 0;
        for (var it = values.iterator(); it.hasNext(); ) {
            sum += it.nextLong();
        }
        return sum;
    }
}
