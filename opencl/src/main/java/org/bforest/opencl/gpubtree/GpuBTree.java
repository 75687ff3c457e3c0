package org.bforest.opencl.gpubtree;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bforest.opencl.DeviceSearch;
import org.bforest.opencl.OpenClException;
import org.bforest.opencl.cl.ClBuffer;
import org.bforest.opencl.cl.ClDevice;
import org.bforest.opencl.cl.ClScope;
import org.bforest.opencl.cl.PageKernels;
import org.bforest.opencl.pages.Checker;
import org.bforest.opencl.pages.Image;
import org.bforest.opencl.pages.Level;
import org.bforest.opencl.pages.PageStore;
import org.bforest.opencl.pages.PageStore.Scratch;
import org.bforest.opencl.pages.PagedTree;
import org.bforest.opencl.pages.UpperPlan;
import org.bforest.opencl.pages.UpperRemoval;

/**
 * The GPU B+-tree (Kaczmarek's paper): every page on the device, inner pages of
 * {@code pageKeys} separators and {@code pageKeys + 1} child ids above the leaf pages of
 * {@link PagedTree}; unused child slots repeat the last child, so that no query can leave the tree.
 *
 * <p>The descent is one kernel launch for all the levels (the paper launches one a level from
 * the host; one launch costs less and keeps the path all the same), each work-item a query, the
 * pages it passes written to a path row a level. When leaves split, the separators go up a level
 * as the leaves' new keys went in: the pages the batch passed (read from the path) merge them in
 * one launch a level, split where they overflow (the first entry of each new page moves up), and
 * a root that splits gets a new root above it. The host keeps each inner page's occupancy, the
 * root and the height, and plans every level before the device changes anything.
 *
 * <p>A delete batch's emptied leaves come out of the inner pages as a B+-tree's do
 * ({@link InnerRemoval}): an inner page keeps two children at least (one key), merging with or
 * borrowing from a sibling when it would keep one, a page left with none is freed, and a root
 * left with one child gives way to it. Freed pages, leaf and inner, go back to the store's free
 * lists, from which later splits take their pages.
 */
final class GpuBTree extends PagedTree {
    /** The paper's best page size for large trees ("2048 or 4096 elements"). */
    static final int DEFAULT_PAGE_KEYS = 2048;
    static final int MAX_BATCH = PagedTree.MAX_BATCH;

    private final PageKernels.Descent descent;
    private int[] innerCount;
    private int root;
    private int height;

    private GpuBTree(ClScope cl, int pageKeys, double fill, DeviceSearch search, Image image) {
        super("GpuBTree", "GPU B+-tree", cl, pageKeys, fill, search);
        descent = kernels.descent(search.group(), search.lanes(), pageKeys);
        install(image);
    }

    /**
     * A tree of {@code keys} (sorted, distinct; {@code values} null: all 0) on {@code device},
     * leaves filled to {@code fill} of {@code pageKeys}.
     *
     * @throws IllegalArgumentException on unsorted or duplicate keys, arrays of different lengths,
     *                                  a page size below 2 or a fill outside (0, 1]; nothing reaches the device
     * @throws OpenClException          when the device refuses (out of memory, a kernel that does not build)
     */
    static GpuBTree bulkLoad(ClDevice device, long[] keys, long[] values, int pageKeys, double fill) {
        return bulkLoad(device, keys, values, pageKeys, fill, DeviceSearch.DEFAULT);
    }

    /** The same, searching batches as {@code search} says. */
    static GpuBTree bulkLoad(ClDevice device, long[] keys, long[] values, int pageKeys, double fill, DeviceSearch search) {
        return load(device, keys, values, pageKeys, fill, true,
                (cl, image) -> new GpuBTree(cl, pageKeys, fill, search, image));
    }

    @Override
    protected void install(Image b) {
        super.install(b);
        innerCount = Arrays.copyOf(b.innerCounts, Math.max(1, b.innerPages));
        root = b.root;
        height = b.height;
    }

