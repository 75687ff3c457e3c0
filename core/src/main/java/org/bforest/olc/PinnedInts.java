package org.bforest.olc;

/**
 * Nodes of {@code stride} ints in chunks that never move ({@link Pinned}). Writers add chunks
 * under this object's monitor; readers index the {@link #directory} without a lock: a node id a
 * reader holds was published (by a version-lock release) after its chunk was stored, and a stale
 * directory shows up as a {@code null} chunk or an index past its end, which an optimistic reader
 * treats as a restart, like any other exception before validation.
 */
final class PinnedInts {
    /** Ints skipped at the start of every chunk: 16-byte header + 48 bytes, as {@link PinnedLongs#PAD}. */
    static final int PAD = 12;

    private final int stride;
    /**
     * Chunk {@code k} at index {@code k}; replaced by a longer copy when it is full (the chunks
     * themselves are never copied). Volatile: a reader reads it once an attempt.
     */
    private volatile int[][] dir = new int[4][];

    PinnedInts(int stride) {
        this.stride = stride;
        dir[0] = new int[PAD + Pinned.chunkNodes(0) * stride];
    }

    /** The chunks, indexed by {@link Pinned#chunkOf}: read once, then indexed without the volatile read. */
    int[][] directory() {
        return dir;
    }

    /** The array that holds node {@code id} (chunk {@code k = Pinned.chunkOf(id)}). */
    int[] chunk(int k) {
        return dir[k];
    }

    /** Makes sure node {@code id} has storage. */
    void ensure(int id) {
        int k = Pinned.chunkOf(id);
        int[][] d = dir;
        if (k < d.length && d[k] != null) {
            return;
        }
        grow(k);
    }

    private synchronized void grow(int k) {
        int[][] d = dir;
        if (k >= d.length) {
            d = java.util.Arrays.copyOf(d, Math.max(k + 1, 2 * d.length));
        }
        for (int c = 0; c <= k; c++) {
            if (d[c] == null) {
                d[c] = new int[PAD + Pinned.chunkNodes(c) * stride];
            }
        }
        dir = d;
    }

    long bytes() {
        int[][] d = dir;
        long b = 16 + 16 + 8L * d.length + 24;
        for (int[] c : d) {
            if (c != null) {
                b += 16 + 4L * c.length;
            }
        }
        return b;
    }
}
