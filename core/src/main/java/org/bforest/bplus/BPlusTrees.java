package org.bforest.bplus;

import org.bforest.LongIndex;
import org.bforest.util.Arrivals;

/**
 * The one way into this package from outside it: {@code org.bforest.Indexes} builds the B+-tree
 * through these factories; the tree class is package-private and final. Not exported to users
 * (see {@code module-info.java}).
 */
public final class BPlusTrees {
    /** The sparse B+-tree's leaf fill at bulk load: 25% free space per leaf (the BS-tree paper's). */
    public static final double SPARSE_FILL = 0.75;

    private BPlusTrees() {
    }

    /** An empty B+-tree. */
    public static LongIndex empty() {
        return new BPlusTree("B+-tree", 1.0);
    }

    /**
     * A B+-tree bulk-loaded from {@code sortedKeys} with leaves {@code leafFill} full (1 for the
     * dense tree, {@link #SPARSE_FILL} for the sparse one).
     *
     * @throws IllegalArgumentException on unsorted or duplicate keys, arrays of different lengths
     *                                  or a fill outside [0.5, 1]; nothing is built
     */
    public static LongIndex bulkLoad(long[] sortedKeys, long[] values, double leafFill) {
        return bulkLoad(sortedKeys, values, leafFill, Arrivals.ALL);
    }

    /** {@link #bulkLoad(long[], long[], double)} of input that may still be arriving ({@link Arrivals}). */
    public static LongIndex bulkLoad(long[] sortedKeys, long[] values, double leafFill, Arrivals in) {
        return BPlusTree.bulkLoad(leafFill < 1.0 ? "sparse B+-tree" : "B+-tree", sortedKeys, values, leafFill, in);
    }
}
