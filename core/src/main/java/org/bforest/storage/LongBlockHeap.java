package org.bforest.storage;

import java.util.Arrays;

/**
 * Blocks of 1 to {@link #MAX_LINES} cache lines of {@code long}s (8 longs a line), addressed by an
 * {@code int} reference (the index of the block's first line): the values of the compressed
 * BS-tree's leaves, stored without gaps, so that a leaf of 48 keys takes 6 lines of values and not
 * the 8 its 64 key lanes could hold.
 *
 * <p>Lines live in chunks of {@link #CHUNK_LINES} lines (512 KiB); a block never straddles two
 * (the few lines at a chunk's end that no block fits are left unused). Only the first chunk starts
 * small and doubles. Freed blocks go on a free list per size and are reused first. A reference
 * addresses up to 2<sup>31</sup> lines (128 GiB).
 *
 * <p>Failure atomicity: {@link #reserve} makes sure the next allocations and frees cannot fail,
 * so a caller can take its memory before it changes anything.
 */
public final class LongBlockHeap {
    /** Longs per line. */
    public static final int LINE = 8;
    /** The largest block, in lines. */
    public static final int MAX_LINES = 8;
    /**
     * log2 of the lines per chunk: 512 KiB chunks stay below G1's humongous-object size (half a
     * region, at least 1 MiB), where an array a little over a region's size would hold two.
     */
    public static final int CHUNK_SHIFT = 13;
    /** Lines per chunk. */
    public static final int CHUNK_LINES = 1 << CHUNK_SHIFT;
    private static final int CHUNK_MASK = CHUNK_LINES - 1;
    private static final long MAX_REF = Integer.MAX_VALUE & ~CHUNK_MASK;
    /** See {@link LongNodeArray}: puts line 0 of an array on a 64-byte boundary when the array starts on one. */
    private static final int PAD = 6;

    private long[][] chunks;
    /** Lines the chunks hold. */
    private int capacity;
    /** The next line never handed out. */
    private int top;
    /** Lines skipped at chunk ends, where no block fitted. */
    private long skipped;
    private final int[][] free = new int[MAX_LINES + 1][];
    private final int[] freeTop = new int[MAX_LINES + 1];

    public LongBlockHeap() {
        capacity = MAX_LINES;
        chunks = new long[][] {new long[PAD + capacity * LINE]};
        for (int c = 1; c <= MAX_LINES; c++) {
            free[c] = new int[4];
        }
    }

    /** The array that holds block {@code ref}. */
    public long[] chunk(int ref) {
        return chunks[ref >>> CHUNK_SHIFT];
    }

    /** Where block {@code ref} starts in its {@link #chunk(int)}. */
    public int offset(int ref) {
        return PAD + (ref & CHUNK_MASK) * LINE;
    }

    /** The first line a fresh block of {@code lines} would take from the top. */
    private int placeAtTop(int lines) {
        int inChunk = top & CHUNK_MASK;
        return inChunk + lines <= CHUNK_LINES ? top : (top | CHUNK_MASK) + 1;
    }

    /**
     * Makes sure that blocks totalling {@code lines} lines (each at most {@link #MAX_LINES}) can
     * then be allocated, and {@code frees} blocks of any size freed, without allocating memory.
     *
     * @throws IllegalStateException if the references would run out
     */
    public void reserve(int lines, int frees) {
        // Worst case: each block skips the end of a chunk (at most MAX_LINES - 1 lines lost).
        long need = (long) top + lines + (long) MAX_LINES * Math.max(1, (lines + MAX_LINES - 1) / MAX_LINES);
        if (lines > 0 && need > capacity) {
            grow(need);
        }
        for (int c = 1; c <= MAX_LINES; c++) {
            if (freeTop[c] + frees > free[c].length) {
                free[c] = Arrays.copyOf(free[c], Math.max(2 * free[c].length, freeTop[c] + frees));
            }
        }
    }

    private void grow(long lines) {
        if (lines > MAX_REF) {
            throw new IllegalStateException("index full: more than " + MAX_REF + " value lines");
        }
        int inLast = capacity & CHUNK_MASK;
        if (inLast != 0) {
            // The last chunk is short (the small first chunk, or one cut by trim()): it grows by
            // doubling up to a whole chunk, copying only itself.
            int index = capacity >>> CHUNK_SHIFT;
            long wanted = Math.min(CHUNK_LINES, lines - ((long) index << CHUNK_SHIFT));
            int grown = (int) Math.min(CHUNK_LINES, Math.max(wanted, 2L * inLast));
            chunks[index] = Arrays.copyOf(chunks[index], PAD + grown * LINE);
            capacity = (index << CHUNK_SHIFT) + grown;
        }
        while (capacity < lines) {
            int index = capacity >>> CHUNK_SHIFT;
            if (index == chunks.length) {
                chunks = Arrays.copyOf(chunks, chunks.length * 2);
            }
            chunks[index] = new long[PAD + CHUNK_LINES * LINE];
            capacity += CHUNK_LINES;
        }
    }

    /**
     * Gives back the room above {@link #top()} (after a bulk load, which knows its size): chunks
     * past it are dropped and the last is cut to the lines handed out; blocks keep their data.
     */
    public void trim() {
        int lines = Math.max(MAX_LINES, top);
        if (lines >= capacity) {
            return;
        }
        int last = (lines - 1) >>> CHUNK_SHIFT;
        for (int i = last + 1; i < chunks.length; i++) {
            chunks[i] = null;
        }
        int inLast = lines - (last << CHUNK_SHIFT);
        if (PAD + inLast * LINE < chunks[last].length) {
            chunks[last] = Arrays.copyOf(chunks[last], PAD + inLast * LINE);
        }
        capacity = lines;
    }

    /** A block of {@code lines} lines (1 to {@link #MAX_LINES}); contents undefined. */
    public int alloc(int lines) {
        if (freeTop[lines] > 0) {
            return free[lines][--freeTop[lines]];
        }
        int at = placeAtTop(lines);
        if ((long) at + lines > capacity) {
            reserve(lines, 0);
            at = placeAtTop(lines);
        }
        skipped += at - top;
        top = at + lines;
        return at;
    }

    /** Returns a block of {@code lines} lines; {@link #reserve} made room on the free list. */
    public void free(int ref, int lines) {
        if (freeTop[lines] == free[lines].length) {
            free[lines] = Arrays.copyOf(free[lines], 2 * free[lines].length);
        }
        free[lines][freeTop[lines]++] = ref;
    }

    /** Lines handed out and not freed. */
    public long linesInUse() {
        long f = 0;
        for (int c = 1; c <= MAX_LINES; c++) {
            f += (long) c * freeTop[c];
        }
        return (long) top - f - skipped;
    }

    /** The free blocks of {@code lines} lines, for checkers. */
    public int[] freeBlocks(int lines) {
        return Arrays.copyOf(free[lines], freeTop[lines]);
    }

    /** The next line never handed out, for checkers. */
    public int top() {
        return top;
    }

    /** Bytes on the heap: every chunk as allocated, the directory, the free lists, this object. */
    public long bytes() {
        long b = 16 + 16 + 8L * chunks.length + 32 + 16 + 4L * freeTop.length + 16 + 8L * free.length;
        for (long[] c : chunks) {
            if (c != null) {
                b += 16 + 8L * c.length;
            }
        }
        for (int c = 1; c <= MAX_LINES; c++) {
            b += 16 + 4L * free[c].length;
        }
        return b;
    }
}
