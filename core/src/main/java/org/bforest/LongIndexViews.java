package org.bforest;

import java.util.NavigableMap;

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
}
