package org.bforest.fastutil;

import it.unimi.dsi.fastutil.longs.AbstractLongSortedSet;
import it.unimi.dsi.fastutil.longs.LongBidirectionalIterator;
import it.unimi.dsi.fastutil.longs.LongComparator;
import it.unimi.dsi.fastutil.longs.LongSortedSet;

/**
 * The key set of a {@link LongIndexSortedMap} ({@code keySet()}): a live {@link LongSortedSet}
 * over the map's range, its iterators {@link RangeWalk}s; removal removes the key from the index.
 */
final class KeyView extends AbstractLongSortedSet {
    private final LongIndexSortedMap map;

    KeyView(LongIndexSortedMap map) {
        this.map = map;
    }

    @Override
    public boolean contains(long k) {
        return map.containsKey(k);
    }

    @Override
    public boolean remove(long k) {
        return map.inRange(k) && map.index.delete(k);
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

    @Override
    public LongBidirectionalIterator iterator() {
        return new KeyIterator(map);
    }

    @Override
    public LongBidirectionalIterator iterator(long fromElement) {
        return new KeyIterator(map, fromElement);
    }

    @Override
    public LongComparator comparator() {
        return null;
    }

    @Override
    public long firstLong() {
        return map.firstLongKey();
    }

    @Override
    public long lastLong() {
        return map.lastLongKey();
    }

    @Override
    public LongSortedSet headSet(long toElement) {
        return map.headMap(toElement).keySet();
    }

    @Override
    public LongSortedSet tailSet(long fromElement) {
        return map.tailMap(fromElement).keySet();
    }

    @Override
    public LongSortedSet subSet(long fromElement, long toElement) {
        return map.subMap(fromElement, toElement).keySet();
    }

    @Override
    public String toString() {
        return map.text('[', ']', true, false);
    }

    private static final class KeyIterator extends RangeWalk implements LongBidirectionalIterator {
        KeyIterator(LongIndexSortedMap map) {
            super(map);
        }

        KeyIterator(LongIndexSortedMap map, long after) {
            super(map, after);
        }

        @Override
        public long nextLong() {
            forward();
            return lastKey;
        }

        @Override
        public long previousLong() {
            backward();
            return lastKey;
        }
    }
}
