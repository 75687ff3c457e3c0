package org.bforest.olc;

import static org.bforest.olc.OlcNodes.HIGH;
import static org.bforest.olc.OlcNodes.IM;
import static org.bforest.olc.OlcNodes.IV;
import static org.bforest.olc.OlcNodes.KID0;
import static org.bforest.olc.OlcNodes.LOW;
import static org.bforest.olc.OlcNodes.NONE;
import static org.bforest.olc.OlcNodes.VERSION;
import static org.bforest.olc.OlcNodes.blockOffset;
import static org.bforest.olc.OlcNodes.chunk;
import static org.bforest.olc.OlcNodes.keyOffset;
import static org.bforest.olc.OlcNodes.leafHdrOffset;

import org.bforest.kernel.GapSlots;
import org.bforest.kernel.NodeSearch;

/**
 * Takes emptied leaves out of the concurrent BS-tree: a delete that empties a leaf (after its own
 * lock is released, so the delete has happened whatever follows) unlinks it from the leaf chain,
 * removes its separator from the lowest ancestor that keeps a child, frees every inner node below
 * that ancestor (each had only the path's child left) and hands the leaf's key range to the
 * neighbour that takes it over; a root left with one child is replaced by it. Freed ids go to the
 * {@link NodeRecycler}, whose comment argues why reusing them at once is safe. Apart from
 * {@link OlcWriter} because it runs only when a leaf empties, and holds its own locking protocol.
 *
 * <h2>One unlink</h2>
 * A lock-coupled descent for a key of the emptied leaf records the path: each inner node, its
 * version, its bitmap and the child taken. The ancestor {@code A} is the lowest node on it with a
 * used slot (two children or more); the nodes below it have only the path's child. If the path's
 * child of {@code A} is not its leftmost, its separator goes and the child to its left takes over
 * the range, so the leaf's range goes to the leaf before it ({@code L}: its HIGH fence becomes the
 * leaf's HIGH); if it is the leftmost, the first used slot's child becomes the leftmost and the
 * leaf after it ({@code R}) takes the range (its LOW fence becomes the leaf's LOW). Fences stay
 * exactly the ranges the separators give.
 *
 * <h2>Locks</h2>
 * Every node lock is a compare-and-set from the version read, never waited for: a failure
 * releases everything and the unlink starts again, up to {@link #TRIES} times, and then puts
 * itself off ({@link NodeRecycler#defer}: later unlinks and neighbour queries retry it, so the leaf
 * is reclaimed later and memory stays bounded). It locks {@code A} and the nodes below it
 * (top-down, from their recorded versions, which makes the path, the bitmaps and the leaf's
 * emptiness exact), the leaf, then {@code L} if there is one (always: its NEXT changes), then
 * {@code R} if it takes the range; then the mirror's read lock (as every section that changes an
 * inner node: {@link OlcWriter}, 2.). The chain's rule: a leaf's NEXT is written only under its own
 * lock, its PREV only under the lock of the leaf before it (or by the split that makes a leaf, before
 * it is published). So under the leaf's lock its NEXT is exact; its PREV is a hint until {@code L}
 * is locked and names the leaf as its NEXT, with HIGH equal to the leaf's LOW. The unlink writes
 * {@code L}'s NEXT and HIGH (holding {@code L}), {@code R}'s PREV (holding the leaf before it, the
 * leaf itself) and LOW (holding {@code R}).
 *
 * <h2>What readers see</h2>
 * Everything that changes is locked for the whole section, so a reader validates either the state
 * before the unlink or the state after it: the leaf was empty, so {@code L} (or {@code R}) holds
 * exactly the tree's keys within its new fences as it held them within the old ones. The leaf and
 * the freed inner nodes stay locked (obsolete, {@link VersionLock#retire}) until reused: a reader
 * that reaches them restarts, one that read them before fails its validation.
 */
final class OlcUnlinker {
    /** Tries an unlink makes before it puts itself off. */
    static final int TRIES = 8;
    /** Put-off unlinks that each unlink retries. */
    private static final int RETRY_DEFERRED = 2;
    /** Tries for a root with one child to be replaced by it; a failure means another writer holds the root. */
    private static final int COLLAPSE_TRIES = 1 << 16;

    private OlcUnlinker() {
    }

    /**
     * A delete emptied the leaf whose range holds {@code key} (and released its lock): unlinks it,
     * or puts the unlink off; then retries a few unlinks put off before.
     */
    static void emptied(OlcNodes t, long key) {
        if (t.rootWord >>> 32 == 0) {
            return; // a lone root leaf stays, empty or not
        }
        if (!unlink(t, key)) {
            t.recycler.defer(key);
        }
        if (t.recycler.hasDeferred()) {
            retryDeferred(t);
        }
    }

