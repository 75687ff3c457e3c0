package org.bforest.bench.output;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.bforest.bench.cli.Counts;
import org.bforest.bench.cli.Options;
import org.bforest.bench.runner.Environment;
import org.bforest.bench.runner.Machine;
import org.bforest.bench.runner.RunSummary;
import org.bforest.bench.structures.Structure;
import org.bforest.bench.workloads.Workload;
import org.bforest.bench.workloads.WorkloadGenerator;

/**
 * index.html: the report as one self-contained page (inline CSS and SVG charts, no script, no
 * external file, no network): the ratios that matter (marked where they are within noise),
 * throughput per workload and dataset (a row per structure, a panel per workload: the figures of
 * the BS-tree paper's Figures 5 to 9) and by thread count, memory per key both ways
 * (Table 2), build time (Table 1), every figure, the notes, the datasets, the structures, the
 * protocol, and the machine, JVM and command line that produced it. The markup is XHTML-compatible
 * (well-formed XML), so it can be checked by any XML parser.
 *
 * <p>A size sweep (figures at several key counts, {@code --keys 1K,10K,...}) adds a section of
 * line charts, one per dataset and workload: Mops/s against the number of keys on a log axis, a
 * line per structure, where the cache levels show as steps. The ratios, bar charts and tables
 * above and below it are then drawn once per size, each from that size's figures alone
 * ({@link ReportData#forSize}): nothing compares figures of different sizes but the line charts.
 */
public final class HtmlReport implements ReportWriter {
    private static final Pattern SHELL_SAFE = Pattern.compile("[A-Za-z0-9_./,=:@%+^-]+");

    @Override
    public Path write(RunSummary run, Path dir) throws IOException {
        Path file = dir.resolve("index.html");
        Files.writeString(file, render(run), StandardCharsets.UTF_8);
        return file;
    }

    public static String render(RunSummary run) {
        ReportData d = new ReportData(run);
        Options o = run.options();
        StringBuilder sb = new StringBuilder(64 * 1024);
        sb.append("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n")
                .append("<meta charset=\"utf-8\"/>\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n")
                .append("<title>").append(Html.esc("bforest benchmark: " + String.join(", ", d.datasets()) + ", "
                        + o.keysText() + " keys, " + run.environment().started())).append("</title>\n")
                .append("<style>\n").append(CSS).append("</style>\n</head>\n<body>\n<main>\n");
        header(sb, run, d);
        highlights(sb, d);
        sweep(sb, d);
        batches(sb, d);
        throughput(sb, d);
        memory(sb, d);
        window(sb, d);
        build(sb, d);
        snapshots(sb, run);
        section(sb, "results", "All results", "Every cell that ran: the median of the timed repetitions, each "
                + "repetition, the median build time, memory per key both ways and the checksum of the results. "
                + "\u2248 X (within noise of X): the row's slowest\u2013fastest spread, or X's, is wider than the gap"
                + " between their medians, X being the structure ranked next to it in the same cell; a rerun could"
                + " order the two the other way.");
        sb.append(HtmlTables.results(d)).append("</section>\n");
        notes(sb, run);
        section(sb, "datasets", "Datasets", null);
        sb.append(HtmlTables.datasets(d)).append("</section>\n");
        section(sb, "structures", "Structures", null);
        sb.append(HtmlTables.structures(d)).append("</section>\n");
        protocol(sb, o);
        machine(sb, run);
        sb.append("<footer>Written by <code>bforest bench --report</code>; this page is self-contained (no scripts,"
                + " no external files).</footer>\n</main>\n</body>\n</html>\n");
        return sb.toString();
    }

    private static void section(StringBuilder sb, String id, String title, String lead) {
        sb.append("<section id=\"").append(id).append("\">\n<h2>").append(Html.esc(title)).append("</h2>\n");
        if (lead != null) {
            sb.append("<p class=\"lead\">").append(Html.esc(lead)).append("</p>\n");
        }
    }

