package org.bforest.bench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bforest.bench.cli.Options;
import org.bforest.bench.cli.OptionsParser;
import org.bforest.bench.cli.ProgressMode;
import org.bforest.bench.structures.Structure;
import org.bforest.bench.workloads.Workload;
import org.junit.jupiter.api.Test;

/**
 * {@code --batch} with several sizes: a cell per batchable workload and size, every structure in
 * each (the peers through their loop), each with the checksum of the workload run one operation
 * at a time; D stays unbatched, with a note.
 */
class BatchedCellsTest {

    @Test
    void everySizeIsACellOfEveryBatchableWorkloadForEveryStructure() {
        Options o = OptionsParser.parse("--structures", "bstree,treemap,sorted-array", "--dataset",
                "uniform", "--keys", "2K", "--ops", "800", "--workloads", "A,B,C,D,E,F", "--reps", "1", "--warmup",
                "0", "--batch", "1K,1");
        RunSummary run;
        try (Progress p = Progress.create(ProgressMode.OFF, System.err)) {
            run = new BenchmarkRunner(o, p).run();
        }
        List<String> notes = run.notes();
        assertTrue(notes.stream().noneMatch(n -> n.contains("different results") || n.contains("failed")
                || n.contains("holds")), notes.toString());
        assertTrue(notes.contains("--batch: workload D runs unbatched only (D's range scans are one call each)"),
                notes.toString());
        assertTrue(notes.stream().anyMatch(n -> n.startsWith("workload C batched on uniform: a batch is a run of")
                && n.endsWith("(at --batch 1K)")), notes.toString());
        Map<String, Long> plain = new HashMap<>();
        for (Result r : run.results()) {
            if (r.batch() == 0) {
                plain.put(r.structure() + " " + r.workload(), r.checksum());
            }
        }
        int batched = 0;
        for (Result r : run.results()) {
            if (r.batch() > 0) {
                batched++;
                assertTrue(r.workload().batchable(), r.label());
                assertEquals(1, r.threads());
                assertEquals(r.workload().name() + "/b" + r.batch(), r.label());
                Long one = plain.get(r.structure() + " " + r.workload());
                assertNotNull(one, r.label());
                assertEquals(one, r.checksum(), r.structure() + " " + r.label());
            }
        }
        // bstree and treemap on A, B, C, E, F, sorted-array on A only; two sizes each.
        assertEquals(2 * (2 * 5 + 1), batched);
        for (Workload w : List.of(Workload.A, Workload.B, Workload.C, Workload.E, Workload.F)) {
            for (int b : List.of(1, 1000)) {
                long rows = run.results().stream().filter(r -> r.workload() == w && r.batch() == b
                        && r.structure() == Structure.TREEMAP).count();
                assertEquals(1, rows, w + "/b" + b);
            }
        }
    }
}
