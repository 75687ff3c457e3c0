package org.bforest.bminus;

import org.bforest.LongIndex;
import org.bforest.util.Arrivals;

/**
 * The one way into this package from outside it: {@code org.bforest.Indexes} builds the
 * B&minus; tree through these factories; the tree class is package-private and final. Not
 * exported to users (see {@code module-info.java}).
 */
public final class BMinusTrees {
    /** The article's node size. */
    public static final int DEFAULT_NODE_KEYS = 32;
    /**
     * Bulk-loaded leaves hold this share of their B-1 keys: all of them. Measured on 10M uniform
     * keys against 0.75 (the fill the article's trees reach under uniform inserts): lookups 3.33
     * against 2.24 Mops/s and inserts 1.62 against 1.56 (the first insert into a full leaf splits
     * it, which costs less than the larger tree's misses), and 26% less memory
     * (docs/BENCHMARKS.md).
     */
    public static final double BULK_FILL = 1.0;

    private BMinusTrees() {
    }

    /** An empty B&minus; tree of {@code nodeKeys} (16, 32 or 64) keys a node. */
    public static LongIndex empty(int nodeKeys) {
        return new BMinusTree(name(nodeKeys), nodeKeys, BULK_FILL);
    }

    /**
     * A B&minus; tree bulk-loaded from {@code sortedKeys}.
     *
     * @throws IllegalArgumentException on unsorted or duplicate keys, arrays of different lengths
     *                                  or a node size other than 16, 32 or 64; nothing is built
     */
    public static LongIndex bulkLoad(long[] sortedKeys, long[] values, int nodeKeys) {
        return BMinusTree.bulkLoad(name(nodeKeys), nodeKeys, sortedKeys, values, BULK_FILL);
    }

    /** {@link #bulkLoad(long[], long[], int)} of input that may still be arriving ({@link Arrivals}). */
    public static LongIndex bulkLoad(long[] sortedKeys, long[] values, int nodeKeys, Arrivals in) {
        return BMinusTree.bulkLoad(name(nodeKeys), nodeKeys, sortedKeys, values, BULK_FILL, true, in);
    }

    /**
     * {@link #empty(int)} with sibling links between leaves ({@code links}, what the public
     * factories build) or without (the next leaf found through the ancestors): the other way, kept
     * for the measurement that chose links and for the tests, which run both.
     */
    static LongIndex empty(int nodeKeys, boolean links) {
        return new BMinusTree(name(nodeKeys), nodeKeys, BULK_FILL, links);
    }

    /** {@link #bulkLoad(long[], long[], int)} with sibling links or without; see {@link #empty(int, boolean)}. */
    static LongIndex bulkLoad(long[] sortedKeys, long[] values, int nodeKeys, boolean links) {
        return BMinusTree.bulkLoad(name(nodeKeys), nodeKeys, sortedKeys, values, BULK_FILL, links);
    }

    private static String name(int nodeKeys) {
        if (nodeKeys != 16 && nodeKeys != 32 && nodeKeys != 64) {
            throw new IllegalArgumentException("a B-minus tree node holds 16, 32 or 64 keys, not " + nodeKeys);
        }
        return "B-minus tree";
    }
}
