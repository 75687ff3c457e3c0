package org.bforest.csb;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.bforest.CsbVariant;
import org.bforest.spi.LeafChainIndex;

/**
 * The CSB+-trees' own invariants ({@link CsbTree#checkStructure}), checked from the root down:
 * every node's keys ascend strictly and are followed only by padding ({@code Long.MAX_VALUE});
 * every key of child {@code i} lies in {@code (key[i-1], key[i]]} of its parent (the max-key
 * rule); an inner node has at least one child in its first group, its groups lie below the
 * high-water mark, do not overlap each other or a free group, and each id is reached once; a full
 * tree's groups have room for {@code S} nodes; all leaves are at one depth; empty leaves are
 * allowed anywhere (lazy deletion keeps them); the ids in live groups add up to the tree's counts;
 * and the leaf chain lists the leaves in the tree's order both ways.
 */
final class CsbChecker {
    private final CsbTree t;
    private final List<Integer> leavesInOrder = new ArrayList<>();
    private final BitSet leafIds = new BitSet();
    private final BitSet innerIds = new BitSet();
    private long leafGroupIds;
    private long innerGroupIds;

    CsbChecker(CsbTree t) {
        this.t = t;
    }

    void check() {
        // the root is alone in a group of one
        claim(t.height == 0, t.root, 1);
        if (t.height == 0) {
            leafGroupIds++;
        } else {
            innerGroupIds++;
        }
        visit(t.root, t.height, 0, false, 0, false);
        if (leafGroupIds != t.leafPool.used() || innerGroupIds != t.innerPool.used()) {
            fail("live groups hold " + leafGroupIds + " leaf ids and " + innerGroupIds + " inner ids, the counts say "
                    + t.leafPool.used() + " and " + t.innerPool.used());
        }
        for (boolean leaves : new boolean[] {true, false}) {
            int[] free = t.pool(leaves).freeGroups(); // the pool checks its own lists and tags
            for (int i = 0; i < free.length; i += 2) {
                claim(leaves, free[i], free[i + 1]);
            }
        }
        // no id is lost: every one below the high-water marks is in a live group or a free one
        if (leafIds.cardinality() != t.leafPool.highWater() || innerIds.cardinality() != t.innerPool.highWater()) {
            fail("live and free groups hold " + leafIds.cardinality() + " leaf ids and " + innerIds.cardinality()
                    + " inner ids, below high-water marks " + t.leafPool.highWater() + " and " + t.innerPool.highWater());
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
    }

    /** Marks ids {@code [g, g+n)} as taken, failing if one is out of bounds or taken already. */
    private void claim(boolean leaves, int g, int n) {
        int limit = t.pool(leaves).highWater();
        BitSet seen = leaves ? leafIds : innerIds;
        if (g < 0 || (long) g + n > limit) {
            fail((leaves ? "leaf" : "inner") + " group [" + g + ", " + ((long) g + n) + ") is beyond the high-water mark "
                    + limit);
        }
        int taken = seen.nextSetBit(g);
        if (taken >= 0 && taken < g + n) {
            fail((leaves ? "leaf" : "inner") + " id " + taken + " is in two groups (or a group and a free list)");
        }
        seen.set(g, g + n);
    }

    /** Checks {@code n} keys then padding in {@code slots} slots, within (lo, hi]; returns n. */
    private int keys(String what, int node, java.util.function.IntToLongFunction key, int slots, long lo,
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
            leavesInOrder.add(node);
            int n = keys("leaf", node, i -> t.leafKey(node, i), t.width, lo, hasLo, hi, hasHi);
            if (n != t.leafCount(node)) {
                fail("leaf " + node + ": rank of the padding " + t.leafCount(node) + ", not " + n);
            }
            return;
        }
        int n = keys("inner node", node, i -> t.innerKey(node, i), t.keySlots, lo, hasLo, hi, hasHi);
        int children = t.innerChildren(node);
        if (children != n + 1) {
            fail("inner node " + node + " has " + n + " keys and " + children + " children");
        }
        boolean leaves = h == 1;
        for (int j = 0; j < t.segs; j++) {
            long m = t.innerMeta(node, j);
            int size = CsbTree.count(m);
            if (size < (j == 0 ? 1 : 0) || size > t.keySlots + 1) {
                fail("inner node " + node + ": group " + j + " has " + size + " children");
            }
            int offset = CsbTree.offset(m);
            if (t.variant == CsbVariant.FULL ? offset + size > t.width : offset != 0) {
                fail("inner node " + node + ": group " + j + " of " + size + " children at offset " + offset
                        + " in its block");
            }
            if (size > 0) {
                int ids = t.variant == CsbVariant.FULL ? t.width : size;
                claim(leaves, CsbTree.first(m) - offset, ids);
                if (leaves) {
                    leafGroupIds += ids;
                } else {
                    innerGroupIds += ids;
                }
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

    private void fail(String what) {
        throw new IllegalStateException(t + ": " + what);
    }
}
