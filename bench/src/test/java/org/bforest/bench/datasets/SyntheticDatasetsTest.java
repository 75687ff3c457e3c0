package org.bforest.bench.datasets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SyntheticDatasetsTest {

    @Test
    void splitMix64MatchesTheReferenceSequence() {
        // splitmix64 with seed 0: the first outputs of Vigna's reference implementation.
        SplitMix64 r = new SplitMix64(0);
        assertEquals(0xE220A8397B1DCDAFL, r.next());
        assertEquals(0x6E789E6AA1B965F4L, r.next());
        assertEquals(0x06C45D188009454FL, r.next());
    }

    /** The figures DESIGN.md states, so that our keys are the C++ references' keys. */
    @Test
    void uniformFiftyMillionStartsWithTheStatedKeys() {
        Dataset d = SyntheticDatasets.uniform(50_000_000, 0, SyntheticDatasets.UNIFORM_SEED);
        long[] k = d.loaded();
        assertEquals(50_000_000, k.length);
        assertEquals(235659190066L, k[0]);
        assertEquals(369487787040L, k[1]);
        assertEquals(373929991957L, k[2]);
        assertTrue(d.notes().isEmpty(), d.notes().toString());
    }

    @Test
    void uniformLoadsTheFirstDrawsSortedAndInsertsTheNextInOrder() {
        int n = 1000;
        int ops = 300;
        Dataset d = SyntheticDatasets.uniform(n, ops, 1);
        SplitMix64 r = new SplitMix64(1);
        long[] first = new long[n];
        for (int i = 0; i < n; i++) {
            first[i] = r.next() >>> 1;
        }
        Arrays.sort(first);
        assertArrayEquals(first, d.loaded());
        for (int i = 0; i < ops; i++) {
            assertEquals(r.next() >>> 1, d.inserts()[i], "insert key " + i);
        }
        assertDisjointAndSorted(d);
    }

    @Test
    void denseHasSmallGapsAndIsASplitOfTheRunningSums() {
        int n = 20_000;
        int ops = 5_000;
        Dataset d = SyntheticDatasets.dense(n, ops, SyntheticDatasets.DENSE_SEED);
        assertEquals(n, d.loaded().length);
        assertEquals(ops, d.inserts().length);
        assertDisjointAndSorted(d);
        // All keys together are the running sums: sorted, their gaps are 1..1000.
        long[] all = new long[n + ops];
        System.arraycopy(d.loaded(), 0, all, 0, n);
        System.arraycopy(d.inserts(), 0, all, n, ops);
        Arrays.sort(all);
        SplitMix64 r = new SplitMix64(SyntheticDatasets.DENSE_SEED);
        long k = 0;
        for (int i = 0; i < all.length; i++) {
            k += 1 + r.nextBelow(1000);
            assertEquals(k, all[i], "running sum " + i);
        }
        long prev = 0;
        for (long key : all) {
            long gap = key - prev;
            assertTrue(gap >= 1 && gap <= 1000, "gap " + gap);
            prev = key;
        }
        // Shuffled: the insert keys are not simply the largest ones.
        assertTrue(d.inserts()[0] < d.loaded()[n - 1]);
        // FOR-compressible: every key fits well under 2^32 here.
        assertTrue(all[all.length - 1] < 1000L * all.length);
    }

    /**
     * The first keys of the C++ generator's u32 files (the one the authors' code was measured on) for N = 1M (first inserts, smallest
     * and largest loaded): the same keys the C++ anchors run on. The files have 10M inserts; a
     * prefix of the distinct draws does not depend on how many follow, so 10 are drawn here.
     */
    @Test
    void u32MatchesTheAnchorsGenerator() {
        Dataset d = SyntheticDatasets.u32(1_000_000, 10, SyntheticDatasets.U32_SEED);
        assertEquals(1_000_000, d.loaded().length);
        assertEquals(10, d.inserts().length);
        assertArrayEquals(new long[] {439424811, 685056512, 836222844, 734134346, 306435163, 4783377},
                Arrays.copyOf(d.inserts(), 6));
        assertArrayEquals(new long[] {137, 421, 1238, 1539, 1818, 1954}, Arrays.copyOf(d.loaded(), 6));
        assertEquals(1073740285, d.loaded()[d.loaded().length - 1]);
        assertDisjointAndSorted(d);
        assertTrue(d.notes().get(0).contains("repeated"), d.notes().toString());
        assertThrows(IllegalArgumentException.class,
                () -> SyntheticDatasets.u32(SyntheticDatasets.U32_UNIVERSE / 2, 1, 3));
    }

    @Test
    void datasetsAreRepeatable() {
        assertArrayEquals(SyntheticDatasets.dense(5000, 100, 2).inserts(),
                SyntheticDatasets.dense(5000, 100, 2).inserts());
        assertArrayEquals(SyntheticDatasets.lognormal(5000, 100, 3).loaded(),
                SyntheticDatasets.lognormal(5000, 100, 3).loaded());
    }

    @Test
    void lognormalIsDistinctPositiveAndCentredOnItsScale() {
        Dataset d = SyntheticDatasets.lognormal(100_000, 10_000, SyntheticDatasets.LOGNORMAL_SEED);
        assertDisjointAndSorted(d);
        long[] k = d.loaded();
        assertTrue(k[0] >= 0);
        // The median of lognormal(0, 2) * 1e12 is 1e12; the sample median is within a few %.
        double median = k[k.length / 2];
        assertTrue(median > 0.95e12 && median < 1.05e12, "median " + median);
        // ln(key / 1e12) has standard deviation 2.
        double sum = 0;
        double sq = 0;
        int m = 0;
        for (long key : k) {
            if (key > 0) {
                double x = Math.log(key / 1e12);
                sum += x;
                sq += x * x;
                m++;
            }
        }
        double sd = Math.sqrt(sq / m - (sum / m) * (sum / m));
        assertTrue(Math.abs(sd - 2) < 0.05, "sd " + sd);
    }

    @Test
    void repeatedDrawsAreDroppedAndRefilledInDrawOrder() {
        long[] source = {5, 3, 5, 7, 3, 9, 11};
        int[] at = {0};
        Distinct.Draws d = Distinct.draw(() -> source[at[0]++], 4);
        assertArrayEquals(new long[] {5, 3, 7, 9}, d.keys());
        assertEquals(2, d.dropped());
    }

    static void assertDisjointAndSorted(Dataset d) {
        long[] k = d.loaded();
        for (int i = 1; i < k.length; i++) {
            assertTrue(k[i - 1] < k[i], "loaded keys not strictly ascending at " + i);
        }
        Set<Long> seen = new HashSet<>();
        for (long key : d.inserts()) {
            assertTrue(Arrays.binarySearch(k, key) < 0, "insert key " + key + " is loaded");
            assertTrue(seen.add(key), "insert key " + key + " repeats");
        }
    }
}
