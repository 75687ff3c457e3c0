package org.bforest.fastutil;

import com.google.common.collect.testing.SampleElements;
import com.google.common.collect.testing.TestSortedMapGenerator;
import java.util.AbstractMap.SimpleImmutableEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map.Entry;
import java.util.SortedMap;
import org.bforest.LongIndex;

/**
 * Makes {@link FastutilViews#asLong2LongSortedMap} views of one structure, as boxed
 * {@code SortedMap<Long, Long>}s, for Guava's testlib.
 *
 * <p>The samples hit the bridge's edge cases: keys beyond the {@code int} range and next to the
 * extremes, and values easy to confuse with "absent": {@code -1} and {@code 0} (one of them is the
 * default return value, so the boxed {@code get} must ask {@code containsKey}) and the extremes.
 * The keys outside the samples, which the derived sub-map suites store and then bound away, are
 * {@link Long#MIN_VALUE}, {@code MIN_VALUE + 1}, {@code MAX_VALUE - 1} and {@link Long#MAX_VALUE}.
 */
final class ViewMapGenerator implements TestSortedMapGenerator<Long, Long> {

    private final Structures.Structure structure;
    private final long defaultReturnValue;

    ViewMapGenerator(Structures.Structure structure, long defaultReturnValue) {
        this.structure = structure;
        this.defaultReturnValue = defaultReturnValue;
    }

    private static Entry<Long, Long> entry(long key, long value) {
        return new SimpleImmutableEntry<>(key, value);
    }

    @Override
    public SampleElements<Entry<Long, Long>> samples() {
        return new SampleElements<>(
                entry(0L, -1L),
                entry(-3_000_000_000L, 0L),
                entry(Long.MIN_VALUE + 2, Long.MIN_VALUE),
                entry(Long.MAX_VALUE - 2, Long.MAX_VALUE),
                entry(42L, 0x9E37_79B9_7F4A_7C15L));
    }

    @Override public Entry<Long, Long> belowSamplesLesser() { return entry(Long.MIN_VALUE, 7L); }
    @Override public Entry<Long, Long> belowSamplesGreater() { return entry(Long.MIN_VALUE + 1, 8L); }
    @Override public Entry<Long, Long> aboveSamplesLesser() { return entry(Long.MAX_VALUE - 1, 9L); }
    @Override public Entry<Long, Long> aboveSamplesGreater() { return entry(Long.MAX_VALUE, 10L); }

    /** An empty index, then {@code put} through the view: later duplicates win, nulls throw. */
    @Override
    public SortedMap<Long, Long> create(Object... elements) {
        LongIndex index = structure.empty().get();
        index.defaultReturnValue(defaultReturnValue);
        SortedMap<Long, Long> map = FastutilViews.asLong2LongSortedMap(index);
        for (Object o : elements) {
            Entry<?, ?> e = (Entry<?, ?>) o;
            map.put((Long) e.getKey(), (Long) e.getValue());
        }
        return map;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Entry<Long, Long>[] createArray(int length) {
        return (Entry<Long, Long>[]) new Entry<?, ?>[length];
    }

    @Override
    public Iterable<Entry<Long, Long>> order(List<Entry<Long, Long>> insertionOrder) {
        List<Entry<Long, Long>> sorted = new ArrayList<>(insertionOrder);
        sorted.sort(Entry.comparingByKey());
        return sorted;
    }

    @Override public Long[] createKeyArray(int length) { return new Long[length]; }
    @Override public Long[] createValueArray(int length) { return new Long[length]; }
}
