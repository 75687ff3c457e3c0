package org.bforest.bstree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.TreeMap;
import org.bforest.BSTreeBuilder.Compression;
import org.bforest.BSTreeIndex;
import org.bforest.Indexes;
import org.bforest.contract.IndexAssertions;
import org.junit.jupiter.api.Test;

/** The compressed leaves of {@link CBSTree}: widths, re-encoding, splits, memory, the decision. */
class CBSTreeTest {
    private static long[] walk(long start, long step, int n) {
        long[] k = new long[n];
        for (int i = 0; i < n; i++) {
            k[i] = start + i * step;
        }
        return k;
    }

    private static long[] valuesOf(long[] keys) {
        long[] v = new long[keys.length];
        for (int i = 0; i < keys.length; i++) {
            v[i] = ~keys[i] * 31;
        }
        return v;
    }

    private static void assertHolds(BSTreeIndex t, long[] keys, long[] values) {
        IndexAssertions.checkInvariants(t);
        assertEquals(keys.length, t.size());
        for (int i = 0; i < keys.length; i++) {
            assertEquals(values[i], t.get(keys[i], 42), "value of " + keys[i]);
        }
    }

    @Test
    void denseKeysLoadAs48KeysPer16BitLeaf() {
        long[] keys = walk(7, 500, 4800);
        CBSTree t = CBSTree.bulkLoad(keys, valuesOf(keys), 0.75);
        assertHolds(t, keys, valuesOf(keys));
        assertEquals(100, t.leafNodes());
        assertEquals(100, t.leavesOfWidth(16));
        for (int leaf = t.firstLeaf(); leaf != GappedTree.NONE; leaf = t.leafNext(leaf)) {
            assertEquals(48, Long.bitCount(t.leafBitmap(leaf)));
        }
    }

    @Test
    void eachLeafTakesTheNarrowestWidthItsSpanAllows() {
        // 48 keys at 16 bits span 47 steps; 24 at 32 bits span 23 steps.
        record Case(long step, int width, int perLeaf) {
        }
        for (Case c : new Case[] {new Case(1_394, 16, 48), new Case(1_395, 32, 24),
            new Case(((1L << 32) - 2) / 23, 32, 24), new Case(((1L << 32) - 2) / 23 + 1, 64, 12)}) {
            long[] keys = walk(-1_000_000, c.step, c.perLeaf * 10);
            CBSTree t = CBSTree.bulkLoad(keys, valuesOf(keys), 0.75);
            assertHolds(t, keys, valuesOf(keys));
            // The last leaf holds fewer keys, whose span may fit a narrower width.
            assertTrue(t.leavesOfWidth(c.width) >= 9, "step " + c.step + ": " + t.leavesOfWidth(c.width));
            assertEquals(10, t.leafNodes(), "step " + c.step);
        }
    }

    @Test
    void consecutiveKeysFillLeavesWithoutGaps() {
        long[] keys = walk(Long.MIN_VALUE, 1, 640);
        CBSTree t = CBSTree.bulkLoad(keys, null, 0.75);
        assertEquals(10, t.leafNodes());
        assertEquals(10, t.leavesOfWidth(16));
        t.checkInvariants();
    }

