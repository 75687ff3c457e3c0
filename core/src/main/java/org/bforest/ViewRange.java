package org.bforest;

import java.util.Map;

/**
 * The keys a {@link LongNavigableMap} view covers, and everything the view asks of its index
 * within them, in ascending terms: the bounds, the argument checks of keys and values, the
 * neighbour searches, the count and the walk. Apart from the map so that the map holds only the
 * {@code java.util} surface (which swaps directions for a descending view) and the iterators
 * ({@link ViewIterator}) can walk a range without the map. A descending view shares the range of
 * the view it reverses; every sub-view gets its own.
 *
 * <p>The bounds are kept as given (for the argument checks of further sub-views, which follow
 * {@code TreeMap} exactly) and normalised once, at construction, to a closed interval
 * {@code [low, high]} of keys, so that {@code (5, ...} becomes {@code [6, ...} and every range
 * test is two comparisons; an exclusive bound that would overflow
 * ({@code tailMap(Long.MAX_VALUE, false)}) gives an empty interval ({@code low > high}). Since keys
 * are integers, {@code higher(k)} is {@code ceiling(k + 1)} and {@code lower(k)} is
 * {@code floor(k - 1)}, guarded at the extremes. Range tests, searches and counts work on
 * {@code long}s; boxing happens only for what the {@code java.util} API returns.
 */
final class ViewRange {

    final LongIndex index;
    /**
     * Whether other threads may change the index at any time (a {@link ConcurrentLongIndex}): then
     * emptiness is asked of the keys, not of the size, which is only an estimate while they write.
     */
    final boolean concurrent;

    // The bounds as given, in ascending key order (lo/hi are unused when unbounded).
    private final boolean fromStart;
    private final long lo;
    private final boolean loInclusive;
    private final boolean toEnd;
    private final long hi;
    private final boolean hiInclusive;

    /** The keys of the view are exactly those in [low, high]; low > high when there are none. */
    final long low;
    final long high;

    /** The whole index. */
    ViewRange(LongIndex index, boolean concurrent) {
        this(index, concurrent, true, Long.MIN_VALUE, true, true, Long.MAX_VALUE, true);
    }

