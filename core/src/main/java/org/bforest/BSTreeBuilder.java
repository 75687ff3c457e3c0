package org.bforest;

import java.util.Objects;
import org.bforest.bstree.BSTrees;

/**
 * Builds a BS-tree, plain or compressed, empty or bulk-loaded; from {@link Indexes#bsTreeBuilder()}.
 * Each setter checks its setting at once.
 *
 * <pre>{@code
 * BSTreeIndex t = Indexes.bsTreeBuilder()
 *         .compression(BSTreeBuilder.Compression.ALWAYS)   // default AUTO
 *         .leafFill(0.75)                                   // default 0.75
 *         .build(sortedKeys, values);
 * boolean compressed = t.isCompressed();
 * }</pre>
 */
public final class BSTreeBuilder {
    /** Which leaves the tree gets. */
    public enum Compression {
        /**
         * The paper's decision mechanism (section 6) looks at the keys: the compressed tree when
         * spans of 13 keys average at least 32 leading zero bits, else the
         * plain one. An empty build has nothing to look at and gets the plain tree.
         */
        AUTO,
        /** The plain BS-tree: 16 uncompressed keys per leaf. */
        NEVER,
        /** The CBS-tree: frame-of-reference leaves of 64, 32 or 16 keys. */
        ALWAYS
    }

    private Compression compression = Compression.AUTO;
    private double leafFill = BSTrees.DEFAULT_LEAF_FILL;

    BSTreeBuilder() {
    }

    /**
     * AUTO (the default), NEVER or ALWAYS.
     *
     * @param compression whether the leaves are compressed: decided from the keys, never, or always
     * @return this builder
     * @throws NullPointerException if {@code compression} is null
     */
    public BSTreeBuilder compression(Compression compression) {
        this.compression = Objects.requireNonNull(compression, "compression");
        return this;
    }

    /**
     * The fraction of each leaf's slots a bulk load fills, 0.5 to 1 (default 0.75, the paper's):
     * fuller leaves take less memory and scan faster, emptier ones absorb more inserts before
     * they split. Inner levels are filled 1/8 more per level, up to full nodes.
     *
     * @param fill the fraction of each leaf a bulk load fills, from 0.5 to 1
     * @return this builder
     * @throws IllegalArgumentException for a fill outside [0.5, 1] or NaN; the setting is left as
     *                                  it was
     */
    public BSTreeBuilder leafFill(double fill) {
        this.leafFill = BuilderChecks.leafFill(fill);
        return this;
    }

    /**
     * An empty tree (AUTO gives the plain tree: there are no keys to decide on).
     *
     * @return a new, empty BS-tree: a CBS-tree if compression is ALWAYS, else a plain one
     */
    public BSTreeIndex build() {
        return BSTrees.empty(compression == Compression.ALWAYS);
    }

    /**
     * A tree bulk-loaded from {@code sortedKeys}; the arrays are copied, the caller may reuse
     * them.
     *
     * @param sortedKeys keys in strictly ascending signed order
     * @param values     the value of each key, or {@code null} for all 0 (the tree still stores
     *                   values; {@link Indexes#bsTreeKeyOnly(long[])} is the form without them)
     * @return a new BS-tree holding those entries; {@link BSTreeIndex#isCompressed()} says which
     *         kind AUTO chose
     * @throws NullPointerException     if {@code sortedKeys} is null
     * @throws IllegalArgumentException if the keys are not strictly ascending or the arrays differ
     *                                  in length; the message names the first bad index
     */
    public BSTreeIndex build(long[] sortedKeys, long[] values) {
        boolean compress = switch (compression) {
            case ALWAYS -> true;
            case NEVER -> false;
            case AUTO -> sortedKeys != null && BSTrees.compressionPays(sortedKeys);
        };
        return BSTrees.bulkLoad(sortedKeys, values, leafFill, compress);
    }
}
