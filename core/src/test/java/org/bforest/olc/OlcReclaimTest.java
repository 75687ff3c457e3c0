package org.bforest.olc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Deletes that give memory back, on one thread: a window slid over many keys (ascending, so the
 * first leaf empties and the leaf after it takes its range; descending, so the last one empties
 * and the leaf before it does; random), and queues drained from either end with
 * {@code firstKey()}/{@code lastKey()} and the exact remove. The tree must stay small (leaves in
 * use, storage handed out, {@code memoryBytes()}), pass its checker (empty leaves, chain, fences,
 * free lists, mirror) along the way, and answer as a model does. Plus the exact and conditional
 * updates against a model, {@code Long.MAX_VALUE} and the answer marks included.
 */
class OlcReclaimTest {
    private static final long SEED = 0x5eed_2026_0418L;
    private static final int WINDOW = 1_000;
    private static final int SLIDE = 1_200_000;

    /** Leaves in use: handed out and not on the free list. */
    private static int leavesInUse(OlcBSTree t) {
        return t.leafCount.get() - t.recycler.freeLeafIds().length;
    }

    private static void assertSmall(OlcBSTree t, String what) {
        // 1,000 keys fill at least 63 leaves' worth of 16 slots; a split leaves 8 or 9 a leaf.
        assertTrue(leavesInUse(t) <= 2 * WINDOW / 8, what + ": " + leavesInUse(t) + " leaves in use");
        assertTrue(t.leafCount.get() <= 4 * WINDOW / 8, what + ": " + t.leafCount.get() + " leaf ids handed out");
        assertTrue(t.memoryBytes() < 512 * 1024, what + ": memoryBytes " + t.memoryBytes());
    }

    @Test
    void anAscendingWindowKeepsTheTreeSmall() {
        OlcBSTree t = new OlcBSTree();
        for (long k = 0; k < SLIDE; k++) {
            assertTrue(t.upsert(k, ~k));
            if (k >= WINDOW) {
                long[] prev = new long[1];
                assertTrue(t.remove(k - WINDOW, prev), "remove " + (k - WINDOW));
                assertEquals(~(k - WINDOW), prev[0]);
                if (k % 997 == 0) {
                    assertEquals(k - WINDOW + 1, t.firstKey(), "firstKey after " + k);
                    assertEquals(k, t.lastKey());
                }
            }
            if (k % 200_000 == 0) {
                t.checkInvariants();
            }
        }
        t.checkInvariants();
        assertEquals(WINDOW, t.size());
        assertSmall(t, "ascending window");
        assertEquals(SLIDE - WINDOW, t.firstKey());
        assertEquals(SLIDE - WINDOW, t.ceilingKey(0, -1));
        assertEquals(-1, t.floorKey(SLIDE - WINDOW - 1, -1));
    }

    @Test
    void aDescendingWindowKeepsTheTreeSmall() {
        OlcBSTree t = new OlcBSTree();
        for (long k = 0; k < SLIDE; k++) {
            t.put(-k, k);
            if (k >= WINDOW) {
                assertTrue(t.delete(-(k - WINDOW)));
                if (k % 997 == 0) {
                    assertEquals(-(k - WINDOW + 1), t.lastKey());
                    assertEquals(-k, t.firstKey());
                }
            }
            if (k % 200_000 == 0) {
                t.checkInvariants();
            }
        }
        t.checkInvariants();
        assertEquals(WINDOW, t.size());
        assertSmall(t, "descending window");
    }

    @Test
    void aRandomWindowKeepsTheTreeSmallAndMatchesAModel() {
        SplittableRandom r = new SplittableRandom(SEED);
        OlcBSTree t = new OlcBSTree();
        TreeMap<Long, Long> model = new TreeMap<>();
        long[] ring = new long[WINDOW];
        for (int i = 0; i < SLIDE / 2; i++) {
            long k = r.nextLong(1L << 40);
            if (i >= WINDOW) {
                long old = ring[i % WINDOW];
                assertEquals(model.remove(old) != null, t.delete(old));
            }
            ring[i % WINDOW] = k;
            assertEquals(model.put(k, (long) i) == null, t.upsert(k, i));
            if (i % 100_000 == 0) {
                t.checkInvariants();
                assertEquals(model.firstKey(), t.firstKey());
                assertEquals(model.lastKey(), t.lastKey());
            }
        }
        t.checkInvariants();
        assertEquals(model.size(), t.size());
        for (Map.Entry<Long, Long> e : model.entrySet()) {
            assertEquals(e.getValue(), t.get(e.getKey(), -1));
        }
        assertSmall(t, "random window");
    }

