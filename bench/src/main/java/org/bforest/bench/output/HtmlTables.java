package org.bforest.bench.output;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.bforest.bench.cli.Counts;
import org.bforest.bench.runner.DatasetInfo;
import org.bforest.bench.runner.Result;
import org.bforest.bench.structures.Structure;
import org.bforest.bench.workloads.Workload;

/** The report's tables, as XHTML fragments; every text escaped. */
final class HtmlTables {
    private HtmlTables() {
    }

    /** A structure's name with its colour swatch. */
    static String structure(Structure s) {
        return "<span class=\"nw\"><span class=\"sw\" style=\"background:" + Html.esc(Palette.of(s)) + "\"></span>"
                + Html.esc(s.cliName()) + "</span>";
    }

    private static String th(String text, String cls, int colspan) {
        return "<th" + (cls == null ? "" : " class=\"" + cls + "\"") + (colspan > 1 ? " colspan=\"" + colspan + "\"" : "")
                + ">" + Html.esc(text) + "</th>";
    }

    private static String num(String text, boolean best) {
        return "<td class=\"n" + (best ? " best" : "") + "\">" + Html.esc(text) + "</td>";
    }

    /** The smallest finite positive value of {@code values}, or NaN. */
    private static double min(List<Double> values) {
        double m = Double.NaN;
        for (double v : values) {
            if (Double.isFinite(v) && v > 0 && !(v >= m)) {
                m = v;
            }
        }
        return m;
    }

    /** Table 2's shape: a row per structure, bytes per key both ways per dataset; the smallest in bold. */
    static String memory(ReportData d) {
        StringBuilder sb = new StringBuilder("<div class=\"scroll\"><table>\n<thead><tr>")
                .append(th("structure", null, 1));
        boolean several = d.datasets().size() > 1;
        if (several) {
            for (String ds : d.datasets()) {
                sb.append(th(ds, "c", 2));
            }
            sb.append(th("own figure from", null, 1)).append("</tr>\n<tr><th></th>");
            for (int i = 0; i < d.datasets().size(); i++) {
                sb.append(th("heap B/key", "n", 1)).append(th("own B/key", "n", 1));
            }
            sb.append("<th></th></tr></thead>\n<tbody>\n");
        } else {
            sb.append(th("heap after GC, B/key", "n", 1)).append(th("own accounting, B/key", "n", 1))
                    .append(th("heap, MB", "n", 1)).append(th("own figure from", null, 1))
                    .append("</tr></thead>\n<tbody>\n");
        }
        List<List<Double>> columns = new ArrayList<>();
        for (int i = 0; i < 2 * d.datasets().size(); i++) {
            List<Double> col = new ArrayList<>();
            for (Structure s : d.structures()) {
                Result r = d.memory(s, d.datasets().get(i / 2));
                col.add(r == null ? Double.NaN : i % 2 == 0 ? r.heapBytesPerKey() : r.ownBytesPerKey());
            }
            columns.add(col);
        }
        for (int si = 0; si < d.structures().size(); si++) {
            Structure s = d.structures().get(si);
            sb.append("<tr><td>").append(structure(s)).append("</td>");
            for (int i = 0; i < columns.size(); i++) {
                double v = columns.get(i).get(si);
                sb.append(num(ResultTable.bytes(v), v == min(columns.get(i))));
            }
            if (!several) {
                Result r = d.memory(s, d.datasets().get(0));
                double mb = r == null ? Double.NaN : r.heapBytesPerKey() * r.keys() / 1e6;
                sb.append(num(Double.isFinite(mb) ? String.format(Locale.ROOT, "%.1f", mb) : "-", false));
            }
            sb.append("<td class=\"muted\">").append(Html.esc(s.memoryMethod())).append("</td></tr>\n");
        }
        return sb.append("</tbody></table></div>\n").toString();
    }

