package org.bforest.bench.structures;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Comparator;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.SortedMap;

/**
 * A read-once {@link SortedMap} view of sorted key and value arrays, so that {@code TreeMap} and
 * {@code ConcurrentSkipListMap} can be built by their {@code (SortedMap)} constructors, which
 * link the entries in linear time without comparing keys ({@code buildFromSorted}). Each entry
 * it hands out boxes its key and its value into two new {@code Long}s, as a {@code put} would.
 * Only what those constructors call is implemented.
 */
final class SortedArrayMap extends AbstractMap<Long, Long> implements SortedMap<Long, Long> {
    private final long[] keys;
    private final long[] values;

    SortedArrayMap(long[] keys, long[] values) {
        this.keys = keys;
        this.values = values;
    }

    @Override
    public int size() {
        return keys.length;
    }

    @Override
    public Comparator<? super Long> comparator() {
        return null;
    }

    @Override
    public Set<Entry<Long, Long>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public int size() {
                return keys.length;
            }

            @Override
            public Iterator<Entry<Long, Long>> iterator() {
                return new Iterator<>() {
                    private int i;

                    @Override
                    public boolean hasNext() {
                        return i < keys.length;
                    }

                    @Override
                    public Entry<Long, Long> next() {
                        if (i >= keys.length) {
                            throw new NoSuchElementException();
                        }
                        // new Long(...) semantics: Long.valueOf caches only -128..127.
                        Entry<Long, Long> e = new SimpleImmutableEntry<>(Long.valueOf(keys[i]), Long.valueOf(values[i]));
                        i++;
                        return e;
                    }
                };
            }
        };
    }

    @Override
    public Long firstKey() {
        if (keys.length == 0) {
            throw new NoSuchElementException();
        }
        return keys[0];
    }

    @Override
    public Long lastKey() {
        if (keys.length == 0) {
            throw new NoSuchElementException();
        }
        return keys[keys.length - 1];
    }

    @Override
    public SortedMap<Long, Long> subMap(Long fromKey, Long toKey) {
        throw new UnsupportedOperationException();
    }

    @Override
    public SortedMap<Long, Long> headMap(Long toKey) {
        throw new UnsupportedOperationException();
    }

    @Override
    public SortedMap<Long, Long> tailMap(Long fromKey) {
        throw new UnsupportedOperationException();
    }
}
