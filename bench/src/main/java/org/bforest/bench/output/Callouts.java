package org.bforest.bench.output;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.bforest.bench.runner.Result;
import org.bforest.bench.structures.Structure;
import org.bforest.bench.workloads.Workload;

/**
 * The ratios a reader looks for first, computed from the run itself: the headline structure
 * (bstree when it ran, else the first that did) against the reference (treemap when it ran,
 * else the next structure) on every workload, in memory per key and in build time, and each
 * thread-safe structure's speed-up from its first thread count to its last. The figures are one
 * size's: a size sweep's report computes them per size ({@link ReportData#forSize}), so no ratio
 * sets a figure at one number of keys against one at another.
 */
final class Callouts {
    /**
     * @param figure the ratio, large ("7.8×")
     * @param text   the sentence it belongs to ("bstree is 7.8× treemap on A")
     * @param detail the figures behind it
     * @param colour the colour of the structure it is about
     * @param noise  null, or why the ratio is within noise ({@link Noise}): the figures and
     *               their spreads where the gap between them is smaller than the wider spread
     */
    record Callout(String figure, String text, String detail, String colour, String noise) {
    }

    private Callouts() {
    }

    static Structure headline(ReportData d) {
        if (d.structures().contains(Structure.BSTREE)) {
            return Structure.BSTREE;
        }
        return d.structures().isEmpty() ? null : d.structures().get(0);
    }

    static Structure reference(ReportData d, Structure headline) {
        if (headline != Structure.TREEMAP && d.structures().contains(Structure.TREEMAP)) {
            return Structure.TREEMAP;
        }
        for (Structure s : d.structures()) {
            if (s != headline) {
                return s;
            }
        }
        return null;
    }

    static List<Callout> all(ReportData d) {
        List<Callout> out = new ArrayList<>();
        Structure head = headline(d);
        Structure ref = head == null ? null : reference(d, head);
        if (ref != null) {
            throughput(d, head, ref, out);
            memory(d, head, ref, out);
            build(d, head, ref, out);
        }
        threads(d, out);
        return out;
    }

    /** One dataset's ratio, with the figures behind it, and why it is within noise (null if it is not). */
    private record Per(String dataset, double ratio, String detail, String noise) {
        Per(String dataset, double ratio, String detail) {
            this(dataset, ratio, detail, null);
        }
    }

    /**
     * One card from the per-dataset ratios: with one dataset its own figure and detail; with
     * several, the range of the ratios and each dataset's.
     */
    private static Callout card(List<Per> ps, String before, String after, String colour) {
        if (ps.size() == 1) {
            String fig = ratio(ps.get(0).ratio()) + "×";
            return new Callout(fig, before + fig + after, ps.get(0).detail(), colour, ps.get(0).noise());
        }
        List<String> noisy = new ArrayList<>();
        for (Per p : ps) {
            if (p.noise() != null) {
                noisy.add(p.dataset() + ": " + p.noise());
            }
        }
        double lo = Double.POSITIVE_INFINITY;
        double hi = 0;
        List<String> each = new ArrayList<>();
        for (Per p : ps) {
            lo = Math.min(lo, p.ratio());
            hi = Math.max(hi, p.ratio());
            each.add(p.dataset() + " " + ratio(p.ratio()) + "×");
        }
        String fig = ratio(lo).equals(ratio(hi)) ? ratio(lo) + "×" : ratio(lo) + "–" + ratio(hi) + "×";
        return new Callout(fig, before + fig + after, String.join(", ", each), colour,
                noisy.isEmpty() ? null : String.join("; ", noisy));
    }

    private static void throughput(ReportData d, Structure head, Structure ref, List<Callout> out) {
        int t = d.baseThreads();
        for (Workload w : d.workloads()) {
            List<Per> ps = new ArrayList<>();
            for (String ds : d.datasets()) {
                double h = d.mops(head, ds, w, t);
                double r = d.mops(ref, ds, w, t);
                if (!(h > 0) || !(r > 0)) {
                    continue;
                }
                Result hr = d.get(head, ds, w, t);
                Result rr = d.get(ref, ds, w, t);
                StringBuilder detail = new StringBuilder();
                detail.append(w.title()).append(": ").append(ResultTable.mops(h)).append(" vs ")
                        .append(ResultTable.mops(r)).append(" Mops/s");
                Structure best = null;
                for (Structure s : d.structures()) {
                    double m = d.mops(s, ds, w, t);
                    if (s != head && m > 0 && (best == null || m > d.mops(best, ds, w, t))) {
                        best = s;
                    }
                }
                if (best != null && best != ref) {
                    double b = d.mops(best, ds, w, t);
                    detail.append("; ").append(ratio(h / b)).append("× ").append(best.cliName())
                            .append(h >= b ? ", the next fastest" : ", the fastest");
                    if (Noise.within(hr, d.get(best, ds, w, t))) {
                        detail.append(" (within noise)");
                    }
                }
                ps.add(new Per(ds, h / r, detail.toString(), noise(hr, rr)));
            }
            if (!ps.isEmpty()) {
                out.add(card(ps, head.cliName() + " is ", " " + ref.cliName() + " on " + w.name(), Palette.of(head)));
            }
        }
    }

    /**
     * A "smaller is better" comparison on every dataset: "needs 2.4× less", "1.3× more", or, when
     * the datasets disagree, the plain ratio ("0.8–1.3× the ... of").
     */
    private static void lowerIsBetter(List<String> datasets, List<double[]> headRef, List<String> details,
                                      String verb, String less, String more, String plain, String ref,
                                      String colour, List<Callout> out) {
        if (headRef.isEmpty()) {
            return;
        }
        boolean allLess = true;
        boolean allMore = true;
        for (double[] hr : headRef) {
            allLess &= hr[0] <= hr[1];
            allMore &= hr[0] > hr[1];
        }
        List<Per> ps = new ArrayList<>();
        for (int i = 0; i < headRef.size(); i++) {
            double[] hr = headRef.get(i);
            ps.add(new Per(datasets.get(i), allLess ? hr[1] / hr[0] : hr[0] / hr[1],
                    details.get(i)));
        }
        out.add(card(ps, verb, (allLess ? less : allMore ? more : plain) + ref, colour));
    }

