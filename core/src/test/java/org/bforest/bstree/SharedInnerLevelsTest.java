package org.bforest.bstree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The hybrid tree's door to the BS-tree's inner levels ({@link SharedInnerLevels}): the leaves that
 * {@link SharedInnerLevels#findLeavesNear} gives, reusing the last two leaves' ranges, are the
 * ones a descent per key gives, on every batch order (random, sorted, bucketed by leading bits as
 * the OpenCL trees order look-ups), at separators and their neighbours, at both ends of the key
 * space, on one leaf, and after separators went in (gaps in the nodes, splits at every level) and
 * leaves came out; and against a {@link TreeMap} of the leaves' ranges.
 */
class SharedInnerLevelsTest {

    /** Every leaf's range from the levels' own check, as a map from its first key to the leaf. */
    private static TreeMap<Long, Integer> ranges(SharedInnerLevels in) {
        TreeMap<Long, Integer> m = new TreeMap<>();
        in.check((leaf, lo, hi) -> m.put(lo, leaf));
        return m;
    }

    /** Checks findLeavesNear against findLeaf, findLeaves and the map on {@code q} and a sub-range of it. */
    private static void assertSameLeaves(SharedInnerLevels in, TreeMap<Long, Integer> byLo, long[] q, String what) {
        int n = q.length;
        int[] near = new int[n];
        in.findLeavesNear(q, 0, n, near, 0);
        int[] locked = new int[n];
        in.findLeaves(q, 0, n, locked);
        assertArrayEquals(locked, near, what + ": findLeavesNear against findLeaves");
        for (int i = 0; i < n; i++) {
            long k = Math.min(q[i], Long.MAX_VALUE - 1);
            assertEquals(byLo.floorEntry(k).getValue(), near[i], what + ": key " + q[i]);
        }
        // A part of the batch, into another place: its own slots only, whatever came before it.
        if (n > 4) {
            int from = n / 3;
            int m = n - n / 4 - from;
            int at = 5;
            int[] part = new int[m + 9];
            Arrays.fill(part, -7);
            in.findLeavesNear(q, from, m, part, at);
            for (int i = 0; i < part.length; i++) {
                int want = i >= at && i < at + m ? locked[from + i - at] : -7;
                assertEquals(want, part[i], what + ": keys [" + from + ", " + (from + m) + ") at " + at + ", slot " + i);
            }
        }
    }

    /** Batches in every order the trees send: random, sorted, reversed, bucketed, all at the separators. */
    private static void assertAllOrders(SharedInnerLevels in, SplittableRandom r, int n) {
        TreeMap<Long, Integer> byLo = ranges(in);
        long[] seps = byLo.keySet().stream().mapToLong(Long::longValue).filter(k -> k != Long.MIN_VALUE).toArray();
        long[] q = new long[n];
        for (int i = 0; i < n; i++) {
            int pick = r.nextInt(8);
            if (pick == 0 && seps.length > 0) {
                long s = seps[r.nextInt(seps.length)];
                q[i] = s + r.nextInt(3) - 1;   // a separator or a neighbour
            } else if (pick == 1) {
                q[i] = r.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE;
            } else {
                q[i] = r.nextLong();
            }
        }
        assertSameLeaves(in, byLo, q, "random");
        long[] sorted = q.clone();
        Arrays.sort(sorted);
        assertSameLeaves(in, byLo, sorted, "sorted");
        long[] reversed = new long[n];
        for (int i = 0; i < n; i++) {
            reversed[i] = sorted[n - 1 - i];
        }
        assertSameLeaves(in, byLo, reversed, "reversed");
        for (int bits : new int[] {1, 4, 10}) {
            assertSameLeaves(in, byLo, bucketed(q, bits), "bucketed by " + bits + " leading bits");
        }
        assertSameLeaves(in, byLo, seps, "every separator");
    }

    /** {@code q} in buckets of its leading {@code bits} bits (a stable counting sort), unordered within each. */
    private static long[] bucketed(long[] q, int bits) {
        int nb = 1 << bits;
        int[] count = new int[nb + 1];
        for (long k : q) {
            count[(int) ((k ^ Long.MIN_VALUE) >>> (64 - bits)) + 1]++;
        }
        for (int b = 0; b < nb; b++) {
            count[b + 1] += count[b];
        }
        long[] out = new long[q.length];
        for (long k : q) {
            out[count[(int) ((k ^ Long.MIN_VALUE) >>> (64 - bits))]++] = k;
        }
        return out;
    }

    @Test
    void oneLeafTakesEveryKey() {
        SharedInnerLevels in = new SharedInnerLevels("test", 42);
        long[] q = {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE - 1, Long.MAX_VALUE};
        int[] leaves = new int[q.length];
        in.findLeavesNear(q, 0, q.length, leaves, 0);
        for (int leaf : leaves) {
            assertEquals(42, leaf);
        }
        in.findLeavesNear(q, 3, 0, leaves, 6); // nothing to do
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 17, 300, 5000, 70_000})
    void builtLevelsGiveTheLeavesOfADescent(int leaves) {
        SplittableRandom r = new SplittableRandom(leaves);
        long[] mins = r.longs(leaves).distinct().sorted().toArray();
        mins[0] = Long.MIN_VALUE;
        int[] ids = new int[mins.length];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = 3 * i + 1;
        }
        SharedInnerLevels in = new SharedInnerLevels("test", ids[0]);
        in.build(ids.clone(), mins.clone(), ids.length, 0.75);
        assertTrue(leaves < 17 || in.height() >= 2, "the levels have height " + in.height());
        assertAllOrders(in, r, 20_000);
    }

    @Test
    void levelsThatSplitAndShrinkGiveTheLeavesOfADescent() {
        SplittableRandom r = new SplittableRandom(7);
        SharedInnerLevels in = new SharedInnerLevels("test", 0);
        TreeMap<Long, Integer> live = new TreeMap<>();
        live.put(Long.MIN_VALUE, 0);
        int next = 1;
        // Separators in at random (gaps, splits at every level, root growth), checked as they go.
        for (int i = 0; i < 6000; i++) {
            long sep = r.nextInt(4) == 0 ? r.nextLong(1000) : r.nextLong();
            if (sep == Long.MIN_VALUE || live.containsKey(sep)) {
                continue;
            }
            in.insertSeparator(sep, next);
            live.put(sep, next++);
            if (i % 1500 == 0) {
                assertAllOrders(in, r, 4000);
            }
        }
        assertTrue(in.height() >= 3, "the levels have height " + in.height());
        assertTrue(live.equals(ranges(in)), "the leaves' ranges are the separators put in");
        assertAllOrders(in, r, 20_000);
        // Leaves out (nodes removed, the root collapsing) down to a few.
        while (live.size() > 3) {
            Long[] keys = live.keySet().toArray(new Long[0]);
            int at = r.nextInt(keys.length);
            long lo = keys[at];
            in.removeLeaf(lo, live.get(lo));
            // A neighbour takes the range over: one of its two bounds is gone, nothing else.
            TreeMap<Long, Integer> after = ranges(in);
            TreeMap<Long, Integer> leftTakes = new TreeMap<>(live);
            leftTakes.remove(lo);
            TreeMap<Long, Integer> rightTakes = new TreeMap<>(live);
            if (at + 1 < keys.length) {
                rightTakes.remove(keys[at + 1]);
                rightTakes.put(lo, live.get(keys[at + 1]));
            }
            assertTrue(after.equals(leftTakes) || after.equals(rightTakes),
                    "removing the leaf at " + lo + " changed more than its range");
            live = after;
            if (live.size() % 1000 == 0) {
                assertAllOrders(in, r, 4000);
            }
        }
        assertAllOrders(in, r, 2000);
    }
}
