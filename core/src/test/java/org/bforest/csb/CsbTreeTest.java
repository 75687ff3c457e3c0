package org.bforest.csb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.bforest.CsbVariant;
import org.bforest.Indexes;
import org.bforest.LongCursor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the conformance kit cannot see of the CSB+-trees: the shapes of the bulk load, splits at
 * every level in both directions with the leaf chain rewritten as groups move, the full tree's
 * in-group shift, deletion down to one empty leaf and regrowth (more in {@link CsbDeleteTest}),
 * the node sizes the kit does not run (it runs two lines) against TreeMap, for each variant, and
 * the paper's unrolled search, which only this package's factories make.
 */
class CsbTreeTest {

    static Stream<Arguments> variantsAndLines() {
        List<Arguments> out = new ArrayList<>();
        for (CsbVariant v : CsbVariant.values()) {
            for (int lines : new int[] {1, 2, 4}) {
                out.add(Arguments.of(v, lines));
            }
        }
        return out.stream();
    }

    private static long[] keys(int n, long step) {
        long[] k = new long[n];
        for (int i = 0; i < n; i++) {
            k[i] = i * step;
        }
        return k;
    }

    private static void sameAs(TreeMap<Long, Long> model, CsbTree t) {
        t.checkInvariants();
        assertEquals(model.size(), t.size());
        LongCursor c = t.cursor();
        boolean on = c.seekFirst();
        for (Map.Entry<Long, Long> e : model.entrySet()) {
            assertTrue(on, "cursor ended early");
            assertEquals(e.getKey(), c.key());
            assertEquals(e.getValue(), c.value());
            on = c.next();
        }
        assertTrue(!on, "cursor runs past the model");
    }

    @ParameterizedTest
    @MethodSource("variantsAndLines")
    void bulkLoadBuildsFullLeavesAndContiguousLevels(CsbVariant v, int lines) {
        int s = 8 * lines;
        CsbTree t = CsbTree.bulkLoad("t", v, lines, keys(s * 1000, 3), null);
        t.checkInvariants();
        int leaves = 0;
        for (int leaf = t.firstLeaf(); leaf != CsbTree.NONE; leaf = t.leafNext(leaf)) {
            assertEquals(s, t.leafCount(leaf), "full leaves");
            leaves++;
        }
        assertEquals(1000, leaves);
        int fan = t.keySlots;
        int expectHeight = 0;
        for (int n = 1000; n > 1; n = (n + fan - 1) / fan) {
            expectHeight++;
        }
        assertEquals(expectHeight, t.height);
        long expectIds = v == CsbVariant.FULL ? (long) s * ((1000 + fan - 1) / fan) : 1000;
        assertEquals(expectIds, t.leafPool.used(), "leaf ids: exact groups, or S a group when full");
        for (long k = 0; k < s * 1000L * 3; k += 3) {
            assertEquals(k == 0 ? 0 : 0, t.get(k, -1));
        }
        assertEquals(-1, t.get(1, -1));
        // a tiny tree is one root leaf
        CsbTree one = CsbTree.bulkLoad("t", v, lines, keys(s, 1), null);
        assertEquals(0, one.height);
        one.checkInvariants();
    }

    @ParameterizedTest
    @MethodSource("variantsAndLines")
    void ascendingAndDescendingInsertsSplitEveryLevel(CsbVariant v, int lines) {
        for (boolean ascending : new boolean[] {true, false}) {
            CsbTree t = new CsbTree("t", v, lines);
            TreeMap<Long, Long> model = new TreeMap<>();
            // ascending inserts fill their nodes (an append split), so S = 32 needs more keys to
            // reach three levels than the half-full nodes of descending ones do
            int n = lines == 1 ? 6000 : lines == 2 ? 20_000 : 40_000;
            int lastHeight = 0;
            for (int i = 0; i < n; i++) {
                long k = ascending ? i * 5L : (n - i) * 5L;
                t.put(k, ~k);
                model.put(k, ~k);
                if (t.height != lastHeight) { // a root split: check the whole tree then
                    lastHeight = t.height;
                    sameAs(model, t);
                }
            }
            assertTrue(t.height >= 3, "several levels split: height " + t.height);
            sameAs(model, t);
        }
    }

