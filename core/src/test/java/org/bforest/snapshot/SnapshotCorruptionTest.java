package org.bforest.snapshot;

import static org.bforest.snapshot.SnapshotFiles.HEADER;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.bforest.CorruptSnapshotException;
import org.bforest.IndexKind;
import org.bforest.Indexes;
import org.bforest.LongIndex;
import org.bforest.NativeLongIndex;
import org.bforest.SnapshotException;
import org.bforest.SnapshotInfo;
import org.bforest.snapshot.SnapshotFiles.Layout;
import org.bforest.snapshot.SnapshotFiles.Read;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Damaged snapshot files: every bit of the header flipped one at a time, a seeded sample of bits
 * (and the first and last byte of every data block, inner-level chunk and table entry) flipped in
 * the rest, wrong magic, a format version from the future, headers with a valid checksum and
 * impossible fields, a directory, a missing file, an empty one. Whatever the damage,
 * {@link Indexes#load} and {@link Indexes#verifySnapshot} throw {@link CorruptSnapshotException}
 * naming the file and the damaged part ({@link Indexes#map} and {@link Indexes#snapshotInfo},
 * which read the header and the block table only, for damage there), and leave the file as it
 * was. The seed is {@code -Dbforest.seed} (random under {@code -Dbforest.soak=true}, with ten
 * times the samples); a failure names it.
 */
class SnapshotCorruptionTest {
    private static final long SEED = SnapshotFiles.seed(0xC0227_2026L);
    /**
     * Random body flips per small subject, each read by load or verify in turn (the first and last
     * byte of every part by both). Every read costs a few milliseconds whatever the file's size (the
     * reader's 4 MiB buffer), so the default run keeps to hundreds; soak runs thousands.
     */
    private static final int SAMPLES = SnapshotFiles.soak() ? 10_000 : 250;

    private static final Read LOAD = Indexes::load;
    private static final Read MAP = Indexes::map;
    private static final Read INFO = Indexes::snapshotInfo;
    private static final Read VERIFY = Indexes::verifySnapshot;

    @TempDir
    Path dir;

    /** The snapshots damaged: small ones (one data block), and one of several blocks. */
    enum Subject {
        VALUES_3000, KEY_ONLY_3000, EMPTY, VALUES_20000_THREE_BLOCKS;

        LongIndex build(SplittableRandom r) {
            return switch (this) {
                case VALUES_3000 -> {
                    long[] k = SnapshotFiles.keys(r, 3000, true);
                    yield Indexes.bsTree(k, r.longs(k.length).toArray());
                }
                case KEY_ONLY_3000 -> Indexes.bsTreeKeyOnly(SnapshotFiles.keys(r, 3000, true));
                case EMPTY -> Indexes.bPlusTree();
                case VALUES_20000_THREE_BLOCKS -> {
                    long[] k = SnapshotFiles.keys(r, 20_000, false);
                    yield Indexes.bMinusTree(k, r.longs(k.length).toArray(), 16);
                }
            };
        }
    }

    private Path write(Subject s, SplittableRandom r) throws IOException {
        Path file = dir.resolve(s.name().toLowerCase() + ".snap");
        s.build(r).snapshot(file);
        return file;
    }

    /**
     * Every bit of the header, one at a time. The 3,000-key snapshot goes to all four readers for
     * every bit; the key-only and the empty one to one reader a bit, in turn (all four under
     * soak): the four share the header check, and the default run stays short.
     */
    @ParameterizedTest
    @EnumSource(value = Subject.class, names = "VALUES_20000_THREE_BLOCKS", mode = EnumSource.Mode.EXCLUDE)
    void everyHeaderBitFlipped(Subject s) throws IOException {
        Read[] all = {LOAD, MAP, INFO, VERIFY};
        boolean everyReader = s == Subject.VALUES_3000 || SnapshotFiles.soak();
        Path file = write(s, new SplittableRandom(SEED));
        byte[] intact = Files.readAllBytes(file);
        long t0 = System.nanoTime();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            for (int pos = 0; pos < HEADER; pos++) {
                for (int bit = 0; bit < 8; bit++) {
                    byte damaged = SnapshotFiles.flip(ch, pos, bit);
                    String what = "seed " + SEED + ", " + s + ", header byte " + pos + " bit " + bit;
                    // a flipped version bit breaks the header's checksum: damage, not another version
                    String part = pos < 8 ? "is not a bforest snapshot" : "damaged header";
                    for (Read read : everyReader ? all : new Read[] {all[(pos * 8 + bit) % 4]}) {
                        String m = SnapshotFiles.corrupt(file, read, what).getMessage();
                        if (!m.contains(part)) {
                            fail(what + ": the message should say '" + part + "': " + m);
                        }
                    }
                    if (SnapshotFiles.byteAt(ch, pos) != damaged || ch.size() != intact.length) {
                        fail(what + ": the damaged file was changed");
                    }
                    SnapshotFiles.flip(ch, pos, bit);
                }
            }
        }
        System.out.printf("header flips of %s: %d ms%n", s, (System.nanoTime() - t0) / 1_000_000);
        assertArrayEquals(intact, Files.readAllBytes(file));
        Indexes.verifySnapshot(file);
    }

    /**
     * Bits flipped past the header: load and verify name the data block, inner-level chunk or block
     * table that holds the bit; map and info, which trust the data, still reject a damaged table.
     */
    @ParameterizedTest
    @EnumSource(value = Subject.class, names = "EMPTY", mode = EnumSource.Mode.EXCLUDE)
    void sampledBodyBitsFlipped(Subject s) throws IOException {
        SplittableRandom r = new SplittableRandom(SEED);
        LongIndex index = s.build(r.split());
        Path file = dir.resolve("body.snap");
        index.snapshot(file);
        long[][] expected = SnapshotFiles.entries(index);
        byte[] intact = Files.readAllBytes(file);
        Layout l = Layout.of(file);
        if (s == Subject.VALUES_20000_THREE_BLOCKS) {
            assertEquals(3, l.blocks(), "20,000 entries in blocks of at most 8,192");
        }
        List<Long> at = new ArrayList<>(l.boundaries());
        int both = at.size();
        int samples = s == Subject.VALUES_20000_THREE_BLOCKS ? SAMPLES / 2 : SAMPLES;
        for (int i = 0; i < samples; i++) {
            at.add(r.nextLong(HEADER, l.fileBytes()));
        }
        long t0 = System.nanoTime();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            for (int j = 0; j < at.size(); j++) {
                long pos = at.get(j);
                int bit = r.nextInt(8);
                SnapshotFiles.flip(ch, pos, bit);
                String what = "seed " + SEED + ", " + s + ", byte " + pos + " bit " + bit + " (" + l.part(pos) + ")";
                byte[] damaged = Files.readAllBytes(file);
                try {
                    if (j < both || j % 2 == 0) {
                        SnapshotFiles.assertNames(l, pos, SnapshotFiles.corrupt(file, LOAD, what + ", load"));
                    }
                    if (j < both || j % 2 == 1) {
                        SnapshotFiles.assertNames(l, pos, SnapshotFiles.corrupt(file, VERIFY, what + ", verify"));
                    }
                    if (pos >= l.tableOffset()) {
                        assertTrue(SnapshotFiles.corrupt(file, MAP, what + ", map").getMessage().contains("damaged block table"));
                        assertTrue(SnapshotFiles.corrupt(file, INFO, what + ", info").getMessage().contains("damaged block table"));
                    } else {
                        // the header and table are whole: info reads them only, so it answers
                        SnapshotInfo info = Indexes.snapshotInfo(file);
                        assertEquals(expected[0].length, info.keys(), what);
                    }
                } catch (IOException e) {
                    throw new AssertionError(what + ": " + e, e);
                }
                assertArrayEquals(damaged, Files.readAllBytes(file), () -> what + ": the damaged file was changed");
                SnapshotFiles.flip(ch, pos, bit);
            }
        }
        System.out.printf("%d body flips of %s: %d ms%n", at.size(), s, (System.nanoTime() - t0) / 1_000_000);
        assertArrayEquals(intact, Files.readAllBytes(file));
        LongIndex back = Indexes.load(file);
        assertEquals(index.kind(), back.kind());
        SnapshotFiles.assertEntries(expected[0], expected[1], back, s + " after the flips were undone");
    }

    /**
     * A snapshot whose inner levels span two checksum chunks (over 1 MiB of inner nodes: 2.2M keys,
     * key-only): a flip in the second chunk, or in its table entry, is found and named.
     */
    @Test
    void secondInnerChunkAndLaterBlocks() throws IOException {
        int n = 2_200_000;
        long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = 3L * i - n;
        }
        Path file = dir.resolve("big.snap");
        Indexes.bsTreeKeyOnly(keys).snapshot(file);
        Layout l = Layout.of(file);
        assertEquals(2, l.chunks(), "inner levels over 1 MiB");
        long chunk1 = l.innerOffset() + SnapshotFiles.INNER_CHUNK;
        long[] at = {chunk1, l.tableOffset() - 1, chunk1 - 1, l.innerOffset() - 1,
            HEADER + 100 * l.blockBytes() + 7, l.fileBytes() - 1, l.fileBytes() - 8};
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            for (int i = 0; i < at.length; i++) {
                long pos = at[i];
                SnapshotFiles.flip(ch, pos, i % 8);
                String what = "byte " + pos + " (" + l.part(pos) + ")";
                SnapshotFiles.assertNames(l, pos, SnapshotFiles.corrupt(file, VERIFY, what));
                if (i < 2) {
                    SnapshotFiles.assertNames(l, pos, SnapshotFiles.corrupt(file, LOAD, what));
                }
                SnapshotFiles.flip(ch, pos, i % 8);
            }
        }
        assertEquals(n, Indexes.verifySnapshot(file).keys());
    }

    @Test
    void notASnapshot() throws IOException {
        Path text = dir.resolve("notes.txt");
        Files.writeString(text, "hello, these are not the bytes of a snapshot\n".repeat(200), StandardCharsets.US_ASCII);
        Path zeros = dir.resolve("zeros.snap");
        Files.write(zeros, new byte[HEADER]);
        Path empty = dir.resolve("empty.snap");
        Files.createFile(empty);
        Path tiny = dir.resolve("tiny.snap");
        Files.write(tiny, new byte[] {(byte) 0x89, 'B', 'F'});
        for (Read read : new Read[] {LOAD, MAP, INFO, VERIFY}) {
            assertTrue(SnapshotFiles.corrupt(text, read, "text").getMessage().contains("is not a bforest snapshot"));
            assertTrue(SnapshotFiles.corrupt(zeros, read, "zeros").getMessage().contains("is not a bforest snapshot"));
            assertTrue(SnapshotFiles.corrupt(empty, read, "empty").getMessage().contains("(empty)"));
            SnapshotFiles.corrupt(tiny, read, "3 bytes");
        }
        assertEquals(0, Files.size(empty), "an empty file stays");
    }

    @Test
    void wrongMagicWithAValidChecksum() throws IOException {
        Path file = write(Subject.VALUES_3000, new SplittableRandom(SEED));
        SnapshotFiles.editHeader(file, h -> h.put(1, (byte) 'X'));
        for (Read read : new Read[] {LOAD, MAP, INFO, VERIFY}) {
            assertTrue(SnapshotFiles.corrupt(file, read, "magic").getMessage().contains("is not a bforest snapshot"));
        }
    }

    @Test
    void formatVersionFromTheFuture() throws IOException {
        for (int version : new int[] {2, 0, -1, Integer.MAX_VALUE}) {
            Path file = dir.resolve("v" + version + ".snap");
            Subject.KEY_ONLY_3000.build(new SplittableRandom(SEED)).snapshot(file);
            SnapshotFiles.editHeader(file, h -> h.putInt(8, version));
            byte[] before = Files.readAllBytes(file);
            for (Read read : new Read[] {LOAD, MAP, INFO, VERIFY}) {
                String m = SnapshotFiles.corrupt(file, read, "version " + version).getMessage();
                assertTrue(m.contains("version " + version) && m.contains("reads version 1"), m);
            }
            assertArrayEquals(before, Files.readAllBytes(file));
        }
    }

    @Test
    void directoryAndMissingFile() throws IOException {
        Path sub = Files.createDirectory(dir.resolve("a-folder.snap"));
        for (Read read : new Read[] {LOAD, MAP, INFO, VERIFY}) {
            SnapshotException e = assertThrows(SnapshotException.class, () -> read.apply(sub));
            assertFalse(e instanceof CorruptSnapshotException, "a directory is not a damaged snapshot: " + e);
            assertTrue(e.getMessage().startsWith(sub.toString()) && e.getMessage().contains("directory"), e.getMessage());
            assertThrows(NoSuchFileException.class, () -> read.apply(dir.resolve("missing.snap")));
        }
        // writing over a directory is refused the same way, and leaves it (and nothing else) there
        SnapshotException w = assertThrows(SnapshotException.class, () -> Indexes.bsTree().snapshot(sub));
        assertFalse(w instanceof CorruptSnapshotException);
        assertTrue(Files.isDirectory(sub));
        assertEquals(List.of("a-folder.snap"), SnapshotFiles.names(dir));
    }

    /**
     * Headers whose checksum matches but whose fields were rewritten (by a buggy or hostile writer):
     * every reader either reads a snapshot or throws a {@link SnapshotException}, never another
     * exception (an array size, a buffer position, an out-of-memory error).
     */
    @Test
    void rewrittenHeaderFieldsWithAValidChecksum() throws IOException {
        Path original = write(Subject.VALUES_3000, new SplittableRandom(SEED));
        Path file = dir.resolve("edited.snap");
        long[] values = {0, 1, -1, 2, 15, 16, 17, 127, 128, 255, 4095, 4096, 8192, 8193, Integer.MAX_VALUE,
            Integer.MIN_VALUE, 1L << 32, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE - 15, 1L << 60};
        // offset and width of every field the format's documentation lists
        int[][] fields = {{12, 4}, {16, 8}, {24, 8}, {32, 4}, {36, 4}, {40, 8}, {48, 4}, {56, 8}, {64, 8},
            {256, 1}, {257, 1}, {320, 8}, {328, 4}, {332, 4}, {336, 4}, {4088, 4}};
        List<String> failures = new ArrayList<>();
        for (int[] f : fields) {
            for (long v : values) {
                Files.copy(original, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                SnapshotFiles.editHeader(file, h -> put(h, f[0], f[1], v));
                for (Read read : new Read[] {LOAD, MAP, INFO, VERIFY}) {
                    try {
                        Object got = read.apply(file);
                        if (got instanceof NativeLongIndex m) {
                            m.close();
                        }
                    } catch (SnapshotException expected) {
                        // the header was refused
                    } catch (Throwable t) {
                        failures.add("field at " + f[0] + " = " + v + ": " + t);
                    }
                }
            }
        }
        assertEquals(List.of(), failures);
    }

    /**
     * A header with a valid checksum whose key count is so large that the section sizes computed
     * from it wrap around 2^64 and add up to the small file's real length: the key count and the
     * inner levels' node counts agree with each other, so only the arithmetic can tell. Every
     * reader must refuse it as corrupt rather than fail on a negative buffer size or file position.
     */
    @Test
    void headerWhoseSectionSizesOverflow() throws IOException {
        Path file = dir.resolve("overflow.snap");
        Indexes.bsTreeKeyOnly(new long[] {1, 2, 3}).snapshot(file);
        int blockEntries = 8192;
        // the least leaf count whose layout, computed exactly, passes 2^64 + 8192 bytes
        java.math.BigInteger target = java.math.BigInteger.ONE.shiftLeft(64).add(java.math.BigInteger.valueOf(8192));
        long lo = 1;
        long hi = 1L << 58;
        while (lo < hi) {
            long mid = (lo + hi) >>> 1;
            if (exactEnd(mid, blockEntries).compareTo(target) >= 0) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        long leaves = lo;
        long keys = 16 * leaves;
        long[] levels = levelsOver(leaves);
        long length = exactEnd(leaves, blockEntries).longValue(); // the low 64 bits: what long arithmetic gives
        assertTrue(length >= 8192 && length < 9192, "a small file: " + length);
        byte[] header = java.util.Arrays.copyOf(Files.readAllBytes(file), HEADER);
        Files.write(file, java.util.Arrays.copyOf(header, (int) length));
        SnapshotFiles.editHeader(file, h -> {
            h.putLong(16, length).putLong(24, keys).putInt(32, 0).putInt(36, blockEntries).putInt(48, levels.length);
            for (int i = 0; i < levels.length; i++) {
                h.putLong(56 + 8 * i, levels[i]);
            }
        });
        for (Read read : new Read[] {LOAD, MAP, INFO, VERIFY}) {
            SnapshotFiles.corrupt(file, read, keys + " keys in " + length + " bytes");
        }
    }

    /** The node counts of the static inner levels over {@code leaves} leaves, as the format documents them. */
    private static long[] levelsOver(long leaves) {
        List<Long> up = new ArrayList<>();
        for (long c = leaves; c > 1; ) {
            c = (c + 16) / 17;
            up.add(0, c);
        }
        return up.stream().mapToLong(Long::longValue).toArray();
    }

    /** Where the block table of a key-only snapshot of {@code leaves} full leaves ends, in exact arithmetic. */
    private static java.math.BigInteger exactEnd(long leaves, int blockEntries) {
        long nodes = java.util.Arrays.stream(levelsOver(leaves)).sum();
        java.math.BigInteger inner = java.math.BigInteger.valueOf(nodes).multiply(java.math.BigInteger.valueOf(128));
        long blocks = (16 * leaves + blockEntries - 1) / blockEntries;
        long chunks = (nodes * 128 + SnapshotFiles.INNER_CHUNK - 1) / SnapshotFiles.INNER_CHUNK;
        return java.math.BigInteger.valueOf(HEADER).add(java.math.BigInteger.valueOf(leaves).multiply(java.math.BigInteger.valueOf(128)))
                .add(inner).add(java.math.BigInteger.valueOf(4 * (blocks + chunks)));
    }

    private static void put(ByteBuffer h, int at, int width, long v) {
        switch (width) {
            case 1 -> h.put(at, (byte) v);
            case 4 -> h.putInt(at, (int) v);
            default -> h.putLong(at, v);
        }
    }

    /** The kinds a header can name load back as that kind (a sanity check of the subjects above). */
    @Test
    void subjectsRoundTrip() throws IOException {
        for (Subject s : Subject.values()) {
            SplittableRandom r = new SplittableRandom(SEED);
            LongIndex index = s.build(r);
            Path file = dir.resolve(s + ".snap");
            index.snapshot(file);
            LongIndex back = Indexes.load(file);
            assertEquals(index.kind(), back.kind());
            long[][] e = SnapshotFiles.entries(index);
            SnapshotFiles.assertEntries(e[0], e[1], back, s.name());
            assertEquals(s == Subject.KEY_ONLY_3000 ? IndexKind.Family.BS_TREE_KEY_ONLY : index.kind().family(),
                    Indexes.snapshotInfo(file).kind().family());
        }
    }
}
