package org.bforest.bench.output;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.bforest.bench.runner.Result;

/**
 * The results as CSV: exactly the header {@value #HEADER}, then one row per structure × dataset ×
 * workload × threads that was measured (skipped cells have no row; the notes say why).
 * {@code mops} is the median Mops/s, {@code build_s} the median build seconds,
 * {@code bytes_per_key} the heap growth across the build after full GCs, per key.
 */
public final class CsvWriter {
    public static final String HEADER = "structure,dataset,workload,threads,keys,ops,mops,build_s,bytes_per_key";

    private CsvWriter() {
    }

    public static void write(List<Result> results, Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            write(results, w);
        }
    }

    public static void write(List<Result> results, Appendable out) throws IOException {
        out.append(HEADER).append('\n');
        for (Result r : results) {
            out.append(row(r)).append('\n');
        }
    }

    static String row(Result r) {
        return String.join(",", quote(r.structure().cliName()), quote(r.dataset()), r.workload().name(),
                Integer.toString(r.threads()), Integer.toString(r.keys()), Integer.toString(r.ops()),
                number(r.mops(), 4), number(r.buildSeconds(), 4), number(r.heapBytesPerKey(), 2));
    }

    private static String number(double v, int decimals) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%." + decimals + "f", v) : "";
    }

    /** RFC 4180 quoting, only where needed (a file name with a comma or a quote). */
    static String quote(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }
}
