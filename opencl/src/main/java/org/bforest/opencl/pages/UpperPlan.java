package org.bforest.opencl.pages;

import java.util.List;

/**
 * What a batch's leaf splits do to the levels above the leaves, planned by the tree's upper part
 * ({@link PagedTree#planUpper}) before the device changes anything, and carried out by it
 * ({@link PagedTree#applyUpper}) once the leaves have split. Apart from {@link PagedTree} as the
 * contract between the shared leaves and each tree's own upper levels.
 */
public interface UpperPlan {
    /** The levels above the leaves that the device will merge into (none for a CPU upper part). */
    default List<Level> levels() {
        return List.of();
    }

    /** The batch will not run (the device refused its memory): gives back the page ids the plan took. */
    default void abandon() {
    }
}
