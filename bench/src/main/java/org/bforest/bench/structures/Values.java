package org.bforest.bench.structures;

import org.bforest.bench.cli.ValueMode;

/**
 * The value stored with each key, and the checksum rules every adapter follows.
 *
 * <p>The value of key k is a function of k alone, so loaded and inserted keys get theirs the
 * same way and a key-only structure can give the value the others store: by default
 * ({@code --values key}) {@code ~k}, different from the key (so a structure that mixes keys and
 * values up changes the checksum) and cheap; {@code random} a splitmix64 mix of k and the seed;
 * {@code none} 0. The runner sets the mode before it builds anything.
 */
public final class Values {
    /** What a lookup of a missing key contributes to the checksum. */
    public static final long ABSENT = Long.MIN_VALUE;
    /** What an insert or delete that changed nothing contributes (a working one adds 1). */
    public static final long NO_EFFECT = 1L << 32;

    private Values() {
    }

    private static ValueMode mode = ValueMode.KEY;
    private static long salt;

    /** Sets what {@link #of(long)} returns from now on; {@code seed} salts the random values. */
    public static void use(ValueMode m, long seed) {
        mode = m;
        salt = seed * 0x9E3779B97F4A7C15L;
    }

    public static ValueMode mode() {
        return mode;
    }

    public static long of(long key) {
        return switch (mode) {
            case KEY -> ~key;
            case RANDOM -> mix(key ^ salt);
            case NONE -> 0;
        };
    }

    /** splitmix64's finalizer: a bijection with good avalanche. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** A fresh array of the values of {@code keys}. */
    public static long[] of(long[] keys) {
        long[] v = new long[keys.length];
        for (int i = 0; i < keys.length; i++) {
            v[i] = of(keys[i]);
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