    /**
     * The bytes per key held after each workload that writes (measured on its first timed
     * repetition): a row per structure, heap after GC and own accounting per dataset and workload;
     * null when nothing was measured.
     */
    static String memoryAfterWrites(ReportData d) {
        record Column(String dataset, Workload workload) {
        }
        List<Column> cols = new ArrayList<>();
        for (String ds : d.datasets()) {
            for (Workload w : d.workloads()) {
                for (Structure s : d.structures()) {
                    Result r = d.get(s, ds, w, d.baseThreads());
                    if (r != null && Double.isFinite(r.heapBytesAfter())) {
                        cols.add(new Column(ds, w));
                        break;
                    }
                }
            }
        }
        if (cols.isEmpty()) {
            return null;
        }
        boolean several = d.datasets().size() > 1;
        StringBuilder sb = new StringBuilder("<div class=\"scroll\"><table>\n<thead><tr>")
                .append(th("structure", null, 1));
        for (Column c : cols) {
            sb.append(th((several ? c.dataset() + " · " : "") + c.workload().name(), "c", 2));
        }
        sb.append("</tr>\n<tr><th></th>");
        for (int i = 0; i < cols.size(); i++) {
            sb.append(th("heap B/key", "n", 1)).append(th("own B/key", "n", 1));
        }
        sb.append("</tr></thead>\n<tbody>\n");
        for (Structure s : d.structures()) {
            StringBuilder row = new StringBuilder("<tr><td>").append(structure(s)).append("</td>");
            boolean any = false;
            for (Column c : cols) {
                Result r = d.get(s, c.dataset(), c.workload(), d.baseThreads());
                boolean has = r != null && Double.isFinite(r.heapBytesAfter());
                row.append(num(has ? ResultTable.bytes(r.heapBytesAfter()) : "-", false))
                        .append(num(has ? ResultTable.bytes(r.ownBytesAfter()) : "-", false));
                any |= has;
            }
            if (any) {
                sb.append(row).append("</tr>\n");
            }
        }
        return sb.append("</tbody></table></div>\n").toString();
    }

    /** Table 1's shape: a row per structure, build time and time per key per dataset; the fastest in bold. */
    static String build(ReportData d) {
        boolean ms = ReportCharts.millis(d);
        StringBuilder sb = new StringBuilder("<div class=\"scroll\"><table>\n<thead><tr>")
                .append(th("structure", null, 1));
        for (String ds : d.datasets()) {
            sb.append(th(ds, "c", 2));
        }
        sb.append(th("how it is built", null, 1)).append("</tr>\n<tr><th></th>");
        for (int i = 0; i < d.datasets().size(); i++) {
            sb.append(th(ms ? "ms" : "s", "n", 1)).append(th("ns/key", "n", 1));
        }
        sb.append("<th></th></tr></thead>\n<tbody>\n");
        List<List<Double>> columns = new ArrayList<>();
        for (String ds : d.datasets()) {
            List<Double> col = new ArrayList<>();
            for (Structure s : d.structures()) {
                col.add(d.buildSeconds(s, ds));
            }
            columns.add(col);
        }
        for (int si = 0; si < d.structures().size(); si++) {
            Structure s = d.structures().get(si);
            sb.append("<tr><td>").append(structure(s)).append("</td>");
            for (int di = 0; di < d.datasets().size(); di++) {
                double v = columns.get(di).get(si);
                boolean best = v == min(columns.get(di));
                Result r = d.memory(s, d.datasets().get(di));
                double perKey = r == null ? Double.NaN : v * 1e9 / r.keys();
                sb.append(num(ReportCharts.time(v * (ms ? 1000 : 1)), best)).append(num(ReportCharts.time(perKey), best));
            }
            sb.append("<td class=\"muted\">").append(Html.esc(s.buildMethod())).append("</td></tr>\n");
        }
        return sb.append("</tbody></table></div>\n").toString();
    }

    /** Every figure of the run, one row per cell. */
    static String results(ReportData d) {
        StringBuilder sb = new StringBuilder("<div class=\"scroll\"><table class=\"dense\">\n<thead><tr>")
                .append(th("structure", null, 1)).append(th("dataset", null, 1)).append(th("workload", null, 1))
                .append(th("threads", "n", 1)).append(th("keys", "n", 1)).append(th("ops", "n", 1))
                .append(th("Mops/s", "n", 1)).append(th("slowest–fastest", "n", 1)).append(th("within noise of", null, 1))
                .append(th("repetitions, Mops/s", "n", 1)).append(th("build s", "n", 1))
                .append(th("B/key heap", "n", 1)).append(th("B/key own", "n", 1))
                .append(th("B/key after, heap / own", "n", 1)).append(th("checksum", "n", 1))
                .append("</tr></thead>\n<tbody>\n");
        if (d.run().results().isEmpty()) {
            sb.append("<tr><td colspan=\"15\" class=\"muted\">No structure ran.</td></tr>\n");
        }
        for (Result r : d.run().results()) {
            List<String> reps = new ArrayList<>();
            for (double m : r.repMops()) {
                reps.add(ResultTable.mops(m));
            }
            Workload w = r.workload();
            sb.append("<tr><td>").append(structure(r.structure())).append("</td><td class=\"wrap\">").append(Html.esc(r.dataset()))
                    .append("</td><td class=\"nw\">").append(Html.esc(r.label() + " " + w.title())).append("</td>")
                    .append(num(Integer.toString(r.threads()), false)).append(num(Counts.format(r.keys()), false))
                    .append(num(Counts.format(r.ops()), false)).append("<td class=\"n strong\">")
                    .append(Html.esc(ResultTable.mops(r.mops()))).append("</td>")
                    .append(num(r.repMops().length < 2 ? "" : ResultTable.mops(r.mopsMin()) + "–"
                            + ResultTable.mops(r.mopsMax()), false))
                    .append("<td>").append(noise(r, d.run().results())).append("</td>")
                    .append(num(String.join("  ", reps), false))
                    .append(num(String.format(Locale.ROOT, "%.4f", r.buildSeconds()), false))
                    .append(num(ResultTable.bytes(r.heapBytesPerKey()), false))
                    .append(num(ResultTable.bytes(r.ownBytesPerKey()), false))
                    .append(num(Double.isFinite(r.heapBytesAfter()) ? ResultTable.bytes(r.heapBytesAfter()) + " / "
                            + ResultTable.bytes(r.ownBytesAfter()) : "", false))
                    .append("<td class=\"n mono\">").append(Long.toHexString(r.checksum())).append("</td></tr>\n");
        }
        return sb.append("</tbody></table></div>\n").toString();
    }

