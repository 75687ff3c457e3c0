package org.bforest.bench.runner;

import java.io.IOException;
import java.nio.file.Path;
import org.bforest.Indexes;
import org.bforest.LongIndex;

/** {@link SnapshotIo#CORE}: core's snapshot API. */
final class CoreSnapshotIo implements SnapshotIo {
    @Override
    public void save(LongIndex index, Path file) throws IOException {
        index.snapshot(file);
    }

    @Override
    public LongIndex load(Path file) throws IOException {
        return Indexes.load(file);
    }

    @Override
    public LongIndex map(Path file) throws IOException {
        return Indexes.map(file);
    }

    @Override
    public String kind(LongIndex index) {
        return index.kind().toString();
    }

    @Override
    public boolean storesValues(LongIndex index) {
        return index.kind().storesValues();
    }
}
