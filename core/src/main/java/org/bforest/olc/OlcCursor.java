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
 * values, bitmap and the leaf's key range) and walks it; past either end of the copy it descends
 * again for the range's bound and copies the next leaf. Every leaf is read at one instant; a key
 * that is in the tree for the whole walk is met exactly once; one added or removed meanwhile may or
 * may not be. It never throws {@code ConcurrentModificationException}. Moves allocate nothing.
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
     * Copies the leaf whose range holds {@code target}, validated; returns whether a leaf follows it
     * ({@link #snapHasHigh}).
     */
    boolean loadCovering(long target) {
        int failures = 0;
        for (;;) {
            try {
                if (OlcReader.descend(tree, target, this)) {
                    int l = leaf;
                    int k = OlcNodes.chunk(l);
                    int off = OlcNodes.keyOffset(l);
                    System.arraycopy(tree.leafKeys.chunk(k), off, keys, 0, N);
                    System.arraycopy(tree.leafVals.chunk(k), off, vals, 0, N);
                    int b = (int) tree.leafHdr.chunk(k)[OlcNodes.leafHdrOffset(l) + OlcNodes.META] & FULL;
                    if (tree.leafValid(l, version)) {
                        bm = b;
                        snapLeaf = l;
                        snapVersion = version;
                        snapHasLow = hasLow;
                        snapLow = low;
                        snapHasHigh = hasHigh;
                        snapHigh = high;
                        return hasHigh;
                    }
                }
                Thread.onSpinWait();
            } catch (IndexOutOfBoundsException | NullPointerException e) {
                failures = OlcNodes.failedRead(e, failures);
            }
        }
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
        for (;;) {
            loadCovering(target);
            int s = incl ? NodeSearch.succGE(keys, 0, target) : NodeSearch.succGT(keys, 0, target);
            int bits = bitsFrom(bm, s);
            if (bits != 0) {
                slot = Integer.numberOfTrailingZeros(bits);
                return true;
            }
            if (!snapHasHigh) {
                return toMax();
            }
            target = snapHigh;
            incl = true;
        }
    }

    /** To the greatest key at or below ({@code incl}) or below {@code target}. */
    private boolean toBelow(long target, boolean incl) {
        if (target == MAXKEY) {
            if (incl && toMax()) {
                return true;
            }
            target = MAXKEY - 1; // the leaves hold keys below MAXKEY; see OlcReader.nearBelow
            incl = true;
        }
        for (;;) {
            loadCovering(target);
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
        // Every key of the tree above this copy lies at or above its range's bound.
        return snapHasHigh ? toAbove(snapHigh, true) : toMax();
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
        return snapHasLow ? toBelow(snapLow - 1, true) : invalidate();
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
