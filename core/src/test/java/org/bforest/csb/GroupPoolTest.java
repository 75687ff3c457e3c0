package org.bforest.csb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;
import org.bforest.storage.FlatLongNodeArray;
import org.bforest.storage.IntNodeArray;
import org.bforest.storage.LongNodeArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The CSB+-trees' id pool on its own, over bare node arrays: ids from the high-water mark, reuse
 * of a freed group of the size asked, cutting a larger one, merging with free neighbours on either
 * side, giving a free run at the top back to the mark, the shared list of sizes over S, storage
 * growth and exhaustion, and the self-check catching a broken record.
 */
class GroupPoolTest {
    private static final int S = 8;

    private FlatLongNodeArray nodes;

    private GroupPool innerPool() {
        nodes = new FlatLongNodeArray(S, 1);
        return GroupPool.ofInner("pool", S, nodes);
    }

    private static List<Integer> pairs(int[] free) {
        List<Integer> out = new ArrayList<>();
        for (int f : free) {
            out.add(f);
        }
        return out;
    }

    /** The free groups as a sorted list of (first, size) pairs. */
    private static List<List<Integer>> freeSorted(GroupPool p) {
        int[] f = p.freeGroups();
        List<List<Integer>> out = new ArrayList<>();
        for (int i = 0; i < f.length; i += 2) {
            out.add(List.of(f[i], f[i + 1]));
        }
        out.sort((a, b) -> Integer.compare(a.get(0), b.get(0)));
        return out;
    }

    @Test
    void idsComeFromTheHighWaterMarkAndStorageGrows() {
        GroupPool p = innerPool();
        assertEquals(0, p.alloc(3));
        assertEquals(3, p.alloc(5));
        assertEquals(8, p.alloc(1));
        assertEquals(9, p.highWater());
        assertEquals(9, p.used());
        assertTrue(nodes.capacity() >= 9, "the node array grew: " + nodes.capacity());
        assertTrue(p.tagWords() >= 1, "tags for 9 ids");
        assertEquals(0, p.freeGroups().length);
        // a group of none takes nothing
        assertEquals(0, p.alloc(0));
        p.free(4, 0);
        assertEquals(9, p.highWater());
        assertEquals(9, p.used());
    }

    @Test
    void aFreedGroupIsReusedForItsSize() {
        GroupPool p = innerPool();
        p.alloc(2);
        int g = p.alloc(4);
        p.alloc(2);
        p.free(g, 4);
        assertEquals(List.of(g, 4), pairs(p.freeGroups()));
        assertEquals(4, p.used());
        assertEquals(g, p.alloc(4));
        assertEquals(8, p.highWater(), "no new id");
        assertEquals(0, p.freeGroups().length);
    }

    @Test
    void theSmallestLargerFreeGroupIsCutAndItsRestStaysFree() {
        GroupPool p = innerPool();
        p.alloc(1);
        int seven = p.alloc(7);
        p.alloc(1);
        int six = p.alloc(6);
        p.alloc(1);
        p.free(seven, 7);
        p.free(six, 6);
        assertEquals(List.of(List.of(seven, 7), List.of(six, 6)), freeSorted(p));
        assertEquals(six, p.alloc(3), "cut from the front of the 6, the smaller of the two");
        assertEquals(List.of(List.of(seven, 7), List.of(six + 3, 3)), freeSorted(p));
        assertEquals(six + 3, p.alloc(3), "the exact size");
        assertEquals(seven, p.alloc(5));
        assertEquals(List.of(List.of(seven + 5, 2)), freeSorted(p));
        assertEquals(seven + 5, p.alloc(1));
        assertEquals(seven + 6, p.alloc(1));
        assertEquals(0, p.freeGroups().length);
        assertEquals(16, p.highWater(), "every group came from the free ones");
    }

    @Test
    void freedNeighboursMergeOnEitherSide() {
        GroupPool p = innerPool();
        int a = p.alloc(2);
        int b = p.alloc(3);
        int c = p.alloc(4);
        p.alloc(1); // keeps the run below the mark
        p.free(a, 2);
        p.free(c, 4);
        assertEquals(List.of(List.of(a, 2), List.of(c, 4)), freeSorted(p));
        p.free(b, 3); // the hole between them: one group of nine
        assertEquals(List.of(List.of(a, 9)), freeSorted(p));
        assertEquals(1, p.used());
        // merged from the right only
        GroupPool q = innerPool();
        int x = q.alloc(2);
        int y = q.alloc(2);
        q.alloc(1);
        q.free(y, 2);
        q.free(x, 2);
        assertEquals(List.of(List.of(x, 4)), freeSorted(q));
        // and the merged group is on the list of its new size: a request for 4 takes it whole
        assertEquals(x, q.alloc(4));
        assertEquals(0, q.freeGroups().length);
    }

