package org.bforest.bench.runner;

import org.bforest.bench.structures.Structure;
import org.bforest.bench.workloads.Workload;

/**
 * The figures of one structure × dataset × workload × threads.
 *
 * @param mops            median million operations per second over the timed repetitions
 * @param repMops         each timed repetition's Mops/s, in order
 * @param buildSeconds    median build time over every build of this cell (warm-ups included)
 * @param heapBytesPerKey heap growth across the build, after full GCs, per loaded key (NaN if
 *                        not measured)
 * @param ownBytesPerKey  the structure's own accounting (or estimate) after the build, per key
 * @param checksum        the blackhole sum of the operations' results (the same in every
 *                        repetition; compared across structures)
 */
public record Result(Structure structure, String dataset, Workload workload, int threads, int keys, int ops,
                     double mops, double[] repMops, double buildSeconds, double heapBytesPerKey,
                     double ownBytesPerKey, long checksum) {
}
