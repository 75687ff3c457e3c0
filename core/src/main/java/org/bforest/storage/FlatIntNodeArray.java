package org.bforest.storage;

import java.util.Arrays;

/**
 * Fixed-size nodes of {@code int}s in one array that doubles when full: for the inner levels of
 * a tree, which hold a small fraction of its nodes (at most 1 in 9 with 16-key nodes) and are on
 * every descent's path. One array means one load per node instead of two (no chunk directory
 * between the node id and its keys), and fewer instructions per level let the CPU overlap more of
 * consecutive look-ups. Capacity: up to {@code (2^31 - 16) / stride} nodes, which indexes far
 * more than 2^31 leaf slots. Growing copies only these nodes, never the leaves.
 */
public final class FlatIntNodeArray {
    private static final int MAX_ELEMENTS = Integer.MAX_VALUE - 16;
    private final int stride;
    private int[] array;
    private int capacity;

    public FlatIntNodeArray(int stride, int initialNodes) {
        this.stride = stride;
        this.capacity = Math.max(1, initialNodes);
        this.array = new int[capacity * stride];
    }

    /** The array holding every node (fetch it again after {@link #ensureCapacity}). */
    public int[] chunk(int node) {
        return array;
    }

    /** Where node {@code node} starts. */
    public int offset(int node) {
        return node * stride;
    }

    /** {@link #offset} of an array of stride {@code stride}, static so a constant stride folds (see {@link LongNodeArray#offsetOf}). */
    public static int offsetOf(int node, int stride) {
        return node * stride;
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
        array = Arrays.copyOf(array, (int) grown * stride);
        capacity = (int) grown;
    }

    /** Gives back the room beyond node ids {@code [0, nodes)} (after a bulk load, which knows its size). */
    public void trimTo(int nodes) {
        nodes = Math.max(1, nodes);
        if (nodes < capacity) {
            array = Arrays.copyOf(array, nodes * stride);
            capacity = nodes;
        }
    }

    public long bytes() {
        return 16 + 16 + 4L * array.length;
    }
}
