package org.bforest.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void aBadDatasetFileIsOneLineNotAStackTrace(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("broken_uint64");
        Files.write(f, new byte[] {5, 0, 0, 0, 0, 0, 0, 0, 1, 2});
        assertEquals(2, run("--dataset", f.toString(), "--keys", "10", "--ops", "10", "--progress", "off"));
        String e = err.toString(StandardCharsets.UTF_8);
        assertTrue(e.startsWith("bforest bench: dataset file " + f), e);
        assertFalse(e.contains("\tat "), e);
    }

    @Test
    void aBadOptionIsOneLine() {
        assertEquals(2, run("--keys", "many"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--keys wants a count"));
    }

    @Test
    void helpPrintsTheOptions() {
        assertEquals(0, run("--help"));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("--structures"));
    }

    @Test
    void aSmallRunPrintsTheTableAndWritesTheCsv(@TempDir Path dir) throws IOException {
        Path csv = dir.resolve("r.csv");
        assertEquals(0, run("--structures", "bstree,treemap,sorted-array", "--dataset", "uniform", "--keys", "2K", "--ops", "500",
                "--workloads", "A,B", "--reps", "1", "--warmup", "0", "--progress", "plain", "--csv", csv.toString()));
        String o = out.toString(StandardCharsets.UTF_8);
        assertTrue(o.contains("treemap") && o.contains("sorted-array") && o.contains("bstree"), o);
        assertTrue(o.contains("bstree  "), o);
        // bstree and treemap on A and B, sorted-array on A.
        assertEquals(1 + 5, Files.readAllLines(csv).size(), Files.readString(csv));
    }
}
