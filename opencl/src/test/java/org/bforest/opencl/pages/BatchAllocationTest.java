package org.bforest.opencl.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.bforest.NativeLongIndex;
import org.bforest.opencl.DeviceSearch;
import org.bforest.opencl.OpenClTesting;
import org.bforest.opencl.cl.ClDevice;
import org.bforest.opencl.gpubtree.GpuBTrees;
import org.bforest.opencl.hybrid.HybridTrees;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Update batches reuse their host arrays ({@link BatchPlan}): once a tree has seen a batch of a
 * size, the next ones of up to that size allocate next to nothing on the heap (measured over every
 * thread, the host workers' included), where each used to allocate about 60 bytes a key. The
 * batches are large enough for the sort's parts, of sizes going up and down and with repeated
 * keys, so that arrays kept from a larger batch still hold its keys; every answer is checked
 * against a model.
 */
class BatchAllocationTest {
    private static final int KEYS = 200_000;
    private static final int BATCH = 100_000;
    /** Heap bytes a key a batch may allocate once its arrays are kept (it was about 60). */
    private static final double MOST_BYTES_A_KEY = 4;

    /**
     * Heap bytes every thread has allocated so far: the JDK's thread MXBean's attribute, read by
     * name (its interface's module is not one the tests read); -1 where the JVM does not count.
     */
    private static long allocated() {
        try {
            Object bytes = ManagementFactory.getPlatformMBeanServer()
                    .getAttribute(new javax.management.ObjectName(ManagementFactory.THREAD_MXBEAN_NAME),
                            "TotalThreadAllocatedBytes");
            return bytes instanceof Long l ? l : -1;
        } catch (javax.management.JMException | RuntimeException e) {
            return -1;
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"gpu-btree", "hybrid"})
    void batchesAfterTheFirstAllocateNextToNothing(String structure) {
        assumeTrue(allocated() >= 0, "this JVM does not count the bytes its threads allocate");
        ClDevice device = OpenClTesting.handle();
        SplittableRandom r = new SplittableRandom(0xA110CL);
        long[] keys = new long[KEYS];
        for (int i = 0; i < KEYS; i++) {
            keys[i] = 4L * i;
        }
        TreeMap<Long, Long> model = new TreeMap<>();
        for (long k : keys) {
            model.put(k, k);
        }
        try (NativeLongIndex t = structure.equals("hybrid")
                ? HybridTrees.create(device, 256, DeviceSearch.DEFAULT, keys, keys)
                : GpuBTrees.create(device, 256, DeviceSearch.DEFAULT, keys, keys)) {
            long before = t.memoryBytes();
            round(t, model, r, BATCH);   // the first: its arrays are allocated and kept
            assertTrue(t.memoryBytes() - before >= 24L * BATCH,
                    "the kept arrays count in the memory figure: " + before + " -> " + t.memoryBytes());
            for (int size : new int[] {BATCH, 70_000, BATCH}) {
                double perKey = (double) round(t, model, r, size) / (3 * size);
                assertTrue(perKey <= MOST_BYTES_A_KEY, String.format(
                        "%s: a batch of %,d keys allocated %.1f bytes a key (at most %.0f)", structure, size, perKey,
                        MOST_BYTES_A_KEY));
            }
            assertEquals(model.size(), t.size());
            for (var e : model.entrySet()) {
                assertEquals(e.getValue(), t.get(e.getKey(), -1), "key " + e.getKey());
            }
            t.clear();
            assertEquals(0, t.size());
        }
    }

    /**
     * A putAll of {@code size} keys (half there, a tenth repeated: the last value wins), a removeAll
     * of {@code size} (half there, repeats) and a getAll, checked against {@code model}; returns
     * the heap bytes the three calls allocated.
     */
    private static long round(NativeLongIndex t, TreeMap<Long, Long> model, SplittableRandom r, int size) {
        long[] k = new long[size];
        long[] v = new long[size];
        for (int i = 0; i < size; i++) {
            k[i] = i > 0 && r.nextInt(10) == 0 ? k[r.nextInt(i)] : 2L * r.nextInt(2 * KEYS);
            v[i] = r.nextLong();
        }
        long a0 = allocated();
        t.putAll(k, v);
        long bytes = allocated() - a0;
        for (int i = 0; i < size; i++) {
            model.put(k[i], v[i]);
        }
        long[] gone = new long[size];
        for (int i = 0; i < size; i++) {
            gone[i] = i > 0 && r.nextInt(10) == 0 ? gone[r.nextInt(i)] : 2L * r.nextInt(2 * KEYS) + 1 - r.nextInt(2);
        }
        a0 = allocated();
        long removed = t.removeAll(gone);
        bytes += allocated() - a0;
        long expected = 0;
        for (long g : gone) {
            expected += model.remove(g) != null ? 1 : 0;
        }
        assertEquals(expected, removed, "keys removed");
        long[] out = new long[size];
        a0 = allocated();
        t.getAll(k, out, -1);
        bytes += allocated() - a0;
        for (int i = 0; i < size; i++) {
            assertEquals(model.getOrDefault(k[i], -1L), out[i], "getAll of " + k[i]);
        }
        return bytes;
    }
}
