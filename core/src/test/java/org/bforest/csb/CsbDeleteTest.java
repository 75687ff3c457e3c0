package org.bforest.csb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.bforest.CsbVariant;
import org.bforest.LongCursor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The CSB+-trees' reclaiming delete ({@link CsbDeleter}), for each variant at each node size: a
 * window slid over ascending keys and a queue drained from the front keep the tree as small as
 * its size, deletes down to one leaf shrink the root and the tree grows back, random inserts and
 * deletes match {@link TreeMap}, and the group moves per variant (plain: the group shrinks, an id
 * freed; segmented: the segment; full: a shift inside the block). The checker runs throughout; it
 * fails on an empty leaf other than a lone root leaf, an inner root with one child, and pool
 * counts that do not add up.
 */
class CsbDeleteTest {
    private static final long MIN = Long.MIN_VALUE;
    private static final long MAX = Long.MAX_VALUE;

    static Stream<Arguments> variantsAndLines() {
        List<Arguments> out = new ArrayList<>();
        for (CsbVariant v : CsbVariant.values()) {
            for (int lines : new int[] {1, 2, 4}) {
                out.add(Arguments.of(v, lines));
            }
        }
        return out.stream();
    }

    /** A tree made by inserting {@code n} ascending keys: what a tree of that size costs. */
    private static CsbTree grown(CsbVariant v, int lines, int n) {
        CsbTree t = new CsbTree("ref", v, lines);
        for (int i = 0; i < n; i++) {
            t.put(i, i);
        }
        return t;
    }

    private static void sameAs(TreeMap<Long, Long> model, CsbTree t, String what) {
        try {
            t.checkInvariants();
        } catch (IllegalStateException e) {
            throw new AssertionError(what + ": " + e.getMessage(), e);
        }
        assertEquals(model.size(), t.size(), what);
        LongCursor c = t.cursor();
        boolean on = c.seekFirst();
        for (Map.Entry<Long, Long> e : model.entrySet()) {
            assertTrue(on, what + ": cursor ended early");
            assertEquals(e.getKey(), c.key(), what);
            assertEquals(e.getValue(), c.value(), what);
            on = c.next();
        }
        assertTrue(!on, what + ": cursor runs past the model");
        if (!model.isEmpty()) {
            assertEquals(model.firstKey(), t.firstKey(), what);
            assertEquals(model.lastKey(), t.lastKey(), what);
        }
    }

    /** Leaves in the chain, each checked to hold a key unless it is a lone root leaf. */
    private static int nonEmptyLeaves(CsbTree t) {
        int n = 0;
        for (int leaf = t.firstLeaf(); leaf != CsbTree.NONE; leaf = t.leafNext(leaf)) {
            assertTrue(t.leafCount(leaf) > 0 || t.height == 0, "an empty leaf in the chain");
            n++;
        }
        return n;
    }

