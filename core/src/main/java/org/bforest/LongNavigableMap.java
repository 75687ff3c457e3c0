package org.bforest;

import java.util.AbstractCollection;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;

/**
 * The live {@link NavigableMap} view of a {@link LongIndex}, made by
 * {@link LongIndexViews#asNavigableMap(LongIndex)} (what every structure's
 * {@code asNavigableMap()} returns); it behaves like a {@link java.util.TreeMap} with natural
 * ordering that rejects {@code null} keys and values.
 *
 * <p><b>One class for every view.</b> Like {@code ConcurrentSkipListMap.SubMap}, a single class
 * describes the whole map, every sub-, head- and tail-map and every descending view: it holds a
 * {@link ViewRange} (the index and the keys the view covers, with all navigation written once in
 * ascending terms) and a {@code descending} flag, and the public methods swap ceiling/floor,
 * higher/lower and first/last when the view is descending. The key set, values and entry set are
 * inner classes here; their iterators are {@link ViewIterator}s over the range.
 *
 * <p><b>Primitive paths.</b> {@link #size()} of a bounded view is
 * {@link LongIndex#rangeCount(long, boolean, long, boolean)} over the range. Every question whose
 * answer may be "none" goes to a method of the index that says so exactly rather than through a
 * value that could be a real one: {@code get}, {@code put} and {@code remove} to the index's
 * {@code get}/{@code put}/{@code remove} with a one-element out array, {@code putIfAbsent},
 * {@code replace} and {@code remove(key, value)} to the index's conditional updates, the first and
 * last keys to a cursor's {@code seek}, {@code pollFirstEntry} to a cursor that finds the key and
 * a {@code remove(key, previous)} that takes it (tried again if another thread took it first). So
 * the view is exact on any index, and on a thread-safe one ({@link ConcurrentLongNavigableMap})
 * each of these is one atomic step of the index.
 *
 * <p><b>Entries.</b> {@code firstEntry()}, {@code ceilingEntry()}, {@code pollFirstEntry()} and the
 * like return immutable snapshots ({@link ViewEntry}). Entries from {@code entrySet()} iterators
 * write through ({@link ViewIterator}).
 *
 * <p>Queries with a {@code null} key throw {@link NullPointerException} and with a key that is not
 * a {@link Long} throw {@link ClassCastException}, like {@code TreeMap}; {@code containsValue} of
 * anything but a {@code Long} is {@code false}. The view is not serializable and no more
 * thread-safe than its index.
 */
