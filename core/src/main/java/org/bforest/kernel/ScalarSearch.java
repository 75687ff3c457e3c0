package org.bforest.kernel;

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
}
