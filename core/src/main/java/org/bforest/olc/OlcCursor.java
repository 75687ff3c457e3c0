package org.bforest.olc;

import static org.bforest.kernel.GapSlots.FULL;
import static org.bforest.kernel.GapSlots.MAXKEY;
import static org.bforest.kernel.GapSlots.N;
import static org.bforest.kernel.GapSlots.bitsBelow;
import static org.bforest.kernel.GapSlots.bitsFrom;
import static org.bforest.kernel.GapSlots.highestBit;

import java.util.NoSuchElementException;
import org.bforest.LongCursor;
import org.bforest.kernel.NodeSearch;

/**
 * The concurrent BS-tree's cursor, weakly consistent: it holds a validated copy of one leaf (keys,
 * values, bitmap and the leaf's fences) and walks it; past either end of the copy it copies the
 * leaf the chain names next (or before), if that leaf validates and its fence meets the copy's, and
 * else descends for the copy's bound (see {@link OlcNeighbours} for why the fences make the chain
 * safe to follow). Every leaf is read at one instant; a key that is in the tree for the whole walk
 * is met exactly once; one added or removed meanwhile may or may not be. It never throws
 * {@code ConcurrentModificationException}. Moves allocate nothing.
 */
final class OlcCursor extends Probe implements LongCursor {
    /** {@link #slot} when the cursor is on the out-of-band {@code Long.MAX_VALUE}. */
    private static final int AT_MAX = N;

    private final OlcBSTree tree;
    /** The copied leaf. */
    final long[] keys = new long[N];
    final long[] vals = new long[N];
    int bm;
    int snapLeaf;
    long snapVersion;
    boolean snapHasLow;
    long snapLow;
    boolean snapHasHigh;
    long snapHigh;
    /** The slot under the cursor, {@link #AT_MAX}, or -1 when not valid. */
    private int slot = -1;
    private long maxValue;

    OlcCursor(OlcBSTree tree) {
        this.tree = tree;
    }

    /**
     * Copies the leaf whose range holds {@code target} (found as {@link OlcNeighbours#start} finds
     * it), validated; returns whether a leaf follows it ({@link #snapHasHigh}).
     */
    boolean loadCovering(long target) {
        int failures = 0;
        for (;;) {
            try {
                if (OlcNeighbours.start(tree, target, this) && copy(leaf, version)) {
                    return snapHasHigh;
                }
                Thread.onSpinWait();
            } catch (IndexOutOfBoundsException | NullPointerException e) {
                failures = OlcNodes.failedRead(e, failures);
            }
        }
    }

    /**
     * Copies the leaf after the copy ({@link #snapHasHigh} must be true): the one its NEXT names if
     * that one validates and starts at the copy's HIGH, else the one a descent for HIGH finds.
     * Returns whether a leaf follows the new copy.
     */
    boolean loadNext() {
        long bound = snapHigh;
        try {
            int next = tree.nextLeaf(snapLeaf);
            long v = next < 0 ? 0 : tree.leafVersion(next);
            if (VersionLock.isReadable(v) && tree.leafLow(next) == bound && copy(next, v) && snapLow == bound) {
                return snapHasHigh;
            }
        } catch (IndexOutOfBoundsException | NullPointerException e) {
            // a stale hint: descend instead
        }
        return loadCovering(bound);
    }

    /** Copies the leaf before the copy ({@link #snapHasLow} must be true), as {@link #loadNext}. */
    void loadPrev() {
        long bound = snapLow;
        try {
            int prev = tree.prevLeaf(snapLeaf);
            long v = prev < 0 ? 0 : tree.leafVersion(prev);
            if (VersionLock.isReadable(v) && tree.leafHigh(prev) == bound && copy(prev, v) && snapHigh == bound) {
                return;
            }
        } catch (IndexOutOfBoundsException | NullPointerException e) {
            // a stale hint: descend instead
        }
        loadCovering(bound - 1);
    }

    /** Copies leaf {@code l} read at version {@code v}, keys, values, bitmap and fences, if it validates. */
    private boolean copy(int l, long v) {
        int k = OlcNodes.chunk(l);
        int off = OlcNodes.keyOffset(l);
        System.arraycopy(tree.leafKeys.chunk(k), off, keys, 0, N);
        System.arraycopy(tree.leafVals.chunk(k), off, vals, 0, N);
        long[] hc = tree.leafHdr.chunk(k);
        int ho = OlcNodes.leafHdrOffset(l);
        int b = (int) hc[ho + OlcNodes.META] & FULL;
        long low = hc[ho + OlcNodes.LOW];
        long high = hc[ho + OlcNodes.HIGH];
        if (!tree.leafValid(l, v)) {
            return false;
        }
        bm = b;
        snapLeaf = l;
        snapVersion = v;
        // Long.MIN_VALUE is only the first leaf's LOW, Long.MAX_VALUE only the last one's HIGH: a
        // separator is a key above another key, and below MAXKEY.
        snapHasLow = low != Long.MIN_VALUE;
        snapLow = low;
        snapHasHigh = high != MAXKEY;
        snapHigh = high;
        return true;
    }