    @Test
    void aFreeRunAtTheTopLowersTheHighWaterMark() {
        GroupPool p = innerPool();
        p.alloc(2);
        int b = p.alloc(3);
        int c = p.alloc(4);
        p.free(b, 3);
        assertEquals(9, p.highWater());
        p.free(c, 4); // merges with b, and the run ends the used ids
        assertEquals(2, p.highWater());
        assertEquals(0, p.freeGroups().length);
        assertEquals(2, p.alloc(5), "ids from the lowered mark again");
        p.free(0, 2);
        p.free(2, 5);
        assertEquals(0, p.highWater(), "everything given back");
        assertEquals(0, p.used());
        assertEquals(0, p.freeGroups().length);
    }

    @Test
    void sizesOverSShareTheLastList() {
        GroupPool p = innerPool();
        p.alloc(1);
        int big = p.alloc(3 * S);
        p.alloc(1);
        int mid = p.alloc(S + 2);
        p.alloc(1);
        p.free(mid, S + 2);
        p.free(big, 3 * S); // the last list holds both, the 3S one at its head
        assertEquals(big, p.alloc(2 * S), "cut from the 3S one");
        assertEquals(List.of(List.of(big + 2 * S, S), List.of(mid, S + 2)), freeSorted(p));
        assertEquals(big + 2 * S, p.alloc(S), "a request of size S finds the exact list first");
        assertEquals(mid, p.alloc(S + 1), "one over S takes the last list's head, which fits");
        assertEquals(List.of(List.of(mid + S + 1, 1)), freeSorted(p));
    }

    @Test
    void aRequestOverSLooksAtTheLastListsHeadOnly() {
        GroupPool p = innerPool();
        p.alloc(1);
        int big = p.alloc(3 * S);
        p.alloc(1);
        int mid = p.alloc(S + 2);
        p.alloc(1);
        int hw = p.highWater();
        p.free(big, 3 * S);
        p.free(mid, S + 2); // now the head of the last list
        assertEquals(hw, p.alloc(2 * S), "the head is too small: ids from the mark (the 3S one is not searched for)");
        assertEquals(List.of(List.of(big, 3 * S), List.of(mid, S + 2)), freeSorted(p));
    }

    @Test
    void reservedRoomMakesAllocationsGrowNothing() {
        GroupPool p = innerPool();
        p.alloc(1);
        p.reserveMore(100);
        int capacity = nodes.capacity();
        long[] array = nodes.chunk(0);
        int tags = p.tagWords();
        assertTrue(capacity >= 101);
        for (int i = 0; i < 10; i++) {
            p.alloc(10);
        }
        assertEquals(101, p.highWater());
        assertEquals(capacity, nodes.capacity(), "no growth inside the reserve");
        assertTrue(array == nodes.chunk(0), "the array was not copied");
        assertEquals(tags, p.tagWords());
        p.alloc(1);
        assertTrue(nodes.capacity() >= 102);
    }

    @Test
    void theLeafPoolGrowsKeysValuesAndLinksTogether() {
        LongNodeArray keys = LongNodeArray.smallChunks(S, 1);
        LongNodeArray values = LongNodeArray.smallChunks(S, 1);
        IntNodeArray links = new IntNodeArray(2, 1);
        GroupPool p = GroupPool.ofLeaves("leaves", S, keys, values, links);
        int n = 3 * keys.chunkNodes() + 5; // past a chunk boundary or two
        assertEquals(0, p.alloc(n));
        assertTrue(keys.capacity() >= n && values.capacity() >= n && links.capacity() >= n);
        // a group straddling chunks is freed and merged through records in different chunks
        int straddle = keys.chunkNodes() - 2;
        p.free(straddle, 4);
        p.free(straddle + 4, 3);
        p.free(straddle - 5, 5);
        assertEquals(List.of(List.of(straddle - 5, 12)), freeSorted(p));
        assertEquals(straddle - 5, p.alloc(12));
        assertThrows(IllegalStateException.class, () -> p.alloc(Integer.MAX_VALUE - 1), "index full");
    }

