package org.bforest.bench.datasets;

import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * Draws keys until it has {@code count} distinct ones, keeping the first occurrence of each in
 * draw order; a repeated key is dropped and the sequence refilled with further draws. When no key
 * repeats (the usual case for {@code uniform}), the result is exactly the first {@code count}
 * draws, as docs/DESIGN.md specifies.
 */
final class Distinct {
    private Distinct() {
    }

    /** The draws, and how many repeated keys were dropped (and replaced) on the way. */
    record Draws(long[] keys, long dropped) {
    }

    static Draws draw(LongSupplier source, int count) {
        long[] out = new long[count];
        for (int i = 0; i < count; i++) {
            out[i] = source.getAsLong();
        }
        long dropped = 0;
        while (true) {
            long[] repeated = repeatedValues(out);
            if (repeated.length == 0) {
                return new Draws(out, dropped);
            }
            boolean[] seen = new boolean[repeated.length];
            int w = 0;
            for (long v : out) {
                int j = Arrays.binarySearch(repeated, v);
                if (j >= 0) {
                    if (seen[j]) {
                        continue;
                    }
                    seen[j] = true;
                }
                out[w++] = v;
            }
            dropped += count - w;
            for (int i = w; i < count; i++) {
                out[i] = source.getAsLong();
            }
        }
    }

    /** The distinct values that occur more than once in {@code a}, sorted. */
    static long[] repeatedValues(long[] a) {
        long[] sorted = a.clone();
        Arrays.sort(sorted);
        int n = 0;
        long[] rep = new long[16];
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] == sorted[i - 1] && (n == 0 || rep[n - 1] != sorted[i])) {
                if (n == rep.length) {
                    rep = Arrays.copyOf(rep, n * 2);
                }
                rep[n++] = sorted[i];
            }
        }
        return Arrays.copyOf(rep, n);
    }
}
