package org.bforest;

import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * The iterators of a {@link LongNavigableMap} view (keys, values, entries), each walking a
 * {@link ViewRange} in one direction with a {@link LongCursor} kept one entry ahead (like
 * {@code TreeMap}'s {@code next} pointer). Apart from the map because they need only the range.
 *
 * <p>They are fail-fast through the cursor: a cursor goes stale when the index changes other than
 * through it and then throws {@link java.util.ConcurrentModificationException}, which the iterator
 * lets through from {@code next()} and {@code remove()}. {@code remove()} removes the last key
 * through the index and re-seeks the cursor to that key's neighbour, which is the entry that was
 * next. As in {@code TreeMap}, replacing the value of an existing key is not a structural change
 * and does not disturb iterators.
 */
abstract class ViewIterator<T> implements Iterator<T> {
    final ViewRange range;
    private final LongCursor cursor;
    /** True for descending key order. */
    private final boolean down;
    private boolean hasNext;
    private boolean canRemove;
    long lastKey;
    long lastValue;

    ViewIterator(ViewRange range, boolean down) {
        this.range = range;
        this.cursor = range.index.cursor();
        this.down = down;
        this.hasNext = range.seekStart(cursor, down);
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
        hasNext = range.step(cursor, down);
    }

    @Override
    public final void remove() {
        if (!canRemove) {
            throw new IllegalStateException();
        }
        cursor.isValid();           // throws ConcurrentModificationException when stale
        canRemove = false;
        range.index.remove(lastKey);
        // The entry that was next is the neighbour of the removed key.
        hasNext = range.seekPast(cursor, lastKey, down);
    }

    /** The keys, in the given direction. */
    static final class Keys extends ViewIterator<Long> {
        Keys(ViewRange range, boolean down) {
            super(range, down);
        }

        @Override
        public Long next() {
            advance();
            return lastKey;
        }
    }

    /** The values, in key order in the given direction. */
    static final class Values extends ViewIterator<Long> {
        Values(ViewRange range, boolean down) {
            super(range, down);
        }

        @Override
        public Long next() {
            advance();
            return lastValue;
        }
    }

    /** The entries, in the given direction; their {@code setValue} writes through. */
    static final class Entries extends ViewIterator<Map.Entry<Long, Long>> {
        Entries(ViewRange range, boolean down) {
            super(range, down);
        }

        @Override
        public Map.Entry<Long, Long> next() {
            advance();
            return new WriteThrough(range.index, lastKey, lastValue);
        }
    }

    /**
     * An entry from an entry-set iterator: it holds the key and the value read when it was
     * returned, and {@code setValue} writes through to the index (and does not re-insert a key
     * removed in the meantime). Unlike {@code TreeMap}'s, it does not see later changes made
     * other than through it, which the {@link Map.Entry} contract leaves undefined.
     */
    private static final class WriteThrough extends ViewEntry {
        private final LongIndex index;

        WriteThrough(LongIndex index, long key, long value) {
            super(key, value);
            this.index = index;
        }

        @Override
        public Long setValue(Long value) {
            long v = ViewRange.value(value);
            long[] previous = new long[1];
            // One exact step: replaced only if the key is still there.
            long old = index.replace(key, v, previous) ? previous[0]
                    : this.value;  // removed meanwhile: like TreeMap, the map is not changed
            this.value = v;
            return old;
        }
    }
}
