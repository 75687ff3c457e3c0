package org.bforest.bench.output;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.bforest.bench.cli.Counts;
import org.bforest.bench.runner.Result;
import org.bforest.bench.runner.RunSummary;
import org.bforest.bench.runner.SnapshotFigures;
import org.bforest.bench.runner.SnapshotFigures.Row;
import org.bforest.bench.workloads.Workload;

/**
 * {@code --snapshot}'s figures in every output: the CSV's rows of workload {@code snapshot} and
 * their {@code snap_} columns, the "Snapshots" table under the throughput tables (stdout and
 * summary.txt) and the report's section. Per dataset and size: a row per bforest structure (file
 * bytes, bytes a key, save and load seconds with their GB/s, the time to map the file, workload
 * A's lookups on the mapped index and their ratio to the structure's own A), then the disk's own
 * sequential write and read, the {@code TreeMap} through Java serialization and fastutil's
 * {@code BinIO}; each structure's save against the disk's write, its load against the disk's
 * read (GB/s over GB/s), and its load against the Java deserialization (entries a second over
 * entries a second: the formats differ in bytes, not in entries).
 */
final class SnapshotTables {
    /** The CSV's workload for the rows of {@code --snapshot}. */
    static final String WORKLOAD = "snapshot";
    /** The CSV columns the snapshot rows fill (empty on the others), after workload W's. */
    static final List<String> CSV_COLUMNS = List.of("snap_entries", "snap_bytes", "snap_bytes_per_key", "snap_save_s",
            "snap_save_s_min", "snap_save_s_max", "snap_save_gbps", "snap_load_s", "snap_load_s_min", "snap_load_s_max",
            "snap_load_gbps", "snap_cold_load_s", "snap_cold_load_s_min", "snap_cold_load_s_max", "snap_cold_load_gbps",
            "snap_map_ms", "snap_map_ms_min", "snap_map_ms_max", "snap_mapped_vs_a", "snap_save_vs_disk",
            "snap_load_vs_disk", "snap_cold_load_vs_disk", "snap_load_vs_treemap", "snap_kind", "snap_load_kind");

    private SnapshotTables() {
    }

    /** The figures of one dataset at one size, with what their ratios need. */
    record Block(String dataset, int keys, List<SnapshotFigures> rows, SnapshotFigures disk,
                 SnapshotFigures serialization) {

        /** A structure's mapped lookups over its own workload A (single-threaded, unbatched); NaN without one. */
        double mappedVsA(SnapshotFigures f, List<Result> results) {
            if (f.row() != Row.STRUCTURE) {
                return Double.NaN;
            }
            for (Result r : results) {
                if (r.structure() == f.structure() && r.dataset().equals(dataset) && r.keys() == keys
                        && r.workload() == Workload.A && r.threads() == 1 && r.batch() == 0) {
                    return f.mapped() / r.mops();
                }
            }
            return Double.NaN;
        }

        double saveVsDisk(SnapshotFigures f) {
            return f.row() == Row.STRUCTURE && disk != null ? f.saveGbps() / disk.saveGbps() : Double.NaN;
        }

        double loadVsDisk(SnapshotFigures f) {
            return f.row() == Row.STRUCTURE && disk != null ? f.loadGbps() / disk.loadGbps() : Double.NaN;
        }

        double coldLoadVsDisk(SnapshotFigures f) {
            return f.row() == Row.STRUCTURE && disk != null ? f.coldLoadGbps() / disk.coldLoadGbps() : Double.NaN;
        }

        double loadVsSerialization(SnapshotFigures f) {
            return f.row() == Row.STRUCTURE && serialization != null
                    ? f.loadEntriesPerSecond() / serialization.loadEntriesPerSecond() : Double.NaN;
        }
    }

