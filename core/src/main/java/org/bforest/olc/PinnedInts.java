package org.bforest.olc;

/**
 * Nodes of {@code stride} ints in chunks that never move ({@link Pinned}). Writers add chunks
 * under this object's monitor; readers index {@link #chunk} without a lock: a node id a reader
 * holds was published (by a version-lock release) after its chunk was stored, and a stale read
 * of the directory shows up as a {@code null} chunk, which an optimistic reader treats as a
 * restart, like any other exception before validation.
 */
final class PinnedInts {
    /** Ints skipped at the start of every chunk: 16-byte header + 48 bytes, as {@link PinnedLongs#PAD}. */
    static final int PAD = 12;

    private final int[][] chunks = new int[Pinned.CHUNKS][];
    private final int stride;
    /** Node ids below this have storage; read without the lock by {@link #ensure}'s fast path. */
    private volatile long capacity;

    PinnedInts(int stride) {
        this.stride = stride;
        chunks[0] = new int[PAD + Pinned.chunkNodes(0) * stride];
        capacity = Pinned.capacityWith(0);
    }

    /** The array that holds node {@code id} (chunk {@code k = Pinned.chunkOf(id)}). */
    int[] chunk(int k) {
        return chunks[k];
    }

    /** Makes sure node {@code id} has storage. */
    void ensure(int id) {
        if (id < capacity) {
            return;
        }
        grow(id);
    }

    private synchronized void grow(int id) {
        if (id >= Pinned.MAX_NODES || id < 0) {
            throw Pinned.full();
        }
        int k = Pinned.chunkOf(id);
        for (int c = 0; c <= k; c++) {
            if (chunks[c] == null) {
                chunks[c] = new int[PAD + Pinned.chunkNodes(c) * stride];
            }
        }
        if (capacity < Pinned.capacityWith(k)) {
            capacity = Pinned.capacityWith(k);
        }
    }

    long bytes() {
        long b = 16 + 16 + 8L * chunks.length + 24;
        for (int[] c : chunks) {
            if (c != null) {
                b += 16 + 4L * c.length;
            }
        }
        return b;
    }
}
