package org.bforest.bench.output;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.bforest.bench.cli.Counts;
import org.bforest.bench.cli.Options;
import org.bforest.bench.runner.DatasetInfo;
import org.bforest.bench.runner.DeviceFigures;
import org.bforest.bench.runner.Environment;
import org.bforest.bench.runner.Result;
import org.bforest.bench.runner.RunSummary;
import org.bforest.bench.structures.Structure;
import org.bforest.bench.workloads.Workload;
import org.bforest.bench.workloads.WorkloadGenerator;

/**
 * summary.txt: the table (with the memory per key after the workloads that write under it),
 * memory per key after the build measured both ways, every repetition's figure, how each
 * structure was built and measured, the datasets, the protocol, the notes and the JVM: enough to
 * read the numbers without the source.
 */
public final class TextReport implements ReportWriter {

    @Override
    public Path write(RunSummary run, Path dir) throws IOException {
        Path file = dir.resolve("summary.txt");
        Files.writeString(file, render(run), StandardCharsets.UTF_8);
        return file;
    }

    /** Workload W's protocol, for the summary and the report. */
    static final String WINDOW_PROTOCOL = """
            - Workload W (sliding window, ours): the dataset's loaded and insert keys together, sorted; the
              first --keys of them bulk-loaded; then each put of the next key is followed by the remove of
              the oldest key held (a put and a remove count as two operations). Timed in ten tenths of
              whole pairs; between them, with the clock stopped, the structure's bytes per live key
              (memoryBytes() / size()) are read. Its memory after the build is its own (other keys than
              the other workloads'). Single-threaded only.
            """;

    /**
     * {@code text} broken into lines of at most 100 characters, the later ones indented two
     * spaces; the first starts at column {@code col}.
     */
    static String wrap(String text, int col) {
        StringBuilder sb = new StringBuilder();
        boolean lineStart = true;
        for (String word : text.split(" ")) {
            if (!lineStart && col + 1 + word.length() > 100) {
                sb.append("\n  ");
                col = 2;
                lineStart = true;
            }
            if (!lineStart) {
                sb.append(' ');
                col++;
            }
            sb.append(word);
            col += word.length();
            lineStart = false;
        }
        return sb.toString();
    }

    /** What {@code --values} meant for this run, in words. */
    static String valuesText(Options o) {
        return switch (o.values()) {
            case KEY -> "key (the value of key k is ~k)";
            case RANDOM -> "random (a splitmix64 mix of the key and the dataset seed)";
            case NONE -> "none (every value 0)";
        };
    }

    /** What {@code --batch} did in this run, in words ("off", or the sizes and how a batch is cut). */
    static String batchText(Options o) {
        if (!o.batched()) {
            return "off";
        }
        return "workloads A, B, C, E and F (those this run has) also ran single-threaded, once per size, at most "
                + o.batchesText() + " operations a call (cells A/bN, B/bN, ...): a batch is a run of consecutive"
                + " operations of one kind within a window of N, lookups through LongIndex.getAll, inserts through"
                + " putAll, deletes through removeAll, so the answers, checksums and final contents are those of"
                + " the stream one operation at a time (A, B and F make N a call; C and E their runs of one kind);"
                + " the structures without batched calls loop over the operations. D and W run unbatched only";
    }

    /** Where the {@code --anchors} figures came from, in words. */
    static String anchorsText(Options o) {
        return "Reference figures (--anchors " + o.anchors().where() + "): " + o.anchors().all().size()
                + " figures of outside programs, one operation at a time, read from CSV and not measured here;"
                + " printed under the table of their dataset and keys and drawn as dashed lines on the batch-size"
                + " charts";
    }

