package org.bforest;

import java.util.concurrent.ConcurrentNavigableMap;

/**
 * A {@link LongIndex} that is safe from any number of threads at once, as
 * {@link Indexes#concurrentBsTree()} is: each single-key operation ({@code get}, {@code put},
 * {@code remove}, {@code containsKey}, the neighbour look-ups, and the exact and conditional
 * updates {@code put(key, value, previous)}, {@code remove(key, previous)}, {@code putIfAbsent},
 * both {@code replace}s and {@code remove(key, expected)}) is linearizable: it takes effect at
 * one instant between its call and its return. Cursors, ranges and {@code forEach} are weakly
 * consistent, as {@code ConcurrentSkipListMap}'s iterators; {@code size()} is exact when no update
 * runs and an estimate while one does.
 *
 * <p>{@link #snapshot} keeps serving readers and writers while it writes, and the cut it writes is
 * the weakly consistent one of {@code forEach}, not one linearizable instant: a key that no write
 * touches while the snapshot runs is in it exactly as it was; a key written meanwhile is in it
 * with a value (or an absence) it had at some instant between the snapshot's call and its return.
 * Keys are written in ascending order, each at most once. For a single instant, stop the writers
 * for the call.
 */
public interface ConcurrentLongIndex extends LongIndex {

    /**
     * A live {@link ConcurrentNavigableMap} view of this index: every method that is atomic in
     * {@code ConcurrentSkipListMap} is atomic here too ({@code put} and {@code remove} return the
     * true previous value, {@code putIfAbsent}, {@code replace}, {@code remove(key, value)},
     * {@code pollFirstEntry} hands each entry to one caller), and the neighbour methods never miss
     * a key that is present throughout the call.
     *
     * @return a view of the whole index in ascending key order; changes go both ways
     */
    @Override
    ConcurrentNavigableMap<Long, Long> asNavigableMap();
}
