package org.bforest.bench.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.bforest.bench.cli.Options;
import org.bforest.bench.cli.OptionsParser;
import org.bforest.bench.runner.BenchmarkRunner;
import org.bforest.bench.runner.Progress;
import org.bforest.bench.runner.Result;
import org.bforest.bench.runner.RunSummary;
import org.bforest.bench.cli.ProgressMode;
import org.bforest.bench.structures.Structure;
import org.bforest.bench.workloads.Workload;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A small end-to-end run, then its CSV, table and report. */
class CsvWriterTest {
    private static RunSummary run;

    @BeforeAll
    static void runSmall() {
        Options o = OptionsParser.parse("--structures", "bstree,treemap,skiplist,fastutil-rb,sorted-array,bstree-set",
                "--dataset", "uniform,dense", "--keys", "3K", "--ops", "1K", "--threads", "1,2", "--reps", "2",
                "--warmup", "1", "--progress", "off", "--batch", "64", "--values", "random");
        try (Progress p = Progress.create(ProgressMode.OFF, System.err)) {
            run = new BenchmarkRunner(o, p).run();
        }
    }

    @Test
    void headerIsExactlyTheSpecifiedOne() throws IOException {
        StringBuilder sb = new StringBuilder();
        CsvWriter.write(run, sb);
        String[] lines = sb.toString().split("\n");
        assertEquals("structure,dataset,workload,threads,keys,ops,mops,build_s,bytes_per_key,mops_min,mops_max,reps,"
                + "batch,bytes_per_key_after,values,commit,cpu,vector,w_bytes_per_key_load,w_bytes_per_key_1,"
                + "w_bytes_per_key_2,w_bytes_per_key_3,w_bytes_per_key_4,w_bytes_per_key_5,w_bytes_per_key_6,"
                + "w_bytes_per_key_7,w_bytes_per_key_8,w_bytes_per_key_9,w_bytes_per_key_10,w_mops_1,w_mops_2,"
                + "w_mops_3,w_mops_4,w_mops_5,w_mops_6,w_mops_7,w_mops_8,w_mops_9,w_mops_10,snap_entries,snap_bytes,"
                + "snap_bytes_per_key,snap_save_s,snap_save_s_min,snap_save_s_max,snap_save_gbps,snap_load_s,"
                + "snap_load_s_min,snap_load_s_max,snap_load_gbps,snap_cold_load_s,snap_cold_load_s_min,"
                + "snap_cold_load_s_max,snap_cold_load_gbps,snap_map_ms,snap_map_ms_min,snap_map_ms_max,"
                + "snap_mapped_vs_a,snap_save_vs_disk,snap_load_vs_disk,snap_cold_load_vs_disk,snap_load_vs_treemap,"
                + "snap_kind,snap_load_kind,bytes_per_key_own,device_bytes_per_key,batches,batch_ms,host_ms,"
                + "transfer_ms,kernel_ms,host_share,heap_kb_batch,driver_ms,calls_batch",
                lines[0]);
    }