    /**
     * Where the device structures' batches spent their time: a table of the rows of device
     * indexes (the OpenCL trees), empty text when the run has none.
     */
    static String deviceTable(RunSummary run) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("structure", "dataset", "keys", "workload", "batches", "ms/batch", "host ms", "transfer ms",
                "kernel ms", "host share", "driver ms", "calls", "B/key device"));
        for (Result r : run.results()) {
            DeviceFigures d = r.device();
            if (d != null) {
                rows.add(List.of(r.structure().cliName(), r.dataset(), Counts.format(r.keys()), r.label(),
                        String.format(Locale.ROOT, "%.0f", d.batches()), ms(d.batchMs()), ms(d.hostMs()),
                        ms(d.transferMs()), ms(d.kernelMs()),
                        Double.isFinite(d.hostShare()) ? String.format(Locale.ROOT, "%.0f%%", 100 * d.hostShare()) : "-",
                        ms(d.driverMs()), String.format(Locale.ROOT, "%.0f", d.callsBatch()),
                        ResultTable.bytes(d.deviceBytesPerKey())));
            }
        }
        if (rows.size() == 1) {
            return "";
        }
        return "Device time per batch (the OpenCL structures)\n----------------------------------------------\n\n"
                + "Medians over the timed repetitions of each repetition's time per batch call: the call's wall time,\n"
                + "the host's work in it (sorting, planning, copying), and device time in transfers and in kernels\n"
                + "(the driver's profiling; it can overlap host work). Driver ms: the part of the host's time inside\n"
                + "the driver's calls that do not wait (enqueues, creations, event queries); calls: device calls a\n"
                + "batch. B/key device: device memory after the build.\n\n"
                + ResultTable.align(rows) + "\n";
    }

    private static String ms(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, v < 10 ? "%.3f" : "%.1f", v) : "-";
    }

    public static String render(RunSummary run) {
        Options o = run.options();
        Environment env = run.environment();
        StringBuilder sb = new StringBuilder();
        sb.append("bforest benchmark summary\n=========================\n\n");
        sb.append("started ").append(env.started()).append(String.format(Locale.ROOT, ", wall time %.1f s%n%n",
                run.wallSeconds()));

        sb.append("Throughput (million operations per second)\n------------------------------------------\n\n");
        sb.append(ResultTable.render(run)).append('\n');

        sb.append("Memory per loaded key, after the build\n--------------------------------------\n\n");
        sb.append("heap: heap in use after full GCs (System.gc() until it settles, MemoryMXBean), after the build\n"
                + "      minus before it; counts everything the structure keeps alive.\n"
                + "own:  the structure's own accounting (memoryBytes()) or, for the peers, an estimate from the\n"
                + "      JVM's object layout (" + env.layout() + ").\n\n");
        List<List<String>> mem = new ArrayList<>();
        mem.add(List.of("structure", "dataset", "keys", "B/key heap", "B/key own", "own figure from"));
        Map<String, Result> firstPer = new LinkedHashMap<>();
        for (Result r : run.results()) {
            firstPer.putIfAbsent(r.structure().cliName() + "\u0000" + r.dataset() + "\u0000" + r.keys(), r);
        }
        for (Result r : firstPer.values()) {
            mem.add(List.of(r.structure().cliName(), r.dataset(), Counts.format(r.keys()),
                    ResultTable.bytes(r.heapBytesPerKey()), ResultTable.bytes(r.ownBytesPerKey()),
                    r.structure().memoryMethod()));
        }
        sb.append(ResultTable.align(mem)).append('\n');
        sb.append(deviceTable(run));

        sb.append("Every figure\n------------\n\n");
        List<List<String>> all = new ArrayList<>();
        all.add(List.of("structure", "dataset", "keys", "workload", "threads", "Mops/s", "repetitions", "build s",
                "checksum"));
        for (Result r : run.results()) {
            List<String> reps = new ArrayList<>();
            for (double m : r.repMops()) {
                reps.add(ResultTable.mops(m));
            }
            all.add(List.of(r.structure().cliName(), r.dataset(), Counts.format(r.keys()), r.label(),
                    Integer.toString(r.threads()),
                    ResultTable.mops(r.mops()), String.join(" ", reps),
                    String.format(Locale.ROOT, "%.3f", r.buildSeconds()), Long.toHexString(r.checksum())));
        }
        sb.append(ResultTable.align(all)).append('\n');

        sb.append("Notes\n-----\n\n");
        if (run.notes().isEmpty()) {
            sb.append("none\n");
        }
        for (String n : run.notes()) {
            sb.append("- ").append(n).append('\n');
        }
        sb.append('\n');

        sb.append("Datasets\n--------\n\n");
        for (DatasetInfo d : run.datasets()) {
            sb.append(String.format(Locale.ROOT, "%s: %s%n  %d keys loaded (%d .. %d), %d insert keys, seed %d%n",
                    d.name(), d.description(), d.keys(), d.firstKey(), d.lastKey(), d.inserts(), d.seed()));
            for (String n : d.notes()) {
                sb.append("  note: ").append(n).append('\n');
            }
        }
        sb.append('\n');

        sb.append("Protocol\n--------\n\n");
        sb.append(String.format(Locale.ROOT, """
                - %s keys bulk-loaded, %s operations per workload, generated before the clock starts into
                  primitive arrays (op codes + keys); the same stream for every structure and repetition.%s
                - Workloads (BS-tree paper, section 8.1):
                """, o.keysText(), Counts.format(o.ops()), o.sweep() ? "\n- A size sweep: each key count in"
                + " turn, smallest first, over every dataset and workload; the keys and operations are\n  generated"
                + " afresh for each size (the same seeds)." : ""));
        for (Workload w : o.workloads()) {
            sb.append("    ").append(w.name()).append(' ').append(w.title()).append(": ").append(w.mix()).append('\n');
        }
        if (o.workloads().contains(Workload.W)) {
            sb.append(WINDOW_PROTOCOL);
        }
        sb.append(String.format(Locale.ROOT, """
                - Lookups and deletes hit present keys, drawn uniformly from the loaded keys (a key deleted
                  earlier in the stream is redrawn). Inserts take the dataset's insert keys in order (all new).
                  A scan starts at a loaded key drawn uniformly and ends c loaded keys further, c uniform in
                  [%d, %d]. Exact operation counts, shuffled.
                - Each structure x workload: %d untimed warm-up repetition(s), then %d timed, interleaved across
                  the structures: round r runs repetition r of every structure, each round starting one structure
                  further on, so the machine's slow stretches land on all of them alike. Every repetition builds
                  the structure afresh from the sorted keys and drops it afterwards (one built structure alive at
                  a time); a full GC runs before each build and before each timed run. Reported: the median of
                  the timed repetitions with the slowest and fastest, the median build time.
                - Values: %s.
                - Batched (--batch): %s.%s
                - The results of every operation are summed into a checksum (a blackhole the JIT cannot
                  remove); the checksums of different structures on the same operations must agree.
                - Threads: %s.%s

                """, WorkloadGenerator.MIN_SCAN, WorkloadGenerator.MAX_SCAN, o.warmups(), o.reps(),
                valuesText(o), wrap(batchText(o), 21),
                o.anchors().isEmpty() ? "" : "\n- " + wrap(anchorsText(o), 2) + ".",
                String.join(", ", o.threads().stream().map(String::valueOf).toList())
                        + " (with more than one thread, the operations are split into contiguous slices run at"
                        + " once; only thread-safe structures run)",
                (o.snapshots() ? "\n- " + wrap(SnapshotTables.PROTOCOL, 2) : "")
                        + (o.visitAll() ? "\n- " + wrap(VisitTables.PROTOCOL, 2) : "")));

        sb.append("Structures\n----------\n\n");
        for (Structure s : o.structures()) {
            sb.append(String.format(Locale.ROOT, "%s: %s%n  build: %s%n  memory (own): %s%n", s.cliName(),
                    s.description(), s.buildMethod(), s.memoryMethod()));
        }
        sb.append('\n');

        sb.append("Machine and JVM\n---------------\n\n");
        sb.append(String.format(Locale.ROOT, "java %s (%s), %d cpus, max heap %.1f GB, %s%njvm flags: %s%n",
                env.javaVersion(), env.vm(), env.cpus(), env.maxHeapBytes() / 1e9, env.os(),
                String.join(" ", env.jvmArgs())));
        sb.append(String.format(Locale.ROOT, "cpu: %s%s, memory %s%njava vendor: %s, node search: %s, gc: %s%n",
                env.machine().cpuModel(), env.machine().physicalCores() > 0
                        ? " (" + env.machine().physicalCores() + " physical cores)" : "",
                env.machine().memoryBytes() > 0 ? String.format(Locale.ROOT, "%.1f GB",
                        env.machine().memoryBytes() / 1e9) : "unknown",
                env.javaVendor(), env.nodeSearch(), String.join(", ", env.gcs())));
        sb.append("bforest commit: ").append(env.commit()).append(", values: ")
                .append(run.options().values().cliName()).append('\n');
        sb.append("command: ").append(HtmlReport.commandLine(run)).append('\n');
        return sb.toString();
    }
}
