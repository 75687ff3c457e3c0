package org.bforest.bstree;

import static org.bforest.bstree.Slots.FULL;
import static org.bforest.bstree.Slots.MAXKEY;
import static org.bforest.bstree.Slots.N;
import static org.bforest.bstree.Slots.NONE;

/**
 * The BS-tree's inner levels ({@link InnerLevels}: gapped 16-key nodes searched with the node-search
 * kernel, splits, root growth, the level-by-level bulk build) over another structure's leaves, for
 * the hybrid tree of the OpenCL module: the CPU descends these levels for a whole batch and hands
 * the leaf ids to the device, which holds the leaves. The same code the BS-tree runs, not a copy;
 * this class only opens a narrow door to it. Exported to {@code org.bforest.opencl} alone.
 *
 * <p>Leaf ids are the caller's (any {@code int} but -1); a leaf's range is from the separator that
 * leads to it up to the next one. Reads ({@link #findLeaf}, {@link #findLeaves}) keep no state
 * and are safe from any number of threads while nobody writes; writes are single-threaded.
 */
public final class SharedInnerLevels {
    private final InnerLevels inner;

    /** Inner levels over the single leaf {@code rootLeaf}. */
    public SharedInnerLevels(String treeName, int rootLeaf) {
        inner = new InnerLevels(treeName);
        inner.reset(rootLeaf);
    }

    /**
     * Rebuilds the levels over {@code count} leaves in key order ({@code leafIds}, the first keys
     * {@code mins}), as the BS-tree's bulk load does; {@code fill} is the leaves' fill, from which
     * the inner nodes' fill grows by 1/8 a level. Overwrites both arrays.
     */
    public void build(int[] leafIds, long[] mins, int count, double fill) {
        inner.reset(leafIds[0]);
        inner.build(leafIds, mins, count, fill);
        inner.trim();
    }

    /** The leaf whose range holds {@code key} ({@code key < Long.MAX_VALUE}). */
    public int findLeaf(long key) {
        return inner.findLeaf(key);
    }

    /** The leaves of {@code keys[base, base + n)} into {@code leaves}, descending them in lock-step. */
    public void findLeaves(long[] keys, int base, int n, int[] leaves) {
        inner.findLeaves(keys, base, n, leaves);
    }

    /** The same into {@code leaves[at, at + n)} (one part of a batch, from any thread: the levels are only read). */
    public void findLeaves(long[] keys, int base, int n, int[] leaves, int at) {
        inner.findLeaves(keys, base, n, leaves, at);
    }

    /**
     * The leaves of {@code keys[base, base + n)} into {@code leaves[at, at + n)} for a batch that comes
     * nearly in key order (sorted, or bucketed by leading bits): a key in the range of one of the
     * last two leaves found takes it without a descent, so the batch costs about a descent per
     * leaf it reaches. The same leaves as {@link #findLeaves}; several threads may each take a
     * disjoint part of one batch.
     */
    public void findLeavesNear(long[] keys, int base, int n, int[] leaves, int at) {
        inner.findLeavesNear(keys, base, n, leaves, at);
    }

    /**
     * A leaf split: adds separator {@code sep} with the new leaf {@code right} as its right
     * child, next to the leaf whose range held {@code sep} until now. Splits nodes and grows the
     * root as needed; the room is taken before anything changes.
     */
    public void insertSeparator(long sep, int right) {
        inner.descend(sep);
        inner.reserveForSplit();
        inner.insertIntoParent(sep, right);
    }

    /**
     * An emptied leaf goes: {@code leaf}, the leaf whose range holds {@code key}, is removed as the
     * BS-tree removes an emptied leaf (its separator deleted, the neighbour taking over its range,
     * a node left with no child removed, a root left with one child replaced by it). The room the
     * removal needs is taken before anything changes. Not for the last leaf.
     *
     * @throws IllegalStateException if {@code key} does not lead to {@code leaf} (nothing changes)
     */
    public void removeLeaf(long key, int leaf) {
        int reached = inner.descend(key);
        if (reached != leaf || inner.height == 0) {
            throw new IllegalStateException("key " + key + " leads to leaf " + reached + " (height " + inner.height
                    + "), not to the leaf " + leaf + " to remove");
        }
        inner.reserveForRemoval();
        inner.removeChild();
    }

    /** Inner levels above the leaves. */
    public int height() {
        return inner.height;
    }

    /** Inner nodes in use. */
    public long nodes() {
        return inner.nodes();
    }

    /** Bytes held. */
    public long bytes() {
        return inner.bytes();
    }

    /** Called for each leaf in key order with its range {@code [lo, hi)} ({@code hi} MAXKEY: unbounded). */
    public interface LeafRange {
        void leaf(int leaf, long lo, long hi);
    }

    /**
     * Checks every inner node (slot use against the bitmap, used keys strictly ascending and
     * within the node's range, gaps holding the next used key, the used slots' children live and
     * the gaps' dead, a root with at least two children) and gives each leaf, in key order, with
     * its range to {@code leaves}; throws {@link IllegalStateException} at the first broken one.
     */
    public void check(LeafRange leaves) {
        if (inner.height > 0) {
            int kids = checkNode(inner.root, inner.height, Long.MIN_VALUE, MAXKEY, leaves);
            if (kids < 2) {
                throw new IllegalStateException("inner root " + inner.root + " has " + kids + " child(ren)");
            }
        } else {
            leaves.leaf(inner.root, Long.MIN_VALUE, MAXKEY);
        }
    }

    private int checkNode(int node, int h, long lo, long hi, LeafRange leaves) {
        long[] kc = inner.keys.chunk(node);
        int off = inner.keys.offset(node);
        int word = inner.metaWord(node);
        int bm = word & FULL;
        if (word >>> 16 != Integer.bitCount(bm)) {
            throw new IllegalStateException("inner node " + node + ": slot use " + (word >>> 16) + " against bitmap "
                    + Integer.toBinaryString(bm));
        }
        long next = MAXKEY;
        for (int s = N - 1; s >= 0; s--) {
            long k = kc[off + s];
            boolean used = (bm & 1 << s) != 0;
            if (used && (k >= next || k < lo || k >= hi || k == MAXKEY)) {
                throw new IllegalStateException("inner node " + node + " slot " + s + ": key " + k
                        + " is not below " + next + " or outside [" + lo + ", " + hi + ")");
            }
            if (!used && k != next) {
                throw new IllegalStateException("inner node " + node + " gap " + s + " holds " + k + ", not " + next);
            }
            if (!used && inner.child(node, s + 1) != NONE) {
                throw new IllegalStateException("inner node " + node + " gap " + s + " has a live child");
            }
            next = used ? k : next;
        }
        int kids = 0;
        long from = lo;
        int child = inner.child(node, 0);
        for (int s = 0; s <= N; s++) {
            if (s < N && (bm & 1 << s) == 0) {
                continue;
            }
            long to = s < N ? kc[off + s] : hi;
            if (child == NONE) {
                throw new IllegalStateException("inner node " + node + ": a used slot's child is dead");
            }
            kids++;
            if (h == 1) {
                leaves.leaf(child, from, to);
            } else {
                checkNode(child, h - 1, from, to, leaves);
            }
            if (s < N) {
                child = inner.child(node, s + 1);
                from = to;
            }
        }
        return kids;
    }
}
