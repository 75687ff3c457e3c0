package org.bforest.storage;

import java.util.Arrays;

/**
 * Growable storage of fixed-size nodes of {@code int}s, addressed by an {@code int} node id.
 *
 * <p>Nodes live in chunks of {@link #CHUNK_NODES} nodes (see {@link LongNodeArray}), so the
 * structure grows by allocating a chunk, never by copying the whole tree, and can hold up to
 * 2<sup>31</sup> nodes (2<sup>35</sup> 16-key slots), far past the 2<sup>31</sup> elements one Java
 * array can hold. Only the first chunk starts small and doubles (copying at most one chunk), so an
 * empty index costs a few hundred bytes, not a megabyte.
 *
 * <p>Hot loops fetch {@link #chunk(int)} and {@link #offset(int)} once per node and then index the
 * plain {@code int[]}; the directory is tiny and stays in L1.
 */
public final class IntNodeArray {
    /** log2 of the nodes per chunk. */
    public static final int CHUNK_SHIFT = 13;
    /** Nodes per chunk. */
    public static final int CHUNK_NODES = 1 << CHUNK_SHIFT;
    private static final int CHUNK_MASK = CHUNK_NODES - 1;
    /** The most nodes: whole chunks below 2^31, so the int capacity cannot wrap. */
    public static final int MAX_NODES = Integer.MAX_VALUE & ~CHUNK_MASK;

    private final int stride;
    private int[][] chunks;
    private int capacity;

    /**
     * @param stride       ints per node
     * @param initialNodes nodes the first chunk holds before it must grow (at least 1)
     */
    public IntNodeArray(int stride, int initialNodes) {
        this.stride = stride;
        this.capacity = Math.max(1, Math.min(initialNodes, CHUNK_NODES));
        this.chunks = new int[][] {new int[capacity * stride]};
    }

    /** The array that holds node {@code node}. */
    public int[] chunk(int node) {
        return chunks[node >>> CHUNK_SHIFT];
    }

    /** Where node {@code node} starts in its {@link #chunk(int)}. */
    public int offset(int node) {
        return (node & CHUNK_MASK) * stride;
    }

    /** Nodes that fit without growing. */
    public int capacity() {
        return capacity;
    }

    /** Makes room for node ids {@code [0, nodes)}. */
    public void ensureCapacity(long nodes) {
        if (nodes <= capacity) {
            return;
        }
        if (nodes > MAX_NODES) {
            throw new IllegalStateException("index full: more than " + MAX_NODES + " nodes");
        }
        int inLast = capacity & CHUNK_MASK;
        if (inLast != 0) {
            // The last chunk is short (the small first chunk, or one trimmed by trimTo).
            int index = capacity >>> CHUNK_SHIFT;
            long wanted = Math.min(CHUNK_NODES, nodes - ((long) index << CHUNK_SHIFT));
            int grown = (int) Math.min(CHUNK_NODES, Math.max(wanted, 2L * inLast));
            chunks[index] = Arrays.copyOf(chunks[index], grown * stride);
            capacity = (index << CHUNK_SHIFT) + grown;
        }
        while (capacity < nodes) {
            int index = capacity >>> CHUNK_SHIFT;
            if (index == chunks.length) {
                chunks = Arrays.copyOf(chunks, chunks.length * 2);
            }
            chunks[index] = new int[CHUNK_NODES * stride];
            capacity += CHUNK_NODES;
        }
    }

    /** Gives back the room beyond node ids {@code [0, nodes)}; see {@link LongNodeArray#trimTo}. */
    public void trimTo(int nodes) {
        nodes = Math.max(1, nodes);
        if (nodes >= capacity) {
            return;
        }
        int last = (nodes - 1) >>> CHUNK_SHIFT;
        for (int i = last + 1; i < chunks.length; i++) {
            chunks[i] = null;
        }
        int inLast = nodes - (last << CHUNK_SHIFT);
        if (inLast * stride < chunks[last].length) {
            chunks[last] = Arrays.copyOf(chunks[last], inLast * stride);
        }
        capacity = nodes;
    }

    /** Bytes on the heap: every chunk as allocated, the directory, and this object. */
    public long bytes() {
        long b = 16 + 16 + 8L * chunks.length;
        for (int[] c : chunks) {
            if (c != null) {
                b += 16 + 4L * c.length;
            }
        }
        return b;
    }
}
