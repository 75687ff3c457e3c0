package org.bforest.snapshot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.bforest.Indexes;
import org.bforest.LongEntryConsumer;
import org.bforest.LongIndex;
import org.bforest.NativeLongIndex;
import org.bforest.testing.ForwardingIndex;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot write that fails, whatever the cause (the index's {@code forEach} throwing midway, keys
 * out of order, the thread interrupted, a read-only or missing folder, the rename refused), leaves
 * the file that was at the path byte for byte as it was and no temporary file beside it; and the
 * writes that succeed in odd conditions (a size that lies, writers racing on one path, a mapped
 * snapshot written over its own file) leave a whole snapshot.
 */
class SnapshotFailedWriteTest {
    /** Past one 4 MiB write buffer of leaves with values (262,144 entries), so a failure comes after bytes reached the file. */
    private static final int NEW_KEYS = 300_000;

    @TempDir
    Path dir;
    private Path file;
    private byte[] previous;
    private LongIndex next;

    @BeforeEach
    void previousSnapshot() throws IOException {
        file = dir.resolve("index.snap");
        long[] k = new long[5000];
        long[] v = new long[k.length];
        for (int i = 0; i < k.length; i++) {
            k[i] = 7L * i - 100;
            v[i] = ~i;
        }
        Indexes.bsTree(k, v).snapshot(file);
        previous = Files.readAllBytes(file);
        long[] nk = new long[NEW_KEYS];
        long[] nv = new long[NEW_KEYS];
        for (int i = 0; i < NEW_KEYS; i++) {
            nk[i] = 2L * i;
            nv[i] = i;
        }
        next = Indexes.bPlusTree(nk, nv);
    }

    /** The previous snapshot is at the path, unchanged, and nothing else is in the folder. */
    private void assertPreviousStands(String what) throws IOException {
        assertArrayEquals(previous, Files.readAllBytes(file), what + ": the previous snapshot changed");
        assertEquals(List.of(file.getFileName().toString()), SnapshotFiles.names(dir), what + ": files left in the folder");
    }

    /** {@code next}, with a {@code forEach} that runs {@code hook} before entry {@code at} (counting from 0). */
    private LongIndex failingAt(long at, Runnable hook) {
        return new ForwardingIndex(next) {
            @Override
            public void forEach(LongEntryConsumer action) {
                long[] n = {0};
                delegate.forEach((k, v) -> {
                    if (n[0]++ == at) {
                        hook.run();
                    }
                    action.accept(k, v);
                });
            }
        };
    }

    @Test
    void forEachThrowsMidway() throws IOException {
        long[] points = {0, 1, 15, 16, 17, 8191, 8192, 262_143, 262_144, 280_000, NEW_KEYS - 1};
        List<Supplier<Throwable>> failures = List.of(
                () -> new IllegalStateException("the index broke"),
                () -> new UncheckedIOException(new IOException("the disk went away")),
                () -> new OutOfMemoryError("simulated"));
        for (long at : points) {
            for (Supplier<Throwable> f : failures) {
                Throwable thrown = f.get();
                String what = thrown + " at entry " + at;
                LongIndex bad = failingAt(at, () -> sneakyThrow(thrown));
                Throwable caught = assertThrows(Throwable.class, () -> bad.snapshot(file), what);
                assertSame(thrown instanceof UncheckedIOException u ? u.getCause() : thrown, caught, what);
                assertPreviousStands(what);
            }
        }
        assertEquals(5000, Indexes.verifySnapshot(file).keys());
    }

    /**
     * A checked exception that the index's {@code forEach} throws without declaring it (code in
     * another JVM language, or Java's "sneaky throw"): it passes through the write as it is, and
     * the temporary file goes as it does for any other failure.
     */
    @Test
    void forEachThrowsAnUndeclaredCheckedException() throws IOException {
        for (long at : new long[] {0, 280_000}) {
            Exception thrown = new Exception("checked, undeclared");
            LongIndex bad = failingAt(at, () -> sneakyThrow(thrown));
            Throwable caught = assertThrows(Throwable.class, () -> bad.snapshot(file));
            assertSame(thrown, caught);
            assertPreviousStands("an undeclared checked exception at entry " + at);
        }
    }

