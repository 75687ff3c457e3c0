package org.bforest.bstree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.bforest.contract.IndexAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The uneven splits at the edges of the BS-tree and the CBS-tree ({@link GappedTree#edgeOf}): an
 * ascending run leaves every leaf but the last full and every inner node but the last of its
 * level with 16 of its 17 children, a descending run the mirror, and inside the tree the splits
 * stay halves.
 */
class EdgeSplitTest {

    /** Keys in each leaf, in chain order. */
    private static List<Integer> leafCounts(GappedTree t) {
        List<Integer> counts = new ArrayList<>();
        for (int leaf = t.firstLeaf(); leaf != GappedTree.NONE; leaf = t.leafNext(leaf)) {
            counts.add(Long.bitCount(t.leafBitmap(leaf)));
        }
        return counts;
    }

    /** Children of each inner node, a list per level below the root, nodes in key order. */
    private static List<List<Integer>> innerChildren(GappedTree t) {
        InnerLevels in = t.inner;
        List<List<Integer>> levels = new ArrayList<>();
        List<Integer> level = List.of(in.root);
        for (int h = in.height; h > 0; h--) {
            List<Integer> counts = new ArrayList<>();
            List<Integer> below = new ArrayList<>();
            for (int node : level) {
                int bm = in.bitmap(node);
                counts.add(1 + Integer.bitCount(bm));
                below.add(in.child(node, 0));
                for (int s = 0; s < Slots.N; s++) {
                    if ((bm & 1 << s) != 0) {
                        below.add(in.child(node, 1 + s));
                    }
                }
            }
            if (h < in.height) {
                levels.add(counts);
            }
            level = below;
        }
        return levels;
    }

    /** Every count but the one at the run's end ({@code skipLast}: the last, else the first) is {@code full}. */
    private static void assertAllFull(List<Integer> counts, int full, boolean skipLast, String what) {
        int skip = skipLast ? counts.size() - 1 : 0;
        for (int i = 0; i < counts.size(); i++) {
            if (i != skip) {
                assertEquals(full, counts.get(i), what + " " + i + " of " + counts.size() + ": " + counts);
            }
        }
    }

    private static void assertInnerLevelsDense(GappedTree t, boolean ascending) {
        List<List<Integer>> levels = innerChildren(t);
        assertTrue(levels.size() >= 2, "the run grew inner levels below the root: " + t);
        for (List<Integer> level : levels) {
            assertAllFull(level, Slots.N, ascending, "inner node");
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void anAscendingRunLeavesFullLeavesAndInnerNodes(boolean keyOnly) {
        BSTree t = new BSTree(keyOnly);
        int n = 16 * 6_000 + 5;
        for (int i = 0; i < n; i++) {
            t.put(1_000 + 7L * i, keyOnly ? 0 : i);
        }
        t.checkInvariants();
        assertEquals(n, t.size());
        assertEquals((n + 15) / 16, t.leafNodes(), "16 keys a leaf");
        List<Integer> counts = leafCounts(t);
        assertAllFull(counts, 16, true, "leaf");
        assertEquals(5, counts.get(counts.size() - 1));
        assertInnerLevelsDense(t, true);
        for (int i = 0; i < n; i += 997) {
            assertEquals(keyOnly ? 0 : i, t.get(1_000 + 7L * i, -1));
        }
    }

    @Test
    void aDescendingRunIsTheMirror() {
        BSTree t = new BSTree();
        int n = 16 * 6_000 + 5;
        for (int i = 0; i < n; i++) {
            t.put(-7L * i, i);
        }
        t.checkInvariants();
        assertEquals((n + 15) / 16, t.leafNodes());
        List<Integer> counts = leafCounts(t);
        assertAllFull(counts, 16, false, "leaf");
        assertEquals(5, counts.get(0));
        assertInnerLevelsDense(t, false);
        assertEquals(n - 1, t.get(-7L * (n - 1), -1));
        assertEquals(0, t.get(0, -1));
    }

    @Test
    void insideTheTreeAKeyAboveAFullLeafStillSplitsItInHalves() {
        BSTree t = BSTree.bulkLoad(LongRange.of(0, 32, 2), null, 1.0);
        assertEquals(List.of(16, 16), leafCounts(t));
        assertTrue(t.upsert(31, 1)); // above every key of the first leaf, which is not the last
        assertEquals(List.of(9, 8, 16), leafCounts(t));
        assertTrue(t.upsert(33, 1)); // in the last leaf, not above its keys
        assertEquals(List.of(9, 8, 9, 8), leafCounts(t));
        assertTrue(t.upsert(-1, 1)); // below the first leaf's keys, which is not full
        assertEquals(List.of(10, 8, 9, 8), leafCounts(t));
        t.checkInvariants();
    }

    /**
     * Random inserts fill leaves as the even split always did, about 70% (this seed: 0.7042
     * before the edge splits, 0.7046 with them, a random key above all others being an append);
     * splitting at the right end of any leaf, not only the last, would leave about 67%.
     */
    @Test
    void randomInsertsKeepTheirFill() {
        BSTree t = new BSTree();
        SplittableRandom rnd = new SplittableRandom(11);
        int n = 200_000;
        for (int i = 0; i < n; i++) {
            t.put(rnd.nextLong(), i);
        }
        double fill = t.size() / (16.0 * t.leafNodes());
        assertTrue(fill > 0.69 && fill < 0.72, "fill " + fill);
    }

    /**
     * Runs fill every leaf of the compressed tree for its width, and values that move with the
     * key, up or down, stay in lanes ({@code values}: 1, the key; -1, its negation; 0, random
     * values, packed, in a tree without value lanes).
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 800, 3_000, 1L << 40})
    void theCompressedTreesRunsFillEveryLeafForItsWidth(long step) {
        for (boolean ascending : new boolean[] {true, false}) {
            for (int values : new int[] {1, -1, 0}) {
                boolean lanes = values != 0;
                CBSTree t = new CBSTree(lanes);
                TreeMap<Long, Long> model = new TreeMap<>();
                int n = 30_000;
                SplittableRandom rnd = new SplittableRandom(step);
                for (int i = 0; i < n; i++) {
                    long k = ascending ? -(1L << 50) + step * i : (1L << 50) - step * i;
                    long v = lanes ? values * k : rnd.nextLong();
                    t.put(k, v);
                    model.put(k, v);
                }
                String at = "step " + step + (ascending ? " ascending" : " descending") + ", values " + values;
                IndexAssertions.assertMatches(t, model, at);
                if (lanes) {
                    // Every leaf an edge split started; the run's first leaf was the empty tree's,
                    // re-encoded with a centred v0 that may hold only part of its values.
                    int start = ascending ? t.firstLeaf() : t.lastLeaf();
                    for (int leaf = t.firstLeaf(); leaf != GappedTree.NONE; leaf = t.leafNext(leaf)) {
                        if (leaf != start) {
                            assertTrue(ForLeafCodec.hasLanes(t.leafMeta(leaf)), at + ": leaf " + leaf + " in lanes");
                        }
                    }
                }
                List<Integer> counts = new ArrayList<>();
                List<Integer> lanesOf = new ArrayList<>();
                for (int leaf = t.firstLeaf(); leaf != GappedTree.NONE; leaf = t.leafNext(leaf)) {
                    counts.add(Long.bitCount(t.leafBitmap(leaf)));
                    lanesOf.add(ForLeafCodec.lanes(t.leafWidth(leaf)));
                }
                int skip = ascending ? counts.size() - 1 : 0;
                for (int i = 0; i < counts.size(); i++) {
                    if (i != skip) {
                        assertEquals(lanesOf.get(i), counts.get(i), at + ": leaf " + i + " is full for its width");
                    }
                }
                int expectLanes = step <= 800 ? 64 : step == 3_000 ? 32 : 16; // 800: 64 keys span 50,400 of 65,535
                assertEquals(expectLanes, lanesOf.get(counts.size() / 2), at + ": the width of a middle leaf");
                assertInnerLevelsDense(t, ascending);
            }
        }
    }

    @Test
    void theCompressedTreeSplitsInsideTheTreeInHalves() {
        CBSTree t = CBSTree.bulkLoad(LongRange.of(0, 32, 1L << 40), null, 1.0); // two full 64-bit leaves
        assertEquals(List.of(16, 16), leafCounts(t));
        assertTrue(t.upsert(15L << 40 | 1, 1)); // above the first leaf's keys; it is not the last
        assertEquals(List.of(8, 9, 16), leafCounts(t), "the halves of its own keys, then the new key");
        t.checkInvariants();
    }

    /** Ascending and descending runs, then random inserts and deletes, against a TreeMap. */
    @Test
    void runsThenRandomInsertsThenDeletesKeepTheInvariants() {
        List<Supplier<GappedTree>> trees = List.of(BSTree::new, CBSTree::new, () -> new CBSTree(false));
        for (Supplier<GappedTree> make : trees) {
            for (long seed = 1; seed <= 3; seed++) {
                GappedTree t = make.get();
                TreeMap<Long, Long> model = new TreeMap<>();
                SplittableRandom rnd = new SplittableRandom(seed);
                long step = seed == 1 ? 1 : seed == 2 ? 5_000 : 1L << 36;
                String at = t.getClass().getSimpleName() + " seed " + seed;
                for (int i = 0; i < 3_000; i++) { // ascending, then descending below it
                    put(t, model, step * i, rnd.nextLong(), at);
                }
                for (int i = 1; i <= 1_500; i++) {
                    put(t, model, -step * i, i, at);
                }
                IndexAssertions.assertMatches(t, model, at + " after the runs");
                for (int i = 0; i < 3_000; i++) {
                    put(t, model, rnd.nextLong(-step * 1_500, step * 3_000), i, at);
                }
                IndexAssertions.assertMatches(t, model, at + " after random inserts");
                for (int i = 0; i < 2_000; i++) { // an ascending run again, past the largest key
                    put(t, model, step * 3_000 + 3 * i, i, at);
                }
                Long[] keys = model.keySet().toArray(new Long[0]);
                for (int i = 0; i < keys.length; i++) {
                    if (rnd.nextInt(4) != 0) {
                        long k = keys[i];
                        assertEquals(model.remove(k) != null, t.delete(k), at);
                    }
                }
                IndexAssertions.assertMatches(t, model, at + " after deletes");
                for (long k : model.keySet().toArray(new Long[0])) {
                    assertTrue(t.delete(k), at);
                }
                IndexAssertions.assertMatches(t, new TreeMap<>(), at + " emptied");
                assertEquals(0, t.height());
            }
        }
    }

    private static void put(GappedTree t, TreeMap<Long, Long> model, long k, long v, String at) {
        assertEquals(model.put(k, v) == null, t.upsert(k, v), at + " put " + k);
    }

    /** {@code n} keys from {@code from} by {@code step}. */
    private static final class LongRange {
        static long[] of(long from, int n, long step) {
            long[] k = new long[n];
            for (int i = 0; i < n; i++) {
                k[i] = from + i * step;
            }
            return k;
        }
    }
}
