package org.bforest.csb;

import static org.bforest.csb.CsbTree.count;
import static org.bforest.csb.CsbTree.first;
import static org.bforest.csb.CsbTree.meta;
import static org.bforest.csb.CsbTree.offset;
import static org.bforest.spi.LeafChainIndex.MAXKEY;
import static org.bforest.spi.LeafChainIndex.NONE;

import org.bforest.CsbVariant;
import org.bforest.spi.PackedLeaves;
import org.bforest.storage.LongNodeArray;

/**
 * A CSB+-tree's reclaiming delete: what gives a leaf back when {@code remove} empties it, with
 * what that empties above it. Apart from {@link CsbTree} because none of it is on a descent's
 * path: the tree's {@code remove} finds the leaf without recording a path and calls
 * {@link #leafEmptied} only when the key it takes out is the leaf's only one (its second slot is
 * padding); any other remove shifts the leaf's entries and is done.
 *
 * <p>Rao and Ross, "Making B+-Trees Cache Conscious in Main Memory", delete lazily in their
 * experiments (an emptied leaf stays, with its range). Here, as the project's B+ and B&minus; trees
 * do, an emptied leaf goes: it is unlinked from the leaf chain, its id is returned to the leaf
 * {@link GroupPool}, and it leaves its parent's node group with one separator:
 * <ul>
 * <li>the separator that goes is the child's own upper bound, so its right neighbour takes over
 *     its range; the last child goes with the key before it, and its left neighbour's range
 *     reaches the parent's bound. A separator stays a valid bound when the key it copied is
 *     gone, so no ancestor is rewritten (the max-key rule).</li>
 * <li>A group is contiguous, so the child's place is closed by moving the nodes on its shorter
 *     side one place toward it. {@link CsbVariant#PLAIN}: the group ends one id shorter and the id
 *     it no longer covers is freed. {@link CsbVariant#SEGMENTED}: the same inside the segment
 *     that held the child; an emptied segment is freed, and an emptied first segment takes the
 *     second's pointer (the first is never empty). {@link CsbVariant#FULL}: the nodes shift
 *     inside the block of {@code S} ids, which stays allocated until its group empties.</li>
 * <li>A parent that loses its only child goes the same way from its own parent, its group
 *     (a group of one, or a full tree's block) freed; a root left with one child is replaced by
 *     it (a full tree's child first moves to the start of its block, whose other ids are freed,
 *     since a root is alone in a group of one), so the height drops.</li>
 * </ul>
 * Moved leaves are relinked ({@link CsbTree#relink}). Nothing here allocates: the pool keeps its
 * free groups' records in the freed nodes and its tags were grown with the high-water mark, so
 * a delete cannot fail halfway. The one exception is {@link #compactIfLarge}, which replaces a
 * one-leaf tree's storage with fresh arrays and does nothing if they cannot be allocated.
 *
 * <p>No merging: a leaf with one key stays (as in the B+ and B&minus; trees); only an empty leaf
 * goes. So every leaf holds a key unless the tree is a single, empty leaf, and every inner node
 * has a child ({@link CsbChecker} checks both).
 */
final class CsbDeleter {
    /**
     * Nodes of leaf or inner storage a one-leaf tree may keep before {@link #compactIfLarge} gives
     * them back: a tree that goes between one leaf and two never allocates this many, so it does
     * not rebuild its storage at each step.
     */
    static final int COMPACT_NODES = 32;

    private final CsbTree t;
    private final CsbSplitter splitter;
    /** The tree's S, key slots, pointer lanes and variant, copied (all final there). */
    private final int width;
    private final int keySlots;
    private final int segs;
    private final boolean full;
    private final int[] pathNode;
    private final int[] pathPos;
    /** Scratch: the new ids of a moved run of leaves, for {@link CsbTree#relink}. */
    private final int[] order;

    CsbDeleter(CsbTree t, CsbSplitter splitter) {
        this.t = t;
        this.splitter = splitter;
        this.width = t.width;
        this.keySlots = t.keySlots;
        this.segs = t.segs;
        this.full = t.full;
        this.pathNode = t.pathNode;
        this.pathPos = t.pathPos;
        this.order = new int[width + 1];
    }

    /** Heap bytes of the scratch (for the tree's memory count). */
    long bytes() {
        return PackedLeaves.objectBytes(10) + PackedLeaves.bytes(order);
    }

    /**
     * {@code remove} has just taken the last entry out of {@code leaf}, found for {@code key}:
     * gives the leaf back with whatever empties above it. The root leaf of a one-leaf tree stays
     * (an empty tree has one empty leaf).
     */
    void leafEmptied(int leaf, long key) {
        if (t.height > 0) {
            t.descend(key); // the inner nodes are as remove's descent saw them: the path to leaf
            t.unchain(leaf);
            removeChild(1);
            collapseRoot();
        }
        if (t.height == 0) {
            compactIfLarge();
        }
    }

