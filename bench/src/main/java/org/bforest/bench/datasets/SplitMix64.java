package org.bforest.bench.datasets;

/**
 * The splitmix64 generator exactly as docs/DESIGN.md defines it, so that the datasets and the
 * operation streams are the very same keys the C++ reference runs use.
 *
 * <pre>{@code
 * state += 0x9E3779B97F4A7C15; z = state;
 * z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9;
 * z = (z ^ (z >>> 27)) * 0x94D049BB133111EB;
 * return z ^ (z >>> 31);
 * }</pre>
 *
 * Bounded draws are {@code Long.remainderUnsigned(next(), m)} (slightly biased for huge m, as
 * specified; the bias is below 2^-30 for every bound this benchmark uses).
 */
public final class SplitMix64 {
    private long state;

    public SplitMix64(long seed) {
        this.state = seed;
    }

    public long next() {
        long z = (state += 0x9E3779B97F4A7C15L);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** A draw in {@code [0, bound)}, {@code bound > 0}. */
    public long nextBelow(long bound) {
        return Long.remainderUnsigned(next(), bound);
    }

    /** A draw in {@code [0, bound)} as an int, {@code 0 < bound <= Integer.MAX_VALUE}. */
    public int nextInt(int bound) {
        return (int) Long.remainderUnsigned(next(), bound);
    }

    /** A double uniform in {@code (0, 1]} (53 random bits; never 0, so its logarithm is finite). */
    public double nextOpenDouble() {
        return ((next() >>> 11) + 1) * 0x1.0p-53;
    }

    /** One splitmix64 step of {@code x}: a good way to derive independent seeds. */
    public static long mix(long x) {
        return new SplitMix64(x).next();
    }
}
