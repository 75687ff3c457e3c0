package org.bforest.bench.runner;

import java.util.Arrays;
import org.bforest.bench.structures.Structure;

/**
 * {@code --visit-all}'s figures of one structure on one dataset at one size: a full visit summing
 * every value, timed over the repetitions.
 *
 * @param entries the entries each visit went over (the structure's size)
 * @param repMops each timed repetition's million entries visited a second, in order
 * @param sum     the sum the visits returned (the same in every repetition, or a note says so)
 */
public record VisitFigures(Structure structure, String dataset, int keys, long entries, double[] repMops, long sum) {

    /** The median of the repetitions, million entries a second. */
    public double mops() {
        return BenchmarkRunner.median(repMops);
    }

    /** The slowest repetition. */
    public double mopsMin() {
        return repMops.length == 0 ? Double.NaN : Arrays.stream(repMops).min().getAsDouble();
    }

    /** The fastest repetition. */
    public double mopsMax() {
        return repMops.length == 0 ? Double.NaN : Arrays.stream(repMops).max().getAsDouble();
    }
}
