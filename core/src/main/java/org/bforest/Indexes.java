package org.bforest;

import org.bforest.bstree.BSTree;


/**
 * The front door: factory methods for every bforest structure.
 *
 * <pre>{@code
 * LongIndex empty  = Indexes.bsTree();
 * LongIndex loaded = Indexes.bsTree(sortedKeys, values);   // values may be null: key-only
 * }</pre>
 */
public final class Indexes {
    private Indexes() {
    }

    /** An empty BS-tree (the gapped, SIMD B+-tree of Tsitsigkos et al.). */
    public static LongIndex bsTree() {
        return new BSTree();
    }

    /**
     * A BS-tree bulk-loaded from {@code sortedKeys} at the paper's default leaf fill of 75%.
     *
     * <p>The arrays are copied into the tree's own storage; the caller may reuse them.
     *
     * @param sortedKeys keys in strictly ascending signed order
     * @param values     the value of each key, or {@code null} for a key-only index (values 0)
     * @throws IllegalArgumentException if the keys are not strictly ascending or the arrays
     *                                  differ in length; the message names the first bad index
     */
    public static LongIndex bsTree(long[] sortedKeys, long[] values) {
        return BSTree.bulkLoad(sortedKeys, values, BSTree.DEFAULT_LEAF_FILL);
    }

    /**
     * A BS-tree bulk-loaded with leaves {@code leafFill} full (0.5 to 1; the paper's default is
     * 0.75): fuller leaves take less memory and scan faster, emptier ones absorb more inserts
     * before they split. Inner levels are filled 1/8 more per level, up to full nodes.
     *
     * @throws IllegalArgumentException on bad keys or values (see {@link #bsTree(long[], long[])})
     *                                  or a fill outside [0.5, 1]
     */
    public static LongIndex bsTree(long[] sortedKeys, long[] values, double leafFill) {
        return BSTree.bulkLoad(sortedKeys, values, leafFill);
    }
}
