package org.bforest.opencl.pages;

import static org.bforest.spi.LeafChainIndex.MAXKEY;
import static org.bforest.spi.LeafChainIndex.NONE;

/**
 * Range counts' host side: a bound's rank (how many keys of the leaves are below it) is the keys
 * of the leaf pages before its page in chain order, from the host's counts, plus its insertion
 * point in the page, from the look-up. The running sums along the chain are kept here and
 * recomputed (one pass over the chain) the first time they are needed after a write. Apart from
 * {@link PagedTree} as a cache with its own invalidation; it reads the tree's arrays, never holds
 * them.
 */
final class ChainRanks {
    /** Keys in the leaf pages before each page in chain order, as of {@link #stamp}. */
    private long[] before = new long[0];
    private long stamp = -1;

    /**
     * {@code ranks[i]} for i below n, from the look-up of {@code bounds} ({@code at}: slots at
     * [0, n), leaf pages at [n, 2n)); {@code all}: the keys of the leaves, {@code Long.MAX_VALUE}'s
     * rank. The sums are first brought up to the tree's {@code stamp}.
     */
    void ranks(long[] bounds, int n, long[] at, long all, long[] ranks, long stamp, LeafChain chain) {
        long[] before = before(stamp, chain);
        for (int i = 0; i < n; i++) {
            long slot = at[i];
            ranks[i] = bounds[i] == MAXKEY ? all : before[(int) at[n + i]] + (slot >= 0 ? slot : -slot - 1);
        }
    }

    private long[] before(long s, LeafChain chain) {
        if (stamp != s || before.length != chain.count.length) {
            if (before.length != chain.count.length) {
                before = new long[chain.count.length];   // indexed by page id, as the chain is
            }
            long sum = 0;
            for (int p = chain.first; p != NONE; p = chain.next[p]) {
                before[p] = sum;
                sum += chain.count[p];
            }
            stamp = s;
        }
        return before;
    }
}
