package org.bforest.bminus;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.bforest.spi.LeafChainIndex;

/**
 * The B&minus; tree's own invariants ({@link BMinusTree#checkStructure}), checked from the root
 * down: every node's keys ascend strictly, are followed only by padding ({@code Long.MAX_VALUE})
 * and leave the last slot free (at most B-1 keys in a leaf, B-2 in an inner node); every key of
 * child {@code i} lies in {@code (key[i-1], key[i]]} of its parent, the article's max-key rule;
 * all leaves are at one depth, no leaf but a lone root is empty, an inner root has a key; every
 * node in use is reached exactly once and none on a free list; with links, the chain lists the
 * leaves in key order both ways.
 */
final class BMinusChecker {
    private final BMinusTree t;
    private final List<Integer> leavesInOrder = new ArrayList<>();
    private final BitSet seenLeaves = new BitSet();
    private final BitSet seenInner = new BitSet();
    private int innerReached;

    BMinusChecker(BMinusTree t) {
        this.t = t;
    }

    void check() {
        if (t.height > 0 && t.innerCount(t.root) == 0) {
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
        int leaf = t.firstLeaf();
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
        if (leaf != LeafChainIndex.NONE || t.lastLeaf() != prev) {
            fail("the leaf chain does not end at the last leaf (" + prev + ", last " + t.lastLeaf() + ")");
        }
        if (BMinusTree.LINKS && (t.head() != t.firstLeaf() || t.tail() != prev)) {
            fail("head " + t.head() + " / tail " + t.tail() + " are not the first and last leaves");
        }
    }

    /** Checks {@code n} keys then padding in {@code keys(i)}, within (lo, hi]; returns n. */
    private int keys(String what, int node, java.util.function.IntToLongFunction key, int most, long lo,
            boolean hasLo, long hi, boolean hasHi) {
        int n = 0;
        while (n < t.width && key.applyAsLong(n) != LeafChainIndex.MAXKEY) {
            n++;
        }
        for (int i = n; i < t.width; i++) {
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
        int n = keys("inner node", node, i -> t.innerKey(node, i), t.width - 2, lo, hasLo, hi, hasHi);
        if (n != t.innerCount(node)) {
            fail("inner node " + node + ": rank of the padding " + t.innerCount(node) + ", not " + n);
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
        int n = keys("leaf", leaf, i -> t.leafKey(leaf, i), t.width - 1, lo, hasLo, hi, hasHi);
        if (n != t.leafCount(leaf)) {
            fail("leaf " + leaf + ": rank of the padding " + t.leafCount(leaf) + ", not " + n);
        }
        if (n == 0 && t.height > 0) {
            fail("leaf " + leaf + " is empty but not a lone root");
        }
    }

    private void fail(String what) {
        throw new IllegalStateException(t + ": " + what);
    }
}
