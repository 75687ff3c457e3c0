package org.bforest.bench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.bforest.LongIndex;
import org.bforest.bench.structures.IndexAdapter;
import org.bforest.bench.workloads.Operations;
import org.bforest.opencl.DeviceIndex;
import org.bforest.opencl.DeviceTimes;
import org.junit.jupiter.api.Test;

/** The runner's device hooks against a fake {@link DeviceIndex}: reset before a run, read after, medians per batch. */
class DevicePhasesTest {

    /** A DeviceIndex that answers deviceBytes, deviceTimes (the next of {@code times}) and resetDeviceTimes. */
    static final class FakeDevice {
        final List<String> calls = new ArrayList<>();
        final DeviceTimes[] times;
        int next;
        final DeviceIndex index;

        FakeDevice(DeviceTimes... times) {
            this.times = times;
            index = (DeviceIndex) Proxy.newProxyInstance(DeviceIndex.class.getClassLoader(),
                    new Class<?>[] {DeviceIndex.class}, (proxy, m, args) -> {
                        calls.add(m.getName());
                        return switch (m.getName()) {
                            case "deviceBytes" -> 8_000L;
                            case "deviceTimes" -> this.times[next++];
                            case "resetDeviceTimes" -> null;
                            case "size" -> 1000L;
                            case "toString" -> "fake device index";
                            case "hashCode" -> System.identityHashCode(proxy);
                            case "equals" -> proxy == args[0];
                            default -> throw new UnsupportedOperationException(m.getName());
                        };
                    });
        }
    }

    /** An adapter whose longIndex() is {@code index}. */
    static IndexAdapter adapter(LongIndex index) {
        return new IndexAdapter() {
            @Override
            public void build(long[] sortedKeys, long[] values) {
            }

            @Override
            public long run(Operations ops, int from, int to) {
                return 0;
            }

            @Override
            public long size() {
                return 1000;
            }

            @Override
            public long memoryBytes() {
                return 9_000;
            }

            @Override
            public LongIndex longIndex() {
                return index;
            }
        };
    }

    @Test
    void aDeviceIndexIsResetBeforeEachRunAndReadAfterAndGivesMediansPerBatch() {
        // Three repetitions of 4 batches: 40, 80 and 60 ms of wall time, a quarter of it on the host.
        FakeDevice fake = new FakeDevice(new DeviceTimes(4, 40_000_000, 10_000_000, 8_000_000, 20_000_000, 2_000_000, 40),
                new DeviceTimes(4, 80_000_000, 20_000_000, 16_000_000, 40_000_000, 6_000_000, 48),
                new DeviceTimes(4, 60_000_000, 15_000_000, 12_000_000, 30_000_000, 4_000_000, 44));
        IndexAdapter a = adapter(fake.index);
        DevicePhases phases = new DevicePhases(3);
        for (int rep = 0; rep < 3; rep++) {
            phases.start(a);
            phases.stop(a, rep);
        }
        assertEquals(List.of("resetDeviceTimes", "deviceTimes", "resetDeviceTimes", "deviceTimes", "resetDeviceTimes",
                "deviceTimes"), fake.calls);
        DeviceFigures f = phases.figures(DevicePhases.deviceBytesPerKey(a, 1000));
        assertEquals(4, f.batches());
        assertEquals(15.0, f.batchMs(), 1e-9, "the median of 10, 20 and 15 ms a batch");
        assertEquals(3.75, f.hostMs(), 1e-9);
        assertEquals(3.0, f.transferMs(), 1e-9);
        assertEquals(7.5, f.kernelMs(), 1e-9);
        assertEquals(0.25, f.hostShare(), 1e-9);
        assertEquals(1.0, f.driverMs(), 1e-9, "the median of 0.5, 1.5 and 1 ms a batch in the driver");
        assertEquals(11.0, f.callsBatch(), 1e-9, "the median of 10, 12 and 11 calls a batch");
        assertEquals(8.0, f.deviceBytesPerKey(), 1e-9);
        assertTrue(DevicePhases.allocated() < 0 || (f.heapKbBatch() >= 0 && f.heapKbBatch() < 64),
                "the heap the fake's runs allocated a batch: " + f.heapKbBatch() + " KiB");
    }

    @Test
    void theHeapARunAllocatesIsCountedPerBatch() {
        org.junit.jupiter.api.Assumptions.assumeTrue(DevicePhases.allocated() >= 0, "this JVM does not count allocations");
        FakeDevice fake = new FakeDevice(new DeviceTimes(4, 40_000_000, 10_000_000, 8_000_000, 20_000_000, 2_000_000, 40));
        IndexAdapter a = adapter(fake.index);
        DevicePhases phases = new DevicePhases(1);
        phases.start(a);
        long[][] batches = new long[4][];
        for (int b = 0; b < 4; b++) {
            batches[b] = new long[128 * 1024];   // 1 MiB a batch, as a tree's arrays would be
        }
        phases.stop(a, 0);
        DeviceFigures f = phases.figures(1.0);
        assertEquals(4, batches.length);
        assertTrue(f.heapKbBatch() >= 1024 && f.heapKbBatch() < 1024 + 64, f.heapKbBatch() + " KiB a batch");
    }

    @Test
    void anyOtherStructureHasNoDeviceFigures() {
        IndexAdapter a = adapter(null);
        DevicePhases phases = new DevicePhases(2);
        phases.start(a);
        phases.stop(a, 0);
        assertNull(phases.figures(DevicePhases.deviceBytesPerKey(a, 1000)));
        assertTrue(Double.isNaN(DevicePhases.deviceBytesPerKey(a, 1000)));
        assertNull(DevicePhases.of(null));
    }

    @Test
    void aRepetitionWithoutBatchesHasNoHostShare() {
        FakeDevice fake = new FakeDevice(new DeviceTimes(0, 0, 0, 0, 0, 0, 0));
        IndexAdapter a = adapter(fake.index);
        DevicePhases phases = new DevicePhases(1);
        phases.stop(a, 0);
        DeviceFigures f = phases.figures(1.0);
        assertEquals(0, f.batches());
        assertTrue(Double.isNaN(f.heapKbBatch()), "never started: no heap figure");
        assertTrue(Double.isNaN(f.hostShare()));
    }
}
