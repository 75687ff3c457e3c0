package org.bforest.fastutil;

import java.util.NoSuchElementException;
import org.bforest.LongCursor;
import org.bforest.LongIndex;

/**
 * A bidirectional walk over the range of a {@link LongIndexSortedMap}, the base of its views'
 * iterators. As fastutil's iterators, it stands between two keys, the one {@code next()} returns
 * and the one {@code previous()} returns, and {@code remove()} removes the key returned last. One {@link LongCursor} serves it; the cursor stands on the next or the
 * previous key (which are neighbours in the index), so a step in either direction is a cursor
 * step, and the walk seeks (descends) only where it lost its place: past an end of the
 * index, or where another thread changed the index under a weakly consistent cursor. Fail-fast
 * where the index's cursors are: every move checks the cursor first.
 */
abstract class RangeWalk {
    private static final int NO = 0;
    private static final int YES = 1;
    /** The previous key is the greatest key of the range at or below {@code prevKey}, not yet looked up. */
    private static final int UNKNOWN = 2;

    /** The index walked (the map's). */
    final LongIndex index;
    /** The map's range: its keys are exactly those in [low, high]. */
    private final long low;
    private final long high;
    private final LongCursor c;
    /** The cursor is valid and on {@code cursorKey}, which is {@code nextKey} or {@code prevKey}. */
    private boolean cursorOn;
    private long cursorKey;
    private boolean hasNext;
    private long nextKey;
    private int prev;
    private long prevKey;
    private boolean canRemove;
    private boolean lastForward;
    long lastKey;
    long lastValue;

    /** Before the first key of {@code map}'s range. */
    RangeWalk(LongIndexSortedMap map) {
        this.index = map.index;
        this.low = map.low;
        this.high = map.high;
        this.c = index.cursor();
        prev = NO;
        hasNext = c.seekCeiling(low) && c.key() <= high;
        if (hasNext) {
            nextKey = c.key();
            cursorOn = true;
            cursorKey = nextKey;
        }
    }

    /** Just after {@code after}: {@code next()} returns the least key above it, {@code previous()} the greatest at or below. */
    RangeWalk(LongIndexSortedMap map, long after) {
        this.index = map.index;
        this.low = map.low;
        this.high = map.high;
        this.c = index.cursor();
        if (after < high) {
            long first = after < low ? low : after + 1;
            hasNext = c.seekCeiling(first) && c.key() <= high;
            if (hasNext) {
                nextKey = c.key();
                cursorOn = true;
                cursorKey = nextKey;
            }
        }
        if (after < low) {
            prev = NO;
        } else {
            prev = UNKNOWN;
            prevKey = after;
        }
    }

    /** Throws ConcurrentModificationException if the index changed other than through this walk (fail-fast cursors). */
    private void check() {
        c.isValid();
    }

    public final boolean hasNext() {
        return hasNext;
    }

    public final boolean hasPrevious() {
        resolvePrevious();
        return prev == YES;
    }

    /** Puts the cursor on {@code key}, the next or the previous key; false if the index no longer holds it. */
    private boolean moveTo(long key) {
        if (cursorOn) {
            if (cursorKey == key) {
                return true;
            }
            // The cursor is on the other neighbour: one step.
            if ((cursorKey < key ? c.next() : c.previous()) && c.key() == key) {
                cursorKey = key;
                return true;
            }
        }
        cursorOn = c.seekCeiling(key) && c.key() == key;
        cursorKey = key;
        return cursorOn;
    }

    /** Looks up the previous key if it is not known yet. */
    private void resolvePrevious() {
        if (prev != UNKNOWN) {
            return;
        }
        long limit = prevKey;
        if (limit < low) {
            prev = NO;
            return;
        }
        if (cursorOn && hasNext && cursorKey == nextKey) {
            // No key lies between `limit` and the next key: the previous is the cursor's neighbour.
            boolean moved = c.previous();
            if (moved && c.key() >= low) {
                prev = YES;
                prevKey = c.key();
                cursorKey = prevKey;
            } else {
                prev = NO;
                if (moved) {
                    c.next();       // back on the next key
                } else {
                    cursorOn = false;
                }
            }
            return;
        }
        if (c.seekFloor(Math.min(limit, high)) && c.key() >= low) {
            prev = YES;
            prevKey = c.key();
            cursorOn = true;
            cursorKey = prevKey;
        } else {
            prev = NO;
            cursorOn = false;
        }
    }

    /** Steps over the next key, leaving it in lastKey/lastValue. */
    final void forward() {
        check();
        if (!hasNext) {
            throw new NoSuchElementException("no key after this one in the map");
        }
        if (!moveTo(nextKey)) {
            // Another thread removed it (weakly consistent cursors): go on from the key after it.
            if (!(c.isValid() && c.key() <= high)) {
                hasNext = false;
                cursorOn = false;
                throw new NoSuchElementException("the next key, " + nextKey + ", was removed meanwhile and none follows");
            }
            cursorOn = true;
            cursorKey = c.key();
        }
        long k = c.key();
        lastKey = k;
        lastValue = c.value();
        canRemove = true;
        lastForward = true;
        prev = YES;
        prevKey = k;
        boolean moved = c.next();
        if (moved && c.key() <= high) {
            nextKey = c.key();
            cursorKey = nextKey;
        } else {
            hasNext = false;
            if (moved) {
                c.previous();       // back on k, the previous key
                cursorKey = k;
            } else {
                cursorOn = false;
            }
        }
    }

    /** Steps back over the previous key, leaving it in lastKey/lastValue. */
    final void backward() {
        check();
        resolvePrevious();
        if (prev != YES) {
            throw new NoSuchElementException("no key before this one in the map");
        }
        if (!moveTo(prevKey)) {
            if (!(c.seekFloor(prevKey) && c.key() >= low)) {
                prev = NO;
                cursorOn = false;
                throw new NoSuchElementException("the previous key, " + prevKey + ", was removed meanwhile and none precedes it");
            }
            cursorOn = true;
            cursorKey = c.key();
        }
        long k = c.key();
        lastKey = k;
        lastValue = c.value();
        canRemove = true;
        lastForward = false;
        hasNext = true;
        nextKey = k;
        boolean moved = c.previous();
        if (moved && c.key() >= low) {
            prev = YES;
            prevKey = c.key();
            cursorKey = prevKey;
        } else {
            prev = NO;
            if (moved) {
                c.next();           // back on k, the next key
                cursorKey = k;
            } else {
                cursorOn = false;
            }
        }
    }

    public final void remove() {
        if (!canRemove) {
            throw new IllegalStateException("remove() needs a next() or previous() before it, one remove() each");
        }
        check();
        canRemove = false;
        long k = lastKey;
        if (moveTo(k)) {
            c.remove();             // the cursor moves to the key after k
        } else {
            index.remove(k);        // gone already (another thread): nothing to remove
            c.seekHigher(k);
        }
        if (c.isValid() && c.key() <= high) {
            hasNext = true;
            nextKey = c.key();
            cursorOn = true;
            cursorKey = nextKey;
        } else {
            hasNext = false;
            cursorOn = false;
        }
        if (lastForward) {
            // k was the previous key; the previous is now the greatest key below it.
            if (k == Long.MIN_VALUE) {
                prev = NO;
            } else {
                prev = UNKNOWN;
                prevKey = k - 1;
            }
        }
    }
}
