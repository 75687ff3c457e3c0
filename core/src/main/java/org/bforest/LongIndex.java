package org.bforest;

import java.util.NavigableMap;
import java.util.NoSuchElementException;

/**
 * An ordered map from {@code long} keys to {@code long} values, in signed key order.
 *
 * <p>Every one of the 2<sup>64</sup> {@code long} values is a valid key, {@link Long#MIN_VALUE}
 * and {@link Long#MAX_VALUE} included. The primitive methods never box; {@link #asNavigableMap()}
 * gives a live {@code java.util} view for code that wants one.
 *
 * <p>Because every {@code long} can be a key, a look-up that may find nothing takes the value to
 * return in that case ({@code absent}). When that value could itself be a real answer, ask
 * {@link #containsKey} or use a {@link LongCursor}, whose {@code seek…} methods say whether they
 * found anything.
 *
 * <p>Implementations are not thread-safe unless they say otherwise. A {@link LongCursor} or a
 * view iterator becomes stale when a key is added or removed other than through it, and then
 * throws {@link java.util.ConcurrentModificationException}; replacing the value of a key that is
 * already there does not make cursors stale.
 *
 * <pre>{@code
 * LongIndex index = Indexes.bsTree(sortedKeys, values);
 * long v = index.get(42, -1);              // -1 when 42 is absent
 * index.put(43, 7);                        // true: 43 was new
 * long n = index.rangeCount(0, 1000);      // keys in [0, 1000)
 * index.rangeVisit(0, 1000, (k, val) -> System.out.println(k + "=" + val));
 * LongCursor c = index.cursor(500);        // at the least key >= 500
 * while (c.isValid()) { use(c.key(), c.value()); c.next(); }
 * }</pre>
 */
public interface LongIndex {

    /**
     * Maps {@code key} to {@code value}, replacing any earlier value.
     *
     * @return {@code true} if the key was new, {@code false} if an existing value was replaced
     */
    boolean put(long key, long value);

    /** The value of {@code key}, or {@code absent} if the key is not in the index. */
    long get(long key, long absent);

    /**
     * Looks up {@code keys[i]} for every {@code i} and writes its value, or {@code absent}, to
     * {@code values[i]}. Trees override it to run several descents in lock-step, so that the
     * memory misses of independent look-ups overlap: on large indexes this is several times
     * faster than calling {@link #get} in a loop.
     *
     * @throws IllegalArgumentException if {@code values} is shorter than {@code keys}
     */
    default void getAll(long[] keys, long[] values, long absent) {
        if (values.length < keys.length) {
            throw new IllegalArgumentException("values has length " + values.length + " but " + keys.length
                    + " keys are looked up: pass an output array at least as long as the keys");
        }
        for (int i = 0; i < keys.length; i++) {
            values[i] = get(keys[i], absent);
        }
    }

    /** Whether {@code key} is in the index. */
    boolean containsKey(long key);

    /**
     * Removes {@code key} and its value.
     *
     * @return {@code true} if the key was there
     */
    boolean remove(long key);

    /** The number of keys. */
    long size();

    /** Whether the index holds no key. */
    default boolean isEmpty() {
        return size() == 0;
    }

    /** Removes every key; the index keeps working afterwards. */
    void clear();

    // ---- neighbours -------------------------------------------------------------------------

    /** The least key {@code >= key}, or {@code absent} if there is none. */
    long ceilingKey(long key, long absent);

    /** The greatest key {@code <= key}, or {@code absent} if there is none. */
    long floorKey(long key, long absent);

    /** The least key {@code > key}, or {@code absent} if there is none. */
    long higherKey(long key, long absent);

    /** The greatest key {@code < key}, or {@code absent} if there is none. */
    long lowerKey(long key, long absent);

    /**
     * The least key.
     *
     * @throws NoSuchElementException if the index is empty
     */
    long firstKey();

    /**
     * The greatest key.
     *
     * @throws NoSuchElementException if the index is empty
     */
    long lastKey();

    // ---- cursors and ranges -----------------------------------------------------------------

    /** A new cursor that is not yet positioned ({@link LongCursor#isValid()} is false). */
    LongCursor cursor();

    /** A new cursor at the least key {@code >= key} (not valid if there is none). */
    default LongCursor cursor(long key) {
        LongCursor c = cursor();
        c.seekCeiling(key);
        return c;
    }

    /** The number of keys in {@code [from, to)}; 0 when {@code from >= to}. */
    long rangeCount(long from, long to);

    /**
     * Calls {@code visitor} for every key in {@code [from, to)} in ascending order, and returns
     * how many it visited. Nothing is visited when {@code from >= to}. The visitor must not
     * change the index.
     */
    long rangeVisit(long from, long to, LongEntryVisitor visitor);

    // ---- accounting and views ---------------------------------------------------------------

    /**
     * The bytes this index holds on the heap: its arrays as allocated (capacity, not only what
     * is in use), including headers. Comparable across structures.
     */
    long memoryBytes();

    /**
     * A live {@link NavigableMap} view that honours the whole {@code java.util} contract
     * (sub-maps, head/tail and descending views, removal through iterators). Keys and values
     * are boxed, so it is slower than the primitive methods; {@code null} keys and values are
     * rejected with a {@link NullPointerException}.
     */
    default NavigableMap<Long, Long> asNavigableMap() {
        return new LongNavigableMap(this);
    }

    /**
     * Checks the structure's internal invariants and throws {@link IllegalStateException}
     * naming the first one broken. Linear in the size; meant for tests and debugging.
     */
    default void checkInvariants() {
    }
}
