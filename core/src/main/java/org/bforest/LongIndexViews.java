package org.bforest;

import java.util.NavigableMap;
import java.util.concurrent.ConcurrentNavigableMap;

/**
 * Views of a {@link LongIndex} through the {@code java.util} interfaces. The view classes stand on
 * {@link LongIndex}; {@link LongIndex} only names {@link NavigableMap}, so the interface does not
 * depend on its own views (each structure's {@code asNavigableMap()} calls this class).
 */
public final class LongIndexViews {
    private LongIndexViews() {
    }

    /**
     * A live {@link NavigableMap} view of {@code index}, as {@link LongIndex#asNavigableMap()}
     * describes: the whole {@code java.util} contract, keys and values boxed, {@code null}
     * rejected, no more thread-safe than the index.
     *
     * @param index the index to view
     * @return the view of the whole index, in ascending key order
     * @throws NullPointerException if {@code index} is null
     */
    public static NavigableMap<Long, Long> asNavigableMap(LongIndex index) {
        return new LongNavigableMap(index);
    }

    /**
     * A live {@link ConcurrentNavigableMap} view of a thread-safe {@code index} whose single-key
     * operations are linearizable (a {@link ConcurrentLongIndex}): {@code put} and {@code remove}
     * return the true previous value, {@code putIfAbsent}, {@code replace} and
     * {@code remove(key, value)} are one atomic step of the index each, {@code pollFirstEntry} and
     * {@code pollLastEntry} hand each entry to exactly one caller, and the neighbour methods never
     * miss a key that is present throughout the call. {@code compute}, {@code merge} and their
     * kin are {@link java.util.concurrent.ConcurrentMap}'s retry loops over those atomic steps.
     * Iterators are weakly consistent, as the index's cursors are; {@code size()} is the index's.
     *
     * @param index the thread-safe index to view
     * @return the view of the whole index, in ascending key order
     * @throws NullPointerException if {@code index} is null
     */
    public static ConcurrentNavigableMap<Long, Long> asConcurrentNavigableMap(ConcurrentLongIndex index) {
        return new ConcurrentLongNavigableMap(index);
    }
}
