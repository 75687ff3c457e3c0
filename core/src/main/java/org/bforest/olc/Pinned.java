package org.bforest.olc;

/**
 * Where node {@code id} lives in storage whose chunks never move: chunk {@code k} holds
 * {@code 16 << k} nodes, ids {@code [16 * (2^k - 1), 16 * (2^(k+1) - 1))}. The storage grows by
 * allocating the next, twice as large, chunk and never copies one, so a reader that is still in
 * an old chunk reads the node where it is, not a stale copy (a copied chunk would leave an
 * optimistic reader validating versions in an array nobody writes any more). An empty tree costs
 * one chunk of 16 nodes; the chunk directory is a fixed array written once per chunk.
 *
 * <p>A few ALU operations per node access instead of the flat arrays' one shift: the price of
 * never moving a node.
 */
final class Pinned {
    /** log2 of the first chunk's nodes. */
    static final int BASE_SHIFT = 4;
    /**
     * Chunks: the last holds {@code 16 << 22} = 67M nodes, so a chunk of 17-long nodes stays
     * under 2^31 elements; in all 16 * (2^23 - 1) = 134M nodes (1.6 billion keys in leaves).
     */
    static final int CHUNKS = 23;
    /** The most nodes. */
    static final int MAX_NODES = ((1 << CHUNKS) - 1) << BASE_SHIFT;

    private Pinned() {
    }

    /** The chunk that holds node {@code id}. */
    static int chunkOf(int id) {
        return 31 - Integer.numberOfLeadingZeros((id >>> BASE_SHIFT) + 1);
    }

    /** Node {@code id}'s index within its chunk {@code k}. */
    static int indexIn(int id, int k) {
        return id - (((1 << k) - 1) << BASE_SHIFT);
    }

    /** Nodes in chunk {@code k}. */
    static int chunkNodes(int k) {
        return 1 << (k + BASE_SHIFT);
    }

    /** Node ids below this are held once chunks {@code [0, k]} exist. */
    static long capacityWith(int k) {
        return ((2L << k) - 1) << BASE_SHIFT;
    }

    static IllegalStateException full() {
        return new IllegalStateException("index full: more than " + MAX_NODES
                + " nodes of one kind; split the data over several indexes");
    }
}
