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
 * Only what those constructors call is implemented. {@code --snapshot}'s Java serialization
 * baseline builds its {@code TreeMap} the same way, from the first entries.
 */
public final class SortedArrayMap extends AbstractMap<Long, Long> implements SortedMap<Long, Long> {
    private final long[] keys;
    private final long[] values;
    private final int size;

    SortedArrayMap(long[] keys, long[] values) {
        this(keys, values, keys.length);
    }

    /** The first {@code size} entries of the sorted {@code keys} and their {@code values}. */
    public SortedArrayMap(long[] keys, long[] values, int size) {
        if (size < 0 || size > keys.length || size > values.length) {
            throw new IllegalArgumentException("size " + size + " of " + keys.length + " keys and " + values.length
                    + " values");
        }
        this.keys = keys;
        this.values = values;
        this.size = size;
    }

    @Override
    public int size() {
        return size;
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
                return size;
            }

            @Override
            public Iterator<Entry<Long, Long>> iterator() {
                return new Iterator<>() {
                    private int i;

                    @Override
                    public boolean hasNext() {
                        return i < size;
                    }

                    @Override
                    public Entry<Long, Long> next() {
                        if (i >= size) {
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
        if (size == 0) {
            throw new NoSuchElementException();
        }
        return keys[0];
    }

    @Override
    public Long lastKey() {
        if (size == 0) {
            throw new NoSuchElementException();
        }
        return keys[size - 1];
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
