package org.bforest.bench.structures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.TreeMap;
import org.bforest.bench.datasets.Dataset;
import org.bforest.bench.datasets.SyntheticDatasets;
import org.bforest.bench.workloads.Op;
import org.bforest.bench.workloads.Operations;
import org.bforest.bench.workloads.SlidingWindow;
import org.bforest.bench.workloads.Workload;
import org.bforest.bench.workloads.WorkloadGenerator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/** Every adapter computes the same results (checksum and size) as a plain model, op by op. */
class AdaptersTest {
    private static final Dataset DATA = SyntheticDatasets.dense(5_000, 3_000, 2);

    /** The expected checksum, on a TreeMap written the obvious way. */
    private static long model(Operations ops, long[] size) {
        return model(DATA.loaded(), ops, size);
    }

    /** The same, from a load of {@code loaded} (workload W's window). */
    private static long model(long[] loaded, Operations ops, long[] size) {
        TreeMap<Long, Long> m = new TreeMap<>();
        for (long k : loaded) {
            m.put(k, Values.of(k));
        }
        long sum = 0;
        for (int i = 0; i < ops.size(); i++) {
            long k = ops.keys()[i];
            switch (ops.codes()[i]) {
                case Op.LOOKUP -> sum += m.getOrDefault(k, Values.ABSENT);
                case Op.INSERT -> sum += Values.effect(m.put(k, Values.of(k)) == null);
                case Op.DELETE -> sum += Values.effect(m.remove(k) != null);
                default -> {
                    for (Map.Entry<Long, Long> e : m.subMap(k, ops.ends()[i]).entrySet()) {
                        sum += Values.scanned(e.getKey(), e.getValue());
                    }
                }
            }
        }
        size[0] = m.size();
        return sum;
    }

    private static IndexAdapter adapter(Structure s) {
        return s.newAdapter();
    }

    @ParameterizedTest
    @EnumSource(Structure.class)
    void everyAdapterAgreesWithTheModel(Structure s) {
        for (Workload w : Workload.values()) {
            if (!s.updatable() && !w.readOnly() || s.onCluster() && !ON_A_CLUSTER.contains(w)) {
                continue;
            }
            // W bulk-loads a window of its own: the first keys of the dataset in time order
            SlidingWindow window = w == Workload.W ? SlidingWindow.generate(DATA, 3_000) : null;
            long[] loaded = window != null ? window.loaded() : DATA.loaded();
            Operations ops = window != null ? window.ops()
                    : WorkloadGenerator.generate(w, DATA, w == Workload.F ? 2_000 : 3_000);
            long[] size = new long[1];
            long expected = model(loaded, ops, size);
            IndexAdapter a = adapter(s);
            a.build(loaded, Values.of(loaded));
            assertEquals(DATA.keyCount(), a.size(), s + " build");
            // In two chunks, as the runner does.
            long got = a.run(ops, 0, 1234) + a.run(ops, 1234, ops.size());
            assertEquals(expected, got, s + " workload " + w);
            assertEquals(size[0], a.size(), s + " size after " + w);
            // At least 4 bytes a key: the CBS-tree stores a key and, where they fit, its value as
            // 16-bit lanes; nothing stores less.
            assertTrue(a.memoryBytes() >= 4L * a.size() || s == Structure.IGNITE_SQL, s + " memory "
                    + a.memoryBytes());
            a.release();
        }
    }

    /**
     * The workloads the Ignite structures run here (a lookup, a write or a range each, every
     * operation a message between nodes): the bench's own three, at a few seconds each.
     */
    private static final java.util.Set<Workload> ON_A_CLUSTER = java.util.EnumSet.of(Workload.A, Workload.D,
            Workload.E);

    @org.junit.jupiter.api.AfterAll
    static void stopTheClusterIfStarted() {
        ClusterAdapter.shutdown();
    }

