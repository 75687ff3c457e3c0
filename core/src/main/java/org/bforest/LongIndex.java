package org.bforest;

import java.io.IOException;
import java.nio.file.Path;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.Objects;
import org.bforest.util.BatchArguments;

/**
 * An ordered map from {@code long} keys to {@code long} values, in signed key order: the one
 * interface every bforest structure implements.
 *
 * <p>Every one of the 2<sup>64</sup> {@code long} values is a valid key, {@link Long#MIN_VALUE}
 * and {@link Long#MAX_VALUE} included. The primitive methods never box; {@link #asNavigableMap()}
 * gives a live {@code java.util} view for code that wants one.
 *
 * <h2>Names</h2>
 * A name that {@link NavigableMap} or fastutil's {@code Long2LongSortedMap} uses means what it
 * means there: {@link #put} and {@link #remove} return the previous value, or the
 * {@linkplain #defaultReturnValue() default return value} when there was none, as in fastutil;
 * {@link #get(long)} returns the default return value for an absent key. What differs has its own
 * name: {@link #upsert} and {@link #delete} say whether the key was new or there, and the look-ups
 * that take an {@code absent} argument return that instead of the default
 * ({@link #getOrDefault} is {@code get(key, absent)} by fastutil's name). When the value to
 * return for "absent" could itself be a real answer, ask {@link #containsKey} or use a
 * {@link LongCursor}, whose {@code seek…} methods say whether they found anything.
 *
 * <h2>Threads</h2>
 * Reads ({@code get}, {@code getAll}, {@code containsKey}, the neighbour look-ups, cursors,
 * ranges, {@code forEach}, {@code size}, {@code memoryBytes}) of an index that nobody modifies
 * are safe from any number of threads at once. Writes need the caller's synchronisation unless
 * an implementation says it is thread-safe. A {@link LongCursor} or a view iterator becomes stale
 * when a key is added or removed other than through it, and then throws
 * {@link java.util.ConcurrentModificationException}; replacing the value of a key that is
 * already there does not make cursors stale.
 *
 * <h2>Bad arguments</h2>
 * A {@code null} argument gets a {@link NullPointerException} whose message names it; any other
 * bad argument (arrays of different lengths, a visitor that changes the index) an exception that
 * names it. Either way the index is left as it was.
 *
 * <pre>{@code
 * LongIndex index = Indexes.bsTree(sortedKeys, values);
 * long v = index.get(42, -1);              // -1 when 42 is absent
 * long old = index.put(43, 7);             // the previous value, or defaultReturnValue()
 * boolean fresh = index.upsert(44, 8);     // true: 44 was new
 * long n = index.rangeCount(0, 1000);      // keys in [0, 1000)
 * index.rangeVisit(0, true, 1000, true, (k, val) -> val < 100);   // [0, 1000], stops at a value >= 100
 * LongCursor c = index.cursor(500);        // at the least key >= 500
 * while (c.isValid()) { use(c.key(), c.value()); c.next(); }
 * }</pre>
 */
public interface LongIndex {

    // ---- look-ups ---------------------------------------------------------------------------

    /**
     * The value of {@code key}, or {@code absent} if the key is not in the index.
     *
     * @param key    the key to look up, any {@code long}
     * @param absent what to return when {@code key} is not in the index
     * @return the value of {@code key}, or {@code absent}
     */
    long get(long key, long absent);

    /**
     * The value of {@code key}, or {@link #defaultReturnValue()} if the key is not in the index.
     *
     * @param key the key to look up, any {@code long}
     * @return the value of {@code key}, or the default return value
     */
    default long get(long key) {
        return get(key, defaultReturnValue());
    }

    /**
     * The value of {@code key}, or {@code defaultValue} if the key is not in the index: the name
     * fastutil's {@code Long2LongMap} and {@link java.util.Map#getOrDefault} give
     * {@link #get(long, long)}, which it calls.
     *
     * @param key          the key to look up, any {@code long}
     * @param defaultValue what to return when {@code key} is not in the index
     * @return the value of {@code key}, or {@code defaultValue}
     */
    default long getOrDefault(long key, long defaultValue) {
        return get(key, defaultValue);
    }

