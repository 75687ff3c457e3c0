package org.bforest;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A BS-tree, plain or compressed: what {@link Indexes#bsTree(long[], long[])} and
 * {@link Indexes#bsTreeBuilder()} return. Beyond the {@link LongIndex} contract it says which of
 * the two the decision mechanism (or the caller) chose, and how the tree is shaped.
 */
public interface BSTreeIndex extends LongIndex {
    /**
     * Whether the leaves store frame-of-reference differences (the CBS-tree of the paper's
     * section 5: 64, 32 or 16 keys per leaf) rather than plain keys (16 per leaf).
     *
     * @return {@code true} for a CBS-tree, {@code false} for a plain BS-tree
     */
    boolean isCompressed();

    /**
     * Whether the tree stores keys only ({@link Indexes#bsTreeKeyOnly()}): no value storage at
     * all, every value reads 0, and a put of any other value is refused.
     *
     * @return {@code true} for a key-only tree; {@code false} (the default) for one with values
     */
    default boolean isKeyOnly() {
        return false;
    }

    /**
     * Whether a compressed tree's leaves may keep their values as lanes beside the keys (chosen
     * at bulk load when at least 3/4 of the leaves' values fit; a tree built empty has them),
     * rather than in separate value blocks. A snapshot keeps the choice, so a load rebuilds
     * the same layout.
     *
     * @return {@code true} for a CBS-tree with value lanes; {@code false} for one without them
     *         and for a plain BS-tree
     */
    default boolean hasValueLanes() {
        return false;
    }

    /** {@inheritDoc} A CBS-tree's snapshot records {@link #hasValueLanes} too. */
    @Override
    default void snapshot(Path file) throws IOException {
        SnapshotWriter.write(Objects.requireNonNull(file, "file"), kind(), hasValueLanes(), size(), this::forEach);
    }

    /**
     * Inner levels above the leaves.
     *
     * @return the number of inner levels, 0 when the whole tree is one leaf
     */
    int height();

    /**
     * Leaves in use.
     *
     * @return the number of leaves that are part of the tree now (freed ones not counted)
     */
    long leafNodes();

    /**
     * Inner nodes in use.
     *
     * @return the number of inner nodes that are part of the tree now, over every inner level
     */
    long innerNodes();
}
