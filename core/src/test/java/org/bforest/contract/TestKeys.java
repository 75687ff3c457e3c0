package org.bforest.contract;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;

/** Key sets and insertion orders for the shared suites; all deterministic for a given seed. */
public final class TestKeys {
    private TestKeys() {
    }

    /** The order in which a test feeds keys to the index. */
    public enum Order {
        ASCENDING, DESCENDING, RANDOM
    }

    /**
     * {@code n} distinct keys in ascending signed order that stress neighbour look-ups: runs of
     * consecutive keys (1 to 40 long) separated by small gaps (2 to 5) or by huge random ones,
     * and, as far as {@code n} allows, {@link Long#MIN_VALUE}, {@link Long#MAX_VALUE}, -1, 0 and 1.
     */
    public static long[] mixed(int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        Set<Long> set = new HashSet<>(Math.max(16, n * 2));
        for (long special : new long[] {Long.MIN_VALUE, Long.MAX_VALUE, -1, 0, 1}) {
            if (set.size() < n) {
                set.add(special);
            }
        }
        long last = 1;
        while (set.size() < n) {
            long start = random.nextInt(3) == 0 ? last + 2 + random.nextInt(4) : random.nextLong();
            int run = 1 + random.nextInt(40);
            for (int j = 0; j < run && set.size() < n; j++) {
                long k = start + j;
                if (k < start) {
                    break; // ran past Long.MAX_VALUE
                }
                set.add(k);
                last = k;
            }
        }
        long[] keys = new long[n];
        int i = 0;
        for (long k : set) {
            keys[i++] = k;
        }
        Arrays.sort(keys);
        return keys;
    }

    /** {@code first, first + 1, ..., first + n - 1}. */
    public static long[] dense(int n, long first) {
        long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = first + i;
        }
        return keys;
    }

    /** {@code first, first + step, ...}: keys with gaps of {@code step - 1} free keys between them. */
    public static long[] spaced(int n, long first, long step) {
        long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = first + i * step;
        }
        return keys;
    }

    /** A copy of ascending {@code sorted} in the given order. */
    public static long[] inOrder(long[] sorted, Order order, long seed) {
        long[] keys = sorted.clone();
        switch (order) {
            case ASCENDING -> {
            }
            case DESCENDING -> {
                for (int i = 0, j = keys.length - 1; i < j; i++, j--) {
                    long t = keys[i];
                    keys[i] = keys[j];
                    keys[j] = t;
                }
            }
            case RANDOM -> shuffle(keys, new SplittableRandom(seed));
        }
        return keys;
    }

    /** Fisher-Yates shuffle in place. */
    public static void shuffle(long[] a, SplittableRandom random) {
        for (int i = a.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            long t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }

    /** A value for {@code key} that differs from the key, so that mixing keys up with values shows. */
    public static long valueFor(long key, int generation) {
        long z = key * 0x9E3779B97F4A7C15L + generation * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 31)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 29);
    }
}