    @Test
    void extremeKeysAndZeroCrossings() {
        long[] keys = {Long.MIN_VALUE, Long.MIN_VALUE + 1, -65_536, -1, 0, 1, 65_535, (1L << 32) - 1, 1L << 32,
            Long.MAX_VALUE - 1, Long.MAX_VALUE};
        long[] values = valuesOf(keys);
        BSTreeIndex loaded = Indexes.cbsTree(keys, values);
        assertHolds(loaded, keys, values);
        BSTreeIndex grown = Indexes.cbsTree();
        for (int i = keys.length - 1; i >= 0; i--) {
            assertTrue(grown.upsert(keys[i], values[i]));
        }
        assertHolds(grown, keys, values);
        for (BSTreeIndex t : new BSTreeIndex[] {loaded, grown}) {
            assertEquals(Long.MIN_VALUE, t.firstKey());
            assertEquals(Long.MAX_VALUE, t.lastKey());
            assertEquals(0, t.ceilingKey(-0, 9));
            assertEquals(65_535, t.floorKey(65_536, 9));
            assertEquals(1L << 32, t.higherKey((1L << 32) - 1, 9));
            assertEquals(Long.MAX_VALUE - 1, t.lowerKey(Long.MAX_VALUE, 9));
            assertEquals(keys.length, t.rangeCount(Long.MIN_VALUE, Long.MAX_VALUE) + 1);
            assertEquals(42, t.get(2, 42));
            assertEquals(42, t.get(Long.MIN_VALUE + 2, 42));
        }
    }

    @Test
    void aKeyBelowK0ReencodesTheLeaf() {
        long[] keys = walk(1_000, 10, 40);
        CBSTree t = CBSTree.bulkLoad(keys, valuesOf(keys), 0.75);
        int leaf = t.firstLeaf();
        assertEquals(1_000, t.leafK0(leaf));
        assertTrue(t.upsert(999, 5));
        assertTrue(t.upsert(5, 6));
        long k0 = t.leafK0(leaf);
        assertTrue(k0 < 5, "k0 moved below the new first key, leaving room for smaller ones: " + k0);
        assertTrue(t.upsert(4, 9));
        assertEquals(k0, t.leafK0(leaf), "the next smaller key fits without re-encoding");
        assertEquals(16, t.leafWidth(leaf));
        assertEquals(1, t.leafNodes());
        assertTrue(t.upsert(-(1L << 40), 7)); // too wide for 16 bits, too many keys for 32
        t.checkInvariants();
        assertEquals(44, t.size());
        assertEquals(9, t.get(4, 0));
        assertEquals(5, t.get(999, 0));
        assertEquals(6, t.get(5, 0));
        assertEquals(7, t.get(-(1L << 40), 0));
        for (long k : keys) {
            assertEquals(~k * 31, t.get(k, 0));
        }
        assertFalse(t.upsert(5, 8), "replacing is not inserting");
        assertEquals(8, t.get(5, 0));
    }

    @Test
    void aWideKeySplitsAFullLeafAndEachHalfIsCompressedAlone() {
        long[] keys = walk(0, 1, 64); // consecutive: one full 16-bit leaf
        CBSTree t = CBSTree.bulkLoad(keys, valuesOf(keys), 0.75);
        assertEquals(1, t.leafNodes());
        assertEquals(64, Long.bitCount(t.leafBitmap(t.firstLeaf())));
        assertTrue(t.upsert(1L << 40, 1));
        t.checkInvariants();
        assertEquals(65, t.size());
        assertEquals(1, t.get(1L << 40, 0));
        for (long k : keys) {
            assertEquals(~k * 31, t.get(k, 0));
        }
        assertEquals(1, t.height());
        assertTrue(t.leafNodes() >= 2);
        assertEquals(16, t.leafWidth(t.firstLeaf()), "the low half is still 16-bit");
    }

    @Test
    void valuesFollowTheirKeysThroughShiftsInEveryWidth() {
        for (long step : new long[] {3, 100_000, 1L << 36}) {
            SplittableRandom r = new SplittableRandom(step);
            TreeMap<Long, Long> model = new TreeMap<>();
            CBSTree t = new CBSTree();
            for (int i = 0; i < 3_000; i++) {
                long k = r.nextInt(2_000) * step;
                if (r.nextInt(3) == 0) {
                    assertEquals(model.remove(k) != null, t.delete(k));
                } else {
                    long v = r.nextLong();
                    assertEquals(model.put(k, v) == null, t.upsert(k, v));
                }
            }
            t.checkInvariants();
            assertEquals(model.size(), t.size());
            model.forEach((k, v) -> assertEquals(v, t.get(k, 0)));
        }
    }

