package org.bforest.snapshot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.bforest.CorruptSnapshotException;
import org.bforest.Indexes;
import org.bforest.NativeLongIndex;
import org.bforest.LongIndex;

/**
 * What the snapshot robustness tests share: the file layout read from a header the way the format's
 * documentation describes it (written here independently of the reader, so the two check each
 * other), bit flips and header rewrites in place, and the entries of an index as arrays.
 */
final class SnapshotFiles {
    static final int HEADER = 4096;
    static final int INNER_CHUNK = 1 << 20;
    static final int HEADER_CRC_AT = 4092;
    private static final Pattern BYTES = Pattern.compile("bytes (\\d+) to (\\d+)");

    /** The seed of a randomized test: {@code -Dbforest.seed}, else a random one under soak, else {@code fixed}. */
    static long seed(long fixed) {
        String s = System.getProperty("bforest.seed", "").trim();
        if (!s.isEmpty()) {
            return Long.decode(s);
        }
        return soak() ? new SplittableRandom().nextLong() : fixed;
    }

    static boolean soak() {
        return Boolean.getBoolean("bforest.soak");
    }

    private SnapshotFiles() {
    }

    /** The sections of a snapshot file, from its header's fields. */
    record Layout(long fileBytes, long keys, boolean values, boolean hasMax, int blockEntries, long[] levelNodes) {
        static Layout of(Path file) throws IOException {
            ByteBuffer b = read(file, 0, HEADER);
            int levels = b.getInt(48);
            long[] nodes = new long[levels];
            for (int i = 0; i < levels; i++) {
                nodes[i] = b.getLong(56 + 8 * i);
            }
            int flags = b.getInt(32);
            Layout l = new Layout(b.getLong(16), b.getLong(24), (flags & 1) != 0, (flags & 2) != 0, b.getInt(36), nodes);
            assertEquals(Files.size(file), l.tableOffset() + l.tableBytes(), "the documented layout adds up to the file");
            assertEquals(l.fileBytes(), Files.size(file), "the header's length");
            return l;
        }

        long stored() {
            return keys - (hasMax ? 1 : 0);
        }

        long leafBytes() {
            return values ? 256 : 128;
        }

        long leaves() {
            return (stored() + 15) / 16;
        }

        long blocks() {
            return (stored() + blockEntries - 1) / blockEntries;
        }

        long blockBytes() {
            return blockEntries / 16 * leafBytes();
        }

        long innerOffset() {
            return HEADER + leaves() * leafBytes();
        }

        long innerBytes() {
            return Arrays.stream(levelNodes).sum() * 128;
        }

        long chunks() {
            return (innerBytes() + INNER_CHUNK - 1) / INNER_CHUNK;
        }

        long tableOffset() {
            return innerOffset() + innerBytes();
        }

        long tableBytes() {
            return 4 * (blocks() + chunks());
        }

        /** What a load must name when the byte at {@code pos} (past the header) is damaged. */
        String part(long pos) {
            if (pos < HEADER) {
                return pos < 8 ? "is not a bforest snapshot" : pos < 12 ? "format version" : "damaged header";
            }
            if (pos < innerOffset()) {
                return "damaged data block " + (pos - HEADER) / blockBytes() + " of " + blocks() + " ";
            }
            if (pos < tableOffset()) {
                return "damaged inner-level chunk " + (pos - innerOffset()) / INNER_CHUNK + " ";
            }
            return "damaged block table";
        }

        /** The first and last byte of every data block, inner-level chunk, table entry and section. */
        List<Long> boundaries() {
            List<Long> at = new ArrayList<>();
            for (long b = 0; b < blocks(); b++) {
                at.add(HEADER + b * blockBytes());
                at.add(Math.min(innerOffset(), HEADER + (b + 1) * blockBytes()) - 1);
            }
            for (long c = 0; c < chunks(); c++) {
                at.add(innerOffset() + c * INNER_CHUNK);
                at.add(Math.min(tableOffset(), innerOffset() + (c + 1) * INNER_CHUNK) - 1);
            }
            for (long t = tableOffset(); t < fileBytes; t += 4) {
                at.add(t);
                at.add(t + 3);
            }
            return at;
        }
    }

    /** One of the four readers. */
    @FunctionalInterface
    interface Read {
        Object apply(Path file) throws IOException;
    }


