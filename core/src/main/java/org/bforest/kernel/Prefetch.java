package org.bforest.kernel;

/**
 * Java's stand-in for {@code __builtin_prefetch}, written once for every structure.
 *
 * <p>{@link #zero()} is always 0, but it is read from a field that is not {@code final}, so the JIT
 * cannot fold {@code x & Prefetch.zero()} away: a load whose result is and-ed with it stays in the
 * code and, its address not depending on the node search, is issued at once. Added to an index
 * that the search computes ({@code values[at + t]} with {@code t} such a term), it makes the load
 * of the child-id or value line start with the key loads, so the two cache misses overlap instead
 * of adding up; the result is never changed by it. Read {@link #zero()} once per operation (one
 * load, usually a hit) and reuse it for every level.
 */
public final class Prefetch {
    /** Values a cache line holds. */
    public static final int LONGS_PER_LINE = 8;

    /** Never written; see the class comment for why it is not {@code final}. */
    @SuppressWarnings("FieldMayBeFinal")
    private static int zero = 0;

    private Prefetch() {
    }

    /** 0, in a way the JIT cannot see (see the class comment). */
    public static int zero() {
        return zero;
    }

    /**
     * Starts the loads of every cache line of {@code a[off, off + width)} (width at least 1), as
     * the key loads of the same node start; returns 0, to be added to an index or and-ed in.
     * Reads the first and last element and one every {@link #LONGS_PER_LINE} between: the lines
     * are covered wherever the node starts.
     */
    public static int lines(long[] a, int off, int width) {
        // Straight-line loads for the node widths the trees use, so the loads do not depend on a
        // loop whose profile every tree that inlines this method would share (a B- tree's 32-key
        // leaves and a CSB+-tree's 16-key ones in one JVM); any other width takes the loop.
        long v = switch (width) {
            case 8 -> a[off] | a[off + 7];
            case 16 -> a[off] | a[off + 8] | a[off + 15];
            case 32 -> a[off] | a[off + 8] | a[off + 16] | a[off + 24] | a[off + 31];
            case 64 -> a[off] | a[off + 8] | a[off + 16] | a[off + 24] | a[off + 32] | a[off + 40]
                    | a[off + 48] | a[off + 56] | a[off + 63];
            default -> {
                long w = a[off] | a[off + width - 1];
                for (int i = LONGS_PER_LINE; i < width - 1; i += LONGS_PER_LINE) {
                    w |= a[off + i];
                }
                yield w;
            }
        };
        return (int) v & zero;
    }
}
