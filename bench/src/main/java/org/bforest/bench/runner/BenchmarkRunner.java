package org.bforest.bench.runner;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.bforest.bench.BenchException;
import org.bforest.bench.cli.BuildMode;
import org.bforest.bench.cli.Counts;
import org.bforest.bench.cli.Options;
import org.bforest.bench.datasets.Dataset;
import org.bforest.bench.datasets.Datasets;
import org.bforest.bench.structures.BatchBuffers;
import org.bforest.bench.structures.Batching;
import org.bforest.bench.structures.ClusterAdapter;
import org.bforest.bench.structures.DeviceBatchAdapter;
import org.bforest.bench.structures.IndexAdapter;
import org.bforest.bench.structures.Structure;
import org.bforest.bench.structures.Values;
import org.bforest.bench.workloads.Op;
import org.bforest.bench.workloads.Operations;
import org.bforest.bench.workloads.SlidingWindow;
import org.bforest.bench.workloads.Workload;
import org.bforest.bench.workloads.WorkloadGenerator;

/**
 * Runs the benchmark protocol of docs/DESIGN.md for every key count × dataset × workload ×
 * threads × structure asked for.
 *
 * <p>Key counts ({@code --keys}, one or a sweep of several) run in ascending order, each over
 * every dataset in turn: the dataset's keys and operations are generated for that size, used for
 * its cells and dropped before the next, so only one size's arrays are alive at a time. In a
 * sweep, a dataset that cannot be generated at a later size (a SOSD file too small for it, too
 * little heap) is a note, and the sizes that ran keep their figures.
 *
 * <p>Per cell: {@code warmups} untimed repetitions, then {@code reps} timed ones, interleaved
 * across the structures ({@link RoundRobin}: round r runs repetition r of each, starting one
 * structure further on each round). Every repetition builds the structure afresh from the sorted
 * loaded keys (build timed) and applies the same pre-generated operation stream (run timed, in
 * chunks of {@value #CHUNK} operations so that the progress display can follow; the chunking
 * costs one call per chunk); then the structure is dropped, so only one built structure is alive
 * at a time. A full GC runs before each build and before each timed run, outside the clock. The
 * first build of each structure on each dataset is also measured for memory: heap in use after
 * full GCs before and after it ({@link HeapMeter}), and the structure's own
 * {@link IndexAdapter#memoryBytes()}; after a workload that writes, the first timed repetition
 * measures both again. The figure reported is the median of the timed repetitions, with their
 * slowest and fastest.
 *
 * <p>With {@code --batch N[,N...]}, each workload of lookups, inserts and deletes (A, B, C, E,
 * F) also runs single-threaded once per batch size, each a cell of its own (A/bN, B/bN, ...): the
 * same operations through {@link IndexAdapter#runBatched}, cut as {@link Batching} says (runs of
 * one kind, at most N a call), into buffers allocated before the clock starts
 * ({@link BatchBuffers#forStream}). Their checksums must equal the workload's run one operation
 * at a time. D and W stay unbatched (a note says so).
 *
 * <p>Workload W (a sliding window, {@link SlidingWindow}) bulk-loads keys of its own, so its
 * cells build from those, and their memory after the build is measured apart from the other
 * workloads'. Its run is timed in ten tenths; between them, outside the clock, the runner reads
 * the structure's bytes per live key. It runs single-threaded only.
 *
 * <p>With {@code --snapshot} and {@code --visit-all}, each dataset at each size ends with their
 * figures ({@link SnapshotBench}, {@link VisitBench}: a full visit summing every value).
 *
 * <p>Checks on the way: each repetition must return the same checksum; single-threaded, every
 * structure must return the same checksum as the reference (treemap when it ran, else the first
 * structure) and hold the expected number of keys afterwards. A mismatch is a note: one of them
 * is wrong.
 */
public final class BenchmarkRunner {
    static final int CHUNK = 1 << 16;

