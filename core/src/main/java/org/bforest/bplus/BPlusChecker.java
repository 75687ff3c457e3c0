package org.bforest.bplus;

import java.util.function.IntToLongFunction;
import org.bforest.spi.ChainChecks;
import org.bforest.spi.LeafChainIndex;

/**
 * The B+-tree's own invariants ({@link BPlusTree#checkStructure}), checked from the root down:
 * every node's keys ascend strictly and lie within the range its parent gives it, an inner node
 * of n keys has n + 1 children, all leaves are at one depth, no leaf but a lone root is empty,
 * the root has a key when it is an inner node, every node in use is reached exactly once and no
 * reached node is on a free list, and the leaf chain lists the leaves in key order both ways.
 * The walk, the reach and chain checks are the packed trees' shared ones ({@link ChainChecks});
 * the B+-tree's own rules are the node checks here.
 */
final class BPlusChecker implements ChainChecks.Tree {
    private final BPlusTree t;
    private final ChainChecks checks;

    BPlusChecker(BPlusTree t) {
        this.t = t;
        this.checks = new ChainChecks(t);
    }

    void check() {
        checks.checkTree(this, t.root, t.height, t.leafIds, t.innerIds);
    }

    @Override
    public int inner(int node, int h, long lo, boolean hasLo, long hi, boolean hasHi) {
        checks.reachInner(node, h, t.innerIds.count());
        int n = t.innerCountOf(node);
        if (n < 0 || n > BPlusTree.INNER) {
            checks.fail("inner node " + node + " holds " + n + " keys");
        }
        keys("inner node", node, i -> t.innerKey(node, i), n, lo, hasLo, hi, hasHi);
        return n;
    }

    @Override
    public void leaf(int leaf, long lo, boolean hasLo, long hi, boolean hasHi) {
        checks.reachLeaf(leaf, t.leafIds.count());
        int n = t.leafCount(leaf);
        if (n < 0 || n > BPlusTree.LEAF) {
            checks.fail("leaf " + leaf + " holds " + n + " entries");
        }
        if (n == 0 && t.height > 0) {
            checks.fail("leaf " + leaf + " is empty but not a lone root");
        }
        keys("leaf", leaf, s -> t.leafKey(leaf, s), n, lo, hasLo, hi, hasHi);
    }

    /**
     * Checks the {@code n} keys of a node: strictly ascending, each in {@code [lo, hi)} (a B+-tree
     * separator is the smallest key of the child to its right), none {@code Long.MAX_VALUE}.
     */
    private void keys(String what, int node, IntToLongFunction key, int n, long lo, boolean hasLo, long hi,
                      boolean hasHi) {
        for (int i = 0; i < n; i++) {
            long k = key.applyAsLong(i);
            if (i > 0 && key.applyAsLong(i - 1) >= k) {
                checks.fail(what + " " + node + ": keys " + (i - 1) + " and " + i + " do not ascend");
            }
            if ((hasLo && k < lo) || (hasHi && k >= hi)) {
                checks.fail(what + " " + node + ": key " + k + " outside its range");
            }
            if (k == LeafChainIndex.MAXKEY) {
                checks.fail(what + " " + node + " stores Long.MAX_VALUE, which lives out of band");
            }
        }
    }

    // key, kid, keyCount: ChainChecks' reads of this tree's inner nodes, alike by shape in every
    // packed tree's checker; each reads its own tree class, as no type the trees share reads an
    // inner node.
    @Override
    public long key(int node, int i) {
        return t.innerKey(node, i);
    }

    @Override
    public int kid(int node, int i) {
        return t.innerKid(node, i);
    }

    @Override
    public int keyCount(int node) {
        return t.innerCountOf(node);
    }
}
