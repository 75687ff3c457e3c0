package org.bforest.spi;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.IntToLongFunction;
import org.bforest.storage.NodeIds;

/**
 * The parts of a tree checker that the B+-tree, the B&minus; tree and the CSB+-trees share,
 * written once: the walk from the root that hands each child the key range its parent gives it
 * ({@link #walk}), the record of which nodes the walk reached ({@link #reachLeaf},
 * {@link #reachInner}, {@link #orderLeaf}) and the checks on it ({@link #checkIds}: every id in use
 * reached, none on a free list; {@link #checkChain}: the leaf chain lists the reached leaves in
 * order both ways), all of these in one call for a tree whose ids come from {@link NodeIds}
 * ({@link #checkTree}), and the key check of a node padded with {@link LeafChainIndex#MAXKEY}
 * ({@link #paddedKeys}). A checker makes one per check, implements {@link Tree} and keeps its own
 * tree-specific rules.
 *
 * <p>Apart from {@link LeafChainIndex#checkLeafChain}, which checks what every structure's SPI
 * promises, because these checks know a tree: a root, levels, separators, node ids. Failures
 * throw {@link IllegalStateException} with the tree's {@code toString} and what broke, as the
 * checkers always have. Public for the trees' packages; {@code spi} is exported only to the
 * project's own modules.
 */
public final class ChainChecks {
    /** A checker's side of {@link ChainChecks#walk}: its node checks and how to read a separator and a child. */
    public interface Tree {
        /** Checks a leaf whose keys the parents bound by {@code lo} and {@code hi} (where given). */
        void leaf(int leaf, long lo, boolean hasLo, long hi, boolean hasHi);

        /** Checks an inner node at level {@code h} (1: above the leaves) within the bounds; returns its key count. */
        int inner(int node, int h, long lo, boolean hasLo, long hi, boolean hasHi);

        /** Separator {@code i} of an inner node. */
        long key(int node, int i);

        /** Child {@code i} of an inner node. */
        int kid(int node, int i);

        /** Keys in an inner node, as the tree counts them (not checked: {@link #inner} checks them). */
        int keyCount(int node);
    }

    private final LeafChainIndex index;
    private final List<Integer> leavesInOrder = new ArrayList<>();
    private final BitSet seenLeaves = new BitSet();
    private final BitSet seenInner = new BitSet();
    private long innerReached;

    /** Checks of {@code index}'s tree; the messages name it. */
    public ChainChecks(LeafChainIndex index) {
        this.index = index;
    }

    /**
     * The shared checks of a tree whose node ids come from {@link NodeIds}, in order: an inner root
     * has a key, every node passes the tree's own checks in a {@link #walk} from the root, the
     * ids reached are the ids in use ({@link #checkIds}), and the chain lists the leaves in the
     * walk's order ({@link #checkChain}).
     */
    public void checkTree(Tree tree, int root, int height, NodeIds leafIds, NodeIds innerIds) {
        if (height > 0 && tree.keyCount(root) == 0) {
            fail("the inner root " + root + " has one child and no key");
        }
        walk(tree, root, height, 0, false, 0, false);
        checkIds(leafIds, innerIds);
        checkChain();
    }

    /**
     * Visits the subtree of {@code node} at level {@code h} (0: a leaf) depth first, left to right,
     * so that leaves come in key order: child {@code i} of an inner node of {@code n} keys gets the
     * bounds {@code key(i-1)} and {@code key(i)}, its first child the node's own lower bound and its
     * last the node's upper bound. Whether a bound is inclusive is the tree's rule.
     */
    public static void walk(Tree tree, int node, int h, long lo, boolean hasLo, long hi, boolean hasHi) {
        if (h == 0) {
            tree.leaf(node, lo, hasLo, hi, hasHi);
            return;
        }
        int n = tree.inner(node, h, lo, hasLo, hi, hasHi);
        for (int i = 0; i <= n; i++) {
            boolean cLo = i > 0 || hasLo;
            long cl = i > 0 ? tree.key(node, i - 1) : lo;
            boolean cHi = i < n || hasHi;
            long ch = i < n ? tree.key(node, i) : hi;
            walk(tree, tree.kid(node, i), h - 1, cl, cLo, ch, cHi);
        }
    }

