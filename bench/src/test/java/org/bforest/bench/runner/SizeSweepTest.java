package org.bforest.bench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import org.bforest.bench.BenchException;
import org.bforest.bench.cli.OptionsParser;
import org.bforest.bench.cli.ProgressMode;
import org.bforest.bench.output.CsvWriter;
import org.bforest.bench.output.HtmlReport;
import org.bforest.bench.output.ResultTable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --keys 1K,2K}: every size runs, each row carries its size, the report draws the sweep. */
class SizeSweepTest {
    private static final List<String> STRUCTURES = List.of("bstree", "treemap");
    private static final List<String> WORKLOADS = List.of("A", "B");
    private static RunSummary sweep;
    private static String progress;

    private static RunSummary run(ByteArrayOutputStream err, String... args) {
        List<String> all = new ArrayList<>(List.of("--structures", String.join(",", STRUCTURES), "--dataset",
                "uniform", "--ops", "500", "--workloads", String.join(",", WORKLOADS), "--reps", "1", "--warmup",
                "0"));
        all.addAll(List.of(args));
        try (Progress p = Progress.create(ProgressMode.PLAIN, new PrintStream(err, true, StandardCharsets.UTF_8))) {
            return new BenchmarkRunner(OptionsParser.parse(all.toArray(String[]::new)), p).run();
        }
    }

    @BeforeAll
    static void runASweep() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        sweep = run(err, "--keys", "2K,1K");
        progress = err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aStabilizedBuildHoldsTheSameKeysAndValuesAsABulkLoadAndSkipsReadOnlyStructures() {
        String[] common = {"--structures", "bstree,bminus,bplus,treemap,sorted-array", "--keys", "3000", "--ops", "1000",
                "--workloads", "A,F"};
        RunSummary bulk = run(new ByteArrayOutputStream(), common);
        String[] grown = java.util.Arrays.copyOf(common, common.length + 2);
        grown[common.length] = "--build";
        grown[common.length + 1] = "stabilized";
        RunSummary stab = run(new ByteArrayOutputStream(), grown);
        java.util.Map<String, Long> sums = new java.util.HashMap<>();
        for (Result r : bulk.results()) {
            sums.put(r.structure().cliName() + "/" + r.workload(), r.checksum());
        }
        int compared = 0;
        for (Result r : stab.results()) {
            assertTrue(r.structure().updatable(), r.toString());
            // the same keys and values, so the same lookups and deletes, and the same checksums
            assertEquals(sums.get(r.structure().cliName() + "/" + r.workload()), r.checksum(), r.toString());
            compared++;
        }
        assertEquals(4 * 2, compared);
        assertTrue(stab.notes().stream().anyMatch(n -> n.contains("stabilized") && n.contains("300 keys")
                && n.contains("2700 inserts")), stab.notes().toString());
        assertTrue(stab.notes().stream().anyMatch(n -> n.contains("sorted-array") && n.contains("read-only")),
                stab.notes().toString());
    }