    private ViewRange(LongIndex index, boolean concurrent, boolean fromStart, long lo, boolean loInclusive,
                      boolean toEnd, long hi, boolean hiInclusive) {
        if (!fromStart && !toEnd && lo > hi) {
            throw new IllegalArgumentException("fromKey > toKey");
        }
        this.index = index;
        this.concurrent = concurrent;
        this.fromStart = fromStart;
        this.lo = lo;
        this.loInclusive = loInclusive;
        this.toEnd = toEnd;
        this.hi = hi;
        this.hiInclusive = hiInclusive;

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

    // ---- sub-ranges, in ascending terms ---------------------------------------------------------

    /** The keys between {@code from} and {@code to} (checked by the caller against this range). */
    ViewRange between(long from, boolean fromInclusive, long to, boolean toInclusive) {
        return new ViewRange(index, concurrent, false, from, fromInclusive, false, to, toInclusive);
    }

    /** This range's keys below {@code to}. */
    ViewRange below(long to, boolean inclusive) {
        return new ViewRange(index, concurrent, fromStart, lo, loInclusive, false, to, inclusive);
    }

    /** This range's keys above {@code from}. */
    ViewRange above(long from, boolean inclusive) {
        return new ViewRange(index, concurrent, false, from, inclusive, toEnd, hi, hiInclusive);
    }

    // ---- range tests and argument checks --------------------------------------------------------

    boolean whole() {
        return fromStart && toEnd;
    }

    boolean inRange(long key) {
        return key >= low && key <= high;
    }

    /** TreeMap's test for the bounds of a sub-view: on an exclusive bound itself is allowed. */
    private boolean inClosedRange(long key) {
        return (fromStart || key >= lo) && (toEnd || key <= hi);
    }

    boolean inRange(long key, boolean inclusive) {
        return inclusive ? inRange(key) : inClosedRange(key);
    }

    /** A key argument: {@code null} and other types are rejected as by {@code TreeMap}. */
    static long key(Object key) {
        if (key == null) {
            throw new NullPointerException("null key");
        }
        return (Long) key;
    }

    /** A value argument: {@code null} is rejected. */
    static long value(Long value) {
        if (value == null) {
            throw new NullPointerException("null value");
        }
        return value;
    }

    // ---- count, walk ------------------------------------------------------------------------------

    long count() {
        if (whole()) {
            return index.size();
        }
        return low > high ? 0 : index.rangeCount(low, true, high, true);
    }

    boolean isEmpty() {
        if (whole() && !concurrent) {
            return index.isEmpty();
        }
        return ceilingKey(low) == null;
    }

    /** Visits the entries of the range in ascending order. */
    void visit(LongEntryConsumer action) {
        if (low > high) {
            return;
        }
        index.rangeVisit(low, true, high, true, (k, v) -> {
            action.accept(k, v);
            return true;
        });
    }

    /** Positions {@code c} at the first entry of the range in the given absolute direction. */
    boolean seekStart(LongCursor c, boolean down) {
        return down ? c.seekFloor(high) && c.key() >= low : c.seekCeiling(low) && c.key() <= high;
    }

    /** Moves {@code c} one entry on in the given direction, staying within the range. */
    boolean step(LongCursor c, boolean down) {
        return down ? c.previous() && c.key() >= low : c.next() && c.key() <= high;
    }

    /** Positions {@code c} at the entry after the removed {@code key} in the given direction, within the range. */
    boolean seekPast(LongCursor c, long key, boolean down) {
        return down ? c.seekLower(key) && c.key() >= low : c.seekHigher(key) && c.key() <= high;
    }

    // ---- neighbours -------------------------------------------------------------------------------

    /** The least key {@code >= x} in the range, or null. */
    Long ceilingKey(long x) {
        if (x < low) {
            x = low;
        }
        if (x > high) {
            return null;
        }
        long k;
        if (x == Long.MIN_VALUE) {
            // No "absent" value is out of reach below Long.MIN_VALUE: a cursor says whether it found one.
            LongCursor c = index.cursor();
            if (!c.seekCeiling(x)) {
                return null;
            }
            k = c.key();
        } else {
            k = index.ceilingKey(x, x - 1);
            if (k < x) {
                return null;
            }
        }
        return k <= high ? Long.valueOf(k) : null;
    }

    /** The greatest key {@code <= x} in the range, or null. */
    Long floorKey(long x) {
        if (x > high) {
            x = high;
        }
        if (x < low) {
            return null;
        }
        long k;
        if (x == Long.MAX_VALUE) {
            LongCursor c = index.cursor();
            if (!c.seekFloor(x)) {
                return null;
            }
            k = c.key();
        } else {
            k = index.floorKey(x, x + 1);
            if (k > x) {
                return null;
            }
        }
        return k >= low ? Long.valueOf(k) : null;
    }

    Long higherKey(long x) {
        return x == Long.MAX_VALUE ? null : ceilingKey(x + 1);
    }

    Long lowerKey(long x) {
        return x == Long.MIN_VALUE ? null : floorKey(x - 1);
    }

    Map.Entry<Long, Long> ceilingEntry(long x) {
        if (x < low) {
            x = low;
        }
        if (x > high) {
            return null;
        }
        LongCursor c = index.cursor();
        return c.seekCeiling(x) && c.key() <= high ? new ViewEntry(c.key(), c.value()) : null;
    }

    Map.Entry<Long, Long> floorEntry(long x) {
        if (x > high) {
            x = high;
        }
        if (x < low) {
            return null;
        }
        LongCursor c = index.cursor();
        return c.seekFloor(x) && c.key() >= low ? new ViewEntry(c.key(), c.value()) : null;
    }

    Map.Entry<Long, Long> higherEntry(long x) {
        return x == Long.MAX_VALUE ? null : ceilingEntry(x + 1);
    }

    Map.Entry<Long, Long> lowerEntry(long x) {
        return x == Long.MIN_VALUE ? null : floorEntry(x - 1);
    }

    /**
     * Removes and returns the first entry in the given absolute direction, or null. The entry is
     * the one this call's own exact remove took, with the value it removed: if another thread
     * takes the key between the seek and the remove, the poll seeks again, so each entry is
     * handed to exactly one caller.
     */
    Map.Entry<Long, Long> poll(boolean down) {
        LongCursor c = index.cursor();
        long[] previous = new long[1];
        for (;;) {
            if (!seekStart(c, down)) {
                return null;
            }
            long k = c.key();
            if (index.remove(k, previous)) {
                return new ViewEntry(k, previous[0]);
            }
        }
    }
}
