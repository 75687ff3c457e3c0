package org.bforest.bstree;

import static org.bforest.bstree.Slots.FULL;
import static org.bforest.bstree.Slots.MAXKEY;
import static org.bforest.bstree.Slots.N;
import static org.bforest.bstree.Slots.NONE;

import java.util.BitSet;

/**
 * Walks a whole gapped tree and throws {@link IllegalStateException} at the first broken
 * invariant (in the manner of absl's {@code internal_verify} and stx's {@code verify_leaflinks}).
 * This class checks what {@link GappedTree} and {@link InnerLevels} own; a subclass checks the
 * inside of a leaf of its format:
 * <ul>
 * <li>every inner node: slot use equals the bitmap's population count; used keys strictly
 *     ascend; a gap holds the next used key, or {@link Slots#MAXKEY} when none follows; the
 *     leftmost child and the right child of each used slot are live nodes of the level below, the
 *     right child of each gap is dead; the root has at least two children;</li>
 * <li>separators: every key of a subtree lies in the range its parent's separators give it;</li>
 * <li>leaves: all at the same depth; none empty except a root leaf; the chain (next and prev)
 *     visits exactly the leaves in key order, and head and tail are its ends;</li>
 * <li>every allocated node is either reachable or on a free list, never both, and free nodes
 *     are cleared (the key count against {@code size()} is the shared layer's check).</li>
 * </ul>
 */
abstract class TreeChecker {
    private final GappedTree t;
    private final InnerLevels inner;
    private final String name;
    private final BitSet liveLeaves = new BitSet();
    private final BitSet liveInner = new BitSet();
    private int lastLeaf = NONE;

    TreeChecker(GappedTree t, String name) {
        this.t = t;
        this.inner = t.inner;
        this.name = name;
    }

    final void fail(String what) {
        throw new IllegalStateException(name + " invariant broken: " + what);
    }

    /** Whether a free leaf is marked empty. */
    abstract boolean leafCleared(int leaf);

    /** Checks the inside of a leaf against its key range {@code [lo, hi)}; returns its key count. */
    abstract long checkLeaf(int leaf, long lo, boolean hasLo, long hi, boolean hasHi);

    /** Checks what is left: storage capacities and the like. */
    abstract void checkStorage();

    final void check() {
        if (inner.height == 0) {
            visitLeaf(inner.root, Long.MIN_VALUE, false, 0, true);
        } else {
            int kids = checkInner(inner.root, inner.height, Long.MIN_VALUE, false, 0, true);
            if (kids < 2) {
                fail("inner root " + inner.root + " has " + kids
                        + " child(ren); it should have been replaced by its child");
            }
        }
        if (lastLeaf != t.lastLeaf()) {
            fail("tail leaf is " + t.lastLeaf() + " but the last leaf in key order is " + lastLeaf);
        }
        if (t.leafNext(lastLeaf) != NONE) {
            fail("last leaf " + lastLeaf + " has next " + t.leafNext(lastLeaf));
        }
        checkFreeList(t.freeLeafIds(), liveLeaves, t.leafIds.count(), "leaf");
        checkFreeList(inner.freeIds(), liveInner, inner.ids.count(), "inner");
        for (int id : t.freeLeafIds()) {
            if (!leafCleared(id)) {
                fail("free leaf " + id + " still has slots in use");
            }
        }
        for (int id : inner.freeIds()) {
            if (inner.metaWord(id) != 0) {
                fail("free inner node " + id + " still has slots in use");
            }
        }
        if (inner.ids.count() > inner.keys.capacity()) {
            fail("more inner nodes allocated than the storage holds");
        }
        checkStorage();
    }

    private void checkFreeList(int[] free, BitSet live, int allocated, String kind) {
        BitSet seen = new BitSet();
        for (int id : free) {
            if (id < 0 || id >= allocated) {
                fail(kind + " free-list id " + id + " outside the " + allocated + " allocated nodes");
            }
            if (live.get(id)) {
                fail(kind + " node " + id + " is both reachable and on the free list");
            }
            if (seen.get(id)) {
                fail(kind + " node " + id + " is twice on the free list");
            }
            seen.set(id);
        }
        if (live.cardinality() + free.length != allocated) {
            fail(allocated + " " + kind + " nodes allocated but " + live.cardinality() + " reachable and "
                    + free.length + " free");
        }
    }