    @ParameterizedTest
    @MethodSource("variantsAndLines")
    void randomOperationsMatchTreeMap(CsbVariant v, int lines) {
        CsbTree t = CsbTree.bulkLoad("t", v, lines, keys(3000, 7), null);
        assertTrue(!t.searchesUnrolled(), "the SIMD rank is the default");
        randomOperations(t, new SplittableRandom(lines * 31L + v.ordinal()));
    }

    @ParameterizedTest
    @MethodSource("variantsAndLines")
    void theUnrolledSearchMatchesTreeMap(CsbVariant v, int lines) {
        CsbTree t = (CsbTree) CsbTrees.bulkLoad(v, lines, keys(3000, 7), null, true);
        assertTrue(t.searchesUnrolled());
        randomOperations(t, new SplittableRandom(lines * 37L + v.ordinal()));
        CsbTree e = (CsbTree) CsbTrees.empty(v, lines, true);
        assertTrue(e.searchesUnrolled());
        assertTrue(!((CsbTree) CsbTrees.empty(v, lines, false)).searchesUnrolled());
        TreeMap<Long, Long> model = new TreeMap<>();
        for (long k = 0; k < 5000; k++) { // descending, to split the first child at every level
            e.put(-k * 3, k);
            model.put(-k * 3, k);
        }
        assertTrue(e.height >= 2, "height " + e.height);
        sameAs(model, e);
        for (long k = -15_000; k <= 3; k++) {
            assertEquals(model.getOrDefault(k, -1L), e.get(k, -1), "get " + k);
        }
    }

    /** 60,000 random puts, removes and gets on {@code t} (bulk-loaded with {@code keys(3000, 7)}), against TreeMap. */
    private static void randomOperations(CsbTree t, SplittableRandom r) {
        TreeMap<Long, Long> model = new TreeMap<>();
        for (long k : keys(3000, 7)) {
            model.put(k, 0L);
        }
        for (int i = 0; i < 60_000; i++) {
            long k = r.nextLong(0, 40_000);
            switch (r.nextInt(4)) {
                case 0, 1 -> {
                    Long previous = model.put(k, (long) i);
                    assertEquals(previous == null ? 0L : previous, t.put(k, i), "put " + k);
                }
                case 2 -> {
                    Long previous = model.remove(k);
                    assertEquals(previous == null ? 0L : previous, t.remove(k), "remove " + k);
                }
                default -> assertEquals(model.getOrDefault(k, -1L), t.get(k, -1), "get " + k);
            }
            if (i % 20_000 == 0) {
                sameAs(model, t);
            }
        }
        sameAs(model, t);
    }

    @Test
    void theFullTreeShiftsInsideItsGroupWithoutAllocating() {
        CsbTree t = CsbTree.bulkLoad("t", CsbVariant.FULL, 1, keys(8 * 3, 10), null); // 3 leaves, one group of 8
        assertEquals(1, t.height);
        int leafHw = t.leafPool.highWater();
        int innerHw = t.innerPool.highWater();
        int group = CsbTree.first(t.innerMeta(t.root, 0));
        t.put(1, 1); // splits the first leaf: the other two shift right in the group
        assertEquals(leafHw, t.leafPool.highWater(), "no leaf allocated");
        assertEquals(innerHw, t.innerPool.highWater(), "no inner node allocated");
        assertEquals(group, CsbTree.first(t.innerMeta(t.root, 0)), "the group did not move");
        assertEquals(4, CsbTree.count(t.innerMeta(t.root, 0)));
        t.checkInvariants();
        // the plain tree copies the group instead: a new group of 4, the old one of 3 freed
        CsbTree p = CsbTree.bulkLoad("t", CsbVariant.PLAIN, 1, keys(8 * 3, 10), null);
        int old = CsbTree.first(p.innerMeta(p.root, 0));
        p.put(1, 1);
        assertTrue(old != CsbTree.first(p.innerMeta(p.root, 0)), "plain: the group was copied");
        assertEquals(4, p.leafPool.used());
        int[] free = p.leafPool.freeGroups();
        assertEquals(List.of(old, 3), List.of(free[0], free[1]));
        p.checkInvariants();
        // a freed group of the right size is reused
        p.put(200, 1);
        p.put(201, 1);
        p.put(202, 1);
        p.checkInvariants();
    }