    /**
     * A query or a write validated an empty leaf whose range holds {@code key}: it is the lone root
     * leaf, or its unlink is under way or was put off (every delete that empties a leaf unlinks it
     * or defers it). Tries the unlink once more; a failure leaves the deferred entry in place.
     */
    static void metEmpty(OlcNodes t, long key) {
        if (t.rootWord >>> 32 != 0) {
            unlink(t, key);
        }
    }

    /** Retries up to {@link #RETRY_DEFERRED} put-off unlinks; defers again any that fail. */
    static void retryDeferred(OlcNodes t) {
        for (long key : t.recycler.takeDeferred(RETRY_DEFERRED)) {
            if (!unlink(t, key)) {
                t.recycler.defer(key);
            }
        }
    }

    /**
     * Unlinks the leaf whose range holds {@code key} if it is empty (and not the only leaf). True
     * when that is done or there is nothing to do; false when {@link #TRIES} tries could not get
     * their locks.
     */
    static boolean unlink(OlcNodes t, long key) {
        for (int attempt = 0; attempt < TRIES; attempt++) {
            try {
                if (tryUnlink(t, key)) {
                    return true;
                }
            } catch (IndexOutOfBoundsException | NullPointerException e) {
                // an unvalidated read of a node mid-change: another try
            }
            backOff(attempt);
        }
        return false;
    }

    private static void backOff(int attempt) {
        if (attempt < 4) {
            for (int i = 1 << attempt; i > 0; i--) {
                Thread.onSpinWait();
            }
        } else {
            Thread.yield(); // let a lock holder that shares the core finish
        }
    }

    /** One try of {@link #unlink}: true when done or nothing to do, false to try again. */
    private static boolean tryUnlink(OlcNodes t, long key) {
        long rw = t.rootWord;
        int h = (int) (rw >>> 32);
        if (h == 0) {
            return true;
        }
        int[] path = new int[h];
        long[] versions = new long[h];
        int[] taken = new int[h];
        int[] bits = new int[h];
        int node = (int) rw;
        long v = t.innerVersion(node);
        if (VersionLock.isLocked(v) || t.rootWord != rw) {
            return false;
        }
        for (int d = 0; d < h; d++) {
            int k = chunk(node);
            int[] cc = t.innerKids.chunk(k);
            int bo = blockOffset(node);
            int c = NodeSearch.succGT(t.innerKeys.chunk(k), keyOffset(node), key);
            int bm = cc[bo + IM];
            int child = cc[bo + KID0 + c];
            long cv = d + 1 < h ? t.innerVersion(child) : t.leafVersion(child);
            if (!VersionLock.valid(cc, bo + IV, v) || VersionLock.isLocked(cv)) {
                return false;
            }
            path[d] = node;
            versions[d] = v;
            taken[d] = c;
            bits[d] = bm;
            node = child;
            v = cv;
        }
        int leaf = node;
        long lv = v;
        int lbm = t.leafBits(leaf);
        if (!t.leafValid(leaf, lv)) {
            return false;
        }
        if (lbm != 0) {
            return true; // refilled meanwhile: nothing to unlink
        }
        int a = h - 1;
        while (a >= 0 && bits[a] == 0) {
            a--;
        }
        if (a < 0) {
            // The only leaf, under nodes of one child each: the root shrinks down to it.
            collapseRoot(t);
            return true;
        }
        int held = a;
        while (held < h && VersionLock.tryLock(t.innerKids.chunk(chunk(path[held])), blockOffset(path[held]) + IV,
                versions[held])) {
            held++;
        }
        if (held < h) {
            unlockInner(t, path, a, held);
            return false;
        }
        long[] hc = t.leafHdr.chunk(chunk(leaf));
        int ho = leafHdrOffset(leaf);
        if (!VersionLock.tryLock(hc, ho + VERSION, lv)) {
            unlockInner(t, path, a, h);
            return false;
        }
        // Locked from the versions read: the path, its bitmaps and the leaf's emptiness are exact.
        boolean toLeft = taken[a] > 0;
        long low = hc[ho + LOW];
        long high = hc[ho + HIGH];
        int next = t.nextLeaf(leaf);
        int prev = t.prevLeaf(leaf);
        int lockedPrev = NONE;
        int lockedNext = NONE;
        boolean ok;
        if (prev == NONE) {
            ok = low == Long.MIN_VALUE && !toLeft; // the first leaf
        } else if (lockLeaf(t, prev)) {
            lockedPrev = prev;
            ok = t.nextLeaf(prev) == leaf && t.leafHigh(prev) == low;
        } else {
            ok = false;
        }
        if (ok && !toLeft) {
            ok = next != NONE && lockLeaf(t, next);
            if (ok) {
                lockedNext = next;
                ok = t.leafLow(next) == high && t.prevLeaf(next) == leaf;
            }
        }
        if (!ok) {
            unlockLeaf(t, lockedPrev);
            unlockLeaf(t, lockedNext);
            VersionLock.unlock(hc, ho + VERSION);
            unlockInner(t, path, a, h);
            return false;
        }
        int top = path[a];
        long stamp = OlcWriter.lockMirror(t);
        try {
            removeChild(t, top, taken[a]);
            if (toLeft) {
                t.leafHdr.chunk(chunk(prev))[leafHdrOffset(prev) + HIGH] = high;
                t.setNext(prev, next);
                if (next != NONE) {
                    t.setPrev(next, prev); // under the lock of the leaf before it: this one
                } else {
                    t.lastLeaf = prev;
                }
            } else {
                t.leafHdr.chunk(chunk(next))[leafHdrOffset(next) + LOW] = low;
                t.setPrev(next, prev);
                if (prev != NONE) {
                    t.setNext(prev, next);
                } else {
                    t.firstLeaf = next;
                }
            }
            OlcWriter.mirrorNode(t, t.mirror, top);
            unlockLeaf(t, lockedPrev);
            unlockLeaf(t, lockedNext);
            VersionLock.unlock(t.innerKids.chunk(chunk(top)), blockOffset(top) + IV);
            // The leaf and the inner nodes below the ancestor stay locked, obsolete, until reused.
            VersionLock.retire(hc, ho + VERSION);
            for (int d = a + 1; d < h; d++) {
                VersionLock.retire(t.innerKids.chunk(chunk(path[d])), blockOffset(path[d]) + IV);
            }
        } finally {
            OlcWriter.unlockMirror(t, stamp);
        }
        t.recycler.freeLeaf(leaf);
        for (int d = a + 1; d < h; d++) {
            t.recycler.freeInner(path[d]);
        }
        if (a == 0 && t.innerBits(top) == 0) {
            collapseRoot(t);
        }
        return true;
    }

