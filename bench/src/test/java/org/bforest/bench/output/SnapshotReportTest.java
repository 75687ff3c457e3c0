package org.bforest.bench.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.bforest.LongIndex;
import org.bforest.bench.BenchException;
import org.bforest.bench.cli.OptionsParser;
import org.bforest.bench.cli.ProgressMode;
import org.bforest.bench.runner.BenchmarkRunner;
import org.bforest.bench.runner.PageCache;
import org.bforest.bench.runner.Progress;
import org.bforest.bench.runner.RunSummary;
import org.bforest.bench.runner.SnapshotFigures;
import org.bforest.bench.runner.SnapshotFigures.Row;
import org.bforest.bench.runner.SnapshotIo;
import org.bforest.bench.runner.SnapshotMismatchException;
import org.bforest.bench.structures.Structure;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --snapshot} end to end on 10K keys: two bforest structures and a peer, their figures in
 * every output, and a run that fails when what comes back from a snapshot is not what was saved.
 */
class SnapshotReportTest {
    private static final String[] SMALL = {"--dataset", "uniform", "--keys", "10K", "--ops", "2K", "--workloads", "A",
        "--reps", "2", "--warmup", "0", "--progress", "off"};
    private static final SnapshotIo IO = SnapshotIo.CORE;
    @TempDir
    static Path tmp;
    private static RunSummary run;
    private static Path dir;

    @BeforeAll
    static void runSmall() {
        dir = tmp.resolve("snaps");
        run = run(IO, "--structures", "bstree,bstree-set,treemap", "--snapshot", dir.toString());
    }

    private static RunSummary run(SnapshotIo io, String... args) {
        String[] all = Stream.concat(Stream.of(SMALL), Stream.of(args)).toArray(String[]::new);
        try (Progress p = Progress.create(ProgressMode.OFF, System.err)) {
            return new BenchmarkRunner(OptionsParser.parse(all), p, io).run();
        }
    }

