package org.bforest.opencl.pages;

import java.lang.foreign.MemorySegment;
import java.lang.ref.Cleaner;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.bforest.NativeLongIndex;
import org.bforest.opencl.DeviceSearch;
import org.bforest.opencl.OpenClException;
import org.bforest.opencl.cl.ClScope;
import org.bforest.opencl.cl.ClDevice;
import org.bforest.opencl.pages.PageStore.Scratch;
import org.bforest.util.BatchArguments;
import org.bforest.spi.LeafChainIndex;
import org.bforest.util.SortedInput;

/**
 * What the GPU B+-tree and the hybrid tree share: leaf pages of {@code pageKeys} keys and values
 * on an OpenCL device, searched, filled and split by kernels, every operation a batch. The levels
 * above the leaves are the subclass's: inner pages on the device under a descent kernel (the GPU
 * B+-tree), or the BS-tree's inner levels on the CPU (the hybrid).
 *
 * <h2>On the device</h2>
 * Leaf pages of keys and values ({@link PageStore}); unused key slots hold {@code Long.MAX_VALUE},
 * so that a page's search needs no count. An insert batch looks its keys up, replaces the values
 * of those that are there, and merges the new ones into their leaves in one launch (a flat index
 * space over the batch's jobs, one work-item an entry); a leaf that overflows is split, in the
 * same launch, into as many pages as its keys need at three quarters full; the new pages'
 * separators go to the levels above. A delete batch compacts its leaves in one launch.
 *
 * <h2>On the host</h2>
 * The host keeps what it needs to drive the device, as Kaczmarek's paper has it ("navigation and
 * control of processing in the whole tree should be on the side of the host"): each page's
 * occupancy and the leaves' chain; with them it plans a batch's every split, and makes room on the
 * device, before the device changes anything: a device out of memory leaves the index as it was.
 * {@code Long.MAX_VALUE} is kept on the host, out of band, as in every bforest tree.
 *
 * <h2>The shared layer</h2>
 * Everything but the batched paths comes from {@link LeafChainIndex}: its leaves are 64-slot
 * windows of a page (a page of 2048 keys is 32 of them), read from the device a window at a time
 * into a per-thread cache that a write invalidates; so cursors, ranges and neighbour queries cost a
 * descent and then a transfer per 64 entries.
 *
 * <h2>Threads</h2>
 * A device is driven through one command queue, so every call that touches it holds the device's
 * lock: reads from many threads are safe (they take turns on the device); writes need the
 * caller's synchronisation, as for every bforest structure. Deleting leaves pages empty (they are
 * reused when keys come back into their range), and the memory goes back on {@link #clear()} and
 * {@link #close()}.
 */
public abstract class PagedTree extends LeafChainIndex implements NativeLongIndex {
    /** Queries handed to the device at once: bounds the per-batch device buffers (about 40 bytes a query). */
    public static final int MAX_BATCH = 1 << 20;
    /**
     * Entries one merge launch produces at most, and one visit-all launch packs: their scratch is 16
     * bytes an entry and is kept for the next batch, so this bounds it (32 MB). 2M work-items a
     * launch fill any GPU; a batch that merges more (1M random inserts into 10M keys rewrite all
     * 11M entries) takes a few launches.
     */
    static final int MAX_LAUNCH_ENTRIES = 1 << 21;
    private static final int WINDOW = MAX_SLOTS;
    private static final int JOB = 6;
    private static final AtomicLong IDS = new AtomicLong();
    private static final Cleaner CLEANER = Cleaner.create();

    private final long id = IDS.incrementAndGet();
    /** {@link #MAX_LAUNCH_ENTRIES}, lower in tests so that batches span several launches. */
    private int launchEntries = MAX_LAUNCH_ENTRIES;
    protected final ClScope cl;
    protected final PageStore store;
    protected final int pageKeys;
    /** 64-slot windows a page: the shared layer's leaves. */
    private final int windows;
    protected final double fill;
    /** How look-up batches are ordered and searched on the device. */
    protected final DeviceSearch search;
    private final Cleaner.Cleanable cleanable;
    /** The kernels of kernels/gpu_btree.cl, this tree's own objects (their arguments are per kernel object). */
    protected final MemorySegment program;
    private final MemorySegment kReplace;
    private final MemorySegment kMerge;
    private final MemorySegment kCompact;
    private final MemorySegment kScatter;
    private final MemorySegment kGather;
    private final MemorySegment kVisitAll;
    private final String what;

    // The host's control state of the leaves: occupancy and chain.
    protected int[] leafCount;
    private int[] leafNextPage;
    private int[] leafPrevPage;
    protected int leafPages;
    private int lastPage;
    /** Bumped by every write (value replacements too): the window caches compare it. */
    private volatile long stamp;
    private volatile boolean closed;

    /** {@code what}: the structure's name in messages, e.g. "GPU B+-tree". */
    protected PagedTree(String name, String what, ClScope cl, int pageKeys, double fill, DeviceSearch search) {
        super(name);
        this.search = java.util.Objects.requireNonNull(search, "search");
        if (search.group() > 1 && search.group() > cl.device().maxWorkGroupSize()) {
            throw new IllegalArgumentException("a search group of " + search.group() + " work-items is larger than "
                    + cl.device().name() + "'s work-groups (" + cl.device().maxWorkGroupSize() + ")");
        }
        this.what = what;
        this.cl = cl;
        this.pageKeys = pageKeys;
        this.windows = (pageKeys + WINDOW - 1) / WINDOW;
        this.fill = fill;
        this.store = new PageStore(cl, pageKeys);
        program = cl.program("kernels/gpu_btree.cl");
        kReplace = cl.kernel(program, "leaf_replace");
        kMerge = cl.kernel(program, "merge");
        kCompact = cl.kernel(program, "compact");
        kScatter = cl.kernel(program, "scatter");
        kGather = cl.kernel(program, "gather");
        kVisitAll = cl.kernel(program, "visit_all");
        // The safety net: an index nobody closed gives its device memory back when collected.
        // The action holds the scope, never the tree.
        cleanable = CLEANER.register(this, cl::close);
    }

