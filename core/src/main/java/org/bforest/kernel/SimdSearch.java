package org.bforest.kernel;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Counting search on the Vector API (the paper's Snippet 2). Only loaded when the
 * {@code jdk.incubator.vector} module is present; see {@link NodeSearch}.
 *
 * <p>The species is the preferred one, read at class-load time (512 bits on AVX-512, 256 on
 * AVX2): a species wider than the CPU falls back to a very slow Java path, so it is never
 * hard-coded. The loop has a constant trip count ({@code 16 / lanes}) and is unrolled by the JIT.
 */
final class SimdSearch {
    private static final VectorSpecies<Long> SPECIES = LongVector.SPECIES_PREFERRED;
    private static final int LANES = SPECIES.length();

    private SimdSearch() {
    }

    /** Worth using when a node takes at most 4 vectors. */
    static boolean usable() {
        return LANES >= 4 && NodeSearch.NODE_KEYS % LANES == 0;
    }

    static String describe() {
        return SPECIES.vectorBitSize() + "-bit, " + LANES + " lanes";
    }

    static int succGT(long[] keys, int off, long key) {
        int c = 0;
        for (int i = 0; i < NodeSearch.NODE_KEYS; i += LANES) {
            c += LongVector.fromArray(SPECIES, keys, off + i).compare(VectorOperators.LE, key).trueCount();
        }
        return c;
    }

    static int succGE(long[] keys, int off, long key) {
        int c = 0;
        for (int i = 0; i < NodeSearch.NODE_KEYS; i += LANES) {
            c += LongVector.fromArray(SPECIES, keys, off + i).compare(VectorOperators.LT, key).trueCount();
        }
        return c;
    }

    // A mapped node: the same loads from a segment (a snapshot's bytes are little-endian).
    static int succGT(MemorySegment node, long off, long key) {
        int c = 0;
        for (int i = 0; i < NodeSearch.NODE_KEYS; i += LANES) {
            c += LongVector.fromMemorySegment(SPECIES, node, off + 8L * i, ByteOrder.LITTLE_ENDIAN)
                    .compare(VectorOperators.LE, key).trueCount();
        }
        return c;
    }

    static int succGE(MemorySegment node, long off, long key) {
        int c = 0;
        for (int i = 0; i < NodeSearch.NODE_KEYS; i += LANES) {
            c += LongVector.fromMemorySegment(SPECIES, node, off + 8L * i, ByteOrder.LITTLE_ENDIAN)
                    .compare(VectorOperators.LT, key).trueCount();
        }
        return c;
    }

    /**
     * Unsigned counting search over a 1024-bit block of packed lanes ({@link PackedLanes}): the
     * same two 512-bit loads as a plain node, reinterpreted in place (no instruction on x86) as
     * 32 shorts or 16 ints per vector and compared unsigned against the broadcast difference
     * ({@code vpcmpuw}/{@code vpcmpud}/{@code vpcmpuq}). Figure 2 of the paper: 64 16-bit keys
     * cost what 16 64-bit keys cost. One small method per width and operator, each with a
     * constant comparison: C2 intrinsifies {@code compare} only when its operator is a constant,
     * and a shared helper taking the operator as a parameter, compiled on its own, ran the Java
     * fallback (measured: most of an insert's time, and allocation).
     */
    static int succGTPacked(long[] keys, int off, int width, long d) {
        return switch (width) {
            case 16 -> le16(keys, off, (short) d);
            case 32 -> le32(keys, off, (int) d);
            default -> le64(keys, off, d);
        };
    }

    static int succGEPacked(long[] keys, int off, int width, long d) {
        return switch (width) {
            case 16 -> lt16(keys, off, (short) d);
            case 32 -> lt32(keys, off, (int) d);
            default -> lt64(keys, off, d);
        };
    }

    private static int le16(long[] keys, int off, short e) {
        int c = 0;
        for (int i = 0; i < NodeSearch.NODE_KEYS; i += LANES) {
            c += LongVector.fromArray(SPECIES, keys, off + i).reinterpretAsShorts().compare(VectorOperators.ULE, e)
                    .trueCount();
        }
        return c;
    }

    private static int lt16(long[] keys, int off, short e) {
        int c = 0;
        for (int i = 0; i < NodeSearch.NODE_KEYS; i += LANES) {
            c += LongVector.fromArray(SPECIES, keys, off + i).reinterpretAsShorts().compare(VectorOperators.ULT, e)
                    .trueCount();
        }
        return c;
    }

    private static int le32(long[] keys, int off, int e) {
        int c = 0;
        for (int i = 0; i < NodeSearch.NODE_KEYS; i += LANES) {
            c += LongVector.fromArray(SPECIES, keys, off + i).reinterpretAsInts().compare(VectorOperators.ULE, e)
                    .trueCount();
        }
        return c;
    }

    private static int lt32(long[] keys, int off, int e) {
        int c = 0;
        for (int i = 0; i < NodeSearch.NODE_KEYS; i += LANES) {
            c += LongVector.fromArray(SPECIES, keys, off + i).reinterpretAsInts().compare(VectorOperators.ULT, e)
                    .trueCount();
        }
        return c;
    }

    private static int le64(long[] keys, int off, long e) {
        int c = 0;
        for (int i = 0; i < NodeSearch.NODE_KEYS; i += LANES) {
            c += LongVector.fromArray(SPECIES, keys, off + i).compare(VectorOperators.ULE, e).trueCount();
        }
        return c;
    }

    private static int lt64(long[] keys, int off, long e) {
        int c = 0;
        for (int i = 0; i < NodeSearch.NODE_KEYS; i += LANES) {
            c += LongVector.fromArray(SPECIES, keys, off + i).compare(VectorOperators.ULT, e).trueCount();
        }
        return c;
    }

    /**
     * The B&minus; tree's rank on 16, 32 or 64 keys: one method per width so that each loop has a
     * constant trip count (two, four or eight 512-bit compares on AVX-512) and is unrolled.
     */
    static int rank(long[] keys, int off, int width, long key) {
        return switch (width) {
            case 32 -> rank32(keys, off, key);
            case 16 -> rank16(keys, off, key);
            case 64 -> rank64(keys, off, key);
            default -> {
                ScalarSearch.checkWidth(width);
                throw new AssertionError(width);
            }
        };
    }

    private static int rank16(long[] keys, int off, long key) {
        int c = 0;
        for (int i = 0; i < 16; i += LANES) {
            c += LongVector.fromArray(SPECIES, keys, off + i).compare(VectorOperators.LT, key).trueCount();
        }
        return c;
    }

    private static int rank32(long[] keys, int off, long key) {
        int c = 0;
        for (int i = 0; i < 32; i += LANES) {
            c += LongVector.fromArray(SPECIES, keys, off + i).compare(VectorOperators.LT, key).trueCount();
        }
        return c;
    }

    private static int rank64(long[] keys, int off, long key) {
        int c = 0;
        for (int i = 0; i < 64; i += LANES) {
            c += LongVector.fromArray(SPECIES, keys, off + i).compare(VectorOperators.LT, key).trueCount();
        }
        return c;
    }

    /** All lanes but the last one or two: the masks of {@link #rankHead}'s last vector. */
    private static final VectorMask<Long> HEAD1 = SPECIES.indexInRange(0, LANES - 1);
    private static final VectorMask<Long> HEAD2 = SPECIES.indexInRange(0, LANES - 2);

    /**
     * The CSB+-tree's rank: full compares on every vector but the last, whose compare mask is
     * and-ed with a constant mask that leaves out the {@code skip} pointer lanes at the node's end
     * (the node width is a multiple of the lanes, so the pointers are always in the last vector).
     * One method per width with a constant trip count; each branch on {@code skip} uses one
     * static final mask, never a mask chosen through a phi (which C2 may box).
     */
    static int rankHead(long[] keys, int off, int width, int skip, long key) {
        if (width < LANES) {
            return ScalarSearch.rankHead(keys, off, width, skip, key); // an 8-long node on a 1024-bit CPU
        }
        ScalarSearch.checkHead(width, skip);
        return switch (width) {
            case 8 -> head(keys, off, 8, key, skip);
            case 16 -> head(keys, off, 16, key, skip);
            default -> head(keys, off, 32, key, skip);
        };
    }

    private static int head(long[] keys, int off, int width, long key, int skip) {
        int c = 0;
        int end = width - LANES;
        for (int i = 0; i < end; i += LANES) {
            c += LongVector.fromArray(SPECIES, keys, off + i).compare(VectorOperators.LT, key).trueCount();
        }
        VectorMask<Long> lt = LongVector.fromArray(SPECIES, keys, off + end).compare(VectorOperators.LT, key);
        if (skip == 0) {
            return c + lt.trueCount();
        }
        return c + (skip == 1 ? lt.and(HEAD1).trueCount() : lt.and(HEAD2).trueCount());
    }

    /**
     * The article's masked shift: right to left, each vector is loaded and stored one slot to the
     * right under a mask of the lanes whose slot is in {@code [from, width-1)}; the mask is
     * {@code indexInRange}, so there is no table to load. Right to left, a store never overwrites
     * a slot that a later load still needs.
     */
    static void shiftRight(long[] a, int off, int from, int width) {
        ScalarSearch.checkWidth(width);
        for (int j = width - LANES; j >= 0; j -= LANES) {
            VectorMask<Long> m = SPECIES.indexInRange(j - from, width - 1 - from);
            LongVector.fromArray(SPECIES, a, off + j).intoArray(a, off + j + 1, m);
        }
    }
}
