package org.bforest.bench.runner;

import org.bforest.bench.workloads.SlidingWindow;

/**
 * Workload W's figures over time for one structure (apart from {@link Result}'s because only W
 * has them): its throughput in each tenth of the operations and the bytes it holds per live key
 * ({@code memoryBytes() / size()}, the structure's own accounting) after the bulk load and at the
 * end of each tenth. A structure that reuses what its removes empty keeps both flat; one that
 * does not shows the bytes per key climbing and, often, the throughput falling.
 *
 * @param loadBytesPerKey  bytes per live key right after the bulk load (first timed repetition)
 * @param tenthMops        per tenth, the median over the timed repetitions of its Mops/s
 * @param tenthBytesPerKey per tenth, bytes per live key at its end (first timed repetition)
 */
public record WindowFigures(double loadBytesPerKey, double[] tenthMops, double[] tenthBytesPerKey) {
    public WindowFigures {
        if (tenthMops.length != SlidingWindow.TENTHS || tenthBytesPerKey.length != SlidingWindow.TENTHS) {
            throw new IllegalArgumentException("workload W has " + SlidingWindow.TENTHS + " tenths, not "
                    + tenthMops.length + " and " + tenthBytesPerKey.length);
        }
    }

    /** The last tenth's bytes per live key over the figure right after the bulk load. */
    public double memoryGrowth() {
        return tenthBytesPerKey[SlidingWindow.TENTHS - 1] / loadBytesPerKey;
    }

    /** The last tenth's throughput over the first tenth's. */
    public double throughputKept() {
        return tenthMops[SlidingWindow.TENTHS - 1] / tenthMops[0];
    }
}
