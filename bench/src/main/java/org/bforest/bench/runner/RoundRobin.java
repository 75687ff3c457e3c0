package org.bforest.bench.runner;

/**
 * The order repetitions run in within one dataset × workload × threads cell: round {@code r}
 * (warm-ups first, then the timed repetitions) runs repetition {@code r} of every structure
 * before any structure's repetition {@code r + 1}, and starts {@code r} structures further on
 * than round 0, so over any {@code n} consecutive rounds each of the {@code n} structures goes
 * first once. A slow stretch of a shared machine then lands on every structure alike instead of
 * on whichever one ran all its repetitions then, and the same-run ratios hold.
 */
final class RoundRobin {
    private RoundRobin() {
    }

    /** The index of the structure that runs {@code position}-th in round {@code round} of {@code n}. */
    static int at(int round, int position, int n) {
        if (n < 1 || position < 0 || position >= n || round < 0) {
            throw new IllegalArgumentException("position " + position + " of round " + round + " of " + n);
        }
        return (int) (((long) round + position) % n);
    }

    /** The indexes of round {@code round} of {@code n} structures, in running order. */
    static int[] round(int round, int n) {
        int[] order = new int[n];
        for (int p = 0; p < n; p++) {
            order[p] = at(round, p, n);
        }
        return order;
    }
}
