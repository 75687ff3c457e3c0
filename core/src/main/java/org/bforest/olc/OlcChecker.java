package org.bforest.olc;

import static org.bforest.kernel.GapSlots.FULL;
import static org.bforest.kernel.GapSlots.MAXKEY;
import static org.bforest.kernel.GapSlots.N;

import java.util.Arrays;
import java.util.BitSet;

/**
 * The invariants of a quiescent concurrent BS-tree (no update running): every node reached is
 * unlocked; in every node the used slots' keys ascend strictly, each gap holds the next used key or
 * MAXKEY, the bitmap is the header's only content; every separator lies strictly inside its node's
 * range and every leaf key inside its leaf's; a leaf's fences are exactly the range its ancestors'
 * separators give it; a gap's child is dead and a used slot's is live; every node is reached once
 * and all leaves lie at one depth; leaf gaps hold value 0; the keys, with the out-of-band one, add
 * up to the size; the mirror holds every inner node exactly.
 *
 * <p>And what deletes keep: an inner root has two children or more (a root left with one is
 * replaced by it); no leaf reached is empty except a lone root leaf, or a leaf whose unlink was put
 * off (a deferred key of {@link NodeRecycler} lies in its range: it could not get its locks under
 * contention, and the next unlink or neighbour query that meets it retries); the chain links the
 * leaves in key order (each NEXT the next leaf, each PREV the one before, NONE at the ends), and
 * the first and last leaf hints name the ends; every id on a free list is unreached, listed once
 * and obsolete (locked for good, see {@link VersionLock#retire}); and the ids reached plus the ids
 * free are every id handed out.
 */
final class OlcChecker {
    private final OlcNodes t;
    private final BitSet leaves = new BitSet();
    private final BitSet inners = new BitSet();
    /** The leaves in key order, as the descent from the root meets them. */
    private int[] order = new int[16];
    private int leafCount;
    private long[] deferred;

    OlcChecker(OlcNodes t) {
        this.t = t;
    }

    void check() {
        int root = t.root();
        int height = t.rootHeight();
        deferred = t.recycler.deferredKeys();
        Arrays.sort(deferred);
        if (height > 0 && t.innerBits(root) == 0) {
            fail("the root " + root + " (height " + height + ") has one child: it should have been replaced by it");
        }
        long keys = node(root, height, false, 0, false, 0);
        chain();
        freeLists();
        long v = VersionLock.read(t.maxRecord, OlcNodes.VERSION);
        if (VersionLock.isLocked(v)) {
            fail("the Long.MAX_VALUE record is locked");
        }
        long present = t.maxRecord[1];
        if (present != 0 && present != 1 || present == 0 && t.maxRecord[2] != 0) {
            fail("the Long.MAX_VALUE record holds present=" + present + ", value=" + t.maxRecord[2]);
        }
        keys += present;
        if (keys != t.count()) {
            fail("the leaves hold " + keys + " keys (with Long.MAX_VALUE) but size() is " + t.count());
        }
    }

    /** The chain links the leaves in the order the descent met them, NONE at both ends. */
    private void chain() {
        if (t.firstLeaf != order[0] || t.lastLeaf != order[leafCount - 1]) {
            fail("the first and last leaf hints are " + t.firstLeaf + " and " + t.lastLeaf + ", not " + order[0]
                    + " and " + order[leafCount - 1]);
        }
        for (int i = 0; i < leafCount; i++) {
            int leaf = order[i];
            int wantPrev = i == 0 ? OlcNodes.NONE : order[i - 1];
            int wantNext = i == leafCount - 1 ? OlcNodes.NONE : order[i + 1];
            if (t.prevLeaf(leaf) != wantPrev || t.nextLeaf(leaf) != wantNext) {
                fail("leaf " + leaf + " (number " + i + " in key order) links to previous " + t.prevLeaf(leaf)
                        + " and next " + t.nextLeaf(leaf) + ", not " + wantPrev + " and " + wantNext);
            }
        }
    }