    private final Options options;
    private final Progress progress;
    private final Notes notes;
    private final List<Result> results = new ArrayList<>();
    private final List<DatasetInfo> datasets = new ArrayList<>();
    private final List<SnapshotFigures> snapshots = new ArrayList<>();
    private final List<VisitFigures> visits = new ArrayList<>();
    private final SnapshotIo snapshotIo;
    /** The stabilized build of the dataset running ({@code --build stabilized}), else null. */
    private StabilizedBuild stabilized;
    private int stepsDone;

    public BenchmarkRunner(Options options, Progress progress) {
        this(options, progress, SnapshotIo.CORE);
    }

    /** A runner whose {@code --snapshot} figures go through {@code snapshotIo} (a test's, to make them fail). */
    public BenchmarkRunner(Options options, Progress progress, SnapshotIo snapshotIo) {
        this.options = options;
        this.progress = progress;
        this.notes = new Notes(progress);
        this.snapshotIo = snapshotIo;
    }

    public RunSummary run() {
        long t0 = System.nanoTime();
        Environment env = Environment.current();
        if (HeapMeter.explicitGcDisabled()) {
            notes.add("-XX:+DisableExplicitGC is set: the heap-after-GC memory figures are unreliable");
        }
        if (options.snapshots()) {
            SnapshotBench.prepare(options.snapshotDir());
        }
        List<Integer> batches = options.batches();
        // The OpenCL trees' plain cells go to the device in batches of the largest size asked for.
        DeviceBatchAdapter.useBatch(batches.isEmpty() ? 0 : batches.get(batches.size() - 1));
        ClusterAdapter.useNodes(options.nodes());
        try {
            return runAll(t0, env);
        } finally {
            ClusterAdapter.shutdown(); // the embedded Ignite nodes, if the run started them
        }
    }

    private RunSummary runAll(long t0, Environment env) {
        List<Integer> batches = options.batches();
        int cells = options.workloads().size() * options.threads().size();
        long batchable = options.workloads().stream().filter(Workload::batchable).count();
        if (options.batched() && batchable > 0 && options.threads().contains(1)) {
            cells += (int) batchable * batches.size();
            List<String> unbatched = options.workloads().stream().filter(w -> !w.batchable()).map(Workload::name)
                    .toList();
            if (!unbatched.isEmpty()) {
                notes.add("--batch: workload" + (unbatched.size() == 1 ? " " : "s ") + String.join(" and ", unbatched)
                        + (unbatched.size() == 1 ? " runs" : " run") + " unbatched only ("
                        + (unbatched.contains("D") ? "D's range scans are one call each" : "")
                        + (unbatched.size() == 2 ? "; " : "")
                        + (unbatched.contains("W") ? "W is one sequence in time, timed in tenths" : "") + ")");
            }
        } else if (options.batched()) {
            notes.add("--batch " + options.batchesText() + " had nothing to run: the batched cells run workloads A,"
                    + " B, C, E and F with 1 thread, and this run has " + (batchable > 0
                    ? "no single-threaded run" : "none of them"));
        }
        int perDataset = cells * options.structures().size() * (options.warmups() + options.reps())
                + (options.snapshots() ? SnapshotBench.steps(options) : 0)
                + (options.visitAll() ? VisitBench.steps(options) : 0);
        List<Integer> sizes = options.keys();
        progress.total(sizes.size() * options.datasets().size() * perDataset);
        for (int i = 0; i < sizes.size(); i++) {
            for (String spec : options.datasets()) {
                int before = stepsDone;
                try {
                    runDataset(spec, sizes.get(i), i);
                } catch (BenchException | OutOfMemoryError e) {
                    if (i == 0) {
                        throw e; // as without a sweep: nothing has run that a later size could keep
                    }
                    notes.add("dataset " + spec + " skipped at " + Counts.format(sizes.get(i)) + " keys: "
                            + (e instanceof OutOfMemoryError ? "ran out of heap (max heap "
                            + gb(Runtime.getRuntime().maxMemory()) + "); give the JVM more, e.g."
                            + " BFOREST_JVM_OPTS=-Xmx24g" : e.getMessage()) + "; the smaller sizes ran");
                    stepsDone = before;
                    advance(perDataset);
                }
            }
        }
        return new RunSummary(options, env, datasets, results, notes.all(), (System.nanoTime() - t0) / 1e9, null,
                snapshots, visits);
    }