    private static void memory(ReportData d, Structure head, Structure ref, List<Callout> out) {
        List<String> dss = new ArrayList<>();
        List<double[]> hr = new ArrayList<>();
        List<String> details = new ArrayList<>();
        for (String ds : d.datasets()) {
            Result h = d.memory(head, ds);
            Result r = d.memory(ref, ds);
            if (h == null || r == null) {
                continue;
            }
            double hb = bytes(h);
            double rb = bytes(r);
            if (!(hb > 0) || !(rb > 0)) {
                continue;
            }
            dss.add(ds);
            hr.add(new double[] {hb, rb});
            details.add(ResultTable.bytes(hb) + " vs " + ResultTable.bytes(rb) + " B/key (heap after GC); own "
                    + "accounting " + ResultTable.bytes(h.ownBytesPerKey()) + " vs " + ResultTable.bytes(r.ownBytesPerKey()));
        }
        lowerIsBetter(dss, hr, details, head.cliName() + " needs ", " less memory per key than ",
                " more memory per key than ", " the memory per key of ", ref.cliName(), Palette.of(head), out);
    }

    /** Heap after GC per key, or the own figure when the heap was not measured. */
    private static double bytes(Result r) {
        return Double.isFinite(r.heapBytesPerKey()) && r.heapBytesPerKey() > 0 ? r.heapBytesPerKey()
                : r.ownBytesPerKey();
    }

    private static void build(ReportData d, Structure head, Structure ref, List<Callout> out) {
        List<String> dss = new ArrayList<>();
        List<double[]> hr = new ArrayList<>();
        List<String> details = new ArrayList<>();
        for (String ds : d.datasets()) {
            double h = d.buildSeconds(head, ds);
            double r = d.buildSeconds(ref, ds);
            if (!(h > 0) || !(r > 0)) {
                continue;
            }
            dss.add(ds);
            hr.add(new double[] {h, r});
            details.add(seconds(h) + " vs " + seconds(r) + " for " + String.format(Locale.ROOT, "%,d",
                    d.memory(head, ds).keys()) + " keys");
        }
        lowerIsBetter(dss, hr, details, head.cliName() + " builds ", " faster than ", " slower than ",
                " the build time of ", ref.cliName(), Palette.of(head), out);
    }

    /** Each structure that ran with several thread counts: its most threads against its fewest. */
    private static void threads(ReportData d, List<Callout> out) {
        if (d.threads().size() < 2) {
            return;
        }
        for (Structure s : d.structures()) {
            List<Per> ps = new ArrayList<>();
            String before = null;
            String after = null;
            for (String ds : d.datasets()) {
                List<Integer> ran = new ArrayList<>();
                for (int t : d.threads()) {
                    if (d.structures(ds, t).contains(s)) {
                        ran.add(t);
                    }
                }
                if (ran.size() < 2) {
                    continue;
                }
                int lo = ran.get(0);
                int hi = ran.get(ran.size() - 1);
                Workload first = null;
                double firstRatio = Double.NaN;
                String firstNoise = null;
                List<String> rest = new ArrayList<>();
                for (Workload w : d.workloads()) {
                    double a = d.mops(s, ds, w, lo);
                    double b = d.mops(s, ds, w, hi);
                    if (a > 0 && b > 0) {
                        if (first == null) {
                            first = w;
                            firstRatio = b / a;
                            firstNoise = noise(d.get(s, ds, w, hi), d.get(s, ds, w, lo));
                        } else {
                            rest.add(w.name() + " " + ratio(b / a) + "×");
                        }
                    }
                }
                if (first == null) {
                    continue;
                }
                // The sentence is the first dataset's (the thread counts are the same everywhere but in odd runs).
                if (before == null) {
                    before = s.cliName() + " with " + hi + " threads is ";
                    after = " its " + lo + "-thread throughput on " + first.name();
                }
                ps.add(new Per(ds, firstRatio, rest.isEmpty() ? first.title() : "then " + String.join(", ", rest),
                        firstNoise));
            }
            if (!ps.isEmpty()) {
                out.add(card(ps, before, after, Palette.of(s)));
            }
        }
    }

    /**
     * Null when {@code a} and {@code b} are clear of each other's noise; else the two figures with
     * their spreads ("5.76 [0.91–6.63] vs 4.40 [4.10–4.60] Mops/s").
     */
    static String noise(Result a, Result b) {
        if (a == null || b == null || !Noise.within(a, b)) {
            return null;
        }
        return Noise.figure(a) + " vs " + Noise.figure(b) + " Mops/s";
    }

    /** Two significant figures, at most: 78×, 7.8×, 0.78×. */
    static String ratio(double r) {
        if (r >= 9.95) {
            return String.format(Locale.ROOT, "%.0f", r);
        }
        if (r >= 0.995) {
            return String.format(Locale.ROOT, "%.1f", r);
        }
        return String.format(Locale.ROOT, "%.2f", r);
    }

    /** "9.1 ms", "1.52 s". */
    static String seconds(double s) {
        if (s >= 1) {
            return String.format(Locale.ROOT, "%.2f s", s);
        }
        double ms = s * 1000;
        return ms >= 10 ? String.format(Locale.ROOT, "%.0f ms", ms) : String.format(Locale.ROOT, "%.1f ms", ms);
    }
}
