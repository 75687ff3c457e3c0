package org.bforest.opencl.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.bforest.NativeLongIndex;
import org.bforest.contract.IndexAssertions;
import org.bforest.opencl.DeviceSearch;
import org.bforest.opencl.OpenClException;
import org.bforest.opencl.OpenClTesting;
import org.bforest.opencl.cl.ClDevice;
import org.bforest.opencl.gpubtree.GpuBTrees;
import org.bforest.opencl.hybrid.HybridTrees;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A device out of memory in the middle of a batch: the batch fails with an
 * {@link OpenClException} and the tree is exactly as it was before it ("device memory
 * exhausted ... the index unchanged"). PoCL's memory is the host's, so the device's limit is
 * simulated: allocations past a byte limit fail as {@code clCreateBuffer} does.
 */
class DeviceMemoryTest {
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"gpu-btree", "hybrid"})
    void aBatchThatCannotGetItsMemoryLeavesTheTreeAsItWas(String structure) {
        ClDevice device = OpenClTesting.handle();
        SplittableRandom r = new SplittableRandom(0x0DDL);
        for (int pageKeys : new int[] {4, 32}) {
            TreeMap<Long, Long> model = new TreeMap<>();
            try (NativeLongIndex t = structure.equals("hybrid")
                    ? HybridTrees.create(device, pageKeys, DeviceSearch.DEFAULT, new long[0], null)
                    : GpuBTrees.create(device, pageKeys, DeviceSearch.DEFAULT, new long[0], null)) {
                PagedTree tree = (PagedTree) t;
                if (pageKeys == 32) {
                    tree.limitLaunches(40);   // many launches a batch: a failure can fall between two of them
                }
                int failedPuts = 0;
                int failedRemoves = 0;
                for (int round = 0; round < 60; round++) {
                    String at = structure + ", page keys " + pageKeys + ", round " + round;
                    // A little room beyond what the tree holds now: small batches fit, large ones do not.
                    tree.limitDeviceBytes(tree.deviceBytes() + r.nextInt(16_384));
                    // Batches that grow, so that buffers keep having to grow: the failures fall at
                    // every point where a batch allocates (its queries, pages, each launch's scratch).
                    int n = 1 + r.nextInt(50 + 40 * round);
                    long[] keys = r.longs(n, -50_000, 50_000).toArray();
                    boolean put = r.nextInt(3) != 0;
                    try {
                        if (put) {
                            long[] values = r.longs(n).toArray();
                            t.putAll(keys, values);
                            for (int i = 0; i < n; i++) {
                                model.put(keys[i], values[i]);
                            }
                        } else {
                            long removed = t.removeAll(keys);
                            long want = 0;
                            for (long k : keys) {
                                want += model.remove(k) != null ? 1 : 0;
                            }
                            assertEquals(want, removed, at);
                        }
                    } catch (OpenClException e) {
                        assertEquals(-4, e.status(), at + ": " + e.getMessage());
                        if (put) {
                            failedPuts++;
                        } else {
                            failedRemoves++;
                        }
                    }
                    tree.limitDeviceBytes(Long.MAX_VALUE);   // reading the tree back needs scratch too
                    assertSame(model, t, at);
                }
                assertTrue(failedPuts > 3, structure + ", page keys " + pageKeys + ": only " + failedPuts
                        + " put batches ran out of memory: the test does not test");
                assertTrue(failedRemoves + failedPuts > 5, structure + ": too few failures");
            }
        }
    }

    /** The tree holds exactly the model's entries, and its invariants hold (shared with {@link DeviceFailureTest}). */
    static void assertSame(TreeMap<Long, Long> model, NativeLongIndex t, String at) {
        IndexAssertions.checkInvariants(t);
        assertEquals(model.size(), t.size(), at + ": size");
        List<long[]> seen = new ArrayList<>();
        t.forEach((k, v) -> seen.add(new long[] {k, v}));
        assertEquals(model.size(), seen.size(), at + ": forEach");
        int i = 0;
        for (var e : model.entrySet()) {
            long[] kv = seen.get(i++);
            if (kv[0] != e.getKey() || kv[1] != e.getValue()) {
                fail(at + ": entry " + (i - 1) + " is " + kv[0] + "=" + kv[1] + ", expected " + e);
            }
        }
    }
}