    // ---- value lanes ------------------------------------------------------------------------

    private static long[] complements(long[] keys) {
        long[] v = new long[keys.length];
        for (int i = 0; i < keys.length; i++) {
            v[i] = ~keys[i];
        }
        return v;
    }

    @Test
    void valuesThatGrowWithTheKeyAreLanesAndWildOnesArePacked() {
        long[] keys = walk(7, 3, 4_800_000); // enough leaves that whole 1 MiB chunks do not dominate
        long[] values = complements(keys);
        CBSTree lanes = CBSTree.bulkLoad(keys, values, 0.75);
        assertHolds(lanes, keys, values);
        assertTrue(lanes.hasValueLanes());
        assertEquals(lanes.leafNodes(), lanes.leavesWithValueLanes());
        assertEquals(0, lanes.values.linesInUse(), "no packed value blocks");
        // One record a leaf: 16-bit keys and values and a 40-byte info part, 296 bytes for 48 keys.
        assertTrue(lanes.memoryBytes() < 7.5 * keys.length, lanes.memoryBytes() + " bytes");

        long[] wild = new SplittableRandom(3).longs(keys.length).toArray();
        CBSTree packed = CBSTree.bulkLoad(keys, wild, 0.75);
        assertHolds(packed, keys, wild);
        assertFalse(packed.hasValueLanes(), "random values do not pay for lanes");
        assertEquals(0, packed.leavesWithValueLanes());
        assertEquals(ForLeafCodec.VALS, packed.infoOffset, "no value lanes in the leaf record");
        assertTrue(packed.memoryBytes() < lanes.memoryBytes() + 8L * keys.length);
    }

    @Test
    void theBulkLoadGivesValueLanesWhenThreeQuartersOfItsLeavesFitThem() {
        for (int keysCount : new int[] {48 * 1_000, 48 * 20_000}) { // every leaf, then a sample
            long[] keys = walk(0, 3, keysCount);
            for (double fitting : new double[] {0.9, 0.5}) {
                long[] values = complements(keys);
                SplittableRandom r = new SplittableRandom(9);
                for (int i = (int) (fitting * keys.length); i < keys.length; i++) {
                    values[i] = r.nextLong();
                }
                boolean expected = fitting > 0.75;
                assertEquals(expected, BulkLayout.laneValuesPay(keys, values, 0.75), keysCount + " keys, " + fitting);
                CBSTree t = CBSTree.bulkLoad(keys, values, 0.75);
                assertEquals(expected, t.hasValueLanes());
                if (expected) {
                    assertEquals(t.leafNodes() * fitting, t.leavesWithValueLanes(), t.leafNodes() * 0.01);
                }
                t.checkInvariants();
                for (int i = 0; i < keys.length; i += 7) {
                    assertEquals(values[i], t.get(keys[i], 0));
                }
            }
        }
        assertTrue(BulkLayout.laneValuesPay(walk(0, 3, 1_000), null, 0.75), "no values: zeros, which fit");
    }

