package org.bforest.util;

/**
 * Checks the arrays given to a bulk load, before anything is built, so that every structure
 * rejects bad input with the same clear message and builds nothing.
 */
public final class SortedInput {
    private SortedInput() {
    }

    /**
     * @param keys   must be strictly ascending in signed order
     * @param values {@code null} (every value 0; a key-only structure stores none) or as long as {@code keys}
     * @throws IllegalArgumentException naming the first offending index
     * @throws NullPointerException     if {@code keys} is null
     */
    public static void check(long[] keys, long[] values) {
        check(keys, values, Arrivals.ALL);
    }

    /**
     * {@link #check(long[], long[])} of arrays given whole; of a stream still arriving only the
     * arrays' lengths, as its filler checks the order ({@link Arrivals}).
     */
    public static void check(long[] keys, long[] values, Arrivals in) {
        if (keys == null) {
            throw new NullPointerException("keys must not be null (pass an empty array for an empty index)");
        }
        if (values != null && values.length != keys.length) {
            throw new IllegalArgumentException("values has length " + values.length + " but keys has length "
                    + keys.length + ": pass one value per key, or null for every value 0");
        }
        if (!in.whole()) {
            return;
        }
        for (int i = 1; i < keys.length; i++) {
            if (keys[i] <= keys[i - 1]) {
                throw new IllegalArgumentException("keys[" + i + "] = " + keys[i]
                        + (keys[i] == keys[i - 1] ? " duplicates" : " is less than") + " keys[" + (i - 1) + "] = "
                        + keys[i - 1] + ": bulk-load keys must be strictly ascending in signed order,"
                        + " without duplicates (sort and deduplicate them first)");
            }
        }
    }
}
