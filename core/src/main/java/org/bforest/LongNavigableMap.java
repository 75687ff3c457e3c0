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
 * The live {@link NavigableMap} view of a {@link LongIndex} returned by
 * {@link LongIndex#asNavigableMap()}; it behaves like a {@link java.util.TreeMap} with natural
 * ordering that rejects {@code null} keys and values.
 *
 * <p><b>One class for every view.</b> Like {@code ConcurrentSkipListMap.SubMap}, a single class
 * describes the whole map, every sub-, head- and tail-map and every descending view: it holds the
 * index, the bounds as given (for the argument checks of further sub-views, which follow
 * {@code TreeMap} exactly) and a {@code descending} flag. The bounds are also normalised once,
 * at construction, to a closed interval {@code [low, high]} of keys, so that {@code (5, ...}
 * becomes {@code [6, ...} and every range test is two comparisons; an exclusive bound that would
 * overflow ({@code tailMap(Long.MAX_VALUE, false)}) gives an empty interval ({@code low > high}).
 * All navigation is written once in ascending terms ({@code abs...} methods) and the public
 * methods swap ceiling/floor, higher/lower and first/last when the view is descending. Since keys
 * are integers, {@code higher(k)} is {@code ceiling(k + 1)} and {@code lower(k)} is
 * {@code floor(k - 1)}, guarded at the extremes.
 *
 * <p><b>Primitive paths.</b> Range tests, searches and counts work on {@code long}s; boxing
 * happens only for what the {@code java.util} API returns. {@link #size()} of a bounded view is
 * {@link LongIndex#rangeCount(long, boolean, long, boolean)} over {@code [low, high]}. Because
 * {@link LongIndex#get(long, long)} cannot tell "absent" from a value equal to {@code absent}, the
 * view asks with an unlikely {@link #PROBE} value and only on a hit of that value checks
 * {@code containsKey}. {@code put} and {@code remove} cost one descent: the index returns the
 * previous value, and whether {@link LongIndex#size()} moved says whether there was one (the
 * view is no more thread-safe than its index, so nothing else changes the size in between).
 *
 * <p><b>Iteration.</b> Iterators drive a {@link LongCursor} in either direction and keep it one
 * entry ahead (like {@code TreeMap}'s {@code next} pointer). They are fail-fast through the
 * cursor: a cursor goes stale when the index changes other than through it and then throws
 * {@link java.util.ConcurrentModificationException}, which the iterator lets through from
 * {@code next()} and {@code remove()}. {@code Iterator.remove()} removes the last key through the
 * index and re-seeks the cursor to that key's neighbour, which is the entry that was next. As in
 * {@code TreeMap}, replacing the value of an existing key is not a structural change and does not
 * disturb iterators.
 *
 * <p><b>Entries.</b> {@code firstEntry()}, {@code ceilingEntry()}, {@code pollFirstEntry()} and the
 * like return immutable snapshots. Entries from {@code entrySet()} iterators hold the key and the
 * value read when they were returned; {@code setValue} writes through to the index (and does not
 * re-insert a key removed in the meantime). Unlike {@code TreeMap}'s, they do not see later
 * changes made other than through them, which the {@link Map.Entry} contract leaves undefined.
 *
 * <p>Queries with a {@code null} key throw {@link NullPointerException} and with a key that is not
 * a {@link Long} throw {@link ClassCastException}, like {@code TreeMap}; {@code containsValue} of
 * anything but a {@code Long} is {@code false}. The view is not serializable and no more
 * thread-safe than its index.
 */
final class LongNavigableMap extends AbstractMap<Long, Long> implements NavigableMap<Long, Long> {

    /** The {@code absent} value for {@link LongIndex#get(long, long)}; a hit needs a check. */
    static final long PROBE = 0x9E37_79B9_7F4A_7C15L;

    private final LongIndex index;

    // The bounds as given, in ascending key order (lo/hi are unused when unbounded).
    private final boolean fromStart;
    private final long lo;
    private final boolean loInclusive;
    private final boolean toEnd;
    private final long hi;
    private final boolean hiInclusive;

    /** The keys of the view are exactly those in [low, high]; low > high when there are none. */
    private final long low;
    private final long high;

    /** Whether the view lists keys in descending order. */
    private final boolean descending;

    private LongNavigableMap descendingView;
    private KeySet keySetView;
    private EntrySet entrySetView;
    private Values valuesView;

    /** The view of the whole index, in ascending order. */
    LongNavigableMap(LongIndex index) {
        this(Objects.requireNonNull(index, "index"),
                true, Long.MIN_VALUE, true, true, Long.MAX_VALUE, true, false);
    }

    private LongNavigableMap(LongIndex index, boolean fromStart, long lo, boolean loInclusive,
                             boolean toEnd, long hi, boolean hiInclusive, boolean descending) {
        if (!fromStart && !toEnd && lo > hi) {
            throw new IllegalArgumentException("fromKey > toKey");
        }
        this.index = index;
        this.fromStart = fromStart;
        this.lo = lo;
        this.loInclusive = loInclusive;
        this.toEnd = toEnd;
        this.hi = hi;
        this.hiInclusive = hiInclusive;
        this.descending = descending;

        long l = Long.MIN_VALUE;
        long h = Long.MAX_VALUE;
        boolean none = false;
        if (!fromStart) {
            if (loInclusive) {
                l = lo;
            } else if (lo == Long.MAX_VALUE) {
                none = true;
            } else {
                l = lo + 1;
            }
        }
        if (!toEnd) {
            if (hiInclusive) {
                h = hi;
            } else if (hi == Long.MIN_VALUE) {
                none = true;
            } else {
                h = hi - 1;
            }
        }
        if (none) {
            l = 1;
            h = 0;
        }
        this.low = l;
        this.high = h;
    }

    // ---- ranges -----------------------------------------------------------------------------

    private boolean whole() {
        return fromStart && toEnd;
    }

    private boolean inRange(long key) {
        return key >= low && key <= high;
    }

    /** TreeMap's test for the bounds of a sub-view: on an exclusive bound itself is allowed. */
    private boolean inClosedRange(long key) {
        return (fromStart || key >= lo) && (toEnd || key <= hi);
    }

    private boolean inRange(long key, boolean inclusive) {
        return inclusive ? inRange(key) : inClosedRange(key);
    }

    /** A key argument: {@code null} and other types are rejected as by {@code TreeMap}. */
    private static long key(Object key) {
        if (key == null) {
            throw new NullPointerException("null key");
        }
        return (Long) key;
    }

    private static long value(Long value) {
        if (value == null) {
            throw new NullPointerException("null value");
        }
        return value;
    }

    private long count() {
        if (whole()) {
            return index.size();
        }
        return low > high ? 0 : index.rangeCount(low, true, high, true);
    }

    /** Visits the entries of the view in ascending order. */
    private void visitRange(LongEntryConsumer action) {
        if (low > high) {
            return;
        }
        index.rangeVisit(low, true, high, true, (k, v) -> {
            action.accept(k, v);
            return true;
        });
    }

    /** Positions {@code c} at the first entry of the view in the given absolute direction. */
    private boolean seekStart(LongCursor c, boolean down) {
        return down ? c.seekFloor(high) && c.key() >= low : c.seekCeiling(low) && c.key() <= high;
    }

    /** Moves {@code c} one entry on in the given direction, staying within the view. */
    private boolean step(LongCursor c, boolean down) {
        return down ? c.previous() && c.key() >= low : c.next() && c.key() <= high;
    }

    // ---- navigation in ascending terms -------------------------------------------------------

    /** The least key {@code >= x} in the view, or null. */
    private Long absCeilingKey(long x) {
        if (x < low) {
            x = low;
        }
        if (x > high) {
            return null;
        }
        long k;
        if (x == Long.MIN_VALUE) {
            if (index.isEmpty()) {
                return null;
            }
            k = index.firstKey();
        } else {
            k = index.ceilingKey(x, x - 1);
            if (k < x) {
                return null;
            }
        }
        return k <= high ? Long.valueOf(k) : null;
    }

    /** The greatest key {@code <= x} in the view, or null. */
    private Long absFloorKey(long x) {
        if (x > high) {
            x = high;
        }
        if (x < low) {
            return null;
        }
        long k;
        if (x == Long.MAX_VALUE) {
            if (index.isEmpty()) {
                return null;
            }
            k = index.lastKey();
        } else {
            k = index.floorKey(x, x + 1);
            if (k > x) {
                return null;
            }
        }
        return k >= low ? Long.valueOf(k) : null;
    }

    private Long absHigherKey(long x) {
        return x == Long.MAX_VALUE ? null : absCeilingKey(x + 1);
    }

    private Long absLowerKey(long x) {
        return x == Long.MIN_VALUE ? null : absFloorKey(x - 1);
    }

    private Entry<Long, Long> absCeilingEntry(long x) {
        if (x < low) {
            x = low;
        }
        if (x > high) {
            return null;
        }
        LongCursor c = index.cursor();
        return c.seekCeiling(x) && c.key() <= high ? new LongEntry(c.key(), c.value()) : null;
    }

    private Entry<Long, Long> absFloorEntry(long x) {
        if (x > high) {
            x = high;
        }
        if (x < low) {
            return null;
        }
        LongCursor c = index.cursor();
        return c.seekFloor(x) && c.key() >= low ? new LongEntry(c.key(), c.value()) : null;
    }

    private Entry<Long, Long> absHigherEntry(long x) {
        return x == Long.MAX_VALUE ? null : absCeilingEntry(x + 1);
    }

    private Entry<Long, Long> absLowerEntry(long x) {
        return x == Long.MIN_VALUE ? null : absFloorEntry(x - 1);
    }

    /** Removes and returns the first entry in the given absolute direction, or null. */
    private Entry<Long, Long> poll(boolean down) {
        LongCursor c = index.cursor();
        if (!seekStart(c, down)) {
            return null;
        }
        Entry<Long, Long> e = new LongEntry(c.key(), c.value());
        c.remove();
        return e;
    }

    // ---- Map -------------------------------------------------------------------------------

    @Override
    public int size() {
        long n = count();
        return n > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) n;
    }

    @Override
    public boolean isEmpty() {
        if (whole()) {
            return index.isEmpty();
        }
        return absCeilingKey(low) == null;
    }

    @Override
    public boolean containsKey(Object key) {
        long k = key(key);
        return inRange(k) && index.containsKey(k);
    }

    @Override
    public boolean containsValue(Object value) {
        if (!(value instanceof Long boxed)) {
            return false;
        }
        long v = boxed;
        LongCursor c = index.cursor();
        for (boolean ok = seekStart(c, false); ok; ok = step(c, false)) {
            if (c.value() == v) {
                return true;
            }
        }
        return false;
    }

    @Override
    public Long get(Object key) {
        long k = key(key);
        if (!inRange(k)) {
            return null;
        }
        long v = index.get(k, PROBE);
        return v != PROBE || index.containsKey(k) ? Long.valueOf(v) : null;
    }

    @Override
    public Long put(Long key, Long value) {
        long k = key(key);
        long v = value(value);
        if (!inRange(k)) {
            throw new IllegalArgumentException("key out of range");
        }
        // One descent: put returns the previous value, and the size says whether there was one.
        long before = index.size();
        long previous = index.put(k, v);
        return index.size() != before ? null : Long.valueOf(previous);
    }

    @Override
    public Long remove(Object key) {
        long k = key(key);
        if (!inRange(k)) {
            return null;
        }
        long before = index.size();
        long previous = index.remove(k);
        return index.size() != before ? Long.valueOf(previous) : null;
    }

    @Override
    public void clear() {
        if (whole()) {
            index.clear();
            return;
        }
        LongCursor c = index.cursor();
        for (boolean ok = seekStart(c, false); ok; ok = c.isValid() && c.key() <= high) {
            c.remove();
        }
    }

    @Override
    public void forEach(BiConsumer<? super Long, ? super Long> action) {
        Objects.requireNonNull(action);
        LongCursor c = index.cursor();
        for (boolean ok = seekStart(c, descending); ok; ok = step(c, descending)) {
            action.accept(c.key(), c.value());
        }
    }

    @Override
    public void replaceAll(BiFunction<? super Long, ? super Long, ? extends Long> function) {
        Objects.requireNonNull(function);
        LongCursor c = index.cursor();
        for (boolean ok = seekStart(c, descending); ok; ok = step(c, descending)) {
            long k = c.key();
            long v = value(function.apply(k, c.value()));
            index.put(k, v);    // replaces a value: not a structural change, c stays usable
        }
    }

    @Override
    public int hashCode() {
        int[] h = new int[1];
        visitRange((k, v) -> h[0] += Long.hashCode(k) ^ Long.hashCode(v));
        return h[0];
    }

    // ---- SortedMap / NavigableMap ------------------------------------------------------------

    @Override
    public Comparator<? super Long> comparator() {
        return descending ? Collections.<Long>reverseOrder() : null;
    }

    @Override
    public Long firstKey() {
        Long k = descending ? absFloorKey(high) : absCeilingKey(low);
        if (k == null) {
            throw new NoSuchElementException();
        }
        return k;
    }

    @Override
    public Long lastKey() {
        Long k = descending ? absCeilingKey(low) : absFloorKey(high);
        if (k == null) {
            throw new NoSuchElementException();
        }
        return k;
    }

    @Override
    public Long lowerKey(Long key) {
        long k = key(key);
        return descending ? absHigherKey(k) : absLowerKey(k);
    }

    @Override
    public Long floorKey(Long key) {
        long k = key(key);
        return descending ? absCeilingKey(k) : absFloorKey(k);
    }

    @Override
    public Long ceilingKey(Long key) {
        long k = key(key);
        return descending ? absFloorKey(k) : absCeilingKey(k);
    }

    @Override
    public Long higherKey(Long key) {
        long k = key(key);
        return descending ? absLowerKey(k) : absHigherKey(k);
    }

    @Override
    public Entry<Long, Long> lowerEntry(Long key) {
        long k = key(key);
        return descending ? absHigherEntry(k) : absLowerEntry(k);
    }

    @Override
    public Entry<Long, Long> floorEntry(Long key) {
        long k = key(key);
        return descending ? absCeilingEntry(k) : absFloorEntry(k);
    }

    @Override
    public Entry<Long, Long> ceilingEntry(Long key) {
        long k = key(key);
        return descending ? absFloorEntry(k) : absCeilingEntry(k);
    }

    @Override
    public Entry<Long, Long> higherEntry(Long key) {
        long k = key(key);
        return descending ? absLowerEntry(k) : absHigherEntry(k);
    }

    @Override
    public Entry<Long, Long> firstEntry() {
        return descending ? absFloorEntry(high) : absCeilingEntry(low);
    }

    @Override
    public Entry<Long, Long> lastEntry() {
        return descending ? absCeilingEntry(low) : absFloorEntry(high);
    }

    @Override
    public Entry<Long, Long> pollFirstEntry() {
        return poll(descending);
    }

    @Override
    public Entry<Long, Long> pollLastEntry() {
        return poll(!descending);
    }

    @Override
    public LongNavigableMap descendingMap() {
        LongNavigableMap d = descendingView;
        if (d == null) {
            d = new LongNavigableMap(index, fromStart, lo, loInclusive, toEnd, hi, hiInclusive, !descending);
            d.descendingView = this;
            descendingView = d;
        }
        return d;
    }

    @Override
    public LongNavigableMap subMap(Long fromKey, boolean fromInclusive, Long toKey, boolean toInclusive) {
        long from = key(fromKey);
        long to = key(toKey);
        if (!inRange(from, fromInclusive)) {
            throw new IllegalArgumentException("fromKey out of range");
        }
        if (!inRange(to, toInclusive)) {
            throw new IllegalArgumentException("toKey out of range");
        }
        return descending
                ? new LongNavigableMap(index, false, to, toInclusive, false, from, fromInclusive, true)
                : new LongNavigableMap(index, false, from, fromInclusive, false, to, toInclusive, false);
    }

    @Override
    public LongNavigableMap headMap(Long toKey, boolean inclusive) {
        long to = key(toKey);
        if (!inRange(to, inclusive)) {
            throw new IllegalArgumentException("toKey out of range");
        }
        return descending
                ? new LongNavigableMap(index, false, to, inclusive, toEnd, hi, hiInclusive, true)
                : new LongNavigableMap(index, fromStart, lo, loInclusive, false, to, inclusive, false);
    }

    @Override
    public LongNavigableMap tailMap(Long fromKey, boolean inclusive) {
        long from = key(fromKey);
        if (!inRange(from, inclusive)) {
            throw new IllegalArgumentException("fromKey out of range");
        }
        return descending
                ? new LongNavigableMap(index, fromStart, lo, loInclusive, false, from, inclusive, true)
                : new LongNavigableMap(index, false, from, inclusive, toEnd, hi, hiInclusive, false);
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
        @Override public Iterator<Long> iterator() { return new KeyIterator(descending); }
        @Override public Iterator<Long> descendingIterator() { return new KeyIterator(!descending); }
        @Override public int size() { return LongNavigableMap.this.size(); }
        @Override public boolean isEmpty() { return LongNavigableMap.this.isEmpty(); }
        @Override public boolean contains(Object o) { return containsKey(o); }
        @Override public void clear() { LongNavigableMap.this.clear(); }

        @Override
        public boolean remove(Object o) {
            long k = key(o);
            return inRange(k) && index.delete(k);
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
        @Override public Iterator<Long> iterator() { return new ValueIterator(); }
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
        @Override public Iterator<Entry<Long, Long>> iterator() { return new EntryIterator(); }
        @Override public int size() { return LongNavigableMap.this.size(); }
        @Override public boolean isEmpty() { return LongNavigableMap.this.isEmpty(); }
        @Override public void clear() { LongNavigableMap.this.clear(); }

        /** Whether {@code o} is a mapping of the view (key queries are checked as by the map). */
        private boolean holds(Object o) {
            if (!(o instanceof Map.Entry<?, ?> e)) {
                return false;
            }
            long k = key(e.getKey());
            if (!(e.getValue() instanceof Long boxed) || !inRange(k)) {
                return false;
            }
            long want = boxed;
            long v = index.get(k, PROBE);
            return v == want && (v != PROBE || index.containsKey(k));
        }

        @Override
        public boolean contains(Object o) {
            return holds(o);
        }

        @Override
        public boolean remove(Object o) {
            if (!holds(o)) {
                return false;
            }
            return index.delete(key(((Map.Entry<?, ?>) o).getKey()));
        }

        @Override
        public Spliterator<Entry<Long, Long>> spliterator() {
            return Spliterators.spliterator(this,
                    Spliterator.ORDERED | Spliterator.DISTINCT | Spliterator.NONNULL);
        }
    }

    // ---- iterators and entries ---------------------------------------------------------------

    /** Walks the view with a cursor kept one entry ahead; see the class comment. */
    private abstract class ViewIterator<T> implements Iterator<T> {
        private final LongCursor cursor = index.cursor();
        /** True for descending key order. */
        private final boolean down;
        private boolean hasNext;
        private boolean canRemove;
        long lastKey;
        long lastValue;

        ViewIterator(boolean down) {
            this.down = down;
            this.hasNext = seekStart(cursor, down);
        }

        @Override
        public final boolean hasNext() {
            return hasNext;
        }

        /** Moves to the next entry, leaving it in lastKey/lastValue. */
        final void advance() {
            if (!hasNext) {
                throw new NoSuchElementException();
            }
            lastKey = cursor.key();     // throws ConcurrentModificationException when stale
            lastValue = cursor.value();
            canRemove = true;
            hasNext = step(cursor, down);
        }

        @Override
        public final void remove() {
            if (!canRemove) {
                throw new IllegalStateException();
            }
            cursor.isValid();           // throws ConcurrentModificationException when stale
            canRemove = false;
            index.remove(lastKey);
            // The entry that was next is the neighbour of the removed key.
            hasNext = down
                    ? cursor.seekLower(lastKey) && cursor.key() >= low
                    : cursor.seekHigher(lastKey) && cursor.key() <= high;
        }
    }

    private final class KeyIterator extends ViewIterator<Long> {
        KeyIterator(boolean down) {
            super(down);
        }

        @Override
        public Long next() {
            advance();
            return lastKey;
        }
    }

    private final class ValueIterator extends ViewIterator<Long> {
        ValueIterator() {
            super(descending);
        }

        @Override
        public Long next() {
            advance();
            return lastValue;
        }
    }

    private final class EntryIterator extends ViewIterator<Entry<Long, Long>> {
        EntryIterator() {
            super(descending);
        }

        @Override
        public Entry<Long, Long> next() {
            advance();
            return new IteratorEntry(lastKey, lastValue);
        }
    }

    /** An immutable snapshot entry over primitives, equal to any entry of the same Longs. */
    private static class LongEntry implements Map.Entry<Long, Long> {
        final long key;
        long value;

        LongEntry(long key, long value) {
            this.key = key;
            this.value = value;
        }

        @Override public final Long getKey() { return key; }
        @Override public final Long getValue() { return value; }

        @Override
        public Long setValue(Long value) {
            throw new UnsupportedOperationException();
        }

        @Override
        public final boolean equals(Object o) {
            return o instanceof Map.Entry<?, ?> e
                    && e.getKey() instanceof Long k && k == key
                    && e.getValue() instanceof Long v && v == value;
        }

        @Override
        public final int hashCode() {
            return Long.hashCode(key) ^ Long.hashCode(value);
        }

        @Override
        public final String toString() {
            return key + "=" + value;
        }
    }

    /** An entry from an entry-set iterator: {@code setValue} writes through to the index. */
    private final class IteratorEntry extends LongEntry {
        IteratorEntry(long key, long value) {
            super(key, value);
        }

        @Override
        public Long setValue(Long value) {
            long v = value(value);
            long previous = index.get(key, PROBE);
            if (previous != PROBE || index.containsKey(key)) {
                index.put(key, v);
            } else {
                previous = this.value;  // removed meanwhile: like TreeMap, the map is not changed
            }
            this.value = v;
            return previous;
        }
    }
}
