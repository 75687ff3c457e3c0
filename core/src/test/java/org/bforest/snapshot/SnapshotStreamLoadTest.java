package org.bforest.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.bforest.BSTreeIndex;
import org.bforest.CorruptSnapshotException;
import org.bforest.CsbVariant;
import org.bforest.Indexes;
import org.bforest.LongIndex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The load that builds while it reads: a snapshot over a few MiB of data is read on a second
 * thread while the bulk load follows the entries as they arrive. Every kind round-trips through
 * it; damage early, midway and in the last block stops it with the block named and no reading
 * thread left behind; keys out of order under valid checksums are refused; a CBS-tree's choice
 * of value lanes survives.
 */
class SnapshotStreamLoadTest {
    /** Entries enough for the data to pass the streamed load's threshold (8 MiB; 16 bytes an entry). */
    private static final int N = 700_000;

    @TempDir
    Path dir;

    private static List<LongIndex> everyKind(long[] keys, long[] values) {
        return List.of(Indexes.bsTree(keys, values, 0.75),
                Indexes.bsTreeBuilder().compression(org.bforest.BSTreeBuilder.Compression.ALWAYS).build(keys, values),
                Indexes.bsTreeKeyOnly(keys),
                Indexes.bPlusTree(keys, values),
                Indexes.bMinusTree(keys, values, 16),
                Indexes.csbTree(CsbVariant.FULL, 1, keys, values),
                Indexes.concurrentBsTree(keys, values));
    }

    @Test
    void everyKindRoundTripsWhileItIsRead() throws IOException {
        long seed = SnapshotFiles.seed(0x57EA11L);
        SplittableRandom r = new SplittableRandom(seed);
        long[] keys = SnapshotFiles.keys(r, N, true);
        long[] values = r.longs(N).toArray();
        for (LongIndex index : everyKind(keys, values)) {
            Path file = dir.resolve("stream.snap");
            index.snapshot(file);
            LongIndex back = Indexes.load(file);
            String what = index.kind() + ", seed " + seed;
            assertEquals(index.kind(), back.kind(), what);
            long[][] want = SnapshotFiles.entries(index);
            SnapshotFiles.assertEntries(want[0], want[1], back, what);
            assertEquals(index.get(Long.MAX_VALUE, -7), back.get(Long.MAX_VALUE, -7), what + ": the out-of-band key");
        }
        assertNoReaderLeft();
    }

    /** A CBS-tree with value lanes and one without: each loads with the layout it was saved with. */
    @Test
    void valueLanesAreKept() throws IOException {
        SplittableRandom r = new SplittableRandom(11);
        long[] keys = new long[N];
        for (int i = 0; i < N; i++) {
            keys[i] = 5L * i; // dense: 16-bit lanes
        }
        long[] small = new long[N]; // values that fit lanes
        long[] wide = new long[N];  // values that do not
        for (int i = 0; i < N; i++) {
            small[i] = i;
            wide[i] = r.nextLong();
        }
        for (long[] values : new long[][] {small, wide}) {
            BSTreeIndex t = Indexes.bsTreeBuilder().compression(org.bforest.BSTreeBuilder.Compression.ALWAYS)
                    .build(keys, values);
            Path file = dir.resolve("lanes.snap");
            t.snapshot(file);
            BSTreeIndex back = (BSTreeIndex) Indexes.load(file);
            assertEquals(t.hasValueLanes(), back.hasValueLanes(), "value lanes of " + t.kind());
            assertEquals(values == small, back.hasValueLanes(), "the sample's choice");
            SnapshotFiles.assertEntries(keys, values, back, "lanes " + back.hasValueLanes());
        }
    }

    @Test
    void damageAnywhereStopsTheBuild() throws IOException {
        long[] keys = SnapshotFiles.keys(new SplittableRandom(3), N, false);
        Path file = dir.resolve("damaged.snap");
        Indexes.bMinusTree(keys, keys).snapshot(file);
        SnapshotFiles.Layout l = SnapshotFiles.Layout.of(file);
        long[] at = {SnapshotFiles.HEADER + 3, SnapshotFiles.HEADER + l.blocks() / 2 * l.blockBytes() + 100,
            l.innerOffset() - 1, l.innerOffset() + 5};
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            for (long pos : at) {
                SnapshotFiles.flip(ch, pos, 5);
                SnapshotFiles.assertNames(l, pos, SnapshotFiles.corrupt(file, Indexes::load, "byte " + pos));
                SnapshotFiles.flip(ch, pos, 5);
            }
        }
        assertNoReaderLeft();
        SnapshotFiles.assertEntries(keys, keys, Indexes.load(file), "after the flips were undone");
    }

    /** Keys out of order in a block whose checksum was made to match: refused on both load paths. */
    @Test
    void keysOutOfOrderUnderValidChecksums() throws IOException {
        for (int n : new int[] {N, 1000}) {
            long[] keys = SnapshotFiles.keys(new SplittableRandom(4), n, false);
            Path file = dir.resolve("disordered-" + n + ".snap");
            Indexes.bsTree(keys, keys).snapshot(file);
            SnapshotFiles.Layout l = SnapshotFiles.Layout.of(file);
            long block = l.blocks() / 2;
            long first = SnapshotFiles.HEADER + block * l.blockBytes();
            // swap the first two keys of the block's second leaf
            long a = first + l.leafBytes();
            ByteBuffer two = SnapshotFiles.read(file, a, 16);
            long k0 = two.getLong(0);
            long k1 = two.getLong(8);
            two.putLong(0, k1).putLong(8, k0);
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                ch.write(two.clear(), a);
                int blockBytes = (int) Math.min(l.blockBytes(), l.innerOffset() - first);
                int crc = crc(SnapshotFiles.read(file, first, blockBytes));
                ByteBuffer entry = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, crc);
                ch.write(entry, l.tableOffset() + 4 * block);
            }
            int tableCrc = crc(SnapshotFiles.read(file, l.tableOffset(), (int) l.tableBytes()));
            SnapshotFiles.editHeader(file, h -> h.putInt(4088, tableCrc));
            Indexes.snapshotInfo(file); // header and table intact
            CorruptSnapshotException e = SnapshotFiles.corrupt(file, Indexes::load, n + " keys, two swapped");
            assertTrue(e.getMessage().contains("is not above the one before it"), e::getMessage);
            e = SnapshotFiles.corrupt(file, f -> Indexes.load(f, (k, v) -> Indexes.bsTree(k, v)), "into a builder");
            assertTrue(e.getMessage().contains("is not above the one before it"), e::getMessage);
        }
        assertNoReaderLeft();
    }

    private static int crc(ByteBuffer b) {
        CRC32C c = new CRC32C();
        c.update(b);
        return (int) c.getValue();
    }

    /** The reading thread of every load above has ended (a load waits for it before it returns or throws). */
    private static void assertNoReaderLeft() {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            assertFalse(t.getName().equals("bforest-snapshot-read") && t.isAlive(), "a reading thread outlived its load");
        }
    }
}