    @ParameterizedTest
    @MethodSource("variantsAndLines")
    void aSlidingWindowKeepsTheTreeTheSizeOfItsKeys(CsbVariant v, int lines) {
        int window = 1000;
        int steps = 200_000;
        CsbTree t = new CsbTree("t", v, lines);
        TreeMap<Long, Long> model = new TreeMap<>();
        t.put(MIN, -1); // the extremes stay below and above the window throughout
        t.put(MAX, -2);
        model.put(MIN, -1L);
        model.put(MAX, -2L);
        long base = MIN + 1;
        CsbTree ref = grown(v, lines, window + 1);
        long refBytes = ref.memoryBytes();
        long maxBytes = 0;
        for (int i = 0; i < steps; i++) {
            t.put(base + i, i);
            model.put(base + i, (long) i);
            if (i >= window) {
                assertEquals(i - window, t.remove(base + i - window));
                model.remove(base + i - window);
            }
            maxBytes = Math.max(maxBytes, t.memoryBytes());
            if (i % 5000 == 4999) {
                t.checkInvariants();
                assertEquals(window + 2, t.size());
                assertEquals(base + i - window + 1, t.higherKey(MIN, 0));
                assertEquals(base + i, t.lowerKey(MAX, 0));
                assertEquals(base + i - window + 1, t.ceilingKey(base, 0));
            }
        }
        sameAs(model, t, v + " lines " + lines);
        assertEquals(MIN, t.firstKey());
        assertEquals(MAX, t.lastKey());
        // bounded: the tree of 1,000 keys costs what one grown to 1,000 keys does, give or take
        // (measured: at most 1.2 times, at every node size and variant)
        assertTrue(maxBytes <= 2 * refBytes, "memory " + maxBytes + " against " + refBytes + " for a tree of "
                + window + " keys: " + t);
        int leaves = nonEmptyLeaves(t); // every leaf holds a key
        assertTrue(leaves <= 2 * nonEmptyLeaves(ref), t + " against " + ref);
        // the ascending ref has full leaves in full blocks; a full tree's window may straddle two
        // blocks besides the first leaf's (Long.MIN_VALUE's), a block of S ids each
        int blocks = v == CsbVariant.FULL ? 2 * t.width : 0;
        assertTrue(t.leafPool.used() <= 2 * ref.leafPool.used() + blocks, t + " against " + ref);
        // and the window one level taller than the ref (the root alone) has a block of inner ids
        assertTrue(t.innerPool.used() <= 2 * ref.innerPool.used() + 2 + blocks / 2, t + " against " + ref);
        assertTrue(t.height <= ref.height + 1, t + " against " + ref);
        // the window's first key is in the first leaf, after Long.MIN_VALUE, or the second
        int first = t.firstLeaf();
        long k = t.leafCount(first) > 1 ? t.leafKey(first, 1) : t.leafKey(t.leafNext(first), 0);
        assertEquals(base + steps - window, k);
    }

