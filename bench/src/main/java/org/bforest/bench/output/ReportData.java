package org.bforest.bench.output;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bforest.bench.cli.Counts;
import org.bforest.bench.runner.DatasetInfo;
import org.bforest.bench.runner.Result;
import org.bforest.bench.runner.RunSummary;
import org.bforest.bench.structures.Structure;
import org.bforest.bench.workloads.Workload;

/**
 * A run's results indexed for the HTML report: which datasets, thread counts, structures and
 * key counts have figures (in the order the options listed them; sizes ascending), and the
 * figure of one cell.
 *
 * <p>The methods that take no key count (the bar charts', the tables', the ratios') read a run
 * at one size. A size sweep is read through {@link #forSize}, a view of one size's figures, so
 * that no chart, table or ratio mixes sizes; the sweep's own charts use
 * {@link #get(Structure, String, Workload, int, int)}.
 */
final class ReportData {
    private final RunSummary run;
    private final Map<String, Result> cells = new HashMap<>();
    private final Map<String, Result> sized = new HashMap<>();
    /** The --batch cells, by cell, key count and batch size. */
    private final Map<String, Result> batched = new HashMap<>();
    private final List<Integer> batchSizes;
    private final List<Integer> sizes;
    private final List<String> datasets;
    private final List<Integer> threads;
    private final List<Structure> structures;

    ReportData(RunSummary run) {
        this.run = run;
        Set<String> ds = new LinkedHashSet<>();
        for (DatasetInfo d : run.datasets()) {
            ds.add(d.name());
        }
        Set<Integer> ts = new LinkedHashSet<>();
        Set<Structure> ran = new LinkedHashSet<>();
        for (Result r : run.results()) {
            if (r.batch() == 0) { // the charts show the unbatched workloads; the tables show every row
                cells.putIfAbsent(key(r.structure(), r.dataset(), r.workload(), r.threads()), r);
                sized.putIfAbsent(key(r.structure(), r.dataset(), r.workload(), r.threads()) + "\u0000" + r.keys(), r);
            } else {
                batched.putIfAbsent(key(r.structure(), r.dataset(), r.workload(), r.threads()) + "\u0000" + r.keys()
                        + "\u0000" + r.batch(), r);
            }
            ds.add(r.dataset());
            ran.add(r.structure());
        }
        for (int t : run.options().threads()) {
            for (Result r : run.results()) {
                if (r.threads() == t) {
                    ts.add(t);
                    break;
                }
            }
        }
        for (Result r : run.results()) {
            ts.add(r.threads());
        }
        List<Structure> ordered = new ArrayList<>();
        for (Structure s : run.options().structures()) {
            if (ran.contains(s)) {
                ordered.add(s);
            }
        }
        for (Structure s : ran) {
            if (!ordered.contains(s)) {
                ordered.add(s);
            }
        }
        this.datasets = List.copyOf(ds);
        this.threads = List.copyOf(ts);
        this.structures = List.copyOf(ordered);
        this.sizes = run.results().stream().map(Result::keys).distinct().sorted().toList();
        this.batchSizes = run.results().stream().map(Result::batch).filter(b -> b > 0).distinct().sorted().toList();
    }

    /** The batch sizes of the --batch cells that ran, ascending; empty without --batch. */
    List<Integer> batchSizes() {
        return batchSizes;
    }

    /** The --batch cell's figures at {@code keys} keys and {@code batch} operations a call, or null. */
    Result batched(Structure s, String dataset, Workload w, int threads, int keys, int batch) {
        return batched.get(key(s, dataset, w, threads) + "\u0000" + keys + "\u0000" + batch);
    }

    /** The key counts with figures, ascending: more than one for a size sweep. */
    List<Integer> sizes() {
        return sizes;
    }

    /** Whether the figures span more than one key count. */
    boolean sweep() {
        return sizes.size() > 1;
    }

    /**
     * The figures at {@code keys} keys only (and the datasets as generated at that size), indexed
     * the same way: the view every per-size chart, table and ratio of a sweep reads.
     */
    ReportData forSize(int keys) {
        List<DatasetInfo> ds = new ArrayList<>();
        for (DatasetInfo d : run.datasets()) {
            if (d.keys() == keys) {
                ds.add(d);
            }
        }
        List<Result> rs = new ArrayList<>();
        for (Result r : run.results()) {
            if (r.keys() == keys) {
                rs.add(r);
            }
        }
        return new ReportData(new RunSummary(run.options(), run.environment(), ds, rs, run.notes(),
                run.wallSeconds(), run.args()));
    }

    /** The key counts of these figures, the short way ("1M"; "1K, 10K" across a sweep); the options' if none ran. */
    String keysText() {
        if (sizes.isEmpty()) {
            return run.options().keysText();
        }
        return String.join(", ", sizes.stream().map(n -> Counts.format(n)).toList());
    }

    private static String key(Structure s, String dataset, Workload w, int threads) {
        return s.name() + "\u0000" + dataset + "\u0000" + w.name() + "\u0000" + threads;
    }

    RunSummary run() {
        return run;
    }

    /** Dataset names, in the order they ran. */
    List<String> datasets() {
        return datasets;
    }

    /** Thread counts with at least one figure, in the options' order. */
    List<Integer> threads() {
        return threads;
    }

    /** The thread count the main charts show: the first one with figures (1 unless told otherwise). */
    int baseThreads() {
        return threads.isEmpty() ? 1 : threads.get(0);
    }

    /** Structures with at least one figure, in the options' order. */
    List<Structure> structures() {
        return structures;
    }

    List<Workload> workloads() {
        return run.options().workloads();
    }

    /** Structures with a figure on {@code dataset} with {@code threads} threads. */
    List<Structure> structures(String dataset, int threads) {
        List<Structure> out = new ArrayList<>();
        for (Structure s : structures) {
            for (Workload w : workloads()) {
                if (get(s, dataset, w, threads) != null) {
                    out.add(s);
                    break;
                }
            }
        }
        return out;
    }

    /** The cell's figures, or null if it did not run. */
    Result get(Structure s, String dataset, Workload w, int threads) {
        return cells.get(key(s, dataset, w, threads));
    }

    /** The cell's figures at {@code keys} keys, or null if it did not run. */
    Result get(Structure s, String dataset, Workload w, int threads, int keys) {
        return sized.get(key(s, dataset, w, threads) + "\u0000" + keys);
    }

    /** Median Mops/s of the cell, NaN if it did not run. */
    double mops(Structure s, String dataset, Workload w, int threads) {
        Result r = get(s, dataset, w, threads);
        return r == null ? Double.NaN : r.mops();
    }

    /** The memory figures of {@code s} on {@code dataset} (measured on its first build there), or null. */
    Result memory(Structure s, String dataset) {
        for (Result r : run.results()) {
            if (r.structure() == s && r.dataset().equals(dataset)) {
                return r;
            }
        }
        return null;
    }

    /**
     * The median build time in seconds of {@code s} on {@code dataset} over its workloads at the
     * base thread count (any thread count if it only ran with others); NaN if it never ran.
     */
    double buildSeconds(Structure s, String dataset) {
        List<Double> builds = new ArrayList<>();
        List<Double> others = new ArrayList<>();
        for (Result r : run.results()) {
            if (r.structure() == s && r.dataset().equals(dataset) && Double.isFinite(r.buildSeconds())) {
                (r.threads() == baseThreads() ? builds : others).add(r.buildSeconds());
            }
        }
        List<Double> use = builds.isEmpty() ? others : builds;
        if (use.isEmpty()) {
            return Double.NaN;
        }
        use.sort(null);
        return use.get(use.size() / 2);
    }
}
