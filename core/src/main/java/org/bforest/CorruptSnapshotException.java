package org.bforest;

import java.nio.file.Path;

/**
 * The file is not a complete, intact snapshot: a wrong magic number or format version, a length
 * other than the header's (a truncated or extended file), a checksum that does not match (the
 * header, the block table, or which data block), or settings no index can have. Take the previous
 * snapshot, or write a new one.
 */
public final class CorruptSnapshotException extends SnapshotException {
    private static final long serialVersionUID = 1L;

    /**
     * @param file    the snapshot file
     * @param problem what is wrong with its bytes
     */
    public CorruptSnapshotException(Path file, String problem) {
        super(file, problem);
    }
}
