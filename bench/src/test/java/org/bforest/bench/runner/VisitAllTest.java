package org.bforest.bench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.bforest.bench.cli.OptionsParser;
import org.bforest.bench.cli.ProgressMode;
import org.bforest.bench.output.CsvWriter;
import org.bforest.bench.output.ResultTable;
import org.junit.jupiter.api.Test;

/**
 * {@code --visit-all}: every structure's full visit sums the same values (random ones, so the sum
 * wraps), its figures reach the table and the CSV's rows of workload "visit" in the existing
 * columns; without the option there are none. The OpenCL trees take part where a device is
 * installed (their pass on the device), and are a note otherwise.
 */
class VisitAllTest {
    private static final String CPU = "bstree,bstree-set,cbstree,bminus,csb,bplus,bstree-olc,treemap,skiplist,"
            + "fastutil-avl,fastutil-rb,sorted-array";

    private static RunSummary run(String... extra) {
        List<String> args = new ArrayList<>(List.of("--structures", CPU + ",gpu-btree,hybrid", "--dataset", "uniform",
                "--keys", "5000", "--ops", "200", "--workloads", "A", "--reps", "2", "--warmup", "1", "--values",
                "random"));
        args.addAll(List.of(extra));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (Progress p = Progress.create(ProgressMode.PLAIN, new PrintStream(err, true, StandardCharsets.UTF_8))) {
            return new BenchmarkRunner(OptionsParser.parse(args.toArray(String[]::new)), p).run();
        }
    }

    @Test
    void everyStructureVisitsTheSameValuesAndTheFiguresReachTheOutputs() throws IOException {
        RunSummary run = run("--visit-all");
        assertTrue(run.options().visitAll());
        List<VisitFigures> visits = run.visits();
        Set<String> names = visits.stream().map(f -> f.structure().cliName()).collect(Collectors.toSet());
        System.out.println("VisitAllTest: visit-all figures of " + names);
        for (String s : CPU.split(",")) {
            assertTrue(names.contains(s), s + " has visit-all figures: " + run.notes());
        }
        for (VisitFigures f : visits) {
            assertEquals(visits.get(0).sum(), f.sum(), f.structure().cliName() + "'s sum");
            assertEquals(5000, f.entries(), f.structure().cliName());
            assertEquals(2, f.repMops().length);
            assertTrue(f.mops() > 0 && f.mopsMin() <= f.mops() && f.mops() <= f.mopsMax(), f.toString());
        }
        assertTrue(visits.get(0).sum() != 0);
        assertFalse(run.notes().stream().anyMatch(n -> n.contains("visit-all summed")), run.notes().toString());
        if (!names.contains("gpu-btree")) {
            assertTrue(run.notes().stream().anyMatch(n -> n.startsWith("gpu-btree: no visit-all figures")),
                    run.notes().toString());
        }

        String table = ResultTable.render(run);
        assertTrue(table.contains("Visit-all on uniform at 5K keys"), table);
        assertTrue(table.contains("sumValues() on the device") == names.contains("gpu-btree"), table);

        StringBuilder csv = new StringBuilder();
        CsvWriter.write(run, csv);
        String[] lines = csv.toString().split("\n");
        int columns = CsvWriter.HEADER.split(",").length;
        List<String> rows = new ArrayList<>();
        for (String line : lines) {
            String[] fields = line.split(",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)", -1);
            assertEquals(columns, fields.length, line);
            if (fields[2].equals("visit")) {
                rows.add(fields[0]);
                assertEquals("5000", fields[4], line);   // keys
                assertEquals("5000", fields[5], line);   // ops: the entries visited
                assertFalse(fields[6].isEmpty(), line);  // mops
                assertEquals("", fields[7], line);       // build_s
                assertEquals("2", fields[11], line);     // reps
            }
        }
        assertEquals(visits.stream().map(f -> f.structure().cliName()).toList(), rows);
    }

    @Test
    void withoutTheOptionThereAreNoVisitFigures() throws IOException {
        RunSummary run = run("--structures", "bstree,treemap");
        assertFalse(run.options().visitAll());
        assertTrue(run.visits().isEmpty());
        StringBuilder csv = new StringBuilder();
        CsvWriter.write(run, csv);
        assertFalse(csv.toString().contains(",visit,"));
        assertFalse(ResultTable.render(run).contains("Visit-all"));
    }
}