    @Test
    void theFullTreeShiftsTheShorterSideOfAGroupPlacedMidBlock() {
        // one line: leaves of 8 keys, blocks of 8 ids; 7 full leaves under the root, at offset 0
        CsbTree t = CsbTree.bulkLoad("t", CsbVariant.FULL, 1, keys(8 * 7, 10), null);
        assertEquals(0, CsbTree.offset(t.innerMeta(t.root, 0)));
        t.put(481, 1); // the last leaf splits; no room on the left: the root's group of 8 fills its block
        assertEquals(8, CsbTree.count(t.innerMeta(t.root, 0)));
        t.put(1, 1); // the first leaf splits, the root is full: its 9 leaves are split 5 and 4
        assertEquals(2, t.height);
        int left = t.innerKid(t.root, 0);
        int right = t.innerKid(t.root, 1);
        long lm = t.innerMeta(left, 0);
        long rm = t.innerMeta(right, 0);
        assertEquals(List.of(5, 1), List.of(CsbTree.count(lm), CsbTree.offset(lm)));
        // the split leaf was child 0: the right half stayed in place (offset 4, the block's end),
        // the left half went to a new block, mid-block
        assertEquals(List.of(4, 4), List.of(CsbTree.count(rm), CsbTree.offset(rm)));
        t.checkInvariants();
        int leafHw = t.leafPool.highWater();
        // child 1 of the right group ([400..470]) splits: no room on the right; the one node
        // left of it moves left
        int r0 = CsbTree.first(rm);
        long keyOfChild2 = t.leafKey(r0 + 2, 0);
        t.put(401, 1);
        long rm2 = t.innerMeta(right, 0);
        assertEquals(List.of(r0 - 1, 3, 5), List.of(CsbTree.first(rm2), CsbTree.offset(rm2), CsbTree.count(rm2)));
        assertEquals(keyOfChild2, t.leafKey(r0 + 2, 0), "the right side did not move");
        // child 0 of the left group splits: nothing to move, the group starts one id earlier
        int l0 = CsbTree.first(lm);
        for (long k = 2; k <= 5; k++) {
            t.put(k, k);
        }
        long lm2 = t.innerMeta(left, 0);
        assertEquals(List.of(l0 - 1, 0, 6), List.of(CsbTree.first(lm2), CsbTree.offset(lm2), CsbTree.count(lm2)));
        // no room on the left any more: child 3 ([80..150]) splits and the two right of it move right
        assertEquals(160, t.leafKey(l0 - 1 + 4, 0));
        t.put(81, 1);
        long lm3 = t.innerMeta(left, 0);
        assertEquals(List.of(l0 - 1, 0, 7), List.of(CsbTree.first(lm3), CsbTree.offset(lm3), CsbTree.count(lm3)));
        assertEquals(160, t.leafKey(l0 - 1 + 5, 0), "child 4 moved one place right");
        assertEquals(leafHw, t.leafPool.highWater(), "no leaf allocated");
        TreeMap<Long, Long> model = new TreeMap<>();
        for (long k = 0; k < 8 * 7 * 10; k += 10) {
            model.put(k, 0L);
        }
        for (long k : new long[] {481, 1, 401, 81}) {
            model.put(k, 1L);
        }
        for (long k = 2; k <= 5; k++) {
            model.put(k, k);
        }
        sameAs(model, t);
    }

