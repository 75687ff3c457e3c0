package org.bforest.bstree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * What is particular to the BS-tree: the layout the paper prescribes (gaps at bulk load, splits,
 * empty leaves), both range strategies, and the out-of-band maximum key. The behaviour every
 * index shares is in the contract and differential suites.
 */
class BSTreeTest {

    private static long[] range(long from, long n, long step) {
        return LongStream.range(0, n).map(i -> from + i * step).toArray();
    }

    @Test
    void bulkLoadSpreadsAGapAfterEveryThreeKeys() {
        BSTree t = BSTree.bulkLoad(range(0, 12 * 100, 10), null, 0.75);
        t.checkInvariants();
        assertEquals(100, t.leafNodes(), "12 keys a leaf at 75%");
        int leaf = t.firstLeaf();
        assertEquals(0b0111_0111_0111_0111, t.leafBitmap(leaf));
        long[] kc = t.leafKeys.chunk(leaf);
        int off = t.leafKeys.offset(leaf);
        assertEquals(30, kc[off + 3], "a gap holds the next used key");
        assertEquals(BSTree.MAXKEY, kc[off + 15], "a trailing gap holds MAXKEY");
    }

    @Test
    void bulkLoadLeavesNoGapBetweenConsecutiveIntegers() {
        BSTree t = BSTree.bulkLoad(range(1000, 16 * 50, 1), null, 0.75);
        t.checkInvariants();
        assertEquals(50, t.leafNodes(), "runs of consecutive keys fill leaves completely");
    }

    @Test
    void innerLevelsAreFullerThanLeaves() {
        BSTree t = BSTree.bulkLoad(range(0, 1_000_000, 3), null, 0.75);
        t.checkInvariants();
        long leaves = t.leafNodes();
        assertEquals((1_000_000 + 11) / 12, leaves);
        // level 1 at 7/8 fill: 15 children a node; above it full nodes of 17 children
        long level1 = (leaves + 14) / 15;
        long level2 = (level1 + 16) / 17;
        long level3 = (level2 + 16) / 17;
        long level4 = (level3 + 16) / 17;
        assertEquals(level1 + level2 + level3 + level4 + 1, t.innerNodes(), t.toString());
        assertEquals(5, t.height(), t.toString());
    }

    @Test
    void splitSpreadsBothHalves() {
        BSTree t = BSTree.bulkLoad(range(0, 16, 2), null, 1.0);
        assertEquals(Slots.FULL, t.leafBitmap(t.firstLeaf()));
        assertTrue(t.upsert(5, 55));
        t.checkInvariants();
        assertEquals(2, t.leafNodes());
        assertEquals(1, t.height());
        assertEquals(9, Long.bitCount(t.leafBitmap(t.firstLeaf())));
        assertEquals(8, Long.bitCount(t.leafBitmap(t.lastLeaf())));
        assertEquals(55, t.get(5, -1));
    }

    @Test
    void shiftsRightThenLeftToTheNearestGap() {
        BSTree t = new BSTree();
        // Ascending inserts fill slots 0..14; slot 15 is the only gap.
        for (int k = 0; k < 15; k++) {
            t.put(k * 10, k);
        }
        assertEquals(0x7FFF, t.leafBitmap(t.inner.root));
        t.put(5, -5); // belongs at slot 1: shifts slots 1..14 right into slot 15
        t.checkInvariants();
        t.remove(0); // frees slot 0
        t.put(145, -145); // belongs after everything; no gap on the right: shifts left into slot 0
        t.checkInvariants();
        assertEquals(1, t.leafNodes());
        assertEquals(-145, t.get(145, 0));
        assertEquals(-5, t.get(5, 0));
    }

    @Test
    void deletingALeafRemovesItsSeparatorAndShrinksTheTree() {
        BSTree t = BSTree.bulkLoad(range(0, 10_000, 1), null, 0.75);
        int height = t.height();
        assertTrue(height >= 2);
        // Empty whole leaves in the middle, then everything.
        for (long k = 2000; k < 4000; k++) {
            assertTrue(t.delete(k));
        }
        t.checkInvariants();
        assertEquals(8000, t.size());
        assertEquals(4000, t.ceilingKey(2000, -1));
        assertEquals(1999, t.floorKey(3999, -1));
        for (long k = 0; k < 10_000; k++) {
            t.remove(k);
        }
        t.checkInvariants();
        assertEquals(0, t.size());
        assertEquals(0, t.height(), "the root collapses back to one leaf");
        assertEquals(1, t.leafNodes());
        // Freed nodes are reused.
        for (long k = 0; k < 10_000; k++) {
            t.put(k, k);
        }
        t.checkInvariants();
    }

    @Test
    void maxKeyLivesOutOfBand() {
        BSTree t = BSTree.bulkLoad(new long[] {Long.MIN_VALUE, 0, Long.MAX_VALUE}, new long[] {1, 2, 3}, 0.75);
        t.checkInvariants();
        assertEquals(3, t.size());
        assertEquals(3, t.get(Long.MAX_VALUE, -1));
        assertEquals(Long.MAX_VALUE, t.lastKey());
        assertEquals(Long.MAX_VALUE, t.higherKey(0, -1));
        assertEquals(0, t.lowerKey(Long.MAX_VALUE, -1));
        assertEquals(2, t.rangeCount(Long.MIN_VALUE, Long.MAX_VALUE), "MAX is never inside [from, to)");
        assertTrue(t.delete(Long.MAX_VALUE));
        assertFalse(t.containsKey(Long.MAX_VALUE));
        assertEquals(0, t.lastKey());
        t.checkInvariants();
    }