    /**
     * Removes child {@code pathPos[h]} of the path node at level {@code h}, which has emptied (a
     * leaf) or lost its only child (an inner node), with one separator, and closes its place in
     * the group. A node left without children goes from its own parent, recursively; the root
     * never loses its last child (it has two or more, see {@link #collapseRoot}).
     */
    private void removeChild(int h) {
        boolean leaves = h == 1;
        int p = pathNode[h];
        int c = pathPos[h];
        int m = t.innerChildren(p);
        long[] a = t.inner.chunk(0); // nothing here grows the inner array
        int off = t.innerOff(p);
        if (m == 1) {
            if (h == t.height) {
                throw new IllegalStateException(t + ": the root lost its last child");
            }
            long m0 = a[off + keySlots];
            free(leaves, first(m0) - offset(m0), full ? width : 1);
            removeChild(h + 1);
            return;
        }
        // the child's upper bound goes (its right neighbour takes the range); the last child's is
        // the parent's own, so the key before it goes instead
        int n = m - 1;
        int k = c < n ? c : c - 1;
        System.arraycopy(a, off + k + 1, a, off + k, n - 1 - k);
        a[off + n - 1] = MAXKEY;
        int lanes = off + keySlots;
        if (segs == 1) {
            a[lanes] = closeGap(leaves, a[lanes], c);
            return;
        }
        int s0 = count(a[lanes]);
        if (c >= s0) {
            a[lanes + 1] = closeGap(leaves, a[lanes + 1], c - s0);
        } else if (s0 > 1) {
            a[lanes] = closeGap(leaves, a[lanes], c);
        } else { // the first segment empties: the second becomes the first
            closeGap(leaves, a[lanes], 0);
            a[lanes] = a[lanes + 1];
            a[lanes + 1] = 0;
        }
    }

    /**
     * Takes child {@code c} out of the group (or segment) of pointer lane {@code meta}: the nodes
     * on its shorter side move one place toward it; plain and segmented trees free the id the group
     * no longer covers, the full tree keeps its block until the group empties. Returns the lane's
     * new value (0 for an emptied segment).
     */
    private long closeGap(boolean leaves, long meta, int c) {
        int g = first(meta);
        int o = offset(meta);
        int m = count(meta);
        if (m == 1) { // a segment of one (a group of one has gone with its parent)
            free(leaves, g - o, full ? width : 1);
            return 0;
        }
        int before = NONE; // the chain's neighbours of a moved run of leaves, read before the move
        int after = NONE;
        if (c < m - 1 - c) { // the c nodes left of it move right
            if (leaves && c > 0) {
                before = t.leafPrev(g);
                after = t.leafNext(g + c - 1); // the emptied leaf is unlinked already
            }
            splitter.moveNodes(leaves, g, g + 1, c);
            if (leaves && c > 0) {
                relinkRun(g + 1, c, before, after);
            }
            if (!full) {
                free(leaves, g, 1);
            }
            return meta(g + 1, full ? o + 1 : 0, m - 1);
        }
        int right = m - 1 - c; // the nodes right of it move left
        if (leaves && right > 0) {
            before = t.leafPrev(g + c + 1);
            after = t.leafNext(g + m - 1);
        }
        splitter.moveNodes(leaves, g + c + 1, g + c, right);
        if (leaves && right > 0) {
            relinkRun(g + c, right, before, after);
        }
        if (!full) {
            free(leaves, g + m - 1, 1);
        }
        return meta(g, o, m - 1);
    }

    /** Chains the leaves {@code first .. first + n - 1}, in order, between {@code before} and {@code after}. */
    private void relinkRun(int first, int n, int before, int after) {
        for (int i = 0; i < n; i++) {
            order[i] = first + i;
        }
        t.relink(order, n, before, after);
    }

    /**
     * While the root is an inner node with one child, the child becomes the root and the height
     * drops. The root is alone in a group of one: a plain or segmented tree's only child already
     * is; a full tree's moves to the first id of its block and the rest of the block is freed.
     */
    private void collapseRoot() {
        while (t.height > 0 && t.innerChildren(t.root) == 1) {
            boolean leaves = t.height == 1;
            long m0 = t.innerMeta(t.root, 0);
            int child = first(m0);
            if (full) {
                int block = child - offset(m0);
                if (child != block) {
                    splitter.copyNode(leaves, child, block);
                }
                free(leaves, block + 1, width - 1);
                child = block;
            }
            t.innerPool.free(t.root, 1);
            t.root = child;
            t.height--;
            if (leaves) {
                t.chainSingle(child); // it may have moved: its links are rewritten
            }
        }
    }

    /**
     * A tree down to its root leaf whose storage once held many more nodes: the leaf is copied
     * into fresh, minimal storage and the old arrays are dropped, so a tree emptied by deletes
     * costs what a new one does. Skipped when the storage is small, and when the fresh arrays
     * cannot be allocated (the tree is whole either way).
     */
    private void compactIfLarge() {
        if (t.leafKeys.capacity() <= COMPACT_NODES && t.inner.capacity() <= COMPACT_NODES) {
            return;
        }
        LongNodeArray oldKeys = t.leafKeys;
        LongNodeArray oldVals = t.leafVals;
        int old = t.root;
        try {
            t.init(); // allocates everything before it changes a field
        } catch (OutOfMemoryError e) {
            return; // keep the larger storage: nothing was changed
        }
        int leaf = t.root;
        System.arraycopy(oldKeys.chunk(old), oldKeys.offset(old), t.leafKeys.chunk(leaf), t.leafKeys.offset(leaf),
                width);
        System.arraycopy(oldVals.chunk(old), oldVals.offset(old), t.leafVals.chunk(leaf), t.leafVals.offset(leaf),
                width);
    }

    private void free(boolean leaves, int g, int n) {
        t.pool(leaves).free(g, n);
    }
}
