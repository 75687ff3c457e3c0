package org.bforest.bench.structures;

/**
 * The value stored with each key, and the checksum rules every adapter follows.
 *
 * <p>The value of key k is {@code ~k}: different from the key (so a structure that mixes keys
 * and values up changes the checksum), cheap, and the same for loaded and inserted keys.
 */
public final class Values {
    /** What a lookup of a missing key contributes to the checksum. */
    public static final long ABSENT = Long.MIN_VALUE;
    /** What an insert or delete that changed nothing contributes (a working one adds 1). */
    public static final long NO_EFFECT = 1L << 32;

    private Values() {
    }

    public static long of(long key) {
        return ~key;
    }

    /** A fresh array of the values of {@code keys}. */
    public static long[] of(long[] keys) {
        long[] v = new long[keys.length];
        for (int i = 0; i < keys.length; i++) {
            v[i] = ~keys[i];
        }
        return v;
    }

    /** The checksum of one entry visited by a scan. */
    public static long scanned(long key, long value) {
        return key * 31 + value;
    }

    /** The checksum of an insert or delete that did ({@code true}) or did not take effect. */
    public static long effect(boolean changed) {
        return changed ? 1 : NO_EFFECT;
    }
}
