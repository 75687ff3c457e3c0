package org.bforest;

import java.util.Objects;
import java.util.concurrent.ConcurrentNavigableMap;

/**
 * The {@link ConcurrentNavigableMap} view of a {@link ConcurrentLongIndex}, made by
 * {@link LongIndexViews#asConcurrentNavigableMap}. It is {@link LongNavigableMap} with two
 * differences, both in the parent's terms: its sub-views are concurrent views too (the parent
 * makes them through {@link #view}, overridden here, and the methods below only narrow the return
 * types), and emptiness is asked of the keys rather than of the index's size, which is only an
 * estimate while other threads write (its {@link ViewRange} is made concurrent).
 *
 * <p>What makes it correct under concurrency is in the parent: every answer that may be "none"
 * comes from an index method that says so exactly, and every update that depends on the current
 * value is one conditional step of the index ({@code put/remove} with an out value,
 * {@code putIfAbsent}, both {@code replace}s, {@code remove(key, value)}), each linearizable on a
 * {@link ConcurrentLongIndex}. {@code pollFirstEntry} retries until its own remove takes the key.
 * {@code compute}, {@code computeIfAbsent}, {@code computeIfPresent} and {@code merge} are
 * {@link java.util.concurrent.ConcurrentMap}'s defaults: retry loops over those steps, as
 * {@code ConcurrentSkipListMap}'s are in effect (the function may run more than once under
 * contention). Iterators walk the index's cursors, which are weakly consistent and never throw
 * {@code ConcurrentModificationException}.
 */
final class ConcurrentLongNavigableMap extends LongNavigableMap implements ConcurrentNavigableMap<Long, Long> {

    ConcurrentLongNavigableMap(ConcurrentLongIndex index) {
        super(new ViewRange(Objects.requireNonNull(index, "index"), true), false);
    }

    private ConcurrentLongNavigableMap(ViewRange range, boolean descending) {
        super(range, descending);
    }

    @Override
    ConcurrentLongNavigableMap view(ViewRange r, boolean down) {
        return new ConcurrentLongNavigableMap(r, down);
    }

    @Override
    public ConcurrentLongNavigableMap descendingMap() {
        return (ConcurrentLongNavigableMap) super.descendingMap();
    }

    @Override
    public ConcurrentLongNavigableMap subMap(Long fromKey, boolean fromInclusive, Long toKey, boolean toInclusive) {
        return (ConcurrentLongNavigableMap) super.subMap(fromKey, fromInclusive, toKey, toInclusive);
    }

    @Override
    public ConcurrentLongNavigableMap headMap(Long toKey, boolean inclusive) {
        return (ConcurrentLongNavigableMap) super.headMap(toKey, inclusive);
    }

    @Override
    public ConcurrentLongNavigableMap tailMap(Long fromKey, boolean inclusive) {
        return (ConcurrentLongNavigableMap) super.tailMap(fromKey, inclusive);
    }

    @Override
    public ConcurrentLongNavigableMap subMap(Long fromKey, Long toKey) {
        return subMap(fromKey, true, toKey, false);
    }

    @Override
    public ConcurrentLongNavigableMap headMap(Long toKey) {
        return headMap(toKey, false);
    }

    @Override
    public ConcurrentLongNavigableMap tailMap(Long fromKey) {
        return tailMap(fromKey, true);
    }
}
