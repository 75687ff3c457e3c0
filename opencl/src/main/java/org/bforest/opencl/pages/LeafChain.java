package org.bforest.opencl.pages;

import static org.bforest.spi.LeafChainIndex.NONE;

import java.util.Arrays;

/**
 * The host's control state of the leaf pages, by page id: each page's occupancy and the chain in
 * key order (next and previous page, the first and the last), and how many pages are in it. The
 * device holds the keys; the host plans every batch from this (which pages overflow, which empty),
 * and the range counts and visits walk it. Apart from {@link PagedTree} as the one place the chain
 * is relinked: by an insert's splits ({@link #link}) and by a delete's emptied pages
 * ({@link #unlink}).
 *
 * <p>Not thread-safe: the tree changes it under its device lock.
 */
final class LeafChain {
    int[] count = new int[1];
    int[] next = {NONE};
    int[] prev = {NONE};
    /** The first and the last page in key order. */
    int first;
    int last;
    /** Pages in the chain. */
    int pages;

    /** Pages {@code 0 .. n - 1} in key order, with these counts. */
    void install(int[] counts, int n) {
        count = Arrays.copyOf(counts, Math.max(1, n));
        next = new int[count.length];
        prev = new int[count.length];
        for (int p = 0; p < n; p++) {
            next[p] = p + 1 < n ? p + 1 : NONE;
            prev[p] = p - 1;
        }
        first = 0;
        last = Math.max(0, n - 1);
        pages = n;
    }

    /** Room for page ids below {@code ids}. */
    void grow(int ids) {
        if (ids > count.length) {
            int n = Math.max(ids, count.length + (count.length >> 1) + 1);
            count = Arrays.copyOf(count, n);
            next = Arrays.copyOf(next, n);
            prev = Arrays.copyOf(prev, n);
        }
    }

    /** Cuts the arrays to {@code ids} entries when they hold four times that or more (after the store gave pages back). */
    void trim(int ids) {
        int n = Math.max(1, 2 * ids);
        if (count.length > 4 && ids <= count.length / 4) {
            count = Arrays.copyOf(count, n);
            next = Arrays.copyOf(next, n);
            prev = Arrays.copyOf(prev, n);
        }
    }

    /**
     * Once the device has run an insert's leaf jobs: each piece's count, and the new pages chained
     * after the page they split from.
     */
    void link(Level leaves) {
        for (int j = 0; j < leaves.jobs; j++) {
            int p = leaves.page[j];
            int after = next[p];
            int left = p;
            for (int t = 0; t < leaves.pieces[j]; t++) {
                int d = leaves.destPages[leaves.dest[j] + t];
                count[d] = leaves.pieceCount(j, t);
                if (t > 0) {
                    prev[d] = left;
                    next[left] = d;
                    left = d;
                    pages++;
                }
            }
            next[left] = after;
            if (after != NONE) {
                prev[after] = left;
            } else {
                last = left;
            }
        }
    }

    /** Once the device has run a delete's leaf jobs: each page's count less the keys it lost. */
    void drop(Level leaves) {
        for (int j = 0; j < leaves.jobs; j++) {
            count[leaves.page[j]] -= leaves.runLen[j];
        }
    }

    /** Takes page {@code p} (emptied, not the only one) out of the chain. */
    void unlink(int p) {
        int before = prev[p];
        int after = next[p];
        if (before == NONE) {
            first = after;
        } else {
            next[before] = after;
        }
        if (after == NONE) {
            last = before;
        } else {
            prev[after] = before;
        }
        next[p] = prev[p] = NONE;
        count[p] = 0;
        pages--;
    }

    /** The chain is the one empty page {@code p}. */
    void single(int p) {
        Arrays.fill(count, 0);
        next[p] = prev[p] = NONE;
        first = last = p;
        pages = 1;
    }

    // The shared layer's leaves are the 64-slot windows of the pages, window w of page p being
    // p * windows + w: its chain goes through a page's windows, then on to the next page's.

    /** The window after window {@code leaf} ({@code NONE} after the last page's last one). */
    int nextWindow(int leaf, int windows) {
        if (leaf % windows + 1 < windows) {
            return leaf + 1;
        }
        int p = next[leaf / windows];
        return p == NONE ? NONE : p * windows;
    }

    /** The window before window {@code leaf} ({@code NONE} before the first page's first one). */
    int prevWindow(int leaf, int windows) {
        if (leaf % windows > 0) {
            return leaf - 1;
        }
        int p = prev[leaf / windows];
        return p == NONE ? NONE : p * windows + windows - 1;
    }

    /** Used slots of window {@code leaf}: the first ones, as a page is packed from its start. */
    int windowCount(int leaf, int windows) {
        int used = count[leaf / windows] - leaf % windows * Window.SLOTS;
        return Math.max(0, Math.min(Window.SLOTS, used));
    }

    /** Host bytes held. */
    long bytes() {
        return 12L * count.length + 64;
    }
}
