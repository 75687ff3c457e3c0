package org.bforest.bench.workloads;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.bforest.bench.BenchException;
import org.bforest.bench.datasets.Dataset;
import org.bforest.bench.datasets.SyntheticDatasets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class WorkloadGeneratorTest {
    private static final int N = 50_000;
    private static final int OPS = 100_000;
    private static final Dataset DATA = SyntheticDatasets.uniform(N, OPS, 1);

    /** The paper's mixes, §8.1: lookups, inserts, deletes, scans in percent. */
    private static int[] paperMix(Workload w) {
        return switch (w) {
            case A -> new int[] {100, 0, 0, 0};
            case B -> new int[] {0, 100, 0, 0};
            case C -> new int[] {50, 50, 0, 0};
            case D -> new int[] {0, 5, 0, 95};
            case E -> new int[] {60, 35, 5, 0};
            case F -> new int[] {0, 0, 100, 0};
            case W -> new int[] {0, 50, 50, 0};
        };
    }

    @Test
    void deleteOnlyRemovesDistinctPresentKeysAndRefusesMoreThanHalf() {
        Operations ops = WorkloadGenerator.generate(Workload.F, DATA, N / 2);
        java.util.Set<Long> loaded = new java.util.HashSet<>();
        for (long k : DATA.loaded()) {
            loaded.add(k);
        }
        java.util.Set<Long> gone = new java.util.HashSet<>();
        for (int i = 0; i < ops.size(); i++) {
            assertEquals(Op.DELETE, ops.codes()[i]);
            assertTrue(loaded.contains(ops.keys()[i]) && gone.add(ops.keys()[i]), "delete " + i);
        }
        assertThrows(org.bforest.bench.BenchException.class, () -> WorkloadGenerator.generate(Workload.F, DATA, N));
        assertEquals(java.util.List.of(Workload.A, Workload.B, Workload.C, Workload.D, Workload.E), Workload.PAPER);
    }

    @ParameterizedTest
    @EnumSource(value = Workload.class, names = {"A", "B", "C", "D", "E"})
    void countsAreExactlyThePapersMix(Workload w) {
        Operations ops = WorkloadGenerator.generate(w, DATA, OPS);
        int[] mix = paperMix(w);
        int[] seen = new int[Op.COUNT];
        for (byte c : ops.codes()) {
            seen[c]++;
        }
        for (int op = 0; op < Op.COUNT; op++) {
            assertEquals(OPS * mix[op] / 100, seen[op], w + " " + Op.name(op));
            assertEquals(seen[op], ops.counts()[op]);
        }
        assertEquals(OPS, ops.size());
        assertEquals(OPS, ops.keys().length);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 7, 19, 1001, 99_999})
    void countsAlwaysAddUpAndRoundToTheNearest(int ops) {
        for (Workload w : Workload.values()) {
            int[] c = WorkloadGenerator.counts(w, ops);
            assertEquals(ops, Arrays.stream(c).sum(), w + " " + ops);
            for (int op = 0; op < Op.COUNT; op++) {
                assertTrue(Math.abs(c[op] - ops * w.percent(op) / 100.0) <= 1.0, w + " " + Op.name(op) + " " + ops);
            }
        }
    }

    /** Shuffled: every tenth of the stream has the mix, within five standard deviations. */
    @ParameterizedTest
    @EnumSource(value = Workload.class, names = {"C", "D", "E"})
    void kindsAreSpreadThroughTheStream(Workload w) {
        Operations ops = WorkloadGenerator.generate(w, DATA, OPS);
        int window = OPS / 10;
        for (int start = 0; start < OPS; start += window) {
            int[] seen = new int[Op.COUNT];
            for (int i = start; i < start + window; i++) {
                seen[ops.codes()[i]]++;
            }
            for (int op = 0; op < Op.COUNT; op++) {
                double p = w.percent(op) / 100.0;
                double sd = Math.sqrt(window * p * (1 - p));
                assertTrue(Math.abs(seen[op] - window * p) <= 5 * sd + 1,
                        w + " " + Op.name(op) + " in window at " + start + ": " + seen[op]);
            }
        }
    }

    @Test
    void insertsTakeTheDatasetsInsertKeysInOrder() {
        Operations ops = WorkloadGenerator.generate(Workload.C, DATA, OPS);
        int next = 0;
        for (int i = 0; i < OPS; i++) {
            if (ops.codes()[i] == Op.INSERT) {
                assertEquals(DATA.inserts()[next++], ops.keys()[i]);
            }
        }
        assertEquals(OPS / 2, next);
    }

    @Test
    void lookupsAndDeletesHitPresentKeysAndNeverADeletedOne() {
        Operations ops = WorkloadGenerator.generate(Workload.E, DATA, OPS);
        long[] loaded = DATA.loaded();
        Set<Long> deleted = new HashSet<>();
        Set<Long> looked = new HashSet<>();
        for (int i = 0; i < OPS; i++) {
            long k = ops.keys()[i];
            switch (ops.codes()[i]) {
                case Op.LOOKUP -> {
                    assertTrue(Arrays.binarySearch(loaded, k) >= 0, "lookup of a key not loaded");
                    assertTrue(!deleted.contains(k), "lookup of a deleted key");
                    looked.add(k);
                }
                case Op.DELETE -> {
                    assertTrue(Arrays.binarySearch(loaded, k) >= 0, "delete of a key not loaded");
                    assertTrue(deleted.add(k), "a key deleted twice");
                }
                default -> {
                }
            }
        }
        assertEquals(OPS * 5 / 100, deleted.size());
        // Uniform over the loaded keys: 60K draws over 50K keys touch about 1 - e^-1.2 = 70% of them.
        double touched = looked.size() / (double) N;
        assertTrue(touched > 0.67 && touched < 0.73, "touched " + touched);
    }

    @Test
    void lookupKeysAreUniformOverTheLoadedKeys() {
        Operations ops = WorkloadGenerator.generate(Workload.A, DATA, OPS);
        int buckets = 10;
        int[] hist = new int[buckets];
        for (long k : ops.keys()) {
            hist[Arrays.binarySearch(DATA.loaded(), k) * buckets / N]++;
        }
        double expected = OPS / (double) buckets;
        for (int h : hist) {
            assertTrue(Math.abs(h - expected) < 5 * Math.sqrt(expected), Arrays.toString(hist));
        }
    }

    @Test
    void scansCoverOneHundredToOneHundredFiftyLoadedKeys() {
        Operations ops = WorkloadGenerator.generate(Workload.D, DATA, OPS);
        assertNotNull(ops.ends());
        long[] loaded = DATA.loaded();
        int[] lengths = new int[151];
        for (int i = 0; i < OPS; i++) {
            if (ops.codes()[i] == Op.SCAN) {
                int from = Arrays.binarySearch(loaded, ops.keys()[i]);
                int to = Arrays.binarySearch(loaded, ops.ends()[i]);
                assertTrue(from >= 0 && to >= 0, "scan bounds are loaded keys");
                int c = to - from;
                assertTrue(c >= 100 && c <= 150, "scan of " + c + " keys");
                lengths[c]++;
            }
        }
        assertTrue(lengths[100] > 0 && lengths[150] > 0, "both ends of [100, 150] occur");
        assertTrue(Math.abs(ops.meanScanLength() - 125) < 1, "mean " + ops.meanScanLength());
    }

    @Test
    void noScansNoEnds() {
        assertNull(WorkloadGenerator.generate(Workload.A, DATA, 1000).ends());
    }

    @Test
    void sameSeedSameStream() {
        Operations a = WorkloadGenerator.generate(Workload.E, DATA, 10_000);
        Operations b = WorkloadGenerator.generate(Workload.E, DATA, 10_000);
        assertArrayEquals(a.codes(), b.codes());
        assertArrayEquals(a.keys(), b.keys());
        Operations c = WorkloadGenerator.generate(Workload.E, DATA.loaded(), DATA.inserts(), 10_000, a.seed() + 1);
        assertTrue(!Arrays.equals(a.keys(), c.keys()));
    }

    @Test
    void maxOpsIsTheLastCountWhoseDeletesFitInHalfTheKeys() {
        for (Workload w : Workload.values()) {
            for (int n : new int[] {0, 1, 2, 3, 99, 100, 1000, 12_345}) {
                int max = WorkloadGenerator.maxOps(w, n);
                if (w.percent(Op.DELETE) == 0 || w == Workload.W) { // W removes only keys it put itself
                    assertEquals(Integer.MAX_VALUE, max, w + " " + n);
                    continue;
                }
                assertTrue(WorkloadGenerator.counts(w, max)[Op.DELETE] <= n / 2, w + " " + n);
                assertTrue(WorkloadGenerator.counts(w, max + 1)[Op.DELETE] > n / 2, w + " " + n);
            }
        }
        assertEquals(500, WorkloadGenerator.maxOps(Workload.F, 1000));
        assertEquals(1010, WorkloadGenerator.maxOps(Workload.E, 100));
        // The generator refuses one operation more and takes the limit itself.
        Dataset small = SyntheticDatasets.uniform(1000, 1000, 1);
        BenchException e = assertThrows(BenchException.class, () -> WorkloadGenerator.generate(Workload.F, small, 501));
        assertTrue(e.getMessage().contains("half of --keys (500 at 1000 keys)"), e.getMessage());
        assertEquals(500, WorkloadGenerator.generate(Workload.F, small, 500).size());
    }

    @Test
    void tooManyDeletesIsAClearError() {
        Dataset small = SyntheticDatasets.uniform(100, 2000, 1);
        BenchException e = assertThrows(BenchException.class,
                () -> WorkloadGenerator.generate(Workload.E, small, 2000));
        assertTrue(e.getMessage().contains("--ops at most 10 times --keys (1010 at 100 keys)"), e.getMessage());
    }

    @Test
    void tinyDatasetsStillWork() {
        Dataset one = SyntheticDatasets.uniform(1, 10, 1);
        Operations d = WorkloadGenerator.generate(Workload.D, one, 10);
        assertEquals(10, d.size());
        Operations a = WorkloadGenerator.generate(Workload.A, one, 10);
        for (long k : a.keys()) {
            assertEquals(one.loaded()[0], k);
        }
    }
}
