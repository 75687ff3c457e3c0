package org.bforest.bench.runner;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The schedule within a cell: every structure once a round, the first one rotating. */
class RoundRobinTest {

    @Test
    void roundsRotateWhoGoesFirst() {
        assertArrayEquals(new int[] {0, 1, 2}, RoundRobin.round(0, 3));
        assertArrayEquals(new int[] {1, 2, 0}, RoundRobin.round(1, 3));
        assertArrayEquals(new int[] {2, 0, 1}, RoundRobin.round(2, 3));
        assertArrayEquals(new int[] {0, 1, 2}, RoundRobin.round(3, 3));
        assertArrayEquals(new int[] {0}, RoundRobin.round(5, 1));
    }

    @Test
    void everyRoundIsAPermutationAndEveryStructureLeadsOnceInNRounds() {
        for (int n = 1; n <= 12; n++) {
            int[] leads = new int[n];
            int[] places = new int[n]; // the sum of each structure's positions over n rounds
            for (int r = 0; r < 3 * n; r++) {
                int[] order = RoundRobin.round(r, n);
                int[] sorted = order.clone();
                Arrays.sort(sorted);
                for (int i = 0; i < n; i++) {
                    assertEquals(i, sorted[i], "round " + r + " of " + n + ": " + Arrays.toString(order));
                }
                if (r < n) {
                    leads[order[0]]++;
                    for (int p = 0; p < n; p++) {
                        places[order[p]] += p;
                    }
                }
            }
            for (int i = 0; i < n; i++) {
                assertEquals(1, leads[i], "structure " + i + " of " + n + " leads once in " + n + " rounds");
                assertEquals(n * (n - 1) / 2, places[i], "every place once: " + Arrays.toString(places));
            }
        }
    }

    @Test
    void refusesPositionsOutsideTheRound() {
        assertThrows(IllegalArgumentException.class, () -> RoundRobin.at(0, 3, 3));
        assertThrows(IllegalArgumentException.class, () -> RoundRobin.at(-1, 0, 3));
        assertEquals(0, RoundRobin.round(4, 0).length, "a cell where every structure was skipped");
        assertEquals(1, RoundRobin.at(Integer.MAX_VALUE, 0, 2), "no overflow on long runs");
    }
}