sealed class LongNavigableMap extends AbstractMap<Long, Long> implements NavigableMap<Long, Long>
        permits ConcurrentLongNavigableMap {

    final LongIndex index;
    /** The keys of the view, and the navigation in ascending terms. */
    final ViewRange range;
    /** Whether the view lists keys in descending order. */
    final boolean descending;

    private LongNavigableMap descendingView;
    private KeySet keySetView;
    private EntrySet entrySetView;
    private Values valuesView;

    /** The view of the whole index, in ascending order. */
    LongNavigableMap(LongIndex index) {
        this(new ViewRange(Objects.requireNonNull(index, "index"), false), false);
    }

    LongNavigableMap(ViewRange range, boolean descending) {
        this.index = range.index;
        this.range = range;
        this.descending = descending;
    }

    // ---- Map -------------------------------------------------------------------------------

    @Override
    public int size() {
        long n = range.count();
        return n > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) n;
    }

    @Override
    public boolean isEmpty() {
        return range.isEmpty();
    }

    @Override
    public boolean containsKey(Object key) {
        long k = ViewRange.key(key);
        return range.inRange(k) && index.containsKey(k);
    }

    @Override
    public boolean containsValue(Object value) {
        if (!(value instanceof Long boxed)) {
            return false;
        }
        long v = boxed;
        LongCursor c = index.cursor();
        for (boolean ok = range.seekStart(c, false); ok; ok = range.step(c, false)) {
            if (c.value() == v) {
                return true;
            }
        }
        return false;
    }

    @Override
    public Long get(Object key) {
        long k = ViewRange.key(key);
        if (!range.inRange(k)) {
            return null;
        }
        long[] out = new long[1];
        return index.get(k, out) ? Long.valueOf(out[0]) : null;
    }

    @Override
    public Long put(Long key, Long value) {
        long k = ViewRange.key(key);
        long v = ViewRange.value(value);
        if (!range.inRange(k)) {
            throw new IllegalArgumentException("key out of range");
        }
        long[] previous = new long[1];
        return index.put(k, v, previous) ? Long.valueOf(previous[0]) : null;
    }

    @Override
    public Long remove(Object key) {
        long k = ViewRange.key(key);
        if (!range.inRange(k)) {
            return null;
        }
        long[] previous = new long[1];
        return index.remove(k, previous) ? Long.valueOf(previous[0]) : null;
    }

    @Override
    public Long putIfAbsent(Long key, Long value) {
        long k = ViewRange.key(key);
        long v = ViewRange.value(value);
        if (!range.inRange(k)) {
            throw new IllegalArgumentException("key out of range");
        }
        long[] present = new long[1];
        return index.putIfAbsent(k, v, present) ? Long.valueOf(present[0]) : null;
    }

    @Override
    public boolean remove(Object key, Object value) {
        long k = ViewRange.key(key);
        if (!(value instanceof Long boxed) || !range.inRange(k)) {
            return false;
        }
        return index.remove(k, (long) boxed);
    }

    @Override
    public Long replace(Long key, Long value) {
        long k = ViewRange.key(key);
        long v = ViewRange.value(value);
        if (!range.inRange(k)) {
            return null;
        }
        long[] previous = new long[1];
        return index.replace(k, v, previous) ? Long.valueOf(previous[0]) : null;
    }

    @Override
    public boolean replace(Long key, Long oldValue, Long newValue) {
        long k = ViewRange.key(key);
        long expected = ViewRange.value(oldValue);
        long v = ViewRange.value(newValue);
        return range.inRange(k) && index.replace(k, expected, v);
    }

    @Override
    public void clear() {
        if (range.whole()) {
            index.clear();
            return;
        }
        LongCursor c = index.cursor();
        for (boolean ok = range.seekStart(c, false); ok; ok = c.isValid() && c.key() <= range.high) {
            c.remove();
        }
    }

    @Override
    public void forEach(BiConsumer<? super Long, ? super Long> action) {
        Objects.requireNonNull(action, "action");
        LongCursor c = index.cursor();
        for (boolean ok = range.seekStart(c, descending); ok; ok = range.step(c, descending)) {
            action.accept(c.key(), c.value());
        }
    }

    @Override
    public void replaceAll(BiFunction<? super Long, ? super Long, ? extends Long> function) {
        Objects.requireNonNull(function, "function");
        LongCursor c = index.cursor();
        long[] out = new long[1];
        for (boolean ok = range.seekStart(c, descending); ok; ok = range.step(c, descending)) {
            long k = c.key();
            long current = c.value();
            // A compare-and-set per key (ConcurrentMap's rule): on a thread-safe index another
            // thread may change the value in between; then the function sees the new one. A key
            // removed meanwhile is skipped. Replacing a value does not disturb the cursor.
            for (;;) {
                long v = ViewRange.value(function.apply(k, current));
                if (index.replace(k, current, v) || !index.get(k, out)) {
                    break;
                }
                current = out[0];
            }
        }
    }

    @Override
    public int hashCode() {
        int[] h = new int[1];
        range.visit((k, v) -> h[0] += Long.hashCode(k) ^ Long.hashCode(v));
        return h[0];
    }

    // ---- SortedMap / NavigableMap ------------------------------------------------------------

    @Override
    public Comparator<? super Long> comparator() {
        return descending ? Collections.<Long>reverseOrder() : null;
    }

    @Override
    public Long firstKey() {
        Long k = descending ? range.floorKey(range.high) : range.ceilingKey(range.low);
        if (k == null) {
            throw new NoSuchElementException();
        }
        return k;
    }

    @Override
    public Long lastKey() {
        Long k = descending ? range.ceilingKey(range.low) : range.floorKey(range.high);
        if (k == null) {
            throw new NoSuchElementException();
        }
        return k;
    }

    @Override
    public Long lowerKey(Long key) {
        long k = ViewRange.key(key);
        return descending ? range.higherKey(k) : range.lowerKey(k);
    }

    @Override
    public Long floorKey(Long key) {
        long k = ViewRange.key(key);
        return descending ? range.ceilingKey(k) : range.floorKey(k);
    }

    @Override
    public Long ceilingKey(Long key) {
        long k = ViewRange.key(key);
        return descending ? range.floorKey(k) : range.ceilingKey(k);
    }

    @Override
    public Long higherKey(Long key) {
        long k = ViewRange.key(key);
        return descending ? range.lowerKey(k) : range.higherKey(k);
    }

    @Override
    public Entry<Long, Long> lowerEntry(Long key) {
        long k = ViewRange.key(key);
        return descending ? range.higherEntry(k) : range.lowerEntry(k);
    }

    @Override
    public Entry<Long, Long> floorEntry(Long key) {
        long k = ViewRange.key(key);
        return descending ? range.ceilingEntry(k) : range.floorEntry(k);
    }

    @Override
    public Entry<Long, Long> ceilingEntry(Long key) {
        long k = ViewRange.key(key);
        return descending ? range.floorEntry(k) : range.ceilingEntry(k);
    }

    @Override
    public Entry<Long, Long> higherEntry(Long key) {
        long k = ViewRange.key(key);
        return descending ? range.lowerEntry(k) : range.higherEntry(k);
    }

    @Override
    public Entry<Long, Long> firstEntry() {
        return descending ? range.floorEntry(range.high) : range.ceilingEntry(range.low);
    }

    @Override
    public Entry<Long, Long> lastEntry() {
        return descending ? range.ceilingEntry(range.low) : range.floorEntry(range.high);
    }

    @Override
    public Entry<Long, Long> pollFirstEntry() {
        return range.poll(descending);
    }

    @Override
    public Entry<Long, Long> pollLastEntry() {
        return range.poll(!descending);
    }

    /** A view of {@code r} of this view's kind (the concurrent view makes concurrent sub-views). */
    LongNavigableMap view(ViewRange r, boolean down) {
        return new LongNavigableMap(r, down);
    }

    @Override
    public LongNavigableMap descendingMap() {
        LongNavigableMap d = descendingView;
        if (d == null) {
            d = view(range, !descending);
            d.descendingView = this;
            descendingView = d;
        }
        return d;
    }

    @Override
    public LongNavigableMap subMap(Long fromKey, boolean fromInclusive, Long toKey, boolean toInclusive) {
        long from = ViewRange.key(fromKey);
        long to = ViewRange.key(toKey);
        if (!range.inRange(from, fromInclusive)) {
            throw new IllegalArgumentException("fromKey out of range");
        }
        if (!range.inRange(to, toInclusive)) {
            throw new IllegalArgumentException("toKey out of range");
        }
        return descending
                ? view(range.between(to, toInclusive, from, fromInclusive), true)
                : view(range.between(from, fromInclusive, to, toInclusive), false);
    }

    @Override
    public LongNavigableMap headMap(Long toKey, boolean inclusive) {
        long to = ViewRange.key(toKey);
        if (!range.inRange(to, inclusive)) {
            throw new IllegalArgumentException("toKey out of range");
        }
        return descending
                ? view(range.above(to, inclusive), true)
                : view(range.below(to, inclusive), false);
    }

    @Override
    public LongNavigableMap tailMap(Long fromKey, boolean inclusive) {
        long from = ViewRange.key(fromKey);
        if (!range.inRange(from, inclusive)) {
            throw new IllegalArgumentException("fromKey out of range");
        }
        return descending
                ? view(range.below(from, inclusive), true)
                : view(range.above(from, inclusive), false);
    }

    @Override
    public LongNavigableMap subMap(Long fromKey, Long toKey) {
        return subMap(fromKey, true, toKey, false);
    }

    @Override
    public LongNavigableMap headMap(Long toKey) {
        return headMap(toKey, false);
    }

    @Override
    public LongNavigableMap tailMap(Long fromKey) {
        return tailMap(fromKey, true);
    }

    // ---- collection views --------------------------------------------------------------------

    @Override
    public NavigableSet<Long> keySet() {
        return navigableKeySet();
    }

    @Override
    public NavigableSet<Long> navigableKeySet() {
        KeySet s = keySetView;
        if (s == null) {
            s = new KeySet();
            keySetView = s;
        }
        return s;
    }

    @Override
    public NavigableSet<Long> descendingKeySet() {
        return descendingMap().navigableKeySet();
    }

    @Override
    public Collection<Long> values() {
        Values v = valuesView;
        if (v == null) {
            v = new Values();
            valuesView = v;
        }
        return v;
    }

    @Override
    public Set<Entry<Long, Long>> entrySet() {
        EntrySet s = entrySetView;
        if (s == null) {
            s = new EntrySet();
            entrySetView = s;
        }
        return s;
    }

    private final class KeySet extends AbstractSet<Long> implements NavigableSet<Long> {
        @Override public Iterator<Long> iterator() { return new ViewIterator.Keys(range, descending); }
        @Override public Iterator<Long> descendingIterator() { return new ViewIterator.Keys(range, !descending); }
        @Override public int size() { return LongNavigableMap.this.size(); }
        @Override public boolean isEmpty() { return LongNavigableMap.this.isEmpty(); }
        @Override public boolean contains(Object o) { return containsKey(o); }
        @Override public void clear() { LongNavigableMap.this.clear(); }

        @Override
        public boolean remove(Object o) {
            long k = ViewRange.key(o);
            return range.inRange(k) && index.remove(k, new long[1]);
        }

        @Override public Comparator<? super Long> comparator() { return LongNavigableMap.this.comparator(); }
        @Override public Long first() { return firstKey(); }
        @Override public Long last() { return lastKey(); }
        @Override public Long lower(Long e) { return lowerKey(e); }
        @Override public Long floor(Long e) { return floorKey(e); }
        @Override public Long ceiling(Long e) { return ceilingKey(e); }
        @Override public Long higher(Long e) { return higherKey(e); }

        @Override
        public Long pollFirst() {
            Entry<Long, Long> e = pollFirstEntry();
            return e == null ? null : e.getKey();
        }

        @Override
        public Long pollLast() {
            Entry<Long, Long> e = pollLastEntry();
            return e == null ? null : e.getKey();
        }

        @Override public NavigableSet<Long> descendingSet() { return descendingKeySet(); }

        @Override
        public NavigableSet<Long> subSet(Long from, boolean fromInclusive, Long to, boolean toInclusive) {
            return subMap(from, fromInclusive, to, toInclusive).navigableKeySet();
        }

        @Override
        public NavigableSet<Long> headSet(Long to, boolean inclusive) {
            return headMap(to, inclusive).navigableKeySet();
        }

        @Override
        public NavigableSet<Long> tailSet(Long from, boolean inclusive) {
            return tailMap(from, inclusive).navigableKeySet();
        }

        @Override public NavigableSet<Long> subSet(Long from, Long to) { return subSet(from, true, to, false); }
        @Override public NavigableSet<Long> headSet(Long to) { return headSet(to, false); }
        @Override public NavigableSet<Long> tailSet(Long from) { return tailSet(from, true); }
    }

    private final class Values extends AbstractCollection<Long> {
        @Override public Iterator<Long> iterator() { return new ViewIterator.Values(range, descending); }
        @Override public int size() { return LongNavigableMap.this.size(); }
        @Override public boolean isEmpty() { return LongNavigableMap.this.isEmpty(); }
        @Override public boolean contains(Object o) { return containsValue(o); }
        @Override public void clear() { LongNavigableMap.this.clear(); }

        @Override
        public Spliterator<Long> spliterator() {
            return Spliterators.spliterator(this, Spliterator.ORDERED | Spliterator.NONNULL);
        }
    }

    private final class EntrySet extends AbstractSet<Entry<Long, Long>> {
        @Override public Iterator<Entry<Long, Long>> iterator() { return new ViewIterator.Entries(range, descending); }
        @Override public int size() { return LongNavigableMap.this.size(); }
        @Override public boolean isEmpty() { return LongNavigableMap.this.isEmpty(); }
        @Override public void clear() { LongNavigableMap.this.clear(); }

        /** Whether {@code o} is a mapping of the view (key queries are checked as by the map). */
        private boolean holds(Object o) {
            if (!(o instanceof Map.Entry<?, ?> e)) {
                return false;
            }
            long k = ViewRange.key(e.getKey());
            if (!(e.getValue() instanceof Long boxed) || !range.inRange(k)) {
                return false;
            }
            long[] out = new long[1];
            return index.get(k, out) && out[0] == boxed;
        }

        @Override
        public boolean contains(Object o) {
            return holds(o);
        }

        @Override
        public boolean remove(Object o) {
            if (!(o instanceof Map.Entry<?, ?> e)) {
                return false;
            }
            long k = ViewRange.key(e.getKey());
            // One conditional step: removed only if the key still holds the entry's value.
            return e.getValue() instanceof Long boxed && range.inRange(k) && index.remove(k, (long) boxed);
        }

        @Override
        public Spliterator<Entry<Long, Long>> spliterator() {
            return Spliterators.spliterator(this,
                    Spliterator.ORDERED | Spliterator.DISTINCT | Spliterator.NONNULL);
        }
    }
}