    /** Free ids: unreached, listed once, obsolete; with the ids reached, every id handed out. */
    private void freeLists() {
        freeList("leaf", t.recycler.freeLeafIds(), leaves, t.leafCount.get(), true);
        freeList("inner node", t.recycler.freeInnerIds(), inners, t.innerCount.get(), false);
    }

    private void freeList(String kind, int[] free, BitSet reached, int handedOut, boolean leaf) {
        BitSet listed = new BitSet();
        for (int id : free) {
            if (reached.get(id)) {
                fail(kind + " " + id + " is on the free list and reached from the root");
            }
            if (listed.get(id)) {
                fail(kind + " " + id + " is on the free list twice");
            }
            listed.set(id);
            long v = leaf ? t.leafVersion(id) : t.innerVersion(id);
            if (!VersionLock.isObsolete(v)) {
                fail(kind + " " + id + " is on the free list with version word " + v + ", not obsolete");
            }
        }
        if (reached.cardinality() + free.length != handedOut) {
            fail(reached.cardinality() + " " + kind + "s reached and " + free.length + " free, but " + handedOut
                    + " handed out");
        }
    }

    /** Whether a put-off unlink's key lies in {@code [low, high)}. */
    private boolean deferredIn(long low, long high) {
        int at = Arrays.binarySearch(deferred, low);
        int i = at >= 0 ? at : -at - 1;
        return i < deferred.length && deferred[i] < high;
    }