    @Test
    void everyBforestStructureAndTheBaselinesHaveARow() throws IOException {
        List<String> names = run.snapshots().stream().map(SnapshotFigures::name).toList();
        assertEquals(List.of("bstree", "bstree-set", "disk", "treemap-serialization", "fastutil-binio"),
                sorted(names), run.notes().toString());
        for (SnapshotFigures f : run.snapshots()) {
            assertEquals(2, f.saveSeconds().length, f.name());
            assertTrue(f.bytes() > 0 && f.save() > 0 && f.load() > 0 && f.saveGbps() > 0 && f.loadGbps() > 0, f.name());
            assertEquals(PageCache.supported(), f.coldLoadSeconds().length == 2 && f.coldLoad() > 0, f.name());
            if (f.row() == Row.STRUCTURE) {
                assertEquals(10_000, f.entries());
                assertEquals(2_000, f.lookups());
                assertTrue(f.map() > 0 && f.mapped() > 0 && f.mappedMin() <= f.mapped(), f.name());
                assertNotNull(f.kind(), f.name());
            }
        }
        SnapshotFigures binio = find("fastutil-binio");
        assertEquals(16 * 10_000, binio.bytes());
        SnapshotFigures disk = find("disk");
        long largest = run.snapshots().stream().filter(f -> f.row() == Row.STRUCTURE).mapToLong(SnapshotFigures::bytes)
                .max().getAsLong();
        assertEquals(largest, disk.bytes());
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.toList(), "every file deleted");
        }
        assertFalse(run.notes().stream().anyMatch(n -> n.contains("snapshot")), run.notes().toString());
    }

    /** The snapshot figures' order in the table: structures first, then the disk and the baselines. */
    private static List<String> sorted(List<String> names) {
        List<String> out = new ArrayList<>(names);
        out.sort((a, b) -> Integer.compare(rank(a), rank(b)));
        return out;
    }

    private static int rank(String name) {
        return List.of("bstree", "bstree-set", "disk", "treemap-serialization", "fastutil-binio").indexOf(name);
    }

    private static SnapshotFigures find(String name) {
        return run.snapshots().stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void theTextTableHasTheFiguresAndRatios() {
        String table = ResultTable.render(run);
        assertTrue(table.contains("Snapshots on uniform at 10K keys (--snapshot): median of 2 repetitions"), table);
        String block = table.substring(table.indexOf("Snapshots on"));
        for (String h : List.of("MB", "B/key", "save s", "load s", "cold load s", "map ms", "mapped A Mops/s", "vs A",
                "save/disk", "load/disk", "cold/disk", "load vs TreeMap", "load kind")) {
            assertTrue(block.contains(h), h + " in " + block);
        }
        String bstree = line(block, "bstree ");
        // The ratios: mapped vs A, save/disk, load/disk, load vs TreeMap; then the kind Indexes.load builds
        assertTrue(bstree.matches(".*( +[0-9.]+x){5}  BS_TREE\\(fill 0\\.75\\)$") || !PageCache.supported(), bstree);
        assertTrue(line(block, "bstree-set ").endsWith("BS_TREE_KEY_ONLY(fill 0.75)"), block);
        assertTrue(line(block, "disk ").endsWith("write, read, cold read"), block);
        assertFalse(block.contains("treemap "), "a peer has no snapshot: " + block);
        assertTrue(TextReport.render(run).contains("--snapshot: after each dataset's cells"), "protocol");
    }

    private static String line(String text, String start) {
        return text.lines().filter(l -> l.startsWith(start)).findFirst().orElseThrow(() -> new AssertionError(
                "no line " + start + " in\n" + text));
    }

    @Test
    void theCsvHasTheSnapshotRowsAndColumns() throws IOException {
        StringBuilder sb = new StringBuilder();
        CsvWriter.write(run, sb);
        List<String> lines = sb.toString().lines().toList();
        String[] header = lines.get(0).split(",");
        assertEquals(75, header.length);
        assertEquals(List.of(header).subList(39, 64), SnapshotTables.CSV_COLUMNS);
        int snapshots = 0;
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)", -1); // commas outside quotes
            assertEquals(75, f.length, line);
            if (!f[2].equals("snapshot")) {
                for (int c = 39; c < 64; c++) {
                    assertEquals("", f[c], "snapshot columns empty on a cell's row: " + line);
                }
                continue;
            }
            snapshots++;
            boolean structure = f[0].startsWith("bstree");
            assertEquals("10000", f[4], line);
            assertEquals(structure ? "2000" : "0", f[5], line);
            assertEquals(structure, !f[6].isEmpty(), "mapped Mops/s: " + line);
            assertEquals("2", f[11], line);
            assertTrue(Long.parseLong(f[40]) > 0, line);
            // save s, save GB/s, load s, load GB/s
            assertTrue(Double.parseDouble(f[42]) > 0 && Double.parseDouble(f[45]) > 0 && Double.parseDouble(f[46]) > 0
                    && Double.parseDouble(f[49]) > 0, line);
            // mapped vs A, save/disk, load/disk, (cold/disk,) load vs TreeMap, kind
            for (int c = 57; c <= 62; c++) {
                assertEquals(structure && (c != 60 || PageCache.supported()), !f[c].isEmpty(), header[c] + ": " + line);
            }
            assertEquals(PageCache.supported(), !f[50].isEmpty() && !f[53].isEmpty(), "cold load: " + line);
            assertEquals(structure, !f[54].isEmpty(), "map ms: " + line);
            assertEquals(!f[0].equals("disk"), !f[39].isEmpty(), "entries: " + line);
        }
        assertEquals(5, snapshots);
    }

    @Test
    void theReportHasASnapshotSection() throws Exception {
        String html = HtmlReport.render(run);
        HtmlReportTest.parse(html);
        assertTrue(html.contains("<section id=\"snapshots\">") && html.contains("fastutil-binio")
                && html.contains("treemap-serialization"), "snapshots section");
        assertNull(SnapshotTables.html(RunSummaryWithout.snapshots(run)));
    }

    @Test
    void aFolderThatCannotBeWrittenIsRefusedBeforeAnythingRuns() throws IOException {
        Path file = Files.writeString(tmp.resolve("plain-file"), "x");
        BenchException e = assertThrows(BenchException.class,
                () -> run(IO, "--structures", "bstree", "--snapshot", file.resolve("sub").toString()));
        assertTrue(e.getMessage().startsWith("--snapshot " + file.resolve("sub") + ": cannot write there"),
                e.getMessage());
    }

    /** A run whose snapshots come back with one entry missing, one value changed, or wrong lookups, fails. */
    @Test
    void aSnapshotThatComesBackDifferentFailsTheRun() {
        SnapshotIo lost = new Faulty() {
            @Override
            public LongIndex load(Path file) throws IOException {
                LongIndex back = super.load(file);
                back.remove(back.lastKey());
                return back;
            }
        };
        SnapshotIo changed = new Faulty() {
            @Override
            public LongIndex load(Path file) throws IOException {
                LongIndex back = super.load(file);
                back.put(back.firstKey(), 42);
                return back;
            }
        };
        SnapshotIo answers = new Faulty() {
            @Override
            public LongIndex map(Path file) throws IOException {
                LongIndex back = super.load(file); // a mapped index is read-only: a loaded one stands in
                List<Long> keys = new ArrayList<>();
                back.forEach((k, v) -> keys.add(k));
                for (long k : keys) {
                    back.put(k, back.get(k) + 1);
                }
                return back;
            }
        };
        Path d = tmp.resolve("faulty");
        SnapshotMismatchException e = assertThrows(SnapshotMismatchException.class,
                () -> run(lost, "--structures", "bstree", "--snapshot", d.toString()));
        assertTrue(e.getMessage().contains("bstree") && e.getMessage().contains("holds 9999 entries, the original 10000"),
                e.getMessage());
        e = assertThrows(SnapshotMismatchException.class,
                () -> run(changed, "--structures", "bstree", "--snapshot", d.toString()));
        assertTrue(e.getMessage().contains("holds other entries than the original"), e.getMessage());
        e = assertThrows(SnapshotMismatchException.class,
                () -> run(answers, "--structures", "bstree", "--snapshot", d.toString()));
        assertTrue(e.getMessage().contains("workload A's lookups on the mapped snapshot returned other results"),
                e.getMessage());
    }

    /** Core's own calls, each of which a test above breaks. */
    private static class Faulty implements SnapshotIo {
        @Override
        public void save(LongIndex index, Path file) throws IOException {
            IO.save(index, file);
        }

        @Override
        public LongIndex load(Path file) throws IOException {
            return IO.load(file);
        }

        @Override
        public LongIndex map(Path file) throws IOException {
            return IO.map(file);
        }

        @Override
        public String kind(LongIndex index) {
            return IO.kind(index);
        }

        @Override
        public boolean storesValues(LongIndex index) {
            return IO.storesValues(index);
        }
    }

    /** The same run without its snapshot figures. */
    private static final class RunSummaryWithout {
        static RunSummary snapshots(RunSummary r) {
            return new RunSummary(r.options(), r.environment(), r.datasets(), r.results(), r.notes(), r.wallSeconds(),
                    r.args());
        }
    }
}
