package org.bforest;

import java.util.Objects;
import org.bforest.csb.CsbTrees;

/**
 * Builds a CSB+-tree (Rao and Ross, "Making B+-Trees Cache Conscious in Main Memory") of one
 * variant, empty or bulk-loaded; from {@link Indexes#csbTreeBuilder()}. Each setter checks its
 * setting at once.
 *
 * <pre>{@code
 * LongIndex t = Indexes.csbTreeBuilder()
 *         .variant(CsbVariant.FULL)      // default PLAIN
 *         .nodeLines(1)                  // 1, 2 or 4 cache lines; default 2
 *         .build(sortedKeys, values);
 * }</pre>
 */
public final class CsbTreeBuilder {
    private CsbVariant variant = CsbVariant.PLAIN;
    private int nodeLines = CsbTrees.DEFAULT_LINES;

    CsbTreeBuilder() {
    }

    /**
     * {@link CsbVariant#PLAIN} (the default), {@link CsbVariant#SEGMENTED} or
     * {@link CsbVariant#FULL}: what a split costs.
     *
     * @param variant which of the three CSB+-trees to build
     * @return this builder
     * @throws NullPointerException if {@code variant} is null
     */
    public CsbTreeBuilder variant(CsbVariant variant) {
        this.variant = Objects.requireNonNull(variant, "variant");
        return this;
    }

    /**
     * Cache lines a node takes: 1 (the paper's: 8 entries a leaf), 2 (the default: 16) or 4
     * (32); an inner node holds one key fewer than a leaf (two fewer in the segmented variant).
     *
     * @param lines cache lines (64 bytes each) a node takes: 1, 2 or 4
     * @return this builder
     * @throws IllegalArgumentException for another size; the setting is left as it was
     */
    public CsbTreeBuilder nodeLines(int lines) {
        this.nodeLines = BuilderChecks.oneOf("nodeLines", "cache lines a CSB+-tree node takes", lines, 1, 2, 4);
        return this;
    }

    /**
     * An empty tree.
     *
     * @return a new, empty CSB+-tree of the {@link #variant} and {@link #nodeLines} set
     */
    public LongIndex build() {
        return CsbTrees.empty(variant, nodeLines);
    }

    /**
     * A tree bulk-loaded level by level from {@code sortedKeys}: full leaves, inner nodes with one
     * key slot free. The arrays are copied; the caller may reuse them.
     *
     * @param sortedKeys keys in strictly ascending signed order
     * @param values     the value of each key, or {@code null} for all 0
     * @return a new CSB+-tree holding those entries
     * @throws NullPointerException     if {@code sortedKeys} is null
     * @throws IllegalArgumentException if the keys are not strictly ascending or the arrays differ
     *                                  in length; nothing is built
     */
    public LongIndex build(long[] sortedKeys, long[] values) {
        return CsbTrees.bulkLoad(variant, nodeLines, sortedKeys, values);
    }
}
