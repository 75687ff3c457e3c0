package org.bforest;

import static org.bforest.SnapshotFormat.HEADER_BYTES;
import static org.bforest.SnapshotFormat.INNER_CHUNK;
import static org.bforest.SnapshotFormat.NODE;
import static org.bforest.kernel.ScalarSearch.LE_LONG;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Reads snapshot files ({@link SnapshotFormat}): the header and the block table, checked before
 * anything else is read; then, for a load, every block checked against its CRC as it is copied
 * into the key and value arrays. Whatever is wrong throws a {@link SnapshotException} naming the
 * file; nothing is built from a file that is not whole.
 */
final class SnapshotReader {
    private static final int READ_BYTES = 4 << 20;

    private SnapshotReader() {
    }

    /** A snapshot's entries, in key order, {@code Long.MAX_VALUE} last if there. */
    record Entries(SnapshotFormat.Header header, long[] keys, long[] values) {
    }

    /** An open snapshot file whose header and block table have been checked. */
    record Opened(Path file, FileChannel channel, SnapshotFormat.Header header, int[] table) {
    }

    /** Opens {@code file} and checks its header and block table; the caller closes the channel. */
    static Opened open(Path file) throws IOException {
        if (Files.isDirectory(file)) {
            throw new SnapshotException(file, "is a directory, not a snapshot file");
        }
        FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
        try {
            long size = ch.size();
            if (size < HEADER_BYTES) {
                throw new CorruptSnapshotException(file, "is " + size + " bytes, shorter than a snapshot's "
                        + HEADER_BYTES + "-byte header" + (size == 0 ? " (empty)" : ": it was cut short or is no snapshot"));
            }
            SnapshotFormat.Header h = SnapshotFormat.decode(file, readFully(ch, 0, HEADER_BYTES), size);
            ByteBuffer t = readFully(ch, h.tableOffset(), (int) h.tableBytes());
            if (SnapshotFormat.crc(t, 0, t.capacity()) != h.tableCrc()) {
                throw new CorruptSnapshotException(file, "has a damaged block table (its checksum does not match)");
            }
            int[] table = new int[t.capacity() / 4];
            t.order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(table);
            return new Opened(file, ch, h, table);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    static SnapshotInfo info(Path file) throws IOException {
        Opened o = open(file);
        try (FileChannel ch = o.channel()) {
            return o.header().info(file);
        }
    }

    /** Checks every block of {@code file}; copies the entries out when {@code copy}. */
    static Entries read(Path file, boolean copy) throws IOException {
        return read(file, copy, null);
    }

    /**
     * {@link #read(Path, boolean)} of a snapshot that must be of {@code expected}'s family (any
     * when null), checked in the header before the data is read.
     */
    static Entries read(Path file, boolean copy, IndexKind.Family expected) throws IOException {
        Opened o = open(file);
        try (FileChannel ch = o.channel(); Arena arena = Arena.ofConfined()) {
            SnapshotFormat.Header h = o.header();
            if (expected != null && h.kind().family() != expected) {
                throw new SnapshotKindException(file, expected, h.kind());
            }
            long stored = h.stored();
            long[] keys = null;
            long[] values = null;
            if (copy) {
                if (h.keys() > Integer.MAX_VALUE - 16) {
                    throw new SnapshotException(file, "holds " + h.keys()
                            + " keys, more than a Java array holds: open it with Indexes.map");
                }
                keys = new long[(int) h.keys()];
                values = h.values() ? new long[(int) h.keys()] : null;
            }
            int blockBytes = (int) h.blockBytes();
            int leafBytes = h.leafBytes();
            long dataBytes = h.dataBytes();
            int perRead = (int) Math.max(1, Math.min(READ_BYTES, dataBytes) / blockBytes);
            // freed when the read ends, not when a collection finds the buffer
            MemorySegment seg = arena.allocate((long) perRead * blockBytes, 64);
            ByteBuffer buf = seg.asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
            CRC32C crc = new CRC32C();
            long blocks = h.blocks();
            for (long b = 0; b < blocks; b += perRead) {
                long from = b * blockBytes;
                int len = (int) Math.min((long) perRead * blockBytes, dataBytes - from);
                fill(ch, buf.clear().limit(len), HEADER_BYTES + from);
                for (int i = 0; i * blockBytes < len; i++) {
                    int bytes = Math.min(blockBytes, len - i * blockBytes);
                    crc.reset();
                    crc.update(buf.slice(i * blockBytes, bytes));
                    if ((int) crc.getValue() != o.table()[(int) (b + i)]) {
                        throw damaged(file, "data block " + (b + i) + " of " + blocks,
                                HEADER_BYTES + from + (long) i * blockBytes, bytes);
                    }
                }
                if (from + len == dataBytes && stored % NODE != 0) {
                    // the last leaf's padding: a key count that does not match the data is damage
                    long last = len - leafBytes;
                    for (long p = stored % NODE; p < NODE; p++) {
                        if (seg.get(LE_LONG, last + 8 * p) != Long.MAX_VALUE) {
                            throw new CorruptSnapshotException(file, "holds more entries than its header's "
                                    + h.keys() + " keys");
                        }
                    }
                }
                if (copy) {
                    // leaf by leaf: 16 keys, then their 16 values
                    long first = from / leafBytes * NODE;
                    for (int at = 0; at < len; at += leafBytes, first += NODE) {
                        int count = (int) Math.min(NODE, stored - first);
                        MemorySegment.copy(seg, LE_LONG, at, keys, (int) first, count);
                        if (values != null) {
                            MemorySegment.copy(seg, LE_LONG, at + NODE * 8, values, (int) first, count);
                        }
                    }
                }
            }
            long inner = h.innerBytes();
            for (long c = 0; c * INNER_CHUNK < inner; c++) {
                int len = (int) Math.min(INNER_CHUNK, inner - c * INNER_CHUNK);
                ByteBuffer chunk = readFully(ch, h.innerOffset() + c * INNER_CHUNK, len);
                if (SnapshotFormat.crc(chunk, 0, len) != o.table()[(int) (blocks + c)]) {
                    throw damaged(file, "inner-level chunk " + c, h.innerOffset() + c * INNER_CHUNK, len);
                }
            }
            if (copy && h.hasMax()) {
                keys[(int) stored] = Long.MAX_VALUE;
                if (values != null) {
                    values[(int) stored] = h.maxValue();
                }
            }
            return new Entries(h, keys, values);
        }
    }

    private static CorruptSnapshotException damaged(Path file, String what, long at, long len) {
        return new CorruptSnapshotException(file, "has a damaged " + what + " (bytes " + at + " to " + (at + len)
                + ": its checksum does not match)");
    }

    static ByteBuffer readFully(FileChannel ch, long at, int len) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(len).order(ByteOrder.LITTLE_ENDIAN);
        fill(ch, b, at);
        return b.clear();
    }

    private static void fill(FileChannel ch, ByteBuffer b, long at) throws IOException {
        while (b.hasRemaining()) {
            int r = ch.read(b, at);
            if (r < 0) {
                throw new IOException("the file ended while it was read (it shrank since it was opened)");
            }
            at += r;
        }
    }
}