    /** For a group search: the least power of the group's width that covers a page. */
    protected final int groupSpan() {
        int span = 1;
        while (span < pageKeys) {
            span *= search.group();
        }
        return span;
    }

    /** A subclass's constructor: the tree over an image, in a scope of its own. */
    protected interface Maker<T extends PagedTree> {
        T make(ClScope cl, Image image);
    }

    /**
     * A bulk load, written once for every paged tree: checks the arguments before anything reaches
     * a device, builds the host image (with inner pages if {@code innerPages}), and makes the tree
     * in a new scope, which is closed again if that fails.
     *
     * @throws IllegalArgumentException on bad keys, a page size out of [2, 2^20] or a fill outside (0, 1]
     * @throws OpenClException          when the device refuses (out of memory, a kernel that does not build)
     */
    protected static <T extends PagedTree> T load(ClDevice device, long[] keys, long[] values, int pageKeys,
            double fill, boolean innerPages, Maker<T> maker) {
        checkBulk(keys, values, pageKeys, fill);
        Image image = Image.build(keys, values, pageKeys, fill, innerPages);
        ClScope cl = new ClScope(device);
        try {
            return maker.make(cl, image);
        } catch (RuntimeException e) {
            cl.close();
            throw e;
        }
    }

    /** Checks a bulk load's arguments before anything reaches a device. */
    private static void checkBulk(long[] keys, long[] values, int pageKeys, double fill) {
        if (pageKeys < 2 || pageKeys > 1 << 20) {
            throw new IllegalArgumentException("pages hold 2 to 2^20 keys, got " + pageKeys);
        }
        if (!(fill > 0 && fill <= 1)) {
            throw new IllegalArgumentException("the leaves' fill must be in (0, 1], got " + fill);
        }
        SortedInput.check(keys, values);
    }

    /**
     * Puts a host image's leaves (and, if it has them, inner pages) on the device and takes the
     * leaves' shape as the host state; the subclass takes the rest.
     */
    protected void install(Image b) {
        store.upload(b.leafKeys, b.leafValues, b.leafPages, b.innerKeys, b.innerKids, b.innerPages);
        leafPages = b.leafPages;
        leafCount = Arrays.copyOf(b.leafCounts, Math.max(1, leafPages));
        leafNextPage = new int[leafCount.length];
        leafPrevPage = new int[leafCount.length];
        for (int p = 0; p < leafPages; p++) {
            leafNextPage[p] = p + 1 < leafPages ? p + 1 : NONE;
            leafPrevPage[p] = p - 1;
        }
        lastPage = leafPages - 1;
        size = b.size;
        hasMax = b.hasMax;
        maxValue = b.maxValue;
    }

    public int pageKeys() {
        return pageKeys;
    }

    public int leafPages() {
        return leafPages;
    }

    /** Inner levels above the leaves (0: the root is a leaf). */
    public abstract int height();

    /** Device buffers held now (a leak check's figure). */
    public int deviceBuffers() {
        return cl.isClosed() ? 0 : cl.liveBuffers();
    }

    /** The device this tree lives on. */
    public ClDevice device() {
        return cl.device();
    }

    protected final void open() {
        if (closed) {
            throw new IllegalStateException("this " + what + " was closed and its device memory released: build a new one");
        }
    }

    // ---- the descent: the subclass's ----------------------------------------------------------

    /**
     * Enqueues the look-up of the {@code n} queries in the QUERIES scratch, which are also
     * {@code keys[from, from + n)} on the host: when it has run, OUT
     * holds n values ({@code absent} where a key is not there), n slots ({@code < 0}: not there,
     * -(insertion point) - 1) and n leaf pages. Called under the device lock, after
     * {@link #reserveBatch}.
     */
    protected abstract void enqueueLookup(long[] keys, int from, int n, long absent);

    /** Per-batch scratch the subclass's descent needs beyond QUERIES and OUT, sized before anything is written. */
    protected abstract void reserveDescent(int n);

    /** What a batch's leaf splits do to the levels above, planned before the device changes anything. */
    protected interface UpperPlan {
        /** Inner pages the device must have room for. */
        int innerPages();

        /** The levels above the leaves that the device will merge into (none for a CPU upper part). */
        default List<Level> levels() {
            return List.of();
        }
    }

    /**
     * Plans the separators of the leaf jobs that split ({@code pieces > 1}) into the levels
     * above; {@code n} is the batch's size (the descent's path rows, for a device descent).
     */
    protected abstract UpperPlan planUpper(Level leaves, int n);

    /**
     * Carries the plan out once the leaves have split: {@code separators[i]} leads to the new
     * leaf page {@code newPages[i]}, in key order.
     */
    protected abstract void applyUpper(UpperPlan plan, Level leaves, long[] separators, long[] newPages);

    /** Forgets everything above the leaves of a cleared tree (one empty leaf, page 0). */
    protected abstract void clearUpper();

    /** Checks the levels above the leaves, giving each leaf with its key range to {@code checker}. */
    protected abstract void checkUpper(Checker checker, Image image);

