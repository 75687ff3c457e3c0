package org.bforest.opencl.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.bforest.NativeLongIndex;
import org.bforest.contract.IndexAssertions;
import org.bforest.opencl.DeviceSearch;
import org.bforest.opencl.OpenClTesting;
import org.bforest.opencl.cl.ClDevice;
import org.bforest.opencl.gpubtree.GpuBTrees;
import org.bforest.opencl.hybrid.HybridTrees;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Both paged trees (the GPU B+-tree, the hybrid) under random batches against TreeMap, on PoCL here. */
class BatchesTest {
    private static final long ABSENT = 0x7eadbeefL;

    /**
     * Random batches of puts, removes and look-ups (absent keys, repeats inside a batch, the
     * extremes) and single-key operations against TreeMap, on pages small enough that every batch
     * splits pages at several levels, with the invariants checked after each batch.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"gpu-btree", "hybrid", "gpu-btree AS_GIVEN 8", "hybrid SORTED 4", "gpu-btree SORTED 64",
            "hybrid PARTIAL 16", "gpu-btree PARTIAL 1 1", "hybrid PARTIAL 1 1", "gpu-btree AS_GIVEN 1 7",
            "hybrid SORTED 1 3"})
    void batchedUpdatesMatchTreeMap(String variant) {
        // "structure [order group [lanes]]": the default device search, or the one named (lanes 1:
        // the one-query kernels as a GPU runs them; an odd count: batches that end mid-work-item)
        String[] words = variant.split(" ");
        String structure = words[0];
        DeviceSearch search = words.length == 1 ? DeviceSearch.DEFAULT
                : new DeviceSearch(DeviceSearch.QueryOrder.valueOf(words[1]), Integer.parseInt(words[2]),
                        words.length > 3 ? Integer.parseInt(words[3]) : DeviceSearch.DEVICE_LANES);
        ClDevice device = OpenClTesting.handle();
        long seed = Long.getLong("bforest.seed", Boolean.getBoolean("bforest.soak") ? System.nanoTime() : 0x5EED_17L);
        SplittableRandom r = new SplittableRandom(seed);
        for (int pageKeys : new int[] {2, 64, 200}) {
            TreeMap<Long, Long> model = new TreeMap<>();
            long span = 1 + r.nextInt(3_000);
            try (NativeLongIndex t = structure.equals("hybrid") ? HybridTrees.create(device, pageKeys, search, new long[0], null)
                    : GpuBTrees.create(device, pageKeys, search, new long[0], null)) {
                if (pageKeys == 64) {
                    // Merges and visit-all launches of at most 150 entries: batches span many launches.
                    ((PagedTree) t).limitLaunches(150);
                }
                for (int round = 0; round < 40; round++) {
                    String at = variant + ", seed " + seed + " (-Dbforest.seed), page keys " + pageKeys + ", round " + round;
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
                    if (round % 8 == 7 || pageKeys > 8) {
                        IndexAssertions.checkInvariants(t);   // it reads the tree back: with tiny pages, thousands of transfers
                    }
                    long[] got = new long[n];
                    t.getAll(keys, got, ABSENT);
                    for (int i = 0; i < n; i++) {
                        assertEquals(want(model, keys[i]), got[i], at + ": getAll of " + keys[i]);
                    }
                    // The batch's keys as range bounds, paired at random: short, long, empty, inverted ranges.
                    long[] to = new long[n];
                    for (int i = 0; i < n; i++) {
                        to[i] = keys[r.nextInt(n)] + r.nextInt(3) - 1;
                    }
                    long[] counts = new long[n];
                    t.rangeCountAll(keys, to, counts);
                    for (int i = 0; i < n; i++) {
                        long want = keys[i] < to[i] ? model.subMap(keys[i], true, to[i], false).size() : 0;
                        assertEquals(want, counts[i], at + ": rangeCountAll of [" + keys[i] + ", " + to[i] + ")");
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
                    if (round == 20) {
                        t.clear();
                        model.clear();
                        IndexAssertions.checkInvariants(t);
                    }
                }
                IndexAssertions.checkInvariants(t);
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
}
