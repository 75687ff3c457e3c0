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

    /**
     * Moves lanes {@code [from, from + n)} up one lane, to {@code [from + 1, from + n]} (lane
     * {@code from} keeps its old value): whole words are shifted with the carry from the word
     * below, a few instructions a word instead of a read-modify-write a lane.
     */
    public static void shiftUp(long[] block, int off, int width, int from, int n) {
        if (n <= 0) {
            return;
        }
        if (width == 64) {
            System.arraycopy(block, off + from, block, off + from + 1, n);
            return;
        }
        int shift = Integer.numberOfTrailingZeros(width); // 4 or 5
        int perWord = 64 >>> shift;
        int first = from + 1;
        int last = from + n;
        // High word first, so the word below is still unmodified when its top lane is carried in.
        for (int w = last / perWord; w >= first / perWord; w--) {
            long cur = block[off + w];
            long carry = w > 0 ? block[off + w - 1] >>> (64 - width) : 0;
            long shifted = cur << width | carry;
            long mask = laneMask(w, perWord, width, first, last);
            block[off + w] = (cur & ~mask) | (shifted & mask);
        }
    }

    /**
     * Moves lanes {@code [from, from + n)} down one lane, to {@code [from - 1, from + n - 1)}
     * (lane {@code from + n - 1} keeps its old value); {@code from >= 1}.
     */
    public static void shiftDown(long[] block, int off, int width, int from, int n) {
        if (n <= 0) {
            return;
        }
        if (width == 64) {
            System.arraycopy(block, off + from, block, off + from - 1, n);
            return;
        }
        int shift = Integer.numberOfTrailingZeros(width);
        int perWord = 64 >>> shift;
        int first = from - 1;
        int last = from + n - 2;
        int words = BLOCK_BITS / 64;
        // Low word first, so the word above is still unmodified when its bottom lane is carried in.
        for (int w = first / perWord; w <= last / perWord; w++) {
            long cur = block[off + w];
            long carry = w + 1 < words ? block[off + w + 1] << (64 - width) : 0;
            long shifted = cur >>> width | carry;
            long mask = laneMask(w, perWord, width, first, last);
            block[off + w] = (cur & ~mask) | (shifted & mask);
        }
    }

    /** The bits of word {@code w} that hold lanes {@code [first, last]}. */
    private static long laneMask(int w, int perWord, int width, int first, int last) {
        int lo = Math.max(first, w * perWord) - w * perWord;
        int hi = Math.min(last, w * perWord + perWord - 1) - w * perWord; // inclusive
        long upTo = hi + 1 == perWord ? -1L : (1L << ((hi + 1) * width)) - 1;
        return upTo & (-1L << (lo * width));
    }

    /** Writes {@code lanes(width)} lane values from {@code in} into the block, a word at a time. */
    public static void pack(long[] in, long[] block, int off, int width) {
        if (width == 64) {
            // a lane a word: a copy (the bulk load of wide keys writes every leaf this way)
            System.arraycopy(in, 0, block, off, BLOCK_BITS / 64);
            return;
        }
        int perWord = 64 / width;
        long mask = maxLane(width);
        for (int w = 0, i = 0; w < BLOCK_BITS / 64; w++) {
            long word = 0;
            for (int j = 0; j < perWord; j++, i++) {
                word |= (in[i] & mask) << (j * width);
            }
            block[off + w] = word;
        }
    }

    /** Reads all {@code lanes(width)} lanes of the block into {@code out}, zero-extended. */
    public static void unpack(long[] block, int off, int width, long[] out) {
        int perWord = 64 / width;
        long mask = maxLane(width);
        for (int w = 0, i = 0; w < BLOCK_BITS / 64; w++) {
            long word = block[off + w];
            for (int j = 0; j < perWord; j++, i++) {
                out[i] = (word >>> (j * width)) & mask;
            }
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
