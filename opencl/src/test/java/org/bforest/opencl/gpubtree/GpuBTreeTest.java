package org.bforest.opencl.gpubtree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.bforest.opencl.OpenClTesting;
import org.bforest.opencl.cl.ClDevice;
import org.junit.jupiter.api.Test;

/** The GPU B+-tree's read path on a device (PoCL here) against TreeMap: heights 0 to 4, the extremes. */
class GpuBTreeTest {
    private static final long ABSENT = 0x7eadbeefL;

    @Test
    void batchedLookupsMatchTreeMapAtEveryHeight() {
        ClDevice device = OpenClTesting.handle();
        long seed = System.nanoTime();
        SplittableRandom r = new SplittableRandom(seed);
        // page keys, keys: from a single leaf up to four inner levels
        int[][] shapes = {{4, 3}, {2, 40}, {4, 2000}, {16, 20_000}, {64, 100_000}, {2048, 300_000}};
        for (int[] shape : shapes) {
            int pageKeys = shape[0];
            int n = shape[1];
            TreeMap<Long, Long> model = new TreeMap<>();
            while (model.size() < n) {
                long k = switch (r.nextInt(10)) {
                    case 0 -> Long.MIN_VALUE + r.nextInt(3);
                    case 1 -> Long.MAX_VALUE - r.nextInt(3);
                    default -> r.nextLong();
                };
                model.put(k, r.nextLong());
            }
            long[] keys = model.keySet().stream().mapToLong(Long::longValue).toArray();
            long[] values = model.values().stream().mapToLong(Long::longValue).toArray();
            double fill = r.nextBoolean() ? 1.0 : 0.75;
            try (GpuBTree t = GpuBTree.bulkLoad(device, keys, values, pageKeys, fill)) {
                String at = "seed " + seed + ", page keys " + pageKeys + ", " + n + " keys, fill " + fill
                        + ", height " + t.height();
                assertEquals(n, t.size(), at);
                int q = 3 * n + 10;
                long[] queries = new long[q];
                for (int i = 0; i < q; i++) {
                    queries[i] = switch (r.nextInt(6)) {
                        case 0 -> keys[r.nextInt(n)];
                        case 1 -> keys[r.nextInt(n)] + (r.nextBoolean() ? 1 : -1);
                        case 2 -> r.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE;
                        default -> r.nextLong();
                    };
                }
                long[] got = new long[q];
                t.getAll(queries, got, ABSENT);
                for (int i = 0; i < q; i++) {
                    Long want = model.get(queries[i]);
                    assertEquals(want == null ? ABSENT : want, got[i], at + ", query " + i + " = " + queries[i]);
                }
                assertEquals(want(model, keys[0]), t.get(keys[0], ABSENT), at);
                t.checkInvariants();
            }
        }
    }

    /**
     * Random batches of puts, removes and look-ups (absent keys, repeats inside a batch, the
     * extremes) and single-key operations against TreeMap, on pages small enough that every batch
     * splits pages at several levels, with the invariants checked after each batch.
     */
    @Test
    void batchedUpdatesMatchTreeMap() {
        ClDevice device = OpenClTesting.handle();
        long seed = Long.getLong("bforest.seed", System.nanoTime());
        SplittableRandom r = new SplittableRandom(seed);
        for (int pageKeys : new int[] {2, 5, 64, 200}) {
            TreeMap<Long, Long> model = new TreeMap<>();
            long span = 1 + r.nextInt(5_000);
            try (GpuBTree t = GpuBTree.bulkLoad(device, new long[0], null, pageKeys, 1.0)) {
                for (int round = 0; round < 60; round++) {
                    String at = "seed " + seed + " (-Dbforest.seed), page keys " + pageKeys + ", round " + round;
                    int n = r.nextInt(round % 10 == 9 ? 3_000 : 200) + 1;
                    long[] keys = new long[n];
                    for (int i = 0; i < n; i++) {
                        keys[i] = switch (r.nextInt(12)) {
                            case 0 -> Long.MIN_VALUE + r.nextInt(2);
                            case 1 -> Long.MAX_VALUE - r.nextInt(2);
                            case 2 -> i > 0 ? keys[i - 1] : 0;   // a repeat inside the batch
                            default -> r.nextLong(span) - span / 2;
                        };
                    }
                    switch (r.nextInt(4)) {
                        case 0, 1 -> {
                            long[] values = r.longs(n).toArray();
                            t.putAll(keys, values);
                            for (int i = 0; i < n; i++) {
                                model.put(keys[i], values[i]);
                            }
                        }
                        case 2 -> {
                            long removed = t.removeAll(keys);
                            long want = 0;
                            for (long k : keys) {
                                want += model.remove(k) != null ? 1 : 0;
                            }
                            assertEquals(want, removed, at + ": removeAll's count");
                        }
                        default -> {
                            for (int i = 0; i < Math.min(n, 20); i++) {
                                long k = keys[i];
                                if (r.nextBoolean()) {
                                    long v = r.nextLong();
                                    Long old = model.put(k, v);
                                    assertEquals(old == null ? t.defaultReturnValue() : old, t.put(k, v), at + ": put " + k);
                                } else {
                                    Long old = model.remove(k);
                                    assertEquals(old == null ? t.defaultReturnValue() : old, t.remove(k), at + ": remove " + k);
                                }
                            }
                        }
                    }
                    assertEquals(model.size(), t.size(), at);
                    if (round % 4 == 3 || pageKeys > 8) {
                        t.checkInvariants();   // it reads the tree back: with tiny pages, thousands of transfers
                    }
                    long[] got = new long[n];
                    t.getAll(keys, got, ABSENT);
                    for (int i = 0; i < n; i++) {
                        assertEquals(want(model, keys[i]), got[i], at + ": getAll of " + keys[i]);
                    }
                    if (!model.isEmpty()) {
                        assertEquals(model.firstKey(), t.firstKey(), at);
                        assertEquals(model.lastKey(), t.lastKey(), at);
                        long probe = r.nextLong(span) - span / 2;
                        Long c = model.ceilingKey(probe);
                        assertEquals(c == null ? ABSENT : c, t.ceilingKey(probe, ABSENT), at + ": ceiling " + probe);
                        Long f = model.floorKey(probe);
                        assertEquals(f == null ? ABSENT : f, t.floorKey(probe, ABSENT), at + ": floor " + probe);
                        assertEquals(model.subMap(-span / 4, true, span / 4, false).size(), t.rangeCount(-span / 4, span / 4),
                                at + ": rangeCount");
                    }
                    if (round == 30) {
                        t.clear();
                        model.clear();
                        t.checkInvariants();
                    }
                }
                t.checkInvariants();
                long[] all = new long[(int) t.size()];
                int[] i = {0};
                t.forEach((k, v) -> all[i[0]++] = k);
                assertEquals(model.keySet().stream().mapToLong(Long::longValue).boxed().toList(),
                        Arrays.stream(all).boxed().toList(), "seed " + seed + ", page keys " + pageKeys + ": forEach");
            }
        }
    }

