package org.bforest.kernel;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Branch-free counting search (the paper's Snippet 1): a fixed trip count and a compare that
 * becomes a {@code setcc}, so there is nothing to mispredict. The reference the SIMD path is
 * tested against, and the fallback when the Vector API is missing.
 */
public final class ScalarSearch {
    private ScalarSearch() {
    }

    public static int succGT(long[] keys, int off, long key) {
        int c = 0;
        for (int i = 0; i < NodeSearch.NODE_KEYS; i++) {
            c += keys[off + i] <= key ? 1 : 0;
        }
        return c;
    }

    public static int succGE(long[] keys, int off, long key) {
        int c = 0;
        for (int i = 0; i < NodeSearch.NODE_KEYS; i++) {
            c += keys[off + i] < key ? 1 : 0;
        }
        return c;
    }

    /** Little-endian longs, 8-byte aligned: how a node is read from a segment (a mapped file's). */
        public static final ValueLayout.OfLong LE_LONG = ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN);

    public static int succGT(MemorySegment node, long off, long key) {
        int c = 0;
        for (int i = 0; i < NodeSearch.NODE_KEYS; i++) {
            c += node.get(LE_LONG, off + 8L * i) <= key ? 1 : 0;
        }
        return c;
    }

    public static int succGE(MemorySegment node, long off, long key) {
        int c = 0;
        for (int i = 0; i < NodeSearch.NODE_KEYS; i++) {
            c += node.get(LE_LONG, off + 8L * i) < key ? 1 : 0;
        }
        return c;
    }

    /** The number of keys in {@code keys[off .. off+width)} that are {@code < key}. */
    public static int rank(long[] keys, int off, int width, long key) {
        checkWidth(width);
        int c = 0;
        for (int i = 0; i < width; i++) {
            c += keys[off + i] < key ? 1 : 0;
        }
        return c;
    }

    /** The number of keys in {@code keys[off .. off+width-skip)} that are {@code < key}. */
    public static int rankHead(long[] keys, int off, int width, int skip, long key) {
        checkHead(width, skip);
        int c = 0;
        for (int i = 0, n = width - skip; i < n; i++) {
            c += keys[off + i] < key ? 1 : 0;
        }
        return c;
    }

    static void checkHead(int width, int skip) {
        if (width != 8 && width != 16 && width != 32 || skip < 0 || skip > 2) {
            throw new IllegalArgumentException("a CSB+-tree node is 8, 16 or 32 longs with 0 to 2 pointer lanes, not "
                    + width + " and " + skip);
        }
    }

    static void checkWidth(int width) {
        if (width != 16 && width != 32 && width != 64) {
            throw new IllegalArgumentException("a B-minus node holds 16, 32 or 64 keys, not " + width);
        }
    }
}
