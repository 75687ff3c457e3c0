package org.bforest;

import java.nio.file.Path;

/** The snapshot is intact but holds another kind of index than the one asked for. */
public final class SnapshotKindException extends SnapshotException {
    private static final long serialVersionUID = 1L;

    private final transient IndexKind found;

    /**
     * @param file     the snapshot file
     * @param expected the family asked for
     * @param found    what the file holds
     */
    public SnapshotKindException(Path file, IndexKind.Family expected, IndexKind found) {
        super(file, "holds a " + found + " snapshot, not a " + expected + " one");
        this.found = found;
    }

    /** What the file holds. */
    public IndexKind found() {
        return found;
    }
}