    private static void header(StringBuilder sb, RunSummary run, ReportData d) {
        Options o = run.options();
        List<String> facts = new ArrayList<>();
        facts.add(o.keysText() + " keys bulk-loaded" + (o.sweep() ? " (a size sweep)" : ""));
        facts.add(Counts.format(o.ops()) + " operations per workload");
        facts.add((d.datasets().size() == 1 ? "dataset " : "datasets ") + String.join(", ", d.datasets()));
        facts.add(String.join(", ", o.threads().stream().map(String::valueOf).toList())
                + (o.threads().equals(List.of(1)) ? " thread" : " threads"));
        facts.add("median of " + o.reps() + " interleaved repetitions (" + o.warmups() + " warm-up)");
        facts.add("values " + o.values().cliName());
        if (o.batched()) {
            facts.add("also batched, at most " + o.batchesText() + " operations a call");
        }
        if (!o.anchors().isEmpty()) {
            facts.add(o.anchors().all().size() + " reference figures (--anchors)");
        }
        sb.append("<header>\n<h1>bforest benchmark</h1>\n<p class=\"facts\">");
        for (int i = 0; i < facts.size(); i++) {
            sb.append(i == 0 ? "" : "<span class=\"dot\"> · </span>").append(Html.esc(facts.get(i)));
        }
        Environment env = run.environment();
        sb.append("</p>\n<p class=\"facts muted\">").append(Html.esc(date(env.started()) + " · "
                + env.machine().cpuModel() + " · Java " + env.javaVersion() + " · node search " + env.nodeSearch()
                + " · commit " + env.commit()
                + String.format(Locale.ROOT, " · wall time %.0f s", run.wallSeconds()))).append("</p>\n");
        sb.append("<div class=\"cmd\"><code>").append(Html.esc(commandLine(run))).append("</code></div>\n</header>\n");
    }

    /** The command that produced the run, as a shell would take it back. */
    static String commandLine(RunSummary run) {
        if (run.args() == null) {
            return "./bforest bench … (arguments not recorded)";
        }
        StringBuilder sb = new StringBuilder("./bforest bench");
        for (String a : run.args()) {
            sb.append(' ').append(SHELL_SAFE.matcher(a).matches() ? a : "'" + a.replace("'", "'\\''") + "'");
        }
        return sb.toString();
    }

    private static String date(String iso) {
        // 2025-06-01T12:34:56.789+02:00 -> 2025-06-01 12:34:56 +02:00
        if (iso.length() >= 19 && iso.charAt(10) == 'T') {
            String offset = "";
            int plus = Math.max(iso.lastIndexOf('+'), iso.lastIndexOf('-'));
            if (plus > 19) {
                offset = " " + iso.substring(plus);
            } else if (iso.endsWith("Z")) {
                offset = " UTC";
            }
            return iso.substring(0, 10) + " " + iso.substring(11, 19) + offset;
        }
        return iso;
    }

    /** One view per size: the run itself, or each size of a sweep alone. */
    private static List<ReportData> views(ReportData d) {
        if (!d.sweep()) {
            return List.of(d);
        }
        List<ReportData> out = new ArrayList<>();
        for (int n : d.sizes()) {
            out.add(d.forSize(n));
        }
        return out;
    }

    /** The heading of one size's part of a section, in a sweep only. */
    private static void sizeHeading(StringBuilder sb, ReportData d, ReportData view) {
        if (d.sweep()) {
            sb.append("<h3>").append(Html.esc(view.keysText() + " keys")).append("</h3>\n");
        }
    }