    /** One dataset at one size: its keys and operations are generated here and dropped on return. */
    private void runDataset(String spec, int keys, int sizeIndex) {
        progress.step((options.sweep() ? "size " + Counts.format(keys) + " (" + (sizeIndex + 1) + "/"
                + options.keys().size() + "), " : "") + "dataset " + spec + ": generating " + Counts.format(keys)
                + " + " + Counts.format(options.ops()) + " keys");
        Dataset d;
        try {
            d = Datasets.create(spec, keys, options.ops(), options.seed(), options.sosdUnsignedShift());
        } catch (IllegalArgumentException e) {
            throw new BenchException("dataset " + spec + ": " + e.getMessage());
        }
        long[] loaded = d.loaded();
        datasets.add(new DatasetInfo(d.name(), d.description(), d.seed(), loaded.length, d.inserts().length,
                loaded[0], loaded[loaded.length - 1], d.notes()));
        d.notes().forEach(notes::add);
        Values.use(options.values(), d.seed());
        long[] values = Values.of(loaded);
        stabilized = null;
        if (options.build() == BuildMode.STABILIZED) {
            stabilized = StabilizedBuild.plan(loaded, d.seed());
            notes.add("build on " + on(d) + ": stabilized, as the CSB+-tree paper's: bulk load of "
                    + stabilized.seedKeys().length + " keys (every " + BuildMode.SEED_EVERY + "th), then "
                    + stabilized.inserts().size() + " inserts in random order; build_s includes the inserts");
        }
        Map<Structure, double[]> memory = new EnumMap<>(Structure.class);
        Map<Structure, String> unavailable = new EnumMap<>(Structure.class);
        for (Workload w : options.workloads()) {
            progress.step("dataset " + on(d) + ": generating workload " + w + " (" + w.mix() + ")");
            if (w == Workload.W) {
                slidingWindow(d, keys, unavailable);
                continue;
            }
            Operations ops = WorkloadGenerator.generate(w, d, opsAt(w, keys));
            for (int threads : options.threads()) {
                Long plain = cell(d, values, ops, threads, 0, memory, unavailable, null);
                if (batched(w, threads)) {
                    for (int b : options.batches()) {
                        cell(d, values, ops, threads, b, memory, unavailable, plain);
                    }
                }
            }
        }
        if (options.snapshots()) {
            snapshots(d, keys, values, unavailable);
        }
        if (options.visitAll()) {
            visits.addAll(new VisitBench(options, progress, notes, this::advance).run(d, on(d), values, unavailable));
        }
    }

    /**
     * {@code --snapshot} on dataset {@code d} ({@link SnapshotBench}), after its cells: the mapped
     * indexes look up workload A's keys, generated again (the same seed, so the same keys as the A
     * cell's) whether or not A ran.
     */
    private void snapshots(Dataset d, int keys, long[] values, Map<Structure, String> unavailable) {
        progress.step("dataset " + on(d) + ": --snapshot, generating workload A's lookups");
        long[] lookups = WorkloadGenerator.generate(Workload.A, d, opsAt(Workload.A, keys)).keys();
        if (!options.workloads().contains(Workload.A) || !options.threads().contains(1)) {
            notes.add("--snapshot: the lookups on the mapped snapshots are workload A's, which did not run"
                    + " single-threaded here, so they have no A figure to compare with");
        }
        SnapshotBench bench = new SnapshotBench(options, progress, notes, snapshotIo, this::advance);
        snapshots.addAll(bench.run(d, on(d), values, lookups, stabilized, unavailable));
    }

