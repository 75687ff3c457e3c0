package org.bforest.fastutil;

import it.unimi.dsi.fastutil.longs.Long2LongMap;
import it.unimi.dsi.fastutil.longs.Long2LongSortedMap;
import it.unimi.dsi.fastutil.objects.AbstractObjectSortedSet;
import it.unimi.dsi.fastutil.objects.ObjectBidirectionalIterator;
import it.unimi.dsi.fastutil.objects.ObjectSortedSet;
import java.util.Comparator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.function.Consumer;
import org.bforest.LongCursor;

/**
 * The entry set of a {@link LongIndexSortedMap} ({@code long2LongEntrySet()}): a live sorted set
 * of the map's range, ordered by key, with fastutil's fast iterator (one reused entry); its
 * iterators are {@link RangeWalk}s returning {@link ViewEntry}s.
 */
final class EntryView extends AbstractObjectSortedSet<Long2LongMap.Entry>
        implements Long2LongSortedMap.FastSortedEntrySet {
    private static final Comparator<Long2LongMap.Entry> BY_KEY =
            (a, b) -> Long.compare(a.getLongKey(), b.getLongKey());

    private final LongIndexSortedMap map;

    EntryView(LongIndexSortedMap map) {
        this.map = map;
    }

    @Override
    public ObjectBidirectionalIterator<Long2LongMap.Entry> iterator() {
        return new EntryIterator(map);
    }

    @Override
    public ObjectBidirectionalIterator<Long2LongMap.Entry> iterator(Long2LongMap.Entry fromElement) {
        return new EntryIterator(map, fromElement.getLongKey());
    }

    @Override
    public ObjectBidirectionalIterator<Long2LongMap.Entry> fastIterator() {
        return new FastEntryIterator(map);
    }

    @Override
    public ObjectBidirectionalIterator<Long2LongMap.Entry> fastIterator(Long2LongMap.Entry from) {
        return new FastEntryIterator(map, from.getLongKey());
    }

    @Override
    public void fastForEach(Consumer<? super Long2LongMap.Entry> consumer) {
        Objects.requireNonNull(consumer, "consumer");
        FastEntryIterator i = new FastEntryIterator(map);
        while (i.hasNext()) {
            consumer.accept(i.next());
        }
    }

    @Override
    public boolean contains(Object o) {
        if (o instanceof Long2LongMap.Entry e) {
            return holds(e.getLongKey(), e.getLongValue());
        }
        return o instanceof Map.Entry<?, ?> e && e.getKey() instanceof Long k && e.getValue() instanceof Long v
                && holds(k, v);
    }

    private boolean holds(long k, long v) {
        return map.inRange(k) && map.index.get(k, ~v) == v;
    }

    @Override
    public boolean remove(Object o) {
        if (o instanceof Long2LongMap.Entry e) {
            return map.remove(e.getLongKey(), e.getLongValue());
        }
        return o instanceof Map.Entry<?, ?> e && e.getKey() instanceof Long k && e.getValue() instanceof Long v
                && map.remove((long) k, (long) v);
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
    public Comparator<? super Long2LongMap.Entry> comparator() {
        return BY_KEY;
    }

    @Override
    public String toString() {
        return map.text('[', ']', true, true);
    }

    @Override
    public Long2LongMap.Entry first() {
        LongCursor c = map.index.cursor();
        if (c.seekCeiling(map.low) && c.key() <= map.high) {
            return new ViewEntry(map.index, c.key(), c.value());
        }
        throw new NoSuchElementException("the map is empty" + (map.whole ? "" : " in its range " + map.rangeText()));
    }

    @Override
    public Long2LongMap.Entry last() {
        LongCursor c = map.index.cursor();
        if (c.seekFloor(map.high) && c.key() >= map.low) {
            return new ViewEntry(map.index, c.key(), c.value());
        }
        throw new NoSuchElementException("the map is empty" + (map.whole ? "" : " in its range " + map.rangeText()));
    }

    @Override
    public ObjectSortedSet<Long2LongMap.Entry> headSet(Long2LongMap.Entry toElement) {
        return map.headMap(toElement.getLongKey()).long2LongEntrySet();
    }

    @Override
    public ObjectSortedSet<Long2LongMap.Entry> tailSet(Long2LongMap.Entry fromElement) {
        return map.tailMap(fromElement.getLongKey()).long2LongEntrySet();
    }

    @Override
    public ObjectSortedSet<Long2LongMap.Entry> subSet(Long2LongMap.Entry fromElement, Long2LongMap.Entry toElement) {
        return map.subMap(fromElement.getLongKey(), toElement.getLongKey()).long2LongEntrySet();
    }

    private static final class EntryIterator extends RangeWalk implements ObjectBidirectionalIterator<Long2LongMap.Entry> {
        EntryIterator(LongIndexSortedMap map) {
            super(map);
        }

        EntryIterator(LongIndexSortedMap map, long after) {
            super(map, after);
        }

        @Override
        public Long2LongMap.Entry next() {
            forward();
            return new ViewEntry(index, lastKey, lastValue);
        }

        @Override
        public Long2LongMap.Entry previous() {
            backward();
            return new ViewEntry(index, lastKey, lastValue);
        }
    }

    /** Returns one entry again and again, set to the key and value of each step. */
    private static final class FastEntryIterator extends RangeWalk implements ObjectBidirectionalIterator<Long2LongMap.Entry> {
        private final ViewEntry entry = new ViewEntry(index, 0, 0);

        FastEntryIterator(LongIndexSortedMap map) {
            super(map);
        }

        FastEntryIterator(LongIndexSortedMap map, long after) {
            super(map, after);
        }

        private ViewEntry fill() {
            entry.key = lastKey;
            entry.value = lastValue;
            return entry;
        }

        @Override
        public Long2LongMap.Entry next() {
            forward();
            return fill();
        }

        @Override
        public Long2LongMap.Entry previous() {
            backward();
            return fill();
        }
    }
}
