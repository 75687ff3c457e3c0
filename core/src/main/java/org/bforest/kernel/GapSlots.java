package org.bforest.kernel;

/**
 * The in-node moves of a 16-slot gapped node (BS-tree paper, section 4, Algorithms 5 and 6),
 * shared by every gapped structure: the BS-tree's leaves and inner levels and the concurrent
 * BS-tree. Static and allocation-free.
 *
 * <p>A node is 16 key slots at {@code off}, non-decreasing; bit {@code s} of its bitmap says slot
 * {@code s} is used, and an unused slot (a gap) holds a copy of the next used key, or
 * {@link #MAXKEY} when none follows.
 */
public final class GapSlots {
    /** Slots per node. */
    public static final int N = NodeSearch.NODE_KEYS;
    /** A bitmap with every slot used. */
    public static final int FULL = (1 << N) - 1;
    /** Padding and gap value where no used key follows. */
    public static final long MAXKEY = Long.MAX_VALUE;

    private GapSlots() {
    }

    /** Used slots at or above {@code s} ({@code 0 <= s <= 16}). */
    public static int bitsFrom(int bm, int s) {
        return bm & (FULL << s) & FULL;
    }

    /** Used slots below {@code s} ({@code 0 <= s <= 16}). */
    public static int bitsBelow(int bm, int s) {
        return bm & ((1 << s) - 1);
    }

    public static int highestBit(int bits) {
        return 31 - Integer.numberOfLeadingZeros(bits);
    }

    /**
     * Makes room in a non-full node for a key that belongs at slot {@code r} (all used keys below
     * {@code r} are smaller, all at or above are larger): {@code r} itself if it is a gap; else
     * the used run {@code [r, j)} moves right into the nearest gap {@code j > r}; else the run
     * {@code (j, r)} moves left into the nearest gap {@code j < r} and the key goes to
     * {@code r - 1} (Algorithm 6). The payload (a leaf's {@code long} values or an inner node's
     * {@code int} children, slot 0 at {@code po}; {@code null} for a key-only leaf) moves with
     * the keys. No gap before the slot
     * written needs updating: the slot before it is always used.
     *
     * @return the slot to write, plus the gap that was filled shifted left by 8
     */
    public static int openSlot(long[] kc, int off, Object payload, int po, int bm, int r) {
        if (r < N && (bm & (1 << r)) == 0) {
            return r << 8 | r;
        }
        int right = ~bm & (FULL << (r + 1)) & FULL;
        if (right != 0) {
            int j = Integer.numberOfTrailingZeros(right);
            System.arraycopy(kc, off + r, kc, off + r + 1, j - r);
            if (payload != null) {
                System.arraycopy(payload, po + r, payload, po + r + 1, j - r);
            }
            return j << 8 | r;
        }
        int j = highestBit(~bm & ((1 << r) - 1));
        System.arraycopy(kc, off + j + 1, kc, off + j, r - 1 - j);
        if (payload != null) {
            System.arraycopy(payload, po + j + 1, payload, po + j, r - 1 - j);
        }
        return j << 8 | (r - 1);
    }

    /**
     * Algorithm 5: frees used slot {@code p}; it and the run of gaps before it (which all held its
     * key) now hold the next used key, or {@link #MAXKEY} if none follows. Returns the new bitmap.
     */
    public static int clearSlot(long[] kc, int off, int bm, int p) {
        bm &= ~(1 << p);
        int above = bitsFrom(bm, p + 1);
        long fill = above != 0 ? kc[off + Integer.numberOfTrailingZeros(above)] : MAXKEY;
        int below = bitsBelow(bm, p);
        int start = below == 0 ? 0 : highestBit(below) + 1;
        for (int s = start; s <= p; s++) {
            kc[off + s] = fill;
        }
        return bm;
    }

    /**
     * Writes {@code n >= 1} sorted keys {@code ks[from, from+n)} into the 16 slots at {@code off},
     * key j at slot {@code j*16/n} (the paper's proactive gaps: a split or a rebuilt node spreads
     * its keys evenly), every gap holding the next key and the slots after the last
     * {@link #MAXKEY}; returns the bitmap. The payload is the caller's: it places it by the same
     * {@code j*16/n}.
     */
    public static int spread(long[] kc, int off, long[] ks, int from, int n) {
        int bm = 0;
        long next = MAXKEY;
        int s = N - 1;
        for (int j = n - 1; j >= 0; j--) {
            int at = j * N / n;
            for (; s > at; s--) {
                kc[off + s] = next;
            }
            next = ks[from + j];
            kc[off + at] = next;
            bm |= 1 << at;
            s = at - 1;
        }
        return bm;
    }
}