    /**
     * Whether {@code key} is in the index.
     *
     * @param key the key to look for, any {@code long}
     * @return {@code true} if the index holds {@code key}, whatever its value
     */
    boolean containsKey(long key);

    /**
     * The value that {@link #get(long)}, {@link #put} and {@link #remove} return when there is no
     * value to return (0 unless set), as in fastutil.
     *
     * @return the default return value; 0 until {@link #defaultReturnValue(long)} sets another
     */
    long defaultReturnValue();

    /**
     * Sets the value that {@link #get(long)}, {@link #put} and {@link #remove} return for "none".
     * It changes no entry, and the methods that take an {@code absent} argument ignore it.
     *
     * @param value the new default return value, any {@code long}
     */
    void defaultReturnValue(long value);

    /**
     * Looks up {@code keys[i]} for every {@code i} and writes its value, or {@code absent}, to
     * {@code values[i]}. Trees override it to run several descents in lock-step, so that the
     * memory misses of independent look-ups overlap: on large indexes this is several times
     * faster than calling {@link #get} in a loop.
     *
     * @param keys   the keys to look up, in any order (repeats allowed); not changed
     * @param values where the answers go: {@code values[i]} for {@code keys[i]}; at least as long
     *               as {@code keys} (entries past {@code keys.length} are left alone)
     * @param absent what to write for a key that is not in the index
     * @throws NullPointerException     if {@code keys} or {@code values} is null
     * @throws IllegalArgumentException if {@code values} is shorter than {@code keys}
     */
    default void getAll(long[] keys, long[] values, long absent) {
        BatchArguments.checkGetAll(keys, values);
        for (int i = 0; i < keys.length; i++) {
            values[i] = get(keys[i], absent);
        }
    }

    // ---- updates ----------------------------------------------------------------------------

    /**
     * Maps {@code key} to {@code value}, replacing any earlier value.
     *
     * @param key   the key, any {@code long} ({@link Long#MAX_VALUE} included)
     * @param value its new value, any {@code long}
     * @return the previous value of {@code key}, or {@link #defaultReturnValue()} if it was new
     * @throws IllegalArgumentException if the index stores keys only
     *                                  ({@link BSTreeIndex#isKeyOnly()}) and {@code value} is
     *                                  not 0; the index is left as it was
     */
    long put(long key, long value);

    /**
     * {@link #put} that says whether the key was new (an insert) rather than there (an update of
     * its value): one descent either way.
     *
     * @param key   the key, any {@code long}
     * @param value its new value, any {@code long}
     * @return {@code true} if the key was new, {@code false} if an existing value was replaced
     * @throws IllegalArgumentException if the index stores keys only and {@code value} is not 0
     *                                  (as {@link #put})
     */
    default boolean upsert(long key, long value) {
        long before = size();
        put(key, value);
        return size() != before;
    }

    /**
     * Puts {@code keys[i] -> values[i]} for every {@code i}, in order (a key given twice ends
     * with its last value). The keys need not be sorted. Structures with a faster batched path
     * (the GPU tree) override it.
     *
     * @param keys   the keys to put, in any order (repeats allowed); not changed
     * @param values the value of each key, exactly as long as {@code keys}; not changed
     * @throws NullPointerException     if {@code keys} or {@code values} is null
     * @throws IllegalArgumentException if the arrays differ in length; nothing is put
     */
    default void putAll(long[] keys, long[] values) {
        BatchArguments.checkPutAll(keys, values);
        for (int i = 0; i < keys.length; i++) {
            put(keys[i], values[i]);
        }
    }

    /**
     * Removes {@code key} and its value.
     *
     * @param key the key to remove, any {@code long}; an absent key is no error
     * @return the value {@code key} had, or {@link #defaultReturnValue()} if it was not there
     */
    long remove(long key);

    /**
     * {@link #remove} that says whether the key was there.
     *
     * @param key the key to remove, any {@code long}
     * @return {@code true} if the key was there (and is now gone)
     */
    default boolean delete(long key) {
        long before = size();
        remove(key);
        return size() != before;
    }

