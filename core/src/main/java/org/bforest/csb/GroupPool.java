package org.bforest.csb;

import java.util.Arrays;
import java.util.BitSet;
import org.bforest.spi.LeafChainIndex;
import org.bforest.spi.PackedLeaves;
import org.bforest.storage.FlatLongNodeArray;
import org.bforest.storage.IntNodeArray;
import org.bforest.storage.LongNodeArray;

/**
 * The ids of one kind of a CSB+-tree's nodes, leaves or inner nodes (the tree has one pool of
 * each): which ids are in use, and where a new node group goes. It owns the kind's high-water
 * mark, the count of ids in live groups, the free lists by group size and the boundary tags of
 * the free groups; it grows the kind's node arrays, but never reads or writes a live node. Apart
 * from the tree because the two kinds' bookkeeping is the same code over different arrays, and
 * because none of it is on a descent's path (only a split allocates or frees).
 *
 * <h2>The free pool</h2>
 * The paper's keeps a free list per group size and never coalesces; but after a bulk load every
 * group grows through the same sizes at once, and a full parent's split frees {@code S} ids and
 * asks for two groups of about {@code S/2}, so such lists fill with groups nobody asks for again
 * (the plain tree held 46 bytes a key after 1M inserts into 1M, 17 after the bulk load). So a
 * freed group merges with free neighbours (boundary tags: one bit marks the first and one the last
 * id of every free group, two bits an id, so freeing finds a free neighbour on either side in
 * O(1)), a free run that reaches the high-water mark lowers it, and a request with no free group
 * of its size cuts the smallest larger one. A free group keeps its list links, size and first id
 * in its own nodes' first longs (no allocation): first node [LINK_NEXT] [LINK_PREV] [SIZE], last
 * node [START]; every node has at least 8.
 */
final class GroupPool {
    private static final int NONE = LeafChainIndex.NONE;
    private static final long[] NO_TAGS = new long[0];
    private static final int LINK_NEXT = 0;
    private static final int LINK_PREV = 1;
    private static final int SIZE = 2;
    private static final int START = 3;

    /**
     * The node arrays of one kind: the first one's nodes hold a free group's records; all of them
     * grow together.
     */
    interface Nodes {
        long[] chunk(int id);

        int offset(int id);

        void ensureCapacity(long ids);
    }

    /** Named in the checks' messages (the tree: its {@code toString} at the time of the failure). */
    private final Object owner;
    /** S: the largest group a list holds by its size; larger ones share the last list. */
    private final int width;
    private final Nodes nodes;
    /** Heads of the free lists by group size (the last: all sizes over S); see {@link #takeFree}. */
    private final int[] heads;
    /** Boundary tags of the free groups, two bits an id: the first id's even bit, the last id's odd one. */
    private long[] tags = NO_TAGS;
    private int highWater;
    private long used;

    GroupPool(Object owner, int width, Nodes nodes) {
        this.owner = owner;
        this.width = width;
        this.nodes = nodes;
        this.heads = new int[width + 2];
        Arrays.fill(heads, NONE);
    }

    /** The pool of a tree's leaves: free-group records in the key nodes; keys, values and links grow together. */
    static GroupPool ofLeaves(Object owner, int width, LongNodeArray keys, LongNodeArray values, IntNodeArray links) {
        return new GroupPool(owner, width, new Nodes() {
            @Override
            public long[] chunk(int id) {
                return keys.chunk(id);
            }

            @Override
            public int offset(int id) {
                return keys.offset(id);
            }

            @Override
            public void ensureCapacity(long ids) {
                PackedLeaves.ensure(keys, values, links, ids);
            }
        });
    }

    /** The pool of a tree's inner nodes, all in one flat array. */
    static GroupPool ofInner(Object owner, int width, FlatLongNodeArray inner) {
        return new GroupPool(owner, width, new Nodes() {
            @Override
            public long[] chunk(int id) {
                return inner.chunk(id);
            }

            @Override
            public int offset(int id) {
                return inner.offset(id);
            }

            @Override
            public void ensureCapacity(long ids) {
                inner.ensureCapacity(ids);
            }
        });
    }