    private static void highlights(StringBuilder sb, ReportData d) {
        List<ReportData> views = views(d);
        List<List<Callouts.Callout>> cards = new ArrayList<>();
        boolean any = false;
        for (ReportData v : views) {
            List<Callouts.Callout> cs = Callouts.all(v);
            cards.add(cs);
            any |= !cs.isEmpty();
        }
        if (!any) {
            return;
        }
        Structure head = Callouts.headline(d);
        Structure ref = head == null ? null : Callouts.reference(d, head);
        String perSize = d.sweep() ? " Each size on its own: a ratio never mixes figures of different sizes." : "";
        section(sb, "highlights", "Highlights", (ref == null ? "Ratios from this run."
                : "Ratios from this run: " + head.cliName() + " against " + ref.cliName() + (d.datasets().size() > 1
                ? ", the range over the datasets, then each dataset's ratio."
                : "; the small print names the fastest other structure where it is not " + ref.cliName() + "."))
                + perSize);
        for (int i = 0; i < views.size(); i++) {
            if (!cards.get(i).isEmpty()) {
                sizeHeading(sb, d, views.get(i));
                cards(sb, cards.get(i));
            }
        }
        sb.append("</section>\n");
    }

    private static void cards(StringBuilder sb, List<Callouts.Callout> cs) {
        sb.append("<div class=\"cards\">\n");
        for (Callouts.Callout c : cs) {
            sb.append("<div class=\"card\" style=\"--c:").append(Html.esc(c.colour())).append(";--ink:")
                    .append(Html.esc(Palette.ink(c.colour()))).append("\"><div class=\"fig\">")
                    .append(Html.esc(c.figure()));
            if (c.noise() != null) {
                sb.append(" <span class=\"noise\">within noise</span>");
            }
            sb.append("</div><div class=\"txt\">").append(Html.esc(c.text())).append("</div><div class=\"detail\">")
                    .append(Html.esc(c.detail())).append("</div>");
            if (c.noise() != null) {
                sb.append("<div class=\"detail noise-why\">").append(Html.esc("Within noise (the gap is smaller than"
                        + " the wider slowest\u2013fastest spread): " + c.noise() + "."))
                        .append("</div>");
            }
            sb.append("</div>\n");
        }
        sb.append("</div>\n");
    }

    /**
     * A size sweep's figure: per dataset, a line chart per workload of Mops/s against the number
     * of keys (log axis), a line per structure. Nothing for a run at one size.
     */
    private static void sweep(StringBuilder sb, ReportData d) {
        if (!d.sweep()) {
            return;
        }
        int base = d.baseThreads();
        section(sb, "sweep", "Throughput against the number of keys", null);
        sb.append("<p class=\"lead\">").append(Html.esc("Million operations per second, higher is better, at each"
                + " number of keys the run swept (" + d.keysText() + "; keys on a log axis, "
                + ReportCharts.threads(base) + "): a line per structure, a marker per size (its tooltip gives the"
                + " median and the slowest and fastest repetition). Where a structure outgrows a cache level, its"
                + " line steps down. A gap: the structure did not run at that size (see the notes)."))
                .append("</p>\n");
        for (String ds : d.datasets()) {
            List<String> charts = new ArrayList<>();
            for (Workload w : d.workloads()) {
                SvgLineChart c = ReportCharts.sweep(d, ds, w, base);
                if (c != null) {
                    charts.add("<figure>\n<figcaption>" + Html.esc(w.name() + " " + w.title() + " · " + w.mix())
                            + "</figcaption>\n" + c.render() + "</figure>\n");
                }
            }
            if (!charts.isEmpty()) {
                sb.append("<h3>").append(Html.esc(ds)).append("</h3>\n<div class=\"grid2\">\n");
                charts.forEach(sb::append);
                sb.append("</div>\n");
            }
        }
        sb.append("</section>\n");
    }

