package org.bforest.storage;

import java.util.Arrays;

/**
 * Growable storage of fixed-size nodes of {@code long}s, addressed by an {@code int} node id.
 *
 * <p>Nodes live in chunks of {@link #CHUNK_NODES} nodes (1 MiB of keys at 16 longs a node), so the
 * structure grows by allocating a chunk, never by copying the whole tree, and can hold up to
 * 2<sup>31</sup> nodes (2<sup>35</sup> 16-key slots), far past the 2<sup>31</sup> elements one Java
 * array can hold. Only the first chunk starts small and doubles (copying at most one chunk), so an
 * empty index costs a few hundred bytes, not a megabyte.
 *
 * <p>Hot loops fetch {@link #chunk(int)} and {@link #offset(int)} once per node and then index the
 * plain {@code long[]}; the directory is tiny and stays in L1.
 */
public final class LongNodeArray {
    /** log2 of the nodes per chunk. */
    public static final int CHUNK_SHIFT = 13;
    /** Nodes per chunk. */
    public static final int CHUNK_NODES = 1 << CHUNK_SHIFT;
    private static final int CHUNK_MASK = CHUNK_NODES - 1;
    /** The most nodes: whole chunks below 2^31, so the int capacity cannot wrap. */
    public static final int MAX_NODES = Integer.MAX_VALUE & ~CHUNK_MASK;

    /**
     * Longs skipped at the start of every array: the 16-byte array header plus 48 bytes puts node
     * 0 on a 64-byte boundary whenever the array itself starts on one. G1 starts humongous arrays
     * (at least half a heap region) on a region boundary: a full 1 MiB leaf chunk is one on heaps
     * up to about 8 GB (2 MB regions), and the inner arrays of a large tree are too. Then a 16-long
     * node fills exactly two cache lines instead of straddling three, as the paper's aligned node
     * arrays do. Elsewhere (larger heaps, the small first chunk) alignment is left to chance; the
     * cost is 48 bytes per array.
     */
    static final int PAD = 6;

    private final int stride;
    private long[][] chunks;
    private int capacity;

    /**
     * @param stride       longs per node
     * @param initialNodes nodes the first chunk holds before it must grow (at least 1)
     */
    public LongNodeArray(int stride, int initialNodes) {
        this.stride = stride;
        this.capacity = Math.max(1, Math.min(initialNodes, CHUNK_NODES));
        this.chunks = new long[][] {new long[PAD + capacity * stride]};
    }

    /** The array that holds node {@code node}. */
    public long[] chunk(int node) {
        return chunks[node >>> CHUNK_SHIFT];
    }

    /** Where node {@code node} starts in its {@link #chunk(int)}. */
    public int offset(int node) {
        return PAD + (node & CHUNK_MASK) * stride;
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
        if (capacity < CHUNK_NODES) {
            int grown = (int) Math.min(CHUNK_NODES, Math.max(nodes, 2L * capacity));
            chunks[0] = Arrays.copyOf(chunks[0], PAD + grown * stride);
            capacity = grown;
        }
        while (capacity < nodes) {
            int index = capacity >>> CHUNK_SHIFT;
            if (index == chunks.length) {
                chunks = Arrays.copyOf(chunks, chunks.length * 2);
            }
            chunks[index] = new long[PAD + CHUNK_NODES * stride];
            capacity += CHUNK_NODES;
        }
    }

    /** Bytes on the heap: every chunk as allocated, the directory, and this object. */
    public long bytes() {
        long b = 16 + 16 + 8L * chunks.length;
        for (long[] c : chunks) {
            if (c != null) {
                b += 16 + 8L * c.length;
            }
        }
        return b;
    }
}