    /**
     * Workload W on dataset {@code d}: its own window of keys bulk-loaded (the dataset's keys
     * sorted, the first {@code keys} of them), its memory after the build measured on its own,
     * the stabilized build (if asked) planned over its keys; one cell per thread count (every
     * one but 1 skipped with a note).
     */
    private void slidingWindow(Dataset d, int keys, Map<Structure, String> unavailable) {
        SlidingWindow sw;
        try {
            sw = SlidingWindow.generate(d, opsAt(Workload.W, keys));
        } catch (IllegalArgumentException e) {
            throw new BenchException("dataset " + d.name() + ": " + e.getMessage());
        }
        // The tree holds the window's keys and no more, so the skip for the heap needs counts no insert.
        Dataset window = new Dataset(d.name(), d.description(), d.seed(), sw.loaded(), new long[0], d.notes());
        long[] values = Values.of(sw.loaded());
        StabilizedBuild datasetBuild = stabilized;
        if (stabilized != null) {
            stabilized = StabilizedBuild.plan(sw.loaded(), d.seed());
        }
        try {
            Map<Structure, double[]> memory = new EnumMap<>(Structure.class);
            for (int threads : options.threads()) {
                cell(window, values, sw.ops(), threads, 0, memory, unavailable, null);
            }
        } finally {
            stabilized = datasetBuild;
        }
    }

    /**
     * The operations of workload {@code w} at {@code keys} keys: {@code --ops}, but in a size sweep
     * at most {@code keys} for a workload that writes, so that it measures a tree of about the size
     * on the axis (it ends at most twice as large) and not the size its inserts grow it to.
     */
    int opsAt(Workload w, int keys) {
        if (!options.sweep() || w.readOnly() || options.ops() <= keys) {
            return options.ops();
        }
        notes.add("size sweep: workload " + w + " at " + Counts.format(keys) + " keys ran " + Counts.format(keys)
                + " operations, not " + Counts.format(options.ops()) + ", so that its writes at most double the tree");
        return keys;
    }

    /** Whether workload {@code w} also runs batched ({@code --batch}): A, B, C, E and F, one thread. */
    private boolean batched(Workload w, int threads) {
        return options.batched() && w.batchable() && threads == 1;
    }

    /** One structure's repetitions in a cell: its figures so far. */
    private static final class Reps {
        final double[] mops;
        final double[] builds;
        long checksum;
        boolean failed;
        double heapAfter = Double.NaN;
        double ownAfter = Double.NaN;
        /** Workload W: each timed repetition's Mops/s per tenth; else null. */
        final double[][] tenthMops;
        /** Workload W: bytes per live key after the load and at the end of each tenth (first timed repetition). */
        double loadBytes = Double.NaN;
        double[] tenthBytes;
        /** A device index's times per batch over the timed repetitions (DevicePhases); empty for the others. */
        final DevicePhases device;

        Reps(int reps, int steps, boolean window) {
            device = new DevicePhases(reps);
            mops = new double[reps];
            builds = new double[steps];
            tenthMops = window ? new double[reps][SlidingWindow.TENTHS] : null;
        }

        /** Workload W's figures: the median Mops/s of each tenth; null for the other workloads. */
        WindowFigures window() {
            if (tenthMops == null) {
                return null;
            }
            double[] median = new double[SlidingWindow.TENTHS];
            for (int t = 0; t < median.length; t++) {
                double[] tenth = new double[tenthMops.length];
                for (int r = 0; r < tenth.length; r++) {
                    tenth[r] = tenthMops[r][t];
                }
                median[t] = median(tenth);
            }
            return new WindowFigures(loadBytes, median, tenthBytes);
        }
    }

