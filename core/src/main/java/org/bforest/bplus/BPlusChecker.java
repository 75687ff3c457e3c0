package org.bforest.bplus;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.bforest.spi.LeafChainIndex;

/**
 * The B+-tree's own invariants ({@link BPlusTree#checkStructure}), checked from the root down:
 * every node's keys ascend strictly and lie within the range its parent gives it, an inner node
 * of n keys has n + 1 children, all leaves are at one depth, no leaf but a lone root is empty,
 * the root has a key when it is an inner node, every node in use is reached exactly once and no
 * reached node is on a free list, and the leaf chain lists the leaves in key order both ways.
 */
final class BPlusChecker {
    private final BPlusTree t;
    private final List<Integer> leavesInOrder = new ArrayList<>();
    private final BitSet seenLeaves = new BitSet();
    private final BitSet seenInner = new BitSet();
    private int innerReached;

    BPlusChecker(BPlusTree t) {
        this.t = t;
    }

    void check() {
        if (t.height > 0 && t.innerCountOf(t.root) == 0) {
            fail("the inner root " + t.root + " has one child and no key");
        }
        visit(t.root, t.height, 0, false, 0, false);
        if (leavesInOrder.size() != t.leafIds.inUse()) {
            fail(leavesInOrder.size() + " leaves reached, " + t.leafIds.inUse() + " in use");
        }
        if (innerReached != t.innerIds.inUse()) {
            fail(innerReached + " inner nodes reached, " + t.innerIds.inUse() + " in use");
        }
        for (int id : t.leafIds.freeIds()) {
            if (seenLeaves.get(id)) {
                fail("leaf " + id + " is reached and on the free list");
            }
        }
        for (int id : t.innerIds.freeIds()) {
            if (seenInner.get(id)) {
                fail("inner node " + id + " is reached and on the free list");
            }
        }
        int prev = LeafChainIndex.NONE;
        int leaf = t.head;
        for (int i = 0; i < leavesInOrder.size(); i++) {
            if (leaf != leavesInOrder.get(i)) {
                fail("the leaf chain's leaf " + i + " is " + leaf + ", the tree's is " + leavesInOrder.get(i));
            }
            if (t.leafPrev(leaf) != prev) {
                fail("leaf " + leaf + " links back to " + t.leafPrev(leaf) + ", not " + prev);
            }
            prev = leaf;
            leaf = t.leafNext(leaf);
        }
        if (leaf != LeafChainIndex.NONE || t.tail != prev) {
            fail("the leaf chain does not end at the last leaf (" + prev + ", tail " + t.tail + ")");
        }
    }

    private void visit(int node, int h, long lo, boolean hasLo, long hi, boolean hasHi) {
        if (h == 0) {
            leaf(node, lo, hasLo, hi, hasHi);
            return;
        }
        if (node < 0 || node >= t.innerIds.count() || seenInner.get(node)) {
            fail("inner node " + node + " at level " + h + " is out of range or reached twice");
        }
        seenInner.set(node);
        innerReached++;
        int n = t.innerCountOf(node);
        if (n < 0 || n > BPlusTree.INNER) {
            fail("inner node " + node + " holds " + n + " keys");
        }
        for (int i = 0; i < n; i++) {
            long k = t.innerKey(node, i);
            if (i > 0 && t.innerKey(node, i - 1) >= k) {
                fail("inner node " + node + ": keys " + (i - 1) + " and " + i + " do not ascend");
            }
            if ((hasLo && k < lo) || (hasHi && k >= hi)) {
                fail("inner node " + node + ": key " + k + " outside its range");
            }
        }
        for (int i = 0; i <= n; i++) {
            boolean cLo = i > 0 || hasLo;
            long cl = i > 0 ? t.innerKey(node, i - 1) : lo;
            boolean cHi = i < n || hasHi;
            long ch = i < n ? t.innerKey(node, i) : hi;
            visit(t.innerKid(node, i), h - 1, cl, cLo, ch, cHi);
        }
    }

    private void leaf(int leaf, long lo, boolean hasLo, long hi, boolean hasHi) {
        if (leaf < 0 || leaf >= t.leafIds.count() || seenLeaves.get(leaf)) {
            fail("leaf " + leaf + " is out of range or reached twice");
        }
        seenLeaves.set(leaf);
        leavesInOrder.add(leaf);
        int n = t.leafCount(leaf);
        if (n < 0 || n > BPlusTree.LEAF) {
            fail("leaf " + leaf + " holds " + n + " entries");
        }
        if (n == 0 && t.height > 0) {
            fail("leaf " + leaf + " is empty but not a lone root");
        }
        for (int s = 0; s < n; s++) {
            long k = t.leafKey(leaf, s);
            if (s > 0 && t.leafKey(leaf, s - 1) >= k) {
                fail("leaf " + leaf + ": keys " + (s - 1) + " and " + s + " do not ascend");
            }
            if ((hasLo && k < lo) || (hasHi && k >= hi)) {
                fail("leaf " + leaf + ": key " + k + " outside its range");
            }
            if (k == LeafChainIndex.MAXKEY) {
                fail("leaf " + leaf + " stores Long.MAX_VALUE, which lives out of band");
            }
        }
    }

    private void fail(String what) {
        throw new IllegalStateException(t + ": " + what);
    }
}