    /** The run's figures by dataset and size, in the order they ran. */
    static List<Block> blocks(RunSummary run) {
        Map<String, List<SnapshotFigures>> by = new LinkedHashMap<>();
        for (SnapshotFigures f : run.snapshots()) {
            by.computeIfAbsent(f.keys() + "\u0000" + f.dataset(), k -> new ArrayList<>()).add(f);
        }
        List<Block> out = new ArrayList<>();
        for (List<SnapshotFigures> rows : by.values()) {
            SnapshotFigures disk = null;
            SnapshotFigures serialization = null;
            List<SnapshotFigures> ordered = new ArrayList<>();
            for (SnapshotFigures f : rows) {
                if (f.row() == Row.STRUCTURE) {
                    ordered.add(f);
                }
            }
            for (Row kind : List.of(Row.DISK, Row.TREEMAP_SERIALIZATION, Row.BINIO)) {
                for (SnapshotFigures f : rows) {
                    if (f.row() == kind) {
                        ordered.add(f);
                        disk = kind == Row.DISK ? f : disk;
                        serialization = kind == Row.TREEMAP_SERIALIZATION ? f : serialization;
                    }
                }
            }
            out.add(new Block(rows.get(0).dataset(), rows.get(0).keys(), ordered, disk, serialization));
        }
        return out;
    }

    // ---- CSV

    /** The CSV rows of the snapshot figures: the common columns, W's empty, then {@link #CSV_COLUMNS}. */
    static List<String> csvRows(RunSummary run, String where) {
        List<String> out = new ArrayList<>();
        String noWindow = ",".repeat(WindowTables.CSV_COLUMNS.size() - 1);
        for (Block b : blocks(run)) {
            for (SnapshotFigures f : b.rows()) {
                boolean s = f.row() == Row.STRUCTURE;
                String common = String.join(",", CsvWriter.quote(f.name()), CsvWriter.quote(f.dataset()), WORKLOAD, "1",
                        Integer.toString(f.keys()), Integer.toString(f.lookups()), number(f.mapped(), 4), "", "",
                        number(f.mappedMin(), 4), number(f.mappedMax(), 4), Integer.toString(f.saveSeconds().length),
                        "0", "");
                List<String> snap = List.of(f.entries() > 0 ? Long.toString(f.entries()) : "", Long.toString(f.bytes()),
                        number(f.bytesPerKey(), 2), number(f.save(), 6), number(f.saveMin(), 6), number(f.saveMax(), 6),
                        number(f.saveGbps(), 4), number(f.load(), 6), number(f.loadMin(), 6), number(f.loadMax(), 6),
                        number(f.loadGbps(), 4), number(f.coldLoad(), 6), number(f.coldLoadMin(), 6),
                        number(f.coldLoadMax(), 6), number(f.coldLoadGbps(), 4), number(f.map(), 4),
                        number(f.mapMin(), 4), number(f.mapMax(), 4), number(b.mappedVsA(f, run.results()), 4),
                        number(b.saveVsDisk(f), 4), number(b.loadVsDisk(f), 4), number(b.coldLoadVsDisk(f), 4),
                        number(b.loadVsSerialization(f), 4),
                        s ? CsvWriter.quote(f.kind()) : "", s && f.loadKind() != null ? CsvWriter.quote(f.loadKind()) : "");
                out.add(common + "," + where + "," + noWindow + "," + String.join(",", snap));
            }
        }
        return out;
    }

    /** The empty {@link #CSV_COLUMNS} of a row that is not a snapshot's. */
    static String csvEmpty() {
        return ",".repeat(CSV_COLUMNS.size() - 1);
    }