    @Override
    public int height() {
        return height;
    }

    /** Inner pages in use (freed ones not counted). */
    int innerPages() {
        return store.innerIds.inUse();
    }

    // ---- the descent ----------------------------------------------------------------------------

    @Override
    protected void prepareDescent(long[] keys, int from, int n, boolean nearlySorted) {
        store.scratch(Scratch.PATH, 4L * (height + 1) * n);
    }

    /**
     * One launch: the descent of every query through all the inner levels, the path kept in rows
     * 0 (the root) to {@code height} (the leaves), and the leaf look-up.
     */
    @Override
    protected void enqueueLookup(int n, long absent, boolean full, int toAt) {
        descent.enqueue(store.innerKeys, store.innerKids, store.leafKeys, store.leafValues, pageKeys, height, root,
                height > 0 ? innerCount[root] : 0, store.scratch(Scratch.PATH, 4L * (height + 1) * n), store.scratch(Scratch.QUERIES, 16L * n),
                store.scratch(Scratch.OUT, PageStore.outBytes(n)), absent, n, full, toAt);
    }

    @Override
    protected int descentLevels() {
        // A descent is a launch and two transfers; a window is two transfers.
        return height + 2;
    }

    // ---- splits above the leaves ----------------------------------------------------------------

    /** Every level a batch's splits reach, bottom-up, with the new pages' ids. */
    private final class Plan implements UpperPlan {
        final List<Level> levels = new ArrayList<>();
        /** The levels that are new roots (one job each; a batch can raise the tree by several levels). */
        final List<Level> newRoots = new ArrayList<>();
        int newHeight;

        @Override
        public List<Level> levels() {
            return levels;
        }

        @Override
        public void abandon() {
            for (Level lv : levels) {
                lv.releaseNew(store.innerIds);
            }
            for (Level lv : newRoots) {
                store.innerIds.release(lv.page[0]);
            }
        }
    }

    @Override
    protected UpperPlan planUpper(Level leaves, int n) {
        Plan plan = new Plan();
        try {
            planLevels(plan, leaves, n);
        } catch (RuntimeException e) {
            plan.abandon();
            throw e;
        }
        return plan;
    }

    /** The levels of {@code plan}, bottom-up, as far as the splits reach. */
    private void planLevels(Plan plan, Level leaves, int n) {
        plan.newHeight = height;
        Level below = leaves;
        int depth = height - 1;   // the path row of the level being planned
        // The pages above the leaves that the batch went through: only splits need them, and only
        // the paths of the splitting leaves' first keys (a split above takes its first splitting
        // child's key along), gathered on the device: height ints a split leaf, not a query.
        int[] reps = null;
        int[] path = null;
        if (leaves.splits() && height > 0) {
            reps = splitReps(leaves);
            path = pathsOf(reps, n);
        }
        while (below.splits()) {
            Level up = new Level(true);
            if (depth >= 0) {
                int last = NONE;
                int uj = -1;
                int runAt = 0;
                for (int c = 0; c < below.jobs; c++) {
                    if (below.pieces[c] == 1) {
                        continue;
                    }
                    int parent = path[depth * reps.length + Arrays.binarySearch(reps, below.rep[c])];
                    if (parent != last) {
                        uj = up.add(parent, innerCount[parent], runAt, below.rep[c]);
                        last = parent;
                    }
                    up.runLen[uj] += below.pieces[c] - 1;
                    runAt += below.pieces[c] - 1;
                }
            } else {
                // The root split: a new root above it, with the old root as its child 0.
                up.add(store.innerIds.alloc(), 0, 0, 0);
                plan.newRoots.add(up);
                for (int c = 0; c < below.jobs; c++) {
                    up.runLen[0] += below.pieces[c] - 1;
                }
                plan.newHeight++;
            }
            plan.levels.add(up);
            up.assignPieces(pageKeys, store.innerIds);
            below = up;
            depth--;
        }
    }

