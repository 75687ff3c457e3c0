package org.bforest.bench.jmh;

import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * The four ways of the BS-tree paper's Figure 2 (section 3.2) to compute {@code succ>} on one
 * sorted node: the number of keys {@code <= key}, i.e. the index of the first key {@code > key}
 * ({@code n} when there is none). Nodes are {@code keys[off .. off+n)}.
 *
 * <p>Key widths as in the paper: 16 and 32 bits are <em>unsigned</em> (the paper's uint16 and
 * uint32): a {@code short} or {@code int} holds the bits of the unsigned key, scalar code widens
 * it ({@code & 0xFFFF}, {@link Integer#toUnsignedLong}), SIMD code compares with
 * {@link VectorOperators#ULE}. 64 bits are <em>signed</em> {@code long}, the library's key order
 * (the production kernel, {@code org.bforest.kernel.NodeSearch}, compares signed; DESIGN.md
 * measured the unsigned 64-bit vector compare of the paper's uint64 at the same cost).
 *
 * <ul>
 *   <li>{@link Algorithm#BINARY}: non-recursive binary search with an {@code if} per step, as the
 *       paper's. C2 decides on its own whether that {@code if} becomes a branch or a
 *       {@code cmov}; we measure the code as written.</li>
 *   <li>{@link Algorithm#LINEAR}: scan from the start, stop at the first key {@code > key}.</li>
 *   <li>{@link Algorithm#COUNTING}: Snippet 1, a loop of fixed trip count adding
 *       {@code key >= keys[i]}; no branch on the data.</li>
 *   <li>{@link Algorithm#SIMD}: Snippet 2 on the Vector API: load, compare against the broadcast
 *       key, {@code trueCount()} of the mask, per vector. The species is the preferred one (512
 *       bits on AVX-512), or half or a quarter of it when its lane count does not divide the node
 *       size (16-bit N=8 and N=16, 32-bit N=8 at 512 bits), so that no lane reads past the node;
 *       {@code n} must be a multiple of the quarter's lane count ({@link #simdBits} checks; 8
 *       always is, up to 512-bit vectors); there is no scalar tail loop, as in Snippet 2. Species
 *       are {@code static final}: a species the JIT cannot see as a constant is not
 *       intrinsified.</li>
 * </ul>
 *
 * All four return the same answer for every input, duplicates and extreme keys included
 * ({@code NodeSearchesTest} checks it); the benchmark is only honest while they do.
 */
public final class NodeSearches {
    static final VectorSpecies<Short> S16 = ShortVector.SPECIES_PREFERRED;
    static final VectorSpecies<Short> S16_HALF = half(S16);
    static final VectorSpecies<Short> S16_QUARTER = half(S16_HALF);
    static final VectorSpecies<Integer> S32 = IntVector.SPECIES_PREFERRED;
    static final VectorSpecies<Integer> S32_HALF = half(S32);
    static final VectorSpecies<Integer> S32_QUARTER = half(S32_HALF);
    static final VectorSpecies<Long> S64 = LongVector.SPECIES_PREFERRED;
    static final VectorSpecies<Long> S64_HALF = half(S64);
    static final VectorSpecies<Long> S64_QUARTER = half(S64_HALF);

    private NodeSearches() {
    }

    /** The four implementations of Figure 2. */
    public enum Algorithm {
        BINARY, LINEAR, COUNTING, SIMD
    }

    private static <E> VectorSpecies<E> half(VectorSpecies<E> s) {
        int bits = Math.max(64, s.vectorBitSize() / 2);
        return VectorSpecies.of(s.elementType(), VectorShape.forBitSize(bits));
    }

    /**
     * The vector width the SIMD search uses for {@code n} keys of {@code width} bits.
     *
     * @throws IllegalArgumentException if the SIMD search cannot take {@code n} keys (it needs a
     *                                  multiple of the smallest species' lane count: 8 will do up to
     *                                  512-bit vectors)
     */
    public static int simdBits(int width, int n) {
        return switch (width) {
            case 16 -> pick(S16, S16_HALF, S16_QUARTER, n).vectorBitSize();
            case 32 -> pick(S32, S32_HALF, S32_QUARTER, n).vectorBitSize();
            case 64 -> pick(S64, S64_HALF, S64_QUARTER, n).vectorBitSize();
            default -> throw new IllegalArgumentException("width must be 16, 32 or 64, not " + width);
        };
    }

    private static <E> VectorSpecies<E> pick(VectorSpecies<E> full, VectorSpecies<E> half, VectorSpecies<E> quarter,
                                             int n) {
        VectorSpecies<E> s = n % full.length() == 0 ? full : n % half.length() == 0 ? half : quarter;
        if (n <= 0 || n % s.length() != 0) {
            throw new IllegalArgumentException("the SIMD search needs a node size that is a positive multiple of "
                    + quarter.length() + " here, not " + n);
        }
        return s;
    }

    // ---- 16-bit keys, unsigned --------------------------------------------------------------

    public static int binary16(short[] keys, int off, int n, short key) {
        int k = key & 0xFFFF;
        int lo = 0;
        int hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if ((keys[off + mid] & 0xFFFF) <= k) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    public static int linear16(short[] keys, int off, int n, short key) {
        int k = key & 0xFFFF;
        int i = 0;
        while (i < n && (keys[off + i] & 0xFFFF) <= k) {
            i++;
        }
        return i;
    }

    public static int counting16(short[] keys, int off, int n, short key) {
        int k = key & 0xFFFF;
        int c = 0;
        for (int i = 0; i < n; i++) {
            c += (keys[off + i] & 0xFFFF) <= k ? 1 : 0;
        }
        return c;
    }

    public static int simd16(short[] keys, int off, int n, short key) {
        if (n % S16.length() == 0) {
            return simd16(S16, keys, off, n, key);
        }
        return n % S16_HALF.length() == 0 ? simd16(S16_HALF, keys, off, n, key)
                : simd16(S16_QUARTER, keys, off, n, key);
    }

    private static int simd16(VectorSpecies<Short> s, short[] keys, int off, int n, short key) {
        int lanes = s.length();
        int c = 0;
        for (int i = 0; i < n; i += lanes) {
            c += ShortVector.fromArray(s, keys, off + i).compare(VectorOperators.ULE, key).trueCount();
        }
        return c;
    }

    // ---- 32-bit keys, unsigned --------------------------------------------------------------

    public static int binary32(int[] keys, int off, int n, int key) {
        long k = Integer.toUnsignedLong(key);
        int lo = 0;
        int hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Integer.toUnsignedLong(keys[off + mid]) <= k) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    public static int linear32(int[] keys, int off, int n, int key) {
        long k = Integer.toUnsignedLong(key);
        int i = 0;
        while (i < n && Integer.toUnsignedLong(keys[off + i]) <= k) {
            i++;
        }
        return i;
    }

    public static int counting32(int[] keys, int off, int n, int key) {
        long k = Integer.toUnsignedLong(key);
        int c = 0;
        for (int i = 0; i < n; i++) {
            c += Integer.toUnsignedLong(keys[off + i]) <= k ? 1 : 0;
        }
        return c;
    }

    public static int simd32(int[] keys, int off, int n, int key) {
        if (n % S32.length() == 0) {
            return simd32(S32, keys, off, n, key);
        }
        return n % S32_HALF.length() == 0 ? simd32(S32_HALF, keys, off, n, key)
                : simd32(S32_QUARTER, keys, off, n, key);
    }

    private static int simd32(VectorSpecies<Integer> s, int[] keys, int off, int n, int key) {
        int lanes = s.length();
        int c = 0;
        for (int i = 0; i < n; i += lanes) {
            c += IntVector.fromArray(s, keys, off + i).compare(VectorOperators.ULE, key).trueCount();
        }
        return c;
    }

    // ---- 64-bit keys, signed ----------------------------------------------------------------

    public static int binary64(long[] keys, int off, int n, long key) {
        int lo = 0;
        int hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (keys[off + mid] <= key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    public static int linear64(long[] keys, int off, int n, long key) {
        int i = 0;
        while (i < n && keys[off + i] <= key) {
            i++;
        }
        return i;
    }

    public static int counting64(long[] keys, int off, int n, long key) {
        int c = 0;
        for (int i = 0; i < n; i++) {
            c += keys[off + i] <= key ? 1 : 0;
        }
        return c;
    }

    public static int simd64(long[] keys, int off, int n, long key) {
        if (n % S64.length() == 0) {
            return simd64(S64, keys, off, n, key);
        }
        return n % S64_HALF.length() == 0 ? simd64(S64_HALF, keys, off, n, key)
                : simd64(S64_QUARTER, keys, off, n, key);
    }

    private static int simd64(VectorSpecies<Long> s, long[] keys, int off, int n, long key) {
        int lanes = s.length();
        int c = 0;
        for (int i = 0; i < n; i += lanes) {
            c += LongVector.fromArray(s, keys, off + i).compare(VectorOperators.LE, key).trueCount();
        }
        return c;
    }

    // ---- by name, for tests -----------------------------------------------------------------

    /** {@code succ>} by {@code a} on {@code short[]} nodes (not for timing: one switch per call). */
    public static int succGT(Algorithm a, short[] keys, int off, int n, short key) {
        return switch (a) {
            case BINARY -> binary16(keys, off, n, key);
            case LINEAR -> linear16(keys, off, n, key);
            case COUNTING -> counting16(keys, off, n, key);
            case SIMD -> simd16(keys, off, n, key);
        };
    }

    /** {@code succ>} by {@code a} on {@code int[]} nodes (not for timing). */
    public static int succGT(Algorithm a, int[] keys, int off, int n, int key) {
        return switch (a) {
            case BINARY -> binary32(keys, off, n, key);
            case LINEAR -> linear32(keys, off, n, key);
            case COUNTING -> counting32(keys, off, n, key);
            case SIMD -> simd32(keys, off, n, key);
        };
    }

    /** {@code succ>} by {@code a} on {@code long[]} nodes (not for timing). */
    public static int succGT(Algorithm a, long[] keys, int off, int n, long key) {
        return switch (a) {
            case BINARY -> binary64(keys, off, n, key);
            case LINEAR -> linear64(keys, off, n, key);
            case COUNTING -> counting64(keys, off, n, key);
            case SIMD -> simd64(keys, off, n, key);
        };
    }
}
