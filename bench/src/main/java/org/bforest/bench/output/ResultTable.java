package org.bforest.bench.output;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.bforest.bench.cli.Anchors;
import org.bforest.bench.cli.Counts;
import org.bforest.bench.runner.Result;
import org.bforest.bench.runner.RunSummary;
import org.bforest.bench.structures.Structure;
import org.bforest.bench.workloads.Workload;

/**
 * The table on stdout: one block per key count, dataset and thread count (in the order they
 * ran: a size sweep's smallest size first), a row per structure, Mops/s per
 * workload (the median of the timed repetitions, the slowest and fastest in brackets), then build
 * seconds and bytes per key after the build measured both ways; under it, the bytes per key held
 * after each workload that writes, and workload W's figures per tenth of its operations
 * ({@link WindowTables}). "-" marks a cell that did not run (the notes under the table
 * say why). With one {@code --batch} size, each batched workload's column (A/bN, ...) stands
 * beside the workload's own; with several, a table per batched workload under the block gives
 * Mops/s by the batch size. The {@code --anchors} figures of the block's dataset and number of
 * keys follow, a row per source, in the block's workload columns. With {@code --snapshot}, a
 * "Snapshots" table per dataset and size follows the blocks ({@link SnapshotTables}); with
 * {@code --visit-all}, a "Visit-all" table per dataset and size ({@link VisitTables}).
 */
public final class ResultTable {
    private ResultTable() {
    }

    public static String render(RunSummary run) {
        StringBuilder sb = new StringBuilder();
        List<Workload> workloads = run.options().workloads();
        Map<String, List<Result>> groups = new LinkedHashMap<>();
        for (Result r : run.results()) {
            groups.computeIfAbsent(r.keys() + "\u0000" + r.dataset() + "\u0000" + r.threads(), k -> new ArrayList<>())
                    .add(r);
        }
        for (List<Result> group : groups.values()) {
            Result any = group.get(0);
            sb.append(String.format(Locale.ROOT, "%s: %s keys, %s ops per workload, %d thread%s; Mops/s, median of %d"
                            + " interleaved repetitions [slowest-fastest] (%d warm-up)%n", any.dataset(),
                    Counts.format(any.keys()), Counts.format(any.ops()), any.threads(), any.threads() == 1 ? "" : "s",
                    run.options().reps(), run.options().warmups()));
            // Columns: each workload, and with one --batch size its batched form beside it (A/bN).
            List<Workload> cols = new ArrayList<>();
            List<Integer> batches = new ArrayList<>();
            List<Integer> sizes = run.options().batches();
            for (Workload w : workloads) {
                cols.add(w);
                batches.add(0);
                if (sizes.size() == 1 && w.batchable() && any.threads() == 1) {
                    cols.add(w);
                    batches.add(sizes.get(0));
                }
            }
            List<String> header = new ArrayList<>();
            header.add("structure");
            for (int c = 0; c < cols.size(); c++) {
                header.add(Result.label(cols.get(c), batches.get(c)));
            }
            header.add("build s");
            header.add("B/key heap");
            header.add("B/key own");
            List<List<String>> rows = new ArrayList<>();
            rows.add(header);
            for (Structure s : run.options().structures()) {
                List<String> row = new ArrayList<>();
                row.add(s.cliName());
                List<Double> builds = new ArrayList<>();
                Result mem = null;
                for (int c = 0; c < cols.size(); c++) {
                    Result r = find(group, s, cols.get(c), batches.get(c));
                    row.add(r == null ? "-" : mopsWithSpread(r));
                    if (r != null) {
                        builds.add(r.buildSeconds());
                        mem = mem == null ? r : mem;
                    }
                }
                builds.sort(null);
                row.add(builds.isEmpty() ? "-" : String.format(Locale.ROOT, "%.3f", builds.get(builds.size() / 2)));
                row.add(mem == null ? "-" : bytes(mem.heapBytesPerKey()));
                row.add(mem == null ? "-" : bytes(mem.ownBytesPerKey()));
                rows.add(row);
            }
            sb.append(align(rows)).append('\n');
            String after = memoryAfterWrites(group, run.options().structures(), workloads);
            if (!after.isEmpty()) {
                sb.append("B/key held after the workloads that write (first timed repetition), heap after GC / own:\n")
                        .append(after).append('\n');
            }
            String window = WindowTables.text(group, run.options().structures());
            if (!window.isEmpty()) {
                sb.append(window).append('\n');
            }
            if (sizes.size() > 1) {
                sb.append(batches(group, run.options().structures(), workloads, sizes));
            }
            if (any.threads() == 1) {
                sb.append(anchors(run.options().anchors(), any.dataset(), any.keys(), workloads));
            }
        }
        if (groups.isEmpty()) {
            sb.append("No structure ran.\n");
        }
        sb.append(SnapshotTables.text(run));
        sb.append(VisitTables.text(run));
        sb.append(sweep(run));
        sb.append(unmatched(run));
        return sb.toString();
    }