    @Test
    void keysOutOfOrder() throws IOException {
        for (long at : new long[] {1, 17, 280_000}) {
            LongIndex bad = new ForwardingIndex(next) {
                @Override
                public void forEach(LongEntryConsumer action) {
                    long[] n = {0};
                    delegate.forEach((k, v) -> action.accept(n[0]++ == at ? k - 3 : k, v));
                }
            };
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> bad.snapshot(file));
            assertTrue(e.getMessage().contains("ascending"), e.getMessage());
            assertPreviousStands("a key out of order at " + at);
        }
    }

    @Test
    void interruptedWhileWriting() throws IOException {
        for (long at : new long[] {0, 10, 280_000}) {
            LongIndex bad = failingAt(at, () -> Thread.currentThread().interrupt());
            try {
                IOException e = assertThrows(IOException.class, () -> bad.snapshot(file));
                assertTrue(e instanceof ClosedByInterruptException, e.toString());
                assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is kept for the caller");
            } finally {
                Thread.interrupted();
            }
            assertPreviousStands("interrupted at entry " + at);
        }
    }

    @Test
    void readOnlyFolder() throws IOException {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            boolean writable;
            try {
                Files.delete(Files.createFile(dir.resolve("probe")));
                writable = true;
            } catch (IOException e) {
                writable = false;
            }
            Assumptions.assumeFalse(writable, "this user writes into a read-only folder (root): nothing to test");
            assertThrows(IOException.class, () -> next.snapshot(file));
            assertPreviousStands("a read-only folder");
        } finally {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        }
    }

    @Test
    void missingFolder() throws IOException {
        assertThrows(NoSuchFileException.class, () -> next.snapshot(dir.resolve("no-such-folder").resolve("x.snap")));
        assertPreviousStands("a missing folder");
    }

    /** The rename at the end is refused (the path became a folder with a file in it meanwhile): the temporary file goes. */
    @Test
    void renameRefused() throws IOException {
        Path inside = file.resolve("inside");
        LongIndex racing = failingAt(1000, () -> {
            try {
                Files.delete(file);
                Files.createDirectories(inside);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        assertThrows(IOException.class, () -> racing.snapshot(file));
        assertTrue(Files.isDirectory(inside), "the folder that took the path stays");
        assertEquals(List.of(file.getFileName().toString()), SnapshotFiles.names(dir), "no temporary file is left");
    }

    /**
     * A file name as long as the file system allows (255 bytes on the usual Linux ones): the file
     * itself can be created, so a snapshot into it must work too, whatever name the temporary
     * file beside it takes.
     */
    @Test
    void longestFileName() throws IOException {
        Path longest = dir.resolve("s".repeat(250) + ".snap");
        Files.write(longest, previous);
        next.snapshot(longest);
        assertEquals(NEW_KEYS, Indexes.verifySnapshot(longest).keys());
    }

    /** {@code size()} only sizes the blocks: a wrong one still gives a whole, correct snapshot. */
    @Test
    void sizeIsOnlyAHint() throws IOException {
        long[][] expected = SnapshotFiles.entries(next);
        for (long lie : new long[] {0, -5, 1, 17, Long.MAX_VALUE, Long.MIN_VALUE}) {
            LongIndex liar = new ForwardingIndex(next) {
                @Override
                public long size() {
                    return lie;
                }
            };
            liar.snapshot(file);
            SnapshotFiles.Layout l = SnapshotFiles.Layout.of(file);
            assertEquals(NEW_KEYS, l.keys(), "size() " + lie);
            Indexes.verifySnapshot(file);
            SnapshotFiles.assertEntries(expected[0], expected[1], Indexes.load(file), "size() " + lie);
            assertEquals(List.of(file.getFileName().toString()), SnapshotFiles.names(dir));
        }
    }

    /** A mapped snapshot written over its own file: the mapping keeps the old file's bytes, the path gets the new. */
    @Test
    void mappedSnapshotWrittenOverItsOwnFile() throws IOException {
        long[][] before = SnapshotFiles.entries(Indexes.load(file));
        try (NativeLongIndex mapped = Indexes.map(file)) {
            mapped.snapshot(file);
            next.snapshot(file);
            SnapshotFiles.assertEntries(before[0], before[1], mapped, "the mapping after its file was replaced");
        }
        long[][] now = SnapshotFiles.entries(next);
        SnapshotFiles.assertEntries(now[0], now[1], Indexes.load(file), "the new file");
        assertEquals(List.of(file.getFileName().toString()), SnapshotFiles.names(dir));
    }

    /**
     * Two threads writing different indexes over one path while a third loads it: every load finds
     * one index or the other, whole (the renames are atomic); no temporary file is left.
     */
    @Test
    void writersRacingOnOnePath() throws Exception {
        LongIndex a = Indexes.bsTree(new long[] {1, 2, 3}, new long[] {10, 20, 30});
        long[][] ea = SnapshotFiles.entries(a);
        long[][] eb = SnapshotFiles.entries(next);
        long[][] ep = SnapshotFiles.entries(Indexes.load(file));
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> writers = new ArrayList<>();
        for (LongIndex x : new LongIndex[] {a, next}) {
            writers.add(Thread.ofPlatform().start(() -> {
                try {
                    for (int i = 0; i < 15; i++) {
                        x.snapshot(file);
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            }));
        }
        int loads = 0;
        while (writers.stream().anyMatch(Thread::isAlive) || loads == 0) {
            long[][] got = SnapshotFiles.entries(Indexes.load(file));
            long[][] want = got[0].length == ea[0].length ? ea : got[0].length == eb[0].length ? eb : ep;
            assertArrayEquals(want[0], got[0], "load " + loads);
            assertArrayEquals(want[1], got[1], "load " + loads);
            loads++;
        }
        for (Thread t : writers) {
            t.join();
        }
        assertEquals(null, failure.get());
        assertEquals(List.of(file.getFileName().toString()), SnapshotFiles.names(dir), "temporary files left");
        long last = Indexes.snapshotInfo(file).keys();
        assertTrue(last == 3 || last == NEW_KEYS, "the last rename wins: " + last);
        System.out.println("racing writers: " + loads + " loads");
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void sneakyThrow(Throwable t) throws T {
        throw (T) t;
    }
}
