package org.bforest.opencl.hybrid;

import org.bforest.bstree.SharedInnerLevels;
import org.bforest.opencl.DeviceSearch;
import org.bforest.opencl.OpenClException;
import org.bforest.opencl.cl.ClDevice;
import org.bforest.opencl.cl.ClBuffer;
import org.bforest.opencl.cl.ClScope;
import org.bforest.opencl.cl.PageKernels;
import org.bforest.opencl.pages.Checker;
import org.bforest.opencl.pages.HostWork;
import org.bforest.opencl.pages.Image;
import org.bforest.opencl.pages.Level;
import org.bforest.opencl.pages.PageStore;
import org.bforest.opencl.pages.PageStore.Scratch;
import org.bforest.opencl.pages.PagedTree;
import org.bforest.opencl.pages.UpperPlan;
import org.bforest.opencl.pages.UpperRemoval;

/**
 * The hybrid tree that Kaczmarek's paper proposes as future work: the upper levels on the CPU,
 * the leaves on the device. The upper levels are the BS-tree's own inner levels
 * ({@link SharedInnerLevels}: gapped 16-key nodes, SIMD node search, the same code, not a copy),
 * over the leaf pages of {@link PagedTree}. A batch is descended on the CPU, all its keys level by
 * level in lock-step, and the leaf ids go to the device with the keys; one kernel launch searches
 * (and an insert batch's merge launch fills and splits) the leaves. A leaf split inserts its new
 * pages' separators into the inner levels on the CPU, as the BS-tree does for its own leaves; a
 * leaf page that a delete empties comes out of them as an emptied BS-tree leaf does (its separator
 * deleted, an inner node left with no child removed, a root left with one child replaced by it),
 * and its id goes back to the store's free list.
 */
final class HybridTree extends PagedTree {
    private final PageKernels.LeafLookup lookupAt;
    /** The leaf page of each query of a look-up batch: the CPU descent's output, the device's input. */
    private int[] leaves = new int[0];
    private SharedInnerLevels inner;

    private HybridTree(ClScope cl, int pageKeys, double fill, DeviceSearch search, Image image) {
        super("HybridTree", "hybrid tree", cl, pageKeys, fill, search);
        lookupAt = kernels.leafLookup(search.group(), search.lanes(), pageKeys);
        install(image);
    }

    /**
     * A tree of {@code keys} (sorted, distinct; {@code values} null: all 0): leaf pages of
     * {@code pageKeys} on {@code device} filled to {@code fill}, inner levels on the CPU.
     *
     * @throws IllegalArgumentException on bad keys, a page size below 2 or a fill outside (0, 1]
     * @throws OpenClException          when the device refuses (out of memory, a kernel that does not build)
     */
    static HybridTree bulkLoad(ClDevice device, long[] keys, long[] values, int pageKeys, double fill) {
        return bulkLoad(device, keys, values, pageKeys, fill, DeviceSearch.DEFAULT);
    }

    /** The same, searching batches as {@code search} says. */
    static HybridTree bulkLoad(ClDevice device, long[] keys, long[] values, int pageKeys, double fill, DeviceSearch search) {
        return load(device, keys, values, pageKeys, fill, false,
                (cl, image) -> new HybridTree(cl, pageKeys, fill, search, image));
    }

