package org.bforest.olc;

import static org.bforest.kernel.GapSlots.FULL;
import static org.bforest.kernel.GapSlots.MAXKEY;
import static org.bforest.kernel.GapSlots.bitsBelow;
import static org.bforest.kernel.GapSlots.bitsFrom;
import static org.bforest.kernel.GapSlots.highestBit;
import static org.bforest.olc.OlcNodes.ABSENT_MARK;
import static org.bforest.olc.OlcNodes.HIGH;
import static org.bforest.olc.OlcNodes.LOW;
import static org.bforest.olc.OlcNodes.META;
import static org.bforest.olc.OlcNodes.VERSION;
import static org.bforest.olc.OlcNodes.chunk;
import static org.bforest.olc.OlcNodes.failedRead;
import static org.bforest.olc.OlcNodes.keyOffset;
import static org.bforest.olc.OlcNodes.leafHdrOffset;

import org.bforest.kernel.NodeSearch;

/**
 * The concurrent BS-tree's neighbour queries ({@code ceiling}, {@code floor}, {@code higher},
 * {@code lower}, {@code firstKey}, {@code lastKey}): one descent to the leaf that holds the key's
 * range, then along the leaf chain while the leaves hold nothing in the direction asked, each leaf
 * recorded with its version and all of them validated at the end (so the answer held at one
 * instant). Apart from {@link OlcReader} because it is its own algorithm with its own fallback.
 *
 * <h2>Why one descent</h2>
 * A leaf's NEXT and PREV are hints ({@link OlcNodes#leafLinks}): the walk takes the leaf they name
 * only if its version is readable and its fence meets the fence of the leaf it came from (its LOW
 * is this leaf's HIGH, or its HIGH this leaf's LOW), and validates it with the rest at the end.
 * Leaves that validate and whose fences meet hold, between them, exactly the tree's keys of the
 * ranges they cover, whichever way they were reached (see {@link NodeRecycler} for freed and reused
 * leaves); a hint that fails the check costs a descent for the bound instead. So a walk across
 * empty leaves costs one step each, not one descent each; and an empty leaf the walk meets is
 * handed to {@link OlcUnlinker#metEmpty} afterwards, so that an unlink that was put off happens.
 *
 * <h2>Why it ends under writers</h2>
 * An optimistic walk restarts when any leaf it read changed before the end. After
 * {@link #OPTIMISTIC_TRIES} restarts in a row (writers keep changing the leaves it crosses) it
 * walks again holding the leaves' locks: each taken by a compare-and-set from the version read
 * (never waited for: a failure releases them all and starts again), the next one through the
 * chain, which is exact under the locks; the answer then holds while they are all held. Nothing is
 * written under them, so each is released back to the version it was taken from
 * ({@link VersionLock#unlockUnchanged}): readers that read the leaf meanwhile still validate.
 */
final class OlcNeighbours {
    /** Optimistic walks in a row that may fail before the walk takes the leaves' locks. */
    static final int OPTIMISTIC_TRIES = 8;

    private OlcNeighbours() {
    }

    /**
     * The nearest key to {@code key}: the least above it ({@code above}) or the greatest below, the
     * key itself included if {@code inclusive}. Sets {@code p.found}, {@code p.key}, {@code p.value}.
     */
    static void near(OlcNodes t, long key, boolean above, boolean inclusive, Probe p) {
        int failures = 0;
        for (int tries = 0;; tries++) {
            p.emptySeen = false;
            try {
                if (tries >= OPTIMISTIC_TRIES ? nearLocked(t, key, above, inclusive, p)
                        : above ? nearAbove(t, key, inclusive, p) : nearBelow(t, key, inclusive, p)) {
                    break;
                }
            } catch (IndexOutOfBoundsException | NullPointerException e) {
                failures = failedRead(e, failures);
            }
            if (tries < OPTIMISTIC_TRIES) {
                Thread.onSpinWait();
            } else {
                Thread.yield(); // a leaf's lock is held: let its holder run, should it share this core
            }
        }
        if (p.emptySeen) {
            OlcUnlinker.metEmpty(t, p.emptyKey);
        }
    }

    /**
     * Finds the leaf whose range holds {@code target} (below MAXKEY) into the probe: first through
     * the mirror, as a look-up does (for the first and the last key, from
     * {@link OlcNodes#firstLeaf} and {@link OlcNodes#lastLeaf}), taken if its version is readable
     * and its fences hold the target
     * (the version is validated with the rest at the end, which makes the fences exact); else by the
     * lock-coupled descent. False: restart.
     */
    static boolean start(OlcNodes t, long target, Probe p) {
        try {
            // The ends first from their hints (a queue's head or tail); their fences say if they are.
            int leaf = target == Long.MIN_VALUE ? t.firstLeaf
                    : target == MAXKEY - 1 ? t.lastLeaf : OlcReader.routeLeaf(t, target);
            long[] hc = t.leafHdr.chunk(chunk(leaf));
            int ho = leafHdrOffset(leaf);
            long v = VersionLock.read(hc, ho + VERSION);
            if (VersionLock.isReadable(v) && hc[ho + LOW] <= target && target < hc[ho + HIGH]) {
                p.leaf = leaf;
                p.version = v;
                return true;
            }
        } catch (IndexOutOfBoundsException | NullPointerException e) {
            // a stale mirror: descend instead
        }
        return OlcReader.descend(t, target, p);
    }