    /**
     * Removes child {@code c} of a locked inner node that has a used slot: the separator of slot
     * {@code c - 1} with its child, whose range the child to its left takes over; for the leftmost
     * child, the first used slot's child becomes the leftmost and that slot goes.
     */
    private static void removeChild(OlcNodes t, int node, int c) {
        int k = chunk(node);
        int[] cc = t.innerKids.chunk(k);
        int bo = blockOffset(node);
        int bm = cc[bo + IM];
        int slot;
        if (c == 0) {
            slot = Integer.numberOfTrailingZeros(bm);
            cc[bo + KID0] = cc[bo + KID0 + 1 + slot];
        } else {
            slot = c - 1;
        }
        cc[bo + IM] = GapSlots.clearSlot(t.innerKeys.chunk(k), keyOffset(node), bm, slot);
        cc[bo + KID0 + 1 + slot] = NONE;
    }

    /**
     * Replaces a root that has one child by the child, again while the new root has one child. The
     * root's lock alone suffices: the child does not change, and a writer that took the old root for
     * the child's parent fails to lock it; the old root stays locked, obsolete, until reused.
     */
    static void collapseRoot(OlcNodes t) {
        for (int tries = 0; tries < COLLAPSE_TRIES; tries++) {
            long rw = t.rootWord;
            int h = (int) (rw >>> 32);
            if (h == 0) {
                return;
            }
            int root = (int) rw;
            int[] cc = t.innerKids.chunk(chunk(root));
            int bo = blockOffset(root);
            long v = VersionLock.read(cc, bo + IV);
            int bm = cc[bo + IM];
            int only = cc[bo + KID0];
            if (VersionLock.isLocked(v) || t.rootWord != rw) {
                Thread.onSpinWait();
                continue;
            }
            if (bm != 0) {
                if (VersionLock.valid(cc, bo + IV, v)) {
                    return;
                }
                continue;
            }
            if (!VersionLock.tryLock(cc, bo + IV, v)) {
                continue;
            }
            // Locked from the version read: it has one child, only, and is still the root.
            t.rootWord = (long) (h - 1) << 32 | only;
            VersionLock.retire(cc, bo + IV);
            t.recycler.freeInner(root);
        }
    }

    private static boolean lockLeaf(OlcNodes t, int leaf) {
        long[] hc = t.leafHdr.chunk(chunk(leaf));
        int at = leafHdrOffset(leaf) + VERSION;
        long v = VersionLock.read(hc, at);
        return VersionLock.isReadable(v) && VersionLock.tryLock(hc, at, v);
    }

    private static void unlockLeaf(OlcNodes t, int leaf) {
        if (leaf != NONE) {
            VersionLock.unlock(t.leafHdr.chunk(chunk(leaf)), leafHdrOffset(leaf) + VERSION);
        }
    }

    /** Unlocks {@code path[from, to)}. */
    private static void unlockInner(OlcNodes t, int[] path, int from, int to) {
        for (int d = from; d < to; d++) {
            VersionLock.unlock(t.innerKids.chunk(chunk(path[d])), blockOffset(path[d]) + IV);
        }
    }
}
