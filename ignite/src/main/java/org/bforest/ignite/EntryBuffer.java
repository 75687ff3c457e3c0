package org.bforest.ignite;

import java.util.Arrays;

/**
 * A growable pair of {@code long} arrays, keys and values, that can sort itself by key: how a
 * partition's entries, which a scan of Ignite's partition store returns in hash order, become the
 * ascending input a bulk load wants, without a boxed entry each.
 */
final class EntryBuffer {
    private long[] keys;
    private long[] values;
    private int size;

    EntryBuffer(int capacity) {
        keys = new long[Math.max(capacity, 16)];
        values = new long[keys.length];
    }

    void add(long key, long value) {
        if (size == keys.length) {
            int grown = Math.min(Integer.MAX_VALUE - 8, keys.length * 2);
            if (grown == keys.length) {
                throw new IllegalStateException("more than " + size + " entries in one partition: use more partitions");
            }
            keys = Arrays.copyOf(keys, grown);
            values = Arrays.copyOf(values, grown);
        }
        keys[size] = key;
        values[size] = value;
        size++;
    }

    int size() {
        return size;
    }

    long key(int i) {
        return keys[i];
    }

    long value(int i) {
        return values[i];
    }

    /** The keys, trimmed to the size (a copy when the arrays have room left). */
    long[] keys() {
        return keys.length == size ? keys : Arrays.copyOf(keys, size);
    }

    /** The values, in the keys' order, trimmed likewise. */
    long[] values() {
        return values.length == size ? values : Arrays.copyOf(values, size);
    }

    /**
     * Sorts the entries by key, ascending (signed), carrying each value with its key; a key given
     * twice keeps both (the caller's input has none: a partition holds a key once).
     */
    void sortByKey() {
        if (isSorted()) {
            return;
        }
        // A quicksort on the two arrays together, in place: no boxed pair an entry.
        quicksort(0, size - 1);
    }

    private boolean isSorted() {
        for (int i = 1; i < size; i++) {
            if (keys[i - 1] > keys[i]) {
                return false;
            }
        }
        return true;
    }

    private void quicksort(int lo, int hi) {
        while (hi - lo > 16) {
            long pivot = median(keys[lo], keys[lo + (hi - lo) / 2], keys[hi]);
            int i = lo;
            int j = hi;
            while (i <= j) {
                while (keys[i] < pivot) {
                    i++;
                }
                while (keys[j] > pivot) {
                    j--;
                }
                if (i <= j) {
                    swap(i++, j--);
                }
            }
            // recurse into the smaller side, loop on the larger: the stack stays O(log n)
            if (j - lo < hi - i) {
                quicksort(lo, j);
                lo = i;
            } else {
                quicksort(i, hi);
                hi = j;
            }
        }
        for (int i = lo + 1; i <= hi; i++) {
            long k = keys[i];
            long v = values[i];
            int j = i - 1;
            while (j >= lo && keys[j] > k) {
                keys[j + 1] = keys[j];
                values[j + 1] = values[j];
                j--;
            }
            keys[j + 1] = k;
            values[j + 1] = v;
        }
    }

    private static long median(long a, long b, long c) {
        return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
    }

    private void swap(int i, int j) {
        long k = keys[i];
        keys[i] = keys[j];
        keys[j] = k;
        long v = values[i];
        values[i] = values[j];
        values[j] = v;
    }
}
