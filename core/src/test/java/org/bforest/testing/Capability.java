package org.bforest.testing;

/** What a registered structure promises beyond the {@link org.bforest.LongIndex} contract; the kit tests each. */
public enum Capability {
    /**
     * Cursors and view iterators throw {@code ConcurrentModificationException} once the index
     * changes other than through them (single-threaded structures). Without it, cursors are
     * weakly consistent and the staleness tests are skipped.
     */
    FAIL_FAST_CURSORS,
    /** Every operation is safe from any number of threads at once, writes included. */
    THREAD_SAFE,
    /** A {@link org.bforest.NativeLongIndex}: the kit checks that every call after close() throws. */
    NATIVE,
    /**
     * Its hot paths run {@code org.bforest.kernel}'s node search, whose code depends on the CPU's
     * vector width: {@code ./bforest test} reruns the kit on it at 256 bits and on the scalar path
     * ({@code -Dbforest.kit.kernelOnly=true} in core's extra surefire runs).
     */
    NODE_SEARCH,
    /**
     * Deletes give memory back, not only reuse it: once deletes have emptied the index,
     * {@link org.bforest.LongIndex#memoryBytes()} is back to about a one-key index's (the kit's
     * queue and stack drains check it). Without it a structure may keep the capacity it emptied
     * (arrays as allocated, freed nodes on free lists), as long as it reuses it.
     */
    SHRINKS
}
