package org.bforest.csb;

import java.util.Objects;
import org.bforest.CsbVariant;
import org.bforest.LongIndex;
import org.bforest.util.Arrivals;

/**
 * The one way into this package from outside it: {@code org.bforest.Indexes} builds the
 * CSB+-trees through these factories; the tree class is package-private and final. Not exported
 * to users (see {@code module-info.java}).
 */
public final class CsbTrees {
    /**
     * Cache lines a node takes by default (8 longs a line: 15 keys an inner node, 16 entries a
     * leaf). Measured at 1M uniform keys, each size alone in its JVM (A / B Mops/s, bytes a key
     * after B): 1 line 4.88 / 1.39 / 37.0, 2 lines 5.31 / 1.73 / 52.5, 4 lines 5.48 / 1.62 / 75.7;
     * four lines search within the spread of two but insert slower and use far more memory after
     * inserts (docs/ARCHITECTURE.md, "The CSB+-trees in memory").
     */
    public static final int DEFAULT_LINES = 2;

    private CsbTrees() {
    }

    /** An empty CSB+-tree of the variant, nodes of {@code lines} (1, 2 or 4) cache lines. */
    public static LongIndex empty(CsbVariant variant, int lines) {
        return new CsbTree(name(variant, lines), variant, lines);
    }

    /**
     * A CSB+-tree bulk-loaded from {@code sortedKeys}.
     *
     * @throws IllegalArgumentException on unsorted or duplicate keys, arrays of different lengths
     *                                  or a node size other than 1, 2 or 4 lines; nothing is built
     */
    public static LongIndex bulkLoad(CsbVariant variant, int lines, long[] sortedKeys, long[] values) {
        return CsbTree.bulkLoad(name(variant, lines), variant, lines, sortedKeys, values);
    }

    /** {@link #bulkLoad(CsbVariant, int, long[], long[])} of input that may still be arriving ({@link Arrivals}). */
    public static LongIndex bulkLoad(CsbVariant variant, int lines, long[] sortedKeys, long[] values, Arrivals in) {
        return CsbTree.bulkLoad(name(variant, lines), variant, lines, sortedKeys, values, false, in);
    }

    /**
     * {@link #empty}, or with {@code unrolled} a tree that descends with the paper's unrolled
     * "uniform" comparison instead of the SIMD rank: for measurements and tests in this package
     * only (the rank measured faster, so it is the one users get).
     */
    static LongIndex empty(CsbVariant variant, int lines, boolean unrolled) {
        return new CsbTree(name(variant, lines), variant, lines, unrolled);
    }

    /** {@link #bulkLoad}, with the unrolled comparison if {@code unrolled} (see {@link #empty(CsbVariant, int, boolean)}). */
    static LongIndex bulkLoad(CsbVariant variant, int lines, long[] sortedKeys, long[] values, boolean unrolled) {
        return CsbTree.bulkLoad(name(variant, lines), variant, lines, sortedKeys, values, unrolled);
    }

    private static String name(CsbVariant variant, int lines) {
        Objects.requireNonNull(variant, "variant");
        if (lines != 1 && lines != 2 && lines != 4) {
            throw new IllegalArgumentException("a CSB+-tree node is 1, 2 or 4 cache lines, not " + lines);
        }
        return switch (variant) {
            case PLAIN -> "CSB+-tree";
            case SEGMENTED -> "segmented CSB+-tree";
            case FULL -> "full CSB+-tree";
        };
    }
}