    /** The batch indices of the leaf jobs that split (ascending: the jobs are in key order). */
    private static int[] splitReps(Level leaves) {
        int k = 0;
        for (int c = 0; c < leaves.jobs; c++) {
            k += leaves.pieces[c] > 1 ? 1 : 0;
        }
        int[] reps = new int[k];
        for (int c = 0, j = 0; c < leaves.jobs; c++) {
            if (leaves.pieces[c] > 1) {
                reps[j++] = leaves.rep[c];
            }
        }
        return reps;
    }

    /** The path rows above the leaves of the queries {@code reps}: row d of rep j at {@code d * reps.length + j}. */
    private int[] pathsOf(int[] reps, int n) {
        int k = reps.length;
        ClBuffer gathered = store.scratch(Scratch.RAW, 4L * k * (height + 1));   // reps, then their rows
        store.writeInts(gathered, reps, k);
        kernels.gatherPath(store.scratch(Scratch.PATH, 4L * (height + 1) * n), n, gathered, k, height, gathered, k);
        return store.readInts(gathered, k, k * height);
    }

    @Override
    protected void applyUpper(UpperPlan upperPlan, Level leaves, long[] separators, long[] newPages) {
        Plan plan = (Plan) upperPlan;
        int inners = store.innerIds.top();
        if (inners > innerCount.length) {
            innerCount = Arrays.copyOf(innerCount, Math.max(inners, innerCount.length + (innerCount.length >> 1) + 1));
        }
        Level child = leaves;
        long[] keys = separators;
        long[] kids = newPages;
        for (Level lv : plan.levels) {
            if (plan.newRoots.contains(lv)) {
                // a new root: its child 0 is the root below it
                store.writeInt(store.innerKids, (long) lv.page[0] * (pageKeys + 1), child.page[0]);
            }
            lv.runKeys = keys;
            lv.runValues = kids;
            keys = merge(lv, false);
            kids = lv.promotedKids();
            child = lv;
        }
        for (Level lv : plan.levels) {
            for (int j = 0; j < lv.jobs; j++) {
                for (int t = 0; t < lv.pieces[j]; t++) {
                    int d = lv.destPages[lv.dest[j] + t];
                    innerCount[d] = lv.pieceCount(j, t);
                }
            }
            if (plan.newRoots.contains(lv)) {
                root = lv.page[0];
            }
        }
        height = plan.newHeight;
    }

    // ---- removals above the leaves --------------------------------------------------------------

    @Override
    protected UpperRemoval planRemovals(Level leaves, int[] emptied, int n) {
        // The pages above the leaves that the batch went through, rows 1 to height - 1 (row 0 is
        // the root: a tree of height 1 reads nothing).
        int[] path = store.readInts(store.scratch(Scratch.PATH, 4L * (height + 1) * n), n, (height - 1) * n);
        InnerRemoval plan = new InnerRemoval(store, innerCount, root, height, path, n);
        for (int j : emptied) {
            plan.removeLeaf(leaves.page[j], leaves.rep[j]);
        }
        return new UpperRemoval() {
            @Override
            public void apply() {
                plan.apply(innerCount);
                root = plan.root();
                height = plan.height();
                innerCount = InnerRemoval.trimmed(innerCount, store.innerIds.top());
            }

            @Override
            public long stagedBytes() {
                return plan.stagedBytes();
            }
        };
    }

    @Override
    protected void clearUpper() {
        // One leaf, page 0, and no inner page (install() of the empty image, or an emptied tree).
        root = 0;
        height = 0;
        innerCount = new int[1];
    }

    @Override
    protected boolean buildsInnerPages() {
        return true;
    }

    @Override
    protected int innerPagesOnDevice() {
        return store.innerIds.top();
    }

    @Override
    protected void checkUpper(Checker checker, Image image) {
        checker.innerPages(root, height, innerCount, store.innerIds);
    }

    @Override
    protected long upperHostBytes() {
        return 4L * innerCount.length;
    }

    @Override
    protected String describeUpper() {
        return "innerPages=" + store.innerIds.inUse() + ", ";
    }
}
