package org.bforest.bench.output;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.bforest.bench.runner.Result;

/**
 * When an ordering of two figures is within their noise. Each figure is the median of a few timed
 * repetitions, and the slowest to the fastest of them is its spread. Two figures are <b>within
 * noise</b> of each other when the gap between their medians is smaller than the wider of their
 * two spreads: a rerun could well put them the other way round, so "A is 1.3× B" says less than
 * it seems to. A figure from a single repetition has no spread and is never flagged.
 *
 * <p>The report marks a row of its results table whose spread is wider than the gap to the
 * structure ranked next to it (above or below, in the same cell: dataset, workload, threads,
 * batch, keys), and a highlight whose two figures are within noise.
 */
final class Noise {
    private Noise() {
    }

    /** The fastest minus the slowest repetition, Mops/s; 0 with fewer than two repetitions. */
    static double spread(Result r) {
        return r.repMops().length < 2 ? 0 : r.mopsMax() - r.mopsMin();
    }

    /** Whether the gap between the medians of {@code a} and {@code b} is smaller than the wider spread. */
    static boolean within(Result a, Result b) {
        double gap = Math.abs(a.mops() - b.mops());
        return Math.max(spread(a), spread(b)) > gap;
    }

    /**
     * The results ranked right next to {@code r} by median (the next faster, the next slower) among
     * those of the same cell in {@code all}, that are within noise of it; empty when its order is
     * clear of the noise.
     */
    static List<Result> neighbours(Result r, List<Result> all) {
        Result above = null;
        Result below = null;
        for (Result q : all) {
            if (q == r || !sameCell(q, r)) {
                continue;
            }
            if (q.mops() >= r.mops() && (above == null || q.mops() < above.mops())) {
                above = q;
            } else if (q.mops() < r.mops() && (below == null || q.mops() > below.mops())) {
                below = q;
            }
        }
        List<Result> out = new ArrayList<>();
        if (above != null && within(r, above)) {
            out.add(above);
        }
        if (below != null && within(r, below)) {
            out.add(below);
        }
        return out;
    }

    private static boolean sameCell(Result a, Result b) {
        return Objects.equals(a.dataset(), b.dataset()) && a.workload() == b.workload() && a.threads() == b.threads()
                && a.batch() == b.batch() && a.keys() == b.keys();
    }

    /** "5.76 [0.91–6.63]": the median and the spread, Mops/s. */
    static String figure(Result r) {
        return ResultTable.mops(r.mops()) + (r.repMops().length < 2 ? ""
                : " [" + ResultTable.mops(r.mopsMin()) + "–" + ResultTable.mops(r.mopsMax()) + "]");
    }
}