    /** {@code read} throws {@link CorruptSnapshotException} naming {@code file}; anything else fails. */
    static CorruptSnapshotException corrupt(Path file, Read read, String what) {
        Object got;
        try {
            got = read.apply(file);
        } catch (CorruptSnapshotException e) {
            assertEquals(file, e.file(), "the exception names the file");
            assertTrue(e.getMessage().startsWith(file.toString()), e::getMessage);
            return e;
        } catch (Throwable t) {
            throw new AssertionError(what + ": expected a CorruptSnapshotException, got " + t, t);
        }
        if (got instanceof NativeLongIndex m) {
            m.close();
        }
        throw new AssertionError(what + ": expected a CorruptSnapshotException, the file was read (" + got + ")");
    }

    /** The four readers, in the order load, map, info, verify. */
    static Read[] readers() {
        return new Read[] {Indexes::load, Indexes::map, Indexes::snapshotInfo, Indexes::verifySnapshot};
    }

    /** Checks that a load's or a verify's message names the damaged part and a byte range that holds {@code pos}. */
    static void assertNames(Layout l, long pos, CorruptSnapshotException e) {
        String m = e.getMessage();
        assertTrue(m.contains(l.part(pos)), () -> "damage at byte " + pos + " should be reported as '" + l.part(pos)
                + "', got: " + m);
        Matcher r = BYTES.matcher(m);
        if (pos >= HEADER && pos < l.tableOffset()) {
            assertTrue(r.find(), () -> "the message names the bytes: " + m);
            long from = Long.parseLong(r.group(1));
            long to = Long.parseLong(r.group(2));
            assertTrue(from <= pos && pos < to, () -> "byte " + pos + " lies in the range the message names: " + m);
        }
    }

    static ByteBuffer read(Path file, long at, int len) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(len).order(ByteOrder.LITTLE_ENDIAN);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            while (b.hasRemaining()) {
                if (ch.read(b, at + b.position()) < 0) {
                    throw new IOException("short file " + file);
                }
            }
        }
        return b.clear();
    }

    /** Flips bit {@code bit} (0 the lowest) of the byte at {@code pos}, in place; returns the byte now there. */
    static byte flip(FileChannel ch, long pos, int bit) throws IOException {
        ByteBuffer one = ByteBuffer.allocate(1);
        ch.read(one, pos);
        byte b = (byte) (one.get(0) ^ (1 << bit));
        ch.write(one.clear().put(0, b), pos);
        return b;
    }

    static byte byteAt(FileChannel ch, long pos) throws IOException {
        ByteBuffer one = ByteBuffer.allocate(1);
        ch.read(one, pos);
        return one.get(0);
    }

    /** Rewrites the header with {@code edit} applied and its CRC made to match again. */
    static void editHeader(Path file, java.util.function.Consumer<ByteBuffer> edit) throws IOException {
        ByteBuffer h = read(file, 0, HEADER);
        edit.accept(h);
        CRC32C c = new CRC32C();
        c.update(h.duplicate().clear().limit(HEADER_CRC_AT));
        h.putInt(HEADER_CRC_AT, (int) c.getValue());
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(h.clear(), 0);
        }
    }

    /** The temporary files a snapshot of {@code file} leaves when its writer dies: {@code .NAME.tmp-*}. */
    static List<Path> strays(Path file) throws IOException {
        String prefix = "." + file.getFileName() + ".tmp-";
        try (Stream<Path> s = Files.list(file.toAbsolutePath().getParent())) {
            return s.filter(p -> p.getFileName().toString().startsWith(prefix)).toList();
        }
    }

    /** Every file in {@code dir}, by name. */
    static List<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** An index's entries in key order: keys, then values. */
    static long[][] entries(LongIndex index) {
        long n = index.size();
        long[][] out = {new long[(int) n], new long[(int) n]};
        int[] i = {0};
        index.forEach((k, v) -> {
            out[0][i[0]] = k;
            out[1][i[0]++] = v;
        });
        assertEquals(n, i[0], "forEach gives size() entries");
        return out;
    }

    static void assertEntries(long[] keys, long[] values, LongIndex actual, String what) {
        long[][] e = entries(actual);
        assertArrayEquals(keys, e[0], what + ": keys");
        assertArrayEquals(values, e[1], what + ": values");
    }

    /** {@code n} distinct sorted keys spread over all longs, the extremes among them. */
    static long[] keys(SplittableRandom r, int n, boolean withMax) {
        long[] k = r.longs(n * 2L).distinct().limit(n).toArray();
        k[0] = Long.MIN_VALUE;
        k[1] = withMax ? Long.MAX_VALUE : 0;
        k[2] = -1;
        long[] d = Arrays.stream(k).distinct().sorted().toArray();
        if (d.length != n) {
            fail("key generation gave duplicates");
        }
        return d;
    }
}