    /** Whether every (node, version) the probe saw is still at that version. */
    static boolean allValid(OlcNodes t, Probe p) {
        long[] seen = p.seen;
        for (int j = 0; j < p.seenCount; j++) {
            int node = (int) seen[2 * j];
            long v = seen[2 * j + 1];
            boolean ok = node == Probe.MAX_RECORD ? VersionLock.valid(t.maxRecord, VERSION, v) : t.leafValid(node, v);
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static boolean nearAbove(OlcNodes t, long key, boolean inclusive, Probe p) {
        p.resetSeen();
        p.found = false;
        if (key == MAXKEY) {
            return !inclusive || readMax(t, p);
        }
        if (!start(t, key, p)) {
            return false;
        }
        int leaf = p.leaf;
        long v = p.version;
        long target = key;
        boolean incl = inclusive;
        for (;;) {
            int k = chunk(leaf);
            int off = keyOffset(leaf);
            long[] kc = t.leafKeys.chunk(k);
            long[] hc = t.leafHdr.chunk(k);
            int ho = leafHdrOffset(leaf);
            int bm = (int) hc[ho + META] & FULL;
            long high = hc[ho + HIGH];
            int s = incl ? NodeSearch.succGE(kc, off, target) : NodeSearch.succGT(kc, off, target);
            int bits = bitsFrom(bm, s);
            if (bits != 0) {
                int slot = Integer.numberOfTrailingZeros(bits);
                p.key = kc[off + slot];
                p.value = t.leafVals.chunk(k)[off + slot];
                p.found = true;
                return VersionLock.valid(hc, ho + VERSION, v) && allValid(t, p);
            }
            p.see(leaf, v);
            p.noteEmpty(bm, target);
            if (high == MAXKEY) {
                return readMax(t, p);
            }
            // Nothing at or above target here: everything else lies at or above this leaf's HIGH.
            int next = t.nextLeaf(leaf);
            long nv = next < 0 ? 0 : t.leafVersion(next);
            if (VersionLock.isReadable(nv) && t.leafLow(next) == high) {
                leaf = next;
                v = nv;
            } else {
                if (!start(t, high, p)) {
                    return false;
                }
                leaf = p.leaf;
                v = p.version;
            }
            target = high;
            incl = true;
        }
    }

    private static boolean nearBelow(OlcNodes t, long key, boolean inclusive, Probe p) {
        p.resetSeen();
        p.found = false;
        if (key == MAXKEY && inclusive) {
            if (!readMax(t, p)) {
                return false;
            }
            if (p.found) {
                return true;
            }
        }
        // The leaves hold keys below MAXKEY only, and a descent for MAXKEY itself would follow
        // the dead child of a gap (gaps hold MAXKEY): look for the greatest key <= MAXKEY - 1.
        long target = key == MAXKEY ? MAXKEY - 1 : key;
        boolean incl = inclusive || key == MAXKEY;
        if (!start(t, target, p)) {
            return false;
        }
        int leaf = p.leaf;
        long v = p.version;
        for (;;) {
            int k = chunk(leaf);
            int off = keyOffset(leaf);
            long[] kc = t.leafKeys.chunk(k);
            long[] hc = t.leafHdr.chunk(k);
            int ho = leafHdrOffset(leaf);
            int bm = (int) hc[ho + META] & FULL;
            long low = hc[ho + LOW];
            int s = incl ? NodeSearch.succGT(kc, off, target) : NodeSearch.succGE(kc, off, target);
            int bits = bitsBelow(bm, s);
            if (bits != 0) {
                int slot = highestBit(bits);
                p.key = kc[off + slot];
                p.value = t.leafVals.chunk(k)[off + slot];
                p.found = true;
                return VersionLock.valid(hc, ho + VERSION, v) && allValid(t, p);
            }
            p.see(leaf, v);
            p.noteEmpty(bm, target);
            if (low == Long.MIN_VALUE) {
                return allValid(t, p);
            }
            // Nothing at or below target here: the rest lies below this leaf's LOW.
            int prev = t.prevLeaf(leaf);
            long pv = prev < 0 ? 0 : t.leafVersion(prev);
            if (VersionLock.isReadable(pv) && t.leafHigh(prev) == low) {
                leaf = prev;
                v = pv;
            } else {
                if (!start(t, low - 1, p)) {
                    return false;
                }
                leaf = p.leaf;
                v = p.version;
            }
            target = low - 1;
            incl = true;
        }
    }

    /** Reads the out-of-band record into the probe as the answer (if present) and validates all. */
    private static boolean readMax(OlcNodes t, Probe p) {
        long[] mr = t.maxRecord;
        long v = VersionLock.read(mr, VERSION);
        if (VersionLock.isLocked(v)) {
            return false;
        }
        boolean present = mr[1] != 0;
        long value = mr[2];
        p.see(Probe.MAX_RECORD, v);
        if (!allValid(t, p)) {
            return false;
        }
        if (present) {
            p.found = true;
            p.key = MAXKEY;
            p.value = value;
        }
        return true;
    }

    // ---- the walk under locks -------------------------------------------------------------------

    /**
     * The walk of {@link #nearAbove} or {@link #nearBelow} holding the lock of every leaf it read
     * (recorded in the probe's seen list), so that no writer can make it restart once it holds
     * them; {@code Long.MAX_VALUE}'s record is read (and validated) while they are held. Releases
     * every lock before it returns; false: a lock could not be taken, start again.
     */
    static boolean nearLocked(OlcNodes t, long key, boolean above, boolean inclusive, Probe p) {
        p.resetSeen();
        p.found = false;
        if (above && key == MAXKEY) {
            if (inclusive) {
                maxAnswer(t, p);
            }
            return true;
        }
        // As nearBelow: the leaves hold keys below MAXKEY; Long.MAX_VALUE itself, for a floor of it,
        // is read last, while the leaves are held, and wins if it is there.
        boolean withMax = !above && key == MAXKEY && inclusive;
        long target = key == MAXKEY ? MAXKEY - 1 : key;
        boolean incl = inclusive || key == MAXKEY;
        try {
            if (!start(t, target, p) || !lockLeaf(t, p.leaf, p.version, p)) {
                return false;
            }
            int leaf = p.leaf;
            for (;;) {
                int k = chunk(leaf);
                int off = keyOffset(leaf);
                long[] kc = t.leafKeys.chunk(k);
                int bm = t.leafBits(leaf) & FULL;
                int bits;
                if (above) {
                    int s = incl ? NodeSearch.succGE(kc, off, target) : NodeSearch.succGT(kc, off, target);
                    bits = bitsFrom(bm, s);
                } else {
                    int s = incl ? NodeSearch.succGT(kc, off, target) : NodeSearch.succGE(kc, off, target);
                    bits = bitsBelow(bm, s);
                }
                if (bits != 0) {
                    int slot = above ? Integer.numberOfTrailingZeros(bits) : highestBit(bits);
                    p.key = kc[off + slot];
                    p.value = t.leafVals.chunk(k)[off + slot];
                    p.found = true;
                    if (withMax) {
                        maxAnswer(t, p);
                    }
                    return true;
                }
                p.noteEmpty(bm, target);
                long bound = above ? t.leafHigh(leaf) : t.leafLow(leaf);
                if (bound == (above ? MAXKEY : Long.MIN_VALUE)) {
                    if (above || withMax) {
                        maxAnswer(t, p);
                    }
                    return true;
                }
                // Under this leaf's lock its NEXT is exact; its PREV is exact once the leaf it names
                // is locked and names this one as its NEXT.
                int to = above ? t.nextLeaf(leaf) : t.prevLeaf(leaf);
                long tv = to < 0 ? 0 : t.leafVersion(to);
                if (!VersionLock.isReadable(tv) || !lockLeaf(t, to, tv, p)) {
                    return false;
                }
                if (above ? t.leafLow(to) != bound : t.leafHigh(to) != bound || t.nextLeaf(to) != leaf) {
                    return false;
                }
                leaf = to;
                target = above ? bound : bound - 1;
                incl = true;
            }
        } finally {
            // Nothing was written: each leaf goes back to the version it was locked from, so that
            // the walks and writes that read it meanwhile need not start again.
            for (int j = 0; j < p.seenCount; j++) {
                int leaf = (int) p.seen[2 * j];
                long[] hc = t.leafHdr.chunk(chunk(leaf));
                VersionLock.unlockUnchanged(hc, leafHdrOffset(leaf) + VERSION, p.seen[2 * j + 1]);
            }
            p.seenCount = 0;
        }
    }

    /** Try-locks a leaf from version {@code v}, recording it in the probe's held locks. */
    private static boolean lockLeaf(OlcNodes t, int leaf, long v, Probe p) {
        if (!VersionLock.tryLock(t.leafHdr.chunk(chunk(leaf)), leafHdrOffset(leaf) + VERSION, v)) {
            return false;
        }
        p.see(leaf, v);
        return true;
    }

    /** Makes {@code Long.MAX_VALUE} the answer if it is there (read at one instant). */
    private static void maxAnswer(OlcNodes t, Probe p) {
        long r = OlcReader.maxLookup(t);
        if (r != ABSENT_MARK) {
            p.found = true;
            p.key = MAXKEY;
            p.value = OlcNodes.previous(r);
        }
    }
}
