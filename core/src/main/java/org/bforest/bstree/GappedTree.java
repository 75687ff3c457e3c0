package org.bforest.bstree;

import org.bforest.BSTreeIndex;
import org.bforest.kernel.NodeSearch;
import org.bforest.spi.LeafChainIndex;
import org.bforest.storage.NodeIds;
import org.bforest.util.Arrivals;

/**
 * What the BS-tree and the CBS-tree have in common above their leaf formats: the shared inner
 * levels ({@link InnerLevels}) and the doubly linked chain of leaves. Everything that walks leaves
 * through positions (neighbour look-ups, the cursor, both range strategies of section 3.3), the
 * out-of-band largest key and bulk-input checks come from {@link LeafChainIndex}, the layer every
 * bforest structure shares; a subclass owns its leaves and supplies that layer's position SPI. The
 * hot paths ({@code get}, {@code put}, {@code remove}) stay in the subclass.
 *
 * <p>Written once here, for both trees, is the cold structural upkeep around those paths: the
 * leaf ids and the count of structural changes that drives {@link #VERIFY}, an empty tree's one
 * leaf, the removal of an emptied leaf, the chaining of a split leaf, and the frame of the bulk
 * load ({@link #load}). A subclass supplies its own leaf storage through {@link #newLeaves},
 * {@link #allocLeaf}, {@link #freeLeaf}, {@link #loadLeaves} and {@link #trimLeaves}; none of them is
 * called on a look-up, and an update calls them only when a leaf splits or empties.
 *
 * <p>What stays apart although it looks alike: each tree's {@code get}, the batched look-up's leaf
 * step ({@code findLeaves}, {@code leafGet}), {@code containsKey}, {@code put} and {@code remove}
 * (their {@code MAXKEY} test and size/verify epilogue included), in-leaf search and {@code visitLeaf} loop. They decode their own
 * leaf format in line; written once, they would reach the leaf through a call per key (or per
 * leaf) that the JIT could no longer specialise to one format, on the paths every look-up, update
 * and range visit runs.
 *
 * <p>Leaf bitmaps are handled as {@code long}s here, whatever a leaf keeps; positions are
 * {@code leaf << 6 | slot}, room for the CBS-tree's 64-slot leaves.
 */
abstract sealed class GappedTree extends LeafChainIndex implements BSTreeIndex permits BSTree, CBSTree {
    /** Slots of the widest leaf. */
    static final int MAX_LANES = MAX_SLOTS;

    /**
     * With {@code -Dbforest.verify=true} (the tests set it) every structural change (split, root
     * growth, leaf removal) of a tree of at most {@link #VERIFY_LIMIT} keys runs the full
     * {@link #checkInvariants()}. A {@code static final} flag: free when off.
     */
    static final boolean VERIFY = Boolean.getBoolean("bforest.verify");
    static final long VERIFY_LIMIT = 5_000;


    final InnerLevels inner;
    /** The leaf ids: free list and high-water mark. */
    final NodeIds leafIds = new NodeIds();
    /** Bumped by every leaf split, re-encoding and removal (with the inner levels' count, drives {@link #VERIFY}). */
    int structureChanges;

    /** The fill the bulk load gave the leaves: what a snapshot records, so its load builds alike. */
    double bulkFill = BSTrees.DEFAULT_LEAF_FILL;

    GappedTree(String name) {
        super(name);
        inner = new InnerLevels(name);
    }

    // ---- the leaf storage a subclass owns -------------------------------------------------------

    /** Fresh, empty storage for the leaves, dropping the old; {@link #init} then takes one leaf. */
    abstract void newLeaves();

    /** A fresh leaf: no slot used, unlinked. May grow the storage, so callers fetch chunks again after it. */
    abstract int allocLeaf();

    /** Returns an emptied, unlinked leaf and whatever it holds besides to the free lists. */
    abstract void freeLeaf(int leaf);

    /** Fills the leaf level of a bulk load; see {@link #load}. */
    abstract int loadLeaves(long[] keys, long[] values, int n, double leafFill, int[] ids, long[] mins, Arrivals in);

    /** Gives back leaf storage beyond the leaves in use, after a bulk load. */
    abstract void trimLeaves();

    // ---- structural upkeep both trees share -----------------------------------------------------

    /** Makes the tree empty: new leaf storage, one empty root leaf, the whole chain. */
    final void init() {
        newLeaves();
        leafIds.reset();
        int root = allocLeaf();
        inner.reset(root);
        chainOne(root);
    }

    @Override
    public final void clear() {
        init();
        resetCommon();
        structureChanges++;
    }

    /** Structural changes so far, of the leaves and of the inner levels. */
    final int changes() {
        return structureChanges + inner.changes;
    }

    /**
     * After a leaf split: puts the new leaf {@code right} into the chain after {@code leaf} and
     * its first key {@code sep} into the parent (splitting upwards as needed; the room was taken).
     * {@code edge} is {@link #edgeOf}'s answer for the split, so the inner levels split unevenly
     * too where the leaf did.
     */
    final void addSplitLeaf(int leaf, int right, long sep, int edge) {
        linkAfter(leaf, right);
        structureChanges++;
        inner.insertIntoParent(sep, right, edge);
    }

