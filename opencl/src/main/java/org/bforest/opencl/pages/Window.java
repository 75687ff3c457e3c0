package org.bforest.opencl.pages;

import org.bforest.spi.LeafChainIndex;

/**
 * One thread's copy of the 64-slot window of a leaf page it read last (the shared layer's leaves
 * are such windows): reads of an unchanged tree share nothing, and a write to the tree (its stamp)
 * makes every copy stale. Apart from {@link PagedTree} as the cache's state and its refill, a
 * device read, and its search; the tree decides when a copy is stale.
 */
final class Window {
    static final int SLOTS = LeafChainIndex.MAX_SLOTS;
    private static final ThreadLocal<Window> MINE = ThreadLocal.withInitial(Window::new);

    private long tree = -1;
    private int leaf = -1;
    private long stamp;
    /** Entries held: the window's used slots. */
    int n;
    final long[] keys = new long[SLOTS];
    final long[] values = new long[SLOTS];

    /** This thread's window. */
    static Window mine() {
        return MINE.get();
    }

    /** Whether it holds window {@code leaf} of tree {@code tree} as of {@code stamp}. */
    boolean holds(long tree, int leaf, long stamp) {
        return this.tree == tree && this.leaf == leaf && this.stamp == stamp;
    }

    /** The first of the held keys that is greater than {@code key} (or equal, unless {@code orEqual}): {@code n} if none. */
    int succ(long key, boolean orEqual) {
        int lo = 0;
        int hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            long k = keys[mid];
            if (k < key || orEqual && k == key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Reads the {@code n} entries at long index {@code at} of the leaf pages: window {@code leaf} of {@code tree} as of {@code stamp}. */
    void read(PageStore store, long at, int n, long tree, int leaf, long stamp) {
        synchronized (store.lock) {
            store.readLongs(store.leafKeys, at, keys, 0, n);
            store.readLongs(store.leafValues, at, values, 0, n);
        }
        this.tree = tree;
        this.leaf = leaf;
        this.stamp = stamp;
        this.n = n;
    }
}
