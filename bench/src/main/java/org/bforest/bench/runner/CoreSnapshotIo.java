package org.bforest.bench.runner;

import java.io.IOException;
import java.nio.file.Path;
import org.bforest.LongIndex;

/** {@link SnapshotIo#CORE}: core's snapshot API. */
final class CoreSnapshotIo implements SnapshotIo {
    private static UnsupportedOperationException missing() {
        return new UnsupportedOperationException("this bforest core has no snapshots yet");
    }

    @Override
    public void save(LongIndex index, Path file) throws IOException {
        throw missing();
    }

    @Override
    public LongIndex load(Path file) throws IOException {
        throw missing();
    }

    @Override
    public LongIndex map(Path file) throws IOException {
        throw missing();
    }

    @Override
    public String kind(LongIndex index) {
        throw missing();
    }

    @Override
    public boolean storesValues(LongIndex index) {
        throw missing();
    }
}