    @Override
    protected void install(Image b) {
        super.install(b);
        inner = new SharedInnerLevels("HybridTree", 0);
        if (b.leafPages > 1) {
            int[] ids = new int[b.leafPages];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = i;
            }
            inner.build(ids, b.leafMins.clone(), b.leafPages, fill);
        }
    }

    @Override
    public int height() {
        return inner.height();
    }

    // ---- the descent: the CPU's inner levels, the device's leaves -------------------------------

    @Override
    protected void prepareDescent(long[] keys, int from, int n, boolean nearlySorted) {
        // The whole batch through the inner levels, before the device has anything to do, into
        // scratch kept from batch to batch (under the tree's lock; sent by the tree with the
        // queries, see descentLeaves), in parts over the host's threads (reads of levels nobody
        // writes: the tree's lock is held). Keys that come nearly sorted, many to a leaf, take a
        // descent per leaf they reach, each key only a check against the last leaves' ranges.
        // Others all levels in lock-step (the BS-tree's getAll descent): over many more leaves than a
        // look-up order has buckets (2^16), a bucket's keys alternate between several leaves and
        // most would miss both ranges (a scratch measurement on one thread: a leaf at a time 4x
        // faster at 205 keys a leaf, even at 6.4, the lock-step 2.2x faster at 1.6).
        store.scratch(Scratch.PATH, 4L * n);
        if (leaves.length < n) {
            leaves = new int[n];
        }
        SharedInnerLevels levels = inner;
        int[] out = leaves;
        if (nearlySorted && n >= 8L * leafPages()) {
            HostWork.split(n, (part, lo, hi) -> levels.findLeavesNear(keys, from + lo, hi - lo, out, lo));
        } else {
            HostWork.split(n, (part, lo, hi) -> levels.findLeaves(keys, from + lo, hi - lo, out, lo));
        }
    }

    @Override
    protected int[] descentLeaves() {
        return leaves;
    }

    @Override
    protected void enqueueLookup(int n, long absent, boolean full, int toAt) {
        // At the leaves prepareDescent found for the batch, in PATH by now.
        ClBuffer pages = store.scratch(Scratch.PATH, 4L * n);
        lookupAt.enqueue(store.leafKeys, store.leafValues, pageKeys, pages, store.scratch(Scratch.QUERIES, 16L * n),
                store.scratch(Scratch.OUT, PageStore.outBytes(n)), absent, n, full, toAt);
    }

    @Override
    protected int descentLevels() {
        // The CPU's descent is cheap; the leaf search is a launch and two transfers, as a window is.
        return 2;
    }

    // ---- splits: separators into the CPU's inner levels -----------------------------------------

    private static final UpperPlan NOTHING_ON_THE_DEVICE = new UpperPlan() {
    };

    @Override
    protected UpperPlan planUpper(Level leaves, int n) {
        return NOTHING_ON_THE_DEVICE;
    }

    @Override
    protected void applyUpper(UpperPlan plan, Level leaves, long[] separators, long[] newPages) {
        // In key order: each separator lands next to the page that held its key until now (the
        // split page, or the piece before it), as a BS-tree leaf split's does.
        for (int i = 0; i < separators.length; i++) {
            inner.insertSeparator(separators[i], (int) newPages[i]);
        }
    }

    @Override
    protected UpperRemoval planRemovals(Level leaves, int[] emptied, int n) {
        // Nothing on the device: the CPU levels change once the leaves have. Each emptied page is
        // found again by a key it lost (its range still holds it: a removal only widens the
        // ranges of the pages that stay).
        int[] pages = new int[emptied.length];
        long[] keys = new long[emptied.length];
        for (int i = 0; i < emptied.length; i++) {
            pages[i] = leaves.page[emptied[i]];
            keys[i] = leaves.runKeys[leaves.run[emptied[i]]];
        }
        return () -> {
            for (int i = 0; i < pages.length; i++) {
                inner.removeLeaf(keys[i], pages[i]);
            }
        };
    }

    @Override
    protected void clearUpper() {
        // One leaf, page 0 (install() of the empty image has made these already; an emptied tree has not).
        inner = new SharedInnerLevels("HybridTree", 0);
    }

    @Override
    protected boolean buildsInnerPages() {
        return false;
    }

    @Override
    protected int innerPagesOnDevice() {
        return 0;
    }

    @Override
    protected void checkUpper(Checker checker, Image image) {
        try {
            inner.check(checker::leaf);
        } catch (IllegalStateException e) {
            checker.fail("the inner levels: " + e.getMessage());
        }
    }

    @Override
    protected long upperHostBytes() {
        return inner.bytes() + 4L * leaves.length;
    }

    @Override
    protected String describeUpper() {
        return "innerNodes=" + inner.nodes() + " (CPU), ";
    }
}
