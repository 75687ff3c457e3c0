package org.bforest.opencl.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The host's page planning, no device needed: how pages split ({@link Level#piecesFor}) and the page ids ({@link PageIds}). */
class PagePlanTest {
    /**
     * Every split at every page size from 2 to 70 and every result up to 40 pages' worth: each
     * piece fits its page; an inner page's pieces keep a key each (the first piece keeps its
     * entries, the others give their first one up); a leaf's pieces are not empty; and the
     * pieces hold more than half the split's target on average (three eighths of a page, and at
     * least one and a half entries an inner piece), so a tree's pages stay a constant factor of
     * its keys.
     */
    @Test
    void everyPieceFitsAndEveryInnerPieceKeepsAKey() {
        for (int pageKeys = 2; pageKeys <= 70; pageKeys++) {
            for (int total = 1; total <= 40 * pageKeys + 3; total++) {
                for (boolean inner : new boolean[] {false, true}) {
                    Level lv = new Level(inner);
                    lv.add(0, total, 0, 0);
                    lv.runLen[0] = 0;
                    int pieces = Level.piecesFor(total, pageKeys, inner);
                    lv.pieces[0] = pieces;
                    String at = (inner ? "inner" : "leaf") + " page of " + pageKeys + " keys, " + total + " entries, "
                            + pieces + " pieces";
                    assertEquals(total <= pageKeys, pieces == 1, at);
                    int sum = 0;
                    for (int t = 0; t < pieces; t++) {
                        int size = lv.from(0, t + 1, false) - lv.from(0, t, false);
                        int kept = size - (inner && t > 0 ? 1 : 0);
                        assertEquals(kept, lv.pieceCount(0, t), at);
                        assertTrue(kept <= pageKeys, at + ": piece " + t + " keeps " + kept);
                        assertTrue(kept >= 1, at + ": piece " + t + " keeps " + kept);
                        sum += size;
                    }
                    assertEquals(total, sum, at);
                    if (pieces > 1) {
                        int target = Math.max(inner ? 2 : 1, pageKeys * 3 / 4);
                        assertTrue((double) total / pieces > target / 2.0, at);
                        assertTrue(!inner || total >= 2 * pieces - 1, at);   // two entries a piece, the first one
                    }
                }
            }
        }
    }

    @Test
    void pageIdsAreHandedOutLowestFirstAndTheTopFollowsTheHighestInUse() {
        PageIds ids = new PageIds();
        ids.reset(3);
        assertEquals(3, ids.alloc());
        assertEquals(4, ids.alloc());
        assertEquals(5, ids.top());
        ids.release(1);
        ids.release(3);
        assertEquals(5, ids.top());
        assertEquals(3, ids.inUse());
        assertTrue(ids.isFree(1));
        assertEquals(1, ids.alloc());
        assertEquals(3, ids.alloc());
        assertEquals(5, ids.alloc());
        // Freeing the highest ids lowers the top past every free id below them.
        ids.release(2);
        ids.release(5);
        ids.release(4);
        assertEquals(4, ids.top());
        ids.release(3);
        assertEquals(2, ids.top());
        assertEquals(0, ids.freeCount());
        assertThrows(IllegalStateException.class, () -> ids.release(2));
        assertThrows(IllegalStateException.class, () -> ids.release(-1));
        ids.release(0);
        assertThrows(IllegalStateException.class, () -> ids.release(0));
        assertEquals(2, ids.top());
        assertEquals(0, ids.alloc());
    }

    /** Random takes and gives against a set: the same ids in use, the lowest free one handed out. */
    @Test
    void pageIdsAgainstASet() {
        SplittableRandom r = new SplittableRandom(7);
        PageIds ids = new PageIds();
        ids.reset(10);
        TreeSet<Integer> used = new TreeSet<>();
        for (int i = 0; i < 10; i++) {
            used.add(i);
        }
        for (int step = 0; step < 20_000; step++) {
            if (used.isEmpty() || r.nextInt(5) < 2) {
                int lowestFree = 0;
                while (used.contains(lowestFree)) {
                    lowestFree++;
                }
                assertEquals(lowestFree, ids.alloc(), "step " + step);
                used.add(lowestFree);
            } else {
                int k = r.nextInt(used.last() + 1);
                Integer id = used.ceiling(k);
                ids.release(id);
                used.remove(id);
            }
            int top = used.isEmpty() ? 0 : used.last() + 1;
            assertEquals(top, ids.top(), "step " + step);
            assertEquals(used.size(), ids.inUse(), "step " + step);
            if (step % 1000 == 0) {
                for (int p = 0; p < top; p++) {
                    assertEquals(!used.contains(p), ids.isFree(p), "step " + step + ", id " + p);
                }
            }
        }
    }

    /** A plan that does not run gives its new pages back: the ids are as they were. */
    @Test
    void anAbandonedPlanGivesItsIdsBack() {
        PageIds ids = new PageIds();
        ids.reset(6);
        ids.release(2);
        Level lv = new Level(false);
        lv.add(0, 4, 0, 0);
        lv.runLen[0] = 20;
        lv.add(5, 4, 20, 1);
        lv.runLen[1] = 9;
        int fresh = lv.assignPieces(4, ids);
        assertTrue(fresh > 2);
        assertFalse(ids.isFree(2));
        assertEquals(2, lv.destPages[lv.dest[0] + 1], "the free id first");
        lv.releaseNew(ids);
        assertEquals(6, ids.top());
        assertEquals(5, ids.inUse());
        assertTrue(ids.isFree(2));
        if (ids.freeCount() != 1) {
            fail("free ids: " + ids.freeCount());
        }
    }

    /**
     * A batch's distinct keys, ascending, each with the last value the batch gives it: at sizes
     * that sort on one thread and in parts on the host threads, with many repeats.
     */
    @Test
    void distinctSortedKeepsTheLastValueOfEveryKey() {
        SplittableRandom r = new SplittableRandom(0xD15C);
        // One plan throughout, as a tree's: its kept arrays hold the last batch's keys, growing,
        // shrinking and, over the size kept, a batch's own.
        BatchPlan plan = new BatchPlan(100_000);
        for (int n : new int[] {0, 1, 1000, 2 * HostWork.MIN_PART + 1, 300_000, 80_000, 90_000, 1000}) {
            long[] keys = new long[n];
            long[] values = new long[n];
            java.util.TreeMap<Long, Long> model = new java.util.TreeMap<>();
            for (int i = 0; i < n; i++) {
                keys[i] = switch (r.nextInt(4)) {
                    case 0 -> r.nextLong();
                    case 1 -> Long.MIN_VALUE + r.nextInt(3);
                    default -> r.nextLong(-(n / 2 + 1), n / 2 + 1);   // repeats
                };
                values[i] = r.nextLong();
                model.put(keys[i], values[i]);
            }
            assertEquals(model.size(), plan.distinctSorted(keys, values), "n=" + n);
            long[] sorted = plan.keys();
            long[] last = plan.values();
            int i = 0;
            for (var e : model.entrySet()) {
                assertEquals(e.getKey(), sorted[i], "n=" + n + ", key " + i);
                assertEquals(e.getValue(), last[i], "n=" + n + ", the last value of key " + e.getKey());
                i++;
            }
            assertEquals(model.size(), plan.distinctSorted(keys, null), "n=" + n + ", keys only");
            assertEquals(null, plan.values(), "n=" + n + ", keys only");
            i = 0;
            for (long k : model.keySet()) {
                assertEquals(k, plan.keys()[i++], "n=" + n + ", keys only, key " + (i - 1));
            }
        }
    }
}
