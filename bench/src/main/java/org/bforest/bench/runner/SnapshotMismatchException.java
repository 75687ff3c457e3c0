package org.bforest.bench.runner;

/**
 * A snapshot read back is not the index it was taken of (its size, the checksum of its entries,
 * or the answers of its lookups differ): a bug in the snapshot code, which fails the run instead
 * of becoming a note.
 */
public final class SnapshotMismatchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SnapshotMismatchException(String message) {
        super(message);
    }
}
