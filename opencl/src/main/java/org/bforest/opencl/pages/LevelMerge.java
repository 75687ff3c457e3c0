package org.bforest.opencl.pages;

import java.util.Arrays;
import org.bforest.opencl.cl.ClBuffer;
import org.bforest.opencl.cl.ClScope;
import org.bforest.opencl.cl.PageKernels;
import org.bforest.opencl.pages.PageStore.Scratch;

/**
 * Runs a {@link Level}'s jobs on the device: merges (or, for deletes, compacts) each page's
 * entries with its run into scratch, scatters the result over the job's pages and gathers the
 * first key of every new page. The jobs go in launch groups of at most {@link #launchEntries}
 * result entries (so that the scratch, 16 bytes an entry and kept for the next batch, stays
 * bounded); each group's tables (one int buffer: jobs, in and out starts, slot starts,
 * destinations, gathers) are built here, and {@link #reserve} sizes every group's scratch before
 * the device changes anything, from the same group boundaries and sizes, so the two cannot
 * disagree. Apart from {@link PagedTree} because the GPU B+-tree runs its inner levels' jobs
 * through it too, and because it is the batch's launch planning, not the tree's state.
 *
 * <p>Not thread-safe: the tree calls it under its device lock.
 */
final class LevelMerge {
    /** Ints a job takes in the tables: page, count, run start, run length, pieces, first destination. */
    private static final int JOB = 6;
    /**
     * Items a tile of the tile tables covers (the kernels' {@code TILE_BITS}): each tile names the
     * job its first item is in, so that a work-item finds its job by a short walk from there, not a
     * binary search over every job.
     */
    static final int TILE_BITS = 10;

    /** Entries of a tile table over {@code n} items. */
    static int tiles(long n) {
        return (int) (n >> TILE_BITS) + 1;
    }

    /**
     * Writes the tile table of {@code g} jobs whose items start at {@code meta[startsAt + x]}
     * (ascending, from 0) over {@code n} items into {@code meta} from {@code at}: each tile's
     * first item's job, the last x with start at most that item.
     */
    static void tileTable(int[] meta, int startsAt, int g, int n, int at) {
        int x = 0;
        for (int t = 0, end = tiles(n); t < end; t++) {
            long item = (long) t << TILE_BITS;
            while (x + 1 < g && meta[startsAt + x + 1] <= item) {
                x++;
            }
            meta[at + t] = x;
        }
    }

    private final PageStore store;
    private final PageKernels kernels;
    private final int pageKeys;
    /** {@link PagedTree#MAX_LAUNCH_ENTRIES}, lower in tests so that batches span several launches. */
    int launchEntries = PagedTree.MAX_LAUNCH_ENTRIES;
    /** A launch group's tables, kept from launch to launch (a 1M batch allocated 0.3 MB of them). */
    private int[] table = new int[0];

    /** Heap bytes kept between batches (the tables' array). */
    long hostBytes() {
        return 4L * table.length;
    }

    /** Gives the kept array back (a tree cleared). */
    void release() {
        table = new int[0];
    }

    LevelMerge(PageStore store, PageKernels kernels) {
        this.store = store;
        this.kernels = kernels;
        this.pageKeys = store.pageKeys;
    }

    /**
     * Runs a level's jobs, a launch group at a time. Returns the first key of every piece after
     * the first, in job order: the separators the level above inserts.
     */
    long[] run(Level lv, boolean delete) {
        long[] promoted = new long[lv.promotedCount()];
        int pAt = 0;
        for (int j0 = 0, j1; j0 < lv.jobs; j0 = j1) {
            j1 = groupEnd(lv, delete, j0);
            pAt = runGroup(lv, delete, j0, j1, promoted, pAt);
        }
        return promoted;
    }

    /** The end of the launch group that starts at job j0: at most {@link #launchEntries} results, unless one job has more. */
    private int groupEnd(Level lv, boolean delete, int j0) {
        long items = 0;
        long results = 0;
        int j1 = j0;
        while (j1 < lv.jobs && (j1 == j0 || results + lv.total(j1, delete) <= launchEntries
                && items + (long) lv.pieces[j1] * pageKeys <= Integer.MAX_VALUE / 2)) {
            results += lv.total(j1, delete);
            items += (long) lv.pieces[j1] * pageKeys;
            j1++;
        }
        return j1;
    }

    /**
     * Grows, before anything on the device changes, every scratch buffer the launches of these
     * levels will use to the largest size any of their groups needs (the sizes of
     * {@link #runGroup}), and the host's pinned memory to what all their writes stage, so that an
     * out of memory, the device's or the host's, fails here and leaves the index as it was;
     * {@code moreStaged}, the bytes the caller's other writes of the batch stage.
     */
    void reserve(boolean delete, Iterable<Level> levels, long moreStaged) {
        long meta = 0;
        long runs = 0;
        long results = 0;
        long gathers = 0;
        long staged = 0;
        for (Level lv : levels) {
            for (int j0 = 0, j1; j0 < lv.jobs; j0 = j1) {
                j1 = groupEnd(lv, delete, j0);
                int g = j1 - j0;
                long r = 0;
                long gs = 0;
                long in = 0;
                long slots = 0;
                for (int j = j0; j < j1; j++) {
                    r += lv.total(j, delete);
                    gs += lv.pieces[j] - 1;
                    in += delete ? lv.count[j] : lv.total(j, false);
                    slots += (long) lv.pieces[j] * pageKeys;
                }
                long destN = lv.dest[j1 - 1] + lv.pieces[j1 - 1] - lv.dest[j0];
                long runN = lv.run[j1 - 1] + lv.runLen[j1 - 1] - lv.run[j0];
                long metaN = (long) JOB * g + 3L * g + 2 + destN + gs + tiles(in) + tiles(slots);
                meta = Math.max(meta, metaN);
                runs = Math.max(runs, runN);
                staged += ClScope.staged(4 * metaN) + ClScope.staged(16 * runN);   // the group's two writes
                results = Math.max(results, r);
                gathers = Math.max(gathers, gs);
            }
        }
        store.scratch(Scratch.JOBS, 4L * meta);
        store.scratch(Scratch.RUN_KEYS, 16L * runs);
        store.scratch(Scratch.MERGED_KEYS, 8L * results);
        store.scratch(Scratch.MERGED_VALUES, 8L * results);
        store.scratch(Scratch.GATHERED, 8L * gathers);
        // The host's pinned memory too: none is allocated once the batch has begun changing the tree.
        // With the writes the caller adds (the levels above a delete's), and a margin for the
        // single values the levels above write.
        store.cl.reserveHost(staged + moreStaged + (1 << 16), 8L * gathers);
    }

