package org.bforest;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * The snapshot file format, version 1: one layout that {@link Indexes#load} reads back into arrays
 * and {@link Indexes#map} searches in place. Every number is little-endian.
 *
 * <pre>
 * [0, 4096)        header: magic, version, lengths, the kind, the layout (below), the block
 *                  table's CRC-32C at 4088 and the header's own over [0, 4092) at 4092
 * [4096, inner)    data: leaves of 16 entries back to back, each its 16 keys and then (unless
 *                  key-only) their 16 values, 256 bytes (128 key-only); the last leaf padded with
 *                  Long.MAX_VALUE keys and 0 values. Entries in ascending key order,
 *                  Long.MAX_VALUE not among them: its value, if the index holds it, is in the
 *                  header. Checksummed in blocks of E entries (E/16 leaves; E a multiple of 16,
 *                  at most 8192), the last block as long as the leaves left
 * [inner, table)   the static inner levels, root first: nodes of 16 keys, node j's children
 *                  17j .. 17j+16 on the level below (the leaves: 16 consecutive entries of the
 *                  data), slot s the least key of child s+1, Long.MAX_VALUE past the last child
 * [table, end)     the CRC-32C of every data block, then of every 1 MiB chunk of the inner levels
 * </pre>
 *
 * The sections follow each other with no gap, every one a multiple of 128 bytes, so every node
 * and leaf is two aligned cache lines in a mapping and every byte of the file is under a checksum.
 * Children are found by arithmetic, not stored: a mapped look-up reads the keys of one node a
 * level and one leaf, as the static trees of Rao and Ross's "Cache Conscious Indexing for
 * Decision-Support in Main Memory" do; a leaf's values sit right after its keys, on the same
 * page, so a look-up costs one page walk at the bottom, not two.
 */
final class SnapshotFormat {
    static final byte[] MAGIC = {(byte) 0x89, 'B', 'F', 'S', 'N', 'A', 'P', '\n'};
    static final int VERSION = 1;
    static final int HEADER_BYTES = 4096;
    static final int MAX_BLOCK_ENTRIES = 8192;
    static final int INNER_CHUNK = 1 << 20;
    static final int NODE = 16;
    static final int FANOUT = 17;
    static final int MAX_LEVELS = 24;
    private static final int FLAG_VALUES = 1;
    private static final int FLAG_MAX = 2;
    /** A CBS-tree whose leaves keep values as lanes ({@link BSTreeIndex#hasValueLanes}). */
    private static final int FLAG_VALUE_LANES = 4;
    private static final int TABLE_CRC = 4088;
    private static final int HEADER_CRC = 4092;

    private SnapshotFormat() {
    }

    /**
     * A snapshot's header: what it holds and where. Built by the writer from what it wrote, and by
     * {@link #decode} from a file, which checks everything that can be checked without the data.
     */
    record Header(IndexKind kind, long keys, boolean values, boolean hasMax, boolean valueLanes, long maxValue,
                  int blockEntries, long[] levelNodes, int tableCrc, long fileBytes) {

        /** Entries in the data blocks: every key but {@code Long.MAX_VALUE}. */
        long stored() {
            return keys - (hasMax ? 1 : 0);
        }

        /** Bytes of one leaf: 16 keys, and 16 values unless key-only. */
        int leafBytes() {
            return values ? 2 * NODE * 8 : NODE * 8;
        }

        long leaves() {
            return (stored() + NODE - 1) / NODE;
        }

        /** Bytes of a whole block of {@link #blockEntries}; the last block may be shorter. */
        long blockBytes() {
            return (long) blockEntries / NODE * leafBytes();
        }

        long blocks() {
            return blocksFor(stored(), blockEntries);
        }

        long dataBytes() {
            return leaves() * leafBytes();
        }

        long innerOffset() {
            return HEADER_BYTES + dataBytes();
        }

        long innerBytes() {
            long n = 0;
            for (long c : levelNodes) {
                n += c;
            }
            return n * NODE * 8;
        }

        long tableOffset() {
            return innerOffset() + innerBytes();
        }

        long innerChunks() {
            return (innerBytes() + INNER_CHUNK - 1) / INNER_CHUNK;
        }

        long tableBytes() {
            return 4 * (blocks() + innerChunks());
        }

        SnapshotInfo info(Path file) {
            return new SnapshotInfo(file, VERSION, kind, keys, values, fileBytes);
        }
    }

    static long blocksFor(long stored, int blockEntries) {
        return (stored + blockEntries - 1) / blockEntries;
    }

    /** The node counts of the inner levels over {@code leaves} leaves, root first; none for one leaf. */
    static long[] levelsOver(long leaves) {
        long[] up = new long[MAX_LEVELS];
        int n = 0;
        for (long c = leaves; c > 1; ) {
            c = (c + FANOUT - 1) / FANOUT;
            up[n++] = c;
        }
        long[] rootFirst = new long[n];
        for (int i = 0; i < n; i++) {
            rootFirst[i] = up[n - 1 - i];
        }
        return rootFirst;
    }

    static ByteBuffer encode(Header h) {
        ByteBuffer b = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.put(MAGIC);
        b.putInt(8, VERSION).putInt(12, HEADER_BYTES).putLong(16, h.fileBytes()).putLong(24, h.keys());
        b.putInt(32, (h.values() ? FLAG_VALUES : 0) | (h.hasMax() ? FLAG_MAX : 0) | (h.valueLanes() ? FLAG_VALUE_LANES : 0))
                .putInt(36, h.blockEntries());
        b.putLong(40, h.maxValue()).putInt(48, h.levelNodes().length);
        for (int i = 0; i < h.levelNodes().length; i++) {
            b.putLong(56 + 8 * i, h.levelNodes()[i]);
        }
        IndexKind k = h.kind();
        byte[] family = k.family().name().getBytes(StandardCharsets.US_ASCII);
        b.put(256, (byte) family.length).put(257, family);
        b.putDouble(320, k.leafFill()).putInt(328, k.nodeKeys())
                .putInt(332, k.variant() == null ? -1 : k.variant().ordinal()).putInt(336, k.lines());
        b.putInt(TABLE_CRC, h.tableCrc());
        b.putInt(HEADER_CRC, crc(b, 0, HEADER_CRC));
        return b.clear();
    }

    /**
     * Reads a header and checks it: magic, version, its CRC, settings an index can have, a layout
     * that fits {@code actualBytes}. The data and the block table are not read.
     */
    static Header decode(Path file, ByteBuffer b, long actualBytes) throws CorruptSnapshotException {
        b.order(ByteOrder.LITTLE_ENDIAN);
        byte[] magic = new byte[MAGIC.length];
        b.get(0, magic);
        if (!Arrays.equals(magic, MAGIC)) {
            throw new CorruptSnapshotException(file, "is not a bforest snapshot (its first bytes are not the magic number)");
        }
        int version = b.getInt(8);
        boolean intact = b.getInt(HEADER_CRC) == crc(b, 0, HEADER_CRC);
        if (version != VERSION && intact) {
            throw new CorruptSnapshotException(file, "is a snapshot of format version " + version
                    + ", this bforest reads version " + VERSION);
        }
        if (!intact) {
            throw new CorruptSnapshotException(file, "has a damaged header (its checksum does not match)");
        }
        long fileBytes = b.getLong(16);
        if (fileBytes != actualBytes) {
            throw new CorruptSnapshotException(file, "is " + actualBytes + " bytes but its header says " + fileBytes
                    + (actualBytes < fileBytes ? ": it was cut short" : ": bytes were added to it"));
        }
        try {
            int flags = b.getInt(32);
            int levels = b.getInt(48);
            if (b.getInt(12) != HEADER_BYTES || (flags & ~(FLAG_VALUES | FLAG_MAX | FLAG_VALUE_LANES)) != 0 || levels < 0
                    || levels > MAX_LEVELS) {
                throw new IllegalArgumentException("header fields out of range");
            }
            long[] levelNodes = new long[levels];
            for (int i = 0; i < levels; i++) {
                levelNodes[i] = b.getLong(56 + 8 * i);
            }
            int len = b.get(256);
            byte[] name = new byte[Math.max(0, Math.min(len, 60))];
            b.get(257, name);
            IndexKind.Family family = IndexKind.Family.valueOf(new String(name, StandardCharsets.US_ASCII));
            int variant = b.getInt(332);
            IndexKind kind = new IndexKind(family, b.getDouble(320), b.getInt(328),
                    variant < 0 ? null : CsbVariant.values()[variant], b.getInt(336));
            Header h = new Header(kind, b.getLong(24), (flags & FLAG_VALUES) != 0, (flags & FLAG_MAX) != 0,
                    (flags & FLAG_VALUE_LANES) != 0, b.getLong(40), b.getInt(36), levelNodes, b.getInt(TABLE_CRC), fileBytes);
            checkLayout(h);
            return h;
        } catch (IllegalArgumentException | IndexOutOfBoundsException | ArithmeticException e) {
            throw new CorruptSnapshotException(file, "has a header no snapshot can have (" + e.getMessage() + ")");
        }
    }

    private static void checkLayout(Header h) {
        // every entry takes 8 bytes at least: a larger count is damage, and the sums below cannot wrap
        if (h.keys() > h.fileBytes() / 8 + 1) {
            throw new IllegalArgumentException("more keys than the file can hold");
        }
        if (h.keys() < 0 || h.stored() < 0 || h.blockEntries() < NODE || h.blockEntries() > MAX_BLOCK_ENTRIES
                || h.blockEntries() % NODE != 0 || !h.values() && h.kind().storesValues()
                || h.values() && !h.kind().storesValues()
                || h.valueLanes() && h.kind().family() != IndexKind.Family.CBS_TREE) {
            throw new IllegalArgumentException("counts or flags out of range");
        }
        if (!Arrays.equals(h.levelNodes(), levelsOver(h.leaves()))) {
            throw new IllegalArgumentException("inner levels that do not fit the key count");
        }
        if (h.tableOffset() + h.tableBytes() != h.fileBytes()) {
            throw new IllegalArgumentException("sections that do not add up to the file's length");
        }
    }

    static int crc(ByteBuffer b, int from, int to) {
        CRC32C c = new CRC32C();
        c.update(b.duplicate().clear().position(from).limit(to));
        return (int) c.getValue();
    }
}
