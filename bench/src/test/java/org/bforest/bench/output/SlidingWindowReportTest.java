package org.bforest.bench.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.bforest.bench.cli.OptionsParser;
import org.bforest.bench.cli.ProgressMode;
import org.bforest.bench.runner.BenchmarkRunner;
import org.bforest.bench.runner.Progress;
import org.bforest.bench.runner.Result;
import org.bforest.bench.runner.RunSummary;
import org.bforest.bench.runner.WindowFigures;
import org.bforest.bench.structures.Structure;
import org.bforest.bench.workloads.Workload;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Workload W end to end on a small run: its rows carry the figures of each tenth in the CSV's
 * {@code w_} columns (and only its rows), the table, the summary and the report show them, it
 * runs single-threaded only, and every structure returns the same checksum on it.
 */
class SlidingWindowReportTest {
    private static RunSummary run;
    private static String progress;

    @BeforeAll
    static void runSmall() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (Progress p = Progress.create(ProgressMode.PLAIN, new PrintStream(err, true, StandardCharsets.UTF_8))) {
            run = new BenchmarkRunner(OptionsParser.parse("--structures", "bstree,treemap,skiplist,sorted-array",
                    "--dataset", "dense", "--keys", "2K", "--ops", "4K", "--workloads", "A,W", "--threads", "1,2",
                    "--reps", "2", "--warmup", "1"), p).run();
        }
        progress = err.toString(StandardCharsets.UTF_8);
    }

    /** The CSV's rows as column name to field, commas inside quotes kept. */
    private static List<Map<String, String>> csv() throws IOException {
        return CsvRows.of(run);
    }

    @Test
    void theHeaderHasWsColumnsAfterTheCommonOnes() {
        assertTrue(CsvWriter.HEADER.contains(",vector," + String.join(",", WindowTables.CSV_COLUMNS) + ","
                + String.join(",", SnapshotTables.CSV_COLUMNS)), CsvWriter.HEADER);
        assertEquals(21, WindowTables.CSV_COLUMNS.size());
        assertEquals("w_bytes_per_key_load", WindowTables.CSV_COLUMNS.get(0));
        assertEquals("w_bytes_per_key_10", WindowTables.CSV_COLUMNS.get(10));
        assertEquals("w_mops_1", WindowTables.CSV_COLUMNS.get(11));
        assertEquals("w_mops_10", WindowTables.CSV_COLUMNS.get(20));
        assertEquals(39 + SnapshotTables.CSV_COLUMNS.size() + CsvWriter.DEVICE_COLUMNS, CsvWriter.HEADER.split(",").length);
    }

    @Test
    void onlyWsRowsFillTheWColumnsAndTheTwoChecksReadFromThem() throws IOException {
        int windows = 0;
        for (Map<String, String> row : csv()) {
            boolean w = row.get("workload").equals("W");
            for (String c : WindowTables.CSV_COLUMNS) {
                assertEquals(w, !row.get(c).isEmpty(), c + " of " + row);
            }
            if (!w) {
                continue;
            }
            windows++;
            assertEquals("1", row.get("threads"), "W runs single-threaded");
            assertEquals("2000", row.get("keys"));
            assertEquals("4000", row.get("ops"));
            double load = Double.parseDouble(row.get("w_bytes_per_key_load"));
            assertTrue(load > 0, row.toString());
            for (int t = 1; t <= 10; t++) {
                assertTrue(Double.parseDouble(row.get("w_bytes_per_key_" + t)) > 0, row.toString());
                assertTrue(Double.parseDouble(row.get("w_mops_" + t)) > 0, row.toString());
            }
            if (row.get("structure").equals("treemap")) {
                // an entry per key: the same bytes per live key throughout, so the memory check passes
                assertEquals(load, Double.parseDouble(row.get("w_bytes_per_key_10")), row.toString());
                assertTrue(Double.parseDouble(row.get("w_bytes_per_key_10")) <= 1.5 * load);
            }
        }
        assertEquals(3, windows, "bstree, treemap and skiplist ran W; sorted-array is read-only");
    }

    @Test
    void theRunnerGivesWsFiguresToItsResultsAndChecksThem() {
        int windows = 0;
        for (Result r : run.results()) {
            assertEquals(r.workload() == Workload.W, r.window() != null, r.toString());
            if (r.window() != null) {
                windows++;
                assertEquals(1, r.threads());
                assertEquals(2, r.repMops().length);
                assertTrue(r.mops() > 0, r.toString());
                for (double m : r.window().tenthMops()) {
                    assertTrue(m > 0, r.toString());
                }
                assertTrue(r.window().loadBytesPerKey() > 0 && Double.isFinite(r.ownBytesAfter()), r.toString());
            }
        }
        assertEquals(3, windows);
        String notes = String.join("\n", run.notes());
        assertTrue(notes.contains("skiplist: skipped on W (2 threads): workload W runs single-threaded"), notes);
        assertTrue(notes.contains("sorted-array: skipped on W") || notes.contains("sorted-array: skipped on W,"), notes);
        assertFalse(notes.contains("different results") || notes.contains("afterwards, expected"), notes);
        long checksum = 0;
        for (Result r : run.results()) {
            if (r.workload() == Workload.W) {
                checksum = checksum == 0 ? r.checksum() : checksum;
                assertEquals(checksum, r.checksum(), r.structure() + ": every put and every remove takes effect");
            }
        }
        assertTrue(progress.contains("bstree dense W rep 1/2") && progress.contains("treemap dense W warm-up 1/1"),
                progress);
    }

    @Test
    void theTableTheSummaryAndTheReportShowTheTenths() throws Exception {
        String table = ResultTable.render(run);
        assertTrue(table.contains("W sliding window over time"), table);
        assertTrue(table.matches("(?s).*\\ntreemap +B/key +88\\.0( +88\\.0){10} +1\\.00x\\n.*"), table);
        assertTrue(table.matches("(?s).*\\nbstree +Mops/s( +[0-9.]+){10} +[0-9.]+x\\n.*"), table);
        String summary = TextReport.render(run);
        assertTrue(summary.contains("Workload W (sliding window, ours)") && summary.contains(
                "W sliding window over time"), summary);
        String html = HtmlReport.render(run);
        assertTrue(html.contains("id=\"window\"") && html.contains("Sliding window over time (W)"), "W's section");
        assertTrue(html.contains("Workload W (sliding window, ours)"), "W in the protocol");
        HtmlReportTest.parse(html);
    }

    @Test
    void theColumnsAreTheFiguresInOrder() {
        double[] mops = {10, 9, 8, 7, 6, 5, 4, 3, 2, 8.5};
        double[] bytes = {20, 21, 22, 23, 24, 25, 26, 27, 28, 29.5};
        WindowFigures f = new WindowFigures(19.75, mops, bytes);
        Result r = new Result(Structure.BSTREE, "dense", Workload.W, 1, 0, 1000, 500, 5, new double[] {5}, 0.001,
                20, 19.75, 30, 29.5, 42, f);
        assertEquals("19.75,20.00,21.00,22.00,23.00,24.00,25.00,26.00,27.00,28.00,29.50,10.0000,9.0000,8.0000,7.0000,"
                + "6.0000,5.0000,4.0000,3.0000,2.0000,8.5000", WindowTables.csv(r));
        assertEquals(29.5 / 19.75, f.memoryGrowth(), 1e-12);
        assertEquals(0.85, f.throughputKept(), 1e-12);
        assertEquals(",".repeat(20), WindowTables.csv(new Result(Structure.BSTREE, "dense", Workload.A, 1, 0, 1000, 500,
                5, new double[] {5}, 0.001, 20, 19.75, Double.NaN, Double.NaN, 42)));
        assertNull(new Result(Structure.BSTREE, "dense", Workload.A, 1, 0, 1000, 500, 5, new double[] {5}, 0.001, 20,
                19.75, Double.NaN, Double.NaN, 42).window());
        assertNotNull(r.window());
        assertThrows(IllegalArgumentException.class, () -> new WindowFigures(1, new double[9], new double[10]));
    }
}
