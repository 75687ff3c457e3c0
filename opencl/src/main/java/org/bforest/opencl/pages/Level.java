package org.bforest.opencl.pages;

import java.util.Arrays;

/**
 * One level's jobs in a batch's plan: a page each, with the sorted run of entries it takes (or,
 * for a delete, loses), the pieces it splits into and the pages they go to. The host builds the
 * jobs ({@link BatchPlan} for the leaves, the GPU B+-tree for the inner levels its splits reach),
 * assigns the new pages ({@link #assignPieces}) and sizes every launch before the device changes
 * anything; {@link LevelMerge} then runs them. Apart from the tree as the plan's data, shared by
 * the leaves and the GPU B+-tree's inner levels.
 */
public final class Level {
    /** Whether the pages are inner pages (an entry a separator and its right child). */
    public final boolean inner;
    public int jobs;
    public int[] page = new int[4];
    /** The page's entries before the batch. */
    public int[] count = new int[4];
    /** Where the job's run starts in {@link #runKeys}, and its length. */
    public int[] run = new int[4];
    public int[] runLen = new int[4];
    /** Pages the result is split evenly into (1: it stays in the page). */
    public int[] pieces = new int[4];
    /** Where the job's pages start in {@link #destPages}: the page itself, then its new pages. */
    public int[] dest = new int[4];
    /** The batch index of a key that went through the page: its path row above is the parent. */
    public int[] rep = new int[4];
    public int[] destPages = new int[4];
    public int destCount;
    public long[] runKeys;
    /** The run's values (for inner pages: the new children); none for a delete. */
    public long[] runValues;

    public Level(boolean inner) {
        this.inner = inner;
    }

    /** Empties the level for another batch's plan, its job arrays kept (its runs are the planner's). */
    public void reset() {
        jobs = 0;
        destCount = 0;
        runKeys = runValues = null;
    }

    /** Empties the level and gives its job arrays back (to their first size). */
    public void release() {
        reset();
        page = new int[4];
        count = new int[4];
        run = new int[4];
        runLen = new int[4];
        pieces = new int[4];
        dest = new int[4];
        rep = new int[4];
        destPages = new int[4];
    }

    /** Heap bytes of the job arrays. */
    public long bytes() {
        return 4L * (7L * page.length + destPages.length);
    }

    public int add(int p, int c, int runStart, int repIndex) {
        if (jobs == page.length) {
            int n = jobs * 2;
            page = Arrays.copyOf(page, n);
            count = Arrays.copyOf(count, n);
            run = Arrays.copyOf(run, n);
            runLen = Arrays.copyOf(runLen, n);
            pieces = Arrays.copyOf(pieces, n);
            dest = Arrays.copyOf(dest, n);
            rep = Arrays.copyOf(rep, n);
        }
        page[jobs] = p;
        count[jobs] = c;
        run[jobs] = runStart;
        runLen[jobs] = 0;
        pieces[jobs] = 1;
        rep[jobs] = repIndex;
        return jobs++;
    }

    /** Entries job j ends with. */
    public int total(int j, boolean delete) {
        return delete ? count[j] - runLen[j] : count[j] + runLen[j];
    }

    public void addDest(int p) {
        if (destCount == destPages.length) {
            destPages = Arrays.copyOf(destPages, destCount * 2);
        }
        destPages[destCount++] = p;
    }

    /** Entries piece t of job j's result starts at (pieces split the result evenly). */
    public int from(int j, int t, boolean delete) {
        return (int) ((long) t * total(j, delete) / pieces[j]);
    }

    /**
     * The entries piece t of job j's insert result keeps in its page: an inner page's new pieces
     * lose their first entry, which moves up.
     */
    public int pieceCount(int j, int t) {
        return from(j, t + 1, false) - from(j, t, false) - (inner && t > 0 ? 1 : 0);
    }

    /**
     * Pieces a page of {@code total} entries is split into: one while it fits, else pieces of
     * three quarters of a page. An inner page's pieces take at least two entries each: every piece
     * but the first gives its first entry up to the parent, and must keep a key of its own (an
     * inner page with no key is a level that does not branch; at two keys a page, pieces of one
     * entry made each level one page shorter than the one below it, a tree of height n). With the
     * even split ({@link #from}) the first piece gets the smallest share, and it keeps all of it.
     */
    public static int piecesFor(int total, int pageKeys, boolean inner) {
        if (total <= pageKeys) {
            return 1;
        }
        int target = Math.max(inner ? 2 : 1, pageKeys * 3 / 4);
        return (total + target - 1) / target;
    }

    /**
     * Plans an insert level's splits: each job's pieces, and its pages (the job's own page, then
     * new ids from {@code ids}, in job order). Returns how many new pages it takes; if the batch
     * cannot go on, {@link #releaseNew} gives them back.
     */
    public int assignPieces(int pageKeys, PageIds ids) {
        int fresh = 0;
        for (int j = 0; j < jobs; j++) {
            pieces[j] = piecesFor(total(j, false), pageKeys, inner);
            dest[j] = destCount;
            addDest(page[j]);
            for (int t = 1; t < pieces[j]; t++) {
                addDest(ids.alloc());
                fresh++;
            }
        }
        return fresh;
    }

    /** Gives the new pages of {@link #assignPieces} back to {@code ids} (a batch that did not run). */
    public void releaseNew(PageIds ids) {
        for (int j = jobs - 1; j >= 0; j--) {
            for (int t = pieces[j] - 1; t > 0; t--) {
                ids.release(destPages[dest[j] + t]);
            }
        }
    }

    /** Whether the jobs split any page (so that the level above has work). */
    public boolean splits() {
        for (int j = 0; j < jobs; j++) {
            if (pieces[j] > 1) {
                return true;
            }
        }
        return false;
    }

    /** New pages the splits make: the separators the level above takes. */
    public int promotedCount() {
        int n = 0;
        for (int j = 0; j < jobs; j++) {
            n += pieces[j] - 1;
        }
        return n;
    }

    /** The new pages of the splits, in job order: the children the level above inserts. */
    public long[] promotedKids() {
        long[] kids = new long[promotedCount()];
        int k = 0;
        for (int j = 0; j < jobs; j++) {
            for (int t = 1; t < pieces[j]; t++) {
                kids[k++] = destPages[dest[j] + t];
            }
        }
        return kids;
    }
}
