package org.bforest.bminus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.bforest.Indexes;
import org.bforest.LongCursor;
import org.bforest.LongIndex;
import org.bforest.contract.IndexAssertions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * What the conformance kit cannot see of the B&minus; tree: the shapes its bulk load, splits and
 * lazy deletion produce at each node size, the walk between leaves, and the node sizes the kit
 * does not run (it runs {@code bminus}, B = 32) against TreeMap. Every test runs both ways between
 * leaves: with sibling links (what the factories build, and the kit runs) and without (the next
 * leaf found through the ancestors), which only these tests run, at every node size.
 */
class BMinusTreeTest {

    private static long[] keys(int n, long step) {
        long[] k = new long[n];
        for (int i = 0; i < n; i++) {
            k[i] = i * step;
        }
        return k;
    }

    @ParameterizedTest
    @CsvSource({"16, true", "32, true", "64, true", "16, false", "32, false", "64, false"})
    void bulkLoadFillsLeavesThreeQuartersAndEvenly(int b, boolean links) {
        int per = (int) Math.round(0.75 * (b - 1));
        BMinusTree t = BMinusTree.bulkLoad("t", b, keys(per * 1000, 3), null, 0.75, links);
        assertEquals(1000, t.leafIds.inUse());
        for (int leaf = t.firstLeaf(); leaf != BMinusTree.NONE; leaf = t.leafNext(leaf)) {
            assertEquals(per, t.leafCount(leaf));
        }
        BMinusTree odd = BMinusTree.bulkLoad("t", b, keys(per * 5 + 1, 1), null, 0.75, links);
        int min = Integer.MAX_VALUE;
        for (int leaf = odd.firstLeaf(); leaf != BMinusTree.NONE; leaf = odd.leafNext(leaf)) {
            min = Math.min(min, odd.leafCount(leaf));
        }
        assertTrue(min >= (per * 5 + 1) / 6, "spread evenly, no nearly empty last leaf: " + min);
        t.checkInvariants();
        odd.checkInvariants();
        BMinusTree full = BMinusTree.bulkLoad("t", b, keys((b - 1) * 700, 1), null, 1.0, links);
        assertEquals(700, full.leafIds.inUse(), "full leaves hold B-1 keys");
        full.checkInvariants();
        for (long k = 0; k < (b - 1) * 700L; k += 7) { // every insert into a full leaf splits it
            full.put(k * 2 + 100_000_000L, k);
        }
        full.checkInvariants();
    }

    @ParameterizedTest
    @CsvSource({"16, true", "32, true", "64, true", "16, false", "32, false", "64, false"})
    void aLeafSplitsInHalvesWhenItReachesBKeysAndEveryLevelSplits(int b, boolean links) {
        BMinusTree t = new BMinusTree("t", b, 0.75, links);
        for (int i = 0; i < b - 1; i++) {
            t.put(i * 10L, i);
        }
        assertEquals(0, t.height, "B-1 keys fit in the root leaf");
        t.put(5, -1); // the B-th key uses the spare slot, then the leaf splits
        assertEquals(1, t.height);
        assertEquals(b / 2, t.leafCount(t.firstLeaf()));
        assertEquals(b / 2, t.leafCount(t.lastLeaf()));
        assertEquals(10L * (b / 2 - 2), t.innerKey(t.root, 0), "the left half's largest key goes up");
        t.checkInvariants();
        for (long k = 1000; k < 100_000; k++) { // ascending: every level splits on the way
            t.put(k, k);
        }
        assertTrue(t.height >= (b == 64 ? 2 : 3), "height " + t.height);
        t.checkInvariants();
        for (long k = 1_000_000; k > 900_000; k--) { // descending too
            t.put(k, k);
        }
        t.checkInvariants();
        assertEquals(-1, t.get(5, 99));
        assertEquals(99, t.get(6, 99));
    }

