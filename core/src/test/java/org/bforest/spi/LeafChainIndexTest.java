package org.bforest.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The shared layer on a chain that no tree of {@code core} builds but the SPI allows: empty leaves
 * in the middle of the chain (a structure with lazy deletes, or the GPU tree's page windows).
 * Ranges of every bound flavour, under every scan/descend switch point, and the neighbours must
 * still be right (a switch to the second descent at an empty leaf once ran off the chain).
 */
class LeafChainIndexTest {
    /** Read-only leaves over fixed key ranges; leaves 1, 2 and 4 are empty. */
    private static final class FixedLeaves extends LeafChainIndex {
        private final long[][] leaves = {{1, 2}, {}, {}, {30, 31, 35}, {}, {50}};
        private final long[] lows = {Long.MIN_VALUE, 10, 20, 30, 40, 50};

        FixedLeaves() {
            super("fixed leaves");
            for (long[] l : leaves) {
                size += l.length;
            }
        }

        @Override protected int findLeaf(long key) {
            int i = lows.length - 1;
            while (lows[i] > key) {
                i--;
            }
            return i;
        }
        @Override protected int firstLeaf() { return 0; }
        @Override protected int lastLeaf() { return leaves.length - 1; }
        @Override protected int leafNext(int leaf) { return leaf + 1 < leaves.length ? leaf + 1 : NONE; }
        @Override protected int leafPrev(int leaf) { return leaf - 1; }
        @Override protected void setLeafNext(int leaf, int next) { throw new UnsupportedOperationException(); }
        @Override protected void setLeafPrev(int leaf, int prev) { throw new UnsupportedOperationException(); }
        @Override protected long leafBitmap(int leaf) { return (1L << leaves[leaf].length) - 1; }
        @Override protected int leafSuccGE(int leaf, long key) {
            int s = 0;
            while (s < leaves[leaf].length && leaves[leaf][s] < key) {
                s++;
            }
            return s;
        }
        @Override protected int leafSuccGT(int leaf, long key) {
            int s = 0;
            while (s < leaves[leaf].length && leaves[leaf][s] <= key) {
                s++;
            }
            return s;
        }
        @Override protected long leafKey(int leaf, int slot) { return leaves[leaf][slot]; }
        @Override protected long leafValue(int leaf, int slot) { return -leaves[leaf][slot]; }
        @Override protected int descentLevels() { return 0; }
        @Override protected void checkStructure() { }
        @Override public long get(long key, long absent) { throw new UnsupportedOperationException(); }
        @Override public boolean containsKey(long key) { throw new UnsupportedOperationException(); }
        @Override public long put(long key, long value) { throw new UnsupportedOperationException(); }
        @Override public long remove(long key) { throw new UnsupportedOperationException(); }
        @Override public void clear() { throw new UnsupportedOperationException(); }
        @Override public long memoryBytes() { return 0; }
    }

    @Test
    void emptyLeavesInTheChainAnswerEveryRangeAndNeighbour() {
        FixedLeaves t = new FixedLeaves();
        t.checkInvariants();
        TreeMap<Long, Long> model = new TreeMap<>();
        for (long k : new long[] {1, 2, 30, 31, 35, 50}) {
            model.put(k, -k);
        }
        long[] bounds = {Long.MIN_VALUE, 0, 1, 2, 3, 5, 10, 15, 20, 25, 29, 30, 31, 33, 35, 36, 40, 45, 49, 50, 51,
                Long.MAX_VALUE};
        for (long from : bounds) {
            for (long to : bounds) {
                for (int flags = 0; flags < 4; flags++) {
                    boolean fi = (flags & 1) != 0;
                    boolean ti = (flags & 2) != 0;
                    var sub = from > to || from == to && !(fi && ti) ? new TreeMap<Long, Long>()
                            : model.subMap(from, fi, to, ti);
                    for (int scan : new int[] {0, 1, 2, Integer.MAX_VALUE}) {
                        String what = (fi ? "[" : "(") + from + ", " + to + (ti ? "]" : ")") + " scan " + scan;
                        assertEquals(sub.size(), t.rangeCount(from, fi, to, ti, scan), "count " + what);
                        List<Long> seen = new ArrayList<>();
                        long n = t.rangeVisit(from, fi, to, ti, (k, v) -> {
                            assertEquals(-k, v);
                            return seen.add(k);
                        }, scan);
                        assertEquals(new ArrayList<>(sub.keySet()), seen, "visit " + what);
                        assertEquals(sub.size(), n, "visit count " + what);
                    }
                }
            }
            Long c = model.ceilingKey(from);
            Long f = model.floorKey(from);
            Long h = model.higherKey(from);
            Long l = model.lowerKey(from);
            assertEquals(c == null ? 99 : c, t.ceilingKey(from, 99), "ceiling " + from);
            assertEquals(f == null ? 99 : f, t.floorKey(from, 99), "floor " + from);
            assertEquals(h == null ? 99 : h, t.higherKey(from, 99), "higher " + from);
            assertEquals(l == null ? 99 : l, t.lowerKey(from, 99), "lower " + from);
        }
        var c = t.cursor();
        List<Long> back = new ArrayList<>();
        for (boolean ok = c.seekLast(); ok; ok = c.previous()) {
            back.add(c.key());
        }
        assertEquals(List.of(50L, 35L, 31L, 30L, 2L, 1L), back);
    }
}