    /**
     * Removes every key of {@code keys} that is in the index (absent keys and repeats are
     * allowed) and returns how many were removed. The keys need not be sorted. Structures with a
     * faster batched path (the GPU tree) override it.
     *
     * @param keys the keys to remove, in any order; not changed
     * @return how many keys were in the index and are now gone (a repeat counts once)
     * @throws NullPointerException if {@code keys} is null; nothing is removed
     */
    default long removeAll(long[] keys) {
        java.util.Objects.requireNonNull(keys, "keys");
        long removed = 0;
        for (long k : keys) {
            removed += delete(k) ? 1 : 0;
        }
        return removed;
    }

    // ---- exact and conditional updates ------------------------------------------------------

    /*
     * Every long is a valid value, so a method that returns "the previous value, or a default"
     * cannot say whether there was one. These say it in their boolean result and hand the value
     * through a caller's one-element array (reusable, so a caller that keeps one allocates
     * nothing). The defaults below are exact on an index that one thread changes (a look-up that
     * tells "absent" from any value, then the update); a thread-safe index (the concurrent
     * BS-tree) overrides them so that each is one atomic step, which is what its
     * ConcurrentNavigableMap view is built on.
     */

    /**
     * Looks {@code key} up and says exactly whether it is there.
     *
     * @param key   the key, any {@code long}
     * @param value {@code value[0]} receives the key's value when it is there; untouched otherwise
     * @return {@code true} if {@code key} is in the index
     * @throws NullPointerException     if {@code value} is null
     * @throws IllegalArgumentException if {@code value} is empty
     */
    default boolean get(long key, long[] value) {
        return exactGet(this, key, value);
    }

    /**
     * {@link #put(long, long)} that says exactly whether the key was there and what it held.
     *
     * @param key      the key, any {@code long}
     * @param value    its new value
     * @param previous {@code previous[0]} receives the replaced value when the key was there;
     *                 untouched otherwise
     * @return {@code true} if the key was there (its value replaced), {@code false} if it was new
     * @throws NullPointerException     if {@code previous} is null; nothing is put
     * @throws IllegalArgumentException if {@code previous} is empty, or as {@link #put(long, long)};
     *                                  nothing is put
     */
    default boolean put(long key, long value, long[] previous) {
        return exactPut(this, key, value, previous);
    }

    /**
     * {@link #remove(long)} that says exactly whether the key was there and what it held.
     *
     * @param key      the key, any {@code long}
     * @param previous {@code previous[0]} receives the removed value when the key was there;
     *                 untouched otherwise
     * @return {@code true} if the key was there (and is now gone)
     * @throws NullPointerException     if {@code previous} is null; nothing is removed
     * @throws IllegalArgumentException if {@code previous} is empty; nothing is removed
     */
    default boolean remove(long key, long[] previous) {
        return exactRemove(this, key, previous);
    }

    /**
     * Puts {@code key -> value} only if {@code key} is absent ({@code ConcurrentMap.putIfAbsent}).
     *
     * @param key     the key, any {@code long}
     * @param value   the value to put if the key is absent
     * @param present {@code present[0]} receives the key's value when it was there (and nothing
     *                changed); untouched otherwise
     * @return {@code true} if the key was there (nothing put), {@code false} if it was put
     * @throws NullPointerException     if {@code present} is null; nothing is put
     * @throws IllegalArgumentException if {@code present} is empty, or as {@link #put(long, long)}
     */
    default boolean putIfAbsent(long key, long value, long[] present) {
        return exactPutIfAbsent(this, key, value, present);
    }

    /**
     * Replaces the value of {@code key} only if it is there ({@code Map.replace(key, value)}).
     *
     * @param key      the key, any {@code long}
     * @param value    its new value
     * @param previous {@code previous[0]} receives the replaced value when the key was there;
     *                 untouched otherwise
     * @return {@code true} if the key was there (and now maps to {@code value})
     * @throws NullPointerException     if {@code previous} is null; nothing changes
     * @throws IllegalArgumentException if {@code previous} is empty, or as {@link #put(long, long)}
     */
    default boolean replace(long key, long value, long[] previous) {
        return exactReplace(this, key, value, previous);
    }

    /**
     * Replaces the value of {@code key} only if it is there with {@code expected}
     * (a compare-and-set on the value: {@code Map.replace(key, oldValue, newValue)}).
     *
     * @param key      the key, any {@code long}
     * @param expected the value the key must hold
     * @param value    its new value
     * @return {@code true} if the key held {@code expected} and now holds {@code value}
     * @throws IllegalArgumentException as {@link #put(long, long)}; nothing changes
     */
    default boolean replace(long key, long expected, long value) {
        return exactReplace(this, key, expected, value);
    }

