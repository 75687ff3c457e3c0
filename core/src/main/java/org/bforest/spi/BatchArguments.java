package org.bforest.spi;

import java.util.Objects;

/** The argument checks of the batched calls, written once for {@code LongIndex}'s defaults and every override. */
public final class BatchArguments {
    private BatchArguments() {
    }

    /** {@link org.bforest.LongIndex#getAll}: both arrays present, the output at least as long as the keys. */
    public static void checkGetAll(long[] keys, long[] values) {
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(values, "values");
        if (values.length < keys.length) {
            throw new IllegalArgumentException("values has length " + values.length + " but " + keys.length
                    + " keys are looked up: pass an output array at least as long as the keys");
        }
    }

    /** {@link org.bforest.LongIndex#putAll}: both arrays present and of one length. */
    public static void checkPutAll(long[] keys, long[] values) {
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(values, "values");
        if (values.length != keys.length) {
            throw new IllegalArgumentException("putAll got " + keys.length + " keys and " + values.length
                    + " values: pass one value per key");
        }
    }

    /** {@link org.bforest.LongIndex#rangeCountAll}: three arrays present, the bounds of one length, the output long enough. */
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
}
