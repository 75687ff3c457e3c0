package org.bforest.csb;

import java.util.BitSet;
import org.bforest.CsbVariant;
import org.bforest.spi.ChainChecks;

/**
 * The CSB+-trees' own invariants ({@link CsbTree#checkStructure}), checked from the root down:
 * every node's keys ascend strictly and are followed only by padding ({@code Long.MAX_VALUE});
 * every key of child {@code i} lies in {@code (key[i-1], key[i]]} of its parent (the max-key
 * rule); an inner node has at least one child in its first group (an empty second segment is
 * the pointer 0), an inner root at least two; its groups lie below the high-water mark, do not
 * overlap each other or a free group, and each id is reached once; a full tree's groups have room
 * for {@code S} nodes; all leaves are at one depth; no leaf is empty but the root leaf of a tree of
 * height 0 (the reclaiming delete gives every other emptied leaf back, {@link CsbDeleter}); the ids
 * in live groups add up to the pools' counts of ids in use, and those plus the ids in free groups
 * to each pool's high-water mark; and the leaf chain lists the leaves in the tree's order both
 * ways. The walk, the padded-key and chain checks are the packed trees' shared ones
 * ({@link ChainChecks}); the ids are claimed here, a group at a time, since they come from
 * {@link GroupPool}s, not from {@code NodeIds}.
 */
final class CsbChecker implements ChainChecks.Tree {
    private final CsbTree t;
    private final ChainChecks checks;
    private final BitSet leafIds = new BitSet();
    private final BitSet innerIds = new BitSet();
    private long leafGroupIds;
    private long innerGroupIds;

    CsbChecker(CsbTree t) {
        this.t = t;
        this.checks = new ChainChecks(t);
    }

    void check() {
        // the root is alone in a group of one
        claim(t.height == 0, t.root, 1);
        if (t.height == 0) {
            leafGroupIds++;
        } else {
            innerGroupIds++;
            if (t.innerChildren(t.root) < 2) {
                checks.fail("the inner root " + t.root + " has " + t.innerChildren(t.root)
                        + " children (a root with one is replaced by it)");
            }
        }
        ChainChecks.walk(this, t.root, t.height, 0, false, 0, false);
        if (leafGroupIds != t.leafPool.used() || innerGroupIds != t.innerPool.used()) {
            checks.fail("live groups hold " + leafGroupIds + " leaf ids and " + innerGroupIds
                    + " inner ids, the counts say " + t.leafPool.used() + " and " + t.innerPool.used());
        }
        for (boolean leaves : new boolean[] {true, false}) {
            GroupPool pool = t.pool(leaves);
            int[] free = pool.freeGroups(); // the pool checks its own lists and tags
            long freeIds = 0;
            for (int i = 0; i < free.length; i += 2) {
                claim(leaves, free[i], free[i + 1]);
                freeIds += free[i + 1];
            }
            if (pool.used() + freeIds != pool.highWater()) {
                checks.fail((leaves ? "leaf" : "inner") + " pool: " + pool.used() + " ids in use and " + freeIds
                        + " free, but " + pool.highWater() + " handed out");
            }
        }
        // no id is lost: every one below the high-water marks is in a live group or a free one
        if (leafIds.cardinality() != t.leafPool.highWater() || innerIds.cardinality() != t.innerPool.highWater()) {
            checks.fail("live and free groups hold " + leafIds.cardinality() + " leaf ids and "
                    + innerIds.cardinality() + " inner ids, below high-water marks " + t.leafPool.highWater()
                    + " and " + t.innerPool.highWater());
        }
        checks.checkChain();
    }

    /** Marks ids {@code [g, g+n)} as taken, failing if one is out of bounds or taken already. */
    private void claim(boolean leaves, int g, int n) {
        int limit = t.pool(leaves).highWater();
        BitSet seen = leaves ? leafIds : innerIds;
        if (g < 0 || (long) g + n > limit) {
            checks.fail((leaves ? "leaf" : "inner") + " group [" + g + ", " + ((long) g + n)
                    + ") is beyond the high-water mark " + limit);
        }
        int taken = seen.nextSetBit(g);
        if (taken >= 0 && taken < g + n) {
            checks.fail((leaves ? "leaf" : "inner") + " id " + taken + " is in two groups (or a group and a free list)");
        }
        seen.set(g, g + n);
    }

    @Override
    public void leaf(int leaf, long lo, boolean hasLo, long hi, boolean hasHi) {
        checks.orderLeaf(leaf); // its id was claimed with its group
        int n = checks.paddedKeys("leaf", leaf, i -> t.leafKey(leaf, i), t.width, t.width, lo, hasLo, hi, hasHi);
        if (n != t.leafCount(leaf)) {
            checks.fail("leaf " + leaf + ": rank of the padding " + t.leafCount(leaf) + ", not " + n);
        }
        if (n == 0 && t.height > 0) {
            checks.fail("leaf " + leaf + " is empty in a tree of height " + t.height + " (it should have been freed)");
        }
    }

    @Override
    public int inner(int node, int h, long lo, boolean hasLo, long hi, boolean hasHi) {
        int n = checks.paddedKeys("inner node", node, i -> t.innerKey(node, i), t.keySlots, t.keySlots, lo, hasLo,
                hi, hasHi);
        int children = t.innerChildren(node);
        if (children != n + 1) {
            checks.fail("inner node " + node + " has " + n + " keys and " + children + " children");
        }
        boolean leaves = h == 1;
        for (int j = 0; j < t.segs; j++) {
            long m = t.innerMeta(node, j);
            int size = CsbTree.count(m);
            if (size < (j == 0 ? 1 : 0) || size > t.keySlots + 1) {
                checks.fail("inner node " + node + ": group " + j + " has " + size + " children");
            }
            if (size == 0 && m != 0) {
                checks.fail("inner node " + node + ": the empty group " + j + " has the pointer "
                        + Long.toHexString(m));
            }
            int offset = CsbTree.offset(m);
            if (t.variant == CsbVariant.FULL ? offset + size > t.width : offset != 0) {
                checks.fail("inner node " + node + ": group " + j + " of " + size + " children at offset " + offset
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
        return n;
    }

    // key, kid, keyCount: each checker's own reads of its tree's inner nodes, alike by shape only
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
        return t.innerChildren(node) - 1;
    }
}