    /**
     * Every structure on one dataset × workload × threads (× batch), repetitions interleaved:
     * round r runs repetition r of every structure, each round starting one structure further on,
     * so a slow stretch of the machine lands on all of them alike instead of on whichever ran
     * then, and same-run ratios hold. Only one built structure is alive at a time.
     *
     * @param expected the checksum of the same operations run one at a time (a batched cell's
     *                 results must give it), or null
     * @return the checksum the cell's structures were held to (treemap's, else the first's), or
     *         null when none ran or it ran on several threads
     */
    private Long cell(Dataset d, long[] values, Operations ops, int threads, int batch,
                      Map<Structure, double[]> memory, Map<Structure, String> unavailable, Long expected) {
        Workload w = ops.workload();
        String label = Result.label(w, batch);
        int steps = options.warmups() + options.reps();
        List<Structure> active = new ArrayList<>();
        Map<Structure, Reps> reps = new EnumMap<>(Structure.class);
        for (Structure s : options.structures()) {
            String skip = skipReason(s, w, threads, d, unavailable);
            if (skip != null) {
                notes.skip(s.cliName(), label, threads, skip);
                advance(steps);
            } else {
                active.add(s);
                reps.put(s, new Reps(options.reps(), steps, w == Workload.W));
            }
        }
        BatchBuffers buffers = batch > 0 ? BatchBuffers.forStream(batch, ops) : null;
        if (buffers != null && mixed(ops) && batch == options.batches().get(options.batches().size() - 1)) {
            notes.add(String.format(Locale.ROOT, "workload %s batched on %s: a batch is a run of consecutive"
                    + " operations of one kind, so %s's batches are its runs: %.2f operations a call on average, the"
                    + " longest %d (at --batch %s)", w, on(d), w, buffers.meanLength(), buffers.longest(),
                    Counts.format(batch)));
        }
        for (int r = 0; r < steps; r++) {
            for (int j : RoundRobin.round(r, active.size())) {
                Structure s = active.get(j);
                Reps st = reps.get(s);
                if (!st.failed) {
                    repetition(s, st, r, d, values, ops, threads, buffers, memory, unavailable);
                }
            }
        }
        int first = results.size();
        for (Structure s : active) {
            Reps st = reps.get(s);
            if (!st.failed) {
                double[] mem = memory.get(s);
                results.add(new Result(s, d.name(), w, threads, batch, d.keyCount(), ops.size(), median(st.mops),
                        st.mops, median(st.builds), mem[0], mem[1], st.heapAfter, st.ownAfter, st.checksum,
                        st.window(), st.device.figures(mem[2])));
            }
        }
        if (threads == 1) {
            return compareChecksums(results.subList(first, results.size()), expected);
        }
        return null;
    }

    /** Whether the stream has operations of more than one kind (a batch then ends where its run does). */
    private static boolean mixed(Operations ops) {
        int kinds = 0;
        for (int c : ops.counts()) {
            kinds += c > 0 ? 1 : 0;
        }
        return kinds > 1;
    }

