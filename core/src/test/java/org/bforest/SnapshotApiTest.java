package org.bforest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The snapshot API's own surface: what {@code kind()} answers for each factory, the checks of
 * {@link IndexKind}, {@link SnapshotInfo}, loading into an index of the caller's choice, and a
 * snapshot's size. The round trips of every structure are the kit's (contract tests).
 */
class SnapshotApiTest {
    @TempDir
    Path dir;

    @Test
    void everyFactoryNamesItsKind() {
        assertEquals(IndexKind.bsTree(false, false, 0.75),
                Indexes.bsTreeBuilder().compression(BSTreeBuilder.Compression.NEVER).build().kind());
        assertEquals(IndexKind.bsTree(true, false, 0.75), Indexes.cbsTree().kind());
        assertEquals(IndexKind.bsTree(false, true, 0.75), Indexes.bsTreeKeyOnly().kind());
        assertEquals(IndexKind.bPlusTree(1.0), Indexes.bPlusTree().kind());
        assertEquals(IndexKind.bPlusTree(0.75), Indexes.bPlusTree(new long[] {1}, null, 0.75).kind());
        assertEquals(IndexKind.bMinusTree(64), Indexes.bMinusTree(64).kind());
        assertEquals(IndexKind.csbTree(CsbVariant.SEGMENTED, 4), Indexes.csbTree(CsbVariant.SEGMENTED, 4).kind());
        assertEquals(IndexKind.of(IndexKind.Family.CONCURRENT_BS_TREE), Indexes.concurrentBsTree().kind());
        assertTrue(IndexKind.of(IndexKind.Family.BS_TREE).storesValues());
        assertTrue(!IndexKind.of(IndexKind.Family.BS_TREE_KEY_ONLY).storesValues());
    }

    @Test
    void settingsThatDoNotFitTheFamilyAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> IndexKind.bMinusTree(20));
        assertThrows(IllegalArgumentException.class, () -> IndexKind.csbTree(CsbVariant.FULL, 3));
        assertThrows(IllegalArgumentException.class, () -> IndexKind.bPlusTree(0.4));
        assertThrows(IllegalArgumentException.class, () -> IndexKind.bsTree(true, true, 0.75));
        assertThrows(IllegalArgumentException.class,
                () -> new IndexKind(IndexKind.Family.BS_TREE, 0.75, 32, null, 0));
        assertThrows(NullPointerException.class, () -> IndexKind.of(null));
    }

    @Test
    void infoLoadIntoAndSize() throws IOException {
        long[] keys = {Long.MIN_VALUE, -5, 0, 7, Long.MAX_VALUE};
        long[] values = {1, 2, 3, 4, 5};
        Path f = dir.resolve("five.snap");
        Indexes.bMinusTree(keys, values).snapshot(f);
        SnapshotInfo info = Indexes.snapshotInfo(f);
        assertEquals(new SnapshotInfo(f, 1, IndexKind.bMinusTree(32), 5, true, Files.size(f)), info);
        assertEquals(info, Indexes.verifySnapshot(f));
        // one leaf of 16 entries (256 bytes), no inner level, one block: header + leaf + table
        assertEquals(4096 + 256 + 4, Files.size(f));
        long[][] seen = new long[2][];
        LongIndex built = Indexes.load(f, (k, v) -> {
            seen[0] = k;
            seen[1] = v;
            return Indexes.bPlusTree(k, v);
        });
        assertArrayEquals(keys, seen[0]);
        assertArrayEquals(values, seen[1]);
        assertEquals(5, built.get(Long.MAX_VALUE, -1));
        Indexes.bsTreeKeyOnly(keys).snapshot(f);
        Indexes.load(f, (k, v) -> {
            assertArrayEquals(keys, k);
            assertNull(v);
            return Indexes.bsTreeKeyOnly(k);
        });
        assertThrows(NullPointerException.class, () -> Indexes.load(f, (java.util.function.BiFunction<long[], long[], LongIndex>) null));
    }

    /**
     * A large snapshot writes on a second thread while the walk goes on: a walk that fails half-way
     * still leaves the previous file whole and no temporary file, and a whole one loads back.
     */
    @Test
    void aLargeWriteThatFailsHalfWayLeavesThePreviousFile() throws IOException {
        int n = 1_500_000;   // 24 MB of leaves: more than two write buffers
        long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = 3L * i - n;
        }
        LongIndex big = Indexes.bPlusTree(keys, keys);
        Path f = dir.resolve("big.snap");
        big.snapshot(f);
        byte[] before = Files.readAllBytes(f);
        // the tree with a walk that fails half-way (a proxy: the trees are final)
        LongIndex failing = (LongIndex) Proxy.newProxyInstance(LongIndex.class.getClassLoader(),
                new Class<?>[] {LongIndex.class}, (proxy, m, args) -> {
                    if (m.getName().equals("forEach")) {
                        LongEntryConsumer action = (LongEntryConsumer) args[0];
                        long[] seen = {0};
                        big.forEach((k, v) -> {
                            if (++seen[0] == n / 2) {
                                throw new IllegalStateException("stop half-way");
                            }
                            action.accept(k, v + 1);
                        });
                        return null;
                    }
                    return m.isDefault() ? InvocationHandler.invokeDefault(proxy, m, args) : m.invoke(big, args);
                });
        assertThrows(IllegalStateException.class, () -> failing.snapshot(f));
        assertArrayEquals(before, Files.readAllBytes(f));
        try (var listing = Files.list(dir)) {
            assertEquals(1, listing.count(), "a temporary file was left");
        }
        LongIndex back = Indexes.load(f);
        assertEquals(n, back.size());
        assertEquals(keys[n - 1], back.get(keys[n - 1], 0));
    }

    @Test
    void aSnapshotOfAnotherKindLoadsAsABsTree() throws IOException {
        Path f = dir.resolve("other.snap");
        LongIndex other = new org.bforest.testing.TreeMapIndex();
        other.put(3, 30);
        other.snapshot(f);
        assertEquals(IndexKind.Family.OTHER, Indexes.snapshotInfo(f).kind().family());
        LongIndex back = Indexes.load(f);
        assertTrue(back instanceof BSTreeIndex, back.toString());
        assertEquals(30, back.get(3, -1));
    }
}