    @Test
    void aWriteWorkloadRunsAtMostAsManyOperationsAsTheSizeHasKeys() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        RunSummary r = run(err, "--keys", "300,1K", "--ops", "800");
        for (Result x : r.results()) {
            int expected = x.workload().readOnly() || x.keys() >= 800 ? 800 : x.keys();
            assertEquals(expected, x.ops(), x.toString());
        }
        assertTrue(r.notes().stream().anyMatch(n -> n.contains("workload B at 300 keys ran 300 operations")),
                r.notes().toString());
        // a single size keeps --ops as given
        RunSummary single = run(new ByteArrayOutputStream(), "--keys", "300", "--ops", "800");
        assertTrue(single.results().stream().allMatch(x -> x.ops() == 800), single.results().toString());
    }

    @Test
    void everySizeRunsEveryStructureAndWorkloadAndEachCsvRowCarriesItsSize() throws IOException {
        StringBuilder csv = new StringBuilder();
        CsvWriter.write(sweep, csv);
        String[] lines = csv.toString().split("\n");
        Set<String> rows = new HashSet<>();
        List<Integer> order = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            String[] f = lines[i].split(",", -1);
            assertTrue(rows.add(f[0] + "/" + f[2] + "/" + f[4]), "duplicate row " + lines[i]);
            order.add(Integer.parseInt(f[4]));
        }
        for (String n : List.of("1000", "2000")) {
            for (String s : STRUCTURES) {
                for (String w : WORKLOADS) {
                    assertTrue(rows.contains(s + "/" + w + "/" + n), s + " " + w + " at " + n + ": " + rows);
                }
            }
        }
        assertEquals(2 * STRUCTURES.size() * WORKLOADS.size(), rows.size(), csv.toString());
        // Smallest size first, whatever the order on the command line.
        assertEquals(order.stream().sorted().toList(), order);
        for (Result r : sweep.results()) {
            assertTrue(r.mops() > 0 && (r.keys() == 1000 || r.keys() == 2000), r.toString());
        }
        // The dataset generated once per size, at that size.
        assertEquals(List.of(1000, 2000), sweep.datasets().stream().map(DatasetInfo::keys).toList());
        assertTrue(sweep.notes().stream().noneMatch(n -> n.contains("different results")), sweep.notes().toString());
    }

    @Test
    void theProgressSaysWhichSizeRuns() {
        assertTrue(progress.contains("size 1K (1/2), dataset uniform: generating 1K + 500 keys"), progress);
        assertTrue(progress.contains("size 2K (2/2), dataset uniform: generating 2K + 500 keys"), progress);
        assertTrue(progress.contains("bstree uniform 1K keys A rep 1/1"), progress);
        assertTrue(progress.contains("treemap uniform 2K keys B rep 1/1"), progress);
        assertTrue(progress.indexOf("uniform 1K keys B") < progress.indexOf("uniform 2K keys A"), progress);
    }

    @Test
    void theTableHasABlockPerSizeAndTheSweepAsText() {
        String table = ResultTable.render(sweep);
        assertTrue(table.contains("uniform: 1K keys, 500 ops") && table.contains("uniform: 2K keys, 500 ops"), table);
        assertTrue(table.contains("uniform, A read-only, 1 thread: Mops/s by the number of keys"), table);
    }

    @Test
    void theReportDrawsThroughputAgainstKeysOnlyForASweep() throws Exception {
        String html = HtmlReport.render(sweep);
        assertTrue(html.contains("id=\"sweep\""), "the sweep section");
        String section = html.substring(html.indexOf("id=\"sweep\""), html.indexOf("id=\"throughput\""));
        assertEquals(WORKLOADS.size(), count(section, "<svg "), "a line chart per workload");
        assertEquals(WORKLOADS.size(), count(section, "class=\"chart line\""));
        // The log axis spans the decades around 1K-2K, labelled the short way.
        assertTrue(section.contains(">1K</text>") && section.contains(">10K</text>"), section);
        assertTrue(section.contains("number of keys (log scale)"), section);
        // A line and a marker per size for each structure.
        assertEquals(WORKLOADS.size() * STRUCTURES.size() * 2, count(section, "keys: "), "marker tooltips");
        // Per-size bar charts and ratios, never mixing sizes.
        assertTrue(html.contains("<h3>1K keys</h3>") && html.contains("<h3>2K keys</h3>"), "per-size headings");
        // Well-formed: every SVG parses as XML inside the page.
        DocumentBuilderFactory xml = DocumentBuilderFactory.newInstance();
        xml.setNamespaceAware(true);
        xml.newDocumentBuilder().parse(new ByteArrayInputStream(html.getBytes(StandardCharsets.UTF_8)));

        RunSummary one = run(new ByteArrayOutputStream(), "--keys", "1K", "--progress", "off");
        String single = HtmlReport.render(one);
        assertFalse(single.contains("id=\"sweep\"") || single.contains("chart line"), "no sweep chart for one size");
        assertFalse(single.contains("<h3>1K keys</h3>"));
        assertFalse(ResultTable.render(one).contains("by the number of keys"));
    }

    @Test
    void aSizeADatasetCannotReachIsANoteAndTheSmallerSizesKeepTheirFigures(@TempDir Path dir) throws IOException {
        // 1,800 distinct keys: enough for 1K + 500 operations, not for 2K.
        Path f = dir.resolve("small_uint64");
        ByteBuffer b = ByteBuffer.allocate(8 + 8 * 1800).order(ByteOrder.LITTLE_ENDIAN).putLong(1800);
        for (int i = 0; i < 1800; i++) {
            b.putLong(10L * i + 7);
        }
        Files.write(f, b.array());
        RunSummary r = run(new ByteArrayOutputStream(), "--keys", "1K,2K", "--dataset", f.toString(), "--progress",
                "off");
        assertEquals(Set.of(1000), new HashSet<>(r.results().stream().map(Result::keys).toList()));
        assertEquals(STRUCTURES.size() * WORKLOADS.size(), r.results().size());
        assertTrue(r.notes().stream().anyMatch(n -> n.startsWith("dataset " + f + " skipped at 2K keys: ")
                && n.contains("holds 1800 distinct keys")), r.notes().toString());
        // At the first size, it is the error it always was.
        BenchException e = assertThrows(BenchException.class, () -> run(new ByteArrayOutputStream(), "--keys",
                "2K,4K", "--dataset", f.toString(), "--progress", "off"));
        assertTrue(e.getMessage().contains("holds 1800 distinct keys"), e.getMessage());
    }

    private static int count(String haystack, String needle) {
        int n = 0;
        for (int i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }
}