    /** Repetition {@code r} (warm-ups first) of one structure: build, run, checks. */
    private void repetition(Structure s, Reps st, int r, Dataset d, long[] values, Operations ops, int threads,
                            BatchBuffers buffers, Map<Structure, double[]> memory, Map<Structure, String> unavailable) {
        Workload w = ops.workload();
        int batch = buffers == null ? 0 : buffers.size();
        String where = Result.label(w, batch) + (threads == 1 ? "" : " with " + threads + " threads");
        String who = s.cliName();
        int steps = options.warmups() + options.reps();
        int n = d.keyCount();
        boolean timed = r >= options.warmups();
        progress.step(who + " " + d.name() + (options.sweep() ? " " + Counts.format(n) + " keys" : "") + " " + where
                + (timed ? " rep " + (r - options.warmups() + 1) + "/"
                + options.reps() : " warm-up " + (r + 1) + "/" + options.warmups()));
        boolean building = true;
        IndexAdapter a = null;
        try {
            progress.phase("build");
            boolean measure = !memory.containsKey(s);
            // After a workload that writes, the first timed repetition measures memory again.
            boolean measureAfter = !w.readOnly() && r == options.warmups();
            long before = measure || measureAfter ? HeapMeter.usedAfterGc() : 0;
            if (!measure && !measureAfter) {
                HeapMeter.collect();
            }
            a = s.newAdapter();
            if (stabilized != null && !s.updatable()) {
                throw new UnsupportedOperationException("read-only: --build stabilized grows the structure by inserts");
            }
            long b0 = System.nanoTime();
            if (stabilized != null) {
                stabilized.build(a);
            } else {
                a.build(d.loaded(), values);
            }
            st.builds[r] = (System.nanoTime() - b0) / 1e9;
            building = false;
            if (a.size() != n) {
                notes.add(who + " on " + on(d) + ": the build holds " + a.size() + " keys, expected " + n
                        + "; its figures are not comparable");
            }
            if (measure) {
                String built = a.describeBuilt();
                if (built != null) {
                    notes.add(who + " on " + on(d) + ": " + built);
                }
                long after = HeapMeter.usedAfterGc();
                memory.put(s, new double[] {(after - before) / (double) n, a.memoryBytes() / (double) n,
                        DevicePhases.deviceBytesPerKey(a, n)});
            } else {
                HeapMeter.collect();
            }
            // Workload W: bytes per live key now and after each tenth, the time of each tenth
            double loadBytes = w == Workload.W ? a.memoryBytes() / (double) Math.max(1, a.size()) : Double.NaN;
            double[] tenthSeconds = w == Workload.W ? new double[SlidingWindow.TENTHS] : null;
            double[] tenthBytes = w == Workload.W ? new double[SlidingWindow.TENTHS] : null;
            progress.phase("run");
            st.device.start(a);
            long t0 = System.nanoTime();
            long sum = buffers != null ? runBatched(a, ops, buffers)
                    : tenthSeconds != null ? runTenths(a, ops, tenthSeconds, tenthBytes)
                    : threads == 1 ? runChunks(a, ops, 0, ops.size(), true) : runThreads(a, ops, threads);
            // W's clock stops between its tenths, while the runner reads memoryBytes()
            double seconds = tenthSeconds != null ? Arrays.stream(tenthSeconds).sum() : (System.nanoTime() - t0) / 1e9;
            Blackhole.consume(sum);
            if (r == 0) {
                st.checksum = sum;
                checkSize(a, ops, n, threads, who, on(d));
            } else if (sum != st.checksum && threads == 1) {
                notes.add(who + " on " + on(d) + " workload " + where + ": repetitions returned different"
                        + " results (checksum " + st.checksum + " then " + sum + ")");
            }
            if (timed) {
                st.device.stop(a, r - options.warmups());
                st.mops[r - options.warmups()] = ops.size() / seconds / 1e6;
                if (tenthSeconds != null) {
                    int[] b = SlidingWindow.tenths(ops.size());
                    for (int t = 0; t < tenthSeconds.length; t++) {
                        st.tenthMops[r - options.warmups()][t] = (b[t + 1] - b[t]) / tenthSeconds[t] / 1e6;
                    }
                    if (r == options.warmups()) {
                        st.loadBytes = loadBytes;
                        st.tenthBytes = tenthBytes;
                    }
                }
            }
            if (measureAfter) {
                long held = Math.max(1, a.size());
                st.heapAfter = (HeapMeter.usedAfterGc() - before) / (double) held;
                st.ownAfter = a.memoryBytes() / (double) held;
            }
            advance(1);
        } catch (UnsupportedOperationException e) {
            st.failed = true;
            if (building) {
                unavailable.put(s, "not available in this build (" + what(e) + ")");
                notes.skip(who, Result.label(w, batch), threads, unavailable.get(s));
            } else {
                notes.skip(who, Result.label(w, batch), threads, "an operation is not supported (" + what(e) + ")");
            }
            advance(steps - r);
        } catch (OutOfMemoryError e) {
            st.failed = true;
            notes.add(who + " ran out of heap on " + on(d) + " workload " + where + " with " + n + " keys (max heap "
                    + gb(Runtime.getRuntime().maxMemory()) + "); give the JVM more, e.g. BFOREST_JVM_OPTS=-Xmx24g");
            advance(steps - r);
        } catch (RuntimeException e) {
            st.failed = true;
            StackTraceElement[] trace = e.getStackTrace();
            notes.add(who + " failed on " + on(d) + " workload " + where + ": " + what(e)
                    + (trace.length > 0 ? " at " + trace[0] : ""));
            advance(steps - r);
        } finally {
            if (a != null) {
                a.release();   // device memory goes back now, not when the collector gets to it
            }
        }
    }

