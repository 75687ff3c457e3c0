package org.bforest.spi;

import static org.bforest.spi.LeafChainIndex.MAXKEY;
import static org.bforest.spi.LeafChainIndex.MAX_SLOTS;
import static org.bforest.spi.LeafChainIndex.NONE;
import static org.bforest.spi.LeafChainIndex.bitsBelow;
import static org.bforest.spi.LeafChainIndex.bitsFrom;

import org.bforest.LongEntryVisitor;

/**
 * The range count and visit over a {@link LeafChainIndex}'s chained leaves, with both strategies
 * of the BS-tree paper's section 3.3 (scan the leaves comparing keys; or, once a range is long,
 * descend for its end too and count the leaves between from their bitmaps): the index checks and
 * normalises the bounds, this class walks the leaves through the position SPI.
 */
final class LeafRanges {
    private LeafRanges() {
    }

    /**
     * Counts the keys in the leaves in {@code [from, to)} ({@code from < to}), with both strategies
     * of section 3.3 chosen as the scan goes: it descends for {@code from} and scans leaves,
     * comparing their keys with {@code to} (Algorithm 4); a range that has not ended after
     * {@code scanLeaves + 1} leaves is long, so it then descends for {@code to} as well and counts
     * the leaves in between from their bitmaps alone, without reading their keys.
     */
    static long countBelow(LeafChainIndex t, long from, long to, int scanLeaves) {
        if (from >= to) {
            return 0;
        }
        int leaf = t.findLeaf(from);
        int s = t.leafSuccGE(leaf, from);
        long n = 0;
        for (int scanned = 0; ; scanned++) {
            long bm = t.leafBitmap(leaf);
            int e = t.leafSuccGE(leaf, to);
            n += Long.bitCount(bitsFrom(bm, s) & bitsBelow(bm, e));
            if (bitsFrom(bm, e) != 0) {
                return n; // a used key >= to: the range ends in this leaf
            }
            // Switch only at a leaf with keys (all < to here): the leaf holding `to` is then this one
            // or a later one. Past an empty leaf it could be behind the scan.
            if (scanned >= scanLeaves && bm != 0) {
                return n + countAfter(t, leaf, to);
            }
            leaf = t.leafNext(leaf);
            if (leaf == NONE) {
                return n;
            }
            s = 0;
        }
    }

    /**
     * Keys {@code < to} in the leaves after {@code leaf}, by a second descent (strategy 2): the
     * leaves strictly between contribute their bitmaps' population counts.
     */
    private static long countAfter(LeafChainIndex t, int leaf, long to) {
        int endLeaf = endLeaf(t, to);
        if (endLeaf == leaf) {
            return 0;
        }
        int endSlot = endSlot(t, endLeaf, to);
        long n = 0;
        for (leaf = t.leafNext(leaf); leaf != endLeaf; leaf = t.leafNext(leaf)) {
            n += Long.bitCount(t.leafBitmap(leaf));
        }
        return n + Long.bitCount(bitsBelow(t.leafBitmap(endLeaf), endSlot));
    }

    /** The leaf that holds the first position {@code >= to} (the last leaf when {@code to} is MAXKEY). */
    private static int endLeaf(LeafChainIndex t, long to) {
        return to == MAXKEY ? t.lastLeaf() : t.findLeaf(to);
    }

    /** The slot in {@link #endLeaf} below which the keys are {@code < to}. */
    private static int endSlot(LeafChainIndex t, int endLeaf, long to) {
        return to == MAXKEY ? MAX_SLOTS : t.leafSuccGE(endLeaf, to);
    }

    /** Visits the keys in the leaves in {@code [from, to)}; the count, negated if the visitor stopped. */
    static long visitBelow(LeafChainIndex t, long from, long to, LongEntryVisitor visitor, int scanLeaves, int expected) {
        if (from >= to) {
            return 0;
        }
        int leaf = t.findLeaf(from);
        int s = t.leafSuccGE(leaf, from);
        int endLeaf = NONE;
        int endSlot = MAX_SLOTS;
        long n = 0;
        for (int scanned = 0; ; scanned++) {
            long bm = t.leafBitmap(leaf);
            boolean last;
            int e;
            if (endLeaf == NONE) {
                e = t.leafSuccGE(leaf, to);
                last = bitsFrom(bm, e) != 0;
            } else {
                last = leaf == endLeaf;
                e = last ? endSlot : MAX_SLOTS;
            }
            long bits = bitsFrom(bm, s) & bitsBelow(bm, e);
            if (bits != 0) {
                int visited = t.visitLeaf(leaf, bits, visitor, expected);
                if (visited < 0) {
                    return -(n - visited);
                }
                n += visited;
            }
            if (last) {
                return n;
            }
            if (endLeaf == NONE && scanned >= scanLeaves && bm != 0) { // see countBelow
                endLeaf = endLeaf(t, to);
                endSlot = endSlot(t, endLeaf, to);
                if (endLeaf == leaf) {
                    return n;
                }
            }
            leaf = t.leafNext(leaf);
            if (leaf == NONE) {
                return n;
            }
            s = 0;
        }
    }
}
