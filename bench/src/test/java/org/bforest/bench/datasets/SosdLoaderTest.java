package org.bforest.bench.datasets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.bforest.bench.BenchException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SosdLoaderTest {
    @TempDir
    Path dir;

    /** A SOSD file: {@code count} as the header, then {@code keys}, little-endian. */
    private Path file(String name, long count, long... keys) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(8 + 8 * keys.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(count);
        for (long k : keys) {
            b.putLong(k);
        }
        Path p = dir.resolve(name);
        Files.write(p, b.array());
        return p;
    }

    private BenchException fails(Path p, boolean shift) {
        BenchException e = assertThrows(BenchException.class, () -> SosdLoader.read(p, shift));
        assertTrue(e.getMessage().contains(p.toString()), "names the file: " + e.getMessage());
        return e;
    }

    @Test
    void readsAWellFormedFile() throws IOException {
        Path p = file("ok_uint64", 4, 10, 20, 30, 1L << 40);
        SosdLoader.Keys k = SosdLoader.read(p, false);
        assertArrayEquals(new long[] {10, 20, 30, 1L << 40}, k.keys());
        assertTrue(k.notes().isEmpty());
    }

    @Test
    void fileShorterThanTheHeader() throws IOException {
        Path p = dir.resolve("tiny");
        Files.write(p, new byte[] {1, 2, 3});
        assertTrue(fails(p, false).getMessage().contains("truncated"));
    }

    @Test
    void emptyFile() throws IOException {
        Path p = dir.resolve("empty");
        Files.write(p, new byte[0]);
        assertTrue(fails(p, false).getMessage().contains("truncated"));
    }

    @Test
    void countLargerThanTheFile() throws IOException {
        BenchException e = fails(file("short", 5, 1, 2, 3), false);
        assertTrue(e.getMessage().contains("truncated") && e.getMessage().contains("5 keys"), e.getMessage());
    }

    @Test
    void countSmallerThanTheFile() throws IOException {
        BenchException e = fails(file("long", 2, 1, 2, 3), false);
        assertTrue(e.getMessage().contains("longer than its header"), e.getMessage());
    }

    @Test
    void partialKeyAtTheEnd() throws IOException {
        Path p = file("partial", 2, 1, 2);
        Files.write(p, new byte[] {9, 9, 9}, java.nio.file.StandardOpenOption.APPEND);
        BenchException e = fails(p, false);
        assertTrue(e.getMessage().contains("not a whole number"), e.getMessage());
    }

    @Test
    void absurdCount() throws IOException {
        BenchException e = fails(file("absurd", -1L, 1, 2), false);
        assertTrue(e.getMessage().contains("18446744073709551615"), e.getMessage());
    }

    @Test
    void missingFile() {
        BenchException e = fails(dir.resolve("nope"), false);
        assertTrue(e.getMessage().contains("no such file"), e.getMessage());
    }

    @Test
    void unsortedKeysAreSortedWithANote() throws IOException {
        SosdLoader.Keys k = SosdLoader.read(file("unsorted", 4, 30, 10, 40, 20), false);
        assertArrayEquals(new long[] {10, 20, 30, 40}, k.keys());
        assertTrue(k.notes().stream().anyMatch(n -> n.contains("not sorted")), k.notes().toString());
    }

    @Test
    void duplicateKeysAreDroppedWithANote() throws IOException {
        Path p = file("dups", 8, 1, 2, 2, 3, 4, 4, 4, 5);
        Dataset d = SosdLoader.load(p, false, 3, 2, 7);
        assertTrue(d.notes().stream().anyMatch(n -> n.contains("3 duplicate key(s) dropped")), d.notes().toString());
        long[] all = new long[5];
        System.arraycopy(d.loaded(), 0, all, 0, 3);
        System.arraycopy(d.inserts(), 0, all, 3, 2);
        Arrays.sort(all);
        assertArrayEquals(new long[] {1, 2, 3, 4, 5}, all);
        SyntheticDatasetsTest.assertDisjointAndSorted(d);
    }

    @Test
    void keysAtOrAboveTwoToTheSixtyThreeNeedTheFlag() throws IOException {
        Path p = file("high", 3, 5, Long.MIN_VALUE, -1L);
        BenchException e = fails(p, false);
        assertTrue(e.getMessage().contains("--sosd-unsigned-shift") && e.getMessage().contains("9223372036854775808"),
                e.getMessage());
        SosdLoader.Keys k = SosdLoader.read(p, true);
        // k - 2^63: unsigned order becomes signed order.
        assertArrayEquals(new long[] {5 ^ Long.MIN_VALUE, 0, Long.MAX_VALUE}, k.keys());
        assertTrue(k.notes().stream().anyMatch(n -> n.contains("shifted")), k.notes().toString());
    }

    @Test
    void tooFewKeysForKeysPlusOps() throws IOException {
        Path p = file("few", 4, 1, 2, 3, 4);
        BenchException e = assertThrows(BenchException.class, () -> SosdLoader.load(p, false, 3, 2, 1));
        assertTrue(e.getMessage().contains(p.toString()) && e.getMessage().contains("4 distinct keys"),
                e.getMessage());
    }

    @Test
    void samplesRepeatably() throws IOException {
        long[] keys = new long[1000];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = i * 7L;
        }
        Path p = file("many", keys.length, keys);
        Dataset a = SosdLoader.load(p, false, 500, 100, 4);
        Dataset b = SosdLoader.load(p, false, 500, 100, 4);
        assertArrayEquals(a.loaded(), b.loaded());
        assertArrayEquals(a.inserts(), b.inserts());
        assertEquals(500, a.keyCount());
        assertEquals("many", a.name());
        SyntheticDatasetsTest.assertDisjointAndSorted(a);
    }

    @Test
    void unknownDatasetNameIsAClearError() {
        BenchException e = assertThrows(BenchException.class,
                () -> Datasets.create("unifrom", 10, 10, null, false));
        assertTrue(e.getMessage().contains("unknown dataset 'unifrom'"), e.getMessage());
    }
}
