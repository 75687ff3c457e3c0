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
     * up to 4 GB (G1 picks 2 MB regions there on JDK 25, 4 MB from just above 4 GB), and the inner
     * arrays of a large tree are too. Then a 16-long
     * node fills exactly two cache lines instead of straddling three, as the paper's aligned node
     * arrays do. Elsewhere (larger heaps, the small first chunk) alignment is left to chance; the
     * cost is 48 bytes per array.
     */
    static final int PAD = 6;

    /**
     * The most bytes {@link #smallChunks} puts in one chunk: below half of G1's smallest region
     * (1 MiB), so no chunk is ever a humongous object. A humongous object takes whole regions, and
     * a chunk a little over a region's half or whole would leave the rest of its last region
     * unused: real memory that the heap's "used" figure does not show.
     */
    static final int SMALL_CHUNK_BYTES = 512 * 1024 - 256;

    private final int stride;
    private final int shift;
    private final int mask;
    private long[][] chunks;
    private int capacity;

    /**
     * Chunks of {@link #CHUNK_NODES} nodes.
     *
     * @param stride       longs per node
     * @param initialNodes nodes the first chunk holds before it must grow (at least 1)
     */
    public LongNodeArray(int stride, int initialNodes) {
        this(stride, initialNodes, CHUNK_SHIFT);
    }

    private LongNodeArray(int stride, int initialNodes, int shift) {
        this.stride = stride;
        this.shift = shift;
        this.mask = (1 << shift) - 1;
        this.capacity = Math.max(1, Math.min(initialNodes, 1 << shift));
        this.chunks = new long[][] {new long[PAD + capacity * stride]};
    }

    /**
     * Storage for large nodes (records of several arrays' worth, such as a whole compressed leaf)
     * in chunks of the most nodes, a power of two, that keep a chunk within
     * {@link #SMALL_CHUNK_BYTES}: never a humongous object, so no region is left part-empty.
     */
    public static LongNodeArray smallChunks(int stride, int initialNodes) {
        int s = CHUNK_SHIFT;
        while (s > 0 && 8L * (PAD + ((long) stride << s)) + 16 > SMALL_CHUNK_BYTES) {
            s--;
        }
        return new LongNodeArray(stride, initialNodes, s);
    }

    /** Nodes per chunk. */
    public int chunkNodes() {
        return 1 << shift;
    }

    /** The array that holds node {@code node}. */
    public long[] chunk(int node) {
        return chunks[node >>> shift];
    }

    /** Where node {@code node} starts in its {@link #chunk(int)}. */
    public int offset(int node) {
        return PAD + (node & mask) * stride;
    }

    /**
     * {@link #offset} of an array built by the public constructor (chunks of
     * {@link #CHUNK_NODES} nodes) whose stride is {@code stride}: a static method, so that a hot
     * path passing a constant stride gets a shift and a mask from the JIT instead of loading
     * this object's fields and multiplying (measured: 17% off a BS-tree lookup in cache).
     */
    public static int offsetOf(int node, int stride) {
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
        if (nodes > (Integer.MAX_VALUE & ~mask)) {
            throw new IllegalStateException("index full: more than " + (Integer.MAX_VALUE & ~mask) + " nodes");
        }
        int chunkNodes = 1 << shift;
        int inLast = capacity & mask;
        if (inLast != 0) {
            // The last chunk is short (the small first chunk, or one trimmed by trimTo): it grows
            // by doubling up to a whole chunk, copying only itself.
            int index = capacity >>> shift;
            long wanted = Math.min(chunkNodes, nodes - ((long) index << shift));
            int grown = (int) Math.min(chunkNodes, Math.max(wanted, 2L * inLast));
            chunks[index] = Arrays.copyOf(chunks[index], PAD + grown * stride);
            capacity = (index << shift) + grown;
        }
        while (capacity < nodes) {
            int index = capacity >>> shift;
            if (index == chunks.length) {
                chunks = Arrays.copyOf(chunks, chunks.length * 2);
            }
            chunks[index] = new long[PAD + chunkNodes * stride];
            capacity += chunkNodes;
        }
    }

    /**
     * Gives back the room beyond node ids {@code [0, nodes)}: chunks past the last are dropped and
     * the last is cut to the nodes it holds (a bulk load knows its final size; without this, up to
     * a whole chunk would stay allocated and unused). Node ids below {@code nodes} keep their
     * data; a later {@link #ensureCapacity} grows the short chunk again.
     */
    public void trimTo(int nodes) {
        nodes = Math.max(1, nodes);
        if (nodes >= capacity) {
            return;
        }
        int last = (nodes - 1) >>> shift;
        for (int i = last + 1; i < chunks.length; i++) {
            chunks[i] = null;
        }
        int inLast = nodes - (last << shift);
        if (PAD + inLast * stride < chunks[last].length) {
            chunks[last] = Arrays.copyOf(chunks[last], PAD + inLast * stride);
        }
        capacity = nodes;
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
