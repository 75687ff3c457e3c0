package org.bforest.bstree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NavigableSet;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.bforest.BSTreeIndex;
import org.bforest.Indexes;
import org.bforest.LongCursor;
import org.bforest.contract.IndexAssertions;
import org.junit.jupiter.api.Test;

/**
 * The key-only BS-tree ({@link org.bforest.Indexes#bsTreeKeyOnly()}): the same tree code as the
 * plain BS-tree, which the whole conformance kit covers, with the value storage taken out. This
 * test covers what differs: a differential run against {@link TreeSet} (seeded; the seed is
 * printed and {@code -Dbforest.keyonly.seed=S} replays it), the refusal of values, the edge cases,
 * and the memory the form exists for.
 */
class KeyOnlyTest {
    private static final long SEED = Long.getLong("bforest.keyonly.seed", 0x5EED20261124L);
    private static final long ABSENT = 0x7E57_AB5E_47L;

    @Test
    void storesNoValueArrayAndSaysSo() {
        BSTree t = (BSTree) Indexes.bsTreeKeyOnly();
        assertTrue(t.isKeyOnly());
        assertNull(t.leafVals);
        assertFalse(Indexes.bsTree().isKeyOnly());
        BSTree loaded = (BSTree) Indexes.bsTreeKeyOnly(new long[] {1, 2, 3});
        assertNull(loaded.leafVals);
        assertEquals(3, loaded.size());
    }