    /**
     * A batch-size sweep's figure ({@code --batch} with several sizes, or one and
     * {@code --anchors}): per size and dataset, a line chart per batched workload of Mops/s
     * against the operations a call, the {@code --anchors} figures as dashed lines.
     */
    private static void batches(StringBuilder sb, ReportData d) {
        Options o = d.run().options();
        if (d.batchSizes().isEmpty() || d.batchSizes().size() < 2 && o.anchors().isEmpty()) {
            return;
        }
        section(sb, "batches", "Throughput against the batch size", null);
        sb.append("<p class=\"lead\">").append(Html.esc("Million operations per second, higher is better, with"
                + " --batch N at each N the run swept (" + String.join(", ", d.batchSizes().stream()
                .map(b -> Counts.format(b)).toList()) + "; N on a log axis, 1 thread): a line per structure. A batch"
                + " is a run of consecutive operations of one kind, at most N: lookups through getAll, inserts"
                + " through putAll, deletes through removeAll, so A, B and F make N a call while C and E make their"
                + " runs (about two operations); the structures without batched calls loop, one operation at a"
                + " time." + (o.anchors().isEmpty() ? "" : " Dashed lines: the figures of outside programs running"
                + " one operation at a time on the same dataset, keys and workload (--anchors " + o.anchors().where()
                + "), labelled with their source.") + " The unbatched figures are in the charts and tables below."))
                .append("</p>\n");
        for (int n : d.sizes()) {
            for (String ds : d.datasets()) {
                List<String> charts = new ArrayList<>();
                for (Workload w : d.workloads()) {
                    SvgLineChart c = w.batchable() ? ReportCharts.batches(d, ds, w, n) : null;
                    if (c != null) {
                        charts.add("<figure>\n<figcaption>" + Html.esc(w.name() + " " + w.title() + " · " + w.mix())
                                + "</figcaption>\n" + c.render() + "</figure>\n");
                    }
                }
                if (!charts.isEmpty()) {
                    sb.append("<h3>").append(Html.esc(ds + (d.sweep() ? " · " + Counts.format(n) + " keys" : "")))
                            .append("</h3>\n<div class=\"grid2\">\n");
                    charts.forEach(sb::append);
                    sb.append("</div>\n");
                }
            }
        }
        sb.append("</section>\n");
    }

    private static void throughput(StringBuilder sb, ReportData d) {
        section(sb, "throughput", "Throughput per workload", null);
        sb.append("<p class=\"lead\">Million operations per second, higher is better; the median of the timed"
                + " repetitions, the whisker on a bar reaching from the slowest to the fastest of them. Each workload"
                + " has its own scale. A dash: the structure did not run that workload (see the notes).</p>\n");
        sb.append("<p class=\"workloads\">");
        List<Workload> ws = d.workloads();
        for (int i = 0; i < ws.size(); i++) {
            Workload w = ws.get(i);
            sb.append(i == 0 ? "" : "<span class=\"dot\"> · </span>").append("<b>").append(w.name()).append("</b> ")
                    .append(Html.esc(w.title() + ": " + w.mix()));
        }
        sb.append("</p>\n");
        if (d.structures().isEmpty()) {
            sb.append("<p class=\"muted\">No structure ran.</p>\n");
        }
        for (ReportData v : views(d)) {
            sizeHeading(sb, d, v);
            String size = d.sweep() ? " · " + v.keysText() + " keys" : "";
            int base = v.baseThreads();
            for (String ds : v.datasets()) {
                if (v.structures(ds, base).isEmpty()) {
                    continue;
                }
                figure(sb, ds + size + " · " + ReportCharts.threads(base), ReportCharts.throughput(v, ds, base));
            }
            for (String ds : v.datasets()) {
                SvgBarChart c = ReportCharts.scaling(v, ds);
                if (c != null) {
                    figure(sb, ds + size + " · by thread count (" + String.join(", ", v.threads().stream()
                            .map(String::valueOf).toList()) + "; a row per structure and thread count, paler bars"
                            + " fewer threads)", c);
                }
            }
        }
        sb.append("</section>\n");
    }

    private static void figure(StringBuilder sb, String caption, SvgBarChart chart) {
        sb.append("<figure>\n<figcaption>").append(Html.esc(caption)).append("</figcaption>\n").append(chart.render())
                .append("</figure>\n");
    }

