package org.bforest.olc;

/**
 * Where node {@code id} lives in storage whose chunks never move. A node id is its chunk and its
 * index in that chunk, {@code chunk << INDEX_BITS | index}, so that a reader finds a node with a
 * shift and a mask (it does so once a level, on the descent's critical path). Chunks grow
 * geometrically from 16 nodes to {@code 1 << INDEX_BITS} (16,384) nodes, then stay at that size:
 * an empty tree costs one chunk of 16 nodes, and a large one leaves at most one partly used chunk
 * of 16,384 nodes (2 MB of leaf keys) instead of up to half of its storage.
 *
 * <p>The storage grows by allocating the next chunk and never copies one, so a reader that is
 * still in an old chunk reads the node where it is, not a stale copy (a copied chunk would leave
 * an optimistic reader validating versions in an array nobody writes any more). Only the
 * directory of chunks is copied when it grows, and a reader that still holds the old directory
 * finds every chunk it had.
 *
 * <p>Nodes are allocated in order: the {@code n}-th node has id {@link #idOf idOf(n)}.
 */
final class Pinned {
    /** log2 of the first chunk's nodes. */
    static final int BASE_SHIFT = 4;
    /** Bits of a node's index in its chunk: log2 of the largest chunk's nodes. */
    static final int INDEX_BITS = 14;
    static final int INDEX_MASK = (1 << INDEX_BITS) - 1;
    /** Chunks {@code [0, GEOMETRIC)} double in size; the rest hold {@code 1 << INDEX_BITS} nodes. */
    static final int GEOMETRIC = INDEX_BITS - BASE_SHIFT + 1;
    /** Nodes held by the geometric chunks. */
    static final int GEOMETRIC_NODES = ((1 << GEOMETRIC) - 1) << BASE_SHIFT;
    /** Chunks whose ids stay non-negative ints. */
    static final int MAX_CHUNKS = 1 << (31 - INDEX_BITS);
    /** The most nodes of one kind (2.1 billion: memory runs out long before). */
    static final int MAX_NODES = GEOMETRIC_NODES + ((MAX_CHUNKS - GEOMETRIC) << INDEX_BITS);

    private Pinned() {
    }

    /** The chunk that holds node {@code id}. */
    static int chunkOf(int id) {
        return id >>> INDEX_BITS;
    }

    /** Node {@code id}'s index within its chunk. */
    static int indexIn(int id) {
        return id & INDEX_MASK;
    }

    /** Nodes in chunk {@code k}. */
    static int chunkNodes(int k) {
        return 1 << (Math.min(k, GEOMETRIC - 1) + BASE_SHIFT);
    }

    /** The id of the {@code n}-th node allocated ({@code 0 <= n < MAX_NODES}). */
    static int idOf(int n) {
        if (n < GEOMETRIC_NODES) {
            int k = 31 - Integer.numberOfLeadingZeros((n >>> BASE_SHIFT) + 1);
            return k << INDEX_BITS | n - (((1 << k) - 1) << BASE_SHIFT);
        }
        int m = n - GEOMETRIC_NODES;
        return GEOMETRIC + (m >>> INDEX_BITS) << INDEX_BITS | m & INDEX_MASK;
    }

    /** The inverse of {@link #idOf}: the allocation order of node {@code id}. */
    static int denseOf(int id) {
        int k = id >>> INDEX_BITS;
        int i = id & INDEX_MASK;
        return k < GEOMETRIC ? (((1 << k) - 1) << BASE_SHIFT) + i : GEOMETRIC_NODES + ((k - GEOMETRIC) << INDEX_BITS) + i;
    }

    /** The id of the next node to allocate, {@link #idOf} of the counter's old value; throws when full. */
    static int allocate(java.util.concurrent.atomic.AtomicInteger counter) {
        int n = counter.getAndIncrement();
        if (n < 0 || n >= MAX_NODES) {
            throw full();
        }
        return idOf(n);
    }

    static IllegalStateException full() {
        return new IllegalStateException("index full: more than " + MAX_NODES
                + " nodes of one kind; split the data over several indexes");
    }
}