    @Test
    void aQueueDrainsThroughFirstKeyAndTheExactRemove() {
        int n = 1_000_000;
        long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = 3L * i - n;
        }
        OlcBSTree t = (OlcBSTree) OlcTrees.bulkLoad(keys, keys);
        long bytes = t.memoryBytes();
        long[] prev = new long[1];
        for (int i = 0; i < n; i++) {
            long k = t.firstKey();
            assertEquals(keys[i], k);
            assertTrue(t.remove(k, prev));
            assertEquals(k, prev[0]);
            if (i % 250_000 == 0) {
                t.checkInvariants();
            }
        }
        t.checkInvariants();
        assertEquals(0, t.size());
        assertEquals(0, t.height(), "a drained tree is one leaf");
        assertEquals(1, leavesInUse(t));
        assertThrows(NoSuchElementException.class, t::firstKey);
        // Draining allocates nothing but the free lists' ids, four bytes a node (and their slack).
        long ids = t.leafCount.get() + (long) t.innerCount.get();
        assertTrue(t.memoryBytes() <= bytes + 8 * ids + 1024, "draining took " + (t.memoryBytes() - bytes) + " bytes");
        // The freed leaves are reused: refilling half as many keys (ascending, so 8 or 9 a leaf, where
        // the bulk load put 12) takes no new leaf.
        int handedOut = t.leafCount.get();
        for (int i = 0; i < n / 2; i++) {
            t.put(keys[i], i);
        }
        t.checkInvariants();
        assertEquals(handedOut, t.leafCount.get(), "leaves refilled from the free list");
    }

    @Test
    void aStackDrainsThroughLastKey() {
        OlcBSTree t = new OlcBSTree();
        SplittableRandom r = new SplittableRandom(SEED);
        TreeMap<Long, Long> model = new TreeMap<>();
        for (int i = 0; i < 300_000; i++) {
            long k = r.nextLong();
            model.put(k, (long) i);
            t.put(k, i);
        }
        t.put(Long.MAX_VALUE, 7);
        model.put(Long.MAX_VALUE, 7L);
        long[] prev = new long[1];
        while (!model.isEmpty()) {
            Map.Entry<Long, Long> e = model.pollLastEntry();
            assertEquals(e.getKey(), t.lastKey());
            assertTrue(t.remove(e.getKey(), prev));
            assertEquals(e.getValue(), prev[0]);
            if (model.size() % 100_000 == 0) {
                t.checkInvariants();
            }
        }
        t.checkInvariants();
        assertEquals(0, t.height());
        assertEquals(1, leavesInUse(t));
    }

    @Test
    void clearLeavesOneLeaf() {
        OlcBSTree t = new OlcBSTree();
        for (long k = 0; k < 100_000; k++) {
            t.put(k * 7, k);
        }
        t.clear();
        t.checkInvariants();
        assertEquals(0, t.size());
        assertEquals(0, t.height());
        assertEquals(1, leavesInUse(t));
    }

    /** Values that are the tree's internal answer marks, and the extremes. */
    private static final long[] VALUES = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, OlcNodes.ABSENT_MARK,
        OlcNodes.ESCAPED_MARK, OlcNodes.FALLBACK_MARK};

    @Test
    void exactAndConditionalUpdatesMatchAModel() {
        SplittableRandom r = new SplittableRandom(SEED);
        OlcBSTree t = new OlcBSTree();
        TreeMap<Long, Long> m = new TreeMap<>();
        long[] out = new long[1];
        int domain = 3_000;
        for (int op = 0; op < 400_000; op++) {
            long key = r.nextInt(20) == 0 ? Long.MAX_VALUE : (long) r.nextInt(domain) * 0x0000_1000_0000_0001L;
            long value = r.nextInt(4) == 0 ? VALUES[r.nextInt(VALUES.length)] : r.nextLong();
            Long had = m.get(key);
            long expected = had != null && r.nextBoolean() ? had : VALUES[r.nextInt(VALUES.length)];
            out[0] = 4242;
            String at = "op " + op + " key " + key;
            switch (r.nextInt(7)) {
                case 0 -> {
                    assertEquals(had != null, t.get(key, out), at + ": get");
                    assertEquals(had != null ? had : 4242, out[0], at + ": get's value");
                }
                case 1 -> {
                    assertEquals(had != null, t.put(key, value, out), at + ": put");
                    assertEquals(had != null ? had : 4242, out[0], at + ": put's previous");
                    m.put(key, value);
                }
                case 2 -> {
                    assertEquals(had != null, t.remove(key, out), at + ": remove");
                    assertEquals(had != null ? had : 4242, out[0], at + ": remove's previous");
                    m.remove(key);
                }
                case 3 -> {
                    assertEquals(had != null, t.putIfAbsent(key, value, out), at + ": putIfAbsent");
                    assertEquals(had != null ? had : 4242, out[0], at + ": putIfAbsent's present");
                    m.putIfAbsent(key, value);
                }
                case 4 -> {
                    assertEquals(had != null, t.replace(key, value, out), at + ": replace");
                    assertEquals(had != null ? had : 4242, out[0], at + ": replace's previous");
                    m.replace(key, value);
                }
                case 5 -> {
                    boolean hit = had != null && had == expected;
                    assertEquals(hit, t.replace(key, expected, value), at + ": replace(expected " + expected + ")");
                    if (hit) {
                        m.put(key, value);
                    }
                }
                default -> {
                    boolean hit = had != null && had == expected;
                    assertEquals(hit, t.remove(key, expected), at + ": remove(expected " + expected + ")");
                    if (hit) {
                        m.remove(key);
                    }
                }
            }
            if (op % 50_000 == 0) {
                t.checkInvariants();
            }
        }
        t.checkInvariants();
        assertEquals(m.size(), t.size());
        for (Map.Entry<Long, Long> e : m.entrySet()) {
            assertTrue(t.get(e.getKey(), out));
            assertEquals(e.getValue(), out[0]);
        }
        assertThrows(NullPointerException.class, () -> t.put(1, 2, null));
        assertThrows(IllegalArgumentException.class, () -> t.putIfAbsent(1, 2, new long[0]));
        assertFalse(t.containsKey(1), "a rejected putIfAbsent changed nothing");
    }

    /**
     * The neighbour walk under locks (the fallback after repeated restarts), called directly: every
     * answer as a model's, across leaves emptied by deletes and with {@code Long.MAX_VALUE} in and
     * out, and every lock released (the checker finds every node unlocked).
     */
    @Test
    void theWalkUnderLocksAnswersAsTheModel() {
        SplittableRandom r = new SplittableRandom(SEED);
        OlcBSTree t = new OlcBSTree();
        TreeMap<Long, Long> m = new TreeMap<>();
        Probe p = new Probe();
        for (int round = 0; round < 40; round++) {
            for (int i = 0; i < 2_000; i++) {
                long k = r.nextLong(-100_000, 100_000);
                if (r.nextInt(3) == 0) {
                    t.delete(k);
                    m.remove(k);
                } else {
                    t.put(k, i);
                    m.put(k, (long) i);
                }
            }
            if (round % 2 == 0) {
                t.put(Long.MAX_VALUE, round);
                m.put(Long.MAX_VALUE, (long) round);
            } else {
                t.delete(Long.MAX_VALUE);
                m.remove(Long.MAX_VALUE);
            }
            // Empty a stretch, so that walks cross where leaves were.
            long from = r.nextLong(-100_000, 90_000);
            for (Long k = m.ceilingKey(from); k != null && k < from + 10_000; k = m.higherKey(k)) {
                t.delete(k);
            }
            m.subMap(from, from + 10_000).clear();
            for (int q = 0; q < 300; q++) {
                long key = q < 4 ? new long[] {Long.MIN_VALUE, Long.MAX_VALUE, from, from + 5_000}[q]
                        : r.nextLong(-110_000, 110_000);
                for (int kind = 0; kind < 4; kind++) {
                    boolean above = kind < 2;
                    boolean inclusive = kind % 2 == 0;
                    assertTrue(OlcNeighbours.nearLocked(t, key, above, inclusive, p), "no lock can fail on one thread");
                    Long want = above ? inclusive ? m.ceilingKey(key) : m.higherKey(key)
                            : inclusive ? m.floorKey(key) : m.lowerKey(key);
                    String what = (above ? "above " : "below ") + key + (inclusive ? " inclusive" : "");
                    assertEquals(want != null, p.found, what);
                    if (want != null) {
                        assertEquals(want, p.key, what);
                        assertEquals(m.get(want), p.value, what);
                    }
                }
            }
            t.checkInvariants();
        }
    }
}
