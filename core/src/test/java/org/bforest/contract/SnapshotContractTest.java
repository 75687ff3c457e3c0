package org.bforest.contract;

import static org.bforest.contract.IndexAssertions.assertLookups;
import static org.bforest.contract.IndexAssertions.assertMatches;
import static org.bforest.contract.IndexAssertions.probes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.bforest.BSTreeBuilder.Compression;
import org.bforest.IndexKind;
import org.bforest.Indexes;
import org.bforest.LongIndex;
import org.bforest.NativeLongIndex;
import org.bforest.SnapshotException;
import org.bforest.SnapshotInfo;
import org.bforest.SnapshotKindException;
import org.bforest.contract.SnapshotShapes.Built;
import org.bforest.contract.SnapshotShapes.Shape;
import org.bforest.testing.ForwardingIndex;
import org.bforest.testing.Implementations.Impl;
import org.bforest.testing.TreeMapIndex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Snapshots on every implementation of the kit ({@link LongIndex#snapshot}, {@link Indexes#load},
 * {@link Indexes#snapshotInfo}, {@link Indexes#verifySnapshot}), on every shape of
 * {@link SnapshotShapes}, against the {@code TreeMap} the shape was built with:
 *
 * <ul>
 *   <li>the loaded index holds the model's entries (its invariants, every key's value, both cursor
 *       walks, a visit of the whole domain, and the neighbours, seeks and ranges of sampled
 *       probes), and is of the original's kind: the same family and settings for a bforest
 *       structure, a BS-tree (plain or compressed, as {@code Indexes.bsTree} picks) for any other
 *       ({@link IndexKind.Family#OTHER}: the model, the SPI sample, the OpenCL trees);</li>
 *   <li>the header says the kind, the key count, whether values are stored and the file's length,
 *       and {@code verifySnapshot} agrees once every block is checked;</li>
 *   <li>{@code load(file, family)} builds the right family and refuses every other with a
 *       {@link SnapshotKindException} naming what the file holds; {@code load(file, build)} hands
 *       the implementation's own bulk load the entries (how the OpenCL trees are loaded);</li>
 *   <li>the index snapshotted is unchanged, and no temporary file is left beside the snapshot;</li>
 *   <li>a snapshot of the index {@link Indexes#map mapped} back is the same file, byte for byte;</li>
 *   <li>a second snapshot, of the index changed through its own updates, replaces the first.</li>
 * </ul>
 *
 * Then, on core's structures only (skipped where the kit runs on other modules' structures), what
 * the file itself promises: every structure's settings survive the round trip (a BS-tree's leaf
 * fill, a B&minus; tree's node keys, a CSB+-tree's variant and lines); files past the writer's and
 * the reader's buffers and past one checksum chunk of inner levels; a failed write leaves the
 * previous snapshot as it was, a directory is no snapshot; a long file name takes a snapshot; a
 * mapped snapshot keeps answering from its file when a new snapshot replaces the path;
 * {@code load(file, family)} checks the file it loads while the path is being replaced; a damaged
 * or truncated file is refused with a {@link org.bforest.CorruptSnapshotException}.
 */
@ExtendWith(NameImplementationOnFailure.class)
class SnapshotContractTest {
    private static final String NAME = "index.snapshot";

    static Stream<org.junit.jupiter.params.provider.Arguments> cases() {
        return SnapshotShapes.cases();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void roundTrip(Impl impl, Shape shape, @TempDir Path dir) throws IOException {
        Built built = shape.build(impl);
        LongIndex index = built.index();
        TreeMap<Long, Long> model = built.model();
        try {
            assertContent(index, model, "the index before its snapshot (the structure itself is wrong)");
            IndexKind kind = index.kind();
            assertNotNull(kind, "kind()");
            Path file = dir.resolve(NAME);
            index.snapshot(file);
            assertOnlyFile(dir, file, "after the snapshot");
            assertContent(index, model, "the index after its snapshot was taken (a snapshot only reads)");
            assertEquals(kind, index.kind(), "kind() after the snapshot");

            SnapshotInfo info = Indexes.snapshotInfo(file);
            assertInfo(info, file, kind, model.size(), "snapshotInfo");
            assertEquals(info, Indexes.verifySnapshot(file), "verifySnapshot, every block checked, against snapshotInfo");

            LongIndex loaded = Indexes.load(file);
            String phase = "loaded from the snapshot of " + kind;
            assertMatches(loaded, model, phase);
            assertLookups(loaded, model, probes(model, 200, model.size()), phase);
            assertLoadedKind(kind, loaded.kind(), "Indexes.load");

            assertContent(Indexes.load(file, kind.family()), model, "load(file, " + kind.family() + ")");
            LongIndex rebuilt = Indexes.load(file, impl.bulk());
            try {
                assertContent(rebuilt, model, "load(file, " + impl + "'s bulk load)");
            } finally {
                SnapshotShapes.release(rebuilt);
            }
            for (IndexKind.Family other : IndexKind.Family.values()) {
                if (other != kind.family()) {
                    SnapshotKindException e = assertThrows(SnapshotKindException.class, () -> Indexes.load(file, other),
                            () -> "load(file, " + other + ") of a " + kind + " snapshot");
                    assertEquals(kind, e.found(), "SnapshotKindException.found()");
                    assertEquals(file, e.file(), "SnapshotKindException.file()");
                }
            }

            // the mapped file written again is the same file: its entries, its kind, its layout
            Path again = dir.resolve("again.snapshot");
            try (NativeLongIndex mapped = Indexes.map(file)) {
                assertEquals(kind, mapped.kind(), "kind() of the mapped snapshot");
                mapped.snapshot(again);
            }
            assertEquals(-1L, Files.mismatch(file, again), "a snapshot of the mapped snapshot differs from it");
            Files.delete(again);

            // changed through its own updates and written over the first snapshot
            long added = absentKey(model);
            long removed = model.isEmpty() ? added : model.firstKey();
            long v = SnapshotShapes.value(added, 7, !kind.storesValues());
            index.put(added, v);
            model.put(added, v);
            if (removed != added) {
                index.remove(removed);
                model.remove(removed);
            }
            assertContent(index, model, "the index after a put and a remove");
            index.snapshot(file);
            assertOnlyFile(dir, file, "after the second snapshot over the first");
            assertInfo(Indexes.snapshotInfo(file), file, kind, model.size(), "snapshotInfo of the second snapshot");
            LongIndex second = Indexes.load(file);
            assertContent(second, model, "loaded from the second snapshot, written over the first");
            assertLoadedKind(kind, second.kind(), "Indexes.load of the second snapshot");
        } finally {
            SnapshotShapes.release(index);
        }
    }

    // ---- core's structures: the file's own promises ---------------------------------------------

    /** The bulk load's leaf fill is part of a BS-tree's kind, as it is of a B+-tree's: load builds at it again. */
    @Test
    void bulkLoadSettingsSurviveTheRoundTrip(@TempDir Path dir) throws IOException {
        assumeCore();
        long[] keys = TestKeys.mixed(2000, 0xF111L);
        List<Map.Entry<IndexKind, LongIndex>> cases = List.of(
                Map.entry(IndexKind.bsTree(false, false, 0.9),
                        Indexes.bsTreeBuilder().compression(Compression.NEVER).leafFill(0.9).build(keys, keys)),
                Map.entry(IndexKind.bsTree(true, false, 0.6),
                        Indexes.bsTreeBuilder().compression(Compression.ALWAYS).leafFill(0.6).build(keys, keys)),
                Map.entry(IndexKind.bsTree(false, false, 1.0),
                        Indexes.bsTreeBuilder().compression(Compression.NEVER).leafFill(1.0).build(keys, keys)),
                Map.entry(IndexKind.bPlusTree(0.75), Indexes.bPlusTree(keys, keys, 0.75)),
                Map.entry(IndexKind.bMinusTree(64), Indexes.bMinusTree(keys, keys, 64)),
                Map.entry(IndexKind.csbTree(org.bforest.CsbVariant.SEGMENTED, 4),
                        Indexes.csbTree(org.bforest.CsbVariant.SEGMENTED, 4, keys, keys)));
        StringBuilder wrong = new StringBuilder();
        for (Map.Entry<IndexKind, LongIndex> c : cases) {
            Path file = dir.resolve("kind.snapshot");
            c.getValue().snapshot(file);
            IndexKind stored = Indexes.snapshotInfo(file).kind();
            IndexKind loaded = Indexes.load(file).kind();
            if (!c.getKey().equals(c.getValue().kind()) || !c.getKey().equals(stored) || !c.getKey().equals(loaded)) {
                wrong.append("\n  built as ").append(c.getKey()).append(": kind() ").append(c.getValue().kind())
                        .append(", the snapshot's ").append(stored).append(", loaded ").append(loaded);
            }
        }
        if (!wrong.isEmpty()) {
            fail("a structure's settings do not survive a snapshot:" + wrong);
        }
    }

    /**
     * Snapshots past the fixed sizes of the code: 300,000 entries with values (4.8 MB of leaves,
     * more than the writer's and the reader's 4 MiB buffers: several flushes and several reads),
     * and 2.3 million keys of a key-only tree (inner levels of 1.15 MB, two checksum chunks).
     * Loaded, verified and mapped; the content is checked against the arrays (a {@code TreeMap} of
     * millions of entries would cost more than the test).
     */
    @Test
    void snapshotsLargerThanTheBuffers(@TempDir Path dir) throws IOException {
        assumeCore();
        long[] keys = SnapshotShapes.random(300_000, 0xB16L, true);
        long[] values = new long[keys.length];
        for (int i = 0; i < keys.length; i++) {
            values[i] = TestKeys.valueFor(keys[i], 9);
        }
        assertLargeRoundTrip(Indexes.bsTreeBuilder().compression(Compression.NEVER).build(keys, values), keys, values,
                dir.resolve("values.snapshot"));
        long[] spaced = TestKeys.spaced(2_300_000, -1_000_000_000L, 3);
        assertLargeRoundTrip(Indexes.bsTreeKeyOnly(spaced), spaced, new long[spaced.length],
                dir.resolve("keys.snapshot"));
    }

    private static void assertLargeRoundTrip(LongIndex index, long[] keys, long[] values, Path file)
            throws IOException {
        index.snapshot(file);
        String phase = keys.length + " keys of a " + index.kind();
        assertEquals(keys.length, Indexes.verifySnapshot(file).keys(), () -> phase + ": verifySnapshot");
        LongIndex loaded = Indexes.load(file);
        assertEquals(index.kind(), loaded.kind(), () -> phase + ": the loaded kind");
        assertSameArrays(loaded, keys, values, phase + ", loaded");
        try (NativeLongIndex mapped = Indexes.map(file)) {
            assertSameArrays(mapped, keys, values, phase + ", mapped");
            ReadOnlyContractTest.readConcurrently(mapped, keys, values, 20_000, keys.length);
        }
        Files.delete(file);
    }

    private static void assertSameArrays(LongIndex index, long[] keys, long[] values, String phase) {
        assertEquals(keys.length, index.size(), () -> phase + ": size()");
        int[] n = {0};
        index.forEach((k, v) -> {
            int i = n[0]++;
            if (i >= keys.length || keys[i] != k || values[i] != v) {
                fail(phase + ": entry #" + i + " is " + k + "=" + v + ", expected "
                        + (i < keys.length ? keys[i] + "=" + values[i] : "none"));
            }
        });
        assertEquals(keys.length, n[0], () -> phase + ": entries given by forEach");
        assertEquals(keys.length, index.rangeCount(Long.MIN_VALUE, true, Long.MAX_VALUE, true),
                () -> phase + ": rangeCount of everything");
    }

    /** A write that fails (the index's walk throws, or gives keys out of order) leaves the previous file as it was. */
    @Test
    void aFailedSnapshotLeavesThePreviousOne(@TempDir Path dir) throws IOException {
        assumeCore();
        TreeMapIndex good = TreeMapIndex.bulkLoad(new long[] {1, 2, 3}, new long[] {10, 20, 30});
        Path file = dir.resolve(NAME);
        good.snapshot(file);
        byte[] before = Files.readAllBytes(file);
        LongIndex throwing = new Walk(300_000, false);
        assertThrows(IllegalStateException.class, () -> throwing.snapshot(file), "a walk that throws");
        assertArrayEquals(before, Files.readAllBytes(file), "the previous snapshot after a failed one");
        assertOnlyFile(dir, file, "after a failed snapshot");
        LongIndex unordered = new Walk(300_000, true);
        assertThrows(IllegalStateException.class, () -> unordered.snapshot(file), "a walk out of key order");
        assertArrayEquals(before, Files.readAllBytes(file), "the previous snapshot after an out-of-order walk");
        assertOnlyFile(dir, file, "after an out-of-order walk");
        assertContent(Indexes.load(file), good.map(), "the previous snapshot loaded");

        assertThrows(SnapshotException.class, () -> good.snapshot(dir), "a snapshot to a directory");
        assertThrows(IOException.class, () -> good.snapshot(dir.resolve("no-such-folder").resolve(NAME)),
                "a snapshot into a folder that does not exist");
        assertThrows(SnapshotException.class, () -> Indexes.load(dir), "load of a directory");
        assertThrows(SnapshotException.class, () -> Indexes.map(dir), "map of a directory");
        assertThrows(IOException.class, () -> Indexes.load(dir.resolve("absent")), "load of a missing file");
        assertOnlyFile(dir, file, "after the refused calls");
    }

    /**
     * A mapped snapshot reads its own file: a new snapshot renamed over the path (the way every
     * snapshot is written) leaves it answering as before, and a new mapping sees the new file.
     */
    @Test
    void aMappedSnapshotOutlivesItsReplacement(@TempDir Path dir) throws IOException {
        assumeCore();
        assumeTrue(java.io.File.separatorChar == '/', "POSIX file systems keep a replaced file for its mappings");
        long[] keys = TestKeys.mixed(3000, 0x0DDL);
        Path file = dir.resolve(NAME);
        TreeMapIndex old = TreeMapIndex.bulkLoad(keys, keys);
        old.snapshot(file);
        try (NativeLongIndex mapped = Indexes.map(file)) {
            long[] other = TestKeys.dense(10, 5);
            TreeMapIndex fresh = TreeMapIndex.bulkLoad(other, other);
            fresh.snapshot(file);
            ReadOnlyContractTest.assertReads(mapped, old.map(), 3, "the mapped snapshot after its path was replaced");
            try (NativeLongIndex again = Indexes.map(file)) {
                assertContent(again, fresh.map(), "a mapping of the new snapshot");
            }
        }
    }

    /**
     * A snapshot to any name the folder takes: the temporary file beside it must not need a longer
     * name than the target's (file systems allow names of 255 bytes).
     */
    @Test
    void aLongFileNameTakesASnapshot(@TempDir Path dir) throws IOException {
        assumeCore();
        Path file = dir.resolve("s".repeat(240) + ".snapshot");
        TreeMapIndex.bulkLoad(new long[] {1, 2}, new long[] {3, 4}).snapshot(file);
        assertEquals(2, Indexes.verifySnapshot(file).keys(), "the snapshot with a 249-character name");
        assertOnlyFile(dir, file, "after a snapshot with a long name");
    }

    /**
     * {@code load(file, family)} checks the family of the file it loads: while another thread
     * replaces the file, by snapshots of two families taking turns, every index it returns is of
     * the family asked for (or it throws {@link SnapshotKindException}). A check made on one
     * opening of the path and a load from another would return the other family now and then.
     */
    @Test
    void loadOfAFamilyChecksTheFileItLoads(@TempDir Path dir) throws Exception {
        assumeCore();
        long[] keys = {1, 2, 3};
        Path plain = dir.resolve("plain.snapshot");
        Path minus = dir.resolve("minus.snapshot");
        Path file = dir.resolve(NAME);
        Indexes.bsTreeBuilder().compression(Compression.NEVER).build(keys, keys).snapshot(plain);
        Indexes.bMinusTree(keys, keys).snapshot(minus);
        Files.copy(plain, file);
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        Thread swapper = new Thread(() -> {
            Path tmp = dir.resolve("swap.tmp");
            try {
                for (int i = 0; !stop.get(); i++) {
                    Files.copy(i % 2 == 0 ? minus : plain, tmp, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                    Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                            java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        swapper.start();
        int loads = 0;
        int wrong = 0;
        IndexKind got = null;
        try {
            long end = System.nanoTime() + 1_000_000_000L;
            while (System.nanoTime() < end && wrong == 0) {
                try {
                    LongIndex index = Indexes.load(file, IndexKind.Family.BS_TREE);
                    loads++;
                    if (index.kind().family() != IndexKind.Family.BS_TREE) {
                        wrong++;
                        got = index.kind();
                    }
                } catch (SnapshotKindException expected) {
                    loads++;
                }
            }
        } finally {
            stop.set(true);
            swapper.join();
        }
        IndexKind found = got;
        int tries = loads;
        assertEquals(0, wrong, () -> "load(file, BS_TREE) returned a " + found + " while the file was being replaced"
                + " (load " + tries + ")");
        assertTrue(loads > 0, "no load ran");
    }

    /**
     * Damage anywhere is found: a byte changed in the header, a data block, the inner levels or the
     * block table, the file cut short or grown. {@code load} and {@code verifySnapshot} check every
     * byte; {@code snapshotInfo} and {@code map} the header, the table and the length.
     */
    @Test
    void damagedSnapshotsAreRefused(@TempDir Path dir) throws IOException {
        assumeCore();
        long[] keys = SnapshotShapes.random(20_000, 0xDA3AL, true);
        Path file = dir.resolve(NAME);
        Indexes.bsTree(keys, keys).snapshot(file);
        byte[] good = Files.readAllBytes(file);
        int leafBytes = 256;
        long leaves = (keys.length - 1 + 15) / 16;
        int inner = (int) (4096 + leaves * leafBytes);
        // the offsets: a header field (the key count), a key of the first and of the last block,
        // a value, the inner levels' root, the block table (the file's last bytes)
        int[] dataOffsets = {4096 + 3 * 8, 4096 + (int) (leaves - 1) * leafBytes + 8, 4096 + 16 * 8 + 5 * 8, inner + 8};
        Path bad = dir.resolve("bad.snapshot");
        for (int at : new int[] {24, good.length - 2}) {
            Files.write(bad, flipped(good, at));
            assertCorrupt(bad, true, "byte " + at + " changed (header or table)");
        }
        for (int at : dataOffsets) {
            Files.write(bad, flipped(good, at));
            assertCorrupt(bad, false, "byte " + at + " changed (data or inner levels)");
        }
        Files.write(bad, Arrays.copyOf(good, good.length - 4));
        assertCorrupt(bad, true, "the file cut short by 4 bytes");
        Files.write(bad, Arrays.copyOf(good, good.length + 128));
        assertCorrupt(bad, true, "the file grown by 128 bytes");
        Files.write(bad, Arrays.copyOf(good, 100));
        assertCorrupt(bad, true, "the file cut to 100 bytes");
        Files.write(bad, new byte[0]);
        assertCorrupt(bad, true, "an empty file");
        Files.write(bad, "not a snapshot at all, just some text that is long enough".repeat(100).getBytes());
        assertCorrupt(bad, true, "a text file");
        assertEquals(keys.length, Indexes.verifySnapshot(file).keys(), "the good file, still good");
    }

    private static void assertCorrupt(Path bad, boolean headerOrTable, String what) throws IOException {
        assertThrows(org.bforest.CorruptSnapshotException.class, () -> Indexes.load(bad), () -> "load: " + what);
        assertThrows(org.bforest.CorruptSnapshotException.class, () -> Indexes.verifySnapshot(bad),
                () -> "verifySnapshot: " + what);
        if (headerOrTable) {
            assertThrows(org.bforest.CorruptSnapshotException.class, () -> Indexes.snapshotInfo(bad),
                    () -> "snapshotInfo: " + what);
            assertThrows(org.bforest.CorruptSnapshotException.class, () -> Indexes.map(bad).close(),
                    () -> "map: " + what);
        }
    }

    private static byte[] flipped(byte[] good, int at) {
        byte[] b = good.clone();
        b[at] ^= 0x10;
        return b;
    }

    /** The core-only tests run where core's own structures are the kit's subjects. */
    private static void assumeCore() {
        assumeTrue(TestSubjects.implementations().stream().anyMatch(i -> i.name().equals("bstree")),
                "core's snapshot files are tested with core's structures");
    }

    // ---- helpers --------------------------------------------------------------------------------

    /** A load builds the original's kind; any kind outside bforest's comes back as a BS-tree. */
    static void assertLoadedKind(IndexKind original, IndexKind loaded, String phase) {
        if (original.family() == IndexKind.Family.OTHER) {
            assertTrue(loaded.family() == IndexKind.Family.BS_TREE || loaded.family() == IndexKind.Family.CBS_TREE,
                    () -> phase + ": a snapshot of kind OTHER loads as a BS-tree, not a " + loaded);
        } else {
            assertEquals(original, loaded, () -> phase + ": the loaded index's kind");
        }
    }

    static void assertInfo(SnapshotInfo info, Path file, IndexKind kind, long keys, String phase) throws IOException {
        assertEquals(file, info.file(), () -> phase + ": file");
        assertEquals(1, info.formatVersion(), () -> phase + ": formatVersion");
        assertEquals(kind, info.kind(), () -> phase + ": kind");
        assertEquals(keys, info.keys(), () -> phase + ": keys");
        assertEquals(kind.storesValues(), info.storesValues(), () -> phase + ": storesValues");
        assertEquals(Files.size(file), info.bytes(), () -> phase + ": bytes");
    }

    /** {@code dir} holds {@code file} and nothing else: no temporary file was left behind. */
    static void assertOnlyFile(Path dir, Path file, String phase) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> all = s.toList();
            assertEquals(List.of(file), all, () -> phase + ": the folder should hold the snapshot alone");
        }
    }

    /** The index's entries, through {@code forEach}, and its size, are the model's. */
    static void assertContent(LongIndex index, NavigableMap<Long, Long> model, String phase) {
        assertEquals(model.size(), index.size(), () -> phase + ": size()");
        long[] keys = new long[model.size()];
        long[] values = new long[model.size()];
        int[] n = {0};
        index.forEach((k, v) -> {
            int i = n[0]++;
            if (i < keys.length) {
                keys[i] = k;
                values[i] = v;
            }
        });
        assertEquals(model.size(), n[0], () -> phase + ": entries given by forEach");
        int i = 0;
        for (Map.Entry<Long, Long> e : model.entrySet()) {
            if (keys[i] != e.getKey() || values[i] != e.getValue()) {
                fail(phase + ": entry #" + i + " expected " + e + " but was " + keys[i] + "=" + values[i]);
            }
            i++;
        }
    }

    /** A key the model does not hold, near its middle. */
    static long absentKey(NavigableMap<Long, Long> model) {
        if (model.isEmpty()) {
            return 12345;
        }
        long k = model.keySet().stream().skip(model.size() / 2).findFirst().orElseThrow();
        while (model.containsKey(k)) {
            k = k == Long.MAX_VALUE ? Long.MIN_VALUE : k + 1;
        }
        return k;
    }

    /**
     * An index of {@code n} keys that it never stores: its walk gives keys 0, 1, ... and, at
     * {@code n - 1}, throws or (when {@code unordered}) goes back to 0. Past a full write buffer,
     * so that the failure comes after bytes were written.
     */
    private static final class Walk extends ForwardingIndex {
        private final int n;
        private final boolean unordered;

        Walk(int n, boolean unordered) {
            super(new TreeMapIndex());
            this.n = n;
            this.unordered = unordered;
        }

        @Override
        public long size() {
            return n;
        }

        @Override
        public void forEach(org.bforest.LongEntryConsumer action) {
            for (int i = 0; i < n - 1; i++) {
                action.accept(i, -i);
            }
            if (!unordered) {
                throw new IllegalStateException("the walk failed after " + (n - 1) + " entries");
            }
            action.accept(0, 0);
        }
    }
}
