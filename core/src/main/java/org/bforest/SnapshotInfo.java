package org.bforest;

import java.nio.file.Path;

/**
 * What a snapshot file holds, read from its header ({@link Indexes#snapshotInfo}) or checked
 * block by block ({@link Indexes#verifySnapshot}).
 *
 * @param file          the file
 * @param formatVersion the version of the file format that wrote it
 * @param kind          the kind of index it was taken of, which {@link Indexes#load} builds again
 * @param keys          the number of entries
 * @param storesValues  whether it holds a value per key (a key-only tree's does not)
 * @param bytes         the file's length
 */
public record SnapshotInfo(Path file, int formatVersion, IndexKind kind, long keys, boolean storesValues, long bytes) {
}