    private static void memory(StringBuilder sb, ReportData d) {
        if (d.structures().isEmpty()) {
            return;
        }
        section(sb, "memory", "Memory per key", null);
        sb.append("<p class=\"lead\">Bytes per loaded key after the build, lower is better, measured two ways:"
                + " <b>heap after GC</b> (heap in use after full GCs after the build minus before it: everything the"
                + " structure keeps alive) and the structure's <b>own accounting</b> (<code>memoryBytes()</code> for"
                + " bforest; for the others an estimate from this JVM's object layout: ")
                .append(Html.esc(d.run().environment().layout())).append(").</p>\n");
        List<ReportData> views = views(d);
        for (ReportData v : views) {
            sizeHeading(sb, d, v);
            for (String ds : v.datasets()) {
                figure(sb, ds + (d.sweep() ? " · " + v.keysText() + " keys" : ""), ReportCharts.memory(v, ds));
            }
            sb.append(HtmlTables.memory(v));
        }
        boolean headed = false;
        for (ReportData v : views) {
            String after = HtmlTables.memoryAfterWrites(v);
            if (after == null) {
                continue;
            }
            if (!headed) {
                sb.append("<h3>After the workloads that write</h3>\n<p class=\"lead\">Bytes per key held after"
                        + " each workload that inserts or deletes, measured the same two ways on its first timed"
                        + " repetition (heap after GC: after the run minus before the build).</p>\n");
                headed = true;
            }
            if (d.sweep()) {
                sb.append("<p class=\"sub\">").append(Html.esc(v.keysText() + " keys")).append("</p>\n");
            }
            sb.append(after);
        }
        sb.append("</section>\n");
    }

    /** Workload W's figures over time, when it ran. */
    private static void window(StringBuilder sb, ReportData d) {
        boolean any = false;
        for (ReportData v : views(d)) {
            any |= WindowTables.html(v) != null;
        }
        if (!any) {
            return;
        }
        section(sb, "window", "Sliding window over time (W)", "Workload W puts the next of the time-ordered keys"
                + " and removes the oldest, the window staying at the number of keys loaded. Per tenth of its"
                + " operations: B/key, the structure's bytes per live key (memoryBytes() / size()) at the end of"
                + " the tenth (first timed repetition), beside the figure right after the bulk load; Mops/s, the"
                + " tenth's median over the timed repetitions. Ratio: the last tenth's B/key over the load's (a"
                + " structure that reuses what its removes empty stays near 1), and the last tenth's Mops/s over"
                + " the first's.");
        for (ReportData v : views(d)) {
            String table = WindowTables.html(v);
            if (table != null) {
                sizeHeading(sb, d, v);
                sb.append(table);
            }
        }
        sb.append("</section>\n");
    }

    /** {@code --snapshot}'s figures, when it ran. */
    private static void snapshots(StringBuilder sb, RunSummary run) {
        String tables = SnapshotTables.html(run);
        if (tables == null) {
            return;
        }
        section(sb, "snapshots", "Snapshots", "Each bforest structure's snapshot saved, loaded back and mapped, per"
                + " dataset and number of keys; the median of " + run.options().reps() + " repetitions with the"
                + " slowest and fastest in brackets. " + SnapshotTables.LEGEND);
        sb.append(tables).append("</section>\n");
    }

    private static void build(StringBuilder sb, ReportData d) {
        if (d.structures().isEmpty()) {
            return;
        }
        section(sb, "build", "Build time", "From sorted keys and values to a ready structure, lower is better;"
                + " the median over every build of the structure on the dataset (each repetition builds afresh).");
        for (ReportData v : views(d)) {
            sizeHeading(sb, d, v);
            figure(sb, String.join(", ", v.datasets()) + " · " + v.keysText() + " keys", ReportCharts.build(v));
            sb.append(HtmlTables.build(v));
        }
        sb.append("</section>\n");
    }

    private static void notes(StringBuilder sb, RunSummary run) {
        section(sb, "notes", "Notes", null);
        if (run.notes().isEmpty()) {
            sb.append("<p class=\"muted\">None: every structure ran every workload it was asked to.</p>\n");
        } else {
            sb.append("<ul class=\"notes\">\n");
            for (String n : run.notes()) {
                sb.append("<li>").append(Html.esc(n)).append("</li>\n");
            }
            sb.append("</ul>\n");
        }
        sb.append("</section>\n");
    }