    /** "≈ treemap" (a badge) for each structure ranked next to {@code r} within noise of it; "" for none. */
    static String noise(Result r, List<Result> all) {
        StringBuilder sb = new StringBuilder();
        for (Result q : Noise.neighbours(r, all)) {
            sb.append(sb.isEmpty() ? "" : " ").append("<span class=\"noise\" title=\"")
                    .append(Html.esc(r.structure().cliName() + " " + Noise.figure(r) + " vs " + q.structure().cliName()
                            + " " + Noise.figure(q) + " Mops/s: the gap is smaller than the wider spread"))
                    .append("\">\u2248 ").append(Html.esc(q.structure().cliName())).append("</span>");
        }
        return sb.toString();
    }

    static String datasets(ReportData d) {
        StringBuilder sb = new StringBuilder("<div class=\"scroll\"><table>\n<thead><tr>").append(th("dataset", null, 1))
                .append(th("what", null, 1)).append(th("keys loaded", "n", 1)).append(th("insert keys", "n", 1))
                .append(th("smallest key", "n", 1)).append(th("largest key", "n", 1)).append(th("seed", "n", 1))
                .append("</tr></thead>\n<tbody>\n");
        for (DatasetInfo ds : d.run().datasets()) {
            sb.append("<tr><td class=\"wrap\">").append(Html.esc(ds.name())).append("</td><td>")
                    .append(Html.esc(ds.description()));
            for (String n : ds.notes()) {
                sb.append("<div class=\"muted\">note: ").append(Html.esc(n)).append("</div>");
            }
            sb.append("</td>").append(num(String.format(Locale.ROOT, "%,d", ds.keys()), false))
                    .append(num(String.format(Locale.ROOT, "%,d", ds.inserts()), false))
                    .append(num(Long.toString(ds.firstKey()), false)).append(num(Long.toString(ds.lastKey()), false))
                    .append(num(Long.toString(ds.seed()), false)).append("</tr>\n");
        }
        return sb.append("</tbody></table></div>\n").toString();
    }

    static String structures(ReportData d) {
        StringBuilder sb = new StringBuilder("<div class=\"scroll\"><table>\n<thead><tr>")
                .append(th("structure", null, 1)).append(th("what", null, 1)).append(th("thread-safe", null, 1))
                .append(th("updatable", null, 1)).append("</tr></thead>\n<tbody>\n");
        for (Structure s : d.run().options().structures()) {
            sb.append("<tr><td>").append(structure(s)).append("</td><td>").append(Html.esc(s.description()))
                    .append(d.structures().contains(s) ? "" : " <span class=\"muted\">(no figures: see the notes)</span>")
                    .append("</td><td>").append(s.threadSafe() ? "yes" : "no").append("</td><td>")
                    .append(s.updatable() ? "yes" : "no (read-only workloads only)").append("</td></tr>\n");
        }
        return sb.append("</tbody></table></div>\n").toString();
    }

    /** A two-column table of labels and values (values escaped here; code values in monospace). */
    static String keyValues(List<String[]> rows) {
        StringBuilder sb = new StringBuilder("<table class=\"kv\"><tbody>\n");
        for (String[] row : rows) {
            boolean code = row.length > 2 && "code".equals(row[2]);
            sb.append("<tr><th>").append(Html.esc(row[0])).append("</th><td>").append(code ? "<code>" : "")
                    .append(Html.esc(row[1])).append(code ? "</code>" : "").append("</td></tr>\n");
        }
        return sb.append("</tbody></table>\n").toString();
    }
}
