package org.bforest.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.bforest.BSTreeBuilder;
import org.bforest.CsbVariant;
import org.bforest.IndexKind;
import org.bforest.Indexes;
import org.bforest.LongIndex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An index built with settings other than the defaults names them in {@code kind()}, and its
 * snapshot loads back as the same kind with the same settings and the same entries.
 */
class SnapshotSettingsTest {
    @TempDir
    Path dir;

    private static long[] keys() {
        long[] k = new long[2000];
        for (int i = 0; i < k.length; i++) {
            k[i] = 1_000_003L * i - 77;
        }
        return k;
    }

    @Test
    void everyStructureKeepsItsSettings() throws IOException {
        long[] k = keys();
        long[] v = k.clone();
        record Built(IndexKind expected, LongIndex index) {
        }
        List<Built> built = List.of(
                new Built(IndexKind.bPlusTree(0.9), Indexes.bPlusTree(k, v, 0.9)),
                new Built(IndexKind.bMinusTree(16), Indexes.bMinusTree(k, v, 16)),
                new Built(IndexKind.bMinusTree(64), Indexes.bMinusTree(k, v, 64)),
                new Built(IndexKind.csbTree(CsbVariant.FULL, 4), Indexes.csbTree(CsbVariant.FULL, 4, k, v)),
                new Built(IndexKind.csbTree(CsbVariant.SEGMENTED, 1), Indexes.csbTree(CsbVariant.SEGMENTED, 1, k, v)),
                new Built(IndexKind.of(IndexKind.Family.CONCURRENT_BS_TREE), Indexes.concurrentBsTree(k, v)),
                new Built(IndexKind.bsTree(false, false, 0.75),
                        Indexes.bsTreeBuilder().compression(BSTreeBuilder.Compression.NEVER).build(k, v)));
        for (Built b : built) {
            assertEquals(b.expected(), b.index().kind(), "kind() of " + b.expected());
            roundTrip(b.index());
        }
    }

    /**
     * A BS-tree bulk-loaded at a fill other than 75% says so in {@code kind()}, so that its snapshot
     * loads back at that fill, as a B+-tree's does.
     */
    @Test
    void bsTreeKeepsItsLeafFill() throws IOException {
        long[] k = keys();
        LongIndex plain = Indexes.bsTreeBuilder().compression(BSTreeBuilder.Compression.NEVER).leafFill(0.9).build(k, k);
        LongIndex compressed = Indexes.bsTreeBuilder().compression(BSTreeBuilder.Compression.ALWAYS).leafFill(0.6).build(k, k);
        assertEquals(IndexKind.bsTree(false, false, 0.9), plain.kind());
        assertEquals(IndexKind.bsTree(true, false, 0.6), compressed.kind());
        roundTrip(plain);
        roundTrip(compressed);
    }

    private void roundTrip(LongIndex index) throws IOException {
        Path file = dir.resolve("settings.snap");
        index.snapshot(file);
        LongIndex back = Indexes.load(file);
        assertEquals(index.kind(), back.kind(), "the kind a snapshot loads back as");
        assertEquals(index.kind(), Indexes.snapshotInfo(file).kind());
        long[][] e = SnapshotFiles.entries(index);
        SnapshotFiles.assertEntries(e[0], e[1], back, index.kind().toString());
    }
}