    @ParameterizedTest
    @CsvSource({"16, true", "32, true", "64, true", "16, false", "32, false", "64, false"})
    void lazyDeletionFreesEmptiedNodesAndCollapsesTheRoot(int b, boolean links) {
        BMinusTree t = BMinusTree.bulkLoad("t", b, keys(50_000, 2), null, 1.0, links);
        int height = t.height;
        SplittableRandom r = new SplittableRandom(5);
        long[] order = keys(50_000, 2);
        for (int i = order.length - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            long x = order[i];
            order[i] = order[j];
            order[j] = x;
        }
        for (int i = 0; i < order.length; i++) {
            assertTrue(t.delete(order[i]));
            if (i % 5000 == 0) {
                t.checkInvariants();
            }
        }
        assertEquals(0, t.size());
        assertEquals(0, t.height, "the root collapsed from height " + height);
        assertEquals(1, t.leafIds.inUse());
        assertEquals(0, t.innerIds.inUse());
        t.checkInvariants();
        for (long k = 0; k < 10_000; k++) { // freed ids are reused
            t.put(k, k);
        }
        t.checkInvariants();
        assertTrue(t.leafIds.count() <= 50_000 / (b - 1) + 2, "leaf ids reused: " + t.leafIds.count());
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void separatorsOfDeletedKeysStillRouteAndTheWalkBetweenLeavesSkipsNothing(boolean links) {
        // Delete the largest key of every leaf: the parents keep separators that are no longer
        // keys, which must still route lookups, inserts and the leaf-to-leaf walk (with or
        // without links) correctly.
        BMinusTree t = BMinusTree.bulkLoad("t", 16, keys(20_000, 5), null, 1.0, links);
        TreeMap<Long, Long> model = new TreeMap<>();
        for (long k = 0; k < 20_000 * 5L; k += 5) {
            model.put(k, 0L);
        }
        for (int leaf = t.firstLeaf(); leaf != BMinusTree.NONE;) {
            int next = t.leafNext(leaf);
            long last = t.leafKey(leaf, t.leafCount(leaf) - 1);
            t.remove(last);
            model.remove(last);
            leaf = next;
        }
        t.checkInvariants();
        for (long k = 1; k < 20_000 * 5L; k += 10) {
            t.put(k, k);
            model.put(k, k);
        }
        t.checkInvariants();
        LongIndex ix = t;
        long[] seen = new long[model.size()];
        int[] n = {0};
        ix.forEach((k, v) -> seen[n[0]++] = k);
        assertEquals(model.size(), n[0]);
        int i = 0;
        for (long k : model.keySet()) {
            assertEquals(k, seen[i++]);
        }
        for (long k = -3; k < 20_000 * 5L + 3; k += 3) {
            Long c = model.ceilingKey(k);
            assertEquals(c == null ? -42 : c, ix.ceilingKey(k, -42), "ceiling of " + k);
            Long f = model.floorKey(k);
            assertEquals(f == null ? -42 : f, ix.floorKey(k, -42), "floor of " + k);
        }
    }

    /**
     * The kit runs the default node size (32) with links; the other two sizes, and all three
     * without links, get a seeded differential run against TreeMap here: the same code with other
     * constants, so a shorter run suffices. Besides the updates and lookups it walks the leaves
     * both ways: neighbours, cursors, range counts and visits.
     */
    @ParameterizedTest
    @CsvSource({"16, true", "64, true", "16, false", "32, false", "64, false"})
    void otherNodeSizesAndTheWayWithoutLinksAgreeWithTreeMap(int b, boolean links) {
        long seed = 0x5eed0000L + b;
        SplittableRandom r = new SplittableRandom(seed);
        LongIndex t = r.nextBoolean() ? BMinusTrees.empty(b, links)
                : BMinusTrees.bulkLoad(keys(3000, 7), null, b, links);
        assertTrue(t.toString().contains("links=" + links), t.toString());
        TreeMap<Long, Long> model = new TreeMap<>();
        if (t.size() > 0) {
            for (long k : keys(3000, 7)) {
                model.put(k, 0L);
            }
        }
        for (int i = 0; i < 300_000; i++) {
            long k = r.nextInt(8) == 0 ? (r.nextBoolean() ? Long.MIN_VALUE + r.nextInt(3) : Long.MAX_VALUE - r.nextInt(3))
                    : r.nextLong(-20_000, 40_000);
            String at = "op " + i + ", key " + k + ", node size " + b + ", links " + links + ", seed " + seed;
            switch (r.nextInt(11)) {
                case 0, 1, 2, 3 -> {
                    Long prev = model.put(k, (long) i);
                    assertEquals(prev == null ? t.defaultReturnValue() : prev, t.put(k, i), at);
                }
                case 4, 5, 6 -> {
                    Long prev = model.remove(k);
                    assertEquals(prev == null ? t.defaultReturnValue() : prev, t.remove(k), at);
                }
                case 7 -> assertEquals(model.getOrDefault(k, -7L), t.get(k, -7), at);
                case 8 -> {
                    Long c = model.ceilingKey(k);
                    assertEquals(c == null ? -7 : c, t.ceilingKey(k, -7), at);
                    Long f = model.lowerKey(k);
                    assertEquals(f == null ? -7 : f, t.lowerKey(k, -7), at);
                }
                case 9 -> cursorWalk(t, model, k, r.nextInt(40), at);
                default -> {
                    long to = k > Long.MAX_VALUE - 2000 ? Long.MAX_VALUE : k + r.nextInt(2000);
                    assertEquals(model.subMap(k, true, to, false).size(), t.rangeCount(k, to), at);
                    if ((i & 7) == 0) {
                        long[] sum = {0, 0};
                        long visited = t.rangeVisit(k, true, to, true, (key, v) -> {
                            sum[0] += key;
                            sum[1] += v;
                            return true;
                        });
                        Map<Long, Long> sub = model.subMap(k, true, to, true);
                        assertEquals(sub.size(), visited, at);
                        assertEquals(sub.keySet().stream().mapToLong(Long::longValue).sum(), sum[0], at);
                        assertEquals(sub.values().stream().mapToLong(Long::longValue).sum(), sum[1], at);
                    }
                }
            }
            assertEquals(model.size(), t.size(), at);
            if (i % 50_000 == 0) {
                IndexAssertions.checkInvariants(t);
            }
        }
        IndexAssertions.checkInvariants(t);
    }

    /** A cursor from the ceiling of {@code k}: {@code steps} forward, then as many back, as the model's. */
    private static void cursorWalk(LongIndex t, TreeMap<Long, Long> model, long k, int steps, String at) {
        LongCursor c = t.cursor();
        Map.Entry<Long, Long> e = model.ceilingEntry(k);
        assertEquals(e != null, c.seekCeiling(k), at);
        int forward = 0;
        for (; e != null && forward < steps; forward++) {
            assertEquals(e.getKey(), c.key(), at);
            assertEquals(e.getValue(), c.value(), at);
            e = model.higherEntry(e.getKey());
            assertEquals(e != null, c.next(), at);
        }
        if (e == null) {
            assertFalse(c.isValid(), at);
            return;
        }
        for (int back = 0; back < forward; back++) {
            e = model.lowerEntry(e.getKey());
            assertNotNull(e, at);
            assertTrue(c.previous(), at);
            assertEquals(e.getKey(), c.key(), at);
        }
    }

    @Test
    void theFactoriesBuildWithLinksAndTheOtherWayKeepsNone() {
        assertTrue(Indexes.bMinusTree().toString().contains("links=true"));
        assertTrue(Indexes.bMinusTree(new long[] {1, 2, 3}, null, 16).toString().contains("links=true"));
        BMinusTree without = BMinusTree.bulkLoad("t", 16, keys(1000, 1), null, 1.0, false);
        assertNull(without.leafLinks);
        BMinusTree with = BMinusTree.bulkLoad("t", 16, keys(1000, 1), null, 1.0, true);
        assertNotNull(with.leafLinks);
        assertTrue(without.memoryBytes() < with.memoryBytes(), "no link storage without links");
        assertThrows(UnsupportedOperationException.class, () -> without.setLeafNext(0, 1));
    }

    @Test
    void nodeSizeIsSixteenThirtyTwoOrSixtyFour() {
        assertThrows(IllegalArgumentException.class, () -> Indexes.bMinusTree(8));
        assertThrows(IllegalArgumentException.class, () -> Indexes.bMinusTree(new long[] {1, 2}, null, 48));
        assertTrue(Indexes.bMinusTree(64).toString().contains("B=64"));
        assertTrue(Indexes.bMinusTree().toString().contains("B=32"));
    }

    /** Keys in each leaf, in key order (through the links or the ancestors). */
    private static List<Integer> leafCounts(BMinusTree t) {
        List<Integer> counts = new ArrayList<>();
        for (int leaf = t.firstLeaf(); leaf != BMinusTree.NONE; leaf = t.leafNext(leaf)) {
            counts.add(t.leafCount(leaf));
        }
        return counts;
    }

    /** Children of each inner node, a list per level below the root, nodes in key order. */
    private static List<List<Integer>> innerChildren(BMinusTree t) {
        List<List<Integer>> levels = new ArrayList<>();
        List<Integer> level = List.of(t.root);
        for (int h = t.height; h > 0; h--) {
            List<Integer> counts = new ArrayList<>();
            List<Integer> below = new ArrayList<>();
            for (int node : level) {
                int n = t.innerCount(node);
                counts.add(n + 1);
                for (int i = 0; i <= n; i++) {
                    below.add(t.innerKid(node, i));
                }
            }
            if (h < t.height) {
                levels.add(counts);
            }
            level = below;
        }
        return levels;
    }

    /** Every count but the one where the run goes on ({@code skipLast}: the last, else the first) is {@code full}. */
    private static void assertAllFull(List<Integer> counts, int full, boolean skipLast, String what) {
        int skip = skipLast ? counts.size() - 1 : 0;
        for (int i = 0; i < counts.size(); i++) {
            if (i != skip) {
                assertEquals(full, counts.get(i), what + " " + i + " of " + counts.size() + ": " + counts);
            }
        }
    }

    @ParameterizedTest
    @CsvSource({"16, true", "32, true", "64, true", "16, false", "32, false", "64, false"})
    void runsAtTheEdgesLeaveFullLeavesAndInnerNodes(int b, boolean links) {
        for (boolean ascending : new boolean[] {true, false}) {
            BMinusTree t = new BMinusTree("t", b, 1.0, links);
            int n = (b - 1) * (b - 2) * (b - 2) * (b == 64 ? 1 : 3) + 5;
            for (int i = 0; i < n; i++) {
                t.put(ascending ? 7L * i : -7L * i, i);
            }
            t.checkInvariants();
            String at = "B=" + b + ", links " + links + (ascending ? ", ascending" : ", descending");
            assertEquals((n + b - 2) / (b - 1), t.leafIds.inUse(), at + ": B-1 keys a leaf");
            List<Integer> counts = leafCounts(t);
            assertAllFull(counts, b - 1, ascending, at + ": leaf");
            assertEquals(5, counts.get(ascending ? counts.size() - 1 : 0), at);
            List<List<Integer>> levels = innerChildren(t);
            assertTrue(levels.size() >= 1, at + ": " + t);
            for (List<Integer> level : levels) {
                assertAllFull(level, b - 2, ascending, at + ": inner node"); // B-2 of at most B-1 children
            }
            assertEquals(n - 1, t.get(7L * (n - 1) * (ascending ? 1 : -1), -1), at);
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void insideTheTreeAKeyAtTheEndOfAFullLeafStillSplitsItInHalves(boolean links) {
        BMinusTree t = BMinusTree.bulkLoad("t", 16, keys(30, 2), null, 1.0, links); // two leaves of 15
        assertEquals(List.of(15, 15), leafCounts(t));
        t.delete(28); // the first leaf's largest key; its separator stays 28
        t.put(1, 1); // full again
        t.put(27, 1); // at the end of the first leaf (below its separator), which is not the last: halves
        assertEquals(List.of(8, 8, 15), leafCounts(t));
        t.put(31, 1); // in the last leaf, not at its end
        assertEquals(List.of(8, 8, 8, 8), leafCounts(t));
        t.checkInvariants();
    }

    /**
     * Random inserts fill leaves as the even split always did (this seed at B = 32: 0.6986
     * before the edge splits, 0.6982 with them, a random key above all others being an append).
     */
    @Test
    void randomInsertsKeepTheirFill() {
        BMinusTree t = new BMinusTree("t", 32, 1.0);
        SplittableRandom rnd = new SplittableRandom(11);
        for (int i = 0; i < 200_000; i++) {
            t.put(rnd.nextLong(), i);
        }
        double fill = t.size() / (31.0 * t.leafIds.inUse());
        assertTrue(fill > 0.68 && fill < 0.72, "fill " + fill);
    }

    /** Ascending and descending runs, then random inserts and deletes, against a TreeMap. */
    @ParameterizedTest
    @CsvSource({"16, true", "32, true", "64, true", "16, false", "32, false", "64, false"})
    void runsThenRandomInsertsThenDeletesKeepTheInvariants(int b, boolean links) {
        for (long seed = 1; seed <= 3; seed++) {
            BMinusTree t = new BMinusTree("t", b, 1.0, links);
            TreeMap<Long, Long> model = new TreeMap<>();
            SplittableRandom rnd = new SplittableRandom(seed);
            long step = seed == 1 ? 1 : seed == 2 ? 5_000 : 1L << 36;
            String at = "B=" + b + ", links " + links + ", seed " + seed;
            for (int i = 0; i < 3_000; i++) {
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
            for (int i = 0; i < 2_000; i++) {
                put(t, model, step * 3_000 + 3 * i, i, at);
            }
            for (long k : model.keySet().toArray(new Long[0])) {
                if (rnd.nextInt(4) != 0) {
                    assertEquals(model.remove(k) != null, t.delete(k), at);
                }
            }
            IndexAssertions.assertMatches(t, model, at + " after deletes");
            for (long k : model.keySet().toArray(new Long[0])) {
                assertTrue(t.delete(k), at);
            }
            IndexAssertions.assertMatches(t, new TreeMap<>(), at + " emptied");
            assertEquals(0, t.height, at);
        }
    }

    private static void put(BMinusTree t, TreeMap<Long, Long> model, long k, long v, String at) {
        assertEquals(model.put(k, v) == null, t.upsert(k, v), at + " put " + k);
    }
}