    @Test
    void refusesValuesAndStaysUnchanged() {
        BSTreeIndex t = Indexes.bsTreeKeyOnly(new long[] {10, 20, Long.MAX_VALUE});
        for (long k : new long[] {10, 15, Long.MAX_VALUE, Long.MIN_VALUE}) {
            boolean had = t.containsKey(k);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> t.put(k, 7));
            assertTrue(e.getMessage().contains("key-only"), e.getMessage());
            assertEquals(had, t.containsKey(k));
            assertEquals(3, t.size());
        }
        assertThrows(IllegalArgumentException.class, () -> t.putAll(new long[] {1, 2}, new long[] {0, 5}));
        IndexAssertions.checkInvariants(t);
        assertThrows(IllegalArgumentException.class, () -> BSTree.bulkLoad(new long[] {1}, new long[] {0}, 0.75, true));
    }

    @Test
    void valuesReadZeroEverywhere() {
        BSTreeIndex t = Indexes.bsTreeKeyOnly(new long[] {Long.MIN_VALUE, -1, 0, 5, Long.MAX_VALUE});
        assertEquals(0, t.get(5, ABSENT));
        assertEquals(0, t.get(Long.MAX_VALUE, ABSENT));
        assertEquals(ABSENT, t.get(6, ABSENT));
        long[] out = new long[4];
        t.getAll(new long[] {5, 6, Long.MIN_VALUE, Long.MAX_VALUE}, out, ABSENT);
        assertArrayEquals(new long[] {0, ABSENT, 0, 0}, out);
        List<Long> seen = new ArrayList<>();
        t.forEach((k, v) -> {
            assertEquals(0, v);
            seen.add(k);
        });
        assertEquals(List.of(Long.MIN_VALUE, -1L, 0L, 5L, Long.MAX_VALUE), seen);
        LongCursor c = t.cursor(0);
        assertTrue(c.isValid());
        assertEquals(0, c.value());
        assertEquals(0, t.put(5, 0), "put of an existing key returns its value, 0");
        assertEquals(t.defaultReturnValue(), t.put(6, 0));
        assertEquals(0, t.remove(6));
        assertEquals(t.defaultReturnValue(), t.remove(6));
    }

    @Test
    void edgeCasesFromEmptyToSplitsAtEveryLevelAndBackToEmpty() {
        BSTreeIndex t = Indexes.bsTreeKeyOnly();
        assertEquals(0, t.size());
        assertFalse(t.containsKey(0));
        assertEquals(ABSENT, t.ceilingKey(Long.MIN_VALUE, ABSENT));
        assertTrue(t.upsert(Long.MAX_VALUE, 0));
        assertTrue(t.upsert(Long.MIN_VALUE, 0));
        assertFalse(t.upsert(Long.MIN_VALUE, 0));
        assertEquals(Long.MIN_VALUE, t.firstKey());
        assertEquals(Long.MAX_VALUE, t.lastKey());
        int n = 200_000; // 16-key nodes: five inner levels, every level splits on the way
        for (int i = 0; i < n; i++) {
            assertTrue(t.upsert(i * 3L, 0));
        }
        IndexAssertions.checkInvariants(t);
        assertTrue(((BSTree) t).height() >= 4, "splits reached the upper levels");
        assertEquals(n + 2, t.size());
        assertEquals(n / 2, t.rangeCount(0, n / 2 * 3L));
        for (int i = 0; i < n; i++) {
            assertTrue(t.delete(i * 3L));
        }
        assertTrue(t.delete(Long.MIN_VALUE));
        assertTrue(t.delete(Long.MAX_VALUE));
        assertEquals(0, t.size());
        IndexAssertions.checkInvariants(t);
        assertEquals(0, t.rangeCount(Long.MIN_VALUE, true, Long.MAX_VALUE, true));
    }

    /** Mixed operations against a {@link TreeSet}, in a small key space so keys collide. */
    @Test
    void differentialAgainstTreeSet() {
        System.out.println("KeyOnlyTest.differentialAgainstTreeSet seed=0x" + Long.toHexString(SEED)
                + " (replay: -Dbforest.keyonly.seed=0x" + Long.toHexString(SEED) + ")");
        SplittableRandom rnd = new SplittableRandom(SEED);
        for (int run = 0; run < 4; run++) {
            long span = run % 2 == 0 ? 5_000 : 200_000;
            long[] loaded = rnd.longs(run * 3_000L, 0, span).sorted().distinct().toArray();
            TreeSet<Long> model = new TreeSet<>();
            for (long k : loaded) {
                model.add(k);
            }
            BSTreeIndex t = Indexes.bsTreeKeyOnly(loaded);
            int ops = 300_000;
            for (int op = 0; op < ops; op++) {
                long k = pick(rnd, span);
                String where = "seed=0x" + Long.toHexString(SEED) + " run " + run + " op " + op + " key " + k;
                switch (rnd.nextInt(10)) {
                    case 0, 1, 2 -> assertEquals(model.add(k), t.upsert(k, 0), where);
                    case 3, 4 -> assertEquals(model.remove(k), t.delete(k), where);
                    case 5 -> assertEquals(model.contains(k), t.containsKey(k), where);
                    case 6 -> {
                        assertEquals(or(model.ceiling(k)), t.ceilingKey(k, ABSENT), where);
                        assertEquals(or(model.floor(k)), t.floorKey(k, ABSENT), where);
                    }
                    case 7 -> {
                        assertEquals(or(model.higher(k)), t.higherKey(k, ABSENT), where);
                        assertEquals(or(model.lower(k)), t.lowerKey(k, ABSENT), where);
                    }
                    case 8 -> {
                        long to = Math.max(k, k + rnd.nextLong(1, 400)); // no wrap past MAX_VALUE
                        assertEquals(model.subSet(k, true, to, false).size(), t.rangeCount(k, to), where);
                    }
                    default -> assertEquals(model.contains(k) ? 0 : ABSENT, t.get(k, ABSENT), where);
                }
                assertEquals(model.size(), t.size(), where);
                if (op % 50_000 == 0) {
                    IndexAssertions.checkInvariants(t);
                    assertSameKeys(model, t, where);
                }
            }
            IndexAssertions.checkInvariants(t);
            assertSameKeys(model, t, "seed=0x" + Long.toHexString(SEED) + " run " + run + " end");
        }
    }

    /** The form exists for its size: at most 14 bytes a key at the default fill (about 13). */
    @Test
    void takesAtMostFourteenBytesAKey() {
        SplittableRandom rnd = new SplittableRandom(1);
        long[] keys = rnd.longs(1_000_000).map(x -> x >>> 1).sorted().distinct().toArray();
        BSTreeIndex set = Indexes.bsTreeKeyOnly(keys);
        BSTreeIndex map = Indexes.bsTree(keys, keys);
        double setBytes = set.memoryBytes() / (double) keys.length;
        double mapBytes = map.memoryBytes() / (double) keys.length;
        System.out.printf("KeyOnlyTest: 1M uniform keys, %.2f bytes a key key-only, %.2f with values%n", setBytes,
                mapBytes);
        assertTrue(setBytes <= 14.0, "key-only bytes per key " + setBytes);
        assertTrue(setBytes < mapBytes * 0.6, "key-only " + setBytes + " vs with values " + mapBytes);
    }

    private static long pick(SplittableRandom rnd, long span) {
        return switch (rnd.nextInt(40)) {
            case 0 -> Long.MIN_VALUE;
            case 1 -> Long.MAX_VALUE;
            case 2 -> Long.MAX_VALUE - 1;
            default -> rnd.nextLong(span);
        };
    }

    private static long or(Long k) {
        return k == null ? ABSENT : k;
    }

    private static void assertSameKeys(NavigableSet<Long> model, BSTreeIndex t, String where) {
        long[] expected = model.stream().mapToLong(Long::longValue).toArray();
        long[] actual = new long[(int) t.size()];
        int[] i = {0};
        t.forEach((k, v) -> actual[i[0]++] = k);
        assertArrayEquals(expected, actual, where);
        LongCursor c = t.cursor();
        c.seekLast();
        for (int j = expected.length - 1; j >= 0; j--) {
            assertTrue(c.isValid(), where);
            assertEquals(expected[j], c.key(), where);
            c.previous();
        }
        assertFalse(c.isValid(), where);
        assertEquals(Arrays.stream(expected).filter(x -> x >= 100 && x < 900).count(), t.rangeCount(100, 900), where);
    }
}