    @Test
    void exhaustionThrowsAndHandsOutNoId() {
        GroupPool p = innerPool();
        p.alloc(4);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> p.alloc(Integer.MAX_VALUE - 8));
        assertTrue(e.getMessage().contains("index full"), e.getMessage());
        assertEquals(4, p.highWater(), "the mark did not move");
        assertThrows(IllegalStateException.class, () -> p.reserveMore(Integer.MAX_VALUE));
        assertEquals(4, p.highWater());
        p.freeGroups();
    }

    @Test
    void theSelfCheckCatchesABrokenRecord() {
        GroupPool p = innerPool();
        p.alloc(2);
        int g = p.alloc(3);
        p.alloc(2);
        p.free(g, 3);
        p.freeGroups();
        long[] a = nodes.chunk(0);
        int sizeSlot = nodes.offset(g) + 2;
        a[sizeSlot] = 2; // the size record
        IllegalStateException e = assertThrows(IllegalStateException.class, p::freeGroups);
        assertTrue(e.getMessage().startsWith("pool: free list 3 at " + g), e.getMessage());
        a[sizeSlot] = 3;
        p.freeGroups();
        int startSlot = nodes.offset(g + 2) + 3;
        a[startSlot] = g + 1; // the last node's first-id record
        e = assertThrows(IllegalStateException.class, p::freeGroups);
        assertTrue(e.getMessage().contains("first-id record"), e.getMessage());
        a[startSlot] = g;
        a[nodes.offset(g) + 1] = 0; // the back link
        assertThrows(IllegalStateException.class, p::freeGroups);
        a[nodes.offset(g) + 1] = -1;
        a[nodes.offset(g)] = g; // a list that loops
        e = assertThrows(IllegalStateException.class, p::freeGroups);
        assertTrue(e.getMessage().contains("broken") || e.getMessage().contains("wrong"), e.getMessage());
        a[nodes.offset(g)] = -1;
        p.freeGroups();
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void randomAllocationsAndFreesKeepEveryIdInOnePlace(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        GroupPool p = innerPool();
        List<int[]> live = new ArrayList<>();
        BitSet liveIds = new BitSet();
        for (int step = 0; step < 20_000; step++) {
            if (live.isEmpty() || r.nextInt(100) < 55) {
                int n = 1 + (r.nextInt(10) == 0 ? r.nextInt(4 * S) : r.nextInt(S));
                int g = p.alloc(n);
                int taken = liveIds.nextSetBit(g);
                assertTrue(taken < 0 || taken >= g + n, "group [" + g + ", " + (g + n) + ") overlaps a live id");
                liveIds.set(g, g + n);
                live.add(new int[] {g, n});
            } else {
                int[] gn = live.remove(r.nextInt(live.size()));
                p.free(gn[0], gn[1]);
                liveIds.clear(gn[0], gn[0] + gn[1]);
            }
            if (step % 500 == 0 || live.isEmpty()) {
                checkPartition(p, liveIds);
            }
        }
        checkPartition(p, liveIds);
        for (int[] gn : live) {
            p.free(gn[0], gn[1]);
        }
        assertEquals(0, p.highWater(), "all freed: the mark is back at 0");
        assertEquals(0, p.used());
        assertArrayEquals(new int[0], p.freeGroups());
    }

    /** Live and free ids cover {@code [0, highWater)} exactly once; the counts agree. */
    private static void checkPartition(GroupPool p, BitSet liveIds) {
        assertEquals(liveIds.cardinality(), p.used());
        BitSet all = (BitSet) liveIds.clone();
        int[] free = p.freeGroups(); // checks the lists, tags, records, touching and overlap
        for (int i = 0; i < free.length; i += 2) {
            int taken = all.nextSetBit(free[i]);
            assertTrue(taken < 0 || taken >= free[i] + free[i + 1], "free group at " + free[i] + " holds a live id");
            all.set(free[i], free[i] + free[i + 1]);
        }
        assertEquals(p.highWater(), all.cardinality(), "every id below the mark is live or free");
        assertEquals(p.highWater(), all.length() == 0 ? 0 : all.length());
    }
}