    /**
     * Removes {@code key} only if it is there with {@code expected} ({@code Map.remove(key, value)}).
     *
     * @param key      the key, any {@code long}
     * @param expected the value the key must hold
     * @return {@code true} if the key held {@code expected} and is now gone
     */
    default boolean remove(long key, long expected) {
        return exactRemove(this, key, expected);
    }

    /**
     * The {@code absent} value the exact defaults look up with: unlikely as a real value, so that
     * only a hit of exactly this value needs a {@code containsKey} to tell.
     */
    private static long probe() {
        return 0x9E37_79B9_7F4A_7C15L;
    }

    private static boolean exactGet(LongIndex index, long key, long[] value) {
        BatchArguments.checkOut(value, "value");
        long v = index.get(key, probe());
        if (v != probe() || index.containsKey(key)) {
            value[0] = v;
            return true;
        }
        return false;
    }

    // The others stand on the index's own exact get (the default above, or an override), which
    // checks the out array and leaves it untouched when the key is absent, then write.

    private static boolean exactPut(LongIndex index, long key, long value, long[] previous) {
        boolean present = index.get(key, previous);
        index.put(key, value);
        return present;
    }

    private static boolean exactRemove(LongIndex index, long key, long[] previous) {
        if (!index.get(key, previous)) {
            return false;
        }
        index.remove(key);
        return true;
    }

    private static boolean exactPutIfAbsent(LongIndex index, long key, long value, long[] present) {
        if (index.get(key, present)) {
            return true;
        }
        index.put(key, value);
        return false;
    }

    private static boolean exactReplace(LongIndex index, long key, long value, long[] previous) {
        if (!index.get(key, previous)) {
            return false;
        }
        index.put(key, value);
        return true;
    }

    /** Whether {@code key} is there with {@code expected}: the test of both conditional updates. */
    private static boolean holds(LongIndex index, long key, long expected) {
        long old = index.get(key, probe());
        return old == expected && (old != probe() || index.containsKey(key));
    }

    private static boolean exactReplace(LongIndex index, long key, long expected, long value) {
        if (!holds(index, key, expected)) {
            return false;
        }
        index.put(key, value);
        return true;
    }

    private static boolean exactRemove(LongIndex index, long key, long expected) {
        if (!holds(index, key, expected)) {
            return false;
        }
        index.remove(key);
        return true;
    }

    /** Removes every key; the index keeps working afterwards. */
    void clear();

    /**
     * The number of keys, in constant time.
     *
     * @return how many keys the index holds
     */
    long size();

    /**
     * Whether the index holds no key.
     *
     * @return {@code true} if {@link #size()} is 0
     */
    default boolean isEmpty() {
        return size() == 0;
    }

    // ---- neighbours -------------------------------------------------------------------------

    /**
     * The least key {@code >= key}, or {@code absent} if there is none.
     *
     * @param key    where to look from, any {@code long}
     * @param absent what to return when every key is below {@code key}
     * @return the least key {@code >= key}, or {@code absent}
     */
    long ceilingKey(long key, long absent);

    /**
     * {@link #ceilingKey(long, long)} for every key of a batch: writes the least key
     * {@code >= keys[i]}, or {@code absent}, to {@code ceilings[i]}. The CPU trees run the batch
     * through their batched descent (the misses of independent searches overlap); elsewhere it
     * loops.
     *
     * @param keys     where to look from, in any order (repeats allowed); not changed
     * @param ceilings where the answers go: {@code ceilings[i]} for {@code keys[i]}; at least as
     *                 long as {@code keys} (entries past {@code keys.length} are left alone)
     * @param absent   what to write where every key is below {@code keys[i]}
     * @throws NullPointerException     if {@code keys} or {@code ceilings} is null
     * @throws IllegalArgumentException if {@code ceilings} is shorter than {@code keys}; nothing is
     *                                  written
     */
    default void ceilingKeyAll(long[] keys, long[] ceilings, long absent) {
        BatchArguments.checkGetAll(keys, ceilings);
        for (int i = 0; i < keys.length; i++) {
            ceilings[i] = ceilingKey(keys[i], absent);
        }
    }