    @ParameterizedTest
    @MethodSource("variantsAndLines")
    void aDrainedQueueGivesItsMemoryBack(CsbVariant v, int lines) {
        int n = 50_000;
        long emptyBytes = new CsbTree("empty", v, lines).memoryBytes();
        long firstFill = 0;
        CsbTree t = new CsbTree("t", v, lines);
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < n; i++) {
                t.put(i * 3L, i);
            }
            long filled = t.memoryBytes();
            if (round == 0) {
                firstFill = filled;
            }
            assertTrue(filled <= firstFill + firstFill / 4, "round " + round + ": " + filled + " after refill, "
                    + firstFill + " after the first fill");
            t.checkInvariants();
            int taken = 0;
            while (t.size() > 0) {
                long first = t.firstKey();
                assertEquals(taken * 3L, first);
                assertEquals(taken, t.remove(first));
                taken++;
                if (taken % 4999 == 0) {
                    t.checkInvariants();
                    assertEquals(n - taken, t.size());
                }
            }
            assertEquals(n, taken);
            t.checkInvariants();
            assertEquals(0, t.height);
            assertThrows(NoSuchElementException.class, t::firstKey);
            assertEquals(emptyBytes, t.memoryBytes(), "round " + round + ": memory back to an empty tree's");
        }
    }

    @ParameterizedTest
    @MethodSource("variantsAndLines")
    void deletesDownToEmptyThenRefill(CsbVariant v, int lines) {
        int s = 8 * lines;
        long[] k = new long[s * 400];
        for (int i = 0; i < k.length; i++) {
            k[i] = MIN + 1 + 2L * i;
        }
        CsbTree t = CsbTree.bulkLoad("t", v, lines, k, k);
        t.put(MAX, 7);
        assertTrue(t.height >= 2, "height " + t.height);
        SplittableRandom r = new SplittableRandom(lines * 101L + v.ordinal());
        long[] order = k.clone();
        for (int i = order.length - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            long x = order[i];
            order[i] = order[j];
            order[j] = x;
        }
        TreeMap<Long, Long> model = new TreeMap<>();
        for (long x : k) {
            model.put(x, x);
        }
        model.put(MAX, 7L);
        int lastHeight = t.height;
        for (int i = 0; i < order.length; i++) {
            assertEquals(order[i], t.remove(order[i]));
            model.remove(order[i]);
            if (t.height != lastHeight || i % 500 == 0) {
                assertTrue(t.height <= lastHeight, "the height only drops");
                lastHeight = t.height;
                sameAs(model, t, v + " lines " + lines + " after " + (i + 1) + " deletes");
            }
        }
        assertEquals(1, t.size()); // Long.MAX_VALUE, out of band
        assertEquals(0, t.height);
        assertEquals(1, t.leafPool.used());
        assertEquals(0, t.innerPool.used());
        assertEquals(MAX, t.firstKey());
        assertEquals(MAX, t.ceilingKey(MIN, 0));
        assertEquals(-1, t.lowerKey(MAX, -1));
        assertEquals(7, t.remove(MAX));
        assertEquals(0, t.size());
        t.checkInvariants();
        assertTrue(!t.cursor().seekFirst());
        assertEquals(new CsbTree("empty", v, lines).memoryBytes(), t.memoryBytes());
        model.clear();
        for (long x = MIN; x < MIN + 30_000; x += 3) {
            t.put(x, x);
            model.put(x, x);
        }
        sameAs(model, t, "refilled");
        assertEquals(MIN, t.ceilingKey(MIN, -1));
        assertEquals(MIN + 3, t.higherKey(MIN, -1));
    }

    @ParameterizedTest
    @MethodSource("variantsAndLines")
    void randomInsertsAndDeletesMatchTreeMap(CsbVariant v, int lines) {
        long seed = System.nanoTime() ^ (lines * 1_000_003L + v.ordinal());
        try {
            randomMix(new CsbTree("t", v, lines), seed);
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError(v + " lines " + lines + ", seed " + seed + ": " + e.getMessage(), e);
        }
        // and a fixed seed, so that one run is always the same
        randomMix(new CsbTree("t", v, lines), 12345 + lines);
    }

    /**
     * Inserts and deletes in phases (mostly inserts, then mostly deletes) over a small key range
     * with the extremes in it, so that leaves and whole subtrees empty and fill again.
     */
    private static void randomMix(CsbTree t, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        TreeMap<Long, Long> model = new TreeMap<>();
        long[] extremes = {MIN, MIN + 1, MAX - 1, MAX};
        for (int phase = 0; phase < 8; phase++) {
            int insertPercent = phase % 2 == 0 ? 75 : 20;
            int ops = 6000 + r.nextInt(6000);
            for (int i = 0; i < ops; i++) {
                long k = r.nextInt(50) == 0 ? extremes[r.nextInt(4)] : r.nextLong(-20_000, 20_000);
                int op = r.nextInt(100);
                if (op < insertPercent) {
                    long val = r.nextLong();
                    Long previous = model.put(k, val);
                    assertEquals(previous == null ? 0L : previous, t.put(k, val), "put " + k);
                } else if (op < 95) {
                    Long previous = model.remove(k);
                    assertEquals(previous == null ? 0L : previous, t.remove(k), "remove " + k);
                } else {
                    Map.Entry<Long, Long> e = model.ceilingEntry(k);
                    assertEquals(e == null ? -1 : e.getKey(), t.ceilingKey(k, -1), "ceiling " + k);
                    Map.Entry<Long, Long> f = model.floorEntry(k);
                    assertEquals(f == null ? -1 : f.getKey(), t.floorKey(k, -1), "floor " + k);
                }
                if (i % 1500 == 0) {
                    sameAs(model, t, "phase " + phase + " op " + i);
                }
            }
            sameAs(model, t, "end of phase " + phase);
        }
        for (Long k : new ArrayList<>(model.keySet())) { // and down to empty
            assertEquals(model.remove(k), t.remove(k));
        }
        sameAs(model, t, "emptied");
        assertEquals(0, t.height);
    }

    @ParameterizedTest
    @MethodSource("variantsAndLines")
    void theRootShrinksToALeafAndGrowsBack(CsbVariant v, int lines) {
        CsbTree t = new CsbTree("t", v, lines);
        TreeMap<Long, Long> model = new TreeMap<>();
        int n = 6000 * lines;
        for (int i = 0; i < n; i++) {
            t.put(i * 2L, i);
            model.put(i * 2L, (long) i);
        }
        int top = t.height;
        assertTrue(top >= 2, "height " + top);
        // delete from both ends toward the middle, the root losing children at both sides, down
        // to one key: two leaves in the root's two subtrees keep the height (nothing merges), one
        // leaf under a path of single children is the root
        List<Integer> heights = new ArrayList<>();
        heights.add(top);
        for (int lo = 0, hi = n - 1; model.size() > 1; ) {
            long k = (model.size() % 2 == 0 ? lo++ : hi--) * 2L;
            t.remove(k);
            model.remove(k);
            if (t.height != heights.get(heights.size() - 1)) {
                heights.add(t.height);
                sameAs(model, t, "height " + t.height);
                if (t.height > 0) {
                    assertTrue(t.innerChildren(t.root) >= 2, "an inner root with one child");
                }
            }
        }
        assertEquals(0, t.height, "heights " + heights);
        for (int i = 1; i < heights.size(); i++) {
            assertTrue(heights.get(i) < heights.get(i - 1), "the height only drops: " + heights);
        }
        assertEquals(1, t.leafPool.used());
        assertEquals(0, t.innerPool.used());
        sameAs(model, t, "one leaf");
        for (int i = 0; i < n; i++) { // back up, from below and above the leaf left
            long k = (i % 2 == 0 ? -i : n + i) * 2L;
            t.put(k, i);
            model.put(k, (long) i);
        }
        assertTrue(t.height >= 2);
        sameAs(model, t, "grown back");
    }

    @Test
    void thePlainTreesGroupShrinksFromItsShorterSide() {
        // one line: leaves of 8; 7 leaves under the root, ids 0..6
        CsbTree t = CsbTree.bulkLoad("t", CsbVariant.PLAIN, 1, keys(8 * 7, 10), null);
        assertEquals(7, t.leafPool.highWater());
        emptyLeaf(t, 5); // child 5: the one right of it moves left, id 6 is freed
        long m = t.innerMeta(t.root, 0);
        assertEquals(List.of(0, 6), List.of(CsbTree.first(m), CsbTree.count(m)));
        assertEquals(6, t.leafPool.highWater(), "the freed last id lowers the high-water mark");
        assertEquals(480, t.leafKey(5, 0), "the last leaf moved to id 5");
        assertEquals(List.of(70L, 150L, 230L, 310L, 390L), rootKeys(t), "child 5's bound went");
        t.checkInvariants();
        emptyLeaf(t, 1); // child 1: the one left of it moves right, id 0 is freed
        m = t.innerMeta(t.root, 0);
        assertEquals(List.of(1, 5), List.of(CsbTree.first(m), CsbTree.count(m)));
        assertEquals(List.of(0, 1), List.of(t.leafPool.freeGroups()[0], t.leafPool.freeGroups()[1]));
        assertEquals(0, t.leafKey(1, 0), "the first leaf moved to id 1");
        assertEquals(List.of(70L, 230L, 310L, 390L), rootKeys(t), "child 1's bound went");
        t.checkInvariants();
        emptyLeaf(t, 4); // the last child: its left neighbour's range reaches the root's bound
        assertEquals(4, t.innerChildren(t.root));
        assertEquals(List.of(70L, 230L, 310L), rootKeys(t), "the last child goes with the key before it");
        assertEquals(0, t.get(390, -1));
        assertEquals(-1, t.get(470, -1));
        t.put(10_000, 1); // into the last leaf, whose range now reaches the top
        assertEquals(1, t.get(10_000, -1));
        t.checkInvariants();
    }

    @Test
    void theFullTreeShiftsInsideItsBlockAndFreesItWhenEmpty() {
        CsbTree t = CsbTree.bulkLoad("t", CsbVariant.FULL, 1, keys(8 * 7, 10), null); // a block of 8 ids
        int hw = t.leafPool.highWater();
        emptyLeaf(t, 1); // the one node left of child 1 moves right: offset 1
        long m = t.innerMeta(t.root, 0);
        assertEquals(List.of(1, 1, 6), List.of(CsbTree.first(m), CsbTree.offset(m), CsbTree.count(m)));
        emptyLeaf(t, 4); // right of child 4: one node moves left; the offset stays
        m = t.innerMeta(t.root, 0);
        assertEquals(List.of(1, 1, 5), List.of(CsbTree.first(m), CsbTree.offset(m), CsbTree.count(m)));
        assertEquals(hw, t.leafPool.highWater(), "the block stays whole");
        assertEquals(8, t.leafPool.used());
        t.checkInvariants();
        while (t.height > 0) {
            emptyLeaf(t, 0);
            t.checkInvariants();
        }
        // the last leaf became the root: moved to its block's first id, the rest of the block freed
        assertEquals(0, t.root);
        assertEquals(1, t.leafPool.used());
        assertEquals(1, t.leafPool.highWater());
        assertEquals(0, t.innerPool.used());
    }

    @Test
    void theSegmentedTreeFreesAnEmptiedSegment() {
        CsbTree t = CsbTree.bulkLoad("t", CsbVariant.SEGMENTED, 1, keys(8 * 4, 10), null); // 4 leaves: 2 + 2
        long seg1 = t.innerMeta(t.root, 1);
        emptyLeaf(t, 0);
        assertEquals(1, CsbTree.count(t.innerMeta(t.root, 0)));
        assertEquals(seg1, t.innerMeta(t.root, 1), "the second segment did not move");
        t.checkInvariants();
        emptyLeaf(t, 0); // the first segment empties: the second takes its lane
        assertEquals(seg1, t.innerMeta(t.root, 0));
        assertEquals(0, t.innerMeta(t.root, 1));
        assertEquals(2, t.leafPool.used());
        t.checkInvariants();
        t.put(1, 1); // the first leaf splits: its segment, now the first, grows to three
        assertEquals(3, CsbTree.count(t.innerMeta(t.root, 0)));
        emptyLeaf(t, 2); // the last child
        t.checkInvariants();
        assertEquals(2, t.innerChildren(t.root));
    }

    private static List<Long> rootKeys(CsbTree t) {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < t.innerChildren(t.root) - 1; i++) {
            out.add(t.innerKey(t.root, i));
        }
        return out;
    }

    private static long[] keys(int n, long step) {
        long[] k = new long[n];
        for (int i = 0; i < n; i++) {
            k[i] = i * step;
        }
        return k;
    }

    /** Removes every key of child {@code c} of the root, whose leaves are its children. */
    private static void emptyLeaf(CsbTree t, int c) {
        assertEquals(1, t.height);
        int leaf = t.innerKid(t.root, c);
        for (int n = t.leafCount(leaf); n > 0; n--) {
            long k = t.leafKey(leaf, 0);
            t.remove(k);
        }
    }

    @ParameterizedTest
    @EnumSource(CsbVariant.class)
    void removingAnAbsentKeyChangesNothing(CsbVariant v) {
        CsbTree t = CsbTree.bulkLoad("t", v, 1, keys(800, 4), null);
        long bytes = t.memoryBytes();
        String shape = t.toString();
        for (long k = -3; k < 3300; k += 2) {
            assertEquals(0, t.remove(k));
        }
        assertEquals(0, t.remove(MAX));
        assertEquals(shape, t.toString());
        assertEquals(bytes, t.memoryBytes());
        t.checkInvariants();
    }
}
