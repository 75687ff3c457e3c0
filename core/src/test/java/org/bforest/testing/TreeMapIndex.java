package org.bforest.testing;

import java.util.ConcurrentModificationException;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.TreeMap;
import org.bforest.LongCursor;
import org.bforest.LongEntryVisitor;
import org.bforest.LongIndex;
import org.bforest.LongIndexViews;
import org.bforest.spi.InvariantCheckable;

/**
 * A {@link LongIndex} over {@link TreeMap}: obviously right and slow. It is the model the
 * differential tests compare against, and it runs the contract suite itself so that the suite is
 * known to accept a correct implementation.
 */
public final class TreeMapIndex implements LongIndex, InvariantCheckable {
    private final TreeMap<Long, Long> map = new TreeMap<>();
    private int modCount;
    private long defaultReturnValue;

    /** Bulk load with the same checks (and messages) as the real structures. */
    public static TreeMapIndex bulkLoad(long[] keys, long[] values) {
        org.bforest.util.SortedInput.check(keys, values);
        TreeMapIndex index = new TreeMapIndex();
        for (int i = 0; i < keys.length; i++) {
            index.map.put(keys[i], values == null ? 0L : values[i]);
        }
        return index;
    }

    @Override public long put(long key, long value) {
        Long old = map.put(key, value);
        if (old == null) modCount++;
        return old == null ? defaultReturnValue : old;
    }
    @Override public long get(long key, long absent) {
        Long v = map.get(key);
        return v == null ? absent : v;
    }
    @Override public boolean containsKey(long key) { return map.containsKey(key); }
    @Override public long remove(long key) {
        Long old = map.remove(key);
        if (old != null) modCount++;
        return old == null ? defaultReturnValue : old;
    }
    @Override public boolean put(long key, long value, long[] previous) {
        org.bforest.util.BatchArguments.checkOut(previous, "previous");
        Long old = map.put(key, value);
        if (old == null) { modCount++; return false; }
        previous[0] = old;
        return true;
    }
    @Override public boolean remove(long key, long[] previous) {
        org.bforest.util.BatchArguments.checkOut(previous, "previous");
        Long old = map.remove(key);
        if (old == null) return false;
        modCount++;
        previous[0] = old;
        return true;
    }
    @Override public long defaultReturnValue() { return defaultReturnValue; }
    @Override public void defaultReturnValue(long value) { defaultReturnValue = value; }
    @Override public long size() { return map.size(); }
    @Override public void clear() { map.clear(); modCount++; }

    private static long orAbsent(Long k, long absent) { return k == null ? absent : k; }
    @Override public long ceilingKey(long key, long absent) { return orAbsent(map.ceilingKey(key), absent); }
    @Override public long floorKey(long key, long absent) { return orAbsent(map.floorKey(key), absent); }
    @Override public long higherKey(long key, long absent) { return orAbsent(map.higherKey(key), absent); }
    @Override public long lowerKey(long key, long absent) { return orAbsent(map.lowerKey(key), absent); }
    @Override public long firstKey() { return map.firstKey(); }
    @Override public long lastKey() { return map.lastKey(); }

    /** The closed interval of the bounds, or null when it is empty. */
    private static long[] closed(long from, boolean fromInclusive, long to, boolean toInclusive) {
        if (!fromInclusive && from == Long.MAX_VALUE || !toInclusive && to == Long.MIN_VALUE) return null;
        long lo = fromInclusive ? from : from + 1;
        long hi = toInclusive ? to : to - 1;
        return lo > hi ? null : new long[] {lo, hi};
    }
    @Override public long rangeCount(long from, boolean fromInclusive, long to, boolean toInclusive) {
        long[] r = closed(from, fromInclusive, to, toInclusive);
        return r == null ? 0 : map.subMap(r[0], true, r[1], true).size();
    }
    @Override public long rangeVisit(long from, boolean fromInclusive, long to, boolean toInclusive,
                                     LongEntryVisitor visitor) {
        java.util.Objects.requireNonNull(visitor, "visitor");
        long[] r = closed(from, fromInclusive, to, toInclusive);
        if (r == null) return 0;
        long n = 0;
        int expected = modCount;
        for (Map.Entry<Long, Long> e : map.subMap(r[0], true, r[1], true).entrySet()) {
            n++;
            boolean go = visitor.visit(e.getKey(), e.getValue());
            if (expected != modCount) throw new ConcurrentModificationException("the visitor changed the index");
            if (!go) break;
        }
        return n;
    }
    /** The model's invariant: the map's size is what the index reports (TreeMap checks itself). */
    @Override public void checkInvariants() {
        if (map.size() != size()) throw new IllegalStateException("size mismatch");
        Long prev = null;
        for (Long k : map.keySet()) {
            if (prev != null && prev >= k) throw new IllegalStateException("keys out of order at " + k);
            prev = k;
        }
    }
    @Override public long memoryBytes() { return 88L * map.size(); }

    @Override public LongCursor cursor() { return new Cursor(); }

    /** A view over the model map. */
    public TreeMap<Long, Long> map() { return map; }

    private final class Cursor implements LongCursor {
        private Map.Entry<Long, Long> at;
        private int expected = modCount;

        private boolean set(Map.Entry<Long, Long> e) {
            at = e;
            expected = modCount;
            return e != null;
        }
        private void check() {
            if (expected != modCount) throw new ConcurrentModificationException("index changed under the cursor");
        }
        private Map.Entry<Long, Long> valid() {
            check();
            if (at == null) throw new NoSuchElementException("cursor is not on an entry");
            return at;
        }
        @Override public boolean seekCeiling(long key) { return set(map.ceilingEntry(key)); }
        @Override public boolean seekFloor(long key) { return set(map.floorEntry(key)); }
        @Override public boolean seekHigher(long key) { return set(map.higherEntry(key)); }
        @Override public boolean seekLower(long key) { return set(map.lowerEntry(key)); }
        @Override public boolean seekFirst() { return set(map.firstEntry()); }
        @Override public boolean seekLast() { return set(map.lastEntry()); }
        @Override public boolean next() {
            check();
            return at != null && set(map.higherEntry(at.getKey()));
        }
        @Override public boolean previous() {
            check();
            return at != null && set(map.lowerEntry(at.getKey()));
        }
        @Override public boolean isValid() { check(); return at != null; }
        @Override public long key() { return valid().getKey(); }
        @Override public long value() { return map.get(valid().getKey()); }
        @Override public void remove() {
            long k = valid().getKey();
            TreeMapIndex.this.remove(k);
            set(map.higherEntry(k));
        }
    }

    @Override
    public NavigableMap<Long, Long> asNavigableMap() {
        return LongIndexViews.asNavigableMap(this);
    }
}
