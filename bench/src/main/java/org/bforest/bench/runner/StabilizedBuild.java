package org.bforest.bench.runner;

import org.bforest.bench.cli.BuildMode;
import org.bforest.bench.datasets.SplitMix64;
import org.bforest.bench.structures.IndexAdapter;
import org.bforest.bench.structures.Values;
import org.bforest.bench.workloads.Op;
import org.bforest.bench.workloads.Operations;
import org.bforest.bench.workloads.Workload;

/**
 * The CSB+-tree paper's "stabilized" build ({@code --build stabilized}), planned once per dataset
 * outside the clock: every {@value BuildMode#SEED_EVERY}th sorted loaded key is bulk-loaded, and
 * the others are inserted in a seeded random order, through the adapter's own timed loop (its
 * inserts store {@link Values#of(long)}, the values a bulk load would have given them), so the
 * tree ends with the same keys and values as a bulk load, at the fill inserts leave.
 */
record StabilizedBuild(long[] seedKeys, long[] seedValues, Operations inserts) {

    static StabilizedBuild plan(long[] loaded, long seed) {
        int n = loaded.length;
        int seeds = (n + BuildMode.SEED_EVERY - 1) / BuildMode.SEED_EVERY;
        long[] seedKeys = new long[seeds];
        long[] rest = new long[n - seeds];
        for (int i = 0, s = 0, r = 0; i < n; i++) {
            if (i % BuildMode.SEED_EVERY == 0) {
                seedKeys[s++] = loaded[i];
            } else {
                rest[r++] = loaded[i];
            }
        }
        SplitMix64 rng = new SplitMix64(SplitMix64.mix(seed ^ 0x5717_AB1EL));
        for (int i = rest.length - 1; i >= 1; i--) {
            int j = rng.nextInt(i + 1);
            long t = rest[i];
            rest[i] = rest[j];
            rest[j] = t;
        }
        byte[] codes = new byte[rest.length];
        java.util.Arrays.fill(codes, (byte) Op.INSERT);
        int[] counts = new int[Op.COUNT];
        counts[Op.INSERT] = rest.length;
        return new StabilizedBuild(seedKeys, Values.of(seedKeys),
                new Operations(Workload.B, seed, codes, rest, null, counts, 0));
    }

    /** Builds {@code a}: the bulk load of the tenth, then the inserts of the rest. */
    void build(IndexAdapter a) {
        a.build(seedKeys, seedValues);
        a.run(inserts, 0, inserts.size());
    }
}
