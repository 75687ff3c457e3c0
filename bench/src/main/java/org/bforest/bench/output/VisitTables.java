package org.bforest.bench.output;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.bforest.bench.cli.Counts;
import org.bforest.bench.runner.RunSummary;
import org.bforest.bench.runner.VisitFigures;
import org.bforest.bench.structures.Structure;

/**
 * {@code --visit-all}'s figures in the text outputs and the CSV: a "Visit-all" table per dataset
 * and size under the throughput tables (stdout and summary.txt), and the CSV's rows of workload
 * {@code visit}, in the existing columns only: {@code ops} the entries a visit went over,
 * {@code mops}, {@code mops_min} and {@code mops_max} million entries visited a second (the
 * median, the slowest and the fastest repetition), {@code reps}; the build and memory columns,
 * workload W's and the snapshot's are empty.
 */
final class VisitTables {
    /** The CSV's workload for the rows of {@code --visit-all}. */
    static final String WORKLOAD = "visit";

    private VisitTables() {
    }

    /** How {@code --visit-all} measured, for the protocol of summary.txt. */
    static final String PROTOCOL = "--visit-all: after each dataset's cells at each size, every structure is"
            + " bulk-loaded once from the dataset's keys and values, and a full visit summing every value runs the"
            + " warm-ups and then the timed repetitions back to back on that build, a full GC before each, outside"
            + " the clock (the GPU B+-tree paper's visit-all experiment): the OpenCL trees in one pass on the device"
            + " (DeviceIndex.sumValues(): a work-group a leaf page, the list of pages sent once, a partial sum a"
            + " page back), the bforest trees through forEach, the peers through their own iteration of their"
            + " entries. Every sum must equal the sum of the loaded values (a note otherwise).";

    /** The run's figures by dataset and size, in the order they ran. */
    private static Map<String, List<VisitFigures>> blocks(RunSummary run) {
        Map<String, List<VisitFigures>> by = new LinkedHashMap<>();
        for (VisitFigures f : run.visits()) {
            by.computeIfAbsent(f.dataset() + "\u0000" + f.keys(), k -> new ArrayList<>()).add(f);
        }
        return by;
    }

    /** The CSV rows: the common columns, then W's and the snapshot's empty. */
    static List<String> csvRows(RunSummary run, String where) {
        List<String> out = new ArrayList<>();
        String noWindow = ",".repeat(WindowTables.CSV_COLUMNS.size() - 1);
        for (VisitFigures f : run.visits()) {
            String common = String.join(",", CsvWriter.quote(f.structure().cliName()), CsvWriter.quote(f.dataset()),
                    WORKLOAD, "1", Integer.toString(f.keys()), Long.toString(f.entries()), number(f.mops(), 4), "", "",
                    number(f.mopsMin(), 4), number(f.mopsMax(), 4), Integer.toString(f.repMops().length), "0", "");
            out.add(common + "," + where + "," + noWindow + "," + SnapshotTables.csvEmpty());
        }
        return out;
    }

    /** The "Visit-all" tables of the text outputs: "" without {@code --visit-all}. */
    static String text(RunSummary run) {
        StringBuilder sb = new StringBuilder();
        for (List<VisitFigures> block : blocks(run).values()) {
            VisitFigures any = block.get(0);
            double treemap = Double.NaN;
            for (VisitFigures f : block) {
                treemap = f.structure() == Structure.TREEMAP ? f.mops() : treemap;
            }
            List<List<String>> rows = new ArrayList<>();
            rows.add(List.of("structure", "entries", "M entries/s", "vs treemap", "visit"));
            for (VisitFigures f : block) {
                rows.add(List.of(f.structure().cliName(), Counts.format(f.entries()),
                        SnapshotTables.significant(f.mops()) + (f.repMops().length > 1 ? " ["
                                + SnapshotTables.significant(f.mopsMin()) + "-" + SnapshotTables.significant(f.mopsMax())
                                + "]" : ""),
                        Double.isFinite(treemap) ? ratio(f.mops() / treemap) : "-", how(f.structure())));
            }
            if (sb.isEmpty()) {
                sb.append(TextReport.wrap("Visit-all (--visit-all): a full visit summing every value, million entries"
                        + " visited a second; the OpenCL trees in one pass on the device (sumValues), the bforest trees"
                        + " through forEach, the peers through their own iteration.", 0)).append("\n\n");
            }
            sb.append("Visit-all on ").append(any.dataset()).append(" at ").append(Counts.format(any.keys()))
                    .append(" keys: median of ").append(run.options().reps()).append(" repetitions [slowest-fastest]\n");
            sb.append(ResultTable.align(rows)).append('\n');
        }
        return sb.toString();
    }

    private static String how(Structure s) {
        if (s.onDevice()) {
            return "sumValues() on the device";
        }
        return s.snapshots() || s.onCluster() ? "forEach" : "iteration";
    }

    private static String ratio(double v) {
        return Double.isFinite(v) ? (v >= 0.1 ? String.format(Locale.ROOT, "%.2f", v) : SnapshotTables.significant(v))
                + "x" : "-";
    }

    private static String number(double v, int decimals) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%." + decimals + "f", v) : "";
    }
}
