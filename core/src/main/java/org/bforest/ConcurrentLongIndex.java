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
 */
public interface ConcurrentLongIndex extends LongIndex {

    /**
     * A live {@link ConcurrentNavigableMap} view, as {@link LongIndexViews#asConcurrentNavigableMap}
     * describes: every method that is atomic in {@code ConcurrentSkipListMap} is atomic here too.
     *
     * @return a view of the whole index in ascending key order; changes go both ways
     */
    @Override
    ConcurrentNavigableMap<Long, Long> asNavigableMap();
}
