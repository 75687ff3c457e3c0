package org.bforest.olc;

import java.util.Arrays;

/**
 * What a read-only descent found: the leaf and the version it had when its parent was validated.
 * A query that crosses leaves records every (leaf, version) it read in {@link #seen} and validates
 * them all at the end, so that its answer held at one instant (linearizable), not leaf by leaf;
 * the walk under locks ({@link OlcNeighbours}) keeps the leaves it holds there. It also notes the
 * first empty leaf it met (by a key of its range), for {@link OlcUnlinker#metEmpty}.
 *
 * <p>One per call of a neighbour query (the JIT usually removes it), one per cursor.
 */
class Probe {
    /** A node id in {@link #seen} that stands for the out-of-band {@code Long.MAX_VALUE} record. */
    static final int MAX_RECORD = -1;

    int leaf;
    long version;

    /** A neighbour query's answer: whether there is one, its key and value. */
    boolean found;
    long key;
    long value;

    /** Whether the query met an empty leaf, and a key in that leaf's range. */
    boolean emptySeen;
    long emptyKey;

    /** Pairs (node id, version) read so far, {@link #seenCount} of them. */
    long[] seen;
    int seenCount;

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

    /** Notes a leaf read with bitmap {@code bm} whose range holds {@code key}, if it is the first empty one. */
    final void noteEmpty(int bm, long key) {
        if (bm == 0 && !emptySeen) {
            emptySeen = true;
            emptyKey = key;
        }
    }
}
