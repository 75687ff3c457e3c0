package org.bforest.bench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.bforest.bench.cli.Options;
import org.bforest.bench.cli.OptionsParser;
import org.bforest.bench.cli.ProgressMode;
import org.bforest.bench.cli.ValueMode;
import org.bforest.bench.datasets.Dataset;
import org.bforest.bench.datasets.Datasets;
import org.bforest.bench.structures.Values;
import org.bforest.bench.workloads.Operations;
import org.bforest.bench.workloads.Workload;
import org.bforest.bench.workloads.WorkloadGenerator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code --values}: each mode gives the values it promises (checked through workload A's
 * checksum, the sum of the values its lookups find), deterministically, and every structure
 * (the key-only one and the batched runs included) agrees on every checksum in every mode.
 */
class ValueModesTest {
    private static final int KEYS = 2_000;
    private static final int OPS = 1_000;

    @AfterEach
    void restoreTheDefault() {
        Values.use(ValueMode.KEY, 0);
    }

    private static RunSummary run(ValueMode mode) {
        Options o = OptionsParser.parse("--structures", "bstree,cbstree,bstree-set,treemap,fastutil-rb,sorted-array",
                "--dataset", "dense", "--keys", Integer.toString(KEYS), "--ops", Integer.toString(OPS),
                "--workloads", "A,D,E", "--reps", "1", "--warmup", "0", "--batch", "64", "--values", mode.cliName());
        try (Progress p = Progress.create(ProgressMode.OFF, System.err)) {
            return new BenchmarkRunner(o, p).run();
        }
    }

    /** Workload A's checksum if its lookups find the values of {@code mode}. */
    private static long expectedA(ValueMode mode) {
        Dataset d = Datasets.create("dense", KEYS, OPS, null, false);
        Operations a = WorkloadGenerator.generate(Workload.A, d, OPS);
        Values.use(mode, d.seed());
        long sum = 0;
        for (long k : a.keys()) {
            sum += Values.of(k);
        }
        return sum;
    }

    @Test
    void everyModeGivesItsValuesAndEveryStructureAgrees() {
        Map<ValueMode, Long> checksumA = new EnumMap<>(ValueMode.class);
        for (ValueMode mode : ValueMode.values()) {
            RunSummary run = run(mode);
            assertTrue(run.notes().stream().noneMatch(n -> n.contains("different results") || n.contains("failed")),
                    mode + ": " + run.notes());
            long a = 0;
            int aRows = 0;
            for (Result r : run.results()) {
                if (r.workload() == Workload.A) {
                    a = r.checksum();
                    aRows++;
                }
            }
            assertEquals(12, aRows, mode + ": six structures on A, each also batched");
            for (Result r : run.results()) {
                for (Result q : run.results()) {
                    if (r.workload() == q.workload()) {
                        assertEquals(r.checksum(), q.checksum(), mode + " " + r.label() + ": " + r.structure()
                                + " vs " + q.structure() + " " + q.label());
                    }
                }
            }
            assertEquals(expectedA(mode), a, mode.cliName());
            checksumA.put(mode, a);
        }
        assertEquals(0, checksumA.get(ValueMode.NONE), "none: every lookup finds 0");
        assertNotEquals(checksumA.get(ValueMode.KEY), checksumA.get(ValueMode.RANDOM));
    }

    @Test
    void randomValuesAreDeterministicAndSaltedByTheSeed() {
        Values.use(ValueMode.RANDOM, 2);
        long[] first = Values.of(new long[] {1, 2, 3, 1_000_000});
        Values.use(ValueMode.RANDOM, 2);
        long[] again = Values.of(new long[] {1, 2, 3, 1_000_000});
        assertEquals(List.of(first[0], first[1], first[2], first[3]), List.of(again[0], again[1], again[2], again[3]));
        Values.use(ValueMode.RANDOM, 3);
        assertNotEquals(first[0], Values.of(1));
        // Values that do not follow their keys: neither ordered nor close together.
        Values.use(ValueMode.RANDOM, 2);
        int ascending = 0;
        for (long k = 0; k < 1000; k++) {
            ascending += Values.of(k + 1) > Values.of(k) ? 1 : 0;
        }
        assertTrue(ascending > 400 && ascending < 600, ascending + " of 1000 steps ascend");
    }
}
