package org.bforest.bench.runner;

import java.util.Arrays;
import org.bforest.bench.structures.Structure;

/**
 * One row of {@code --snapshot}'s figures on one dataset at one size: a bforest structure's
 * snapshot saved, loaded and mapped, or one of the rows beside them (the disk's own speed, the Java
 * serializations). Times are each timed repetition's, in order; the figures are their median, with
 * the slowest and fastest.
 *
 * @param row         what the row measured
 * @param structure   the structure, for a {@link Row#STRUCTURE} row; else null
 * @param entries     the entries the file holds (a {@link Row#TREEMAP_SERIALIZATION} row stops at
 *                    {@value SnapshotBench#MAX_SERIALIZED}); 0 for the disk row
 * @param bytes       the file's length (both files for {@link Row#BINIO})
 * @param saveSeconds each repetition's save (the disk row: its write, with {@code force})
 * @param loadSeconds each repetition's load (the disk row: its read), of a file just written, so
 *                    from the page cache
 * @param coldLoadSeconds each repetition's load (read) again, the file's pages dropped from the page
 *                    cache first ({@link PageCache}); empty where they could not be
 * @param mapMillis   each repetition's {@code Indexes.map} until it returned; empty but on a structure's row
 * @param mappedMops  each repetition's lookups on the mapped index, Mops/s; empty but on a structure's row
 * @param lookups     the lookups timed on the mapped index (workload A's), 0 but on a structure's row
 * @param kind        what {@code Indexes.load} builds from the snapshot (the structure's
 *                    {@code kind()}); null but on a structure's row
 * @param loadKind    what it built, when that differs from {@code kind}; else null
 */
public record SnapshotFigures(Row row, Structure structure, String dataset, int keys, long entries, long bytes,
                              double[] saveSeconds, double[] loadSeconds, double[] coldLoadSeconds,
                              double[] mapMillis, double[] mappedMops,
                              int lookups, String kind, String loadKind) {

    /** What a row measured, and its name in the table and the CSV's structure column. */
    public enum Row {
        /** A bforest structure's snapshot. */
        STRUCTURE(null),
        /** The disk's sequential write (with {@code force(true)}) and read of a file of the largest snapshot's size. */
        DISK("disk"),
        /** A {@code TreeMap<Long, Long>} through {@code ObjectOutputStream} and {@code ObjectInputStream}. */
        TREEMAP_SERIALIZATION("treemap-serialization"),
        /** fastutil's {@code BinIO.storeLongs} and {@code loadLongs} of the keys and the values arrays. */
        BINIO("fastutil-binio");

        private final String label;

        Row(String label) {
            this.label = label;
        }

        /** The row's name in the table and the CSV; null for {@link #STRUCTURE}, named by its structure. */
        public String label() {
            return label;
        }
    }

    /** The row's name: the structure's, or the baseline's. */
    public String name() {
        return row == Row.STRUCTURE ? structure.cliName() : row.label;
    }

    public double save() {
        return median(saveSeconds);
    }

    public double saveMin() {
        return min(saveSeconds);
    }

    public double saveMax() {
        return max(saveSeconds);
    }

    /** File bytes over the median save, in 10^9 bytes a second. */
    public double saveGbps() {
        return bytes / save() / 1e9;
    }

    public double load() {
        return median(loadSeconds);
    }

    public double loadMin() {
        return min(loadSeconds);
    }

    public double loadMax() {
        return max(loadSeconds);
    }

    /** File bytes over the median load, in 10^9 bytes a second. */
    public double loadGbps() {
        return bytes / load() / 1e9;
    }

    public double coldLoad() {
        return median(coldLoadSeconds);
    }

    public double coldLoadMin() {
        return min(coldLoadSeconds);
    }

    public double coldLoadMax() {
        return max(coldLoadSeconds);
    }

    /** File bytes over the median cold load, in 10^9 bytes a second; NaN without cold loads. */
    public double coldLoadGbps() {
        return bytes / coldLoad() / 1e9;
    }

    /** Entries loaded a second (the load's speed in the file's own terms, whatever its format). */
    public double loadEntriesPerSecond() {
        return entries / load();
    }

    public double map() {
        return median(mapMillis);
    }

    public double mapMin() {
        return min(mapMillis);
    }

    public double mapMax() {
        return max(mapMillis);
    }

    public double mapped() {
        return median(mappedMops);
    }

    public double mappedMin() {
        return min(mappedMops);
    }

    public double mappedMax() {
        return max(mappedMops);
    }

    /** File bytes per entry; NaN for the disk row. */
    public double bytesPerKey() {
        return entries > 0 ? bytes / (double) entries : Double.NaN;
    }

    static double median(double[] a) {
        return BenchmarkRunner.median(a);
    }

    private static double min(double[] a) {
        return a.length == 0 ? Double.NaN : Arrays.stream(a).min().getAsDouble();
    }

    private static double max(double[] a) {
        return a.length == 0 ? Double.NaN : Arrays.stream(a).max().getAsDouble();
    }
}
