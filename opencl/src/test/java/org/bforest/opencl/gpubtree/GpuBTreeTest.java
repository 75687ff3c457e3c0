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

    /**
     * A delete that empties leaves under hundreds of inner pages writes each of those pages back
     * after the batch's point of no return: the pinned staging for it is reserved before (with
     * assertions on, as the tests run, pinned memory allocated past that point fails the batch),
     * and the tree then holds what it should.
     */
    @Test
    void aDeleteThatChangesManyInnerPagesReservesTheirWriteBackFirst() {
        ClDevice device = OpenClTesting.handle();
        long[] keys = new long[20_000];
        Arrays.setAll(keys, i -> 10L * i);
        // One key a leaf (64-key pages filled to 1/64): 20,000 leaves under 308 inner pages of ~65.
        try (GpuBTree t = GpuBTree.bulkLoad(device, keys, keys, 64, 1.0 / 64)) {
            assertEquals(3, t.height());
            // Every 32nd key: two leaves emptied under every inner page, each page written back
            // (about 256 KB of staging against a few KB for the leaves' own jobs).
            long[] gone = new long[keys.length / 32];
            Arrays.setAll(gone, i -> keys[32 * i]);
            assertEquals(gone.length, t.removeAll(gone));
            assertEquals(keys.length - gone.length, t.size());
            long[] got = new long[keys.length];
            t.getAll(keys, got, ABSENT);
            for (int i = 0; i < keys.length; i++) {
                assertEquals(i % 32 == 0 ? ABSENT : keys[i], got[i], "key " + keys[i]);
            }
            org.bforest.contract.IndexAssertions.checkInvariants(t, "after the delete");
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