    private static String number(double v, int decimals) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%." + decimals + "f", v) : "";
    }

    // ---- text and HTML

    private static List<String> header() {
        return List.of("structure", "MB", "B/key", "save s", "GB/s", "load s", "GB/s", "cold load s", "GB/s",
                "map ms", "mapped A Mops/s", "vs A", "save/disk", "load/disk", "cold/disk", "load vs TreeMap",
                "load kind");
    }

    /** One row of the table, as text cells ("-" where a figure does not apply). */
    private static List<String> cells(Block b, SnapshotFigures f, List<Result> results) {
        boolean s = f.row() == Row.STRUCTURE;
        String name = f.name() + (f.row() == Row.TREEMAP_SERIALIZATION && f.entries() < f.keys()
                ? " (first " + Counts.format(f.entries()) + ")" : "");
        String kind = s ? f.kind() + (f.loadKind() == null ? "" : ", loads as " + f.loadKind())
                : f.row() == Row.DISK ? "write, read, cold read" : "";
        return List.of(name, megabytes(f.bytes()), ResultTable.bytes(f.bytesPerKey()),
                withSpread(f.save(), f.saveMin(), f.saveMax()), gbps(f.saveGbps()),
                withSpread(f.load(), f.loadMin(), f.loadMax()), gbps(f.loadGbps()),
                withSpread(f.coldLoad(), f.coldLoadMin(), f.coldLoadMax()), gbps(f.coldLoadGbps()),
                s ? withSpread(f.map(), f.mapMin(), f.mapMax()) : "-",
                s ? withSpread(f.mapped(), f.mappedMin(), f.mappedMax()) : "-",
                ratio(b.mappedVsA(f, results)), ratio(b.saveVsDisk(f)), ratio(b.loadVsDisk(f)),
                ratio(b.coldLoadVsDisk(f)), ratio(b.loadVsSerialization(f)), kind);
    }

    private static String title(Block b, int reps) {
        return "Snapshots on " + b.dataset() + " at " + Counts.format(b.keys()) + " keys (--snapshot): median of "
                + reps + " repetitions [slowest-fastest]";
    }

    /** What the columns mean, under every title. */
    static final String LEGEND = "save: LongIndex.snapshot (temp file, fsync, rename); load: Indexes.load of the"
            + " file just written, from the page cache (read once, untimed, first); cold load: the same with the file's pages dropped from"
            + " the page cache first; map: Indexes.map until it returned; mapped A: workload A's lookups on the"
            + " mapped index, 1 thread (vs A: over the structure's own A). GB/s: file bytes / median seconds. disk:"
            + " sequential write with force(true), read and cold read of a file the size of the largest snapshot"
            + " (its save, load and cold load columns). save/disk, load/disk, cold/disk: GB/s over the disk's;"
            + " load vs TreeMap: entries a second over ObjectInputStream's.";

    /** How {@code --snapshot} measured, for the protocol of summary.txt and the report. */
    static final String PROTOCOL = "--snapshot: after each dataset's cells at each size, every bforest structure"
            + " is built as its cells build it and, per repetition (warm-ups first, interleaved across the rows as"
            + " the cells are), saved into the folder (LongIndex.snapshot: a temp file, fsync, rename), loaded back"
            + " (Indexes.load) from the page cache (the file read once, untimed, first), then loaded again cold, its pages"
            + " dropped from the page cache first (posix_fadvise DONTNEED, where the system allows it), and mapped"
            + " (Indexes.map), then workload A's lookups run on the mapped index, one thread, right after the map"
            + " (so the first touch of each page is in them); the original is dropped before the load, the file"
            + " deleted after, and a full GC runs before each timed step. The loaded and the mapped index must hold"
            + " the original's entries (the size and an order-sensitive checksum) and the lookups must give the"
            + " same sum, or the run fails. On the same entries, loaded the same two ways: a TreeMap<Long,Long>"
            + " written with ObjectOutputStream and read with ObjectInputStream (the first 10M entries at most), and"
            + " fastutil's BinIO.storeLongs/loadLongs of the keys and the values arrays (a FileChannel, the"
            + " machine's byte order), both synced to the disk as a snapshot is. Then the disk itself: a file the"
            + " size of the largest snapshot written with a FileChannel from 4 MiB direct buffers of random bytes"
            + " and force(true), read back the same way, and read again cold. A cold read comes from below this"
            + " system's page cache, which on a virtual machine may still be the host's cache.";

    /** The "Snapshots" tables of the text outputs (stdout, summary.txt): "" without {@code --snapshot}. */
    static String text(RunSummary run) {
        StringBuilder sb = new StringBuilder();
        for (Block b : blocks(run)) {
            List<List<String>> rows = new ArrayList<>();
            rows.add(header());
            for (SnapshotFigures f : b.rows()) {
                rows.add(cells(b, f, run.results()));
            }
            // The last column, words, left-aligned after the figures
            List<List<String>> figures = new ArrayList<>();
            for (List<String> row : rows) {
                figures.add(row.subList(0, row.size() - 1));
            }
            String[] lines = ResultTable.align(figures).split("\n");
            if (sb.isEmpty()) {
                sb.append(TextReport.wrap("Snapshots (--snapshot). " + LEGEND, 0)).append("\n\n");
            }
            sb.append(title(b, run.options().reps())).append('\n');
            for (int i = 0; i < lines.length; i++) {
                String kind = rows.get(i).get(rows.get(i).size() - 1);
                String line = lines[i] + " ".repeat(Math.max(0, lineWidth(lines) - lines[i].length()));
                sb.append((kind.isEmpty() ? line : line + "  " + kind).stripTrailing()).append('\n');
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static int lineWidth(String[] lines) {
        int w = 0;
        for (String l : lines) {
            w = Math.max(w, l.length());
        }
        return w;
    }

    /** The report's section body: a table per dataset and size; null without {@code --snapshot}. */
    static String html(RunSummary run) {
        List<Block> blocks = blocks(run);
        if (blocks.isEmpty()) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        for (Block b : blocks) {
            sb.append("<h3>").append(Html.esc(b.dataset() + " · " + Counts.format(b.keys()) + " keys")).append("</h3>\n")
                    .append("<div class=\"scroll\"><table class=\"dense\">\n<thead><tr>");
            List<String> h = header();
            for (int c = 0; c < h.size(); c++) {
                sb.append(c == 0 || c == h.size() - 1 ? "<th>" : "<th class=\"n\">").append(Html.esc(h.get(c)))
                        .append("</th>");
            }
            sb.append("</tr></thead>\n<tbody>\n");
            for (SnapshotFigures f : b.rows()) {
                List<String> row = cells(b, f, run.results());
                sb.append("<tr><td>").append(f.row() == Row.STRUCTURE ? HtmlTables.structure(f.structure())
                        : "<span class=\"nw\">" + Html.esc(row.get(0)) + "</span>").append("</td>");
                for (int c = 1; c < row.size() - 1; c++) {
                    sb.append("<td class=\"n").append(c >= row.size() - 6 ? " strong" : "").append("\">")
                            .append(Html.esc(row.get(c))).append("</td>");
                }
                sb.append("<td class=\"wrap\">").append(Html.esc(row.get(row.size() - 1))).append("</td></tr>\n");
            }
            sb.append("</tbody></table></div>\n");
        }
        return sb.toString();
    }

    /** "0.0123 [0.0119-0.0131]": three significant digits; the spread only with several repetitions. */
    private static String withSpread(double median, double min, double max) {
        if (!Double.isFinite(median)) {
            return "-";
        }
        return min == max ? significant(median) : significant(median) + " [" + significant(min) + "-"
                + significant(max) + "]";
    }

    static String significant(double v) {
        if (!Double.isFinite(v)) {
            return "-";
        }
        if (v >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        return new BigDecimal(v).round(new MathContext(3)).stripTrailingZeros().toPlainString();
    }

    private static String megabytes(long bytes) {
        return significant(bytes / 1e6);
    }

    private static String gbps(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.2f", v) : "-";
    }

    /** "1.23x"; below 0.1, three significant digits ("0.00412x"), so that a small ratio does not read 0. */
    private static String ratio(double v) {
        if (!Double.isFinite(v)) {
            return "-";
        }
        return (v >= 0.1 ? String.format(Locale.ROOT, "%.2f", v) : significant(v)) + "x";
    }
}
