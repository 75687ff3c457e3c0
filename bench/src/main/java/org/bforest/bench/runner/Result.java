package org.bforest.bench.runner;

import org.bforest.bench.structures.Structure;
import org.bforest.bench.workloads.Workload;

/**
 * The figures of one structure × dataset × workload × threads (× batch size, for the batched
 * form of workload A).
 *
 * @param batch           0, or the keys per {@code getAll} call of a batched lookup run
 * @param mops            median million operations per second over the timed repetitions
 * @param repMops         each timed repetition's Mops/s, in order
 * @param buildSeconds    median build time over every build of this cell (warm-ups included)
 * @param heapBytesPerKey heap growth across the build, after full GCs, per loaded key (NaN if
 *                        not measured)
 * @param ownBytesPerKey  the structure's own accounting (or estimate) after the build, per key
 * @param heapBytesAfter  heap growth across build and workload, after full GCs, per key held
 *                        afterwards: measured on the first timed repetition of a workload that
 *                        writes (NaN otherwise)
 * @param ownBytesAfter   the structure's own accounting then, per key held (NaN otherwise)
 * @param checksum        the blackhole sum of the operations' results (the same in every
 *                        repetition; compared across structures)
 * @param window          workload W's figures per tenth of its operations; null for the others
 * @param device          a device index's time per batch and device memory; null for the
 *                        structures that are not device indexes
 */
public record Result(Structure structure, String dataset, Workload workload, int threads, int batch, int keys,
                     int ops, double mops, double[] repMops, double buildSeconds, double heapBytesPerKey,
                     double ownBytesPerKey, double heapBytesAfter, double ownBytesAfter, long checksum,
                     WindowFigures window, DeviceFigures device) {

    /** A result without device figures (a structure that is not a device index). */
    public Result(Structure structure, String dataset, Workload workload, int threads, int batch, int keys, int ops,
                  double mops, double[] repMops, double buildSeconds, double heapBytesPerKey, double ownBytesPerKey,
                  double heapBytesAfter, double ownBytesAfter, long checksum, WindowFigures window) {
        this(structure, dataset, workload, threads, batch, keys, ops, mops, repMops, buildSeconds, heapBytesPerKey,
                ownBytesPerKey, heapBytesAfter, ownBytesAfter, checksum, window, null);
    }

    /** A result without workload W's figures (every workload but W). */
    public Result(Structure structure, String dataset, Workload workload, int threads, int batch, int keys, int ops,
                  double mops, double[] repMops, double buildSeconds, double heapBytesPerKey, double ownBytesPerKey,
                  double heapBytesAfter, double ownBytesAfter, long checksum) {
        this(structure, dataset, workload, threads, batch, keys, ops, mops, repMops, buildSeconds, heapBytesPerKey,
                ownBytesPerKey, heapBytesAfter, ownBytesAfter, checksum, null, null);
    }

    /** The workload's name, with "/b" and the batch size for a batched run ("A/b1024"). */
    public String label() {
        return label(workload, batch);
    }

    public static String label(Workload w, int batch) {
        return batch > 0 ? w.name() + "/b" + batch : w.name();
    }

    /** The slowest timed repetition, Mops/s. */
    public double mopsMin() {
        double m = Double.POSITIVE_INFINITY;
        for (double v : repMops) {
            m = Math.min(m, v);
        }
        return repMops.length == 0 ? Double.NaN : m;
    }

    /** The fastest timed repetition, Mops/s. */
    public double mopsMax() {
        double m = Double.NEGATIVE_INFINITY;
        for (double v : repMops) {
            m = Math.max(m, v);
        }
        return repMops.length == 0 ? Double.NaN : m;
    }
}
