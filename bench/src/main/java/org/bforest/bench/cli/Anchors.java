package org.bforest.bench.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.bforest.bench.BenchException;
import org.bforest.bench.workloads.Workload;

/**
 * Reference figures of programs outside this run ({@code --anchors DIR}), such as the authors'
 * C++ BS-tree measured on the same dataset, number of keys and workload: the report draws each
 * as a dashed horizontal line on the batch-size charts, and the table prints them beside its
 * own figures. They are read, never measured here.
 *
 * <p>The format, one or more {@code *.csv} files in DIR (read in name order; DIR may also be one
 * such file): an optional run of blank lines and {@code #} comments, then exactly the header
 * {@value #HEADER}, then one row per figure:
 * <pre>
 * # the authors' BS-tree, built with -O3, on the machine of docs/BENCHMARKS.md
 * source,dataset,keys,workload,mops
 * C++ BS-tree,uniform,100K,A,21.4
 * "C++ BS-tree, SIMD off",uniform,100000,A,9.8
 * </pre>
 * {@code source}: a name for the program (any text; a field with a comma or a quote is quoted
 * as in RFC 4180); {@code dataset}: the dataset's name as this bench calls it ({@code uniform},
 * {@code dense}, ..., or a SOSD file's name), matched ignoring case; {@code keys}: the number of
 * keys loaded, a count as {@code --keys} takes it ({@code 100K}, {@code 1M}, {@code 100000});
 * {@code workload}: A to F or W; {@code mops}: million operations per second of the program
 * running one operation at a time (a positive decimal). Blank lines and {@code #} comments may
 * come anywhere. A row that says the same source, dataset, keys and workload as an earlier one is
 * an error, as is anything else that does not parse: the message names the file and line.
 */
public final class Anchors {
    public static final String HEADER = "source,dataset,keys,workload,mops";
    /** No reference figures (no {@code --anchors}). */
    public static final Anchors NONE = new Anchors(null, List.of());

    /** One reference figure, and where it was read (file name and line, for messages). */
    public record Anchor(String source, String dataset, long keys, Workload workload, double mops, String file,
                         int line) {
        /** Whether it is the figure of {@code dataset} at {@code keys} keys on workload {@code w}. */
        public boolean matches(String dataset, long keys, Workload w) {
            return this.keys == keys && workload == w && this.dataset.equalsIgnoreCase(dataset);
        }
    }

    private final Path where;
    private final List<Anchor> all;

    private Anchors(Path where, List<Anchor> all) {
        this.where = where;
        this.all = List.copyOf(all);
    }

    /** Figures read elsewhere ({@code where}: their folder, for the report to name). */
    public static Anchors of(Path where, List<Anchor> all) {
        return new Anchors(where, all);
    }

    /** The folder (or file) they were read from; null for {@link #NONE}. */
    public Path where() {
        return where;
    }

    /** Every figure, in file and line order. */
    public List<Anchor> all() {
        return all;
    }

    public boolean isEmpty() {
        return all.isEmpty();
    }

    /** The figures of {@code dataset} at {@code keys} keys on workload {@code w}, one per source. */
    public List<Anchor> matching(String dataset, long keys, Workload w) {
        List<Anchor> out = new ArrayList<>();
        for (Anchor a : all) {
            if (a.matches(dataset, keys, w)) {
                out.add(a);
            }
        }
        return out;
    }

    /** The sources with a figure of {@code dataset} at {@code keys} keys (any workload), in order. */
    public List<String> sources(String dataset, long keys) {
        LinkedHashSet<String> out = new LinkedHashSet<>();
        for (Anchor a : all) {
            if (a.keys() == keys && a.dataset().equalsIgnoreCase(dataset)) {
                out.add(a.source());
            }
        }
        return List.copyOf(out);
    }

