package org.bforest.bench.output;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.bforest.bench.runner.DeviceFigures;
import org.bforest.bench.runner.Result;
import org.bforest.bench.runner.RunSummary;

/**
 * The results as CSV: exactly the header {@value #HEADER}, then one row per structure × dataset ×
 * workload × threads that was measured (skipped cells have no row; the notes say why).
 * {@code mops} is the median Mops/s, {@code build_s} the median build seconds,
 * {@code bytes_per_key} the heap growth across the build after full GCs, per key. The columns
 * after it were added later, at the end, so readers of the first nine still work:
 * {@code mops_min} and {@code mops_max}, the slowest and fastest of the {@code reps} timed
 * repetitions; {@code batch}, the keys per {@code getAll} call of a batched lookup row (0
 * otherwise); {@code bytes_per_key_after}, the heap per key held after a workload that writes
 * (empty after a read-only one); {@code values}, the value mode; {@code commit}, {@code cpu} and
 * {@code vector}, what was measured where: the bforest commit, the CPU model and the node-search
 * kernel (the Vector API width, or scalar). Then workload W's figures over time, filled on its
 * rows only (empty on the others): {@code w_bytes_per_key_load}, the structure's bytes per live
 * key ({@code memoryBytes() / size()}) right after the bulk load; {@code w_bytes_per_key_1} to
 * {@code _10}, the same at the end of each tenth of the operations (both from the first timed
 * repetition); {@code w_mops_1} to {@code _10}, each tenth's Mops/s (the median of the timed
 * repetitions). So "memory per live key after the run at most 1.5 times the figure after the
 * load" is {@code w_bytes_per_key_10 <= 1.5 * w_bytes_per_key_load}, and "the last tenth at
 * least 0.8 times as fast as the first" is {@code w_mops_10 >= 0.8 * w_mops_1}.
 *
 * <p>With {@code --snapshot}, rows of workload {@code snapshot} follow, per dataset and size: one
 * per bforest structure (its cliName), then {@code disk}, {@code treemap-serialization} and
 * {@code fastutil-binio}. Their {@code ops} is the lookups run on the mapped snapshot and
 * {@code mops}, {@code mops_min}, {@code mops_max} their Mops/s (a structure's rows only);
 * {@code build_s} and the memory columns are empty; then the {@code snap_} columns, empty on every
 * other row: {@code snap_entries} (the entries the file holds; the Java serialization stops at
 * 10M), {@code snap_bytes} (the file's length), {@code snap_bytes_per_key}, the save and load
 * seconds (median, slowest, fastest; the disk row's are its write and read) and their GB/s (file
 * bytes over the median), the same for the cold load ({@code snap_cold_load_}: the file's pages
 * dropped from the page cache first; empty where they cannot be), {@code snap_map_ms} (median,
 * slowest, fastest), the ratios {@code snap_mapped_vs_a} (mapped lookups over the structure's own
 * A), {@code snap_save_vs_disk}, {@code snap_load_vs_disk}, {@code snap_cold_load_vs_disk} (GB/s
 * over the disk's) and {@code snap_load_vs_treemap} (entries a second over the Java
 * deserialization's), {@code snap_kind} (what {@code Indexes.load} builds) and
 * {@code snap_load_kind} (what it built, when that differs).
 *
 * <p>The last columns, added after the snapshot's: {@code bytes_per_key_own}, the structure's own
 * accounting after the build ({@code memoryBytes() / size()}, every structure: beside
 * {@code bytes_per_key}, which is the heap alone, it is what an OpenCL index holds in device memory
 * too); then, on the rows of a device index (the OpenCL trees, {@code org.bforest.opencl.DeviceIndex})
 * and empty on the others, {@code device_bytes_per_key} ({@code deviceBytes() / size()} after the
 * build) and where its batches' time went: {@code batches}, the batch calls a repetition;
 * {@code batch_ms}, the wall time a batch call; {@code host_ms}, the part of it the host worked
 * (sorting, planning, copying); {@code transfer_ms} and {@code kernel_ms}, device time a batch in
 * transfers and in kernels (the driver's profiling: they may overlap host work, so the parts need
 * not add up to {@code batch_ms}); {@code host_share}, {@code host_ms / batch_ms};
 * {@code heap_kb_batch}, the heap memory every thread of the JVM allocated a batch call, KiB (what
 * the tree allocates on the host: the runner's and the adapter's batch arrays are made before the
 * run; a plain cell's mixed batches add the adapter's map of the batch's keys; each repetition's
 * tree is built afresh, so arrays a tree keeps from batch to batch count in its first). Each is the
 * median over the timed repetitions of that repetition's figure (its sums divided by its batches),
 * not a sum. Then {@code driver_ms}, the part of {@code host_ms} inside the driver's calls that
 * do not wait (enqueues of launches and transfers, buffer creations and releases, the events'
 * queries: on a GPU's driver, what of the host's time is the driver's), and {@code calls_batch},
 * the device calls a batch call made (buffer creations, transfers, fills, launches, waits).
 * Snapshot rows leave all of them empty.
 *
 * <p>With {@code --visit-all}, rows of workload {@code visit} follow, per dataset and size, one
 * per structure, in these columns only ({@link VisitTables}): {@code ops} is the entries a full
 * visit went over, {@code mops}, {@code mops_min} and {@code mops_max} million entries visited a
 * second (median, slowest, fastest of the {@code reps}); the build, memory, W and {@code snap_}
 * columns are empty.
 *
 * <p>A batched lookup row's {@code workload} is its own name, {@code A/b} and the batch size
 * ("A/b1024"), not "A": a reader that keys rows by structure, dataset, workload and threads
 * (every reader of the first nine columns) must not take it for workload A's row.
 */
