package org.bforest.bench.workloads;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.LongStream;
import org.bforest.bench.datasets.Dataset;
import org.bforest.bench.datasets.SyntheticDatasets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Workload W: its keys come from the dataset in time order, and every remove takes the oldest key held. */
class SlidingWindowTest {
    private static final int N = 5_000;
    private static final int OPS = 20_000;

    /** The dataset's keys, loaded and insert keys together, sorted: the sequence W walks through. */
    private static long[] sorted(Dataset d) {
        return LongStream.concat(Arrays.stream(d.loaded()), Arrays.stream(d.inserts())).sorted().toArray();
    }

    @ParameterizedTest
    @ValueSource(ints = {OPS, OPS + 1, 20, 21, 4 * N + 7})
    void theWindowIsTheFirstKeysOfTheSortedDatasetAndEachPutIsFollowedByTheRemoveOfTheOldest(int ops) {
        Dataset d = SyntheticDatasets.uniform(N, Math.max(ops, OPS), 1);
        long[] s = sorted(d);
        SlidingWindow w = SlidingWindow.generate(d, ops);
        assertArrayEquals(Arrays.copyOf(s, N), w.loaded(), "the window: the first N keys of the sorted dataset");
        Operations o = w.ops();
        assertEquals(Workload.W, o.workload());
        assertEquals(ops, o.size());
        assertEquals((ops + 1) / 2, o.counts()[Op.INSERT], "a put and a remove are two operations; odd: one more put");
        assertEquals(ops / 2, o.counts()[Op.DELETE]);
        // Replay it on a queue: every put is the next key in time, every remove the oldest one held.
        ArrayDeque<Long> window = new ArrayDeque<>();
        for (long k : w.loaded()) {
            window.addLast(k);
        }
        for (int i = 0; i < ops; i++) {
            long k = o.keys()[i];
            if (i % 2 == 0) {
                assertEquals(Op.INSERT, o.codes()[i], "operation " + i);
                assertEquals(s[N + i / 2], k, "put " + i);
                assertTrue(k > window.peekLast(), "put " + i + " is newer than every key held");
                window.addLast(k);
            } else {
                assertEquals(Op.DELETE, o.codes()[i], "operation " + i);
                assertEquals(s[i / 2], k, "remove " + i);
                assertEquals(window.pollFirst(), k, "remove " + i + " takes the oldest key held");
                assertEquals(N, window.size(), "the window after pair " + i / 2);
            }
        }
        assertEquals(N + ops % 2, window.size());
        assertTrue(o.ends() == null && o.meanScanLength() == 0);
    }

    @Test
    void theKeysKeepTheDatasetsGapsAndNeverLeaveIt() {
        // dense: a running sum of gaps 1 to 1000, shuffled; W walks it in order, so its gaps are the dataset's
        Dataset d = SyntheticDatasets.dense(N, OPS, 2);
        SlidingWindow w = SlidingWindow.generate(d, OPS);
        Set<Long> dataset = new HashSet<>();
        for (long k : sorted(d)) {
            dataset.add(k);
        }
        long previous = w.loaded()[N - 1];
        for (int i = 0; i < OPS; i += 2) {
            long k = w.ops().keys()[i];
            assertTrue(dataset.contains(k), "put " + i + " is a dataset key");
            assertTrue(k - previous >= 1 && k - previous <= 1000, "gap " + (k - previous) + " at put " + i);
            previous = k;
        }
        for (int i = 1; i < N; i++) {
            long gap = w.loaded()[i] - w.loaded()[i - 1];
            assertTrue(gap >= 1 && gap <= 1000, "gap " + gap + " in the window at " + i);
        }
        // the same seed, the same operations
        assertArrayEquals(w.ops().keys(), SlidingWindow.generate(d, OPS).ops().keys());
    }

    @ParameterizedTest
    @ValueSource(ints = {20, 21, 22, 39, 1000, 1001, 2_000_000, 1_999_999})
    void theTenthsHoldWholePairsAsEvenlyAsTheyCan(int ops) {
        int[] b = SlidingWindow.tenths(ops);
        assertEquals(SlidingWindow.TENTHS + 1, b.length);
        assertEquals(0, b[0]);
        assertEquals(ops, b[SlidingWindow.TENTHS]);
        int pairs = ops / 2;
        for (int t = 1; t <= SlidingWindow.TENTHS; t++) {
            int size = b[t] - b[t - 1];
            assertTrue(size >= 2, "tenth " + t + " of " + ops + " holds a pair at least");
            if (t < SlidingWindow.TENTHS) {
                assertEquals(0, b[t] % 2, "tenth " + t + " of " + ops + " ends after a remove");
            }
            int expectedPairs = pairs / SlidingWindow.TENTHS;
            assertTrue(size / 2 == expectedPairs || size / 2 == expectedPairs + 1, "tenth " + t + " of " + ops
                    + ": " + size + " operations");
        }
    }

    @Test
    void tooFewOperationsOrKeysAreRefusedAndTheOtherGeneratorSendsWHere() {
        Dataset d = SyntheticDatasets.uniform(100, 100, 1);
        IllegalArgumentException few = assertThrows(IllegalArgumentException.class,
                () -> SlidingWindow.generate(d, 19));
        assertTrue(few.getMessage().contains("at least 20 operations"), few.getMessage());
        IllegalArgumentException keys = assertThrows(IllegalArgumentException.class,
                () -> SlidingWindow.generate(d.loaded(), Arrays.copyOf(d.inserts(), 10), 100, 0));
        assertTrue(keys.getMessage().contains("puts 50 new keys but the dataset has only 10"), keys.getMessage());
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> SlidingWindow.generate(new long[] {1, 2, 3}, new long[] {4, 2, 5, 6, 7, 8, 9, 10, 11, 12}, 20, 0));
        assertTrue(twice.getMessage().contains("2 is in the dataset twice"), twice.getMessage());
        IllegalArgumentException other = assertThrows(IllegalArgumentException.class,
                () -> WorkloadGenerator.generate(Workload.W, d, 100));
        assertTrue(other.getMessage().contains("SlidingWindow"), other.getMessage());
        assertEquals(Integer.MAX_VALUE, WorkloadGenerator.maxOps(Workload.W, 10), "its removes never run out");
        assertEquals(Workload.W, Workload.parse("w"));
        assertTrue(!Workload.PAPER.contains(Workload.W), "not in the default run");
    }
}
