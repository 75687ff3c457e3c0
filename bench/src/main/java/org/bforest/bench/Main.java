package org.bforest.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.bforest.bench.cli.Options;
import org.bforest.bench.cli.OptionsParser;
import org.bforest.bench.output.CsvWriter;
import org.bforest.bench.output.ResultTable;
import org.bforest.bench.output.Reports;
import org.bforest.bench.runner.BenchmarkRunner;
import org.bforest.bench.runner.Progress;
import org.bforest.bench.runner.RunSummary;
import org.bforest.bench.runner.SnapshotMismatchException;

/**
 * {@code ./bforest bench [options]}: runs the benchmark and prints its table (see
 * {@code --help} or {@link OptionsParser#HELP}). The table goes to stdout; progress and notes
 * to stderr. Exit status 0 when it ran, 2 for a problem the user can fix (bad option, bad
 * dataset file), 1 for anything else: among them a {@code --snapshot} read back that is not the
 * index it was taken of.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        try {
            Options o = OptionsParser.parse(args);
            if (o.help()) {
                out.print(OptionsParser.HELP);
                return 0;
            }
            RunSummary run;
            try (Progress progress = Progress.create(o.progress(), err)) {
                run = new BenchmarkRunner(o, progress).run().withArgs(List.of(args));
            }
            out.println();
            out.print(ResultTable.render(run));
            if (!run.notes().isEmpty()) {
                out.println("Notes:");
                for (String n : run.notes()) {
                    out.println("- " + n);
                }
            }
            out.printf(Locale.ROOT, "%nwall time %.1f s; %s%n", run.wallSeconds(), ResultTable.provenance(run));
            if (o.csv() != null) {
                write(o.csv(), () -> {
                    CsvWriter.write(run, o.csv());
                    return o.csv();
                });
                out.println("CSV: " + o.csv());
            }
            if (o.reportDir() != null) {
                List<Path> files = write(o.reportDir(), () -> Reports.write(run, o.reportDir()));
                out.println("report: " + files);
            }
            return 0;
        } catch (BenchException e) {
            err.println("bforest bench: " + e.getMessage());
            return 2;
        } catch (SnapshotMismatchException e) {
            err.println("bforest bench: FAILED: " + e.getMessage());
            return 1;
        } catch (OutOfMemoryError e) {
            err.println("bforest bench: ran out of heap (max " + Runtime.getRuntime().maxMemory() / 1_000_000
                    + " MB) outside a structure's run, e.g. generating the keys or operations; give the JVM more"
                    + " with BFOREST_JVM_OPTS=-Xmx24g, or pass smaller --keys/--ops");
            return 2;
        }
    }

    private interface Io<T> {
        T run() throws IOException;
    }

    private static <T> T write(Path where, Io<T> io) {
        try {
            return io.run();
        } catch (IOException e) {
            throw new BenchException("cannot write " + where + ": " + e);
        }
    }

}
