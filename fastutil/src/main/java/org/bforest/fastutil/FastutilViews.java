package org.bforest.fastutil;

import java.util.Objects;
import org.bforest.LongIndex;

/**
 * fastutil views of bforest indexes: for code written against fastutil's primitive map
 * interfaces, which then takes any bforest structure without a change.
 *
 * <pre>{@code
 * LongIndex index = Indexes.bsTree(sortedKeys, values);
 * Long2LongSortedMap map = FastutilViews.asLong2LongSortedMap(index);   // live: no copy
 * map.get(42);                          // index.get(42): the index's default return value when absent
 * map.headMap(1000).long2LongEntrySet() // a bounded, live view
 * }</pre>
 */
public final class FastutilViews {
    private FastutilViews() {
    }

    /**
     * A live {@link it.unimi.dsi.fastutil.longs.Long2LongSortedMap} over {@code index}: every call
     * reads or writes the index, and changes made through the index show in the view at once.
     * Keys are in signed {@code long} order ({@code comparator()} is {@code null}); the default
     * return value is the index's own ({@link LongIndex#defaultReturnValue()}), shared by the view
     * and every sub-map of it. What each call costs against the index's own methods, and the
     * threading rule, are in {@link LongIndexSortedMap}.
     *
     * @throws NullPointerException if {@code index} is null
     */
    public static LongIndexSortedMap asLong2LongSortedMap(LongIndex index) {
        return new LongIndexSortedMap(Objects.requireNonNull(index, "index"));
    }
}