    @Test
    void badLeafFillIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> BSTree.bulkLoad(new long[] {1}, null, 0.3));
        assertThrows(IllegalArgumentException.class, () -> BSTree.bulkLoad(new long[] {1}, null, Double.NaN));
    }

    /** Algorithm 4 (scan) and the two-descent strategy must count and visit the same keys. */
    @Test
    void bothRangeStrategiesAgreeWithTheModel() {
        SplittableRandom rnd = new SplittableRandom(11);
        TreeMap<Long, Long> model = new TreeMap<>();
        long[] keys = LongStream.range(0, 50_000).map(i -> i * 7 + (i % 3)).toArray();
        BSTree t = BSTree.bulkLoad(keys, keys, 0.75);
        for (long k : keys) {
            model.put(k, k);
        }
        for (int i = 0; i < 30_000; i++) {
            long k = rnd.nextLong(-1000, 400_000);
            if (rnd.nextInt(3) == 0) {
                t.remove(k);
                model.remove(k);
            } else {
                t.put(k, ~k);
                model.put(k, ~k);
            }
        }
        t.checkInvariants();
        for (int i = 0; i < 5_000; i++) {
            long from = rnd.nextLong(-2000, 400_000);
            long to = from + (rnd.nextBoolean() ? rnd.nextLong(0, 300) : rnd.nextLong(0, 200_000));
            if (i % 100 == 0) {
                to = Long.MAX_VALUE;
            }
            Map<Long, Long> sub = model.subMap(from, true, to, false);
            for (int scan : new int[] {0, 1, 3, Integer.MAX_VALUE}) {
                assertEquals(sub.size(), t.rangeCount(from, true, to, false, scan), "count [" + from + "," + to + ") scan=" + scan);
                long[] sum = new long[2];
                long n = t.rangeVisit(from, true, to, false, (k, v) -> {
                    sum[0] += k * 31 + v;
                    sum[1]++;
                    return true;
                }, scan);
                long expected = 0;
                for (Map.Entry<Long, Long> e : sub.entrySet()) {
                    expected += e.getKey() * 31 + e.getValue();
                }
                assertEquals(sub.size(), n);
                assertEquals(sub.size(), sum[1]);
                assertEquals(expected, sum[0], "visit [" + from + "," + to + ") scan=" + scan);
            }
        }
    }

    @Test
    void memoryGrowsWithoutCopyingTheTree() {
        BSTree t = new BSTree();
        long empty = t.memoryBytes();
        assertTrue(empty < 2_500, "an empty tree is small: " + empty);
        for (long k = 0; k < 200_000; k++) {
            t.put(k * 2654435761L, k);
        }
        t.checkInvariants();
        assertTrue(t.memoryBytes() > 200_000 * 16, t.memoryBytes() + " bytes");
        assertTrue(t.memoryBytes() < 200_000 * 60, t.memoryBytes() + " bytes");
    }

    /**
     * Grows and shrinks trees through every level with the invariant checker after each
     * structural change (the tests run with -Dbforest.verify=true) and against a TreeMap.
     */
    @Test
    void growAndShrinkThroughEveryLevel() {
        for (long seed = 1; seed <= 6; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            BSTree t = new BSTree();
            TreeMap<Long, Long> model = new TreeMap<>();
            long span = seed % 2 == 0 ? 3_000 : 1L << 40;
            int ops = 60_000;
            for (int i = 0; i < ops; i++) {
                // insert-heavy first half, delete-heavy second half
                boolean insert = rnd.nextInt(100) < (i < ops / 2 ? 80 : 20);
                long k = seed == 5 ? (i < ops / 2 ? i : ops - i) : rnd.nextLong(-span, span);
                String at = "seed " + seed + " op " + i + " key " + k;
                if (insert) {
                    assertEquals(model.put(k, (long) i) == null, t.upsert(k, i), at);
                } else {
                    assertEquals(model.remove(k) != null, t.delete(k), at);
                }
                if (i % 997 == 0) {
                    long probe = rnd.nextLong(-span, span);
                    Long c = model.ceilingKey(probe);
                    Long f = model.floorKey(probe);
                    assertEquals(c == null ? -7 : c, t.ceilingKey(probe, -7), at);
                    assertEquals(f == null ? -7 : f, t.floorKey(probe, -7), at);
                }
            }
            t.checkInvariants();
            assertEquals(model.size(), t.size());
            var c = t.cursor();
            var it = model.entrySet().iterator();
            for (boolean ok = c.seekFirst(); ok; ok = c.next()) {
                var e = it.next();
                assertEquals(e.getKey(), c.key());
                assertEquals(e.getValue(), c.value());
            }
            assertFalse(it.hasNext());
            for (Long k : model.keySet().toArray(new Long[0])) {
                assertTrue(t.delete(k));
            }
            t.checkInvariants();
            assertEquals(0, t.size());
            assertEquals(0, t.height());
        }
    }
}
