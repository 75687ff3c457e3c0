package org.bforest;

import com.google.common.collect.testing.SampleElements;
import com.google.common.collect.testing.TestSortedMapGenerator;
import java.util.AbstractMap.SimpleImmutableEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map.Entry;
import java.util.NavigableMap;
import java.util.SortedMap;
import org.bforest.testing.Implementations.Impl;

/**
 * Makes {@link LongIndex#asNavigableMap()} views of one implementation for Guava's testlib.
 *
 * <p>The samples are chosen to hit the view's edge cases: keys beyond the {@code int} range and
 * next to the extremes, and values that are easy to confuse with "absent" ({@code -1},
 * {@code 0}, the extremes and the view's own {@link ViewRange#PROBE}). The keys outside
 * the samples, which the derived sub-map suites store and then bound away, are
 * {@link Long#MIN_VALUE}, {@code MIN_VALUE + 1}, {@code MAX_VALUE - 1} and
 * {@link Long#MAX_VALUE}.
 */
final class LongViewMapGenerator implements TestSortedMapGenerator<Long, Long> {

    private final Impl impl;

    LongViewMapGenerator(Impl impl) {
        this.impl = impl;
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
                entry(42L, ExactUpdates.PROBE));
    }

    @Override public Entry<Long, Long> belowSamplesLesser() { return entry(Long.MIN_VALUE, 7L); }
    @Override public Entry<Long, Long> belowSamplesGreater() { return entry(Long.MIN_VALUE + 1, 8L); }
    @Override public Entry<Long, Long> aboveSamplesLesser() { return entry(Long.MAX_VALUE - 1, 9L); }
    @Override public Entry<Long, Long> aboveSamplesGreater() { return entry(Long.MAX_VALUE, 10L); }

    /** An empty index, then {@code put} through the view: later duplicates win, nulls throw. */
    @Override
    public SortedMap<Long, Long> create(Object... elements) {
        NavigableMap<Long, Long> map = impl.empty().get().asNavigableMap();
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
