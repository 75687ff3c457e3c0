package org.bforest;

import org.bforest.bplus.BPlusTrees;

/**
 * Builds the plain B+-tree (sorted, packed nodes searched by binary search: the baseline the
 * BS-tree paper measures against), empty or bulk-loaded; from {@link Indexes#bPlusTreeBuilder()}.
 * Each setter checks its setting at once.
 *
 * <pre>{@code
 * LongIndex sparse = Indexes.bPlusTreeBuilder()
 *         .leafFill(0.75)                // 0.5 to 1; default 1 (full leaves)
 *         .build(sortedKeys, values);
 * }</pre>
 */
public final class BPlusTreeBuilder {
    private double leafFill = 1.0;

    BPlusTreeBuilder() {
    }

    /**
     * The fraction of each leaf's 16 slots a bulk load fills, 0.5 to 1 (default 1, full leaves):
     * 0.75 is the paper's "sparse B+-tree", with 25% of every leaf free for inserts. It shapes
     * the bulk load only; an empty tree fills its leaves by splits.
     *
     * @param fill the fraction of each leaf a bulk load fills, from 0.5 to 1
     * @return this builder
     * @throws IllegalArgumentException for a fill outside [0.5, 1] or NaN; the setting is left as
     *                                  it was
     */
    public BPlusTreeBuilder leafFill(double fill) {
        this.leafFill = BuilderChecks.leafFill(fill);
        return this;
    }

    /**
     * An empty tree.
     *
     * @return a new, empty B+-tree (the leaf fill plays no part: see {@link #leafFill})
     */
    public LongIndex build() {
        return BPlusTrees.empty();
    }

    /**
     * A tree bulk-loaded from {@code sortedKeys} with leaves {@link #leafFill} full. The arrays
     * are copied; the caller may reuse them.
     *
     * @param sortedKeys keys in strictly ascending signed order
     * @param values     the value of each key, or {@code null} for all 0
     * @return a new B+-tree holding those entries
     * @throws NullPointerException     if {@code sortedKeys} is null
     * @throws IllegalArgumentException if the keys are not strictly ascending or the arrays differ
     *                                  in length; nothing is built
     */
    public LongIndex build(long[] sortedKeys, long[] values) {
        return BPlusTrees.bulkLoad(sortedKeys, values, leafFill);
    }
}