    /** Checks the subtree of {@code id} at level {@code h} over {@code [lo, hi)}; returns its keys. */
    private long node(int id, int h, boolean hasLo, long lo, boolean hasHi, long hi) {
        if (id < 0) {
            fail("a live child is " + id);
        }
        boolean leaf = h == 0;
        BitSet seen = leaf ? leaves : inners;
        if (seen.get(id)) {
            fail((leaf ? "leaf " : "inner node ") + id + " is reached twice");
        }
        seen.set(id);
        int k = OlcNodes.chunk(id);
        int ho = OlcNodes.leafHdrOffset(id);
        int bo = OlcNodes.blockOffset(id);
        long[] kc = (leaf ? t.leafKeys : t.innerKeys).chunk(k);
        String name = (leaf ? "leaf " : "inner node ") + id + " (level " + h + ")";
        long v;
        long meta;
        if (leaf) {
            long[] hc = t.leafHdr.chunk(k);
            v = hc[ho + OlcNodes.VERSION];
            meta = hc[ho + OlcNodes.META];
        } else {
            int[] bc = t.innerKids.chunk(k);
            v = bc[bo + OlcNodes.IV];
            meta = bc[bo + OlcNodes.IM];
        }
        if (VersionLock.isLocked(v) || v % VersionLock.STEP != 0) {
            fail(name + " has version word " + v + " in a quiescent tree");
        }
        if (leaf) {
            // The fences are exactly the range the separators above give the leaf, and it is published.
            long[] hc = t.leafHdr.chunk(k);
            long low = hc[ho + OlcNodes.LOW];
            long high = hc[ho + OlcNodes.HIGH];
            long wantLow = hasLo ? lo : Long.MIN_VALUE;
            long wantHigh = hasHi ? hi : MAXKEY;
            if (low != wantLow || high != wantHigh) {
                fail(name + " has fences [" + low + ", " + high + ") but its parents give it [" + wantLow + ", "
                        + wantHigh + ")");
            }
            if (v == 0) {
                fail(name + " is linked but was never published (version 0)");
            }
            if ((meta & FULL) == 0 && t.rootHeight() > 0 && !deferredIn(low, high)) {
                fail(name + " is empty and reached, and no unlink of it was put off");
            }
            if (leafCount == order.length) {
                order = Arrays.copyOf(order, 2 * leafCount);
            }
            order[leafCount++] = id;
        }
        if ((meta & ~FULL) != 0) {
            fail(name + " has header word " + Long.toHexString(meta));
        }
        int bm = (int) meta;
        int off = OlcNodes.keyOffset(id);
        // Gaps hold the next used key, or MAXKEY; used keys ascend strictly and lie in range.
        long next = MAXKEY;
        for (int s = N - 1; s >= 0; s--) {
            long key = kc[off + s];
            if ((bm & 1 << s) == 0) {
                if (key != next) {
                    fail(name + ": gap slot " + s + " holds " + key + ", not the next used key " + next);
                }
            } else {
                if (key >= next) {
                    fail(name + ": used slot " + s + " holds " + key + ", not below the next used key " + next);
                }
                if (key == MAXKEY) {
                    fail(name + ": Long.MAX_VALUE in a used slot");
                }
                boolean tooLow = hasLo && (leaf ? key < lo : key <= lo);
                if (tooLow || hasHi && key >= hi) {
                    fail(name + ": key " + key + " outside its range [" + (hasLo ? lo : "-inf") + ", "
                            + (hasHi ? hi : "+inf") + ")");
                }
                next = key;
            }
        }
        if (leaf) {
            long[] vc = t.leafVals.chunk(k);
            for (int s = 0; s < N; s++) {
                if ((bm & 1 << s) == 0 && vc[off + s] != 0) {
                    fail(name + ": gap slot " + s + " holds value " + vc[off + s]);
                }
            }
            return Integer.bitCount(bm);
        }
        int[] cc = t.innerKids.chunk(k);
        int co = bo + OlcNodes.KID0;
        int level = cc[bo + OlcNodes.LEVEL];
        if (level != h) {
            fail(name + " records level " + level);
        }
        mirrored(id, h, kc, off, cc, co, name);
        long count = 0;
        // Child 0 covers [lo, first used key); the child of used slot s covers [key s, next used key).
        boolean cHasLo = hasLo;
        long cLo = lo;
        int child = cc[co];
        for (int s = 0; s <= N; s++) {
            boolean used = s < N && (bm & 1 << s) != 0;
            if (s < N && !used) {
                if (cc[co + 1 + s] != OlcNodes.NONE) {
                    fail(name + ": gap slot " + s + " has child " + cc[co + 1 + s]);
                }
                continue;
            }
            boolean cHasHi = used || hasHi;
            long cHi = used ? kc[off + s] : hi;
            count += node(child, h - 1, cHasLo, cLo, cHasHi, cHi);
            if (used) {
                cHasLo = true;
                cLo = kc[off + s];
                child = cc[co + 1 + s];
            }
        }
        return count;
    }

    /**
     * In a quiescent tree the mirror holds every inner node exactly: its keys, and its children as
     * mirror slots (inner) or leaf ids. A stale slot would never give a wrong answer, but it would
     * send every look-up through it down the slow path for good.
     */
    private void mirrored(int id, int h, long[] kc, int off, int[] cc, int co, String name) {
        InnerMirror m = t.mirror();
        int n = Pinned.denseOf(id);
        if (n >= m.capacity) {
            fail(name + " is slot " + n + ", past the mirror's " + m.capacity);
        }
        for (int s = 0; s < N; s++) {
            if (m.keys[InnerMirror.keyOffset(n) + s] != kc[off + s]) {
                fail(name + ": mirror slot " + n + " key " + s + " is " + m.keys[InnerMirror.keyOffset(n) + s]
                        + ", the node's " + kc[off + s]);
            }
        }
        for (int s = 0; s <= N; s++) {
            int kid = cc[co + s];
            int want = h == 1 || kid == OlcNodes.NONE ? kid : Pinned.denseOf(kid);
            if (m.kids[m.kid(n, s)] != want) {
                fail(name + ": mirror slot " + n + " child " + s + " is " + m.kids[m.kid(n, s)] + ", not " + want);
            }
        }
    }

    private static void fail(String what) {
        throw new IllegalStateException("concurrent BS-tree invariant broken: " + what);
    }
}
