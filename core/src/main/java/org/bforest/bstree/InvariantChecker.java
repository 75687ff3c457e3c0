package org.bforest.bstree;

import static org.bforest.bstree.BSTree.FULL;
import static org.bforest.bstree.BSTree.MAXKEY;
import static org.bforest.bstree.BSTree.META;
import static org.bforest.bstree.BSTree.N;
import static org.bforest.bstree.BSTree.NONE;

import java.util.BitSet;

/**
 * Walks a whole {@link BSTree} and throws {@link IllegalStateException} at the first broken
 * invariant (in the manner of absl's {@code internal_verify} and stx's {@code verify_leaflinks}):
 * <ul>
 * <li>every node: slot use equals the bitmap's population count; used keys strictly ascend;
 *     a gap holds the next used key, or {@link BSTree#MAXKEY} when none follows; no used key is
 *     {@code MAXKEY} (that key lives out of band);</li>
 * <li>inner nodes: the leftmost child and the right child of each used slot are live nodes of
 *     the level below, the right child of each gap is dead; the root has at least two children;</li>
 * <li>separators: every key of a subtree lies in the range its parent's separators give it;</li>
 * <li>leaves: all at the same depth; none empty except a root leaf; the chain (next and prev)
 *     visits exactly the leaves in key order, and head and tail are its ends;</li>
 * <li>the key count (plus the out-of-band maximum) equals {@link BSTree#size()}; every allocated
 *     node is either reachable or on a free list, never both.</li>
 * </ul>
 */
final class InvariantChecker {
    private final BSTree t;
    private final BitSet liveLeaves = new BitSet();
    private final BitSet liveInner = new BitSet();
    private long keys;
    private int lastLeaf = NONE;
    private int leavesSeen;

    InvariantChecker(BSTree t) {
        this.t = t;
    }

    private static void fail(String what) {
        throw new IllegalStateException("BS-tree invariant broken: " + what);
    }

    void check() {
        if (t.height == 0) {
            checkLeaf(t.root, Long.MIN_VALUE, false, 0, true);
        } else {
            int kids = checkInner(t.root, t.height, Long.MIN_VALUE, false, 0, true);
            if (kids < 2) {
                fail("inner root " + t.root + " has " + kids + " child(ren); it should have been replaced by its child");
            }
        }
        if (lastLeaf != t.tailLeaf) {
            fail("tail leaf is " + t.tailLeaf + " but the last leaf in key order is " + lastLeaf);
        }
        if (t.leafNext(lastLeaf) != NONE) {
            fail("last leaf " + lastLeaf + " has next " + t.leafNext(lastLeaf));
        }
        long expected = keys + (t.hasMax ? 1 : 0);
        if (expected != t.size) {
            fail("size() is " + t.size + " but the tree holds " + expected + " keys");
        }
        checkFreeList(t.freeLeafIds(), liveLeaves, t.leafCount, "leaf");
        checkFreeList(t.freeInnerIds(), liveInner, t.innerCount, "inner");
        for (int id : t.freeLeafIds()) {
            if (t.leafInfo.chunk(id)[t.leafInfo.offset(id) + META] != 0) {
                fail("free leaf " + id + " still has slots in use");
            }
        }
        for (int id : t.freeInnerIds()) {
            if (t.innerMeta.chunk(id)[t.innerMeta.offset(id)] != 0) {
                fail("free inner node " + id + " still has slots in use");
            }
        }
        if (t.leafCount > t.leafKeys.capacity() || t.innerCount > t.innerKeys.capacity()) {
            fail("more nodes allocated than the storage holds");
        }
    }

