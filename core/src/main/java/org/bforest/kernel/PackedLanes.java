package org.bforest.kernel;

/**
 * A 1024-bit block of 16 {@code long}s read as 64 lanes of 16 bits, 32 of 32 bits or 16 of 64
 * bits, all unsigned: the key array of a compressed BS-tree leaf (section 5 of the BS-tree paper:
 * the same fixed-size node holds 64, 32 or 16 frame-of-reference differences). Lane {@code i} of
 * width {@code w} is bits {@code [w*(i mod 64/w), ...)} of long {@code i / (64/w)}: the little-endian
 * order in which {@code LongVector.reinterpretAsShorts()/Ints()} splits a long, so the SIMD and
 * the scalar paths see the same lanes.
 *
 * <p>The scalar counting searches here are the reference the SIMD kernels are tested against and
 * the fallback without the Vector API, as {@link ScalarSearch} is for plain nodes.
 */
public final class PackedLanes {
    /** Bits of the whole block. */
    public static final int BLOCK_BITS = 64 * NodeSearch.NODE_KEYS;

    private PackedLanes() {
    }

    /** Lanes of {@code width} bits in a block: 64, 32 or 16. */
    public static int lanes(int width) {
        return BLOCK_BITS / width;
    }

    /** The largest lane value of {@code width} bits, unsigned (all ones). */
    public static long maxLane(int width) {
        return width == 64 ? -1L : (1L << width) - 1;
    }

    /** Lane {@code i}, zero-extended. */
    public static long get(long[] block, int off, int width, int i) {
        return switch (width) {
            case 16 -> (block[off + (i >>> 2)] >>> ((i & 3) << 4)) & 0xFFFFL;
            case 32 -> (block[off + (i >>> 1)] >>> ((i & 1) << 5)) & 0xFFFF_FFFFL;
            default -> block[off + i];
        };
    }

    /** Sets lane {@code i} to the low {@code width} bits of {@code v}. */
    public static void set(long[] block, int off, int width, int i, long v) {
        switch (width) {
            case 16 -> {
                int sh = (i & 3) << 4;
                int at = off + (i >>> 2);
                block[at] = (block[at] & ~(0xFFFFL << sh)) | ((v & 0xFFFFL) << sh);
            }
            case 32 -> {
                int sh = (i & 1) << 5;
                int at = off + (i >>> 1);
                block[at] = (block[at] & ~(0xFFFF_FFFFL << sh)) | ((v & 0xFFFF_FFFFL) << sh);
            }
            default -> block[off + i] = v;
        }
    }

    /** Unsigned {@code succ>}: lanes {@code <= d}; {@code d} fits the width. */
    public static int succGT(long[] block, int off, int width, long d) {
        int c = 0;
        for (int i = 0, n = lanes(width); i < n; i++) {
            c += Long.compareUnsigned(get(block, off, width, i), d) <= 0 ? 1 : 0;
        }
        return c;
    }

    /** Unsigned {@code succ>=}: lanes {@code < d}; {@code d} fits the width. */
    public static int succGE(long[] block, int off, int width, long d) {
        int c = 0;
        for (int i = 0, n = lanes(width); i < n; i++) {
            c += Long.compareUnsigned(get(block, off, width, i), d) < 0 ? 1 : 0;
        }
        return c;
    }
}
