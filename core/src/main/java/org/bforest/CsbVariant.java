package org.bforest;

/**
 * The three CSB+-trees of Rao and Ross, "Making B+-Trees Cache Conscious in Main Memory"
 * (SIGMOD 2000), built by {@link Indexes#csbTree(CsbVariant)} or {@link CsbTreeBuilder#variant}.
 * All three keep the children of a node together in one contiguous <em>node group</em> and store
 * one child pointer a node; they differ in what a split costs.
 */
public enum CsbVariant {
    /**
     * Section 3.1: groups of exactly the node's children; a split copies the whole group into one
     * a node larger. Fastest search, costliest split.
     */
    PLAIN,
    /**
     * Section 3.2: a node's children in two segments with a pointer each (one key fewer a node);
     * a split copies only the segment that gains the node.
     */
    SEGMENTED,
    /**
     * Section 3.3: every group allocated at its full size; a split shifts the nodes right of the
     * split one inside the group, and allocates only when the group is full. Fastest inserts,
     * more memory.
     */
    FULL
}
