package org.bforest.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.bforest.bench.BenchException;
import org.bforest.bench.workloads.Workload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code --anchors} CSV files: what a good file gives, and the file and line a bad one names. */
class AnchorsTest {

    @Test
    void aGoodFolderGivesEveryFigureInFileAndLineOrder(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("b-cpp.csv"), """
                \uFEFF# the authors' BS-tree, -O3
                Source, Dataset ,KEYS,workload,mops

                C++ BS-tree,uniform,100K,A,21.5
                "C++ BS-tree, SIMD off",uniform,100000,a,9.75
                # a comment between rows
                C++ BS-tree,Dense,1M,B,3e0
                """);
        Files.writeString(dir.resolve("a-stx.CSV"), "source,dataset,keys,workload,mops\r\n"
                + "\"STX \"\"B+\"\" tree\",uniform,100K,A,.5\r\n");
        Files.writeString(dir.resolve("notes.txt"), "not a CSV file: not read");
        Anchors a = Anchors.load(dir);
        assertEquals(dir, a.where());
        List<Anchors.Anchor> all = a.all();
        assertEquals(4, all.size());
        // a-stx.CSV first (name order), the quoted field with its doubled quote
        assertEquals(new Anchors.Anchor("STX \"B+\" tree", "uniform", 100_000, Workload.A, 0.5,
                dir.resolve("a-stx.CSV").toString(), 2), all.get(0));
        assertEquals(new Anchors.Anchor("C++ BS-tree", "uniform", 100_000, Workload.A, 21.5,
                dir.resolve("b-cpp.csv").toString(), 4), all.get(1));
        assertEquals("C++ BS-tree, SIMD off", all.get(2).source());
        assertEquals(9.75, all.get(2).mops());
        assertEquals(Workload.B, all.get(3).workload());
        assertEquals(1_000_000, all.get(3).keys());
        // Matching: the dataset ignoring case, the keys and workload exactly.
        assertEquals(3, a.matching("UNIFORM", 100_000, Workload.A).size());
        assertEquals(1, a.matching("dense", 1_000_000, Workload.B).size());
        assertEquals(0, a.matching("dense", 1_000_000, Workload.A).size());
        assertEquals(0, a.matching("uniform", 100_001, Workload.A).size());
        assertEquals(List.of("STX \"B+\" tree", "C++ BS-tree", "C++ BS-tree, SIMD off"), a.sources("uniform", 100_000));
        // One file is a folder of one.
        assertEquals(1, Anchors.load(dir.resolve("a-stx.CSV")).all().size());
    }

    /** Each bad file: its content, and what its message must say (after "FILE line N: "). */
    @Test
    void aBadLineIsNamedByFileAndLine(@TempDir Path dir) throws IOException {
        String header = "source,dataset,keys,workload,mops\n";
        String[][] bad = {
            {"source,dataset,keys,workload\nx,uniform,1K,A,1\n", "1", "the first row must be the header"},
            {"# only a comment\nC++,uniform,1K,A,2\n", "2", "the first row must be the header"},
            {header + "C++,uniform,1K,A\n", "2", "4 fields, expected 5"},
            {header + "C++,uniform,1K,A,2,3\n", "2", "6 fields, expected 5"},
            {header + "\n# fine\nC++,uniform,lots,A,2\n", "4", "'lots'"},
            {header + "C++,uniform,0,A,2\n", "2", "keys must be at least 1"},
            {header + "C++,uniform,1K,G,2\n", "2", "unknown workload 'G'"},
            {header + "C++,uniform,1K,A,fast\n", "2", "not 'fast'"},
            {header + "C++,uniform,1K,A,-2\n", "2", "not '-2'"},
            {header + "C++,uniform,1K,A,0\n", "2", "must be above 0"},
            {header + "C++,uniform,1K,A,NaN\n", "2", "not 'NaN'"},
            {header + ",uniform,1K,A,2\n", "2", "source is empty"},
            {header + "C++, ,1K,A,2\n", "2", "dataset is empty"},
            {header + "\"C++,uniform,1K,A,2\n", "2", "a quote that is never closed"},
            {header + "\"C++\"x,uniform,1K,A,2\n", "2", "text after a closing quote"},
            {header + "C++,uniform,1K,A,2\nC++,UNIFORM,1000,a,3\n", "3", "has a figure already"},
        };
        for (int i = 0; i < bad.length; i++) {
            Path f = dir.resolve("bad" + i + ".csv");
            Files.writeString(f, bad[i][0]);
            BenchException e = assertThrows(BenchException.class, () -> Anchors.load(f), bad[i][0]);
            assertTrue(e.getMessage().startsWith(f + " line " + bad[i][1] + ": ") && e.getMessage().contains(bad[i][2]),
                    "case " + i + ": " + e.getMessage());
            Files.delete(f);
        }
        // A file with nothing in it has no header: named, without a line.
        Path empty = Files.writeString(dir.resolve("empty.csv"), "# nothing yet\n\n");
        BenchException e = assertThrows(BenchException.class, () -> Anchors.load(empty));
        assertTrue(e.getMessage().startsWith(empty + ": no header"), e.getMessage());
        Files.delete(empty);
        // A figure given twice in two files names both.
        Files.writeString(dir.resolve("one.csv"), header + "C++,uniform,1K,A,2\n");
        Files.writeString(dir.resolve("two.csv"), header + "# again\nC++,uniform,1K,A,2.5\n");
        e = assertThrows(BenchException.class, () -> Anchors.load(dir));
        assertTrue(e.getMessage().startsWith(dir.resolve("two.csv") + " line 3: ")
                && e.getMessage().contains(dir.resolve("one.csv") + " line 2"), e.getMessage());
    }

    @Test
    void aMissingOrEmptyFolderIsAClearError(@TempDir Path dir) throws IOException {
        BenchException missing = assertThrows(BenchException.class, () -> Anchors.load(dir.resolve("no")));
        assertTrue(missing.getMessage().contains(dir.resolve("no") + ": no such folder")
                && missing.getMessage().contains(Anchors.HEADER), missing.getMessage());
        Files.writeString(dir.resolve("readme.txt"), "no CSV here");
        BenchException empty = assertThrows(BenchException.class, () -> Anchors.load(dir));
        assertTrue(empty.getMessage().contains("holds no .csv file"), empty.getMessage());
    }
}