    /** Ids below this were handed out at some time (each is in a live group or a free one). */
    int highWater() {
        return highWater;
    }

    /** Ids in live groups. */
    long used() {
        return used;
    }

    /** Longs of the boundary tags. */
    int tagWords() {
        return tags.length;
    }

    /** Heap bytes of the free-list heads and the boundary tags (for the tree's memory count). */
    long bytes() {
        return PackedLeaves.bytes(heads) + PackedLeaves.bytes(tags);
    }

    /**
     * Forgets every id, as if none were ever handed out (a bulk load lays its ids out from 0 over
     * the empty tree's one leaf). Only for a pool with no free group.
     */
    void forgetAll() {
        highWater = 0;
        used = 0;
    }

    /** A group of {@code n} contiguous ids (storage grown here when it comes from the high-water mark); 0 if {@code n} is 0. */
    int alloc(int n) {
        if (n == 0) {
            return 0;
        }
        used += n;
        int g = takeFree(n);
        if (g != NONE) {
            return g;
        }
        reserve((long) highWater + n);
        g = highWater;
        highWater += n;
        return g;
    }

    /** Gives back the group {@code [g, g+n)} (nothing if {@code n} is 0). */
    void free(int g, int n) {
        if (n == 0) {
            return;
        }
        used -= n;
        release(g, n);
    }

    /** Storage and tags for ids below {@code ids}, so that allocations up to there cannot fail. */
    void reserve(long ids) {
        nodes.ensureCapacity(ids);
        tags = growTags(tags, ids);
    }

    /** Room for {@code ids} more ids above the high-water mark (a split reserves before it writes). */
    void reserveMore(long ids) {
        reserve(highWater + ids);
    }

    private long slot(int id, int i) {
        return nodes.chunk(id)[nodes.offset(id) + i];
    }

    private void setSlot(int id, int i, long v) {
        nodes.chunk(id)[nodes.offset(id) + i] = v;
    }

    /** The list a free group of {@code n} ids is on: its size, or the last one for sizes over S. */
    private int listOf(int n) {
        return Math.min(n, width + 1);
    }

    /** A free group for {@code n} ids, cut from a larger one if none has the size; {@code NONE} if none fits. */
    private int takeFree(int n) {
        for (int m = listOf(n); m < heads.length; m++) {
            int g = heads[m];
            if (g == NONE) {
                continue;
            }
            int size = (int) slot(g, SIZE);
            if (size < n) { // only in the last list, which holds every size over S: a bulk run
                continue;
            }
            unlinkFree(g, size);
            if (size > n) {
                linkFree(g + n, size - n); // its neighbours are in use: nothing to merge
            }
            return g;
        }
        return NONE;
    }

    /** Frees {@code [g, g+n)}: merged with the free groups on either side, or given back to the high-water mark. */
    private void release(int g, int n) {
        if (g > 0 && isLast(g - 1)) {
            int left = (int) slot(g - 1, START);
            unlinkFree(left, g - left);
            n += g - left;
            g = left;
        }
        if (g + n < highWater && isFirst(g + n)) {
            int right = g + n;
            int size = (int) slot(right, SIZE);
            unlinkFree(right, size);
            n += size;
        }
        if (g + n == highWater) { // the free run ends the used ids: lower the mark (the storage stays reserved)
            highWater = g;
            return;
        }
        linkFree(g, n);
    }

    private void linkFree(int g, int n) {
        int list = listOf(n);
        int next = heads[list];
        setSlot(g, LINK_NEXT, next);
        setSlot(g, LINK_PREV, NONE);
        setSlot(g, SIZE, n);
        setSlot(g + n - 1, START, g);
        if (next != NONE) {
            setSlot(next, LINK_PREV, g);
        }
        heads[list] = g;
        mark(g, g + n - 1);
    }

    private void unlinkFree(int g, int n) {
        int next = (int) slot(g, LINK_NEXT);
        int prev = (int) slot(g, LINK_PREV);
        if (prev == NONE) {
            heads[listOf(n)] = next;
        } else {
            setSlot(prev, LINK_NEXT, next);
        }
        if (next != NONE) {
            setSlot(next, LINK_PREV, prev);
        }
        unmark(g, g + n - 1);
    }

