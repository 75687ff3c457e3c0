package org.bforest.opencl.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import java.util.TreeMap;
import org.bforest.opencl.DeviceIndex;
import org.bforest.opencl.DeviceSearch;
import org.bforest.opencl.OpenClTesting;
import org.bforest.opencl.gpubtree.GpuBTrees;
import org.bforest.opencl.hybrid.HybridTrees;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Look-up batches with two chunks in flight (what a GPU gets by default; forced here on whatever
 * device the tests run on), and in one chunk; ordered by the host or by the device (a GPU's
 * default), the device's buckets as fine as they come or only 16 of them (leaf ids shifted, for
 * the hybrid): every answer where the caller asked for it, across chunk boundaries, batches of
 * odd sizes (small ones too), repeated keys, {@code Long.MIN_VALUE} and {@code Long.MAX_VALUE},
 * and writes between batches. Batches this large are ordered, descended (the hybrid) and
 * answered in parts on several host threads ({@link HostWork}).
 */
class PipelinedLookUpTest {
    @ParameterizedTest(name = "{0}, pipelined {1}, ordered on the device {2}, bucket bits {3}")
    @CsvSource({"gpu-btree, true, false, 16", "hybrid, true, false, 16", "gpu-btree, false, false, 16",
            "hybrid, false, false, 16", "gpu-btree, true, true, 16", "hybrid, true, true, 16",
            "gpu-btree, false, true, 16", "hybrid, false, true, 16", "gpu-btree, true, true, 4",
            "hybrid, false, true, 4"})
    void twoChunksInFlightAnswerEveryKey(String structure, boolean pipelined, boolean deviceOrders, int bucketBits) {
        long seed = Long.getLong("bforest.pipeline.seed", 0x919EL);
        SplittableRandom r = new SplittableRandom(seed);
        long[] keys = new long[200_000];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = 5L * i - 400_000;
        }
        TreeMap<Long, Long> model = new TreeMap<>();
        for (long k : keys) {
            model.put(k, ~k);
        }
        long[] values = keys.clone();
        for (int i = 0; i < values.length; i++) {
            values[i] = ~values[i];
        }
        var device = OpenClTesting.handle();
        try (DeviceIndex t = structure.equals("hybrid")
                ? HybridTrees.create(device, 64, DeviceSearch.DEFAULT, keys, values)
                : GpuBTrees.create(device, 64, DeviceSearch.DEFAULT, keys, values)) {
            LookUpBatches lookUps = ((PagedTree) t).lookUps();
            lookUps.pipelined = pipelined;
            lookUps.deviceOrders = deviceOrders;
            lookUps.bucketBits = bucketBits;
            t.put(Long.MAX_VALUE, 42);
            model.put(Long.MAX_VALUE, 42L);
            for (int round = 0; round < 9; round++) {
                int n = switch (round) {
                    case 0 -> 1 << 17;            // exactly the least pipelined batch
                    case 1 -> (1 << 17) + 1;      // halves of unequal size
                    case 2 -> 300_001;
                    case 3 -> 64;                 // the least batch that is ordered
                    case 4 -> 1_000;
                    case 5 -> 70_001;             // parts on several host threads, one chunk
                    default -> 131_072 + r.nextInt(200_000);
                };
                long[] q = new long[n];
                for (int i = 0; i < n; i++) {
                    q[i] = switch (r.nextInt(9)) {
                        case 0 -> Long.MAX_VALUE;
                        case 8 -> Long.MIN_VALUE;     // with MAX_VALUE, the range spans 2^64 - 1
                        case 1, 2 -> r.nextLong(-500_000, 700_000);   // mostly absent
                        default -> keys[r.nextInt(keys.length)];      // present, repeats
                    };
                }
                long[] got = new long[n];
                t.getAll(q, got, -7);
                for (int i = 0; i < n; i++) {
                    Long want = model.get(q[i]);
                    assertEquals(want == null ? -7 : want, got[i], structure + ", round " + round + ", query " + i
                            + " (" + q[i] + "), pipelined " + pipelined + ", ordered on the device " + deviceOrders
                            + ", bucket bits " + bucketBits + ", seed " + seed);
                }
                // A write between batches: the query slots are the batch's, the tree moves on.
                long[] fresh = r.longs(5_000, -500_000, 700_000).toArray();
                t.putAll(fresh, fresh);
                for (long k : fresh) {
                    model.put(k, k);
                }
            }
            assertEquals(model.size(), t.size());
        }
    }
}
