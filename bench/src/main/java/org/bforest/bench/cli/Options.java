package org.bforest.bench.cli;

import java.nio.file.Path;
import java.util.List;
import org.bforest.bench.structures.Structure;
import org.bforest.bench.workloads.Workload;

/**
 * Everything one benchmark run needs to know, parsed from the command line by
 * {@link OptionsParser}.
 *
 * @param keys        the key counts to bulk-load, ascending and distinct: one, or several for a
 *                    size sweep (every size runs every dataset and workload)
 * @param seed        overrides every dataset's own seed when non-null
 * @param csv         where to write the CSV, or null
 * @param reportDir   where to write the report, or null
 * @param help        print the help and do nothing else
 * @param values      the value each key carries
 * @param batches     the batch sizes ({@code --batch}: keys a call, ascending and distinct; empty
 *                    when off): each runs every batchable workload (A, B, C, E, F) a second time,
 *                    single-threaded, as a cell of its own (A/bN, B/bN, ...)
 * @param anchors     reference figures of outside programs ({@code --anchors}); {@link Anchors#NONE}
 *                    without the option
 * @param snapshotDir where {@code --snapshot} writes its files (every bforest structure's snapshot,
 *                    saved, loaded and mapped after the usual cells, beside the disk's own speed and
 *                    the Java serializations), or null without the option
 * @param visitAll    {@code --visit-all}: after the usual cells, per dataset and size, every
 *                    structure built once and a full visit summing every value timed (a device
 *                    tree's pass on the device, every other structure's own visit)
 */
public record Options(List<Structure> structures, List<String> datasets, List<Integer> keys, int ops,
                      List<Workload> workloads, List<Integer> threads, Long seed, int reps, int warmups,
                      Path csv, Path reportDir, boolean sosdUnsignedShift, ProgressMode progress, String scale,
                      boolean help, ValueMode values, List<Integer> batches, BuildMode build,
                      Anchors anchors, Path snapshotDir, int nodes, boolean visitAll) {

    /** The default run: every structure, workloads A to E, sized to finish in minutes. */
    public static final int DEFAULT_KEYS = 1_000_000;
    public static final int DEFAULT_OPS = 250_000;
    /** The paper's scale (§8.1): 150M keys bulk-loaded, 50M operations. */
    public static final int PAPER_KEYS = 150_000_000;
    public static final int PAPER_OPS = 50_000_000;
    public static final int DEFAULT_REPS = 3;
    /** Server nodes of the embedded Ignite cluster the Ignite structures run on ({@code --nodes}). */
    public static final int DEFAULT_NODES = 3;
    public static final int DEFAULT_WARMUPS = 1;

    public Options {
        structures = List.copyOf(structures);
        datasets = List.copyOf(datasets);
        keys = List.copyOf(keys);
        workloads = List.copyOf(workloads);
        threads = List.copyOf(threads);
        batches = List.copyOf(batches);
        anchors = anchors == null ? Anchors.NONE : anchors;
    }

    /** Options without {@code --snapshot}. */
    public Options(List<Structure> structures, List<String> datasets, List<Integer> keys, int ops,
                   List<Workload> workloads, List<Integer> threads, Long seed, int reps, int warmups,
                   Path csv, Path reportDir, boolean sosdUnsignedShift, ProgressMode progress, String scale,
                   boolean help, ValueMode values, List<Integer> batches, BuildMode build, Anchors anchors) {
        this(structures, datasets, keys, ops, workloads, threads, seed, reps, warmups, csv, reportDir,
                sosdUnsignedShift, progress, scale, help, values, batches, build, anchors, null, DEFAULT_NODES);
    }

    /** Options with {@code --snapshot} and the default {@code --nodes}. */
    public Options(List<Structure> structures, List<String> datasets, List<Integer> keys, int ops,
                   List<Workload> workloads, List<Integer> threads, Long seed, int reps, int warmups,
                   Path csv, Path reportDir, boolean sosdUnsignedShift, ProgressMode progress, String scale,
                   boolean help, ValueMode values, List<Integer> batches, BuildMode build, Anchors anchors,
                   Path snapshotDir) {
        this(structures, datasets, keys, ops, workloads, threads, seed, reps, warmups, csv, reportDir,
                sosdUnsignedShift, progress, scale, help, values, batches, build, anchors, snapshotDir, DEFAULT_NODES);
    }

    /** Options without {@code --visit-all}. */
    public Options(List<Structure> structures, List<String> datasets, List<Integer> keys, int ops,
                   List<Workload> workloads, List<Integer> threads, Long seed, int reps, int warmups,
                   Path csv, Path reportDir, boolean sosdUnsignedShift, ProgressMode progress, String scale,
                   boolean help, ValueMode values, List<Integer> batches, BuildMode build, Anchors anchors,
                   Path snapshotDir, int nodes) {
        this(structures, datasets, keys, ops, workloads, threads, seed, reps, warmups, csv, reportDir,
                sosdUnsignedShift, progress, scale, help, values, batches, build, anchors, snapshotDir, nodes, false);
    }

    /** Whether {@code --snapshot} asked for the snapshot figures. */
    public boolean snapshots() {
        return snapshotDir != null;
    }

    /** Whether {@code --batch} asked for batched cells. */
    public boolean batched() {
        return !batches.isEmpty();
    }

    /** The batch sizes the short way, joined: "1024", or "16, 1K, 64K". */
    public String batchesText() {
        return String.join(", ", batches.stream().map(b -> Counts.format(b)).toList());
    }

    /** Whether this is a size sweep: more than one key count. */
    public boolean sweep() {
        return keys.size() > 1;
    }

    /** The key counts the short way, joined: "1M", or "1K, 10K, 100K" for a sweep. */
    public String keysText() {
        return String.join(", ", keys.stream().map(k -> Counts.format(k)).toList());
    }
}
