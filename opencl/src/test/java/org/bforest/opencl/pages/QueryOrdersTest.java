package org.bforest.opencl.pages;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.bforest.opencl.DeviceSearch.QueryOrder;
import org.junit.jupiter.api.Test;

/** The host-side orders of a look-up batch: permutations, sorted fully or by leading bits, stable. */
class QueryOrdersTest {
    @Test
    void lookUpsAreOrderedFromABatchSizeThatIsSetOrFourThousand() {
        assertEquals(4096, LookUpBatches.orderFrom(null));
        assertEquals(64, LookUpBatches.orderFrom("64"));
        assertEquals(100_000, LookUpBatches.orderFrom(" 100000 "));
        for (String bad : new String[] {"63", "0", "-5", "4K", ""}) {
            IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> LookUpBatches.orderFrom(bad));
            assertTrue(e.getMessage().contains("-Dbforest.opencl.orderFrom") && e.getMessage().contains(bad), e.getMessage());
        }
    }

    @Test
    void everyOrderIsAPermutationAndSortedOnesSort() {
        SplittableRandom r = new SplittableRandom(17);
        for (int round = 0; round < 300; round++) {
            int n = round < 10 ? round : r.nextInt(5_000);
            int from = r.nextInt(3);
            long[] keys = new long[from + n];
            int kind = r.nextInt(4);
            for (int i = 0; i < keys.length; i++) {
                keys[i] = switch (kind) {
                    case 0 -> r.nextLong();
                    case 1 -> r.nextLong(50);                              // many equal keys
                    case 2 -> r.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE - r.nextInt(3);
                    default -> (1L << 40) + r.nextLong(1_000_000) * (r.nextInt(100) == 0 ? 1L << 20 : 1);
                };
            }
            String what = "round " + round + ", n " + n + ", kind " + kind;
            for (QueryOrder order : QueryOrder.values()) {
                int[] perm = QueryOrders.permutation(keys, from, n, order, 1 + r.nextInt(300));
                int[] seen = perm.clone();
                Arrays.sort(seen);
                for (int i = 0; i < n; i++) {
                    assertEquals(i, seen[i], what + ", " + order + ": not a permutation");
                }
                for (int i = 1; i < n; i++) {
                    long a = keys[from + perm[i - 1]];
                    long b = keys[from + perm[i]];
                    switch (order) {
                        case AS_GIVEN -> assertEquals(i, perm[i], what);
                        case SORTED -> assertTrue(a < b || a == b && perm[i - 1] < perm[i], what + ": sorted and stable at " + i);
                        case PARTIAL -> { }
                    }
                }
            }
        }
    }

    @Test
    void partialOrderGroupsByLeadingBits() {
        SplittableRandom r = new SplittableRandom(18);
        long[] keys = r.longs(100_000).toArray();
        int[] perm = QueryOrders.permutation(keys, 0, keys.length, QueryOrder.PARTIAL, 1024);
        // 1024 buckets over the batch's range: a key is never more than a bucket's width below the one before
        long min = Arrays.stream(keys).min().orElseThrow();
        long width = Long.divideUnsigned(Arrays.stream(keys).max().orElseThrow() - min, 1024) + 1;
        long descents = 0;
        for (int i = 1; i < keys.length; i++) {
            long a = keys[perm[i - 1]] - min;
            long b = keys[perm[i]] - min;
            if (Long.compareUnsigned(b, a) < 0) {
                descents++;
                assertTrue(Long.compareUnsigned(a - b, 2 * width) < 0, "at " + i + ": a step back of more than a bucket");
            }
        }
        assertTrue(descents > 0, "partial is not a full sort of random keys");
    }

    @Test
    void orderedBatchesAreTheSequentialPermutationWhetherSplitOrNot() {
        // Past 2 * HostWork.MIN_PART keys the partial order runs in parts on several threads; its
        // result must be the one-pass stable counting sort's, key for key.
        SplittableRandom r = new SplittableRandom(19);
        int[] sizes = {0, 1, 2, 63, 5_000, 2 * HostWork.MIN_PART - 1, 2 * HostWork.MIN_PART, 300_001, 70_000};
        int[][] counts = new int[0][];   // kept from call to call, as a tree keeps it: stale counts must not leak
        for (int n : sizes) {
            for (int kind = 0; kind < 4; kind++) {
                int from = r.nextInt(3);
                long[] keys = new long[from + n];
                for (int i = 0; i < keys.length; i++) {
                    int k = kind;
                    keys[i] = switch (k) {
                        case 0 -> r.nextLong();
                        case 1 -> r.nextLong(50);
                        case 2 -> r.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE - r.nextInt(3);
                        default -> (1L << 40) + r.nextLong(1_000_000);
                    };
                }
                int buckets = 1 + r.nextInt(20_000);
                String what = "n " + n + ", kind " + kind + ", buckets " + buckets;
                for (QueryOrder order : QueryOrder.values()) {
                    long[] q = new long[n + 1];
                    int[] perm = new int[n + 1];
                    counts = QueryOrders.ordered(keys, from, n, order, buckets, q, perm, counts);
                    int[] want = QueryOrders.permutation(keys, from, n, order, buckets);
                    assertArrayEquals(want, Arrays.copyOf(perm, n), what + ", " + order + ": the permutation");
                    for (int i = 0; i < n; i++) {
                        assertEquals(keys[from + perm[i]], q[i], what + ", " + order + ": the key at " + i);
                    }
                }
            }
        }
    }
}