    /**
     * With several {@code --batch} sizes: per batched workload, a row per structure with its
     * Mops/s unbatched, then at each batch size (the median; the spreads are in the CSV and the
     * report). Empty when none ran batched.
     */
    static String batches(List<Result> group, List<Structure> structures, List<Workload> workloads,
                          List<Integer> sizes) {
        StringBuilder sb = new StringBuilder();
        for (Workload w : workloads) {
            List<List<String>> rows = new ArrayList<>();
            List<String> header = new ArrayList<>();
            header.add("structure");
            header.add("unbatched");
            sizes.forEach(b -> header.add("b" + Counts.format(b)));
            rows.add(header);
            for (Structure s : structures) {
                List<String> row = new ArrayList<>();
                row.add(s.cliName());
                Result plain = find(group, s, w, 0);
                row.add(plain == null ? "-" : mops(plain.mops()));
                boolean ran = false;
                for (int b : sizes) {
                    Result r = find(group, s, w, b);
                    row.add(r == null ? "-" : mops(r.mops()));
                    ran |= r != null;
                }
                if (ran) {
                    rows.add(row);
                }
            }
            if (rows.size() > 1) {
                sb.append(w.name()).append(' ').append(w.title())
                        .append(" batched (--batch): Mops/s by the operations a call at most, 1 thread\n")
                        .append(align(rows)).append('\n');
            }
        }
        return sb.toString();
    }

    /**
     * The {@code --anchors} figures of {@code dataset} at {@code keys} keys: a row per source, a
     * column per workload (its figure, one operation at a time), under a line that says what they
     * are; empty when none matches.
     */
    static String anchors(Anchors anchors, String dataset, int keys, List<Workload> workloads) {
        List<String> sources = anchors.sources(dataset, keys);
        if (sources.isEmpty()) {
            return "";
        }
        List<List<String>> rows = new ArrayList<>();
        List<String> header = new ArrayList<>();
        header.add("source");
        workloads.forEach(w -> header.add(w.name()));
        rows.add(header);
        for (String source : sources) {
            List<String> row = new ArrayList<>();
            row.add(source);
            for (Workload w : workloads) {
                String v = "-";
                for (Anchors.Anchor a : anchors.matching(dataset, keys, w)) {
                    if (a.source().equals(source)) {
                        v = mops(a.mops());
                    }
                }
                row.add(v);
            }
            rows.add(row);
        }
        return "Reference figures on " + dataset + " at " + Counts.format(keys) + " keys (--anchors " + anchors.where()
                + "): outside programs, one operation at a time, Mops/s; read, not measured here\n" + align(rows)
                + '\n';
    }

    /**
     * A line naming the {@code --anchors} figures that match no single-threaded cell of the run
     * (another dataset, number of keys or workload); empty when every one matched.
     */
    static String unmatched(RunSummary run) {
        List<Anchors.Anchor> none = new ArrayList<>();
        for (Anchors.Anchor a : run.options().anchors().all()) {
            boolean found = false;
            for (Result r : run.results()) {
                found |= r.threads() == 1 && a.matches(r.dataset(), r.keys(), r.workload());
            }
            if (!found) {
                none.add(a);
            }
        }
        if (none.isEmpty()) {
            return "";
        }
        Anchors.Anchor a = none.get(0);
        return String.format(Locale.ROOT, "--anchors: %d of the %d reference figures %s no dataset, number of keys"
                + " and workload this run measured (the first: %s on %s at %s keys, workload %s, %s line %d)%n",
                none.size(), run.options().anchors().all().size(), none.size() == 1 ? "matches" : "match", a.source(),
                a.dataset(), Counts.format(a.keys()), a.workload(), a.file(), a.line());
    }