    private static long want(TreeMap<Long, Long> model, long k) {
        Long v = model.get(k);
        return v == null ? ABSENT : v;
    }

    @Test
    void theShapeIsABPlusTreeOfTheGivenPages() {
        ClDevice device = OpenClTesting.handle();
        long[] keys = new long[1000];
        Arrays.setAll(keys, i -> 10L * i);
        try (GpuBTree t = GpuBTree.bulkLoad(device, keys, null, 8, 1.0)) {
            // 125 full leaves; 9 children a page: 14 pages, then 2, then the root.
            assertEquals(125, t.leafPages());
            assertEquals(3, t.height());
            assertEquals(14 + 2 + 1, t.innerPages());
            long[] got = new long[3];
            t.getAll(new long[] {0, 9990, 5}, got, -1);
            assertEquals(0, got[0]);
            assertEquals(0, got[1]);
            assertEquals(-1, got[2]);
        }
        try (GpuBTree empty = GpuBTree.bulkLoad(device, new long[0], null, 8, 1.0)) {
            assertEquals(0, empty.size());
            assertEquals(-1, empty.get(Long.MAX_VALUE, -1));
            assertEquals(-1, empty.get(0, -1));
            empty.getAll(new long[0], new long[0], -1);
        }
    }

    @Test
    void badInputIsRefusedBeforeAnythingReachesTheDevice() {
        ClDevice device = OpenClTesting.handle();
        assertThrows(IllegalArgumentException.class, () -> GpuBTree.bulkLoad(device, new long[] {2, 1}, null, 8, 1));
        assertThrows(IllegalArgumentException.class, () -> GpuBTree.bulkLoad(device, new long[] {1, 1}, null, 8, 1));
        assertThrows(IllegalArgumentException.class, () -> GpuBTree.bulkLoad(device, new long[] {1}, new long[2], 8, 1));
        assertThrows(IllegalArgumentException.class, () -> GpuBTree.bulkLoad(device, new long[] {1}, null, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> GpuBTree.bulkLoad(device, new long[] {1}, null, 8, 0));
        try (GpuBTree t = GpuBTree.bulkLoad(device, new long[] {1, 2}, null, 8, 1)) {
            assertThrows(IllegalArgumentException.class, () -> t.getAll(new long[2], new long[1], 0));
            assertThrows(NullPointerException.class, () -> t.getAll(null, new long[1], 0));
        }
    }

    @Test
    void closingReleasesTheDeviceMemoryAndForbidsUse() {
        ClDevice device = OpenClTesting.handle();
        GpuBTree t = GpuBTree.bulkLoad(device, new long[] {1, 2, 3}, new long[] {4, 5, 6}, 2, 1);
        assertEquals(5, t.get(2, -1));
        assertTrue(t.deviceBuffers() >= 4);
        t.close();
        assertEquals(0, t.deviceBuffers());
        assertThrows(IllegalStateException.class, () -> t.get(2, -1));
        t.close();
    }
}
