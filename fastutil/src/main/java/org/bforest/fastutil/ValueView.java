package org.bforest.fastutil;

import it.unimi.dsi.fastutil.longs.AbstractLongCollection;
import it.unimi.dsi.fastutil.longs.LongBidirectionalIterator;

/**
 * The values of a {@link LongIndexSortedMap} ({@code values()}): a live collection of the values
 * of the map's range in key order, its iterators {@link RangeWalk}s.
 */
final class ValueView extends AbstractLongCollection {
    private final LongIndexSortedMap map;

    ValueView(LongIndexSortedMap map) {
        this.map = map;
    }

    @Override
    public LongBidirectionalIterator iterator() {
        return new ValueIterator(map);
    }

    @Override
    public boolean contains(long v) {
        return map.containsValue(v);
    }

    @Override
    public String toString() {
        return map.text('[', ']', false, true);
    }

    @Override
    public int size() {
        return map.size();
    }

    @Override
    public boolean isEmpty() {
        return map.isEmpty();
    }

    @Override
    public void clear() {
        map.clear();
    }

    private static final class ValueIterator extends RangeWalk implements LongBidirectionalIterator {
        ValueIterator(LongIndexSortedMap map) {
            super(map);
        }

        @Override
        public long nextLong() {
            forward();
            return lastValue;
        }

        @Override
        public long previousLong() {
            backward();
            return lastValue;
        }
    }
}
