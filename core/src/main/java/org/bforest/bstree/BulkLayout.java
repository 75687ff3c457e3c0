package org.bforest.bstree;

import static org.bforest.bstree.ForLeafCodec.lanes;
import static org.bforest.bstree.ForLeafCodec.lanesFit;
import static org.bforest.bstree.ForLeafCodec.maxD;

import org.bforest.spi.LeafChainIndex;

/**
 * Where a bulk load puts the sorted keys, for both trees: which keys a leaf takes and at which
 * slots ({@link #place}, the BS-tree paper's section 4.3: gaps spread through the leaf, none
 * between consecutive integers), the CBS-tree's choice of a width per leaf ({@link #leafExtent},
 * section 5), and its choice of value lanes for the whole tree ({@link #laneValuesPay}). Apart
 * from the trees because it is arithmetic on the input alone, run once per leaf at bulk load
 * and never on an update; the trees write the leaves.
 */
final class BulkLayout {
    /** Leaves {@link #laneValuesPay} looks at, at most. */
    static final int LANE_SAMPLES = 4096;

    private BulkLayout() {
    }

    /** The keys a leaf of {@code lanes} lanes takes at {@code leafFill}, when gaps are not closed (at least 1). */
    static int perLeaf(int lanes, double leafFill) {
        return Math.max(1, Math.min(lanes, (int) Math.round(leafFill * lanes)));
    }

    /**
     * The gap rule: whether a gap follows the {@code placed}-th key of a leaf, the next lane being
     * {@code slot}. It does where the spread of {@code perLeaf} keys over {@code lanes} calls for
     * one, a lane and a key {@code keys[i]} are left, and that key is not the last one plus 1
     * (nothing could be inserted between them; the paper's footnote 2).
     */
    static boolean gapAfter(long[] keys, int i, int n, int placed, int slot, int lanes, int perLeaf) {
        boolean gapDue = (placed * lanes / perLeaf) - ((placed - 1) * lanes / perLeaf) > 1;
        return gapDue && slot < lanes && i < n && keys[i] != keys[i - 1] + 1;
    }

    /**
     * Where the keys from {@code i} go in a leaf of {@code lanes} lanes filled to {@code leafFill}
     * ({@link #gapAfter}). Fills {@code at} (ascending, never two gaps in a row) and returns how
     * many keys the leaf takes. (The BS-tree's bulk load applies the rule as it writes, in one
     * pass: placing first and writing after measured 25% slower there.)
     */
    static int place(long[] keys, int i, int n, int lanes, double leafFill, int[] at) {
        int perLeaf = perLeaf(lanes, leafFill);
        int slot = 0;
        int placed = 0;
        while (slot < lanes && i < n) {
            at[placed] = slot;
            slot++;
            placed++;
            i++;
            if (gapAfter(keys, i, n, placed, slot, lanes, perLeaf)) {
                slot++;
            }
        }
        return placed;
    }

    /**
     * The CBS-tree's next leaf from key {@code i} (section 5): {@code leafFill} of 64 lanes of
     * 16 bits if their span allows, else of 32 lanes of 32 bits, else of 16 plain keys. Fills
     * {@code at} with their lanes; returns {@code placed << 8 | width}.
     */
    static long leafExtent(long[] keys, int i, int n, double leafFill, int[] at) {
        for (int w = 16; ; w <<= 1) {
            // A leaf takes at least perLeaf keys when there are that many (the gaps spread them
            // over its lanes exactly), and the span only grows with more: a width whose least
            // span is too wide fails without placing (wide keys then skip two placements).
            int least = Math.min(perLeaf(lanes(w), leafFill), n - i);
            if (w < 64 && Long.compareUnsigned(keys[i + least - 1] - keys[i], maxD(w)) >= 0) {
                continue;
            }
            int placed = place(keys, i, n, lanes(w), leafFill, at);
            if (w == 64 || Long.compareUnsigned(keys[i + placed - 1] - keys[i], maxD(w)) < 0) {
                return (long) placed << 8 | w;
            }
        }
    }

    /**
     * Whether value lanes pay for a CBS-tree's bulk load: they do when at least 3/4 of its leaves'
     * values fit them (with no values, all do); otherwise the tree leaves them out and saves their
     * 128 bytes a leaf. It looks at up to {@value #LANE_SAMPLES} leaves spread evenly over the keys
     * (every leaf of a smaller load), each laid out as the bulk load would from that key. Bad
     * input gives {@code true}: the bulk load rejects it next.
     */
    static boolean laneValuesPay(long[] keys, long[] vals, double leafFill) {
        if (vals == null || keys == null || vals.length != keys.length || !(leafFill >= 0.5 && leafFill <= 1.0)) {
            return true;
        }
        int n = keys.length > 0 && keys[keys.length - 1] == LeafChainIndex.MAXKEY ? keys.length - 1 : keys.length;
        int[] at = new int[ForLeafCodec.MAX_LANES];
        int stride = Math.max(1, n / LANE_SAMPLES);
        long leaves = 0;
        long fit = 0;
        for (int i = 0; i < n; ) {
            long extent = leafExtent(keys, i, n, leafFill, at);
            int placed = (int) (extent >>> 8);
            leaves++;
            fit += lanesFit(vals, i, placed, (int) extent & 0xFF) ? 1 : 0;
            i += Math.max(placed, Math.min(stride, n - i));
        }
        return fit * 4 >= leaves * 3;
    }
}