    /** One launch group, jobs [j0, j1): its tables, its launches, and its separators into {@code promoted} from {@code pAt}. */
    private int runGroup(Level lv, boolean delete, int j0, int j1, long[] promoted, int pAt) {
        int g = j1 - j0;
        int destBase = lv.dest[j0];
        int destN = lv.dest[j1 - 1] + lv.pieces[j1 - 1] - destBase;
        int gathers = 0;
        for (int j = j0; j < j1; j++) {
            gathers += lv.pieces[j] - 1;
        }
        // The tables, in one int buffer: jobs, in starts, out starts, slot starts, destinations, gathers.
        int jobAt = 0;
        int inAt = JOB * g;
        int outAt = inAt + g + 1;
        int slotAt = outAt + g + 1;
        int destAt = slotAt + g;
        int gatherAt = destAt + destN;
        int inTileAt = gatherAt + gathers;
        int items0 = 0;
        int slots0 = 0;
        for (int j = j0; j < j1; j++) {
            items0 += delete ? lv.count[j] : lv.total(j, false);
            slots0 += lv.pieces[j] * pageKeys;
        }
        int slotTileAt = inTileAt + tiles(items0);
        int metaN = slotTileAt + tiles(slots0);
        if (table.length < metaN) {
            table = new int[Math.max(metaN, table.length + (table.length >> 1))];
        }
        int[] meta = table;   // copied to the staging memory by its write below, so reused at once
        Arrays.fill(meta, 0, metaN, 0);
        int runBase = lv.run[j0];
        int runN = lv.run[j1 - 1] + lv.runLen[j1 - 1] - runBase;
        int gi = gatherAt;
        for (int j = j0; j < j1; j++) {
            int x = j - j0;
            meta[jobAt + JOB * x] = lv.page[j];
            meta[jobAt + JOB * x + 1] = lv.count[j];
            meta[jobAt + JOB * x + 2] = lv.run[j] - runBase;
            meta[jobAt + JOB * x + 3] = lv.runLen[j];
            meta[jobAt + JOB * x + 4] = lv.pieces[j];
            meta[jobAt + JOB * x + 5] = lv.dest[j] - destBase;
            meta[inAt + x + 1] = meta[inAt + x] + (delete ? lv.count[j] : lv.total(j, false));
            meta[outAt + x + 1] = meta[outAt + x] + lv.total(j, delete);
            if (x + 1 < g) {
                meta[slotAt + x + 1] = meta[slotAt + x] + lv.pieces[j] * pageKeys;
            }
            for (int t = 1; t < lv.pieces[j]; t++) {
                meta[gi++] = meta[outAt + x] + lv.from(j, t, delete);
            }
        }
        System.arraycopy(lv.destPages, destBase, meta, destAt, destN);
        int items = meta[inAt + g];
        int results = meta[outAt + g];
        int slots = meta[slotAt + g - 1] + lv.pieces[j1 - 1] * pageKeys;
        tileTable(meta, inAt, g, items, inTileAt);
        tileTable(meta, slotAt, g, slots, slotTileAt);
        // Size every buffer before writing any: a scratch buffer that grows loses its content.
        ClBuffer dMeta = store.scratch(Scratch.JOBS, 4L * metaN);
        ClBuffer dRuns = store.scratch(Scratch.RUN_KEYS, 16L * runN);
        ClBuffer dMergedKeys = store.scratch(Scratch.MERGED_KEYS, 8L * results);
        ClBuffer dMergedValues = store.scratch(Scratch.MERGED_VALUES, 8L * results);
        ClBuffer dGathered = store.scratch(Scratch.GATHERED, 8L * gathers);
        store.writeInts(dMeta, meta, metaN);
        store.writeLongs(dRuns, 0, lv.runKeys, runBase, runN, delete ? null : lv.runValues, runBase, runN);
        ClBuffer keys = lv.inner ? store.innerKeys : store.leafKeys;
        if (delete) {
            kernels.compact(store.leafKeys, store.leafValues, pageKeys, dMeta, jobAt, inAt, outAt, g, inTileAt, dRuns,
                    dMergedKeys, dMergedValues, items);
        } else {
            kernels.merge(keys, store.leafValues, store.innerKids, lv.inner, pageKeys, dMeta, jobAt, inAt, outAt, g,
                    inTileAt, dRuns, runN, dMergedKeys, dMergedValues, items);
        }
        kernels.scatter(keys, store.leafValues, store.innerKids, lv.inner, pageKeys, dMeta, jobAt, slotAt, outAt, g,
                destAt, slotTileAt, dMergedKeys, dMergedValues, slots);
        if (gathers > 0) {
            kernels.gather(dMergedKeys, dMeta, gatherAt, dGathered, gathers);
            store.readLongs(dGathered, 0, promoted, pAt, gathers);
        }
        return pAt + gathers;
    }
}
