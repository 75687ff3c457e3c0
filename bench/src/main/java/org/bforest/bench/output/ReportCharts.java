package org.bforest.bench.output;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.bforest.bench.cli.Anchors;
import org.bforest.bench.cli.Counts;
import org.bforest.bench.runner.Result;
import org.bforest.bench.structures.Structure;
import org.bforest.bench.workloads.Workload;

/** The report's charts, built from a run's figures: the data side of {@link SvgBarChart} and {@link SvgLineChart}. */
final class ReportCharts {
    static final int WIDTH = 1120;
    /** The natural width of a size-sweep chart: two side by side on a wide page. */
    static final int SWEEP_WIDTH = 560;
    /** Fill opacity of the "own accounting" bars and of the fewest-threads bars. */
    static final double PALE = 0.3;

    private ReportCharts() {
    }

    /**
     * Throughput on one dataset with one thread count: a row per structure, a panel per workload
     * (each on its own scale: D's scans and A's lookups differ tenfold).
     */
    static SvgBarChart throughput(ReportData d, String dataset, int threads) {
        List<Structure> ss = d.structures(dataset, threads);
        SvgBarChart c = new SvgBarChart("Throughput on " + dataset + ", " + threads(threads) + ", Mops/s",
                "million operations / s, higher is better (each workload on its own scale)", WIDTH);
        for (Workload w : d.workloads()) {
            c.panel(w.name(), w.title());
        }
        for (Structure s : ss) {
            List<SvgBarChart.Bar> bars = new ArrayList<>();
            for (Workload w : d.workloads()) {
                bars.add(mopsBar(d.get(s, dataset, w, threads), 1, s.cliName() + ", " + w.name() + " " + w.title()));
            }
            c.row(s.cliName(), Palette.of(s), bars);
        }
        return c;
    }

    /**
     * The structures that ran with several thread counts on {@code dataset}: a row per structure
     * and thread count (paler for fewer threads), a panel per workload. Null if none did.
     */
    static SvgBarChart scaling(ReportData d, String dataset) {
        List<Structure> ss = new ArrayList<>();
        for (Structure s : d.structures()) {
            int counts = 0;
            for (int t : d.threads()) {
                if (d.structures(dataset, t).contains(s)) {
                    counts++;
                }
            }
            if (counts >= 2) {
                ss.add(s);
            }
        }
        if (ss.isEmpty()) {
            return null;
        }
        List<Integer> ts = d.threads();
        SvgBarChart c = new SvgBarChart("Throughput on " + dataset + " by thread count, Mops/s",
                "million operations / s, higher is better (each workload on its own scale)", WIDTH);
        for (Workload w : d.workloads()) {
            c.panel(w.name(), w.title());
        }
        for (Structure s : ss) {
            for (int i = 0; i < ts.size(); i++) {
                int t = ts.get(i);
                double opacity = ts.size() == 1 ? 1 : PALE + (1 - PALE) * i / (ts.size() - 1);
                List<SvgBarChart.Bar> bars = new ArrayList<>();
                for (Workload w : d.workloads()) {
                    bars.add(mopsBar(d.get(s, dataset, w, t), opacity, s.cliName() + ", " + w.name() + ", "
                            + threads(t)));
                }
                c.row(s.cliName() + " · " + threads(t), Palette.of(s), bars, i == 0);
            }
        }
        return c;
    }

    /**
     * A throughput bar: the median, with a whisker from the slowest to the fastest repetition;
     * the tooltip says all three ("what: 2.44 Mops/s, median of 3, slowest 2.30, fastest 2.61").
     */
    static SvgBarChart.Bar mopsBar(Result r, double opacity, String what) {
        if (r == null) {
            return new SvgBarChart.Bar(Double.NaN, "-", opacity, what + ": did not run");
        }
        return new SvgBarChart.Bar(r.mops(), ResultTable.mops(r.mops()), opacity, mopsTip(r, what), r.mopsMin(),
                r.mopsMax());
    }

    /** "what: 2.44 Mops/s, median of 3, slowest 2.30, fastest 2.61". */
    static String mopsTip(Result r, String what) {
        return what + ": " + ResultTable.mops(r.mops()) + " Mops/s" + (r.repMops().length < 2 ? ""
                : ", median of " + r.repMops().length + ", slowest " + ResultTable.mops(r.mopsMin()) + ", fastest "
                + ResultTable.mops(r.mopsMax()));
    }

    /**
     * The size sweep of one workload on one dataset: Mops/s (the median) against the number of
     * keys on a log axis, a line per structure with a marker per size it ran at (a size where it
     * did not run is a gap). Null if no structure has a figure there.
     */
    static SvgLineChart sweep(ReportData d, String dataset, Workload w, int threads) {
        SvgLineChart c = new SvgLineChart(w.name() + " " + w.title() + " on " + dataset + ", " + threads(threads)
                + ": Mops/s against the number of keys", "number of keys (log scale)", "million operations / s",
                SWEEP_WIDTH, 210);
        boolean any = false;
        for (Structure s : d.structures(dataset, threads)) {
            List<SvgLineChart.Point> points = new ArrayList<>();
            boolean ran = false;
            for (int n : d.sizes()) {
                Result r = d.get(s, dataset, w, threads, n);
                points.add(r == null ? new SvgLineChart.Point(n, Double.NaN, null) : new SvgLineChart.Point(n,
                        r.mops(), mopsTip(r, s.cliName() + ", " + w.name() + ", " + Counts.format(n) + " keys")));
                ran |= r != null;
            }
            if (ran) { // a structure that never ran this workload (sorted-array on B) gets no legend entry
                c.series(s.cliName(), Palette.of(s), Palette.marker(s), Palette.dash(s), points);
                any = true;
            }
        }
        return any ? c : null;
    }

