package org.bforest.bench.output;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.bforest.bench.runner.Result;
import org.bforest.bench.runner.WindowFigures;
import org.bforest.bench.structures.Structure;
import org.bforest.bench.workloads.SlidingWindow;

/**
 * Workload W's figures over time, in every output: the CSV's {@code w_} columns, the text table
 * under the throughput table (stdout and summary.txt) and the report's table. Apart from the
 * other tables because only W has them: a row per structure with its bytes per live key after
 * the bulk load and at the end of each tenth of the operations, and a row with the Mops/s of each
 * tenth, each ending in the ratio a reader checks (the last tenth's bytes per key over the
 * load's; the last tenth's throughput over the first's).
 */
final class WindowTables {
    /** The CSV columns W's rows fill (empty on the others), after the common ones. */
    static final List<String> CSV_COLUMNS = csvColumns();

    private WindowTables() {
    }

    private static List<String> csvColumns() {
        List<String> c = new ArrayList<>();
        c.add("w_bytes_per_key_load");
        for (int t = 1; t <= SlidingWindow.TENTHS; t++) {
            c.add("w_bytes_per_key_" + t);
        }
        for (int t = 1; t <= SlidingWindow.TENTHS; t++) {
            c.add("w_mops_" + t);
        }
        return List.copyOf(c);
    }

    /** The {@link #CSV_COLUMNS} of {@code r}: its figures for a W row, empty fields for the others. */
    static String csv(Result r) {
        WindowFigures w = r.window();
        List<String> f = new ArrayList<>();
        f.add(w == null ? "" : number(w.loadBytesPerKey(), 2));
        for (int t = 0; t < SlidingWindow.TENTHS; t++) {
            f.add(w == null ? "" : number(w.tenthBytesPerKey()[t], 2));
        }
        for (int t = 0; t < SlidingWindow.TENTHS; t++) {
            f.add(w == null ? "" : number(w.tenthMops()[t], 4));
        }
        return String.join(",", f);
    }

    private static String number(double v, int decimals) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%." + decimals + "f", v) : "";
    }

    /** The W results of {@code results} in the order of {@code structures}. */
    private static List<Result> windows(List<Result> results, List<Structure> structures) {
        List<Result> out = new ArrayList<>();
        for (Structure s : structures) {
            for (Result r : results) {
                if (r.structure() == s && r.window() != null) {
                    out.add(r);
                }
            }
        }
        return out;
    }

    private static List<String> header() {
        List<String> h = new ArrayList<>(List.of("structure", "", "load"));
        for (int t = 1; t <= SlidingWindow.TENTHS; t++) {
            h.add(Integer.toString(t));
        }
        h.add("ratio");
        return h;
    }

    /** A structure's two rows: bytes per live key (with the growth) and Mops/s (with the throughput kept). */
    private static List<List<String>> rows(Result r) {
        WindowFigures w = r.window();
        List<String> bytes = new ArrayList<>(List.of(r.structure().cliName(), "B/key", ResultTable.bytes(
                w.loadBytesPerKey())));
        List<String> mops = new ArrayList<>(List.of(r.structure().cliName(), "Mops/s", ""));
        for (int t = 0; t < SlidingWindow.TENTHS; t++) {
            bytes.add(ResultTable.bytes(w.tenthBytesPerKey()[t]));
            mops.add(ResultTable.mops(w.tenthMops()[t]));
        }
        bytes.add(ratio(w.memoryGrowth()));
        mops.add(ratio(w.throughputKept()));
        return List.of(bytes, mops);
    }

    private static String ratio(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.2fx", v) : "-";
    }

    /** The lines the text table adds under a block's throughput table: "" when W did not run there. */
    static String text(List<Result> group, List<Structure> structures) {
        List<Result> ws = windows(group, structures);
        if (ws.isEmpty()) {
            return "";
        }
        List<List<String>> rows = new ArrayList<>();
        rows.add(header());
        for (Result r : ws) {
            rows.addAll(rows(r));
        }
        return "W sliding window over time, per tenth of the operations: B/key = bytes per live key, memoryBytes()"
                + " / size()\n(after the bulk load, then at the end of each tenth; first timed repetition), Mops/s ="
                + " each tenth's\nmedian; ratio: B/key of the last tenth / after the load, Mops/s of the last tenth /"
                + " the first.\n" + ResultTable.align(rows);
    }

    /** The report's table of W's figures over time, or null when W did not run. */
    static String html(ReportData d) {
        List<Result> ws = windows(d.run().results(), d.structures());
        if (ws.isEmpty()) {
            return null;
        }
        boolean several = d.datasets().size() > 1;
        StringBuilder sb = new StringBuilder("<div class=\"scroll\"><table class=\"dense\">\n<thead><tr>");
        sb.append("<th>structure</th>").append(several ? "<th>dataset</th>" : "").append("<th></th>")
                .append("<th class=\"n\">after the load</th>");
        for (int t = 1; t <= SlidingWindow.TENTHS; t++) {
            sb.append("<th class=\"n\">").append(t).append("</th>");
        }
        sb.append("<th class=\"n\">ratio</th></tr></thead>\n<tbody>\n");
        for (String ds : d.datasets()) {
            for (Result r : ws) {
                if (!r.dataset().equals(ds)) {
                    continue;
                }
                for (List<String> row : rows(r)) {
                    sb.append("<tr><td>").append(HtmlTables.structure(r.structure())).append("</td>");
                    if (several) {
                        sb.append("<td class=\"wrap\">").append(Html.esc(ds)).append("</td>");
                    }
                    sb.append("<td class=\"nw\">").append(Html.esc(row.get(1))).append("</td>");
                    for (int c = 2; c < row.size(); c++) {
                        sb.append("<td class=\"n").append(c == row.size() - 1 ? " strong" : "").append("\">")
                                .append(Html.esc(row.get(c))).append("</td>");
                    }
                    sb.append("</tr>\n");
                }
            }
        }
        return sb.append("</tbody></table></div>\n").toString();
    }
}
