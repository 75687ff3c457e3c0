package org.bforest.bstree;

import org.bforest.BSTreeIndex;
import org.bforest.util.Arrivals;

/**
 * The one way into this package from outside it: the tree classes are package-private and
 * final, and {@code org.bforest.Indexes} and {@code BSTreeBuilder} build them through these
 * factories. Not exported to users (see {@code module-info.java}).
 */
public final class BSTrees {
    /** The paper's default leaf fill at bulk load. */
    public static final double DEFAULT_LEAF_FILL = 0.75;

    private BSTrees() {
    }

    /** An empty tree: the CBS-tree when {@code compressed}, else the plain BS-tree. */
    public static BSTreeIndex empty(boolean compressed) {
        return compressed ? new CBSTree() : new BSTree();
    }

    /**
     * A tree bulk-loaded from {@code sortedKeys}: the CBS-tree when {@code compressed}, else the
     * plain BS-tree.
     *
     * @param values one per key, or {@code null} for zeros: a tree that stores values all 0 and
     *               takes any later value, not a key-only one (that is {@link #bulkLoadKeyOnly})
     * @throws IllegalArgumentException on unsorted or duplicate keys, arrays of different lengths
     *                                  or a fill outside [0.5, 1]; nothing is built
     */
    public static BSTreeIndex bulkLoad(long[] sortedKeys, long[] values, double leafFill, boolean compressed) {
        return compressed ? CBSTree.bulkLoad(sortedKeys, values, leafFill) : BSTree.bulkLoad(sortedKeys, values, leafFill);
    }

    /**
     * The plain BS-tree of {@link #bulkLoad(long[], long[], double, boolean)}, built from input
     * that may still be arriving ({@link Arrivals}).
     */
    public static BSTreeIndex bulkLoad(long[] sortedKeys, long[] values, double leafFill, Arrivals in) {
        return BSTree.bulkLoad(sortedKeys, values, leafFill, false, in);
    }

    /**
     * The CBS-tree of {@link #bulkLoad(long[], long[], double, boolean)} with value lanes or
     * without as {@code valueLanes} says ({@link BSTreeIndex#hasValueLanes}), rather than as
     * the input's sample decides, built from input that may still be arriving.
     */
    public static BSTreeIndex bulkLoadCompressed(long[] sortedKeys, long[] values, double leafFill, boolean valueLanes,
            Arrivals in) {
        return CBSTree.bulkLoad(sortedKeys, values, leafFill, valueLanes, in);
    }

    /** An empty key-only plain BS-tree: a set of keys with no value storage. */
    public static BSTreeIndex emptyKeyOnly() {
        return new BSTree(true);
    }

    /**
     * A key-only plain BS-tree bulk-loaded from {@code sortedKeys}.
     *
     * @throws IllegalArgumentException on unsorted or duplicate keys or a fill outside [0.5, 1];
     *                                  nothing is built
     */
    public static BSTreeIndex bulkLoadKeyOnly(long[] sortedKeys, double leafFill) {
        return BSTree.bulkLoad(sortedKeys, null, leafFill, true);
    }

    /** {@link #bulkLoadKeyOnly(long[], double)} of input that may still be arriving ({@link Arrivals}). */
    public static BSTreeIndex bulkLoadKeyOnly(long[] sortedKeys, double leafFill, Arrivals in) {
        return BSTree.bulkLoad(sortedKeys, null, leafFill, true, in);
    }

    /** Whether the paper's decision mechanism (section 6) picks the compressed tree for these keys. */
    public static boolean compressionPays(long[] sortedKeys) {
        return CompressionDecision.of(sortedKeys).compress();
    }
}
