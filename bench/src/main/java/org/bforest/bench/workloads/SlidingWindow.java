package org.bforest.bench.workloads;

import java.util.Arrays;
import org.bforest.bench.datasets.Dataset;

/**
 * Workload W, a sliding window over time-ordered keys (log records, events, a message queue): the
 * structure holds the newest N keys, and each new key in pushes the oldest out. Apart from the
 * other workloads because it bulk-loads keys of its own and is timed in tenths.
 *
 * <p><b>The keys</b> are the dataset's keys, loaded and insert keys together (N + OPS distinct
 * keys), sorted: an ascending sequence {@code s[0] < s[1] < ...} with the dataset's own gaps
 * (dense: 1 to 1000; uniform: about 2^63 / (N + OPS)). The window is its first N keys,
 * bulk-loaded as the other workloads bulk-load theirs ({@link #loaded()}). Operation {@code 2i}
 * puts {@code s[N + i]}, the next key in time, and operation {@code 2i + 1} removes {@code s[i]},
 * the oldest key still held; so {@code --ops} counts a put and a remove as two operations, the
 * window holds N keys after every pair, and an odd count ends with one more put. The sorted
 * dataset rather than keys continued past its maximum by its typical gap: a uniform dataset's
 * keys reach up to 2^63, where a continuation overflows, and sorting invents no key the dataset
 * did not draw. W takes N + ceil(OPS / 2) of the dataset's N + OPS keys.
 *
 * <p><b>The tenths</b>: the runner times the stream in ten parts of whole put-and-remove pairs
 * ({@link #tenths}) and reads the structure's bytes per live key between them, outside the clock.
 *
 * @param loaded the window to bulk-load: the first N keys of the sequence, ascending
 * @param ops    the operations: puts and removes, alternating
 */
public record SlidingWindow(long[] loaded, Operations ops) {
    /** The parts a run is timed in. */
    public static final int TENTHS = 10;
    /** The fewest operations W runs: a put and a remove in every tenth. */
    public static final int MIN_OPS = 2 * TENTHS;

    /** Workload W on {@code d}: the window is {@code d.keyCount()} keys. */
    public static SlidingWindow generate(Dataset d, int ops) {
        return generate(d.loaded(), d.inserts(), ops, WorkloadGenerator.seed(d.seed(), Workload.W));
    }

    /**
     * Workload W over the keys of {@code loaded} (sorted) and {@code inserts} (any order, none of
     * them loaded); {@code seed} is recorded in the operations (W draws nothing at random).
     */
    public static SlidingWindow generate(long[] loaded, long[] inserts, int ops, long seed) {
        int n = loaded.length;
        int[] counts = WorkloadGenerator.counts(Workload.W, ops);
        int puts = counts[Op.INSERT];
        if (ops < MIN_OPS) {
            throw new IllegalArgumentException("workload W runs its operations in " + TENTHS + " tenths of whole"
                    + " put-and-remove pairs: it needs at least " + MIN_OPS + " operations, not " + ops);
        }
        if (puts > inserts.length) {
            throw new IllegalArgumentException("workload W puts " + puts + " new keys but the dataset has only "
                    + inserts.length + " insert keys");
        }
        long[] sequence = smallest(loaded, inserts, n + puts);
        byte[] codes = new byte[ops];
        long[] keys = new long[ops];
        for (int i = 0; i < ops; i++) {
            int pair = i >>> 1;
            boolean put = (i & 1) == 0;
            codes[i] = put ? Op.INSERT : Op.DELETE;
            keys[i] = put ? sequence[n + pair] : sequence[pair];
        }
        return new SlidingWindow(Arrays.copyOf(sequence, n), new Operations(Workload.W, seed, codes, keys, null,
                counts, 0));
    }

    /**
     * The {@code count} smallest keys of {@code sorted} and {@code others} together, ascending:
     * {@code others} sorted (a copy), then merged. Fails on a key that is in both or twice.
     */
    static long[] smallest(long[] sorted, long[] others, int count) {
        long[] rest = others.clone();
        Arrays.sort(rest);
        long[] out = new long[count];
        int i = 0;
        int j = 0;
        for (int k = 0; k < count; k++) {
            boolean left = j >= rest.length || i < sorted.length && sorted[i] < rest[j];
            out[k] = left ? sorted[i++] : rest[j++];
            if (k > 0 && out[k] <= out[k - 1]) {
                throw new IllegalArgumentException("workload W needs distinct keys, and " + out[k]
                        + " is in the dataset twice");
            }
        }
        return out;
    }

    /**
     * The boundaries of the tenths of {@code ops} operations: tenth {@code t} (1 to 10) is
     * operations {@code [b[t - 1], b[t])}; each holds whole put-and-remove pairs ({@code ops / 2}
     * of them shared out as evenly as whole numbers allow), and the last also an odd count's
     * final put.
     */
    public static int[] tenths(int ops) {
        int pairs = ops / 2;
        int[] b = new int[TENTHS + 1];
        for (int t = 1; t < TENTHS; t++) {
            b[t] = 2 * (int) ((long) pairs * t / TENTHS);
        }
        b[TENTHS] = ops;
        return b;
    }
}