    /**
     * Checks the keys, gaps and metadata of a 16-slot node against its bounds {@code [lo, hi)}
     * (each may be unbounded); returns the bitmap.
     */
    final int checkSlots(String node, long[] kc, int off, int metaWord, long lo, boolean hasLo, long hi,
            boolean hasHi) {
        int bm = metaWord & FULL;
        if ((metaWord & ~FULL) >>> 16 != Integer.bitCount(bm) || (metaWord >>> 16) > N) {
            fail(node + ": slot use " + (metaWord >>> 16) + " disagrees with bitmap " + Integer.toBinaryString(bm));
        }
        long next = MAXKEY;
        boolean seenUsed = false;
        for (int s = N - 1; s >= 0; s--) {
            long k = kc[off + s];
            if ((bm & (1 << s)) != 0) {
                if (k == MAXKEY) {
                    fail(node + " slot " + s + ": Long.MAX_VALUE stored in a node");
                }
                if (seenUsed && k >= next) {
                    fail(node + " slot " + s + ": key " + k + " not below the next key " + next);
                }
                checkBounds(node + " slot " + s, k, lo, hasLo, hi, hasHi);
                next = k;
                seenUsed = true;
            } else if (k != next) {
                fail(node + " gap " + s + ": holds " + k + " but the next used key is "
                        + (seenUsed ? next : "none (MAXKEY)"));
            }
        }
        return bm;
    }

    final void checkBounds(String where, long k, long lo, boolean hasLo, long hi, boolean hasHi) {
        if ((hasLo && k < lo) || (hasHi && k >= hi)) {
            fail(where + ": key " + k + " outside its separators [" + (hasLo ? lo : "-inf") + ", "
                    + (hasHi ? hi : "+inf") + ")");
        }
    }

    private void visitLeaf(int leaf, long lo, boolean hasLo, long hi, boolean unboundedHi) {
        if (leaf < 0 || leaf >= t.leafIds.count()) {
            fail("leaf id " + leaf + " out of range");
        }
        if (liveLeaves.get(leaf)) {
            fail("leaf " + leaf + " reachable twice");
        }
        liveLeaves.set(leaf);
        long n = checkLeaf(leaf, lo, hasLo, hi, !unboundedHi);
        if (n != Long.bitCount(t.leafBitmap(leaf))) {
            fail("leaf " + leaf + " holds " + n + " keys but its bitmap says " + Long.bitCount(t.leafBitmap(leaf)));
        }
        if (n == 0 && inner.height > 0) {
            fail("leaf " + leaf + " is empty but still in the tree");
        }
        if (lastLeaf == NONE) {
            if (t.firstLeaf() != leaf) {
                fail("head leaf is " + t.firstLeaf() + " but the first leaf in key order is " + leaf);
            }
            if (t.leafPrev(leaf) != NONE) {
                fail("first leaf " + leaf + " has prev " + t.leafPrev(leaf));
            }
        } else {
            if (t.leafNext(lastLeaf) != leaf) {
                fail("leaf " + lastLeaf + " links to " + t.leafNext(lastLeaf) + " but the next leaf in key order is "
                        + leaf);
            }
            if (t.leafPrev(leaf) != lastLeaf) {
                fail("leaf " + leaf + " links back to " + t.leafPrev(leaf) + " instead of " + lastLeaf);
            }
        }
        lastLeaf = leaf;
    }

    /** Checks an inner node at level {@code h} and its subtree; returns its number of children. */
    private int checkInner(int node, int h, long lo, boolean hasLo, long hi, boolean unboundedHi) {
        if (node < 0 || node >= inner.ids.count()) {
            fail("inner id " + node + " out of range");
        }
        if (liveInner.get(node)) {
            fail("inner node " + node + " reachable twice");
        }
        liveInner.set(node);
        long[] kc = inner.keys.chunk(node);
        int off = inner.keys.offset(node);
        int bm = checkSlots("inner " + node + " (level " + h + ")", kc, off, inner.metaWord(node), lo, hasLo, hi,
                !unboundedHi);
        for (int s = 0; s < N; s++) {
            int kid = inner.child(node, 1 + s);
            boolean used = (bm & (1 << s)) != 0;
            if (used == (kid == NONE)) {
                fail("inner " + node + " slot " + s + (used ? " is used but has no child" : " is a gap with child " + kid));
            }
        }
        // Child ranges: leftmost [lo, first key), slot s [key s, next used key or hi).
        long childLo = lo;
        boolean childHasLo = hasLo;
        int kid = inner.child(node, 0);
        int kids = 0;
        for (int s = 0; ; s++) {
            int nextUsed = s;
            while (nextUsed < N && (bm & (1 << nextUsed)) == 0) {
                nextUsed++;
            }
            boolean last = nextUsed == N;
            long childHi = last ? hi : kc[off + nextUsed];
            boolean childUnbounded = last && unboundedHi;
            if (h == 1) {
                visitLeaf(kid, childLo, childHasLo, childHi, childUnbounded);
            } else {
                checkInner(kid, h - 1, childLo, childHasLo, childHi, childUnbounded);
            }
            kids++;
            if (last) {
                break;
            }
            childLo = kc[off + nextUsed];
            childHasLo = true;
            kid = inner.child(node, 1 + nextUsed);
            s = nextUsed;
        }
        return kids;
    }
}
