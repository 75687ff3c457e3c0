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
 * device the tests run on), and in one chunk: every answer where the caller asked for it, across
 * chunk boundaries, batches of odd sizes, repeated keys, {@code Long.MAX_VALUE}, and writes
 * between batches. Batches this large are ordered, descended (the hybrid) and answered in parts
 * on several host threads ({@link HostWork}).
 */
class PipelinedLookUpTest {
    @ParameterizedTest(name = "{0}, pipelined {1}")
    @CsvSource({"gpu-btree, true", "hybrid, true", "gpu-btree, false", "hybrid, false"})
    void twoChunksInFlightAnswerEveryKey(String structure, boolean pipelined) {
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
            ((PagedTree) t).pipelineLookUps(pipelined);
            t.put(Long.MAX_VALUE, 42);
            model.put(Long.MAX_VALUE, 42L);
            for (int round = 0; round < 6; round++) {
                int n = switch (round) {
                    case 0 -> 1 << 17;            // exactly the least pipelined batch
                    case 1 -> (1 << 17) + 1;      // halves of unequal size
                    case 2 -> 300_001;
                    default -> 131_072 + r.nextInt(200_000);
                };
                long[] q = new long[n];
                for (int i = 0; i < n; i++) {
                    q[i] = switch (r.nextInt(8)) {
                        case 0 -> Long.MAX_VALUE;
                        case 1, 2 -> r.nextLong(-500_000, 700_000);   // mostly absent
                        default -> keys[r.nextInt(keys.length)];      // present, repeats
                    };
                }
                long[] got = new long[n];
                t.getAll(q, got, -7);
                for (int i = 0; i < n; i++) {
                    Long want = model.get(q[i]);
                    assertEquals(want == null ? -7 : want, got[i], structure + ", round " + round + ", query " + i
                            + " (" + q[i] + "), pipelined " + pipelined + ", seed " + seed);
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
