package org.bforest.bench.datasets;

import java.nio.file.Files;
import java.nio.file.Path;
import org.bforest.bench.BenchException;

/** Resolves a {@code --dataset} name: one of the generators, or else the path of a SOSD file. */
public final class Datasets {
    public static final String UNIFORM = "uniform";
    public static final String DENSE = "dense";
    public static final String LOGNORMAL = "lognormal";
    public static final String U32 = "u32";

    private Datasets() {
    }

    /**
     * @param seedOverride the seed to use instead of the dataset's own fixed seed, or null
     */
    public static Dataset create(String spec, int keys, int ops, Long seedOverride, boolean sosdUnsignedShift) {
        switch (spec) {
            case UNIFORM:
                return SyntheticDatasets.uniform(keys, ops, seed(seedOverride, SyntheticDatasets.UNIFORM_SEED));
            case DENSE:
                return SyntheticDatasets.dense(keys, ops, seed(seedOverride, SyntheticDatasets.DENSE_SEED));
            case LOGNORMAL:
                return SyntheticDatasets.lognormal(keys, ops, seed(seedOverride, SyntheticDatasets.LOGNORMAL_SEED));
            case U32:
                return SyntheticDatasets.u32(keys, ops, seed(seedOverride, SyntheticDatasets.U32_SEED));
            default:
                Path p = Path.of(spec);
                if (!Files.exists(p)) {
                    throw new BenchException("unknown dataset '" + spec + "': it is not uniform, dense, lognormal or u32,"
                            + " and there is no file by that name");
                }
                return SosdLoader.load(p, sosdUnsignedShift, keys, ops, seed(seedOverride, SosdLoader.SAMPLE_SEED));
        }
    }

    private static long seed(Long override, long own) {
        return override != null ? override : own;
    }
}
