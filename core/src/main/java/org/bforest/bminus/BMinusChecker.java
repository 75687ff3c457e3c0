package org.bforest.bminus;

import org.bforest.spi.ChainChecks;

/**
 * The B&minus; tree's own invariants ({@link BMinusTree#checkStructure}), checked from the root
 * down: every node's keys ascend strictly, are followed only by padding ({@code Long.MAX_VALUE})
 * and leave the last slot free (at most B-1 keys in a leaf, B-2 in an inner node); every key of
 * child {@code i} lies in {@code (key[i-1], key[i]]} of its parent, the article's max-key rule;
 * all leaves are at one depth, no leaf but a lone root is empty, an inner root has a key; every
 * node in use is reached exactly once and none on a free list; the chain (the links, or without
 * them the walk through the ancestors) lists the leaves in key order both ways. The walk, the
 * reach, chain and padded-key checks are the packed trees' shared ones ({@link ChainChecks}).
 */
final class BMinusChecker implements ChainChecks.Tree {
    private final BMinusTree t;
    private final ChainChecks checks;

    BMinusChecker(BMinusTree t) {
        this.t = t;
        this.checks = new ChainChecks(t);
    }

    void check() {
        checks.checkTree(this, t.root, t.height, t.leafIds, t.innerIds);
    }

    @Override
    public int inner(int node, int h, long lo, boolean hasLo, long hi, boolean hasHi) {
        checks.reachInner(node, h, t.innerIds.count());
        int n = checks.paddedKeys("inner node", node, i -> t.innerKey(node, i), t.width, t.width - 2, lo, hasLo, hi,
                hasHi);
        if (n != t.innerCount(node)) {
            checks.fail("inner node " + node + ": rank of the padding " + t.innerCount(node) + ", not " + n);
        }
        return n;
    }

    @Override
    public void leaf(int leaf, long lo, boolean hasLo, long hi, boolean hasHi) {
        checks.reachLeaf(leaf, t.leafIds.count());
        int n = checks.paddedKeys("leaf", leaf, i -> t.leafKey(leaf, i), t.width, t.width - 1, lo, hasLo, hi, hasHi);
        if (n != t.leafCount(leaf)) {
            checks.fail("leaf " + leaf + ": rank of the padding " + t.leafCount(leaf) + ", not " + n);
        }
        if (n == 0 && t.height > 0) {
            checks.fail("leaf " + leaf + " is empty but not a lone root");
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
        return t.innerCount(node);
    }
}
