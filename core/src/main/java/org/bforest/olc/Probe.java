package org.bforest.olc;

import static org.bforest.kernel.GapSlots.MAXKEY;
import static org.bforest.kernel.GapSlots.N;

import java.util.Arrays;

/**
 * What a read-only descent found: the leaf, the version it had when its parent was validated, and
 * the leaf's key range {@code [low, high)} as the separators on the path bound it. A query that
 * crosses leaves records every (leaf, version) it read in {@link #seen} and validates them all at
 * the end, so that its answer held at one instant (linearizable), not leaf by leaf.
 *
 * <p>One per call of a neighbour query (the JIT usually removes it), one per cursor.
 */
class Probe {
    /** A node id in {@link #seen} that stands for the out-of-band {@code Long.MAX_VALUE} record. */
    static final int MAX_RECORD = -1;

    int leaf;
    long version;
    boolean hasLow;
    long low;
    boolean hasHigh;
    long high;

    /** A neighbour query's answer: whether there is one, its key and value. */
    boolean found;
    long key;
    long value;

    /** Pairs (node id, version) read so far, {@link #seenCount} of them. */
    long[] seen;
    int seenCount;

    /**
     * Narrows the leaf's range by the separators around child {@code c} of the inner node whose keys
     * start at {@code kc[off]} (a descent calls it on every level: the deepest separators are the
     * tightest bounds).
     */
    final void narrow(long[] kc, int off, int c) {
        if (c > 0) {
            low = kc[off + c - 1];
            hasLow = true;
        }
        if (c < N && kc[off + c] != MAXKEY) {
            high = kc[off + c];
            hasHigh = true;
        }
    }

    final void resetSeen() {
        seenCount = 0;
    }

    final void see(int node, long version) {
        if (seen == null) {
            seen = new long[8];
        } else if (2 * seenCount + 2 > seen.length) {
            seen = Arrays.copyOf(seen, seen.length * 2);
        }
        seen[2 * seenCount] = node;
        seen[2 * seenCount + 1] = version;
        seenCount++;
    }
}