    // ---- boundary tags ----------------------------------------------------------------------------

    /** {@code tags}, or a copy grown to hold ids below {@code ids} (grows by half at least). */
    private static long[] growTags(long[] tags, long ids) {
        long words = (2 * ids + 63) >>> 6;
        if (words <= tags.length) {
            return tags;
        }
        long grown = Math.max(words, tags.length + (tags.length >> 1) + 1);
        if (grown > Integer.MAX_VALUE - 8) {
            throw new OutOfMemoryError("free-group tags for " + ids + " ids");
        }
        return Arrays.copyOf(tags, (int) grown);
    }

    private boolean isFirst(int id) {
        return (tags[id >>> 5] & 1L << (2 * id)) != 0;
    }

    private boolean isLast(int id) {
        return (tags[id >>> 5] & 2L << (2 * id)) != 0;
    }

    /** Tags {@code first} and {@code last} (the same id for a group of one) as a free group's ends. */
    private void mark(int first, int last) {
        tags[first >>> 5] |= 1L << (2 * first);
        tags[last >>> 5] |= 2L << (2 * last);
    }

    private void unmark(int first, int last) {
        tags[first >>> 5] &= ~(1L << (2 * first));
        tags[last >>> 5] &= ~(2L << (2 * last));
    }

    /** Ids tagged as a first id (each free group has one), or with {@code lasts} as a last id. */
    private int countTags(boolean lasts) {
        long mask = lasts ? 0xAAAA_AAAA_AAAA_AAAAL : 0x5555_5555_5555_5555L;
        int n = 0;
        for (long w : tags) {
            n += Long.bitCount(w & mask);
        }
        return n;
    }

    // ---- the pool's own invariants ------------------------------------------------------------------

    /**
     * The free groups, as {@code first, size} pairs, checking the pool's own invariants on the
     * way: each list is doubly linked and holds groups of its size, each group's tags and first-id
     * record are set, no two free groups overlap or touch (they would have merged), none touches
     * the high-water mark, and no tag is left over.
     *
     * @throws IllegalStateException naming the owner, when one is broken
     */
    int[] freeGroups() {
        int[] out = new int[16];
        int n = 0;
        BitSet free = new BitSet();
        int limit = highWater;
        for (int list = 1; list < heads.length; list++) {
            int prev = NONE;
            for (int g = heads[list], steps = 0; g != NONE; steps++) {
                String where = owner + ": free list " + list + " at " + g;
                if (g < 0 || g >= limit || steps > limit) {
                    throw new IllegalStateException(where + " is broken (high-water mark " + limit + ")");
                }
                long size = slot(g, SIZE);
                if (size < 1 || g + size >= limit || listOf((int) size) != list) {
                    throw new IllegalStateException(where + ": a group of " + size + " ids");
                }
                int last = g + (int) size - 1;
                if (slot(g, LINK_PREV) != prev || slot(last, START) != g || !isFirst(g) || !isLast(last)) {
                    throw new IllegalStateException(where + ": links, tags or first-id record wrong");
                }
                if ((g > 0 && isLast(g - 1)) || isFirst(last + 1)) {
                    throw new IllegalStateException(where + ": touches another free group");
                }
                int taken = free.nextSetBit(g);
                if (taken >= 0 && taken <= last) {
                    throw new IllegalStateException(where + ": overlaps another free group at " + taken);
                }
                free.set(g, last + 1);
                if (n + 2 > out.length) {
                    out = Arrays.copyOf(out, 2 * out.length);
                }
                out[n++] = g;
                out[n++] = (int) size;
                prev = g;
                g = (int) slot(g, LINK_NEXT);
            }
        }
        if (countTags(false) != n / 2 || countTags(true) != n / 2) {
            throw new IllegalStateException(owner + ": free-group tags left over (" + countTags(false) + " first, "
                    + countTags(true) + " last, " + n / 2 + " groups listed)");
        }
        return Arrays.copyOf(out, n);
    }
}
