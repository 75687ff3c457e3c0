package org.bforest.bstree;

import org.bforest.kernel.GapSlots;
import org.bforest.kernel.NodeSearch;

/**
 * The 16-slot node of the gapped trees: constants and metadata words shared by BS-tree leaves and
 * every inner node ({@link InnerLevels}); the in-node moves of section 4 are the kernel's
 * {@link GapSlots}, which the concurrent BS-tree shares. Static and allocation-free.
 *
 * <p>The metadata word of a node is {@code slotUse << 16 | bitmap}: bit {@code s} of the bitmap
 * says slot {@code s} is used, and {@code slotUse} is its population count, kept beside it as the
 * paper does and checked against it by the invariant checkers.
 */
final class Slots {
    /** Slots per node. */
    static final int N = NodeSearch.NODE_KEYS;
    /** Child ids per inner node: the leftmost child plus one per slot. */
    static final int KIDS = N + 1;
    /** A bitmap with every slot used. */
    static final int FULL = (1 << N) - 1;
    /** Padding and gap value where no used key follows; stored out of band when it is a key. */
    static final long MAXKEY = Long.MAX_VALUE;
    /** No node (end of the leaf chain, dead child slot). */
    static final int NONE = -1;

    private Slots() {
    }

    static int meta(int bitmap) {
        return Integer.bitCount(bitmap) << 16 | bitmap;
    }

    /** Used slots at or above {@code s} ({@code 0 <= s <= 16}). */
    static int bitsFrom(int bm, int s) {
        return GapSlots.bitsFrom(bm, s);
    }

    /** Used slots below {@code s} ({@code 0 <= s <= 16}). */
    static int bitsBelow(int bm, int s) {
        return GapSlots.bitsBelow(bm, s);
    }

    static int highestBit(int bits) {
        return GapSlots.highestBit(bits);
    }
}