    /** Inner pages to read back for the invariant check (0 where the levels above live on the host). */
    protected abstract int innerPagesOnDevice();

    /** Whether the levels above are inner pages on the device (which a bulk load's image builds). */
    protected abstract boolean buildsInnerPages();

    /** Bytes the levels above hold on the host. */
    protected abstract long upperHostBytes();

    /**
     * Sizes every per-batch buffer for {@code n} queries first, so that none moves once written.
     * QUERIES holds the keys and, for puts, their values after them.
     */
    private void reserveBatch(int n) {
        store.scratch(Scratch.QUERIES, 16L * n);
        store.scratch(Scratch.OUT, 24L * n);
        reserveDescent(n);
    }

    // ---- reads ----------------------------------------------------------------------------------

    @Override
    public long get(long key, long absent) {
        open();
        if (key == MAXKEY) {
            return getMax(absent);
        }
        long[] out = new long[1];
        lookUp(new long[] {key}, 0, 1, out, absent, null);
        return out[0];
    }

    @Override
    public boolean containsKey(long key) {
        open();
        if (key == MAXKEY) {
            return hasMax;
        }
        int[] slot = new int[1];
        lookUp(new long[] {key}, 0, 1, new long[1], 0, slot);
        return slot[0] >= 0;
    }

    /**
     * The values of {@code keys} into {@code values}, {@code absent} where a key is not there:
     * batches of up to {@value #MAX_BATCH} queries, each one host-driven descent on the device.
     */
    @Override
    public void getAll(long[] keys, long[] values, long absent) {
        BatchArguments.checkGetAll(keys, values);
        open();
        for (int from = 0; from < keys.length; from += MAX_BATCH) {
            int n = Math.min(MAX_BATCH, keys.length - from);
            if (!reorders(n)) {
                lookUp(keys, from, n, values, absent, null);
                continue;
            }
            // The queries in the device search's order, the answers back in the caller's.
            int[] perm = QueryOrders.permutation(keys, from, n, search.order(), 2 * leafPages);
            long[] q = new long[n];
            for (int i = 0; i < n; i++) {
                q[i] = keys[from + perm[i]];
            }
            long[] out = new long[n];
            lookUp(q, 0, n, out, absent, null);
            for (int i = 0; i < n; i++) {
                values[from + perm[i]] = out[i];
            }
        }
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] == MAXKEY) {
                values[i] = getMax(absent);
            }
        }
    }

    /** Whether a look-up batch of n is reordered before it goes to the device (not worth it for a few keys). */
    private boolean reorders(int n) {
        return search.order() != DeviceSearch.QueryOrder.AS_GIVEN && n >= 64;
    }

    /** Looks up keys[from, from + n) into values[from, ...) and, if asked, their slots. */
    private void lookUp(long[] keys, int from, int n, long[] values, long absent, int[] slots) {
        synchronized (cl.lock()) {
            reserveBatch(n);
            store.writeLongs(store.scratch(Scratch.QUERIES, 16L * n), 0, keys, from, n, null, 0, 0);
            enqueueLookup(keys, from, n, absent);
            if (slots == null) {
                store.readLongs(store.scratch(Scratch.OUT, 24L * n), 0, values, from, n);
            } else {
                long[] both = new long[2 * n];
                store.readLongs(store.scratch(Scratch.OUT, 24L * n), 0, both, 0, 2 * n);
                System.arraycopy(both, 0, values, from, n);
                for (int i = 0; i < n; i++) {
                    slots[i] = (int) both[n + i];
                }
            }
        }
    }

    // ---- writes ---------------------------------------------------------------------------------

    @Override
    public long put(long key, long value) {
        open();
        if (key == MAXKEY) {
            return putMax(value);
        }
        long[] previous = new long[1];
        boolean added = upsertSorted(new long[] {key}, new long[] {value}, 0, 1, previous) > 0;
        return added ? defaultReturnValue() : previous[0];
    }

    /**
     * Puts every {@code keys[i] -> values[i]} (the last value of a key given twice) in batches of
     * up to {@value #MAX_BATCH} distinct keys, each a descent, a merge launch a level and the
     * splits it needs.
     */
    @Override
    public void putAll(long[] keys, long[] values) {
        BatchArguments.checkPutAll(keys, values);
        open();
        if (keys.length == 0) {
            return;
        }
        long[] sorted = keys.clone();
        Arrays.sort(sorted);
        int u = distinct(sorted);
        long[] vals = new long[u];
        for (int i = 0; i < keys.length; i++) {
            vals[Arrays.binarySearch(sorted, 0, u, keys[i])] = values[i];   // the last one wins
        }
        int inLeaves = u > 0 && sorted[u - 1] == MAXKEY ? u - 1 : u;
        for (int from = 0; from < inLeaves; from += MAX_BATCH) {
            upsertSorted(sorted, vals, from, Math.min(MAX_BATCH, inLeaves - from), null);
        }
        if (inLeaves < u) {
            putMax(vals[u - 1]);
        }
    }

    @Override
    public long remove(long key) {
        open();
        if (key == MAXKEY) {
            return removeMax();
        }
        long[] previous = new long[1];
        return deleteSorted(new long[] {key}, 0, 1, previous) > 0 ? previous[0] : defaultReturnValue();
    }

    /** Removes every key of {@code keys} that is there (absent ones and repeats are fine); returns how many. */
    @Override
    public long removeAll(long[] keys) {
        java.util.Objects.requireNonNull(keys, "keys");
        open();
        if (keys.length == 0) {
            return 0;
        }
        long[] sorted = keys.clone();
        Arrays.sort(sorted);
        int u = distinct(sorted);
        int inLeaves = u > 0 && sorted[u - 1] == MAXKEY ? u - 1 : u;
        long removed = 0;
        for (int from = 0; from < inLeaves; from += MAX_BATCH) {
            removed += deleteSorted(sorted, from, Math.min(MAX_BATCH, inLeaves - from), null);
        }
        if (inLeaves < u && hasMax) {
            removeMax();
            removed++;
        }
        return removed;
    }

    /** Squeezes out repeats of a sorted array in place; returns how many distinct keys lead it. */
    private static int distinct(long[] sorted) {
        int u = 0;
        for (int i = 0; i < sorted.length; i++) {
            if (u == 0 || sorted[i] != sorted[u - 1]) {
                sorted[u++] = sorted[i];
            }
        }
        return u;
    }

    /** One level's jobs: a page each, with the sorted run of entries it takes (or loses). */
    protected static final class Level {
        public final boolean inner;
        public int jobs;
        public int[] page = new int[4];
        public int[] count = new int[4];
        public int[] run = new int[4];
        public int[] runLen = new int[4];
        public int[] pieces = new int[4];
        public int[] dest = new int[4];
        /** The batch index of a key that went through the page: its path row above is the parent. */
        public int[] rep = new int[4];
        public int[] destPages = new int[4];
        public int destCount;
        public long[] runKeys;
        public long[] runValues;

        public Level(boolean inner) {
            this.inner = inner;
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
    }

    /** Pieces a page of {@code total} entries is split into: one while it fits, else three-quarter-full pages. */
    protected final int piecesFor(int total) {
        if (total <= pageKeys) {
            return 1;
        }
        int target = Math.max(1, pageKeys * 3 / 4);
        return (total + target - 1) / target;
    }

    /**
     * Inserts or replaces keys[from, from + n) (sorted, distinct, below MAXKEY) with their values;
     * returns how many were new. {@code previous}, if given, gets the old values (n = 1 only).
     */
    private int upsertSorted(long[] keys, long[] vals, int from, int n, long[] previous) {
        synchronized (cl.lock()) {
            reserveBatch(n);
            store.writeLongs(store.scratch(Scratch.QUERIES, 16L * n), 0, keys, from, n, vals, from, n);
            enqueueLookup(keys, from, n, 0);
            long[] found = found(n, previous);
            int fresh = 0;
            for (int i = 0; i < n; i++) {
                fresh += found[i] < 0 ? 1 : 0;
            }
            if (fresh == 0) {
                replace(n);
                stamp++;
                return 0;
            }

            // The plan: the leaves' jobs, and every level their splits reach, with new page ids.
            Level leaves = new Level(false);
            leaves.runKeys = new long[fresh];
            leaves.runValues = new long[fresh];
            int r = 0;
            int prevPage = NONE;
            int j = -1;
            for (int i = 0; i < n; i++) {
                if (found[i] >= 0) {
                    continue;
                }
                int p = (int) found[n + i];
                if (p != prevPage) {
                    j = leaves.add(p, leafCount[p], r, i);
                    prevPage = p;
                }
                leaves.runLen[j]++;
                leaves.runKeys[r] = keys[from + i];
                leaves.runValues[r] = vals[from + i];
                r++;
            }
            int newLeaves = 0;
            for (j = 0; j < leaves.jobs; j++) {
                leaves.pieces[j] = piecesFor(leaves.total(j, false));
                leaves.dest[j] = leaves.destCount;
                leaves.addDest(leaves.page[j]);
                for (int t = 1; t < leaves.pieces[j]; t++) {
                    leaves.addDest(leafPages + newLeaves++);
                }
            }
            UpperPlan upper = planUpper(leaves, n);

            // Room first, pages and every launch's scratch: if the device is out of memory,
            // nothing has changed yet.
            store.ensure(leafPages + newLeaves, upper.innerPages());
            List<Level> levels = new ArrayList<>(upper.levels());
            levels.add(leaves);
            reserveMerges(false, levels);
            growHost(leafPages + newLeaves);

            replace(n);
            long[] separators = merge(leaves, false);
            applyUpper(upper, leaves, separators, promotedKids(leaves));

            // The host state follows the device.
            for (j = 0; j < leaves.jobs; j++) {
                int p = leaves.page[j];
                int after = leafNextPage[p];
                int prev = p;
                for (int t = 0; t < leaves.pieces[j]; t++) {
                    int d = leaves.destPages[leaves.dest[j] + t];
                    leafCount[d] = leaves.from(j, t + 1, false) - leaves.from(j, t, false);
                    if (t > 0) {
                        leafPrevPage[d] = prev;
                        leafNextPage[prev] = d;
                        prev = d;
                    }
                }
                leafNextPage[prev] = after;
                if (after != NONE) {
                    leafPrevPage[after] = prev;
                } else {
                    lastPage = prev;
                }
            }
            leafPages += newLeaves;
            size += fresh;
            modCount++;
            stamp++;
            return fresh;
        }
    }

    /** Whether a level's jobs split any page (so that the level above has work). */
    protected static boolean splits(Level lv) {
        for (int j = 0; j < lv.jobs; j++) {
            if (lv.pieces[j] > 1) {
                return true;
            }
        }
        return false;
    }

    /** The new pages of a level's splits, in job order: the children the level above inserts. */
    protected static long[] promotedKids(Level lv) {
        int n = 0;
        for (int j = 0; j < lv.jobs; j++) {
            n += lv.pieces[j] - 1;
        }
        long[] kids = new long[n];
        int k = 0;
        for (int j = 0; j < lv.jobs; j++) {
            for (int t = 1; t < lv.pieces[j]; t++) {
                kids[k++] = lv.destPages[lv.dest[j] + t];
            }
        }
        return kids;
    }

    /** Replaces, on the device, the values of the batch's keys that were there. */
    private void replace(int n) {
        cl.arg(kReplace, 0, store.leafValues);
        cl.arg(kReplace, 1, pageKeys);
        cl.arg(kReplace, 2, store.scratch(Scratch.OUT, 24L * n));
        cl.arg(kReplace, 3, store.scratch(Scratch.QUERIES, 16L * n));
        cl.arg(kReplace, 4, n);
        cl.enqueue(kReplace, n);
    }

    /**
     * Runs a level's jobs on the device: merges (or, for deletes, compacts) each page's entries
     * with its run into scratch, then scatters the result over the job's pages. Jobs go in groups
     * of at most {@value #MAX_LAUNCH_ENTRIES} result entries. Returns the first key of every piece after
     * the first, in job order: the separators the level above inserts.
     */
    protected final long[] merge(Level lv, boolean delete) {
        int promotedCount = 0;
        for (int j = 0; j < lv.jobs; j++) {
            promotedCount += lv.pieces[j] - 1;
        }
        long[] promoted = new long[promotedCount];
        int pAt = 0;
        for (int j0 = 0, j1; j0 < lv.jobs; j0 = j1) {
            j1 = groupEnd(lv, delete, j0);
            pAt = mergeGroup(lv, delete, j0, j1, promoted, pAt);
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
     * Grows, before anything on the device changes, every scratch buffer the merge launches of
     * these levels will use to the largest size any of them needs (the sizes of
     * {@link #mergeGroup}), so that a device out of memory fails here and leaves the index as it was.
     */
    private void reserveMerges(boolean delete, Iterable<Level> levels) {
        long meta = 0;
        long runs = 0;
        long results = 0;
        long gathers = 0;
        for (Level lv : levels) {
            for (int j0 = 0, j1; j0 < lv.jobs; j0 = j1) {
                j1 = groupEnd(lv, delete, j0);
                int g = j1 - j0;
                long r = 0;
                long gs = 0;
                for (int j = j0; j < j1; j++) {
                    r += lv.total(j, delete);
                    gs += lv.pieces[j] - 1;
                }
                long destN = lv.dest[j1 - 1] + lv.pieces[j1 - 1] - lv.dest[j0];
                long runN = lv.run[j1 - 1] + lv.runLen[j1 - 1] - lv.run[j0];
                meta = Math.max(meta, (long) JOB * g + 3L * g + 2 + destN + gs);
                runs = Math.max(runs, runN);
                results = Math.max(results, r);
                gathers = Math.max(gathers, gs);
            }
        }
        store.scratch(Scratch.JOBS, 4L * meta);
        store.scratch(Scratch.RUN_KEYS, 16L * runs);
        store.scratch(Scratch.MERGED_KEYS, 8L * results);
        store.scratch(Scratch.MERGED_VALUES, 8L * results);
        store.scratch(Scratch.GATHERED, 8L * gathers);
    }

    private int mergeGroup(Level lv, boolean delete, int j0, int j1, long[] promoted, int pAt) {
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
        int[] meta = new int[gatherAt + gathers];
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
        // Size every buffer before writing any: a scratch buffer that grows loses its content.
        MemorySegment dMeta = store.scratch(Scratch.JOBS, 4L * meta.length);
        MemorySegment dRuns = store.scratch(Scratch.RUN_KEYS, 16L * runN);
        MemorySegment dMergedKeys = store.scratch(Scratch.MERGED_KEYS, 8L * results);
        MemorySegment dMergedValues = store.scratch(Scratch.MERGED_VALUES, 8L * results);
        MemorySegment dGathered = store.scratch(Scratch.GATHERED, 8L * gathers);
        store.writeInts(dMeta, meta, meta.length);
        store.writeLongs(dRuns, 0, lv.runKeys, runBase, runN, delete ? null : lv.runValues, runBase, runN);
        MemorySegment keys = lv.inner ? store.innerKeys : store.leafKeys;
        int a = 0;
        if (delete) {
            cl.arg(kCompact, a++, store.leafKeys);
            cl.arg(kCompact, a++, store.leafValues);
            cl.arg(kCompact, a++, pageKeys);
            cl.arg(kCompact, a++, dMeta);
            cl.arg(kCompact, a++, jobAt);
            cl.arg(kCompact, a++, inAt);
            cl.arg(kCompact, a++, outAt);
            cl.arg(kCompact, a++, g);
            cl.arg(kCompact, a++, dRuns);
            cl.arg(kCompact, a++, dMergedKeys);
            cl.arg(kCompact, a++, dMergedValues);
            cl.arg(kCompact, a, items);
            cl.enqueue(kCompact, items);
        } else {
            cl.arg(kMerge, a++, keys);
            cl.arg(kMerge, a++, store.leafValues);
            cl.arg(kMerge, a++, store.innerKids);
            cl.arg(kMerge, a++, lv.inner ? 1 : 0);
            cl.arg(kMerge, a++, pageKeys);
            cl.arg(kMerge, a++, dMeta);
            cl.arg(kMerge, a++, jobAt);
            cl.arg(kMerge, a++, inAt);
            cl.arg(kMerge, a++, outAt);
            cl.arg(kMerge, a++, g);
            cl.arg(kMerge, a++, dRuns);
            cl.arg(kMerge, a++, runN);
            cl.arg(kMerge, a++, dMergedKeys);
            cl.arg(kMerge, a++, dMergedValues);
            cl.arg(kMerge, a, items);
            cl.enqueue(kMerge, items);
        }
        a = 0;
        cl.arg(kScatter, a++, keys);
        cl.arg(kScatter, a++, store.leafValues);
        cl.arg(kScatter, a++, store.innerKids);
        cl.arg(kScatter, a++, lv.inner ? 1 : 0);
        cl.arg(kScatter, a++, pageKeys);
        cl.arg(kScatter, a++, dMeta);
        cl.arg(kScatter, a++, jobAt);
        cl.arg(kScatter, a++, slotAt);
        cl.arg(kScatter, a++, outAt);
        cl.arg(kScatter, a++, g);
        cl.arg(kScatter, a++, destAt);
        cl.arg(kScatter, a++, dMergedKeys);
        cl.arg(kScatter, a++, dMergedValues);
        cl.arg(kScatter, a, slots);
        cl.enqueue(kScatter, slots);
        if (gathers > 0) {
            cl.arg(kGather, 0, dMergedKeys);
            cl.arg(kGather, 1, dMeta);
            cl.arg(kGather, 2, gatherAt);
            cl.arg(kGather, 3, dGathered);
            cl.arg(kGather, 4, gathers);
            cl.enqueue(kGather, gathers);
            store.readLongs(dGathered, 0, promoted, pAt, gathers);
        }
        return pAt + gathers;
    }

    /**
     * Removes keys[from, from + n) (sorted, distinct, below MAXKEY) where they are there; returns
     * how many were. {@code previous}, if given, gets the old values (n = 1 only).
     */
    private int deleteSorted(long[] keys, int from, int n, long[] previous) {
        synchronized (cl.lock()) {
            reserveBatch(n);
            store.writeLongs(store.scratch(Scratch.QUERIES, 16L * n), 0, keys, from, n, null, 0, 0);
            enqueueLookup(keys, from, n, 0);
            long[] at = found(n, previous);
            int found = 0;
            for (int i = 0; i < n; i++) {
                found += at[i] >= 0 ? 1 : 0;
            }
            if (found == 0) {
                return 0;
            }
            Level lv = new Level(false);
            lv.runKeys = new long[found];
            int r = 0;
            int prevPage = NONE;
            int j = -1;
            for (int i = 0; i < n; i++) {
                if (at[i] < 0) {
                    continue;
                }
                int p = (int) at[n + i];
                if (p != prevPage) {
                    j = lv.add(p, leafCount[p], r, i);
                    lv.dest[j] = lv.destCount;
                    lv.addDest(p);
                    prevPage = p;
                }
                lv.runLen[j]++;
                lv.runKeys[r++] = keys[from + i];
            }
            reserveMerges(true, List.of(lv));   // out of memory here: nothing has changed
            merge(lv, true);
            for (j = 0; j < lv.jobs; j++) {
                leafCount[lv.page[j]] -= lv.runLen[j];
            }
            size -= found;
            modCount++;
            stamp++;
            return found;
        }
    }

    /**
     * What the last descent found: the slot of each query ({@code < 0}: not there) at [0, n) and
     * its leaf page at [n, 2n); and, if {@code previous} is given, the values found into it. One
     * transfer.
     */
    private long[] found(int n, long[] previous) {
        MemorySegment out = store.scratch(Scratch.OUT, 24L * n);
        long[] r = new long[2 * n];
        if (previous == null) {
            store.readLongs(out, n, r, 0, 2 * n);
        } else {
            long[] all = new long[3 * n];
            store.readLongs(out, 0, all, 0, 3 * n);
            System.arraycopy(all, 0, previous, 0, n);
            System.arraycopy(all, n, r, 0, 2 * n);
        }
        return r;
    }

    private void growHost(int leaves) {
        if (leaves > leafCount.length) {
            int n = Math.max(leaves, leafCount.length + (leafCount.length >> 1) + 1);
            leafCount = Arrays.copyOf(leafCount, n);
            leafNextPage = Arrays.copyOf(leafNextPage, n);
            leafPrevPage = Arrays.copyOf(leafPrevPage, n);
        }
    }

    @Override
    public void clear() {
        open();
        synchronized (cl.lock()) {
            Image empty = Image.build(new long[0], null, pageKeys, fill, innerPagesOnDevice() >= 0 && buildsInnerPages());
            store.release();
            install(empty);
            clearUpper();
        }
        resetCommon();
        stamp++;
    }

    /**
     * For tests: device allocations that would take this tree past {@code bytes} fail as a device
     * out of memory does ({@link OpenClException}, {@code CL_MEM_OBJECT_ALLOCATION_FAILURE}).
     */
    void limitDeviceBytes(long bytes) {
        store.limitBytes(bytes);
    }

    /** Device bytes held (pages at capacity and scratch). */
    long deviceBytes() {
        return store.bytes();
    }

    /** For tests: merges and visit-all launches of at most {@code entries} entries (a page's job may exceed it alone). */
    void limitLaunches(int entries) {
        launchEntries = Math.max(1, Math.min(MAX_LAUNCH_ENTRIES, entries));
    }

    /**
     * Visit-all: the leaf pages' entries packed on the device in chain order, up to
     * {@value #MAX_LAUNCH_ENTRIES} at a launch, and brought back in two transfers, instead of two a
     * 64-entry window; {@code Long.MAX_VALUE} last, from the host.
     */
    @Override
    public void forEach(org.bforest.LongEntryConsumer action) {
        java.util.Objects.requireNonNull(action, "action");
        open();
        int expected = modCount;
        int page = 0;
        while (page != NONE) {
            int[] pages = new int[64];
            int[] starts = new int[65];
            int jobs = 0;
            int items = 0;
            // Pages in chain order until the chunk is full (a page larger than a chunk goes alone).
            while (page != NONE && (jobs == 0 || items + leafCount[page] <= launchEntries)) {
                if (leafCount[page] > 0) {
                    if (jobs == pages.length) {
                        pages = Arrays.copyOf(pages, jobs * 2);
                        starts = Arrays.copyOf(starts, jobs * 2 + 1);
                    }
                    pages[jobs] = page;
                    starts[jobs] = items;
                    items += leafCount[page];
                    jobs++;
                }
                page = leafNextPage[page];
            }
            if (items == 0) {
                continue;
            }
            long[] keys = new long[items];
            long[] values = new long[items];
            synchronized (cl.lock()) {
                int[] meta = new int[2 * jobs];
                System.arraycopy(pages, 0, meta, 0, jobs);
                System.arraycopy(starts, 0, meta, jobs, jobs);
                MemorySegment dMeta = store.scratch(Scratch.JOBS, 4L * meta.length);
                MemorySegment dKeys = store.scratch(Scratch.MERGED_KEYS, 8L * items);
                MemorySegment dValues = store.scratch(Scratch.MERGED_VALUES, 8L * items);
                store.writeInts(dMeta, meta, meta.length);
                int a = 0;
                cl.arg(kVisitAll, a++, store.leafKeys);
                cl.arg(kVisitAll, a++, store.leafValues);
                cl.arg(kVisitAll, a++, pageKeys);
                cl.arg(kVisitAll, a++, dMeta);
                cl.arg(kVisitAll, a++, 0);
                cl.arg(kVisitAll, a++, jobs);
                cl.arg(kVisitAll, a++, jobs);
                cl.arg(kVisitAll, a++, dKeys);
                cl.arg(kVisitAll, a++, dValues);
                cl.arg(kVisitAll, a, items);
                cl.enqueue(kVisitAll, items);
                store.readLongs(dKeys, 0, keys, 0, items);
                store.readLongs(dValues, 0, values, 0, items);
            }
            for (int i = 0; i < items; i++) {
                action.accept(keys[i], values[i]);
                checkUnchanged(expected);
            }
        }
        if (hasMax) {
            action.accept(MAXKEY, maxValue);
            checkUnchanged(expected);
        }
    }

    // ---- range counts: every bound searched on the device --------------------------------------

    /**
     * {@code counts[i]} = the keys in {@code [from[i], to[i])}: every bound of up to
     * {@value #MAX_BATCH} / 2 ranges searched in one lookup launch (the same descent as
     * {@link #getAll}), each bound's rank then the keys of the pages before its leaf in chain
     * order (from the host's occupancy) plus its insertion point in the leaf. No window is read,
     * however long the range.
     */
    @Override
    public void rangeCountAll(long[] from, long[] to, long[] counts) {
        BatchArguments.checkRangeCountAll(from, to, counts);
        open();
        int chunk = MAX_BATCH / 2;
        long[] bounds = new long[2 * Math.min(chunk, from.length)];
        long[] ranks = new long[bounds.length];
        for (int at = 0; at < from.length; at += chunk) {
            int m = Math.min(chunk, from.length - at);
            System.arraycopy(from, at, bounds, 0, m);
            System.arraycopy(to, at, bounds, m, m);
            ranks(bounds, 2 * m, ranks);
            for (int i = 0; i < m; i++) {
                counts[at + i] = from[at + i] < to[at + i] ? ranks[m + i] - ranks[i] : 0;
            }
        }
    }

    /** One range of the shared layer's {@code rangeCount}: both bounds in one launch. */
    @Override
    protected long countInLeaves(long from, long to) {
        open();
        long[] ranks = new long[2];
        ranks(new long[] {from, to}, 2, ranks);
        return ranks[1] - ranks[0];
    }

    /** {@code ranks[i]} = how many keys of the leaves are below {@code bounds[i]}, for i < n. */
    private void ranks(long[] bounds, int n, long[] ranks) {
        if (reorders(n)) {
            int[] perm = QueryOrders.permutation(bounds, 0, n, search.order(), 2 * leafPages);
            long[] q = new long[n];
            for (int i = 0; i < n; i++) {
                q[i] = bounds[perm[i]];
            }
            long[] r = new long[n];
            searchRanks(q, n, r);
            for (int i = 0; i < n; i++) {
                ranks[perm[i]] = r[i];
            }
        } else {
            searchRanks(bounds, n, ranks);
        }
    }

    /** {@link #ranks} of bounds in the order given. */
    private void searchRanks(long[] bounds, int n, long[] ranks) {
        synchronized (cl.lock()) {
            reserveBatch(n);
            // Long.MAX_VALUE is searched like any key (the padding answers it); its rank is every key.
            store.writeLongs(store.scratch(Scratch.QUERIES, 16L * n), 0, bounds, 0, n, null, 0, 0);
            enqueueLookup(bounds, 0, n, 0);
            long[] at = found(n, null);
            long[] before = chainBefore();
            long all = size - (hasMax ? 1 : 0);
            for (int i = 0; i < n; i++) {
                long slot = at[i];
                ranks[i] = bounds[i] == MAXKEY ? all : before[(int) at[n + i]] + (slot >= 0 ? slot : -slot - 1);
            }
        }
    }

    /** Keys in the leaf pages before each page in chain order; recomputed (one pass over the chain) after a write. */
    private long[] chainBefore = new long[0];
    private long chainBeforeStamp = -1;

    private long[] chainBefore() {
        long s = stamp;
        if (chainBeforeStamp != s || chainBefore.length < leafPages) {
            if (chainBefore.length < leafPages) {
                chainBefore = new long[leafCount.length];
            }
            long sum = 0;
            for (int p = 0; p != NONE; p = leafNextPage[p]) {   // page 0 is always first: a split keeps the left piece
                chainBefore[p] = sum;
                sum += leafCount[p];
            }
            chainBeforeStamp = s;
        }
        return chainBefore;
    }

    @Override
    public long size() {
        open();
        return size;
    }

    @Override
    public long memoryBytes() {
        open();
        return store.bytes() + 12L * leafCount.length + upperHostBytes() + cl.hostBytes() + 256;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        synchronized (cl.lock()) {
            closed = true;
            stamp++;
            cleanable.clean();
        }
    }

    @Override
    protected String describeShape() {
        return closed ? "closed" : "height=" + height() + ", leafPages=" + leafPages + ", " + describeUpper()
                + "pageKeys=" + pageKeys + ", device=" + cl.device().name();
    }

    /** The levels above the leaves in a few words, ending in ", " (or empty). */
    protected abstract String describeUpper();

    // ---- the shared layer's SPI: leaves are 64-slot windows of pages ---------------------------

    @Override
    protected int findLeaf(long key) {
        open();
        int page;
        int slot;
        synchronized (cl.lock()) {
            reserveBatch(1);
            long[] q = {key};
            store.writeLongs(store.scratch(Scratch.QUERIES, 16), 0, q, 0, 1, null, 0, 0);
            enqueueLookup(q, 0, 1, 0);
            long[] at = found(1, null);
            slot = (int) at[0];
            page = (int) at[1];
        }
        // The window of the last key <= key (the first window if there is none).
        int last = slot >= 0 ? slot : -slot - 2;
        return page * windows + Math.max(0, last) / WINDOW;
    }

    /**
     * The SPI's leaves are 64-slot windows of a page; the chain this tree keeps is of pages
     * ({@code leafNextPage}/{@code leafPrevPage}), so the window-level chain methods are not used.
     */
    @Override
    protected void setLeafNext(int leaf, int next) {
        throw new UnsupportedOperationException("the paged trees chain pages, not windows");
    }

    @Override
    protected void setLeafPrev(int leaf, int prev) {
        throw new UnsupportedOperationException("the paged trees chain pages, not windows");
    }

    @Override
    protected int firstLeaf() {
        open();
        return 0;
    }

    @Override
    protected int lastLeaf() {
        open();
        return lastPage * windows + windows - 1;
    }

    @Override
    protected int leafNext(int leaf) {
        int w = leaf % windows;
        if (w + 1 < windows) {
            return leaf + 1;
        }
        int next = leafNextPage[leaf / windows];
        return next == NONE ? NONE : next * windows;
    }

    @Override
    protected int leafPrev(int leaf) {
        int w = leaf % windows;
        if (w > 0) {
            return leaf - 1;
        }
        int prev = leafPrevPage[leaf / windows];
        return prev == NONE ? NONE : prev * windows + windows - 1;
    }

    /** Used slots of a window: the first ones, as a page is packed from its start. */
    private int windowCount(int leaf) {
        int used = leafCount[leaf / windows] - leaf % windows * WINDOW;
        return Math.max(0, Math.min(WINDOW, used));
    }

    @Override
    protected long leafBitmap(int leaf) {
        int n = windowCount(leaf);
        return n == WINDOW ? -1L : (1L << n) - 1;
    }

    @Override
    protected int leafSuccGE(int leaf, long key) {
        return succ(window(leaf), key, false);
    }

    @Override
    protected int leafSuccGT(int leaf, long key) {
        return succ(window(leaf), key, true);
    }

    private static int succ(Window w, long key, boolean orEqual) {
        int lo = 0;
        int hi = w.n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            long k = w.keys[mid];
            if (k < key || orEqual && k == key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    @Override
    protected long leafKey(int leaf, int slot) {
        return window(leaf).keys[slot];
    }

    @Override
    protected long leafValue(int leaf, int slot) {
        return window(leaf).values[slot];
    }


    /** One thread's copy of the window it read last: reads of an unchanged tree share nothing. */
    private static final class Window {
        long tree = -1;
        int leaf = -1;
        long stamp;
        int n;
        final long[] keys = new long[WINDOW];
        final long[] values = new long[WINDOW];
    }

    private static final ThreadLocal<Window> WINDOWS = ThreadLocal.withInitial(Window::new);

    private Window window(int leaf) {
        open();
        Window w = WINDOWS.get();
        long s = stamp;
        if (w.tree != id || w.leaf != leaf || w.stamp != s) {
            int n = windowCount(leaf);
            long at = (long) (leaf / windows) * pageKeys + (long) (leaf % windows) * WINDOW;
            synchronized (cl.lock()) {
                store.readLongs(store.leafKeys, at, w.keys, 0, n);
                store.readLongs(store.leafValues, at, w.values, 0, n);
            }
            w.tree = id;
            w.leaf = leaf;
            w.stamp = s;
            w.n = n;
        }
        return w;
    }

    @Override
    protected void checkStructure() {
        open();
        Image image;
        synchronized (cl.lock()) {
            image = Image.read(store, leafPages, Math.max(0, innerPagesOnDevice()));
        }
        Checker checker = new Checker(this::fail, image, pageKeys, leafCount);
        checkUpper(checker, image);
        checker.finish(leafNextPage, lastPage, size - (hasMax ? 1 : 0));
    }
}