    /**
     * Where a full leaf splits for a key that belongs at its {@code slot} (of {@code count} used):
     * {@link InnerLevels#RIGHT_EDGE} when it is the tree's last leaf and the key is above all its
     * keys, the shape of an ascending run (time-ordered keys, a log, a queue), which then splits
     * unevenly: the leaf keeps its keys and the new leaf starts with the new key, so every leaf
     * the run leaves behind is full instead of half full (as database B-trees split their
     * rightmost page). {@link InnerLevels#LEFT_EDGE} is the mirror for a descending run at the
     * first leaf; {@link InnerLevels#MIDDLE} anything else, which keeps the even split, so random
     * inserts fill and run as they did. Only the tree's edges: a key at the right end of some
     * leaf inside the tree is as likely from a random insert (one in 17 of them), and splitting
     * those unevenly would leave random inserts' leaves a few percent emptier. Called on the
     * split path only: nothing is added to an insert that fits.
     */
    final int edgeOf(int leaf, int slot, int count) {
        if (slot == count && leaf == tailLeaf) {
            return InnerLevels.RIGHT_EDGE;
        }
        return slot == 0 && leaf == headLeaf ? InnerLevels.LEFT_EDGE : InnerLevels.MIDDLE;
    }

    /**
     * Unlinks and frees a leaf a delete emptied, then deletes its separator from the parent
     * (section 4.1); the room on every free list was taken before the delete changed anything.
     */
    final void removeLeaf(int leaf) {
        unlinkLeaf(leaf);
        freeLeaf(leaf);
        structureChanges++;
        inner.removeChild();
        if (VERIFY && size <= VERIFY_LIMIT) {
            checkInvariants();
        }
    }

    /** Leaves in use. */
    @Override
    public final long leafNodes() {
        return leafIds.inUse();
    }

    /** Free leaf ids, for the invariant checker. */
    final int[] freeLeafIds() {
        return leafIds.freeIds();
    }

    // ---- what a leaf format provides ------------------------------------------------------------

    // Re-declared from the SPI so that this package's checkers may call them.
    @Override
    protected abstract long leafBitmap(int leaf);

    @Override
    protected abstract int leafNext(int leaf);

    @Override
    protected abstract int leafPrev(int leaf);

    // ---- the position SPI: the parts both trees answer alike ------------------------------------

    @Override
    protected final int findLeaf(long key) {
        return inner.findLeaf(key);
    }

    @Override
    protected final int firstLeaf() {
        return headLeaf;
    }

    @Override
    protected final int lastLeaf() {
        return tailLeaf;
    }

    @Override
    protected final int descentLevels() {
        return inner.height;
    }

    // ---- bulk load ------------------------------------------------------------------------------

    /**
     * Bulk-loads sorted input into this new, empty tree (section 4.3; section 5 for the CBS-tree):
     * the subclass fills the leaf level ({@link #loadLeaves}: the leaves' ids in key order and
     * their first keys, the separators), the leaves are chained in that order, the inner levels
     * are built over them with a fill that grows by 1/8 a level, and every array is trimmed to the
     * nodes in use: a bulk-loaded tree knows its size.
     *
     * @param keys     strictly ascending
     * @param values   one per key, or {@code null} for zeros (a tree with values all the same:
     *                 key-only is the plain tree's {@code keyOnly}, not this)
     * @param leafFill between 0.5 and 1
     * @param in       how much of the input is there yet ({@link Arrivals}): the leaf loop
     *                 awaits each leaf's keys (and the one after, which the gap rule looks at)
     * @throws IllegalArgumentException on unsorted or duplicate keys, arrays of different
     *                                  lengths or a fill outside [0.5, 1]; nothing is built
     */
    final void load(long[] keys, long[] values, double leafFill, Arrivals in) {
        checkFill(leafFill);
        int n = acceptBulk(keys, values, in);
        bulkFill = leafFill;
        if (n == 0) {
            return;
        }
        // Every leaf but the last takes at least round(leafFill * 16) keys (a CBS-tree leaf more).
        int maxLeaves = leavesFor(n, BulkLayout.perLeaf(Slots.N, leafFill));
        int[] ids = new int[maxLeaves];
        long[] mins = new long[maxLeaves];
        int count = loadLeaves(keys, values, n, leafFill, ids, mins, in);
        chainLeaves(ids, count); // before build, which overwrites ids
        inner.build(ids, mins, count, leafFill);
        inner.trim();
        trimLeaves();
    }

    static void checkFill(double leafFill) {
        if (!(leafFill >= 0.5 && leafFill <= 1.0)) {
            throw new IllegalArgumentException("leafFill must be in [0.5, 1], got " + leafFill);
        }
    }

    /** The largest number of leaves {@code n} keys can need at {@code perLeaf} keys a leaf. */
    static int leavesFor(int n, int perLeaf) {
        long leaves = ((long) n + perLeaf - 1) / perLeaf;
        if (leaves > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(n + " keys need more than 2^31 leaves");
        }
        return (int) leaves;
    }

    // ---- common queries -------------------------------------------------------------------------

    @Override
    public final int height() {
        return inner.height;
    }

    @Override
    public final long innerNodes() {
        return inner.nodes();
    }

    @Override
    protected String describeShape() {
        return "height=" + inner.height + ", leaves=" + leafNodes() + ", inner=" + innerNodes() + ", compressed="
                + isCompressed() + ", search=" + NodeSearch.describe();
    }
}