    private static void protocol(StringBuilder sb, Options o) {
        section(sb, "protocol", "Protocol", null);
        sb.append("<ul>\n<li>").append(Html.esc(o.keysText() + " keys bulk-loaded (sorted), "
                + Counts.format(o.ops()) + " operations per workload, generated before the clock starts; the same"
                + " operations for every structure and repetition.")).append("</li>\n<li>");
        if (o.sweep()) {
            sb.append(Html.esc("A size sweep: each number of keys in turn, smallest first, over every dataset and"
                    + " workload; the keys and operations are generated afresh for each size (the same seeds), and"
                    + " only one size's are held at a time.")).append("</li>\n<li>");
        }
        sb.append(Html.esc("Lookups and deletes hit present keys; inserts are new keys; a scan reads "
                        + WorkloadGenerator.MIN_SCAN + " to " + WorkloadGenerator.MAX_SCAN + " keys from a present"
                        + " one. Exact operation counts, shuffled.")).append("</li>\n<li>")
                .append(Html.esc("Each structure × workload: " + o.warmups() + " untimed warm-up repetition(s), then "
                        + o.reps() + " timed, interleaved across the structures: round r runs repetition r of every"
                        + " structure, each round starting one structure further on, so the machine's slow stretches"
                        + " land on all of them alike. Each repetition builds the structure afresh and drops it after"
                        + " (one built structure alive at a time); a full GC before each build and each timed run;"
                        + " the median is reported, with the slowest and fastest repetition."))
                .append("</li>\n<li>").append(Html.esc("Values: " + TextReport.valuesText(o) + "."))
                .append("</li>\n<li>").append(Html.esc("Batched (--batch): " + TextReport.batchText(o) + "."))
                .append(o.anchors().isEmpty() ? "" : "</li>\n<li>" + Html.esc(TextReport.anchorsText(o) + "."))
                .append("</li>\n<li>")
                .append(Html.esc("The results of every operation are summed into a checksum; single-threaded, all"
                        + " structures must agree on it (a mismatch would be a note)."))
                .append("</li>\n<li>").append(Html.esc("With more than one thread, the operations are split into"
                        + " contiguous slices run at once; only thread-safe structures run.")).append("</li>\n")
                .append(o.workloads().contains(Workload.W) ? "<li>" + Html.esc(TextReport.WINDOW_PROTOCOL
                        .replaceFirst("^- ", "").replaceAll("\\s+", " ").strip()) + "</li>\n" : "")
                .append(o.snapshots() ? "<li>" + Html.esc(SnapshotTables.PROTOCOL) + "</li>\n" : "")
                .append("</ul>\n")
                .append("</section>\n");
    }