    /** --snapshot's choice of structures: the bforest ones hand it their LongIndex, the peers have none. */
    @Test
    void theStructuresThatSnapshotAreThoseWithALongIndex() {
        long[] keys = {1, 5, 9};
        for (Structure s : Structure.onTheCpu()) {
            IndexAdapter a = adapter(s);
            a.build(keys, Values.of(keys));
            assertEquals(s.snapshots(), a.longIndex() != null, s.cliName());
            if (a.longIndex() != null) {
                assertEquals(3, a.longIndex().size(), s.cliName());
            }
        }
    }

    /** The batched form gives each workload's checksum, in whole batches and a last short one. */
    @ParameterizedTest
    @EnumSource(Structure.class)
    void batchedRunsGiveTheChecksumOfTheLoop(Structure s) {
        for (Workload w : Workload.values()) {
            if (!w.batchable() || !s.updatable() && !w.readOnly() || s.onCluster() && !ON_A_CLUSTER.contains(w)) {
                continue;
            }
            Operations ops = WorkloadGenerator.generate(w, DATA, w == Workload.F ? 2_000 : 3_000);
            long[] size = new long[1];
            long expected = model(ops, size);
            // A device call costs tens of microseconds on PoCL: fewer, larger batches there.
            for (int batch : s.onDevice() ? new int[] {256, 5_000} : s.onCluster() ? new int[] {7, 1024}
                    : new int[] {1, 7, 256, 3_000, 5_000}) {
                IndexAdapter a = adapter(s);
                a.build(DATA.loaded(), Values.of(DATA.loaded()));
                BatchBuffers buffers = BatchBuffers.forStream(batch, ops);
                // In chunks of whole batches, as the runner does: only the last range ends short.
                int chunk = Math.max(1, 1000 / batch) * batch;
                long got = 0;
                for (int i = 0; i < ops.size(); i += chunk) {
                    got += a.runBatched(ops, i, Math.min(ops.size(), i + chunk), buffers);
                }
                assertEquals(expected, got, s + " " + w + " in batches of " + batch);
                assertEquals(size[0], a.size(), s + " size after " + w + " in batches of " + batch);
                a.release();
            }
        }
    }

    @Test
    void batchBuffersHoldTheFullAndTheLastBatchOnly() {
        BatchBuffers b = new BatchBuffers(256, 1000);
        assertEquals(256, b.size());
        assertEquals(256, b.keys(256).length);
        assertEquals(232, b.keys(232).length);
        assertEquals(232, b.values(232).length);
        assertTrue(b.keys(256) == b.keys(256), "the same array every batch");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.keys(100));
        assertTrue(e.getMessage().contains("256") && e.getMessage().contains("232"), e.getMessage());
        assertEquals(0, new BatchBuffers(100, 1000).keys(100).length - 100);
        assertThrows(IllegalArgumentException.class, () -> new BatchBuffers(0, 10));
    }

    @Test
    void sortedArrayRefusesUpdates() {
        IndexAdapter a = Structure.SORTED_ARRAY.newAdapter();
        a.build(DATA.loaded(), Values.of(DATA.loaded()));
        Operations b = WorkloadGenerator.generate(Workload.B, DATA, 10);
        assertThrows(UnsupportedOperationException.class, () -> a.run(b, 0, 10));
    }

    @Test
    void peerEstimatesFollowTheObjectLayout() {
        JvmLayout compressed = new JvmLayout(12, 4, 8);
        assertEquals(24, compressed.boxedLong());
        assertEquals(88L * 1000, TreeMapAdapter.estimate(compressed, 1000) - compressed.object(3, 12));
        assertEquals(40L * 1000, FastutilAvlAdapter.estimate(compressed, 1000) - compressed.object(4, 16));
        assertEquals(84L * 1000, SkipListAdapter.estimate(compressed, 1000) - compressed.object(6, 0));
        assertEquals(16 + 8 * 10, compressed.longArray(10));
    }

    @Test
    void structureNamesParse() {
        for (Structure s : Structure.values()) {
            assertEquals(s, Structure.parse(s.cliName()));
        }
        assertThrows(IllegalArgumentException.class, () -> Structure.parse("btree"));
    }
}
