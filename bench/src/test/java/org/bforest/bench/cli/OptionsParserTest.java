package org.bforest.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.bforest.bench.BenchException;
import org.bforest.bench.structures.Structure;
import org.bforest.bench.workloads.Workload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OptionsParserTest {

    @Test
    void countsTakeDecimalSuffixes() {
        assertEquals(10_000_000, Counts.parse("--keys", "10M"));
        assertEquals(150_000_000, Counts.parse("--keys", "150M"));
        assertEquals(1_000, Counts.parse("--keys", "1K"));
        assertEquals(1_000, Counts.parse("--keys", "1k"));
        assertEquals(1_500_000, Counts.parse("--keys", "1.5M"));
        assertEquals(2_000_000_000L, Counts.parse("--keys", "2G"));
        assertEquals(123_456, Counts.parse("--keys", "123456"));
        assertEquals(1_000_000, Counts.parse("--keys", "1_000_000"));
        for (String bad : new String[] {"", "M", "ten", "1.5", "-3", "1.0005K", "10MB"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Counts.parse("--keys", bad), bad);
            assertTrue(e.getMessage().startsWith("--keys"), e.getMessage());
        }
        assertEquals("150M", Counts.format(150_000_000));
        assertEquals("1.5M", Counts.format(1_500_000));
        assertEquals("250K", Counts.format(250_000));
        assertEquals("999", Counts.format(999));
    }

    @Test
    void defaultsRunEverythingButTheOpenClAndIgniteStructures() {
        Options o = OptionsParser.parse();
        assertEquals(Structure.onTheCpu(), o.structures());
        assertEquals(Structure.values().length - 4, o.structures().size());
        assertTrue(o.structures().stream().noneMatch(Structure::onDevice));
        assertTrue(o.structures().stream().noneMatch(Structure::onCluster));
        assertEquals(3, o.nodes());
        assertEquals(2, OptionsParser.parse("--nodes", "2").nodes());
        BenchException nodes = assertThrows(BenchException.class, () -> OptionsParser.parse("--nodes", "0"));
        assertTrue(nodes.getMessage().contains("between 1 and 8"), nodes.getMessage());
        assertEquals(Workload.PAPER, o.workloads());
        assertEquals(List.of("uniform", "dense"), o.datasets());
        assertEquals(List.of(1), o.threads());
        assertEquals(List.of(Options.DEFAULT_KEYS), o.keys());
        assertEquals(Options.DEFAULT_OPS, o.ops());
        assertEquals(null, o.seed());
        assertEquals(ProgressMode.AUTO, o.progress());
    }

    @Test
    void everyOptionParses() {
        Options o = OptionsParser.parse("--structures", "treemap,sorted-array", "--dataset=dense,lognormal",
                "--keys", "2K", "--ops", "1K", "--workloads", "a,C", "--threads", "1,2", "--seed", "42", "--reps",
                "5", "--warmup", "0", "--csv", "out.csv", "--report", "rep", "--sosd-unsigned-shift", "--progress",
                "plain");
        assertEquals(List.of(Structure.TREEMAP, Structure.SORTED_ARRAY), o.structures());
        assertEquals(List.of("dense", "lognormal"), o.datasets());
        assertEquals(List.of(2000), o.keys());
        assertEquals(1000, o.ops());
        assertEquals(List.of(Workload.A, Workload.C), o.workloads());
        assertEquals(List.of(1, 2), o.threads());
        assertEquals(42L, o.seed());
        assertEquals(5, o.reps());
        assertEquals(0, o.warmups());
        assertEquals(Path.of("out.csv"), o.csv());
        assertEquals(Path.of("rep"), o.reportDir());
        assertTrue(o.sosdUnsignedShift());
        assertEquals(ProgressMode.PLAIN, o.progress());
    }

    @Test
    void paperScaleIsOverriddenByExplicitCounts() {
        Options p = OptionsParser.parse("--scale", "paper");
        assertEquals(List.of(150_000_000), p.keys());
        assertEquals(50_000_000, p.ops());
        Options q = OptionsParser.parse("--keys", "10M", "--scale", "paper");
        assertEquals(List.of(10_000_000), q.keys());
        assertEquals(50_000_000, q.ops());
    }

    @Test
    void keysTakeAListForASizeSweep() {
        Options o = OptionsParser.parse("--keys", "1K,10K,100K");
        assertEquals(List.of(1_000, 10_000, 100_000), o.keys());
        assertTrue(o.sweep());
        assertEquals("1K, 10K, 100K", o.keysText());
        // Ascending and distinct, whatever the order given; spaces and a stray comma are fine.
        assertEquals(List.of(1_000, 10_000, 1_000_000), OptionsParser.parse("--keys=1M, 10K,1000,1K,").keys());
        // A single value is what it always was.
        Options one = OptionsParser.parse("--keys", "10M");
        assertEquals(List.of(10_000_000), one.keys());
        assertFalse(one.sweep());
        assertEquals("10M", one.keysText());
        assertEquals(List.of(10_000_000), OptionsParser.parse("--keys", "10M", "--scale", "paper").keys());
        // A bad element is named, with the message a single bad value gets.
        for (String[] bad : new String[][] {{"1K,lots,10K", "'lots'"}, {"1K,0", "at least 1, got 0"},
            {"10K,5G", "5000000000 is too large"}, {"1K,1.5", "1.5 is not a whole number"}, {",", "','"}}) {
            BenchException e = assertThrows(BenchException.class, () -> OptionsParser.parse("--keys", bad[0]), bad[0]);
            assertTrue(e.getMessage().startsWith("--keys") && e.getMessage().contains(bad[1]), e.getMessage());
        }
        assertEquals(assertThrows(BenchException.class, () -> OptionsParser.parse("--keys", "lots")).getMessage(),
                assertThrows(BenchException.class, () -> OptionsParser.parse("--keys", "1K,lots")).getMessage());
        assertTrue(OptionsParser.HELP.contains("--keys N[,N...]") && OptionsParser.HELP.contains("log axis"));
    }

    @Test
    void valuesAndBatchParseAndDefault() {
        Options d = OptionsParser.parse();
        assertEquals(ValueMode.KEY, d.values());
        assertEquals(List.of(), d.batches());
        assertFalse(d.batched());
        Options o = OptionsParser.parse("--values", "random", "--batch=1K");
        assertEquals(ValueMode.RANDOM, o.values());
        assertEquals(List.of(1000), o.batches());
        assertEquals(ValueMode.NONE, OptionsParser.parse("--values=None").values());
        BenchException e = assertThrows(BenchException.class, () -> OptionsParser.parse("--values", "ones"));
        assertTrue(e.getMessage().contains("key") && e.getMessage().contains("random") && e.getMessage().contains("none"),
                e.getMessage());
        assertTrue(e.getMessage().contains("--values") && e.getMessage().contains("'ones'"), e.getMessage());
        assertEquals(ValueMode.KEY, OptionsParser.parse("--values", " KEY ").values());
        assertEquals(List.of(1), OptionsParser.parse("--batch", "1").batches());
        for (String bad : new String[] {"0", "-4", "2M", "1.5", "many", ""}) {
            BenchException b = assertThrows(BenchException.class, () -> OptionsParser.parse("--batch", bad), bad);
            assertTrue(b.getMessage().startsWith("--batch"), b.getMessage());
        }
        assertTrue(assertThrows(BenchException.class, () -> OptionsParser.parse("--values")).getMessage()
                .contains("--values needs a value"));
    }

    @Test
    void batchTakesACommaListOfSizesFromOneTo1M() {
        Options o = OptionsParser.parse("--batch", "16,64,256,1K,4K,16K,64K,256K,1M");
        assertEquals(List.of(16, 64, 256, 1_000, 4_000, 16_000, 64_000, 256_000, 1_000_000), o.batches());
        assertTrue(o.batched());
        assertEquals("16, 64, 256, 1K, 4K, 16K, 64K, 256K, 1M", o.batchesText());
        // Ascending, duplicates dropped, blanks ignored, --name=value and Counts syntax alike.
        assertEquals(List.of(1024, 1_000_000), OptionsParser.parse("--batch=1M, 1024,,1_024").batches());
        assertEquals(List.of(1, OptionsParser.MAX_BATCH), OptionsParser.parse("--batch", "1048576,1").batches());
        // A single value is what it always was.
        assertEquals(List.of(1024), OptionsParser.parse("--batch", "1024").batches());
        // Each element is checked and named as a single value is.
        for (String[] bad : new String[][] {{"16,0", "got 0"}, {"16,2M", "got 2000000"}, {"1048577", "got 1048577"},
            {"16,lots", "'lots'"}, {"1.5,16", "1.5 is not a whole number"}, {",", "','"}, {"-4", "'-4'"}}) {
            BenchException e = assertThrows(BenchException.class, () -> OptionsParser.parse("--batch", bad[0]), bad[0]);
            assertTrue(e.getMessage().startsWith("--batch") && e.getMessage().contains(bad[1]), e.getMessage());
        }
        assertTrue(assertThrows(BenchException.class, () -> OptionsParser.parse("--batch", "0")).getMessage()
                .contains("between 1 and 1M"));
        assertTrue(OptionsParser.HELP.contains("--batch N[,N...]") && OptionsParser.HELP.contains("--anchors DIR"));
    }

    @Test
    void anchorsAreReadWhenParsedAndABadFolderIsNamed(@org.junit.jupiter.api.io.TempDir Path dir)
            throws java.io.IOException {
        assertTrue(OptionsParser.parse().anchors().isEmpty());
        java.nio.file.Files.writeString(dir.resolve("cpp.csv"), "source,dataset,keys,workload,mops\n"
                + "C++ BS-tree,uniform,100K,A,21.5\n");
        Options o = OptionsParser.parse("--anchors", dir.toString(), "--batch", "16,1K");
        assertEquals(1, o.anchors().all().size());
        assertEquals(dir, o.anchors().where());
        Path missing = dir.resolve("nowhere");
        BenchException e = assertThrows(BenchException.class,
                () -> OptionsParser.parse("--anchors", missing.toString()));
        assertTrue(e.getMessage().startsWith("--anchors " + missing) && e.getMessage().contains("no such folder"),
                e.getMessage());
        // --help reads nothing.
        assertTrue(OptionsParser.parse("--anchors", missing.toString(), "--help").help());
    }

    @Test
    void allMeansEveryCpuStructureAndTheOpenClOnesAreNamed() {
        assertEquals(Structure.onTheCpu(), OptionsParser.parse("--structures", "all").structures());
        assertEquals(List.of(Structure.GPU_BTREE, Structure.HYBRID, Structure.BSTREE),
                OptionsParser.parse("--structures", "gpu-btree,hybrid,bstree").structures());
    }

    @Test
    void badInputIsAClearMessage() {
        String[][] bad = {
            {"--structures", "btree"}, {"--workloads", "G"}, {"--build", "grown"}, {"--keys", "lots"}, {"--keys", "0"}, {"--threads", "0"},
            {"--scale", "huge"}, {"--frobnicate"}, {"--keys"}, {"--seed", "x"}, {"--progress", "fancy"},
            {"--keys", "5G"}, {"--values", "fancy"}, {"--batch", "0"}, {"--batch", "many"}, {"--batch", "16,0"},
            {"--anchors"},
        };
        for (String[] args : bad) {
            BenchException e = assertThrows(BenchException.class, () -> OptionsParser.parse(args), String.join(" ", args));
            assertTrue(!e.getMessage().isBlank());
        }
    }

    @Test
    void snapshotTakesAFolder(@TempDir Path dir) throws IOException {
        assertNull(OptionsParser.parse().snapshotDir());
        assertFalse(OptionsParser.parse().snapshots());
        Options o = OptionsParser.parse("--snapshot", dir.resolve("snaps").toString());
        assertEquals(dir.resolve("snaps"), o.snapshotDir());
        assertTrue(o.snapshots());
        assertEquals(dir, OptionsParser.parse("--snapshot=" + dir).snapshotDir());
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        BenchException e = assertThrows(BenchException.class, () -> OptionsParser.parse("--snapshot", file.toString()));
        assertTrue(e.getMessage().contains("is a file, not a folder"), e.getMessage());
        assertThrows(BenchException.class, () -> OptionsParser.parse("--snapshot"));
        assertThrows(BenchException.class, () -> OptionsParser.parse("--snapshot="));
    }

    @Test
    void visitAllIsAFlag() {
        assertFalse(OptionsParser.parse().visitAll());
        assertTrue(OptionsParser.parse("--visit-all").visitAll());
        assertTrue(OptionsParser.parse("--workloads", "A", "--visit-all", "--reps", "2").visitAll());
    }

    @Test
    void helpExplainsEveryOption() {
        for (String opt : new String[] {"--structures", "--dataset", "--keys", "--ops", "--workloads", "--threads",
            "--seed", "--csv", "--report", "--scale", "--sosd-unsigned-shift", "--help", "--reps", "--warmup",
            "--progress", "--values", "--batch", "--anchors", "--snapshot", "--visit-all"}) {
            assertTrue(OptionsParser.HELP.contains(opt), opt);
        }
        assertTrue(OptionsParser.parse("-h").help());
    }

    @Test
    void tooManyDeletesNamesEachWorkloadsOwnLimit() {
        // F deletes with every operation: at most half of --keys (the old hint said E's "10 times").
        BenchException f = assertThrows(BenchException.class,
                () -> OptionsParser.parse("--keys", "1K", "--workloads", "F", "--ops", "1K"));
        assertTrue(f.getMessage().contains("workload F would delete 1000 keys")
                && f.getMessage().contains("at most half of --keys (500 at 1000 keys)"), f.getMessage());
        assertFalse(f.getMessage().contains("10 times"), f.getMessage());
        assertEquals(500, OptionsParser.parse("--keys", "1K", "--workloads", "F", "--ops", "500").ops());
        // E deletes with 5% of its operations: about ten times --keys.
        BenchException e = assertThrows(BenchException.class,
                () -> OptionsParser.parse("--keys", "100", "--workloads", "A,E", "--ops", "2K"));
        assertTrue(e.getMessage().contains("workload E") && e.getMessage().contains("at most 10 times --keys (1010 at 100 keys)"),
                e.getMessage());
        OptionsParser.parse("--keys", "100", "--workloads", "E", "--ops", "1010");
        // A size sweep runs a writing workload at most as many operations as the size has keys:
        // F still needs --ops within half of the smallest size, E always fits.
        BenchException s = assertThrows(BenchException.class,
                () -> OptionsParser.parse("--keys", "1K,10K", "--workloads", "F", "--ops", "600"));
        assertTrue(s.getMessage().contains("(500 at 1000 keys)"), s.getMessage());
        OptionsParser.parse("--keys", "1K,10K", "--workloads", "E", "--ops", "1M");
        OptionsParser.parse("--keys", "1K,10K", "--workloads", "F", "--ops", "500");
    }

    @Test
    void slidingWindowNeedsTwentyOperationsAndASingleThreadedRun() {
        BenchException few = assertThrows(BenchException.class,
                () -> OptionsParser.parse("--keys", "1K", "--workloads", "W", "--ops", "19"));
        assertTrue(few.getMessage().contains("--ops of at least 20"), few.getMessage());
        BenchException sweep = assertThrows(BenchException.class,
                () -> OptionsParser.parse("--keys", "10,1K", "--workloads", "A,W", "--ops", "1K"));
        assertTrue(sweep.getMessage().contains("at every size") && sweep.getMessage().contains("10 keys here"),
                sweep.getMessage());
        BenchException threads = assertThrows(BenchException.class,
                () -> OptionsParser.parse("--workloads", "W", "--threads", "2,4"));
        assertTrue(threads.getMessage().contains("single-threaded only") && threads.getMessage().contains(
                "add 1 to --threads"), threads.getMessage());
        // W removes only the keys it put: no limit from the number of keys, unlike F
        assertEquals(1_000_000, OptionsParser.parse("--keys", "100", "--workloads", "W", "--ops", "1M").ops());
        assertEquals(List.of(1, 2), OptionsParser.parse("--workloads", "A,W", "--threads", "1,2").threads());
        assertTrue(OptionsParser.HELP.contains("W sliding-window") && OptionsParser.HELP.contains("w_mops_1..10"));
    }
}
