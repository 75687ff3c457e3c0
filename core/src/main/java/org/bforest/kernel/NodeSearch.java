package org.bforest.kernel;

import java.lang.System.Logger.Level;
import java.lang.foreign.MemorySegment;

/**
 * The successor operator on 16-key nodes: the one kernel every descent, insert and delete of the
 * gapped trees runs (BS-tree paper, section 3.2, Snippets 1 and 2).
 *
 * <p>The paper's two operators on a sorted node, computed by counting as in its Snippets 1 and 2:
 * {@link #succGT} ({@code succ>}) is the first slot whose key is {@code > key}, i.e.
 * {@code |{i : keys[i] <= key}|}, and {@link #succGE} ({@code succ>=}) the first slot whose key
 * is {@code >= key}, i.e. {@code |{i : keys[i] < key}|}. On an inner node {@code succGT} is the
 * index of the child to follow. On a leaf {@code q = succGT(...)} gives both answers a leaf needs,
 * because a gap holds a copy of the next used key: the key is present iff
 * {@code q > 0 && keys[q - 1] == key} (the last slot of a run of equal keys is the used one), and
 * otherwise {@code q} is also {@code succ>=}, the slot where it belongs. So lookups, inserts and
 * deletes use {@code succGT} alone; {@code succGE} serves range bounds.
 *
 * <p>The SIMD path loads the node as {@code 16 / lanes} vectors of the preferred species (two
 * 512-bit loads on AVX-512), compares against the broadcast key into a mask and counts it
 * ({@code vpcmpq} + {@code popcnt}; measured ~3.5 ns per node in cache on Zen 4, against ~20 ns for
 * a scalar loop). It is used when the {@code jdk.incubator.vector} module is in the boot layer and
 * the preferred species holds at least 4 longs; otherwise the scalar path, which gives identical
 * answers, is used and one warning is logged. {@code -Dbforest.simd=false} forces the scalar path.
 * The choice is a {@code static final} constant, so the JIT removes the branch.
 */
public final class NodeSearch {
    /** Keys per node: 16 longs, two cache lines, two 512-bit vectors. */
    public static final int NODE_KEYS = 16;

    /** Whether the Vector API path is in use. */
    public static final boolean SIMD = chooseSimd();

    private NodeSearch() {
    }

    private static boolean chooseSimd() {
        if (!Boolean.parseBoolean(System.getProperty("bforest.simd", "true"))) {
            return false;
        }
        if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
            System.getLogger("org.bforest").log(Level.WARNING,
                    "bforest: the Vector API is not available, node search falls back to scalar code"
                            + " (run the JVM with --add-modules jdk.incubator.vector)");
            return false;
        }
        return SimdSearch.usable();
    }

    /** {@code succ>}: the number of keys in {@code keys[off .. off+16)} that are {@code <= key}. */
    public static int succGT(long[] keys, int off, long key) {
        return SIMD ? SimdSearch.succGT(keys, off, key) : ScalarSearch.succGT(keys, off, key);
    }

    /** {@code succ>=}: the number of keys in {@code keys[off .. off+16)} that are {@code < key}. */
    public static int succGE(long[] keys, int off, long key) {
        return SIMD ? SimdSearch.succGE(keys, off, key) : ScalarSearch.succGE(keys, off, key);
    }

    /**
     * {@code succ>} on a node of 16 little-endian longs at byte {@code off} of {@code node}, a
     * mapped snapshot's node read in place: the same count as {@link #succGT(long[], int, long)}.
     */
    public static int succGT(MemorySegment node, long off, long key) {
        return SIMD ? SimdSearch.succGT(node, off, key) : ScalarSearch.succGT(node, off, key);
    }

    /** {@code succ>=} on a node of 16 little-endian longs at byte {@code off} of {@code node}. */
    public static int succGE(MemorySegment node, long off, long key) {
        return SIMD ? SimdSearch.succGE(node, off, key) : ScalarSearch.succGE(node, off, key);
    }

    /**
     * The B&minus; tree's rank: the number of keys in {@code keys[off .. off+width)} that are
     * {@code < key}, for {@code width} 16, 32 or 64 (the node sizes it supports). The article's
     * compare, mask and popcount, with no branch on the keys; a width outside the three throws.
     */
    public static int rank(long[] keys, int off, int width, long key) {
        return SIMD ? SimdSearch.rank(keys, off, width, key) : ScalarSearch.rank(keys, off, width, key);
    }

    /**
     * The CSB+-tree's rank: the number of keys {@code < key} in the first {@code width - skip}
     * longs of the node {@code keys[off .. off+width)}, for {@code width} 8, 16 or 32 (one, two
     * or four cache lines) and {@code skip} 0, 1 or 2: the last {@code skip} longs of a CSB+-tree
     * inner node hold its child-group pointers, not keys, and are left out of the count by the
     * compare's mask (on the SIMD path a masked compare on the last vector, so the whole node is
     * still one or a few loads). Other widths or skips throw.
     */
    public static int rankHead(long[] keys, int off, int width, int skip, long key) {
        return SIMD ? SimdSearch.rankHead(keys, off, width, skip, key)
                : ScalarSearch.rankHead(keys, off, width, skip, key);
    }

    /**
     * The B&minus; tree's insert shift: moves {@code a[off+from .. off+width-1)} one slot right,
     * dropping the last slot's old content (a node keeps it free for this). On the SIMD path it is
     * the article's masked shift: one load and one masked store a vector, right to left, the same
     * work wherever {@code from} is; otherwise {@code System.arraycopy}.
     */
    public static void shiftRight(long[] a, int off, int from, int width) {
        if (SIMD) {
            SimdSearch.shiftRight(a, off, from, width);
        } else {
            System.arraycopy(a, off + from, a, off + from + 1, width - 1 - from);
        }
    }

    /** A description of the kernel in use, for reports. */
    public static String describe() {
        return SIMD ? "SIMD " + SimdSearch.describe() : "scalar";
    }

    /**
     * Unsigned {@code succ>} on a block of packed lanes of {@code width} bits (16, 32 or 64; see
     * {@link PackedLanes}): the number of lanes {@code <= d}, where {@code d} is a frame-of-reference
     * difference that fits the width. The compressed leaves' search (BS-tree paper, section 5).
     */
    public static int succGTPacked(long[] keys, int off, int width, long d) {
        return SIMD ? SimdSearch.succGTPacked(keys, off, width, d)
                : PackedLanes.succGT(keys, off, width, d);
    }

    /** Unsigned {@code succ>=} on packed lanes: the number of lanes {@code < d}. */
    public static int succGEPacked(long[] keys, int off, int width, long d) {
        return SIMD ? SimdSearch.succGEPacked(keys, off, width, d)
                : PackedLanes.succGE(keys, off, width, d);
    }
}