    /** Records a leaf the walk reached; fails unless its id is below {@code ids} and it is new to the walk. */
    public void reachLeaf(int leaf, int ids) {
        if (leaf < 0 || leaf >= ids || seenLeaves.get(leaf)) {
            fail("leaf " + leaf + " is out of range or reached twice");
        }
        seenLeaves.set(leaf);
        leavesInOrder.add(leaf);
    }

    /** Records a leaf in the walk's order only, for a tree that claims its ids in its own way. */
    public void orderLeaf(int leaf) {
        leavesInOrder.add(leaf);
    }

    /** Records an inner node reached at level {@code h}; fails as {@link #reachLeaf} does. */
    public void reachInner(int node, int h, int ids) {
        if (node < 0 || node >= ids || seenInner.get(node)) {
            fail("inner node " + node + " at level " + h + " is out of range or reached twice");
        }
        seenInner.set(node);
        innerReached++;
    }

    /** After the walk: the nodes reached are the nodes in use, and none of them is on a free list. */
    public void checkIds(NodeIds leafIds, NodeIds innerIds) {
        if (leavesInOrder.size() != leafIds.inUse()) {
            fail(leavesInOrder.size() + " leaves reached, " + leafIds.inUse() + " in use");
        }
        if (innerReached != innerIds.inUse()) {
            fail(innerReached + " inner nodes reached, " + innerIds.inUse() + " in use");
        }
        for (int id : leafIds.freeIds()) {
            if (seenLeaves.get(id)) {
                fail("leaf " + id + " is reached and on the free list");
            }
        }
        for (int id : innerIds.freeIds()) {
            if (seenInner.get(id)) {
                fail("inner node " + id + " is reached and on the free list");
            }
        }
    }

    /**
     * After the walk: the chain from {@link LeafChainIndex#firstLeaf()} lists the leaves in the
     * walk's order, each links back to the one before, and it ends at
     * {@link LeafChainIndex#lastLeaf()}.
     */
    public void checkChain() {
        int prev = LeafChainIndex.NONE;
        int leaf = index.firstLeaf();
        for (int i = 0; i < leavesInOrder.size(); i++) {
            if (leaf != leavesInOrder.get(i)) {
                fail("the leaf chain's leaf " + i + " is " + leaf + ", the tree's is " + leavesInOrder.get(i));
            }
            if (index.leafPrev(leaf) != prev) {
                fail("leaf " + leaf + " links back to " + index.leafPrev(leaf) + ", not " + prev);
            }
            prev = leaf;
            leaf = index.leafNext(leaf);
        }
        if (leaf != LeafChainIndex.NONE || index.lastLeaf() != prev) {
            fail("the leaf chain does not end at the last leaf (" + prev + ", last " + index.lastLeaf() + ")");
        }
    }

    /**
     * Checks a node of {@code slots} key slots padded with {@link LeafChainIndex#MAXKEY}: keys, then
     * only padding; at most {@code most} keys; strictly ascending; each within
     * {@code (lo, hi]} (the max-key rule: a separator is the largest key of its child). Returns the
     * key count. {@code what} and {@code node} name the node in messages.
     */
    public int paddedKeys(String what, int node, IntToLongFunction key, int slots, int most, long lo,
                          boolean hasLo, long hi, boolean hasHi) {
        int n = 0;
        while (n < slots && key.applyAsLong(n) != LeafChainIndex.MAXKEY) {
            n++;
        }
        for (int i = n; i < slots; i++) {
            if (key.applyAsLong(i) != LeafChainIndex.MAXKEY) {
                fail(what + " " + node + ": slot " + i + " holds " + key.applyAsLong(i) + " after the padding began");
            }
        }
        if (n > most) {
            fail(what + " " + node + " holds " + n + " keys, more than " + most);
        }
        for (int i = 0; i < n; i++) {
            long k = key.applyAsLong(i);
            if (i > 0 && key.applyAsLong(i - 1) >= k) {
                fail(what + " " + node + ": keys " + (i - 1) + " and " + i + " do not ascend");
            }
            if ((hasLo && k <= lo) || (hasHi && k > hi)) {
                fail(what + " " + node + ": key " + k + " outside its range (" + (hasLo ? lo : "-inf") + ", "
                        + (hasHi ? hi : "+inf") + "]");
            }
        }
        return n;
    }

    /** Throws the {@link IllegalStateException} of a broken invariant, naming the tree. */
    public void fail(String what) {
        throw new IllegalStateException(index + ": " + what);
    }
}
