package org.bforest.bench.runner;

import java.io.IOException;
import java.nio.file.Path;
import org.bforest.LongIndex;

/**
 * The snapshot calls {@code --snapshot} times, in one place: core's API in the run
 * ({@link #CORE}); a test puts in one that breaks on purpose, to see the run fail.
 */
public interface SnapshotIo {
    /** Core's own: {@code LongIndex.snapshot}, {@code Indexes.load}, {@code Indexes.map}, {@code LongIndex.kind}. */
    SnapshotIo CORE = new CoreSnapshotIo();

    /** Writes {@code index} whole to {@code file}. */
    void save(LongIndex index, Path file) throws IOException;

    /** Builds an index from the snapshot in {@code file}. */
    LongIndex load(Path file) throws IOException;

    /** A read-only index over {@code file} mapped into memory; the caller closes it when it is {@link AutoCloseable}. */
    LongIndex map(Path file) throws IOException;

    /** What kind of index {@link #load} builds from a snapshot of {@code index}, in words. */
    String kind(LongIndex index);

    /** Whether {@code index} stores a value per key (a key-only tree's lookups are {@code containsKey}). */
    boolean storesValues(LongIndex index);
}