    @Test
    void aLargerFreeGroupIsCutWhenNoneHasTheSizeAsked() {
        // one line: leaves of 8 keys; the bulk load gives the root 7 children (one key slot free)
        CsbTree t = CsbTree.bulkLoad("t", CsbVariant.PLAIN, 1, keys(8 * 7, 10), null);
        assertEquals(1, t.height);
        int first = CsbTree.first(t.innerMeta(t.root, 0));
        assertEquals(7, CsbTree.count(t.innerMeta(t.root, 0)));
        t.put(1, 1); // a leaf splits: the group is copied into a new one of 8, the 7 freed
        assertEquals(List.of(first, 7), List.of(t.leafPool.freeGroups()[0], t.leafPool.freeGroups()[1]));
        int hw = t.leafPool.highWater();
        t.put(81, 1); // a full leaf splits (child 2): the root is full, its 9 children go 5 and 4
        assertEquals(2, t.height);
        t.checkInvariants();
        // the right half (old children 4..7, ids first + 7 + 4 ..) stayed where it was; the left
        // half, with the split leaf, was cut from the freed 7 (ids first .. first + 4), and the 4
        // ids it left merged with the 7's tail into one free group; no new id
        assertEquals(hw, t.leafPool.highWater(), "no new leaf ids");
        long rightHalf = t.innerMeta(t.innerKid(t.root, 1), 0);
        assertEquals(List.of(first + 7 + 4, 4), List.of(CsbTree.first(rightHalf), CsbTree.count(rightHalf)));
        assertEquals(first, CsbTree.first(t.innerMeta(t.innerKid(t.root, 0), 0)));
        int[] free = t.leafPool.freeGroups();
        assertEquals(List.of(first + 5, 6), List.of(free[0], free[1]),
                "one merged free group: " + java.util.Arrays.toString(free));
        assertEquals(2, free.length);
        assertEquals(9, t.leafPool.used());
        for (long k = 2; k < 60; k++) { // and the tree goes on growing through cut groups
            t.put(k * 10 + 3, k);
            t.checkInvariants();
        }
    }

    @Test
    void freedGroupsMergeAndGiveBackTheHighWaterMark() {
        // two lines: leaves of 16 keys; 7 full leaves under the root, ids 0..6
        CsbTree t = CsbTree.bulkLoad("t", CsbVariant.PLAIN, 2, keys(16 * 7, 10), null);
        assertEquals(7, t.leafPool.highWater());
        t.put(1, 1); // group of 8 at 7..14, 0..6 freed
        assertEquals(15, t.leafPool.highWater());
        t.put(160 + 1, 1); // group of 9 at 15..23 (the free 7 is too small); 7..14 freed, merged with 0..6
        assertEquals(24, t.leafPool.highWater());
        int[] free = t.leafPool.freeGroups();
        assertEquals(List.of(0, 15), List.of(free[0], free[1]));
        t.checkInvariants();
        t.put(320 + 1, 1); // group of 10 cut from 0..14; 15..23 freed, merged with 10..14, ends the ids
        assertEquals(10, t.leafPool.highWater(), "the high-water mark came down");
        assertEquals(0, t.leafPool.freeGroups().length);
        assertEquals(10, t.leafPool.used());
        t.checkInvariants();
    }

