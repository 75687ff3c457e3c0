package org.bforest.opencl.pages;

/**
 * What a delete batch's emptied leaf pages do to the levels above the leaves: planned by the
 * tree's upper part ({@link PagedTree#planRemovals}) before the device changes anything (the GPU
 * B+-tree reads the inner pages it will change, and works out every merge, borrow and root
 * collapse on host copies of them), and carried out ({@link #apply}) once the leaves are compacted
 * and the emptied pages are out of the chain and free. Apart from {@link PagedTree} as the
 * contract between the shared leaves and each tree's own upper levels, as {@link UpperPlan} is
 * for splits.
 */
public interface UpperRemoval {
    /** Takes the emptied leaves out of the levels above, as planned. */
    void apply();

    /**
     * The host's pinned staging memory {@link #apply} writes through, reserved with the batch's
     * own before it changes anything (none by default: levels kept on the host write nothing).
     */
    default long stagedBytes() {
        return 0;
    }
}
