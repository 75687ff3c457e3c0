package org.bforest.storage;

import java.util.Arrays;

/**
 * Fixed-size nodes of {@code long}s in one array that doubles when full: for the inner levels of
 * a tree, which hold a small fraction of its nodes (at most 1 in 9 with 16-key nodes) and are on
 * every descent's path. One array means one load per node instead of two (no chunk directory
 * between the node id and its keys), and fewer instructions per level let the CPU overlap more of
 * consecutive look-ups. Capacity: up to {@code (2^31 - 16) / stride} nodes, which indexes far
 * more than 2^31 leaf slots. Growing copies only these nodes, never the leaves.
 */
public final class FlatLongNodeArray {
    private static final int MAX_ELEMENTS = Integer.MAX_VALUE - 16;
    /**
     * Longs skipped at the start of every array: the 16-byte array header plus 48 bytes puts node
     * 0 on a 64-byte boundary whenever the array itself starts on one. G1 starts humongous arrays
     * (at least half a heap region) on a region boundary: a full 1 MiB leaf chunk is one on heaps
     * up to 4 GB (2 MB regions; 4 MB from just above 4 GB), and the inner arrays of a large tree are too. Then a 16-long
     * node fills exactly two cache lines instead of straddling three, as the paper's aligned node
     * arrays do. Elsewhere (larger heaps, the small first chunk) alignment is left to chance; the
     * cost is 48 bytes per array.
     */
    static final int PAD = 6;

    private final int stride;
    private long[] array;
    private int capacity;

    public FlatLongNodeArray(int stride, int initialNodes) {
        this.stride = stride;
        this.capacity = Math.max(1, initialNodes);
        this.array = new long[PAD + capacity * stride];
    }

    /** The array holding every node (fetch it again after {@link #ensureCapacity}). */
    public long[] chunk(int node) {
        return array;
    }

    /** Where node {@code node} starts. */
    public int offset(int node) {
        return PAD + node * stride;
    }

    /** {@link #offset} of an array of stride {@code stride}, static so a constant stride folds (see {@link LongNodeArray#offsetOf}). */
    public static int offsetOf(int node, int stride) {
        return PAD + node * stride;
    }

    public int capacity() {
        return capacity;
    }

    /** Makes room for node ids {@code [0, nodes)}, doubling. */
    public void ensureCapacity(long nodes) {
        if (nodes <= capacity) {
            return;
        }
        long grown = Math.max(nodes, 2L * capacity);
        if (grown * stride > MAX_ELEMENTS) {
            grown = MAX_ELEMENTS / stride;
            if (grown < nodes) {
                throw new IllegalStateException("index full: more than " + grown + " inner nodes");
            }
        }
        array = Arrays.copyOf(array, PAD + (int) grown * stride);
        capacity = (int) grown;
    }

    /** Gives back the room beyond node ids {@code [0, nodes)} (after a bulk load, which knows its size). */
    public void trimTo(int nodes) {
        nodes = Math.max(1, nodes);
        if (nodes < capacity) {
            array = Arrays.copyOf(array, PAD + nodes * stride);
            capacity = nodes;
        }
    }

    public long bytes() {
        return 16 + 16 + 8L * array.length;
    }
}
