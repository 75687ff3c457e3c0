package org.bforest.olc;

import org.bforest.ConcurrentLongIndex;
import org.bforest.util.Arrivals;

/**
 * The one way into this package from outside it: {@code org.bforest.Indexes} builds the concurrent
 * BS-tree through these factories. Not exported to users (see {@code module-info.java}).
 */
public final class OlcTrees {
    private OlcTrees() {
    }

    /** An empty concurrent BS-tree. */
    public static ConcurrentLongIndex empty() {
        return new OlcBSTree();
    }

    /**
     * A concurrent BS-tree bulk-loaded from {@code sortedKeys} (values {@code null}: all 0).
     *
     * @throws IllegalArgumentException on unsorted or duplicate keys or arrays of different
     *                                  lengths; nothing is built
     */
    public static ConcurrentLongIndex bulkLoad(long[] sortedKeys, long[] values) {
        return OlcBSTree.bulkLoad(sortedKeys, values);
    }

    /** {@link #bulkLoad(long[], long[])} of input that may still be arriving ({@link Arrivals}). */
    public static ConcurrentLongIndex bulkLoad(long[] sortedKeys, long[] values, Arrivals in) {
        return OlcBulkLoad.load(sortedKeys, values, in);
    }
}
