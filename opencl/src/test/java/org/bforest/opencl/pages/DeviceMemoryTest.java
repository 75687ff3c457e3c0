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

    /**
     * A page buffer grows one buffer at a time: the new keys' buffer is filled and the old one
     * released before the values' new one is allocated, so a growth needs room for both new ones
     * less the old keys' (allocating both before releasing either needed room for both beside the
     * old ones: this test's limit refuses that). Where the keys' buffer has grown
     * and the values' finds no room, the batch fails, the tree whole, and the next growth enlarges
     * the values' buffer alone.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"gpu-btree", "hybrid"})
    void aPageBufferGrowsOneBufferAtATime(String structure) {
        ClDevice device = OpenClTesting.handle();
        int pageKeys = 64;
        long[] keys = new long[20_000];
        TreeMap<Long, Long> model = new TreeMap<>();
        for (int i = 0; i < keys.length; i++) {
            keys[i] = 3L * i;
            model.put(keys[i], keys[i]);
        }
        try (NativeLongIndex t = structure.equals("hybrid")
                ? HybridTrees.create(device, pageKeys, DeviceSearch.DEFAULT, keys, keys)
                : GpuBTrees.create(device, pageKeys, DeviceSearch.DEFAULT, keys, keys)) {
            PagedTree tree = (PagedTree) t;
            PageStore store = tree.store;
            long pageBytes = 8L * pageKeys;
            synchronized (store.lock) {
                // Room for both new leaf buffers (grown by half) less the old keys' buffer.
                int capacity = store.leafCapacity;
                int grown = capacity + capacity / 2 + 1;
                long before = store.pageBytes();
                tree.limitDeviceBytes(store.bytes() + pageBytes * (2L * grown - capacity));
                store.ensure(capacity + 1, store.innerIds.top());
                assertEquals(grown, store.leafCapacity, "grown by half");
                assertEquals(before + 2 * pageBytes * (grown - capacity), store.pageBytes());

                // Room for the keys' new buffer only: the values' growth fails, the tree whole.
                capacity = store.leafCapacity;
                grown = capacity + capacity / 2 + 1;
                tree.limitDeviceBytes(store.bytes() + pageBytes * grown);
                before = store.pageBytes();
                try {
                    store.ensure(capacity + 1, store.innerIds.top());
                    fail(structure + ": the values' buffer found room it should not have");
                } catch (OpenClException e) {
                    assertEquals(-4, e.status(), e.getMessage());
                }
                assertEquals(capacity, store.leafCapacity, "the capacity both buffers hold");
                assertEquals(before + pageBytes * (grown - capacity), store.pageBytes(), "the keys' buffer grown");
            }
            tree.limitDeviceBytes(Long.MAX_VALUE);
            assertSame(model, t, structure + ", the keys' buffer grown alone");
            synchronized (store.lock) {
                int capacity = store.leafCapacity;
                int grown = capacity + capacity / 2 + 1;
                long before = store.pageBytes();
                // The values' buffer alone grows now: room for it and nothing more.
                tree.limitDeviceBytes(store.bytes() + pageBytes * grown);
                store.ensure(capacity + 1, store.innerIds.top());
                assertEquals(grown, store.leafCapacity);
                assertEquals(before + pageBytes * (grown - capacity), store.pageBytes(), "the values' buffer grown");
            }
            tree.limitDeviceBytes(Long.MAX_VALUE);
            assertSame(model, t, structure + ", both grown");
            long[] more = {1, 2, 4, 5};
            t.putAll(more, more);
            for (long k : more) {
                model.put(k, k);
            }
            assertSame(model, t, structure + ", after a batch");
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