    @Test
    void aWildValueMovesOnlyItsLeafOutOfLanesAndARewriteBringsItBack() {
        long[] keys = walk(1_000, 10, 4_800); // 100 leaves of 48 keys at 16 bits
        long[] values = complements(keys);
        CBSTree t = CBSTree.bulkLoad(keys, values, 0.75);
        assertEquals(100, t.leavesWithValueLanes());
        // Replace a value with one far outside the leaf's range: that leaf alone becomes packed.
        assertFalse(t.upsert(keys[100], Long.MIN_VALUE));
        values[100] = Long.MIN_VALUE;
        assertHolds(t, keys, values);
        assertEquals(99, t.leavesWithValueLanes());
        // A new key with a wild value in another leaf: packed too, its neighbours keep their values.
        long k = keys[1_000] + 1;
        assertTrue(t.upsert(k, Long.MAX_VALUE));
        assertEquals(98, t.leavesWithValueLanes());
        assertEquals(Long.MAX_VALUE, t.get(k, 0));
        assertTrue(t.delete(k));
        assertHolds(t, keys, values);
        // A value that fits the headroom below v0 stays in lanes.
        assertFalse(t.upsert(keys[2_000], values[2_000] - 1_000));
        values[2_000] -= 1_000;
        assertEquals(98, t.leavesWithValueLanes());
        // The packed leaf of keys[96..143] gets its key-like value back, then 17 more keys: full,
        // it splits, and both halves are rewritten with values that fit lanes again.
        assertFalse(t.upsert(keys[100], ~keys[100]));
        values[100] = ~keys[100];
        assertFalse(ForLeafCodec.hasLanes(t.leafMeta(t.inner.findLeaf(keys[100]))));
        for (int i = 96; i < 96 + 17; i++) {
            assertTrue(t.upsert(keys[i] + 1, ~(keys[i] + 1)));
        }
        assertTrue(ForLeafCodec.hasLanes(t.leafMeta(t.inner.findLeaf(keys[96]))));
        assertTrue(ForLeafCodec.hasLanes(t.leafMeta(t.inner.findLeaf(keys[143]))));
        assertEquals(~(keys[100] + 1), t.get(keys[100] + 1, 0));
        for (int i = 96; i < 96 + 17; i++) {
            assertTrue(t.delete(keys[i] + 1));
        }
        assertHolds(t, keys, values);
        for (long key : keys) {
            assertTrue(t.delete(key));
        }
        t.checkInvariants();
        assertEquals(0, t.values.linesInUse(), "every packed block was freed");
    }

    @Test
    void valueLanesFollowTheirKeysThroughShiftsSplitsAndDeletesInEveryWidth() {
        for (long step : new long[] {1, 3, 100_000, 1L << 36}) {
            SplittableRandom r = new SplittableRandom(step);
            TreeMap<Long, Long> model = new TreeMap<>();
            CBSTree t = new CBSTree();
            for (int i = 0; i < 20_000; i++) {
                long k = r.nextInt(4_000) * step;
                if (r.nextInt(3) == 0) {
                    assertEquals(model.remove(k) != null, t.delete(k));
                } else {
                    long v = k / step * 5 + r.nextInt(3); // grows with the key: fits lanes
                    assertEquals(model.put(k, v) == null, t.upsert(k, v));
                }
            }
            t.checkInvariants();
            assertEquals(model.size(), t.size());
            model.forEach((k, v) -> assertEquals(v, t.get(k, 0)));
            assertEquals(t.leafNodes(), t.leavesWithValueLanes(), "step " + step);
            long[] ks = model.keySet().stream().mapToLong(Long::longValue).toArray();
            long[] seen = new long[ks.length];
            int[] n = {0};
            t.rangeVisit(Long.MIN_VALUE, Long.MAX_VALUE, (key, value) -> {
                assertEquals(model.get(key), value);
                seen[n[0]++] = key;
                return true;
            });
            assertEquals(ks.length, n[0]);
        }
    }

    @Test
    void ascendingInsertsOfDescendingValuesStayInLanes() {
        CBSTree t = new CBSTree();
        for (long k = 0; k < 50_000; k++) {
            assertTrue(t.upsert(k, ~k));
        }
        t.checkInvariants();
        assertEquals(t.leafNodes(), t.leavesWithValueLanes());
        for (long k = 0; k < 50_000; k += 97) {
            assertEquals(~k, t.get(k, 0));
        }
    }

