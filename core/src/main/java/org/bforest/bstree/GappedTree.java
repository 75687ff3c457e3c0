package org.bforest.bstree;

import org.bforest.BSTreeIndex;
import org.bforest.kernel.NodeSearch;
import org.bforest.spi.LeafChainIndex;

/**
 * What the BS-tree and the CBS-tree have in common above their leaf formats: the shared inner
 * levels ({@link InnerLevels}) and the doubly linked chain of leaves. Everything that walks leaves
 * through positions (neighbour look-ups, the cursor, both range strategies of section 3.3), the
 * out-of-band largest key and bulk-input checks come from {@link LeafChainIndex}, the layer every
 * bforest structure shares; a subclass owns its leaves and supplies that layer's position SPI. The
 * hot paths ({@code get}, {@code put}, {@code remove}) stay in the subclass.
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

    GappedTree(String name) {
        super(name);
        inner = new InnerLevels(name);
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

    // ---- bulk-load input ------------------------------------------------------------------------

    /**
     * {@link #acceptBulk(long[], long[])} with the leaf fill checked too; returns how many keys go
     * into leaves.
     *
     * @throws IllegalArgumentException on unsorted or duplicate keys, arrays of different
     *                                  lengths or a fill outside [0.5, 1]; nothing is built
     */
    final int acceptBulk(long[] keys, long[] values, double leafFill) {
        checkFill(leafFill);
        return acceptBulk(keys, values);
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
