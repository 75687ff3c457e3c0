package org.bforest;

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
