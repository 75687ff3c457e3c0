package org.bforest.snapshot;

import static org.bforest.snapshot.SnapshotFiles.HEADER;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.bforest.Indexes;
import org.bforest.LongIndex;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Snapshot files cut short at every length from the full one down to nothing, and files with bytes
 * added: {@link Indexes#load}, {@link Indexes#map}, {@link Indexes#snapshotInfo} and
 * {@link Indexes#verifySnapshot} all throw {@link org.bforest.CorruptSnapshotException} naming the
 * file, and the restored file reads back whole. Small snapshots (a few KiB: the writer picks small
 * blocks for small indexes) keep every length cheap; a larger one is cut at a sample of lengths.
 */
class SnapshotTruncationTest {
    private static final long SEED = SnapshotFiles.seed(0x7A1C_2026L);

    @TempDir
    Path dir;

    private static LongIndex subject(String name, SplittableRandom r) {
        return switch (name) {
            case "values-200" -> {
                long[] k = SnapshotFiles.keys(r, 200, true);
                yield Indexes.bPlusTree(k, r.longs(k.length).toArray());
            }
            case "key-only-200" -> Indexes.bsTreeKeyOnly(SnapshotFiles.keys(r, 200, false));
            case "one-key" -> Indexes.bMinusTree(new long[] {42}, new long[] {-42}, 16);
            case "only-max" -> Indexes.bsTree(new long[] {Long.MAX_VALUE}, new long[] {7});
            case "empty" -> Indexes.bsTree();
            case "values-3000" -> {
                long[] k = SnapshotFiles.keys(r, 3000, false);
                yield Indexes.csbTree(org.bforest.CsbVariant.PLAIN, k, r.longs(k.length).toArray());
            }
            default -> throw new IllegalArgumentException(name);
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"values-200", "key-only-200", "one-key", "only-max", "empty", "values-3000"})
    void everyShorterLengthAndLongerOnes(String name) throws IOException {
        SplittableRandom r = new SplittableRandom(SEED);
        LongIndex index = subject(name, r);
        Path file = dir.resolve(name + ".snap");
        index.snapshot(file);
        long[][] expected = SnapshotFiles.entries(index);
        byte[] whole = Files.readAllBytes(file);
        SnapshotFiles.Layout.of(file);
        // every length for a few KiB; past that, every length near a section's edge and a sample
        long[] lengths = whole.length <= 16 * 1024
                ? LongStream.range(0, whole.length).toArray()
                : LongStream.concat(LongStream.concat(LongStream.range(0, HEADER + 300),
                        LongStream.range(whole.length - 600L, whole.length)),
                        r.longs(400, HEADER, whole.length)).distinct().sorted().toArray();
        long t0 = System.nanoTime();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            // longest first: each cut is a truncate of the file as it is
            for (int i = lengths.length - 1; i >= 0; i--) {
                long len = lengths[i];
                ch.truncate(len);
                String what = name + " cut to " + len + " of " + whole.length + " bytes";
                for (SnapshotFiles.Read read : SnapshotFiles.readers()) {
                    String m = SnapshotFiles.corrupt(file, read, what).getMessage();
                    if (len >= HEADER) {
                        assertTrue(m.contains("cut short"), m);
                    }
                }
                assertEquals(len, Files.size(file), what + ": the file was changed");
            }
        }
        System.out.printf("%d cuts of %s: %d ms%n", lengths.length, name, (System.nanoTime() - t0) / 1_000_000);
        for (int extra : new int[] {1, 7, 128, HEADER, whole.length}) {
            byte[] longer = Arrays.copyOf(whole, whole.length + extra);
            System.arraycopy(whole, 0, longer, longer.length - Math.min(extra, whole.length), Math.min(extra, whole.length));
            Files.write(file, longer);
            for (SnapshotFiles.Read read : SnapshotFiles.readers()) {
                String m = SnapshotFiles.corrupt(file, read, name + " with " + extra + " bytes added").getMessage();
                assertTrue(m.contains("bytes were added"), m);
            }
            assertArrayEquals(longer, Files.readAllBytes(file));
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            ch.write(ByteBuffer.wrap(whole));
        }
        SnapshotFiles.assertEntries(expected[0], expected[1], Indexes.load(file), name + " restored");
    }
}
