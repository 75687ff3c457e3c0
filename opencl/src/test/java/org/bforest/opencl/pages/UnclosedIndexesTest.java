package org.bforest.opencl.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.TreeMap;
import org.bforest.NativeLongIndex;
import org.bforest.opencl.DeviceSearch;
import org.bforest.opencl.OpenClException;
import org.bforest.opencl.OpenClTesting;
import org.bforest.opencl.cl.ClDevice;
import org.bforest.opencl.cl.DeviceMemory;
import org.bforest.opencl.gpubtree.GpuBTrees;
import org.bforest.opencl.hybrid.HybridTrees;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A full device whose memory indexes nobody closed still hold: a bulk load and a write batch that
 * find no room ask for a garbage collection, whose Cleaner closes the unreachable indexes, and try
 * once more ({@link DeviceMemory}); with nothing to reclaim the batch fails as before, the tree
 * unchanged. The device's size is simulated: a limit on the bytes every buffer of the device's
 * context holds together (PoCL's memory is the host's).
 */
class UnclosedIndexesTest {
    private static final int KEYS = 60_000;

    private static NativeLongIndex create(String structure, ClDevice device, long[] keys) {
        return structure.equals("hybrid")
                ? HybridTrees.create(device, 64, DeviceSearch.DEFAULT, keys, keys)
                : GpuBTrees.create(device, 64, DeviceSearch.DEFAULT, keys, keys);
    }

    private static long[] keys(long from, int n) {
        long[] k = new long[n];
        for (int i = 0; i < n; i++) {
            k[i] = from + 3L * i;
        }
        return k;
    }

    /**
     * Builds an index ten times as large as the others (room for what a test's batch needs: its
     * scratch, and a page buffer's growth with the old one alive), uses it, and drops it unclosed.
     */
    private static void leak(String structure, ClDevice device) {
        NativeLongIndex t = create(structure, device, keys(1_000_000, 10 * KEYS));
        assertEquals(10 * KEYS, t.size());
    }

    /** Lets the device's buffers hold what they hold now and a little more (less than any test's batch needs). */
    private static void fullAfterThis(PagedTree probe) {
        long held = probe.cl.limitDeviceBytes(Long.MAX_VALUE);
        probe.cl.limitDeviceBytes(held + 16_384);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"gpu-btree", "hybrid"})
    void aFullDeviceGetsBackWhatUnclosedIndexesHeld(String structure) {
        ClDevice device = OpenClTesting.handle();
        try (NativeLongIndex small = create(structure, device, keys(0, 10))) {
            PagedTree probe = (PagedTree) small;
            try {
                // A bulk load: room for it only once the index before it is collected.
                leak(structure, device);
                fullAfterThis(probe);
                try (NativeLongIndex loaded = create(structure, device, keys(5, KEYS))) {
                    assertEquals(KEYS, loaded.size());
                    assertEquals(5 + 3L * 17, loaded.get(5 + 3L * 17, -1));
                    assertEquals(-1, loaded.get(6, -1), "a key never put");

                    // A write batch that has to grow its buffers, with another index leaked meanwhile.
                    probe.cl.limitDeviceBytes(Long.MAX_VALUE);
                    leak(structure, device);
                    fullAfterThis(probe);
                    long[] more = keys(7, KEYS / 2);
                    loaded.putAll(more, more);
                    TreeMap<Long, Long> model = new TreeMap<>();
                    for (long k : keys(5, KEYS)) {
                        model.put(k, k);
                    }
                    for (long k : more) {
                        model.put(k, k);
                    }
                    assertEquals(model.size(), loaded.size());
                    long[] probeKeys = {5, 7, 8, 5 + 3L * (KEYS - 1), 7 + 3L * (KEYS / 2 - 1), 6};
                    for (long k : probeKeys) {
                        assertEquals(model.getOrDefault(k, -1L), loaded.get(k, -1), structure + ": key " + k);
                    }

                    // Nothing left to reclaim: the batch fails as a full device's does, the tree unchanged.
                    fullAfterThis(probe);
                    long[] tooMany = keys(2_000_000, 8 * KEYS);
                    long before = System.nanoTime();
                    OpenClException e = assertThrows(OpenClException.class, () -> loaded.putAll(tooMany, tooMany));
                    assertTrue(DeviceMemory.outOfDeviceMemory(e), e.getMessage());
                    assertTrue(System.nanoTime() - before < 5_000_000_000L, "a reclaim waits a moment, not long");
                    assertEquals(model.size(), loaded.size());
                    assertEquals(-1, loaded.get(2_000_000, -1));
                    assertEquals(7, loaded.get(7, -1));
                }
            } finally {
                probe.cl.limitDeviceBytes(Long.MAX_VALUE);
            }
        }
    }
}