    @Test
    void theSegmentedTreeCopiesOnlyTheSegmentThatGrows() {
        CsbTree t = CsbTree.bulkLoad("t", CsbVariant.SEGMENTED, 1, keys(8 * 4, 10), null); // 4 leaves: 2 + 2
        assertEquals(1, t.height);
        long seg0 = t.innerMeta(t.root, 0);
        long seg1 = t.innerMeta(t.root, 1);
        assertEquals(2, CsbTree.count(seg0));
        assertEquals(2, CsbTree.count(seg1));
        t.put(8 * 4 * 10 + 1, 1); // into the last leaf: only the second segment moves
        assertEquals(seg0, t.innerMeta(t.root, 0));
        assertEquals(3, CsbTree.count(t.innerMeta(t.root, 1)));
        t.checkInvariants();
    }

    @ParameterizedTest
    @EnumSource(CsbVariant.class)
    void deletionEmptiesTheTreeToOneLeafAndTheTreeGrowsAgain(CsbVariant v) {
        long[] k = keys(5000, 2);
        CsbTree t = CsbTree.bulkLoad("t", v, 2, k, k);
        int height = t.height;
        long leaves = t.leafPool.used();
        for (int i = 0; i < k.length; i += 2) {
            assertEquals(k[i], t.remove(k[i]));
        }
        t.checkInvariants();
        assertEquals(height, t.height, "no leaf emptied yet: nothing merges");
        assertEquals(leaves, t.leafPool.used());
        for (int i = 1; i < k.length; i += 2) {
            assertEquals(k[i], t.remove(k[i]));
        }
        assertEquals(0, t.size());
        assertEquals(0, t.height, "emptied leaves go, and the root with one child is replaced");
        assertEquals(1, t.leafPool.used(), "one empty leaf is left");
        assertEquals(0, t.innerPool.used());
        t.checkInvariants();
        assertEquals(-1, t.ceilingKey(0, -1));
        assertEquals(-1, t.floorKey(Long.MAX_VALUE, -1));
        assertTrue(!t.cursor().seekFirst());
        // regrow from the one leaf left
        TreeMap<Long, Long> model = new TreeMap<>();
        for (long x = 3; x < 30_000; x += 3) {
            t.put(x, x);
            model.put(x, x);
        }
        sameAs(model, t);
        assertEquals(3, t.ceilingKey(-5, -1));
        assertEquals(9, t.higherKey(6, -1));
        assertEquals(6, t.lowerKey(9, -1));
    }

    @Test
    void badArgumentsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> Indexes.csbTree(CsbVariant.PLAIN, 3));
        assertThrows(IllegalArgumentException.class, () -> Indexes.csbTree(CsbVariant.FULL, 8, new long[] {1}, null));
        assertThrows(NullPointerException.class, () -> Indexes.csbTree(null));
        assertThrows(IllegalArgumentException.class,
                () -> Indexes.csbTree(CsbVariant.SEGMENTED, new long[] {2, 1}, null));
        assertThrows(IllegalArgumentException.class,
                () -> Indexes.csbTree(CsbVariant.PLAIN, new long[] {1, 2}, new long[] {1}));
    }

    @ParameterizedTest
    @EnumSource(CsbVariant.class)
    void theUnrolledSearchAgreesWithTheRank(CsbVariant v) {
        SplittableRandom r = new SplittableRandom(5);
        for (int lines : new int[] {1, 2, 4}) {
            CsbTree t = new CsbTree("t", v, lines);
            int s = t.width;
            long[] a = new long[s + 6];
            for (int trial = 0; trial < 5000; trial++) {
                int n = r.nextInt(t.keySlots + 1);
                long k = r.nextLong(-100, 100);
                for (int i = 0; i < s; i++) {
                    a[3 + i] = i >= t.keySlots ? r.nextLong() : i < n ? (k += 1 + r.nextInt(4)) : Long.MAX_VALUE;
                }
                long key = r.nextLong(-120, 250);
                int expected = 0;
                for (int i = 0; i < t.keySlots; i++) {
                    expected += a[3 + i] < key ? 1 : 0;
                }
                assertEquals(expected, t.rankUnrolled(a, 3, key), v + " lines " + lines);
            }
        }
    }
}