    /**
     * Reads every {@code *.csv} file in {@code dir} (or {@code dir} itself, a CSV file).
     *
     * @throws BenchException for a folder that is not there or holds no CSV file, a file that
     *                        cannot be read, or a line that does not parse (naming file and line)
     */
    public static Anchors load(Path dir) {
        List<Path> files = new ArrayList<>();
        if (Files.isRegularFile(dir)) {
            files.add(dir);
        } else if (!Files.isDirectory(dir)) {
            throw new BenchException("--anchors " + dir + ": no such folder (give the folder that holds the CSV files"
                    + " of reference figures, with the header " + HEADER + ")");
        } else {
            try (Stream<Path> list = Files.list(dir)) {
                list.filter(p -> p.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".csv")
                        && Files.isRegularFile(p)).sorted().forEach(files::add);
            } catch (IOException e) {
                throw new BenchException("--anchors " + dir + ": cannot list the folder (" + e.getMessage() + ")");
            }
            if (files.isEmpty()) {
                throw new BenchException("--anchors " + dir + ": the folder holds no .csv file (each file: the header "
                        + HEADER + ", then one row per reference figure)");
            }
        }
        List<Anchor> all = new ArrayList<>();
        Map<String, Anchor> seen = new HashMap<>();
        for (Path f : files) {
            List<String> lines;
            try {
                lines = Files.readAllLines(f, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new BenchException("--anchors: cannot read " + f + " (" + e.getMessage() + ")");
            }
            for (Anchor a : parse(f.toString(), lines)) {
                String key = a.source() + "\u0000" + a.dataset().toLowerCase(Locale.ROOT) + "\u0000" + a.keys()
                        + "\u0000" + a.workload();
                Anchor before = seen.putIfAbsent(key, a);
                if (before != null) {
                    throw new BenchException(a.file() + " line " + a.line() + ": " + a.source() + " on " + a.dataset()
                            + ", " + a.keys() + " keys, workload " + a.workload() + " has a figure already ("
                            + before.file() + " line " + before.line() + "); give each figure once");
                }
                all.add(a);
            }
        }
        return new Anchors(dir, all);
    }

    /**
     * The figures of one file's lines ({@code file} names it in messages).
     *
     * @throws BenchException naming the file and line of the first problem
     */
    public static List<Anchor> parse(String file, List<String> lines) {
        List<Anchor> out = new ArrayList<>();
        boolean header = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (i == 0 && line.startsWith("\uFEFF")) {
                line = line.substring(1); // a byte-order mark, as spreadsheets write
            }
            String t = line.strip();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            int no = i + 1;
            List<String> f = fields(file, no, line);
            if (!header) {
                List<String> names = f.stream().map(s -> s.strip().toLowerCase(Locale.ROOT)).toList();
                if (!String.join(",", names).equals(HEADER)) {
                    throw bad(file, no, "the first row must be the header " + HEADER + ", not '" + t + "'");
                }
                header = true;
                continue;
            }
            if (f.size() != 5) {
                throw bad(file, no, f.size() + " fields, expected 5 (" + HEADER + "; quote a field that holds a"
                        + " comma): '" + t + "'");
            }
            String source = f.get(0).strip();
            String dataset = f.get(1).strip();
            if (source.isEmpty() || dataset.isEmpty()) {
                throw bad(file, no, (source.isEmpty() ? "source" : "dataset") + " is empty");
            }
            long keys;
            try {
                keys = Counts.parse("keys", f.get(2));
            } catch (IllegalArgumentException e) {
                throw bad(file, no, e.getMessage());
            }
            if (keys < 1) {
                throw bad(file, no, "keys must be at least 1, got " + keys);
            }
            Workload w;
            try {
                w = Workload.parse(f.get(3));
            } catch (IllegalArgumentException e) {
                throw bad(file, no, e.getMessage());
            }
            String m = f.get(4).strip();
            if (!m.matches("[0-9]+(\\.[0-9]*)?([eE][-+]?[0-9]+)?|\\.[0-9]+")) {
                throw bad(file, no, "mops wants a positive number of million operations per second, such as 12.5,"
                        + " not '" + m + "'");
            }
            double mops = Double.parseDouble(m);
            if (!(mops > 0) || Double.isInfinite(mops)) {
                throw bad(file, no, "mops must be above 0, got " + m);
            }
            out.add(new Anchor(source, dataset, keys, w, mops, file, no));
        }
        if (!header) {
            throw new BenchException(file + ": no header (" + HEADER + ") and no figures");
        }
        return out;
    }

    /** The fields of a CSV line: commas separate, double quotes enclose, "" is a quote inside quotes. */
    private static List<String> fields(String file, int no, String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        boolean wasQuoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    cur.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    cur.append(c);
                }
            } else if (c == ',') {
                out.add(cur.toString());
                cur.setLength(0);
                wasQuoted = false;
            } else if (c == '"' && cur.toString().isBlank() && !wasQuoted) {
                cur.setLength(0);
                quoted = true;
                wasQuoted = true;
            } else if (wasQuoted && !Character.isWhitespace(c)) {
                throw bad(file, no, "text after a closing quote at column " + (i + 1));
            } else if (!wasQuoted) {
                cur.append(c);
            }
        }
        if (quoted) {
            throw bad(file, no, "a quote that is never closed");
        }
        out.add(cur.toString());
        return out;
    }

    private static BenchException bad(String file, int line, String what) {
        return new BenchException(file + " line " + line + ": " + what);
    }
}