    /**
     * The greatest key {@code <= key}, or {@code absent} if there is none.
     *
     * @param key    where to look from, any {@code long}
     * @param absent what to return when every key is above {@code key}
     * @return the greatest key {@code <= key}, or {@code absent}
     */
    long floorKey(long key, long absent);

    /**
     * The least key {@code > key}, or {@code absent} if there is none.
     *
     * @param key    where to look from, any {@code long} ({@link Long#MAX_VALUE} has no higher key)
     * @param absent what to return when no key is above {@code key}
     * @return the least key {@code > key}, or {@code absent}
     */
    long higherKey(long key, long absent);

    /**
     * The greatest key {@code < key}, or {@code absent} if there is none.
     *
     * @param key    where to look from, any {@code long} ({@link Long#MIN_VALUE} has no lower key)
     * @param absent what to return when no key is below {@code key}
     * @return the greatest key {@code < key}, or {@code absent}
     */
    long lowerKey(long key, long absent);

    /**
     * The least key.
     *
     * @return the least key in the index
     * @throws NoSuchElementException if the index is empty
     */
    long firstKey();

    /**
     * The greatest key.
     *
     * @return the greatest key in the index
     * @throws NoSuchElementException if the index is empty
     */
    long lastKey();

    // ---- cursors and ranges -----------------------------------------------------------------

    /**
     * A new cursor that is not yet positioned ({@link LongCursor#isValid()} is false).
     *
     * @return a new cursor; position it with one of its {@code seek…} methods
     */
    LongCursor cursor();

    /**
     * A new cursor at the least key {@code >= key} (not valid if there is none).
     *
     * @param key where to start, any {@code long}
     * @return a new cursor on the least key {@code >= key}, or not valid if there is none
     */
    default LongCursor cursor(long key) {
        LongCursor c = cursor();
        c.seekCeiling(key);
        return c;
    }

    /**
     * The number of keys between {@code from} and {@code to}, each bound included or not; 0 when
     * the range is empty ({@code from > to}, or {@code from == to} with a bound excluded).
     * {@code rangeCount(Long.MIN_VALUE, true, Long.MAX_VALUE, true)} counts every key.
     *
     * @param from          the lower bound, any {@code long}
     * @param fromInclusive whether a key equal to {@code from} counts
     * @param to            the upper bound, any {@code long}
     * @param toInclusive   whether a key equal to {@code to} counts
     * @return how many keys lie in the range; 0 for an empty range
     */
    long rangeCount(long from, boolean fromInclusive, long to, boolean toInclusive);

    /**
     * The number of keys in {@code [from, to)}; 0 when {@code from >= to}.
     *
     * @param from the least key counted
     * @param to   the first key past the range (not counted)
     * @return how many keys {@code k} satisfy {@code from <= k < to}
     */
    default long rangeCount(long from, long to) {
        return rangeCount(from, true, to, false);
    }

    /**
     * Counts the keys in {@code [from[i], to[i])} into {@code counts[i]} for every {@code i}, as
     * {@link #rangeCount(long, long)} would (0 where {@code from[i] >= to[i]}). The device trees
     * override it to search every bound of the batch in one launch; elsewhere it loops.
     *
     * @param from   the ranges' lower bounds, included; not changed
     * @param to     the ranges' upper bounds, excluded: exactly as long as {@code from}; not changed
     * @param counts where the counts go: {@code counts[i]} for range {@code i}; at least as long as
     *               {@code from}
     * @throws NullPointerException     if an array is null
     * @throws IllegalArgumentException if {@code to} differs in length from {@code from} or
     *                                  {@code counts} is shorter; nothing is written
     */
    default void rangeCountAll(long[] from, long[] to, long[] counts) {
        BatchArguments.checkRangeCountAll(from, to, counts);
        for (int i = 0; i < from.length; i++) {
            counts[i] = rangeCount(from[i], to[i]);
        }
    }

