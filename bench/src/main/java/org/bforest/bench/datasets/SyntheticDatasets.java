package org.bforest.bench.datasets;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The generated datasets of docs/DESIGN.md's benchmark protocol. With N keys to load and OPS
 * operations, T = N + OPS keys are drawn; the first N (sorted) are loaded and the next OPS, in
 * their order, are the keys the workloads insert.
 *
 * <ul>
 *   <li>{@code uniform} (seed 1): {@code next() >>> 1}, uniform in [0, 2^63).</li>
 *   <li>{@code dense} (seed 2): k starts at 0; for each of the T keys {@code k += 1 + next() mod
 *       1000} and k is the key (so the first key is at least 1); then a Fisher–Yates shuffle on
 *       the same stream (for i = T−1 down to 1: j = next() mod (i+1); swap).</li>
 *   <li>{@code lognormal} (seed 3; our own definition, the papers have none): key =
 *       floor(10^12 · e^(2·Z)), Z standard normal by Box–Muller (Z = sqrt(−2 ln u1) · cos(2π u2),
 *       u1 and u2 from {@link SplitMix64#nextOpenDouble()}, one Z per two draws), i.e.
 *       lognormal(μ = 0, σ = 2) scaled by 10^12. Draws at or above 2^63 (about one in 10^14) are
 *       redrawn. Keys repeat (rarely, at this scale), so the T keys are the first T distinct
 *       draws in draw order.</li>
 * </ul>
 *
 * A repeated key in {@code uniform} (chance about T²/2^64) is handled the same way, with a note.
 */
public final class SyntheticDatasets {
    public static final long UNIFORM_SEED = 1;
    public static final long DENSE_SEED = 2;
    public static final long LOGNORMAL_SEED = 3;
    /** The B− tree article's integer keys: seed 3 too, as the dataset generator beside the authors' C++ draws them (docs/BENCHMARKS.md). */
    public static final long U32_SEED = 3;
    /** Distinct keys the u32 dataset can hold: all of [0, 2^30). */
    public static final int U32_UNIVERSE = 1 << 30;

    /** The largest key count a Java array holds comfortably. */
    public static final int MAX_KEYS = Integer.MAX_VALUE - 16;

    private SyntheticDatasets() {
    }

    public static Dataset uniform(int n, int ops, long seed) {
        SplitMix64 rng = new SplitMix64(seed);
        Distinct.Draws d = Distinct.draw(() -> rng.next() >>> 1, total(n, ops));
        return split("uniform", "splitmix64(seed " + seed + ") >>> 1, uniform in [0, 2^63)", seed, d.keys(), n,
                dropNote(d.dropped()));
    }

    public static Dataset dense(int n, int ops, long seed) {
        SplitMix64 rng = new SplitMix64(seed);
        int t = total(n, ops);
        long[] keys = new long[t];
        long k = 0;
        for (int i = 0; i < t; i++) {
            k += 1 + rng.nextBelow(1000);
            keys[i] = k;
        }
        for (int i = t - 1; i >= 1; i--) {
            int j = (int) rng.nextBelow(i + 1);
            long tmp = keys[i];
            keys[i] = keys[j];
            keys[j] = tmp;
        }
        return split("dense", "running sum of 1 + splitmix64(seed " + seed + ") mod 1000, shuffled", seed, keys, n,
                List.of());
    }

    public static Dataset lognormal(int n, int ops, long seed) {
        SplitMix64 rng = new SplitMix64(seed);
        Distinct.Draws d = Distinct.draw(() -> lognormalKey(rng), total(n, ops));
        return split("lognormal", "floor(1e12 * exp(2 * Z)), Z ~ N(0,1) by Box-Muller on splitmix64(seed " + seed
                + "), distinct in draw order", seed, d.keys(), n, dropNote(d.dropped()));
    }

    /**
     * 32-bit keys as the B− tree article's integer experiments: {@code next() >>> 34}, uniform in
     * [0, 2^30), the first occurrence of each key kept in draw order (repeats are frequent: about
     * T²/2^31 of T draws); the first n, sorted, are loaded, the rest inserted in order. Key for key
     * the {@code u32} files of the C++ generator the authors' code was measured on (docs/BENCHMARKS.md).
     */
    public static Dataset u32(int n, int ops, long seed) {
        int t = total(n, ops);
        if (t > U32_UNIVERSE / 2) {
            throw new IllegalArgumentException("u32 holds " + U32_UNIVERSE + " distinct keys; " + t + " keys + ops"
                    + " would take more than half of them (drawing them would crawl): use at most "
                    + U32_UNIVERSE / 2);
        }
        SplitMix64 rng = new SplitMix64(seed);
        Distinct.Draws d = Distinct.draw(() -> rng.next() >>> 34, t);
        return split("u32", "splitmix64(seed " + seed + ") >>> 34, uniform in [0, 2^30), distinct in draw order",
                seed, d.keys(), n, dropNote(d.dropped()));
    }

    static long lognormalKey(SplitMix64 rng) {
        while (true) {
            double u1 = rng.nextOpenDouble();
            double u2 = rng.nextOpenDouble();
            double z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
            double x = Math.floor(1e12 * Math.exp(2 * z));
            if (x < 0x1p63) {
                return (long) x;
            }
        }
    }

    static int total(int n, int ops) {
        if (n < 1) {
            throw new IllegalArgumentException("need at least one key to load, got " + n);
        }
        if (ops < 0) {
            throw new IllegalArgumentException("ops must not be negative, got " + ops);
        }
        long t = (long) n + ops;
        if (t > MAX_KEYS) {
            throw new IllegalArgumentException("keys + ops = " + t + " is more than a Java array holds ("
                    + MAX_KEYS + ")");
        }
        return (int) t;
    }

    private static List<String> dropNote(long dropped) {
        return dropped == 0 ? List.of()
                : List.of(dropped + " repeated key(s) were drawn and replaced by the next distinct draws");
    }

    /** First n of {@code drawn} sorted = loaded; the rest in drawn order = inserts. */
    static Dataset split(String name, String description, long seed, long[] drawn, int n, List<String> notes) {
        long[] loaded = Arrays.copyOfRange(drawn, 0, n);
        long[] inserts = Arrays.copyOfRange(drawn, n, drawn.length);
        Arrays.sort(loaded);
        return new Dataset(name, description, seed, loaded, inserts, new ArrayList<>(notes));
    }
}