public final class CsvWriter {
    public static final String HEADER = "structure,dataset,workload,threads,keys,ops,mops,build_s,bytes_per_key,"
            + "mops_min,mops_max,reps,batch,bytes_per_key_after,values,commit,cpu,vector,"
            // workload W's (WindowTables.CSV_COLUMNS, spelt out so that the header is a constant)
            + "w_bytes_per_key_load,w_bytes_per_key_1,w_bytes_per_key_2,w_bytes_per_key_3,"
            + "w_bytes_per_key_4,w_bytes_per_key_5,w_bytes_per_key_6,w_bytes_per_key_7,w_bytes_per_key_8,"
            + "w_bytes_per_key_9,w_bytes_per_key_10,w_mops_1,w_mops_2,w_mops_3,w_mops_4,w_mops_5,w_mops_6,"
            + "w_mops_7,w_mops_8,w_mops_9,w_mops_10,"
            // --snapshot's (SnapshotTables.CSV_COLUMNS)
            + "snap_entries,snap_bytes,snap_bytes_per_key,snap_save_s,snap_save_s_min,snap_save_s_max,snap_save_gbps,"
            + "snap_load_s,snap_load_s_min,snap_load_s_max,snap_load_gbps,snap_cold_load_s,snap_cold_load_s_min,"
            + "snap_cold_load_s_max,snap_cold_load_gbps,snap_map_ms,snap_map_ms_min,snap_map_ms_max,snap_mapped_vs_a,"
            + "snap_save_vs_disk,snap_load_vs_disk,snap_cold_load_vs_disk,snap_load_vs_treemap,snap_kind,"
            + "snap_load_kind,"
            // the structure's own bytes a key, and a device index's memory and time per batch (DEVICE_COLUMNS)
            + "bytes_per_key_own,device_bytes_per_key,batches,batch_ms,host_ms,transfer_ms,kernel_ms,host_share,"
            + "heap_kb_batch,driver_ms,calls_batch";

    /** The columns after the snapshot's: {@link #deviceCsv}. */
    static final int DEVICE_COLUMNS = 11;

    private CsvWriter() {
    }

    public static void write(RunSummary run, Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            write(run, w);
        }
    }

    public static void write(RunSummary run, Appendable out) throws IOException {
        out.append(HEADER).append('\n');
        String where = String.join(",", quote(run.options().values().cliName()),
                quote(run.environment().commit()), quote(run.environment().machine().cpuModel()),
                quote(run.environment().nodeSearch()));
        for (Result r : run.results()) {
            out.append(row(r)).append(',').append(where).append(',').append(WindowTables.csv(r)).append(',')
                    .append(SnapshotTables.csvEmpty()).append(',').append(deviceCsv(r)).append('\n');
        }
        for (String row : SnapshotTables.csvRows(run, where)) {
            out.append(row).append(',').append(",".repeat(DEVICE_COLUMNS - 1)).append('\n');
        }
        for (String row : VisitTables.csvRows(run, where)) {
            out.append(row).append(',').append(",".repeat(DEVICE_COLUMNS - 1)).append('\n');
        }
    }

    static String row(Result r) {
        return String.join(",", quote(r.structure().cliName()), quote(r.dataset()), r.label(),
                Integer.toString(r.threads()), Integer.toString(r.keys()), Integer.toString(r.ops()),
                number(r.mops(), 4), number(r.buildSeconds(), 4), number(r.heapBytesPerKey(), 2),
                number(r.mopsMin(), 4), number(r.mopsMax(), 4), Integer.toString(r.repMops().length),
                Integer.toString(r.batch()), number(r.heapBytesAfter(), 2));
    }

    /** The last {@link #DEVICE_COLUMNS} columns of a result's row. */
    static String deviceCsv(Result r) {
        DeviceFigures d = r.device();
        String own = number(r.ownBytesPerKey(), 2);
        if (d == null) {
            return own + ",".repeat(DEVICE_COLUMNS - 1);
        }
        return String.join(",", own, number(d.deviceBytesPerKey(), 2), number(d.batches(), 1), number(d.batchMs(), 3),
                number(d.hostMs(), 3), number(d.transferMs(), 3), number(d.kernelMs(), 3), number(d.hostShare(), 3),
                number(d.heapKbBatch(), 1), number(d.driverMs(), 3), number(d.callsBatch(), 1));
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
