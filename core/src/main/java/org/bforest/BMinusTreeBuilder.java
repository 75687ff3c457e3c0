package org.bforest;

import org.bforest.bminus.BMinusTrees;

/**
 * Builds a B&minus; tree (the article "Search Trees: B&minus; Tree"), empty or bulk-loaded; from
 * {@link Indexes#bMinusTreeBuilder()}. Each setter checks its setting at once and throws
 * {@link IllegalArgumentException} saying what is allowed.
 *
 * <pre>{@code
 * LongIndex t = Indexes.bMinusTreeBuilder()
 *         .nodeKeys(64)                 // 16, 32 or 64; default 32, the article's
 *         .build(sortedKeys, values);
 * }</pre>
 */
public final class BMinusTreeBuilder {
    private int nodeKeys = BMinusTrees.DEFAULT_NODE_KEYS;

    BMinusTreeBuilder() {
    }

    /**
     * Keys a node holds: 16, 32 (the default, the article's) or 64. Larger nodes make the tree
     * shallower and each node's SIMD rank and insert shift longer.
     *
     * @param keys keys a node holds: 16, 32 or 64
     * @return this builder
     * @throws IllegalArgumentException for another size; the setting is left as it was
     */
    public BMinusTreeBuilder nodeKeys(int keys) {
        this.nodeKeys = BuilderChecks.oneOf("nodeKeys", "keys a B-minus tree node holds", keys, 16, 32, 64);
        return this;
    }

    /**
     * An empty tree.
     *
     * @return a new, empty B&minus; tree with nodes of {@link #nodeKeys} keys
     */
    public LongIndex build() {
        return BMinusTrees.empty(nodeKeys);
    }

    /**
     * A tree bulk-loaded from {@code sortedKeys} with full leaves (B-1 keys each; the first
     * insert into one splits it). The arrays are copied; the caller may reuse them.
     *
     * @param sortedKeys keys in strictly ascending signed order
     * @param values     the value of each key, or {@code null} for all 0
     * @return a new B&minus; tree holding those entries
     * @throws NullPointerException     if {@code sortedKeys} is null
     * @throws IllegalArgumentException if the keys are not strictly ascending or the arrays differ
     *                                  in length; nothing is built
     */
    public LongIndex build(long[] sortedKeys, long[] values) {
        return BMinusTrees.bulkLoad(sortedKeys, values, nodeKeys);
    }
}
