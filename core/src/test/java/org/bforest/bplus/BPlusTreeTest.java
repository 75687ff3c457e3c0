package org.bforest.bplus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * What the conformance kit cannot see of the B+-tree: the shapes its bulk load, splits and lazy
 * deletion produce (the kit runs it as {@code bplus} and {@code bplus-sparse}).
 */
class BPlusTreeTest {

    private static long[] keys(int n, long step) {
        long[] k = new long[n];
        for (int i = 0; i < n; i++) {
            k[i] = i * step;
        }
        return k;
    }

    @Test
    void bulkLoadFillsLeavesAsAskedAndEvenly() {
        BPlusTree dense = BPlusTree.bulkLoad("t", keys(16 * 1000, 3), null, 1.0);
        assertEquals(1000, dense.leafIds.inUse());
        BPlusTree sparse = BPlusTree.bulkLoad("t", keys(12 * 1000, 3), null, 0.75);
        assertEquals(1000, sparse.leafIds.inUse());
        for (int leaf = sparse.firstLeaf(); leaf != BPlusTree.NONE; leaf = sparse.leafNext(leaf)) {
            assertEquals(12, sparse.leafCount(leaf));
        }
        // 1000 leaves, 17 children a node: 59, then 4, then the root.
        assertEquals(3, dense.height);
        BPlusTree odd = BPlusTree.bulkLoad("t", keys(16 * 5 + 1, 1), null, 1.0);
        int min = Integer.MAX_VALUE;
        for (int leaf = odd.firstLeaf(); leaf != BPlusTree.NONE; leaf = odd.leafNext(leaf)) {
            min = Math.min(min, odd.leafCount(leaf));
        }
        assertTrue(min >= 13, "spread evenly, no nearly empty last leaf: " + min);
        dense.checkInvariants();
        sparse.checkInvariants();
        odd.checkInvariants();
        assertThrows(IllegalArgumentException.class, () -> BPlusTree.bulkLoad("t", keys(10, 1), null, 0.4));
    }

    @Test
    void splitsKeepNineAndMoveEightAndGrowTheRoot() {
        BPlusTree t = new BPlusTree("t", 1.0);
        for (int i = 0; i < 16; i++) {
            t.put(i * 10L, i);
        }
        assertEquals(0, t.height);
        t.put(5, -1); // the 17th entry splits the root leaf
        assertEquals(1, t.height);
        assertEquals(9, t.leafCount(t.firstLeaf()));
        assertEquals(8, t.leafCount(t.lastLeaf()));
        t.checkInvariants();
        for (long k = 1000; k < 200_000; k++) { // ascending inserts: every level splits on the way
            t.put(k, k);
        }
        assertTrue(t.height >= 4, "height " + t.height);
        t.checkInvariants();
        for (long k = 1_000_000; k > 800_000; k--) { // descending too
            t.put(k, k);
        }
        t.checkInvariants();
    }

    @Test
    void lazyDeletionFreesEmptiedNodesAndCollapsesTheRoot() {
        BPlusTree t = BPlusTree.bulkLoad("t", keys(50_000, 2), null, 1.0);
        int height = t.height;
        SplittableRandom r = new SplittableRandom(5);
        long[] order = keys(50_000, 2);
        for (int i = order.length - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            long x = order[i];
            order[i] = order[j];
            order[j] = x;
        }
        for (int i = 0; i < order.length; i++) {
            assertTrue(t.delete(order[i]));
            if (i % 5000 == 0) {
                t.checkInvariants();
            }
        }
        assertEquals(0, t.size());
        assertEquals(0, t.height, "the root collapsed from height " + height);
        assertEquals(1, t.leafIds.inUse());
        assertEquals(0, t.innerIds.inUse());
        t.checkInvariants();
        for (long k = 0; k < 10_000; k++) { // freed ids are reused
            t.put(k, k);
        }
        t.checkInvariants();
        assertTrue(t.leafIds.count() <= 50_000 / 16 + 2, "leaf ids reused: " + t.leafIds.count());
    }
}
