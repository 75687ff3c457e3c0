package org.bforest.olc;

/**
 * Nodes of {@code stride} longs in chunks that never move ({@link Pinned}). Writers add chunks
 * under this object's monitor; readers index the {@link #directory} without a lock: a node id a
 * reader holds was published (by a version-lock release) after its chunk was stored, and a stale
 * directory shows up as a {@code null} chunk or an index past its end, which an optimistic reader
 * treats as a restart, like any other exception before validation.
 */
final class PinnedLongs {
    /**
     * Longs skipped at the start of every chunk: the 16-byte array header plus 48 bytes puts node 0
     * (and, at strides of 2, 8 or 16 longs, every node) on a 64-byte line whenever the array starts
     * on one, as G1 starts the large ones (humongous objects begin at a region). A 16-long node then
     * fills two cache lines instead of straddling three.
     */
    static final int PAD = 6;

    private final int stride;
    /**
     * Chunk {@code k} at index {@code k}; replaced by a longer copy when it is full (the chunks
     * themselves are never copied). Volatile: a reader reads it once an attempt.
     */
    private volatile long[][] dir = new long[4][];

    PinnedLongs(int stride) {
        this.stride = stride;
        dir[0] = new long[PAD + Pinned.chunkNodes(0) * stride];
    }

    /** The chunks, indexed by {@link Pinned#chunkOf}: read once, then indexed without the volatile read. */
    long[][] directory() {
        return dir;
    }

    /** The array that holds node {@code id} (chunk {@code k = Pinned.chunkOf(id)}). */
    long[] chunk(int k) {
        return dir[k];
    }

    /** Makes sure node {@code id} has storage. */
    void ensure(int id) {
        int k = Pinned.chunkOf(id);
        long[][] d = dir;
        if (k < d.length && d[k] != null) {
            return;
        }
        grow(k);
    }

    private synchronized void grow(int k) {
        long[][] d = dir;
        if (k >= d.length) {
            d = java.util.Arrays.copyOf(d, Math.max(k + 1, 2 * d.length));
        }
        for (int c = 0; c <= k; c++) {
            if (d[c] == null) {
                d[c] = new long[PAD + Pinned.chunkNodes(c) * stride];
            }
        }
        dir = d;
    }

    long bytes() {
        long[][] d = dir;
        long b = 16 + 16 + 8L * d.length + 24;
        for (long[] c : d) {
            if (c != null) {
                b += 16 + 8L * c.length;
            }
        }
        return b;
    }
}