    /**
     * The batched run, in chunks of whole windows of {@link Batching} (multiples of the batch
     * size) so that the progress display can follow without changing where a batch ends.
     */
    private long runBatched(IndexAdapter a, Operations ops, BatchBuffers buffers) {
        int chunk = Math.max(1, CHUNK / buffers.size()) * buffers.size();
        long sum = 0;
        for (int i = 0; i < ops.size(); i += chunk) {
            int end = Math.min(ops.size(), i + chunk);
            sum += a.runBatched(ops, i, end, buffers);
            progress.work(end, ops.size());
        }
        return sum;
    }

    private String skipReason(Structure s, Workload w, int threads, Dataset d, Map<Structure, String> unavailable) {
        if (unavailable.containsKey(s)) {
            return unavailable.get(s);
        }
        if (!s.updatable() && !w.readOnly()) {
            return "it is read-only (no inserts or deletes)";
        }
        if (w == Workload.W && threads > 1) {
            return "workload W runs single-threaded: a sliding window is one sequence in time (each remove takes the"
                    + " oldest key), which slices run at once would not keep";
        }
        if (threads > 1 && !s.threadSafe()) {
            return "it is not thread-safe";
        }
        if (s.roughBytesPerKey() > 0) {
            long need = (long) (s.roughBytesPerKey() * 1.2 * ((long) d.keyCount() + d.inserts().length)) + (64 << 20);
            if (need > HeapMeter.headroom() && need > HeapMeter.headroom() + freedByGc()) {
                return String.format(Locale.ROOT, "it needs about %s of heap for %s keys, more than the %s free (max"
                        + " heap %s); give the JVM more with BFOREST_JVM_OPTS=-Xmx...", gb(need),
                        Counts.format(d.keyCount()), gb(HeapMeter.headroom()), gb(Runtime.getRuntime().maxMemory()));
            }
        }
        return null;
    }

    private static long freedByGc() {
        long before = HeapMeter.headroom();
        HeapMeter.usedAfterGc();
        return HeapMeter.headroom() - before;
    }

    /** Applies {@code [from, to)} in chunks, reporting progress between them when asked. */
    private long runChunks(IndexAdapter a, Operations ops, int from, int to, boolean report) {
        long sum = 0;
        int chunk = Math.max(CHUNK, a.preferredChunk());
        for (int i = from; i < to; i += chunk) {
            int end = Math.min(to, i + chunk);
            sum += a.run(ops, i, end);
            if (report) {
                progress.work(end - from, to - from);
            }
        }
        return sum;
    }

    /**
     * Workload W's run: the ten tenths of {@link SlidingWindow#tenths} one after the other, each
     * in chunks as {@link #runChunks} runs them, its time into {@code seconds[t]}; after each, the
     * clock stopped, the structure's bytes per live key into {@code bytesPerKey[t]}.
     */
    private long runTenths(IndexAdapter a, Operations ops, double[] seconds, double[] bytesPerKey) {
        int[] b = SlidingWindow.tenths(ops.size());
        int chunk = Math.max(CHUNK, a.preferredChunk());
        long sum = 0;
        for (int t = 0; t < SlidingWindow.TENTHS; t++) {
            long t0 = System.nanoTime();
            for (int i = b[t]; i < b[t + 1]; i += chunk) {
                int end = Math.min(b[t + 1], i + chunk);
                sum += a.run(ops, i, end);
                progress.work(end, ops.size());
            }
            seconds[t] = (System.nanoTime() - t0) / 1e9;
            bytesPerKey[t] = a.memoryBytes() / (double) Math.max(1, a.size());
        }
        return sum;
    }

