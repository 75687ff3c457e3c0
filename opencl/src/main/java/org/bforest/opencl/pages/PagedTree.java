package org.bforest.opencl.pages;

import java.util.ArrayList;
import java.util.List;
import org.bforest.opencl.DeviceFunction;
import org.bforest.opencl.DeviceIndex;
import org.bforest.opencl.DeviceSearch;
import org.bforest.opencl.DeviceTimes;
import org.bforest.opencl.OpenClException;
import org.bforest.opencl.cl.ClBuffer;
import org.bforest.opencl.cl.ClDevice;
import org.bforest.opencl.cl.ClScope;
import org.bforest.opencl.cl.DeviceMemory;
import org.bforest.opencl.cl.PageKernels;
import org.bforest.opencl.pages.PageStore.Scratch;
import org.bforest.util.BatchArguments;

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
 * separators go to the levels above. A delete batch compacts its leaves in one launch; the pages
 * it empties leave the chain and the levels above ({@link #planRemovals}), and their ids go back
 * to the store's free list for later splits.
 *
 * <h2>On the host</h2>
 * The host keeps what it needs to drive the device, as Kaczmarek's paper has it ("navigation and
 * control of processing in the whole tree should be on the side of the host"): each page's
 * occupancy and the leaves' chain; with them it plans a batch's every split, and makes room on the
 * device, before the device changes anything: a device out of memory leaves the index as it was.
 * {@code Long.MAX_VALUE} is kept on the host, out of band, as in every bforest tree. A batch's
 * plan is {@link BatchPlan}'s (its keys sorted and grouped into {@link Level} jobs, the splits' new
 * pages), its launches {@link LevelMerge}'s (groups, tables, scratch reserved first) and
 * {@link VisitChunk}'s; the kernels are set and launched through {@link PageKernels}. The passes
 * over every entry on the device ({@link DeviceIndex}) are {@link DeviceVisit}'s.
 *
 * <h2>The shared layer</h2>
 * Everything but the batched paths comes from {@link org.bforest.spi.LeafChainIndex} through
 * {@link PageWindows}: its leaves are 64-slot windows of a page (a page of 2048 keys is 32 of
 * them), read from the device a window at a time into a per-thread cache that a write
 * invalidates; so cursors, ranges and neighbour queries cost a descent and then a transfer per 64
 * entries.
 *
 * <h2>Failures</h2>
 * Every buffer a batch will use is allocated and touched, and the device waited for, before the
 * batch changes anything ({@link #commit}): a device out of memory, or any failure up to there,
 * leaves the tree as it was. A failure after that point leaves the tree {@linkplain #failed
 * failed}: every later call throws {@link IllegalStateException} naming the cause, never an
 * answer from a half-changed tree. Every write batch ends with a blocking call, so that its
 * failure is its own and not the next caller's.
 *
 * <h2>Threads</h2>
 * Every call that uses the tree's buffers holds the tree's lock ({@link PageStore#lock}): reads
 * from many threads are safe (they take turns); writes need the caller's synchronisation, as for
 * every bforest structure. The device's queue is locked a call at a time, so trees on one device
 * overlap their host work. The pages a delete empties are freed
 * and handed out again, lowest id first, and the store cuts its buffers down when the pages in use
 * fall to a quarter of them; {@link #clear()} and {@link #close()} give everything back.
 */
public abstract class PagedTree extends PageWindows implements DeviceIndex {
    /** Queries handed to the device at once: bounds the per-batch device buffers (about 40 bytes a query). */
    public static final int MAX_BATCH = 1 << 20;
    /**
     * Entries one merge launch produces at most, and one visit-all launch packs: their scratch is 16
     * bytes an entry and is kept for the next batch, so this bounds it (32 MB). 2M work-items a
     * launch fill any GPU; a batch that merges more (1M random inserts into 10M keys rewrite all
     * 11M entries) takes a few launches.
     */
    static final int MAX_LAUNCH_ENTRIES = 1 << 21;

    protected final double fill;
    /** How look-up batches are ordered and searched on the device. */
    protected final DeviceSearch search;
    private final java.lang.ref.Cleaner.Cleanable cleanable;
    /** The kernels of kernels/gpu_btree.cl, this tree's own objects (their arguments are per kernel object). */
    protected final PageKernels kernels;
    /** The merge, compact, scatter and gather launches of a batch's levels. */
    private final LevelMerge merges;
    /** The device passes over every entry ({@link DeviceIndex}). */
    private final DeviceVisit visit;
    /** The keys before each leaf page in chain order, for range counts. */
    private final ChainRanks chainRanks = new ChainRanks();
    /** Where the batch calls' time goes. */
    private final BatchClock clock;
    /** The look-up batches of {@link #getAll}: ordered, maybe pipelined, answers scattered back. */
    private final LookUpBatches lookUps;
    private final BatchPlan plan = new BatchPlan(MAX_BATCH);   // update batches' host plan, arrays kept
    private int maxBatch = MAX_BATCH;   // distinct keys a write call's chunk holds at most (tests lower it)

    /** {@code what}: the structure's name in messages, e.g. "GPU B+-tree". */
    protected PagedTree(String name, String what, ClScope cl, int pageKeys, double fill, DeviceSearch search) {
        super(name, what, cl, pageKeys);
        this.search = java.util.Objects.requireNonNull(search, "search");
        if (search.group() > 1 && search.group() > cl.device().maxWorkGroupSize()) {
            throw new IllegalArgumentException("a search group of " + search.group() + " work-items is larger than "
                    + cl.device().name() + "'s work-groups (" + cl.device().maxWorkGroupSize() + ")");
        }
        this.fill = fill;
        this.kernels = new PageKernels(cl);
        this.merges = new LevelMerge(store, kernels);
        this.clock = new BatchClock(cl);
        this.lookUps = new LookUpBatches(this, cl, store, search);
        this.visit = new DeviceVisit(cl, store);
        // The safety net: an index nobody closed gives its device memory back when collected.
        // The action holds the scope, never the tree.
        cleanable = DeviceMemory.whenUnreachable(this, cl::close);
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
        Image.check(keys, values, pageKeys, fill);
        Image image = Image.build(keys, values, pageKeys, fill, innerPages);
        return DeviceMemory.retryOnce(() -> {   // a full device: once more if indexes nobody closed gave memory back
            ClScope cl = new ClScope(device);
            try {
                return maker.make(cl, image);
            } catch (RuntimeException e) {
                cl.close();
                throw e;
            }
        }, () -> true);
    }

    /**
     * Puts a host image's leaves (and, if it has them, inner pages) on the device and takes the
     * leaves' shape as the host state; the subclass takes the rest.
     */
    protected void install(Image b) {
        store.upload(b.leafKeys, b.leafValues, b.leafPages, b.innerKeys, b.innerKids, b.innerPages);
        chain.install(b.leafCounts, b.leafPages);
        size = b.size;
        hasMax = b.hasMax;
        maxValue = b.maxValue;
    }

    public int pageKeys() {
        return pageKeys;
    }

    /** Leaf pages in the tree (freed ones not counted). */
    public int leafPages() {
        return chain.pages;
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

    /**
     * The point of no return of a write batch: waits for the fills that touched the buffers it grew
     * ({@link ClScope#settle}), so that a lazy driver says "out of memory" while the tree is whole.
     */
    private void commit() {
        cl.settle();
    }

    /**
     * A write batch's changes, after its {@link #commit}: a failure marks the tree {@link #failed}.
     * No pinned host memory is allocated meanwhile ({@link ClScope#seal}): the batch reserved it.
     */
    private void changing(Runnable changes) {
        cl.seal();
        try {
            changes.run();
        } catch (RuntimeException | Error e) {
            stamp++;
            failed(e);
            throw e;
        } finally {
            cl.unseal();
        }
    }

    @Override
    public long deviceBytes() {
        open();
        return store.bytes();
    }

    @Override
    public DeviceTimes deviceTimes() {
        return clock.times();
    }

    @Override
    public void resetDeviceTimes() {
        clock.reset();
    }

    // ---- the descent: the subclass's ----------------------------------------------------------

    /**
     * Enqueues the look-up of the {@code n} queries in the QUERIES scratch: when it has run, OUT
     * holds n values ({@code absent} where a key is not there), n slots ({@code < 0}: not there,
     * -(insertion point) - 1) and n leaf pages (and a device descent its path); unless {@code full},
     * the values alone, value i at the int at index {@code toAt + i} of QUERIES if {@code toAt >= 0}.
     * Called under the tree's lock, by {@link #sendQueries}, after {@link #prepareDescent} of the same keys.
     */
    protected abstract void enqueueLookup(int n, long absent, boolean full, int toAt);

    /**
     * Sizes the scratch the descent needs beyond QUERIES and OUT and does its host part, before the
     * batch reaches the device (whose work competes with the host's on a CPU device); the keys
     * come sorted or bucketed by leading bits if {@code nearlySorted}, for a host descent to exploit.
     */
    protected abstract void prepareDescent(long[] keys, int from, int n, boolean nearlySorted);

    /**
     * The leaf page of each key of the last {@link #prepareDescent} where the host descends to the
     * leaves (they go to the PATH scratch before {@link #enqueueLookup}), or null.
     */
    protected int[] descentLeaves() {
        return null;
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

    /** Forgets everything above the leaves of a cleared or emptied tree (one empty leaf, page 0). */
    protected abstract void clearUpper();

    /**
     * Plans taking the leaf pages of {@code emptied} (jobs of {@code leaves}, a delete's, in key
     * order) out of the levels above, before the device changes anything; {@code n} is the
     * batch's size (the descent's path rows, for a device descent). Not called when the batch
     * empties every leaf ({@link #clearUpper} then).
     */
    protected abstract UpperRemoval planRemovals(Level leaves, int[] emptied, int n);

    /** Checks the levels above the leaves, giving each leaf with its key range to {@code checker}. */
    protected abstract void checkUpper(Checker checker, Image image);

    /** Inner page ids to read back for the invariant check (0 where the levels above live on the host). */
    protected abstract int innerPagesOnDevice();

    /** Whether the levels above are inner pages on the device (which a bulk load's image builds). */
    protected abstract boolean buildsInnerPages();

    /** Bytes the levels above hold on the host. */
    protected abstract long upperHostBytes();

    /**
     * Sends {@code keys[from, from + n)} (and, for puts, {@code vals} at the same indices after
     * them) to the device and enqueues their look-up, under the tree's lock; every per-batch
     * buffer is sized for {@code n} queries first, so that none moves once written. Unless
     * {@code full}, only values come back, in the keys' order or, with {@code to} (in place of
     * {@code vals}), value i at {@code to[i]}; {@code nearlySorted} as {@link #prepareDescent} says.
     */
    void sendQueries(long[] keys, int from, int n, long[] vals, int[] to, long absent, boolean full,
            boolean nearlySorted) {
        ClBuffer queries = store.scratch(Scratch.QUERIES, 16L * n);   // prepareDescent sizes other scratch
        store.scratch(Scratch.OUT, PageStore.outBytes(n));
        prepareDescent(keys, from, n, nearlySorted);
        int[] leaves = descentLeaves();
        if (leaves != null) {
            store.writeInts(store.scratch(Scratch.PATH, 4L * n), leaves, n);
        }
        store.writeLongs(queries, 0, keys, from, n, vals, from, n);
        if (to != null) {
            store.writeInts(queries, 2L * n, to, n);   // where a put's values go
        }
        enqueueLookup(n, absent, full, to == null ? -1 : 2 * n);
    }

    // ---- reads ----------------------------------------------------------------------------------

    @Override
    public long get(long key, long absent) {
        open();
        if (key == MAXKEY) {
            return getMax(absent);
        }
        long[] out = new long[1];
        lookUp(new long[] {key}, 0, 1, out, absent);
        return out[0];
    }

    @Override
    public boolean containsKey(long key) {
        open();
        if (key == MAXKEY) {
            return hasMax;
        }
        synchronized (store.lock) {
            sendQueries(new long[] {key}, 0, 1, null, null, 0, true, false);
            return store.slots(1)[0] >= 0;   // its slot: < 0 where the key is not there
        }
    }

    /**
     * The values of {@code keys} into {@code values}, {@code absent} where a key is not there:
     * batches of up to {@value #MAX_BATCH} queries, each one host-driven descent on the device.
     */
    @Override
    public void getAll(long[] keys, long[] values, long absent) {
        BatchArguments.checkGetAll(keys, values);
        open();
        long t0 = clock.start();
        boolean maybeMax = lookUps.getAll(keys, values, absent, chain.pages);   // a key may be MAXKEY, answered here
        for (int i = 0; maybeMax && i < keys.length; i++) {
            if (keys[i] == MAXKEY) {
                values[i] = getMax(absent);
            }
        }
        clock.stop(t0);
    }

    /** Looks up keys[from, from + n) into values[from, ...). */
    void lookUp(long[] keys, int from, int n, long[] values, long absent) {
        synchronized (store.lock) {
            sendQueries(keys, from, n, null, null, absent, false, false);
            store.readLongs(store.scratch(Scratch.OUT, PageStore.outBytes(n)), 0, values, from, n);
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
        long t0 = clock.start();
        int u = plan.distinctSorted(keys, values);
        long[] sorted = plan.keys();
        long[] vals = plan.values();
        int inLeaves = BatchPlan.inLeaves(sorted, u);
        WriteChunks.run("putAll", "in the tree", sorted, inLeaves, u, maxBatch, this::hasFailed,
                (from, n) -> upsertSorted(sorted, vals, from, n, null));
        if (inLeaves < u) {
            putMax(vals[u - 1]);
        }
        clock.stop(t0);
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
        long t0 = clock.start();
        int u = plan.distinctSorted(keys, null);
        long[] sorted = plan.keys();
        int inLeaves = BatchPlan.inLeaves(sorted, u);
        long removed = WriteChunks.run("removeAll", "removed", sorted, inLeaves, u, maxBatch, this::hasFailed,
                (from, n) -> deleteSorted(sorted, from, n, null));
        if (inLeaves < u && hasMax) {
            removeMax();
            removed++;
        }
        clock.stop(t0);
        return removed;
    }

    /**
     * Inserts or replaces keys[from, from + n) (sorted, distinct, below MAXKEY) with their values;
     * returns how many were new. {@code previous}, if given, gets the old values (n = 1 only).
     */
    private int upsertSorted(long[] keys, long[] vals, int from, int n, long[] previous) {
        synchronized (store.lock) {
            sendQueries(keys, from, n, vals, null, 0, true, true);
            int[] found = store.found(n, previous, plan.found(n));
            int fresh = BatchPlan.missing(found, n);
            if (fresh == 0) {
                commit();
                changing(() -> {
                    replace(n);
                    cl.finish();
                });
                stamp++;
                return 0;
            }

            // The plan: the leaves' jobs, and every level their splits reach, with new page ids
            // (freed ones first).
            Level leaves = plan.inserts(found, n, keys, vals, from, fresh, chain.count);
            leaves.assignPieces(pageKeys, store.leafIds);
            UpperPlan upper = null;
            try {
                upper = planUpper(leaves, n);
                // Room first, pages and every launch's scratch: if the device is out of memory,
                // nothing has changed yet (the plan's page ids go back).
                store.ensure(store.leafIds.top(), store.innerIds.top());
                List<Level> levels = new ArrayList<>(upper.levels());
                levels.add(leaves);
                merges.reserve(false, levels, 0);
                commit();
            } catch (RuntimeException e) {
                if (upper != null) {
                    upper.abandon();
                }
                leaves.releaseNew(store.leafIds);
                throw e;
            }
            UpperPlan planned = upper;
            changing(() -> {
                chain.grow(store.leafIds.top());
                if (fresh < n) {
                    replace(n);   // else no key was there: no launch
                }
                long[] separators = merges.run(leaves, false);
                applyUpper(planned, leaves, separators, leaves.promotedKids());
                cl.finish();
            });

            // The host state follows the device.
            chain.link(leaves);
            size += fresh;
            modCount++;
            stamp++;
            return fresh;
        }
    }

    /** Replaces, on the device, the values of the batch's keys that were there. */
    private void replace(int n) {
        kernels.replace(store.leafValues, pageKeys, store.scratch(Scratch.OUT, PageStore.outBytes(n)),
                store.scratch(Scratch.QUERIES, 16L * n), n);
    }

    /**
     * Runs a level's jobs on the device ({@link LevelMerge#run}): the first key of every new
     * page, in job order, comes back (the separators the level above inserts).
     */
    protected final long[] merge(Level lv, boolean delete) {
        return merges.run(lv, delete);
    }

    /**
     * Removes keys[from, from + n) (sorted, distinct, below MAXKEY) where they are there; returns
     * how many were. {@code previous}, if given, gets the old values (n = 1 only). The leaves
     * lose their keys in one compact launch; the pages that empty leave the chain, their ids go
     * back to the free list, and the levels above drop them ({@link #planRemovals}, planned
     * before the device changes anything, as an insert's splits are); a batch that takes every
     * key leaves one empty page and nothing above it.
     */
    private int deleteSorted(long[] keys, int from, int n, long[] previous) {
        synchronized (store.lock) {
            sendQueries(keys, from, n, null, null, 0, true, true);
            int[] at = store.found(n, previous, plan.found(n));
            int found = n - BatchPlan.missing(at, n);
            if (found == 0) {
                return 0;
            }
            if (found == size - (hasMax ? 1 : 0)) {
                cl.reserveHost(2 * ClScope.staged(8L * pageKeys), 0);   // the empty leaf's two writes
                commit();
                changing(() -> {
                    becomeEmpty();
                    cl.finish();
                });
            } else {
                Level lv = plan.deletes(at, n, keys, from, found, chain.count);
                int[] emptied = BatchPlan.emptied(lv);
                UpperRemoval upper = emptied.length == 0 ? null : planRemovals(lv, emptied, n);
                merges.reserve(true, List.of(lv), upper == null ? 0 : upper.stagedBytes());   // nothing changed yet
                commit();
                changing(() -> {
                    merges.run(lv, true);
                    chain.drop(lv);
                    for (int j : emptied) {
                        chain.unlink(lv.page[j]);
                        store.leafIds.release(lv.page[j]);
                    }
                    if (upper != null) {
                        upper.apply();
                        store.trim();
                        chain.trim(store.leafIds.top());
                    }
                    cl.finish();
                });
            }
            size -= found;
            modCount++;
            stamp++;
            return found;
        }
    }

    /**
     * Every key of the leaves is going: the tree becomes the one empty leaf page 0 (written
     * here: it may have been free), every other page is freed and the buffers cut down.
     */
    private void becomeEmpty() {
        store.oneEmptyLeaf();
        chain.single(0);
        clearUpper();
        chain.trim(1);
    }

    @Override
    public void clear() {
        open();
        synchronized (store.lock) {
            Image empty = Image.build(new long[0], null, pageKeys, fill, innerPagesOnDevice() >= 0 && buildsInnerPages());
            try {
                store.release();
                plan.release();
                merges.release();
                install(empty);
                clearUpper();
            } catch (RuntimeException | Error e) {
                stamp++;
                failed(e);
                throw e;
            }
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

    /**
     * For tests: the {@code n}-th device call of this tree from now fails with {@code status}
     * (see {@link ClScope#failAt}); returns the calls left before it (0: it has happened).
     */
    long failAt(long n, int status) {
        cl.failAt(n, status);
        return cl.faultIn();
    }

    /** For tests: write calls in chunks of at most {@code keys} distinct keys ({@link WriteChunks}). */
    void limitBatches(int keys) {
        maxBatch = Math.max(1, Math.min(MAX_BATCH, keys));
    }

    /** For tests: the look-up batches' machinery ({@link LookUpBatches}), whatever the device's defaults. */
    LookUpBatches lookUps() {
        return lookUps;
    }

    /** Device bytes of the pages alone, at capacity (no scratch). */
    long pageBytes() {
        return store.pageBytes();
    }

    /** For tests: merges and visit-all launches of at most {@code entries} entries, device passes of entries / 64 pages. */
    void limitLaunches(int entries) {
        merges.launchEntries = Math.max(1, Math.min(MAX_LAUNCH_ENTRIES, entries));
        visit.launchPages = Math.max(1, Math.min(DeviceVisit.LAUNCH_PAGES, entries / 64));
    }

    /** Visit-all ({@link VisitChunk#visit}: the entries packed on the device); {@code Long.MAX_VALUE} last, from the host. */
    @Override
    public void forEach(org.bforest.LongEntryConsumer action) {
        java.util.Objects.requireNonNull(action, "action");
        open();
        int expected = modCount;
        VisitChunk.visit(chain, merges.launchEntries, store, kernels, store.lock, action, () -> checkUnchanged(expected));
        if (hasMax) {
            action.accept(MAXKEY, maxValue);
            checkUnchanged(expected);
        }
    }

    // ---- DeviceIndex: every entry in one pass on the device (DeviceVisit) ---------------------

    @Override
    public long mapReduce(DeviceFunction f) {
        open();
        synchronized (store.lock) {
            return visit.reduce(f, false, chain, hasMax, maxValue);
        }
    }

    @Override
    public long countIf(DeviceFunction predicate) {
        open();
        synchronized (store.lock) {
            return visit.reduce(predicate, true, chain, hasMax, maxValue);
        }
    }

    /** A write: bumps what every write bumps (stamp and modCount), so that caches and visits see it. */
    @Override
    public void transformValues(DeviceFunction f) {
        open();
        synchronized (store.lock) {
            long max = visit.prepareTransform(f, chain, hasMax, maxValue);   // a failure here changes nothing
            try {
                visit.transform(f, chain);
            } catch (RuntimeException | Error e) {
                stamp++;
                failed(e);
                throw e;
            }
            maxValue = max;
            modCount++;
            stamp++;
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
        long t0 = clock.start();
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
        clock.stop(t0);
    }

    /** One range of the shared layer's {@code rangeCount}: both bounds in one launch. */
    @Override
    protected long countInLeaves(long from, long to) {
        open();
        long[] ranks = new long[2];
        ranks(new long[] {from, to}, 2, ranks);
        return ranks[1] - ranks[0];
    }

    /** {@code ranks[i]} = how many keys of the leaves are below {@code bounds[i]}, for {@code i < n}. */
    private void ranks(long[] bounds, int n, long[] ranks) {
        if (lookUps.reorders(n)) {
            int[] perm = QueryOrders.permutation(bounds, 0, n, search.order(), 2 * chain.pages);
            long[] q = QueryOrders.permuted(bounds, 0, perm, n);
            long[] r = new long[n];
            searchRanks(q, n, r, true);
            QueryOrders.unpermute(r, perm, n, ranks, 0);
        } else {
            searchRanks(bounds, n, ranks, false);
        }
    }

    /** {@link #ranks} of bounds in the order given. */
    private void searchRanks(long[] bounds, int n, long[] ranks, boolean nearlySorted) {
        synchronized (store.lock) {
            // Long.MAX_VALUE is searched like any key (the padding answers it); its rank is every key.
            sendQueries(bounds, 0, n, null, null, 0, true, nearlySorted);
            long[] at = store.slots(n);
            chainRanks.ranks(bounds, n, at, size - (hasMax ? 1 : 0), ranks, stamp, chain);
        }
    }

    @Override
    public long size() {
        open();
        return size;
    }

    @Override
    public long memoryBytes() {
        open();
        return store.bytes() + chain.bytes() + store.leafIds.bytes() + store.innerIds.bytes() + upperHostBytes()
                + hostScratchBytes() + 256;
    }

    /** Host bytes kept from batch to batch for transfers and plans (a part of {@link #memoryBytes}). */
    long hostScratchBytes() {
        return cl.hostBytes() + lookUps.hostBytes() + plan.bytes() + merges.hostBytes();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        synchronized (store.lock) {
            closed = true;
            stamp++;
            cleanable.clean();
        }
    }

    @Override
    protected String describeShape() {
        return closed ? "closed" : "height=" + height() + ", leafPages=" + chain.pages + ", " + describeUpper()
                + "pageKeys=" + pageKeys + ", device=" + cl.device().name();
    }

    /** The levels above the leaves in a few words, ending in ", " (or empty). */
    protected abstract String describeUpper();

    // ---- the shared layer's SPI: findLeaf (the rest is PageWindows') --------------------------

    @Override
    protected int findLeaf(long key) {
        open();
        int page;
        int slot;
        synchronized (store.lock) {
            sendQueries(new long[] {key}, 0, 1, null, null, 0, true, true);
            long[] at = store.slots(1);
            slot = (int) at[0];
            page = (int) at[1];
        }
        // The window of the last key <= key (the first window if there is none).
        int last = slot >= 0 ? slot : -slot - 2;
        return page * windows + Math.max(0, last) / Window.SLOTS;
    }

    @Override
    protected void checkStructure() {
        open();
        Image image;
        synchronized (store.lock) {
            image = Image.read(store, store.leafIds.top(), Math.max(0, innerPagesOnDevice()));
        }
        Checker checker = new Checker(this::fail, image, pageKeys, chain.count, store.leafIds);
        checkUpper(checker, image);
        checker.finish(chain, size - (hasMax ? 1 : 0));
    }
}
