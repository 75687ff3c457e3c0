package org.bforest;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A snapshot file could not be written, read or mapped: the message names the file and what is
 * wrong with it. Subclasses say which kind of problem: {@link CorruptSnapshotException} (the bytes
 * are not a complete, intact snapshot), {@link SnapshotKindException} (a snapshot of another kind
 * than the one asked for). Nothing half-built is ever returned, and a failed write leaves the file
 * that was at the path as it was.
 */
public class SnapshotException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;

    /**
     * @param file    the snapshot file
     * @param problem what is wrong, as a sentence fragment ("is a directory, not a snapshot file")
     */
    public SnapshotException(Path file, String problem) {
        super(Objects.requireNonNull(file, "file") + ": " + problem);
        this.file = file;
    }

    /** The snapshot file the problem is in. */
    public Path file() {
        return file;
    }
}
