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
}