    /** Splits the operations into {@code t} contiguous slices run at once; the clock covers them all. */
    private long runThreads(IndexAdapter a, Operations ops, int t) throws RuntimeException {
        CountDownLatch start = new CountDownLatch(1);
        long[] sums = new long[t];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] workers = new Thread[t];
        int n = ops.size();
        for (int i = 0; i < t; i++) {
            int id = i;
            int from = (int) ((long) n * i / t);
            int to = (int) ((long) n * (i + 1) / t);
            workers[i] = Thread.ofPlatform().name("bforest-worker-" + i).start(() -> {
                try {
                    start.await();
                    sums[id] = runChunks(a, ops, from, to, id == 0);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
        }
        start.countDown();
        for (Thread worker : workers) {
            try {
                worker.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
        Throwable e = failure.get();
        if (e instanceof RuntimeException re) {
            throw re;
        }
        if (e instanceof Error err) {
            throw err;
        }
        if (e != null) {
            throw new IllegalStateException(e);
        }
        long sum = 0;
        for (long s : sums) {
            sum += s;
        }
        return sum;
    }

    private void checkSize(IndexAdapter a, Operations ops, int n, int threads, String who, String dataset) {
        long expected = (long) n + ops.counts()[Op.INSERT] - ops.counts()[Op.DELETE];
        long size = a.size();
        if (threads == 1 && size != expected) {
            notes.add(who + " on " + dataset + " workload " + ops.workload() + ": holds " + size + " keys afterwards,"
                    + " expected " + expected);
        }
    }

    /**
     * Notes every result of a single-threaded cell whose checksum differs from the reference
     * (treemap's, else the first's), and, for a batched cell, from {@code expected}, the
     * workload's one operation at a time; returns the reference, or null for an empty cell.
     */
    private Long compareChecksums(List<Result> cell, Long expected) {
        if (cell.isEmpty()) {
            return null;
        }
        if (expected != null) {
            for (Result r : cell) {
                if (r.checksum() != expected) {
                    notes.add(r.structure().cliName() + " on " + r.dataset() + (options.sweep() ? " at "
                            + Counts.format(r.keys()) + " keys" : "") + " workload " + r.label() + " returned"
                            + " different results from workload " + r.workload() + " run one operation at a time"
                            + " (checksum " + r.checksum() + " vs " + expected + "): the batched run is wrong");
                }
            }
        }
        Result ref = cell.get(0);
        for (Result r : cell) {
            if (r.structure() == Structure.TREEMAP) {
                ref = r;
            }
        }
        for (Result r : cell) {
            if (r.checksum() != ref.checksum()) {
                notes.add(r.structure().cliName() + " on " + r.dataset() + (options.sweep() ? " at "
                        + Counts.format(r.keys()) + " keys" : "") + " workload " + r.label()
                        + " returned different results from " + ref.structure().cliName() + " (checksum "
                        + r.checksum() + " vs " + ref.checksum() + "): one of them is wrong");
            }
        }
        return ref.checksum();
    }

    /** The dataset's name for a note; in a sweep, with its size ("uniform at 10K keys"). */
    private String on(Dataset d) {
        return options.sweep() ? d.name() + " at " + Counts.format(d.keyCount()) + " keys" : d.name();
    }

    private void advance(int steps) {
        stepsDone += steps;
        progress.stepsDone(stepsDone);
    }

    static double median(double[] a) {
        if (a.length == 0) {
            return Double.NaN;
        }
        double[] s = a.clone();
        Arrays.sort(s);
        int m = s.length / 2;
        return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
    }

    private static String what(Throwable e) {
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    static String gb(long bytes) {
        return String.format(Locale.ROOT, "%.1f GB", bytes / 1e9);
    }
}
