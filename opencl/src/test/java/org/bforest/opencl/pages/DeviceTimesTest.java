package org.bforest.opencl.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.bforest.opencl.DeviceIndex;
import org.bforest.opencl.DeviceSearch;
import org.bforest.opencl.DeviceTimes;
import org.bforest.opencl.OpenClTesting;
import org.bforest.opencl.gpubtree.GpuBTrees;
import org.bforest.opencl.hybrid.HybridTrees;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Where a tree's batches spend their time: counted per batch call, device time from the profiling events. */
class DeviceTimesTest {
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"gpu-btree", "hybrid"})
    void batchesAreTimedAndTheirPartsAddUp(String structure) {
        var device = OpenClTesting.handle();
        long[] keys = new long[50_000];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = 3L * i;
        }
        try (DeviceIndex t = structure.equals("hybrid")
                ? HybridTrees.create(device, 64, DeviceSearch.DEFAULT, keys, keys)
                : GpuBTrees.create(device, 64, DeviceSearch.DEFAULT, keys, keys)) {
            t.resetDeviceTimes();
            assertEquals(new DeviceTimes(0, 0, 0, 0, 0, 0, 0), t.deviceTimes());
            SplittableRandom r = new SplittableRandom(7);
            long[] q = r.longs(20_000, 0, 200_000).toArray();
            t.getAll(q, new long[q.length], -1);
            t.putAll(q, q);
            t.removeAll(q);
            t.rangeCountAll(new long[] {0, 10}, new long[] {100, 5}, new long[2]);
            DeviceTimes d = t.deviceTimes();
            assertEquals(4, d.batches(), d.toString());
            assertTrue(d.batchNanos() > 0 && d.hostNanos() >= 0 && d.hostNanos() <= d.batchNanos(), d.toString());
            assertTrue(d.kernelNanos() > 0 && d.transferNanos() > 0, d.toString());
            assertTrue(d.hostShare() >= 0 && d.hostShare() <= 1, d.toString());
            // The driver's calls that do not wait are part of the host's time; every batch made some.
            assertTrue(d.driverNanos() > 0 && d.driverNanos() <= d.hostNanos(), d.toString());
            assertTrue(d.deviceCalls() >= 4 * 2, d.toString());
            t.get(5);   // a single operation: device time, no batch
            DeviceTimes after = t.deviceTimes();
            assertEquals(4, after.batches());
            assertTrue(after.kernelNanos() > d.kernelNanos(), after.toString());
            DeviceTimes between = after.minus(d);
            assertEquals(0, between.batches());
            assertEquals(0, between.deviceCalls(), "a single operation's calls are no batch's");
            assertEquals(0, between.driverNanos());
            t.resetDeviceTimes();
            assertEquals(0, t.deviceTimes().batches());
            assertEquals(0, t.deviceTimes().deviceCalls());
            assertTrue(t.deviceBytes() > 16L * keys.length, "device bytes " + t.deviceBytes());
        }
    }
}
