package org.bforest.bench.workloads;

import java.util.BitSet;
import java.util.Locale;
import org.bforest.bench.BenchException;
import org.bforest.bench.datasets.Dataset;
import org.bforest.bench.datasets.SplitMix64;

/**
 * Generates a workload's operation stream from a dataset, before anything is timed.
 *
 * <ul>
 *   <li>The count of each operation is exact: {@code round(OPS · cumulative% / 100)} differences,
 *       so the counts add up to OPS; the codes are then shuffled (Fisher–Yates, splitmix64), so
 *       every kind is spread evenly through the run.</li>
 *   <li>Inserts take the dataset's insert keys in order: the i-th insert of the stream inserts
 *       {@code inserts[i]}, a key that is not yet there.</li>
 *   <li>Lookups and deletes draw a loaded key uniformly ({@code next() mod N}); a key deleted
 *       earlier in the stream is redrawn, so lookups always find their key and deletes always
 *       remove a present one.</li>
 *   <li>A scan starts at a loaded key drawn uniformly and ends (exclusive) at the loaded key
 *       {@code c} places further on, c uniform in [100, 150]: the range width follows the data,
 *       and each scan returns c keys plus any inserted earlier into its range.</li>
 * </ul>
 *
 * The stream's seed is {@link #seed(long, Workload)} of the dataset's seed: a fixed seed gives
 * the very same operations on every run.
 */
public final class WorkloadGenerator {
    public static final int MIN_SCAN = 100;
    public static final int MAX_SCAN = 150;

    private WorkloadGenerator() {
    }

    /** The operation stream's seed: splitmix64 of {@code datasetSeed * 256 + workload letter}. */
    public static long seed(long datasetSeed, Workload w) {
        return SplitMix64.mix(datasetSeed * 256 + w.name().charAt(0));
    }

    /** Exact operation counts for {@code ops} operations of {@code w}, indexed by {@link Op} code. */
    public static int[] counts(Workload w, int ops) {
        int[] counts = new int[Op.COUNT];
        long cumulative = 0;
        long prev = 0;
        for (int op = 0; op < Op.COUNT; op++) {
            cumulative += w.percent(op);
            long upTo = Math.round(ops * (double) cumulative / 100);
            counts[op] = (int) (upTo - prev);
            prev = upTo;
        }
        return counts;
    }

    /**
     * The most operations of {@code w} that delete at most half of {@code n} loaded keys (deletes
     * draw distinct present keys, and half keeps the draws cheap): {@code n/2} for F, whose every
     * operation deletes, about {@code 10 n} for E (5% deletes); {@link Integer#MAX_VALUE} for a
     * workload that deletes nothing, or only keys it put itself (W, whose removes take the oldest
     * key: the window never runs out).
     */
    public static int maxOps(Workload w, int n) {
        int p = w.percent(Op.DELETE);
        if (p == 0 || w == Workload.W) {
            return Integer.MAX_VALUE;
        }
        int half = n / 2;
        // counts() rounds, so the deletes of x operations are within 1 of x·p/100 and grow by 0 or 1
        // a step: start above the bound and step down to the last count that fits.
        long ops = Math.min(Integer.MAX_VALUE, (half + 1L) * 100 / p + 1);
        while (ops > 0 && counts(w, (int) ops)[Op.DELETE] > half) {
            ops--;
        }
        return (int) ops;
    }

    /**
     * The message for {@code ops} operations of {@code w} on {@code n} loaded keys when that is
     * more than {@link #maxOps}: what was wrong and the workload's own limit on {@code --ops}.
     */
    public static String tooManyDeletes(Workload w, int n, int ops) {
        int p = w.percent(Op.DELETE);
        String rule;
        if (p == 100) {
            rule = "half of --keys";
        } else if (50 % p == 0) {
            rule = 50 / p == 1 ? "--keys" : 50 / p + " times --keys";
        } else {
            rule = String.format(Locale.ROOT, "%.3g times --keys", 50.0 / p);
        }
        return "workload " + w + " would delete " + counts(w, ops)[Op.DELETE] + " keys, more than half of the " + n
                + " loaded keys (" + p + "% of its operations are deletes): use --ops at most " + rule + " ("
                + maxOps(w, n) + " at " + n + " keys)" + (w == Workload.F ? "" : ", or leave workload " + w + " out");
    }

    public static Operations generate(Workload w, Dataset d, int ops) {
        return generate(w, d.loaded(), d.inserts(), ops, seed(d.seed(), w));
    }

    /**
     * Workload {@code w}'s operations over {@code loaded} (the keys bulk-loaded) and
     * {@code inserts}. Not W: it bulk-loads keys of its own ({@link SlidingWindow#generate}).
     */
    public static Operations generate(Workload w, long[] loaded, long[] inserts, int ops, long seed) {
        if (w == Workload.W) {
            throw new IllegalArgumentException("workload W bulk-loads keys of its own: SlidingWindow.generate"
                    + " gives them with its operations");
        }
        int n = loaded.length;
        int[] counts = counts(w, ops);
        if (counts[Op.INSERT] > inserts.length) {
            throw new IllegalArgumentException("workload " + w + " inserts " + counts[Op.INSERT]
                    + " keys but the dataset has only " + inserts.length + " insert keys");
        }
        if (ops > maxOps(w, n)) {
            throw new BenchException(tooManyDeletes(w, n, ops));
        }
        if (n == 0 && (counts[Op.LOOKUP] > 0 || counts[Op.SCAN] > 0)) {
            throw new IllegalArgumentException("workload " + w + " needs loaded keys");
        }
        SplitMix64 rng = new SplitMix64(seed);
        byte[] codes = new byte[ops];
        int at = 0;
        for (int op = 0; op < Op.COUNT; op++) {
            for (int c = 0; c < counts[op]; c++) {
                codes[at++] = (byte) op;
            }
        }
        for (int i = ops - 1; i >= 1; i--) {
            int j = rng.nextInt(i + 1);
            byte tmp = codes[i];
            codes[i] = codes[j];
            codes[j] = tmp;
        }
        long[] keys = new long[ops];
        long[] ends = counts[Op.SCAN] > 0 ? new long[ops] : null;
        BitSet deleted = counts[Op.DELETE] > 0 ? new BitSet(n) : null;
        int nextInsert = 0;
        long scanned = 0;
        for (int i = 0; i < ops; i++) {
            switch (codes[i]) {
                case Op.LOOKUP -> keys[i] = loaded[presentIndex(rng, n, deleted)];
                case Op.INSERT -> keys[i] = inserts[nextInsert++];
                case Op.DELETE -> {
                    int j = presentIndex(rng, n, deleted);
                    deleted.set(j);
                    keys[i] = loaded[j];
                }
                case Op.SCAN -> {
                    int c = Math.min(MIN_SCAN + rng.nextInt(MAX_SCAN - MIN_SCAN + 1), n - 1);
                    int s = rng.nextInt(n - c);
                    keys[i] = loaded[s];
                    ends[i] = loaded[s + c];
                    scanned += c;
                }
                default -> throw new AssertionError(codes[i]);
            }
        }
        double meanScan = counts[Op.SCAN] == 0 ? 0 : (double) scanned / counts[Op.SCAN];
        return new Operations(w, seed, codes, keys, ends, counts, meanScan);
    }

    private static int presentIndex(SplitMix64 rng, int n, BitSet deleted) {
        int j = rng.nextInt(n);
        if (deleted != null) {
            while (deleted.get(j)) {
                j = rng.nextInt(n);
            }
        }
        return j;
    }
}