    /**
     * For a size sweep (results at more than one key count): per dataset, thread count and
     * workload, a row per structure with its Mops/s at each size, smallest first (the report's
     * line charts as text). Empty for a run at one size.
     */
    static String sweep(RunSummary run) {
        java.util.TreeSet<Integer> sizes = new java.util.TreeSet<>();
        Map<String, List<Result>> panels = new LinkedHashMap<>();
        for (Result r : run.results()) {
            sizes.add(r.keys());
        }
        if (sizes.size() < 2) {
            return "";
        }
        // Panels in the options' order of datasets and workloads, whatever size ran first.
        for (Result r : run.results()) {
            panels.computeIfAbsent(r.dataset() + "\u0000" + r.threads() + "\u0000" + r.label(),
                    k -> new ArrayList<>()).add(r);
        }
        StringBuilder sb = new StringBuilder();
        for (List<Result> panel : panels.values()) {
            Result any = panel.get(0);
            sb.append(String.format(Locale.ROOT, "%s, %s %s, %d thread%s: Mops/s by the number of keys%n",
                    any.dataset(), any.label(), any.workload().title(), any.threads(), any.threads() == 1 ? "" : "s"));
            List<List<String>> rows = new ArrayList<>();
            List<String> header = new ArrayList<>();
            header.add("structure");
            sizes.forEach(n -> header.add(Counts.format(n)));
            rows.add(header);
            for (Structure s : run.options().structures()) {
                List<String> row = new ArrayList<>();
                row.add(s.cliName());
                boolean ran = false;
                for (int n : sizes) {
                    Result found = null;
                    for (Result r : panel) {
                        if (r.structure() == s && r.keys() == n) {
                            found = r;
                        }
                    }
                    row.add(found == null ? "-" : mops(found.mops()));
                    ran |= found != null;
                }
                if (ran) {
                    rows.add(row);
                }
            }
            sb.append(align(rows)).append('\n');
        }
        return sb.toString();
    }

    /**
     * A row per structure, a column per workload that writes: the bytes per key held after it,
     * heap after GC / own accounting ("30.2 / 29.5"); empty when no such figure was measured.
     */
    static String memoryAfterWrites(List<Result> group, List<Structure> structures, List<Workload> workloads) {
        List<Workload> writes = new ArrayList<>();
        for (Workload w : workloads) {
            for (Result r : group) {
                if (r.workload() == w && r.batch() == 0 && Double.isFinite(r.heapBytesAfter()) && !writes.contains(w)) {
                    writes.add(w);
                }
            }
        }
        if (writes.isEmpty()) {
            return "";
        }
        List<List<String>> rows = new ArrayList<>();
        List<String> header = new ArrayList<>();
        header.add("structure");
        writes.forEach(w -> header.add(w.name()));
        rows.add(header);
        for (Structure s : structures) {
            List<String> row = new ArrayList<>();
            row.add(s.cliName());
            boolean any = false;
            for (Workload w : writes) {
                Result r = find(group, s, w, 0);
                boolean has = r != null && Double.isFinite(r.heapBytesAfter());
                row.add(has ? bytes(r.heapBytesAfter()) + " / " + bytes(r.ownBytesAfter()) : "-");
                any |= has;
            }
            if (any) {
                rows.add(row);
            }
        }
        return align(rows);
    }

    private static Result find(List<Result> group, Structure s, Workload w, int batch) {
        for (Result r : group) {
            if (r.structure() == s && r.workload() == w && r.batch() == batch) {
                return r;
            }
        }
        return null;
    }

    /**
     * Where the figures come from, one line for under the table: "commit 3dd80f6, AMD EPYC 9R14,
     * node search SIMD 512-bit, 8 lanes, values key".
     */
    public static String provenance(RunSummary run) {
        return "commit " + run.environment().commit() + ", " + run.environment().machine().cpuModel()
                + ", node search " + run.environment().nodeSearch() + ", values " + run.options().values().cliName();
    }

    static String mops(double v) {
        if (!Double.isFinite(v)) {
            return "-";
        }
        return v >= 100 ? String.format(Locale.ROOT, "%.0f", v)
                : v >= 10 ? String.format(Locale.ROOT, "%.1f", v)
                : String.format(Locale.ROOT, "%.2f", v);
    }

    /** "2.44 [2.30-2.61]": the median, then the slowest and fastest repetition (just the median for one). */
    static String mopsWithSpread(Result r) {
        if (r.repMops().length < 2) {
            return mops(r.mops());
        }
        return mops(r.mops()) + " [" + mops(r.mopsMin()) + "-" + mops(r.mopsMax()) + "]";
    }

    static String bytes(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.1f", v) : "-";
    }

    /** Left-aligns the first column, right-aligns the others. */
    static String align(List<List<String>> rows) {
        int cols = rows.get(0).size();
        int[] width = new int[cols];
        for (List<String> row : rows) {
            for (int c = 0; c < cols; c++) {
                width[c] = Math.max(width[c], row.get(c).length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (List<String> row : rows) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < cols; c++) {
                String cell = row.get(c);
                if (c == 0) {
                    line.append(cell).append(" ".repeat(width[c] - cell.length()));
                } else {
                    line.append("  ").append(" ".repeat(width[c] - cell.length())).append(cell);
                }
            }
            sb.append(line.toString().stripTrailing()).append('\n');
        }
        return sb.toString();
    }
}