    @Test
    void oneRowPerStructureDatasetWorkloadAndThreads(@TempDir Path dir) throws IOException {
        Path csv = dir.resolve("sub/out.csv");
        CsvWriter.write(run, csv);
        List<String> lines = Files.readAllLines(csv);
        Set<String> cells = new HashSet<>();
        int batched = 0;
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)", -1); // commas outside quotes
            assertEquals(75, f.length, line);
            for (int c = 18; c < 64; c++) {
                assertEquals("", f[c], "workload W's and --snapshot's columns, empty on the other workloads' rows: "
                        + line);
            }
            assertTrue(Double.parseDouble(f[64]) > 0, "bytes_per_key_own on every row: " + line);
            for (int c = 65; c < 75; c++) {
                assertEquals("", f[c], "the device columns, empty on the rows of structures not on a device: " + line);
            }
            assertTrue(cells.add(f[0] + "/" + f[1] + "/" + f[2] + "/" + f[3] + "/" + f[12]), "duplicate row " + line);
            double min = Double.parseDouble(f[9]);
            double max = Double.parseDouble(f[10]);
            assertTrue(min <= Double.parseDouble(f[6]) && Double.parseDouble(f[6]) <= max, "median within spread " + line);
            assertEquals("2", f[11]);
            if (!f[12].equals("0")) {
                batched++;
                assertTrue(f[2].matches("[ABCE]/b64"), "A, B, C and E run batched, under names of their own: " + line);
                assertEquals("64", f[12]);
                assertEquals("1", f[3]);
            }
            boolean writes = !f[2].startsWith("A");
            assertEquals(writes, !f[13].isEmpty(), "memory after the workloads that write: " + line);
            assertEquals("random", f[14]);
            assertFalse(f[16].isEmpty() || f[17].isEmpty(), line);
            assertEquals("3000", f[4]);
            assertEquals("1000", f[5]);
            assertTrue(Double.parseDouble(f[6]) > 0, line);
            assertTrue(Double.parseDouble(f[7]) >= 0, line);
            Double.parseDouble(f[8]);
        }
        // Ran: bstree, treemap, skiplist, fastutil-rb, bstree-set on A-E, sorted-array on A, single-threaded,
        // and each of them batched on A, B, C and E (D stays unbatched); skiplist with 2 threads; on two
        // datasets.
        int expected = 2 * (5 * 5 + 1 + (6 + 3 * 5) + 5);
        assertEquals(expected, cells.size(), String.join("\n", lines));
        assertEquals(2 * (6 + 3 * 5), batched);
        assertTrue(cells.contains("treemap/dense/E/b64/1/64"));
        assertFalse(cells.contains("treemap/dense/D/b64/1/64"));
        assertTrue(cells.contains("skiplist/dense/E/2/0"));
        assertTrue(cells.contains("sorted-array/uniform/A/1/0"));
        assertTrue(cells.contains("bstree-set/uniform/A/b64/1/64"));
        assertFalse(cells.contains("sorted-array/uniform/B/1/0"));
        assertFalse(cells.contains("treemap/uniform/A/2/0"));
    }

    @Test
    void skipsAreNotesNotCrashes() {
        String notes = String.join("\n", run.notes());
        assertTrue(notes.contains("bstree: skipped on"), notes);
        assertTrue(notes.contains("sorted-array: skipped on B, B/b64, C, C/b64, D, E, E/b64"), notes);
        assertTrue(notes.contains("it is not thread-safe"), notes);
        assertFalse(notes.contains("different results"), notes);
        assertFalse(notes.contains("failed"), notes);
    }

    @Test
    void singleThreadedChecksumsAgreeAcrossStructures() {
        for (Result a : run.results()) {
            for (Result b : run.results()) {
                if (a.threads() == 1 && b.threads() == 1 && a.dataset().equals(b.dataset())
                        && a.workload() == b.workload()) {
                    assertEquals(a.checksum(), b.checksum(), a.structure() + " vs " + b.structure());
                }
            }
        }
    }

    @Test
    void tableAndReportShowEveryStructure(@TempDir Path dir) throws IOException {
        String table = ResultTable.render(run);
        for (Structure s : run.options().structures()) {
            assertTrue(table.contains(s.cliName()), table);
        }
        assertTrue(table.contains("B/key heap") && table.contains("B/key own") && table.contains("build s"), table);
        List<Path> files = Reports.write(run, dir.resolve("report"));
        assertEquals(List.of(dir.resolve("report/results.csv"), dir.resolve("report/summary.txt"),
                dir.resolve("report/index.html")), files);
        String summary = Files.readString(files.get(1));
        assertTrue(summary.contains("Memory per loaded key") && summary.contains("Notes"), summary);
        assertEquals(CsvWriter.HEADER, Files.readAllLines(files.get(0)).get(0));
        String html = Files.readString(files.get(2));
        for (Structure s : run.options().structures()) {
            assertTrue(html.contains(s.cliName()), s.cliName());
        }
        assertTrue(html.contains("by thread count"), "no thread scaling chart");
    }

    @Test
    void everyOutputGivesTheSpreadAndTheMemoryAfterWrites() throws IOException {
        String table = ResultTable.render(run);
        assertTrue(table.contains("median of 2 interleaved repetitions [slowest-fastest]"), table);
        assertTrue(table.matches("(?s).*bstree +[0-9.]+ \\[[0-9.]+-[0-9.]+\\].*"), table);
        assertTrue(table.contains("B/key held after the workloads that write"), table);
        assertTrue(table.matches("(?s).*treemap +[0-9.]+ / [0-9.]+ .*"), "after-write figures: " + table);
        String summary = TextReport.render(run);
        assertTrue(summary.contains("interleaved across") && summary.contains("Values: random"), summary);
        assertTrue(summary.contains("bforest commit: " + run.environment().commit()), summary);
        assertTrue(summary.contains("node search: " + run.environment().nodeSearch()), summary);
        String html = HtmlReport.render(run);
        assertTrue(html.contains("slowest–fastest") && html.contains("class=\"spread\""), "spread in the report");
        assertTrue(html.contains("After the workloads that write"), "memory after writes in the report");
        assertTrue(html.contains(Html.esc(run.environment().commit())) && html.contains(
                Html.esc(run.environment().nodeSearch())) && html.contains(Html.esc(run.environment().machine()
                .cpuModel())), "commit, vector width and CPU in the report");
    }

    @Test
    void theHtmlOfARealRunIsWellFormed() throws Exception {
        HtmlReportTest.parse(HtmlReport.render(run));
    }

    @Test
    void csvQuotesOnlyWhereNeeded() {
        assertEquals("books_200M_uint64", CsvWriter.quote("books_200M_uint64"));
        assertEquals("\"a,b\"", CsvWriter.quote("a,b"));
        assertEquals("\"say \"\"hi\"\"\"", CsvWriter.quote("say \"hi\""));
    }

    @Test
    void resultsCoverTheRequestedWorkloads() {
        Set<Workload> seen = new HashSet<>();
        run.results().forEach(r -> seen.add(r.workload()));
        assertEquals(Set.copyOf(Workload.PAPER), seen);
    }
}