    /** The copy's used slots whose keys lie in {@code [lo, end]}. */
    int slotsBetween(long lo, long end) {
        int from = NodeSearch.succGE(keys, 0, lo);
        int to = NodeSearch.succGT(keys, 0, end);
        return bitsFrom(bitsBelow(bm, to), from);
    }

    private boolean invalidate() {
        slot = -1;
        return false;
    }

    private boolean toMax() {
        long r = OlcReader.maxLookup(tree);
        if (r == OlcNodes.ABSENT_MARK) {
            return invalidate();
        }
        maxValue = OlcNodes.previous(r);
        slot = AT_MAX;
        return true;
    }

    /** To the least key at or above ({@code incl}) or above {@code target}. */
    private boolean toAbove(long target, boolean incl) {
        if (target == MAXKEY) {
            return incl ? toMax() : invalidate();
        }
        loadCovering(target);
        return scanUp(target, incl);
    }

    /** From the copy (whose range holds {@code target}) up the chain to the first key at or above it. */
    private boolean scanUp(long target, boolean incl) {
        for (;;) {
            int s = incl ? NodeSearch.succGE(keys, 0, target) : NodeSearch.succGT(keys, 0, target);
            int bits = bitsFrom(bm, s);
            if (bits != 0) {
                slot = Integer.numberOfTrailingZeros(bits);
                return true;
            }
            if (!snapHasHigh) {
                return toMax();
            }
            // Everything above lies at or above the copy's HIGH.
            target = snapHigh;
            incl = true;
            loadNext();
        }
    }

    /** To the greatest key at or below ({@code incl}) or below {@code target}. */
    private boolean toBelow(long target, boolean incl) {
        if (target == MAXKEY) {
            if (incl && toMax()) {
                return true;
            }
            target = MAXKEY - 1; // the leaves hold keys below MAXKEY; see OlcNeighbours.nearBelow
            incl = true;
        }
        loadCovering(target);
        return scanDown(target, incl);
    }

    /** From the copy (whose range holds {@code target}) down through the chain, as {@link #scanUp}. */
    private boolean scanDown(long target, boolean incl) {
        for (;;) {
            int s = incl ? NodeSearch.succGT(keys, 0, target) : NodeSearch.succGE(keys, 0, target);
            int bits = bitsBelow(bm, s);
            if (bits != 0) {
                slot = highestBit(bits);
                return true;
            }
            if (!snapHasLow) {
                return invalidate();
            }
            target = snapLow - 1;
            incl = true;
            loadPrev();
        }
    }

    @Override
    public boolean seekCeiling(long key) {
        return toAbove(key, true);
    }

    @Override
    public boolean seekFloor(long key) {
        return toBelow(key, true);
    }

    @Override
    public boolean seekHigher(long key) {
        return toAbove(key, false);
    }

    @Override
    public boolean seekLower(long key) {
        return toBelow(key, false);
    }

    @Override
    public boolean seekFirst() {
        return toAbove(Long.MIN_VALUE, true);
    }

    @Override
    public boolean seekLast() {
        return toBelow(MAXKEY, true);
    }

    @Override
    public boolean next() {
        if (slot < 0) {
            return false;
        }
        if (slot == AT_MAX) {
            return invalidate();
        }
        int bits = bitsFrom(bm, slot + 1);
        if (bits != 0) {
            slot = Integer.numberOfTrailingZeros(bits);
            return true;
        }
        // Every key of the tree above this copy lies at or above its HIGH.
        if (!snapHasHigh) {
            return toMax();
        }
        long bound = snapHigh;
        loadNext();
        return scanUp(bound, true);
    }

    @Override
    public boolean previous() {
        if (slot < 0) {
            return false;
        }
        if (slot == AT_MAX) {
            return toBelow(MAXKEY, false);
        }
        int bits = bitsBelow(bm, slot);
        if (bits != 0) {
            slot = highestBit(bits);
            return true;
        }
        if (!snapHasLow) {
            return invalidate();
        }
        long bound = snapLow - 1;
        loadPrev();
        return scanDown(bound, true);
    }

    @Override
    public boolean isValid() {
        return slot >= 0;
    }

    private void checkValid() {
        if (slot < 0) {
            throw new NoSuchElementException("the cursor is not on an entry: seek first, and check what seek or "
                    + "next/previous returned");
        }
    }

    @Override
    public long key() {
        checkValid();
        return slot == AT_MAX ? MAXKEY : keys[slot];
    }

    /**
     * The value now if the key is still there (a replaced value shows), else the value the cursor
     * read with the key.
     */
    @Override
    public long value() {
        checkValid();
        if (slot == AT_MAX) {
            long r = OlcReader.maxLookup(tree);
            return r == OlcNodes.ABSENT_MARK ? maxValue : OlcNodes.previous(r);
        }
        if (tree.leafVersion(snapLeaf) == snapVersion) {
            return vals[slot]; // the leaf has not changed since it was copied
        }
        return tree.get(keys[slot], vals[slot]);
    }

    @Override
    public void remove() {
        checkValid();
        long key = key();
        tree.remove(key);
        toAbove(key, false);
    }
}
