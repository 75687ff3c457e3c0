package org.bforest.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The SIMD kernel must give exactly the scalar kernel's answers (Lucene-style equivalence test). */
class NodeSearchTest {
    private static final long[] INTERESTING = {Long.MIN_VALUE, Long.MIN_VALUE + 1, -2, -1, 0, 1, 2,
        Long.MAX_VALUE - 1, Long.MAX_VALUE};

    @Test
    void simdMatchesScalarOnRandomSortedNodesWithGaps() {
        SplittableRandom rnd = new SplittableRandom(7);
        long[] a = new long[64];
        for (int round = 0; round < 200_000; round++) {
            int off = rnd.nextInt(0, 48);
            for (int i = 0; i < 16; i++) {
                long k = switch (rnd.nextInt(4)) {
                    case 0 -> rnd.nextLong();
                    case 1 -> rnd.nextLong(-20, 20);
                    case 2 -> INTERESTING[rnd.nextInt(INTERESTING.length)];
                    default -> Long.MAX_VALUE;
                };
                a[off + i] = k;
            }
            Arrays.sort(a, off, off + 16);
            long key = rnd.nextBoolean() ? a[off + rnd.nextInt(16)] + rnd.nextInt(-1, 2)
                    : INTERESTING[rnd.nextInt(INTERESTING.length)];
            assertEquals(ScalarSearch.succGT(a, off, key), NodeSearch.succGT(a, off, key), "succGT");
            assertEquals(ScalarSearch.succGE(a, off, key), NodeSearch.succGE(a, off, key), "succGE");
        }
    }

    @Test
    void countsAreWhatTheyClaim() {
        long[] a = {1, 3, 3, 3, 5, 7, 9, 11, 13, 15, 17, 19, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE,
            Long.MAX_VALUE};
        assertEquals(0, NodeSearch.succGT(a, 0, 0));
        assertEquals(1, NodeSearch.succGT(a, 0, 1));
        assertEquals(4, NodeSearch.succGT(a, 0, 3));
        assertEquals(1, NodeSearch.succGE(a, 0, 3));
        assertEquals(12, NodeSearch.succGT(a, 0, Long.MAX_VALUE - 1));
        assertEquals(16, NodeSearch.succGT(a, 0, Long.MAX_VALUE));
        assertEquals(0, NodeSearch.succGE(a, 0, Long.MIN_VALUE));
    }
}
