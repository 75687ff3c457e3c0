package org.bforest.util;

import java.util.Objects;

/**
 * The argument checks of the batched calls ({@code getAll}, {@code putAll}, {@code rangeCountAll})
 * and of the one-element out arrays of the exact updates ({@code put(key, value, previous)}...),
 * written once for {@code LongIndex}'s defaults and every structure's override, so that every
 * structure rejects a bad batch with the same message. It lives in {@code util}, below the API,
 * because the API's own defaults call it: the API must not import {@code spi}, which stands on it.
 */
public final class BatchArguments {
    private BatchArguments() {
    }

    /** {@code LongIndex.getAll}: both arrays present, the output at least as long as the keys. */
    public static void checkGetAll(long[] keys, long[] values) {
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(values, "values");
        if (values.length < keys.length) {
            throw new IllegalArgumentException("values has length " + values.length + " but " + keys.length
                    + " keys are looked up: pass an output array at least as long as the keys");
        }
    }

    /** {@code LongIndex.putAll}: both arrays present and of one length. */
    public static void checkPutAll(long[] keys, long[] values) {
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(values, "values");
        if (values.length != keys.length) {
            throw new IllegalArgumentException("putAll got " + keys.length + " keys and " + values.length
                    + " values: pass one value per key");
        }
    }

    /** {@code LongIndex.rangeCountAll}: three arrays present, the bounds of one length, the output long enough. */
    public static void checkRangeCountAll(long[] from, long[] to, long[] counts) {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(counts, "counts");
        if (to.length != from.length) {
            throw new IllegalArgumentException("rangeCountAll got " + from.length + " lower bounds and " + to.length
                    + " upper bounds: pass one upper bound per lower bound");
        }
        if (counts.length < from.length) {
            throw new IllegalArgumentException("counts has length " + counts.length + " but " + from.length
                    + " ranges are counted: pass an output array at least as long as the bounds");
        }
    }

    /**
     * Checks the out array of an exact update ({@code put(key, value, previous)} and its kin)
     * before anything changes.
     *
     * @throws NullPointerException     if {@code out} is null (the message names it)
     * @throws IllegalArgumentException if {@code out} is empty
     */
    public static void checkOut(long[] out, String name) {
        if (out == null) {
            throw new NullPointerException(name);
        }
        if (out.length == 0) {
            throw new IllegalArgumentException(name + " is empty: pass an array of at least one element");
        }
    }
}