    private static void machine(StringBuilder sb, RunSummary run) {
        Environment env = run.environment();
        Machine m = env.machine();
        section(sb, "machine", "Machine and JVM", null);
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"CPU", m.cpuModel()});
        rows.add(new String[] {"cores", env.cpus() + " available to the JVM"
                + (m.physicalCores() > 0 ? ", " + m.physicalCores() + " physical" : "")});
        rows.add(new String[] {"memory", m.memoryBytes() > 0 ? String.format(Locale.ROOT, "%.1f GB",
                m.memoryBytes() / 1e9) : "unknown"});
        rows.add(new String[] {"operating system", env.os()});
        rows.add(new String[] {"Java", env.javaVersion() + " (" + env.javaVendor() + "), " + env.vm()});
        rows.add(new String[] {"node search (Vector API)", env.nodeSearch()});
        rows.add(new String[] {"bforest commit", env.commit()});
        rows.add(new String[] {"values", run.options().values().cliName()});
        rows.add(new String[] {"max heap", String.format(Locale.ROOT, "%.1f GB", env.maxHeapBytes() / 1e9)});
        rows.add(new String[] {"garbage collector", String.join(", ", env.gcs())});
        rows.add(new String[] {"object layout", env.layout()});
        rows.add(new String[] {"JVM flags", String.join(" ", env.jvmArgs()), "code"});
        rows.add(new String[] {"started", date(env.started())});
        rows.add(new String[] {"wall time", String.format(Locale.ROOT, "%.1f s", run.wallSeconds())});
        rows.add(new String[] {"command", commandLine(run), "code"});
        if (!env.javaCommand().isEmpty()) {
            rows.add(new String[] {"JVM command line", env.javaCommand(), "code"});
        }
        sb.append(HtmlTables.keyValues(rows)).append("</section>\n");
    }

    private static final String CSS = """
            :root { color-scheme: light; }
            * { box-sizing: border-box; }
            body { margin: 0; background: #f3f4f6; color: #111827;
              font: 14px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', Arial, sans-serif; }
            main { max-width: 1200px; margin: 0 auto; padding: 20px 20px 40px; }
            header { padding: 4px 2px 8px; }
            h1 { font-size: 26px; margin: 0 0 4px; letter-spacing: -0.01em; }
            h2 { font-size: 19px; margin: 0 0 6px; }
            h3 { font-size: 15px; margin: 18px 0 4px; }
            .facts { margin: 2px 0; }
            .muted, .facts.muted { color: #6b7280; }
            .dot { color: #9ca3af; }
            .cmd code { display: block; margin-top: 10px; background: #0f172a; color: #e2e8f0; padding: 10px 14px;
              border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere; }
            section { background: #fff; border: 1px solid #e5e7eb; border-radius: 10px; padding: 16px 20px;
              margin: 16px 0; }
            .lead { margin: 0 0 10px; color: #374151; max-width: 980px; }
            .workloads { margin: 0 0 6px; font-size: 13px; color: #374151; }
            figure { margin: 12px 0 4px; }
            .grid2 { display: grid; grid-template-columns: repeat(auto-fill, minmax(460px, 1fr)); gap: 0 24px; }
            .sub { margin: 12px 0 0; font-weight: 600; color: #374151; }
            figcaption { font-weight: 600; margin-bottom: 2px; color: #1f2937; }
            svg.chart { display: block; width: 100%; height: auto; }
            .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(250px, 1fr)); gap: 12px; }
            .card { border: 1px solid #e5e7eb; border-left: 5px solid var(--c); border-radius: 8px;
              padding: 8px 12px 10px; background: #fcfcfd; }
            .card .fig { font-size: 28px; font-weight: 700; color: var(--ink); line-height: 1.2; }
            .card .txt { font-weight: 600; }
            .card .detail { color: #6b7280; font-size: 12.5px; }
            .noise { display: inline-block; background: #fef3c7; color: #92400e; border: 1px solid #f59e0b;
              border-radius: 4px; padding: 0 5px; font-size: 12px; font-weight: 600; line-height: 1.5;
              vertical-align: middle; white-space: nowrap; }
            .card .noise-why { color: #92400e; }
            .scroll { overflow-x: auto; margin-top: 10px; }
            table { border-collapse: collapse; width: 100%; font-size: 13px; }
            th, td { padding: 4px 8px; border-bottom: 1px solid #eef0f3; text-align: left; vertical-align: top; }
            thead th { border-bottom: 1px solid #d1d5db; background: #f9fafb; font-weight: 600; }
            th.c { text-align: center; }
            td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
            td.best { font-weight: 700; }
            td.strong { font-weight: 600; }
            .nw { white-space: nowrap; }
            td.wrap { overflow-wrap: anywhere; max-width: 220px; }
            table.dense td, table.dense th { padding: 2px 8px; }
            tbody tr:nth-child(even) td { background: #fafafa; }
            table.kv th { width: 210px; color: #374151; font-weight: 600; background: none; }
            code, .mono { font-family: ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace; font-size: 12.5px; }
            table.kv code { white-space: pre-wrap; overflow-wrap: anywhere; }
            .sw { display: inline-block; width: 11px; height: 11px; border-radius: 2px; margin-right: 6px;
              vertical-align: -1px; }
            ul { margin: 4px 0; padding-left: 22px; }
            ul.notes li { margin: 2px 0; }
            footer { color: #6b7280; font-size: 12px; margin-top: 12px; }
            """;
}