    @Test
    void deletingEverythingFreesTheValueBlocks() {
        long[] keys = walk(0, 7, 20_000);
        long[] values = new SplittableRandom(5).longs(keys.length).toArray(); // too wild for value lanes
        CBSTree t = CBSTree.bulkLoad(keys, values, 0.75);
        assertFalse(t.hasValueLanes());
        long loadedLines = t.values.linesInUse();
        assertTrue(loadedLines >= 20_000 / 8, loadedLines + " lines");
        for (long k : keys) {
            assertTrue(t.delete(k));
        }
        t.checkInvariants();
        assertEquals(0, t.size());
        assertEquals(0, t.height());
        assertTrue(t.values.linesInUse() <= 8, t.values.linesInUse() + " lines left");
        for (long k : keys) {
            assertTrue(t.upsert(k, k));
        }
        t.checkInvariants();
        assertTrue(t.values.linesInUse() < 2 * loadedLines, "freed blocks are reused");
    }

    @Test
    void halfTheMemoryOfThePlainTreeOnDenseKeys() {
        SplittableRandom r = new SplittableRandom(2);
        long[] keys = new long[1_000_000];
        long k = 0;
        for (int i = 0; i < keys.length; i++) {
            k += 1 + r.nextInt(1_000);
            keys[i] = k;
        }
        long[] values = valuesOf(keys);
        BSTreeIndex plain = Indexes.bsTreeBuilder().compression(Compression.NEVER).build(keys, values);
        BSTreeIndex compressed = Indexes.bsTree(keys, values);
        assertTrue(compressed.isCompressed(), "dense keys are compressed by default");
        double ratio = (double) compressed.memoryBytes() / plain.memoryBytes();
        assertTrue(ratio <= 0.5, "compressed/plain memory " + ratio);
    }

    @Test
    void theDecisionFollowsTheAverageLeadingZerosOfSpansOf13Keys() {
        assertFalse(CompressionDecision.of(walk(0, 1L << 40, 1_000)).compress());
        assertTrue(CompressionDecision.of(walk(0, 1_000, 1_000)).compress());
        // Segments whose spans are exactly 2^31 (32 leading zeros) or 2^32 (31).
        for (long span : new long[] {1L << 31, 1L << 32}) {
            long[] keys = new long[13 * 50];
            for (int i = 0; i < keys.length; i++) {
                int t = i % 13;
                keys[i] = (long) (i / 13) * (1L << 40) + (t == 12 ? span : t * 1_000L);
            }
            CompressionDecision d = CompressionDecision.of(keys);
            assertEquals(span == 1L << 31, d.compress(), d.toString());
            assertEquals(50, d.segments());
            assertEquals(span == 1L << 31, Indexes.bsTree(keys, null).isCompressed());
        }
        SplittableRandom r = new SplittableRandom(1);
        long[] uniform = r.longs(100_000).map(x -> x >>> 1).sorted().distinct().toArray();
        assertFalse(Indexes.bsTree(uniform, null).isCompressed(), "uniform keys stay plain");
        assertFalse(CompressionDecision.of(new long[] {5}).compress(), "one key is no evidence");
        assertFalse(Indexes.bsTree().isCompressed());
        assertFalse(Indexes.bsTreeBuilder().build().isCompressed());
        assertTrue(Indexes.bsTreeBuilder().compression(Compression.ALWAYS).build(uniform, null).isCompressed());
        assertFalse(Indexes.bsTreeBuilder().compression(Compression.NEVER).build(walk(0, 1, 100), null)
                .isCompressed());
    }

    @Test
    void badBulkInputLeavesNothingBuilt() {
        assertThrows(IllegalArgumentException.class, () -> Indexes.cbsTree(new long[] {3, 2}, null));
        assertThrows(IllegalArgumentException.class, () -> Indexes.cbsTree(new long[] {1, 2}, new long[1]));
        assertThrows(IllegalArgumentException.class, () -> Indexes.bsTreeBuilder().leafFill(0.2));
        assertThrows(NullPointerException.class, () -> Indexes.bsTreeBuilder().compression(null));
        assertThrows(IllegalArgumentException.class, () -> Indexes.bsTree(new long[] {1, 1}, null));
    }
}