    /**
     * Calls {@code visitor} for the keys between {@code from} and {@code to} (each bound included
     * or not) in ascending order until it returns {@code false}, and returns how many entries it
     * was given (the one it stopped at included). The visitor must not change the index: if it
     * does, a {@link java.util.ConcurrentModificationException} ends the visit.
     *
     * @param from          the lower bound, any {@code long}
     * @param fromInclusive whether a key equal to {@code from} is visited
     * @param to            the upper bound, any {@code long}
     * @param toInclusive   whether a key equal to {@code to} is visited
     * @param visitor       called with each key and value; returns {@code false} to stop
     * @return how many entries the visitor was given; 0 for an empty range
     * @throws NullPointerException if {@code visitor} is null
     * @throws java.util.ConcurrentModificationException if the visitor adds or removes a key (every
     *         structure but the concurrent BS-tree, whose walk is weakly consistent)
     */
    long rangeVisit(long from, boolean fromInclusive, long to, boolean toInclusive, LongEntryVisitor visitor);

    /**
     * {@link #rangeVisit(long, boolean, long, boolean, LongEntryVisitor)} over {@code [from, to)}.
     *
     * @param from    the least key visited
     * @param to      the first key past the range (not visited)
     * @param visitor called with each key and value; returns {@code false} to stop
     * @return how many entries the visitor was given
     * @throws NullPointerException if {@code visitor} is null
     */
    default long rangeVisit(long from, long to, LongEntryVisitor visitor) {
        return rangeVisit(from, true, to, false, visitor);
    }

    /**
     * Calls {@code action} for every entry in ascending key order. The action must not change the
     * index (a {@link java.util.ConcurrentModificationException} ends the walk if it does).
     *
     * @param action called once with each key and its value
     * @throws NullPointerException if {@code action} is null
     */
    default void forEach(LongEntryConsumer action) {
        Objects.requireNonNull(action, "action");
        rangeVisit(Long.MIN_VALUE, true, Long.MAX_VALUE, true, (k, v) -> {
            action.accept(k, v);
            return true;
        });
    }

    // ---- snapshots --------------------------------------------------------------------------

    /**
     * Writes every entry to {@code file}, a versioned, checksummed snapshot that
     * {@link Indexes#load} builds the same kind of index from and {@link Indexes#map} opens in
     * place. The bytes go to a temporary file in the same folder, which is forced to disk and then
     * renamed over {@code file} in one atomic step: whatever happens (an exception, a crash, the
     * machine stopping), the path holds the previous snapshot or the new one, complete, never a
     * mix. The index is only read; a single-threaded index must not be changed while it is written.
     * A concurrent index keeps serving readers and writers and gives a weakly consistent cut: see
     * {@link ConcurrentLongIndex}.
     *
     * @param file where the snapshot goes; an existing file there is replaced when the new one is
     *             complete
     * @throws SnapshotException if {@code file} is a directory
     * @throws IOException       if the folder cannot be written; the previous file is untouched
     */
    default void snapshot(Path file) throws IOException {
        SnapshotWriter.write(Objects.requireNonNull(file, "file"), kind(), size(), this::forEach);
    }

    /**
     * What kind of index this is, with the settings {@link Indexes#load} builds a snapshot of it
     * with. An implementation outside bforest answers {@link IndexKind.Family#OTHER}.
     *
     * @return this index's kind
     */
    default IndexKind kind() {
        return IndexKind.of(IndexKind.Family.OTHER);
    }

    // ---- accounting and views ---------------------------------------------------------------

    /**
     * The bytes this index holds: its arrays as allocated (capacity, not only what is in use),
     * including headers; for a {@link NativeLongIndex}, its native memory too. Comparable across
     * structures.
     *
     * @return the index's memory in bytes, heap and native together
     */
    long memoryBytes();

    /**
     * A live {@link NavigableMap} view that honours the whole {@code java.util} contract
     * (sub-maps, head/tail and descending views, removal through iterators). Keys and values
     * are boxed, so it is slower than the primitive methods; {@code null} keys and values are
     * rejected with a {@link NullPointerException}. Its {@code put} and {@code remove} cost one
     * descent each.
     * Every structure returns {@link LongIndexViews#asNavigableMap(LongIndex)} of itself; an
     * implementation of this interface outside bforest can do the same.
     *
     * @return a view of the whole index in ascending key order; changes go both ways
     */
    NavigableMap<Long, Long> asNavigableMap();
}