    /** The dash patterns of the reference lines, one per source in turn (the structures' lines are solid or finer). */
    private static final String[] REFERENCE_DASHES = {"8 4", "2 3", "12 3 3 3", "5 5"};

    /**
     * The batch-size sweep of one workload on one dataset at {@code keys} keys ({@code --batch}
     * with several sizes): Mops/s (the median) against the operations a batched call at most, on
     * a log axis, a line per structure; each {@code --anchors} figure of the same dataset, keys
     * and workload is a dashed horizontal line labelled with its source. Single-threaded, as the
     * batched cells are. Null if no structure ran the workload batched there.
     */
    static SvgLineChart batches(ReportData d, String dataset, Workload w, int keys) {
        SvgLineChart c = new SvgLineChart(w.name() + " " + w.title() + " on " + dataset + ", " + Counts.format(keys)
                + " keys, 1 thread: Mops/s against the operations a batched call", "operations a call at most"
                + " (--batch, log scale)", "million operations / s", SWEEP_WIDTH, 210);
        boolean any = false;
        for (Structure s : d.structures()) {
            List<SvgLineChart.Point> points = new ArrayList<>();
            boolean ran = false;
            for (int b : d.batchSizes()) {
                Result r = d.batched(s, dataset, w, 1, keys, b);
                points.add(r == null ? new SvgLineChart.Point(b, Double.NaN, null) : new SvgLineChart.Point(b,
                        r.mops(), mopsTip(r, s.cliName() + ", " + r.label() + ", " + Counts.format(b)
                        + " a call at most")));
                ran |= r != null;
            }
            if (ran) {
                c.series(s.cliName(), Palette.of(s), Palette.marker(s), Palette.dash(s), points);
                any = true;
            }
        }
        if (!any) {
            return null;
        }
        List<Anchors.Anchor> anchors = d.run().options().anchors().matching(dataset, keys, w);
        for (int i = 0; i < anchors.size(); i++) {
            Anchors.Anchor a = anchors.get(i);
            c.reference(a.source() + " " + ResultTable.mops(a.mops()), a.mops(),
                    REFERENCE_DASHES[i % REFERENCE_DASHES.length], a.source() + " on " + a.dataset() + ", "
                    + Counts.format(a.keys()) + " keys, workload " + a.workload() + ": " + ResultTable.mops(a.mops())
                    + " Mops/s one operation at a time (--anchors, " + a.file() + " line " + a.line() + ")");
        }
        return c;
    }

    /**
     * Bytes per key on {@code dataset}: a row per structure, a panel for the heap after GC (solid)
     * and one for the structure's own accounting (pale), on the same scale.
     */
    static SvgBarChart memory(ReportData d, String dataset) {
        SvgBarChart c = new SvgBarChart("Memory per key on " + dataset + ", bytes",
                "bytes per key, lower is better", WIDTH);
        c.panel("heap after GC", "what the structure keeps alive").panel("own accounting",
                "memoryBytes() or a layout estimate");
        for (Structure s : d.structures()) {
            Result r = d.memory(s, dataset);
            if (r == null) {
                continue;
            }
            double heap = r.heapBytesPerKey();
            double own = r.ownBytesPerKey();
            c.row(s.cliName(), Palette.of(s), List.of(
                    new SvgBarChart.Bar(heap, ResultTable.bytes(heap), 1,
                            s.cliName() + ": " + ResultTable.bytes(heap) + " B/key, heap after GC"),
                    new SvgBarChart.Bar(own, ResultTable.bytes(own), PALE,
                            s.cliName() + ": " + ResultTable.bytes(own) + " B/key, " + s.memoryMethod())));
        }
        return c;
    }

    /** Whether build times read better in milliseconds (all under a second). */
    static boolean millis(ReportData d) {
        for (Structure s : d.structures()) {
            for (String ds : d.datasets()) {
                if (d.buildSeconds(s, ds) >= 1) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Build time: a row per structure, a panel per dataset. */
    static SvgBarChart build(ReportData d) {
        boolean ms = millis(d);
        SvgBarChart c = new SvgBarChart("Build time per structure", (ms ? "build time, ms" : "build time, s")
                + ", lower is better", WIDTH);
        for (String ds : d.datasets()) {
            c.panel(ds, null);
        }
        for (Structure s : d.structures()) {
            List<SvgBarChart.Bar> bars = new ArrayList<>();
            for (String ds : d.datasets()) {
                double v = d.buildSeconds(s, ds) * (ms ? 1000 : 1);
                bars.add(new SvgBarChart.Bar(v, time(v), 1, s.cliName() + " on " + ds + ": "
                        + (Double.isFinite(v) ? time(v) + (ms ? " ms" : " s") : "did not run")));
            }
            c.row(s.cliName(), Palette.of(s), bars);
        }
        return c;
    }

    /** A build time in the chart's unit: 3 significant figures, at most. */
    static String time(double v) {
        if (!Double.isFinite(v)) {
            return "-";
        }
        return v >= 100 ? String.format(Locale.ROOT, "%.0f", v)
                : v >= 10 ? String.format(Locale.ROOT, "%.1f", v)
                : String.format(Locale.ROOT, "%.2f", v);
    }

    static String threads(int t) {
        return t + (t == 1 ? " thread" : " threads");
    }
}