    private static void checkFreeList(int[] free, BitSet live, int allocated, String kind) {
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
     * Checks the keys, gaps and metadata of a node's 16 slots against its bounds
     * {@code [lo, hi)} (each may be unbounded); returns the bitmap.
     */
    private static int checkSlots(String node, long[] kc, int off, int metaWord, long lo, boolean hasLo, long hi,
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
                if ((hasLo && k < lo) || (hasHi && k >= hi)) {
                    fail(node + " slot " + s + ": key " + k + " outside its separators [" + (hasLo ? lo : "-inf") + ", "
                            + (hasHi ? hi : "+inf") + ")");
                }
                next = k;
                seenUsed = true;
            } else if (k != next) {
                fail(node + " gap " + s + ": holds " + k + " but the next used key is " + (seenUsed ? next : "none (MAXKEY)"));
            }
        }
        return bm;
    }

    private void checkLeaf(int leaf, long lo, boolean hasLo, long hi, boolean unboundedHi) {
        if (leaf < 0 || leaf >= t.leafCount) {
            fail("leaf id " + leaf + " out of range");
        }
        if (liveLeaves.get(leaf)) {
            fail("leaf " + leaf + " reachable twice");
        }
        liveLeaves.set(leaf);
        int metaWord = t.leafInfo.chunk(leaf)[t.leafInfo.offset(leaf) + META];
        int bm = checkSlots("leaf " + leaf, t.leafKeys.chunk(leaf), t.leafKeys.offset(leaf), metaWord, lo, hasLo, hi,
                !unboundedHi);
        if (bm == 0 && t.height > 0) {
            fail("leaf " + leaf + " is empty but still in the tree");
        }
        keys += Integer.bitCount(bm);
        if (lastLeaf == NONE) {
            if (t.headLeaf != leaf) {
                fail("head leaf is " + t.headLeaf + " but the first leaf in key order is " + leaf);
            }
            if (t.leafPrev(leaf) != NONE) {
                fail("first leaf " + leaf + " has prev " + t.leafPrev(leaf));
            }
        } else {
            if (t.leafNext(lastLeaf) != leaf) {
                fail("leaf " + lastLeaf + " links to " + t.leafNext(lastLeaf) + " but the next leaf in key order is " + leaf);
            }
            if (t.leafPrev(leaf) != lastLeaf) {
                fail("leaf " + leaf + " links back to " + t.leafPrev(leaf) + " instead of " + lastLeaf);
            }
        }
        lastLeaf = leaf;
        leavesSeen++;
    }

    /** Checks an inner node at level {@code h} and its subtree; returns its number of children. */
    private int checkInner(int node, int h, long lo, boolean hasLo, long hi, boolean unboundedHi) {
        if (node < 0 || node >= t.innerCount) {
            fail("inner id " + node + " out of range");
        }
        if (liveInner.get(node)) {
            fail("inner node " + node + " reachable twice");
        }
        liveInner.set(node);
        long[] kc = t.innerKeys.chunk(node);
        int off = t.innerKeys.offset(node);
        int metaWord = t.innerMeta.chunk(node)[t.innerMeta.offset(node)];
        int bm = checkSlots("inner " + node + " (level " + h + ")", kc, off, metaWord, lo, hasLo, hi, !unboundedHi);
        for (int s = 0; s < N; s++) {
            int kid = t.child(node, 1 + s);
            boolean used = (bm & (1 << s)) != 0;
            if (used == (kid == NONE)) {
                fail("inner " + node + " slot " + s + (used ? " is used but has no child" : " is a gap with child " + kid));
            }
        }
        // Child ranges: leftmost [lo, first key), slot s [key s, next used key or hi).
        long childLo = lo;
        boolean childHasLo = hasLo;
        int kid = t.child(node, 0);
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
                checkLeaf(kid, childLo, childHasLo, childHi, childUnbounded);
            } else {
                checkInner(kid, h - 1, childLo, childHasLo, childHi, childUnbounded);
            }
            kids++;
            if (last) {
                break;
            }
            childLo = kc[off + nextUsed];
            childHasLo = true;
            kid = t.child(node, 1 + nextUsed);
            s = nextUsed;
        }
        return kids;
    }
}
