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
import org.bforest.bench.cli.Counts;
import org.bforest.bench.cli.Options;
import org.bforest.bench.datasets.Dataset;
import org.bforest.bench.datasets.Datasets;
import org.bforest.bench.structures.IndexAdapter;
import org.bforest.bench.structures.Structure;
import org.bforest.bench.structures.Values;
import org.bforest.bench.workloads.Op;
import org.bforest.bench.workloads.Operations;
import org.bforest.bench.workloads.Workload;
import org.bforest.bench.workloads.WorkloadGenerator;

/**
 * Runs the benchmark protocol of docs/DESIGN.md for every dataset × workload × threads ×
 * structure asked for.
 *
 * <p>Per cell: {@code warmups} untimed repetitions, then {@code reps} timed ones; every
 * repetition builds the structure afresh from the sorted loaded keys (build timed) and applies
 * the same pre-generated operation stream (run timed, in chunks of {@value #CHUNK} operations so
 * that the progress display can follow; the chunking costs one call per chunk). A full GC runs
 * before each build and before each timed run, outside the clock. The first build of each
 * structure on each dataset is also measured for memory: heap in use after full GCs before and
 * after it ({@link HeapMeter}), and the structure's own {@link IndexAdapter#memoryBytes()}.
 * The figure reported is the median of the timed repetitions.
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
    private int stepsDone;

    public BenchmarkRunner(Options options, Progress progress) {
        this.options = options;
        this.progress = progress;
        this.notes = new Notes(progress);
    }

    public RunSummary run() {
        long t0 = System.nanoTime();
        Environment env = Environment.current();
        if (HeapMeter.explicitGcDisabled()) {
            notes.add("-XX:+DisableExplicitGC is set: the heap-after-GC memory figures are unreliable");
        }
        progress.total(options.datasets().size() * options.workloads().size() * options.threads().size()
                * options.structures().size() * (options.warmups() + options.reps()));
        for (String spec : options.datasets()) {
            runDataset(spec);
        }
        return new RunSummary(options, env, datasets, results, notes.all(), (System.nanoTime() - t0) / 1e9);
    }

    private void runDataset(String spec) {
        progress.step("dataset " + spec + ": generating " + Counts.format(options.keys()) + " + "
                + Counts.format(options.ops()) + " keys");
        Dataset d;
        try {
            d = Datasets.create(spec, options.keys(), options.ops(), options.seed(), options.sosdUnsignedShift());
        } catch (IllegalArgumentException e) {
            throw new BenchException("dataset " + spec + ": " + e.getMessage());
        }
        long[] loaded = d.loaded();
        datasets.add(new DatasetInfo(d.name(), d.description(), d.seed(), loaded.length, d.inserts().length,
                loaded[0], loaded[loaded.length - 1], d.notes()));
        d.notes().forEach(notes::add);
        long[] values = Values.of(loaded);
        Map<Structure, double[]> memory = new EnumMap<>(Structure.class);
        Map<Structure, String> unavailable = new EnumMap<>(Structure.class);
        for (Workload w : options.workloads()) {
            progress.step("dataset " + d.name() + ": generating workload " + w + " (" + w.mix() + ")");
            Operations ops = WorkloadGenerator.generate(w, d, options.ops());
            for (int threads : options.threads()) {
                int first = results.size();
                for (Structure s : options.structures()) {
                    cell(s, d, values, ops, threads, memory, unavailable);
                }
                if (threads == 1) {
                    compareChecksums(results.subList(first, results.size()));
                }
            }
        }
    }

    private void cell(Structure s, Dataset d, long[] values, Operations ops, int threads,
                      Map<Structure, double[]> memory, Map<Structure, String> unavailable) {
        Workload w = ops.workload();
        String where = threads == 1 ? w.name() : w.name() + " with " + threads + " threads";
        String who = s.cliName();
        int steps = options.warmups() + options.reps();
        String skip = skipReason(s, w, threads, d, unavailable);
        if (skip != null) {
            notes.skip(who, w.name(), threads, skip);
            advance(steps);
            return;
        }
        int n = d.keyCount();
        String label = who + " " + d.name() + " " + where;
        double[] mops = new double[options.reps()];
        double[] builds = new double[steps];
        long checksum = 0;
        int r = 0;
        boolean building = true;
        try {
            IndexAdapter a = null;
            for (; r < steps; r++) {
                progress.step(label + (r < options.warmups() ? " warm-up " + (r + 1) + "/" + options.warmups()
                        : " rep " + (r - options.warmups() + 1) + "/" + options.reps()));
                progress.phase("build");
                building = true;
                a = null;
                boolean measure = !memory.containsKey(s);
                long before = measure ? HeapMeter.usedAfterGc() : 0;
                if (!measure) {
                    HeapMeter.collect();
                }
                IndexAdapter fresh = s.newAdapter();
                long b0 = System.nanoTime();
                fresh.build(d.loaded(), values);
                builds[r] = (System.nanoTime() - b0) / 1e9;
                a = fresh;
                building = false;
                if (a.size() != n) {
                    notes.add(who + " on " + d.name() + ": the build holds " + a.size() + " keys, expected " + n
                            + "; its figures are not comparable");
                }
                if (measure) {
                    String built = a.describeBuilt();
                    if (built != null) {
                        notes.add(who + " on " + d.name() + ": " + built);
                    }
                    long after = HeapMeter.usedAfterGc();
                    memory.put(s, new double[] {(after - before) / (double) n, a.memoryBytes() / (double) n});
                } else {
                    HeapMeter.collect();
                }
                progress.phase("run");
                long t0 = System.nanoTime();
                long sum = threads == 1 ? runChunks(a, ops, 0, ops.size(), true) : runThreads(a, ops, threads);
                double seconds = (System.nanoTime() - t0) / 1e9;
                Blackhole.consume(sum);
                if (r == 0) {
                    checksum = sum;
                    checkSize(a, ops, n, threads, who, d.name());
                } else if (sum != checksum && threads == 1) {
                    notes.add(who + " on " + d.name() + " workload " + w + ": repetitions returned different"
                            + " results (checksum " + checksum + " then " + sum + ")");
                }
                if (r >= options.warmups()) {
                    mops[r - options.warmups()] = ops.size() / seconds / 1e6;
                }
                advance(1);
            }
            double[] mem = memory.get(s);
            results.add(new Result(s, d.name(), w, threads, n, ops.size(), median(mops), mops, median(builds),
                    mem[0], mem[1], checksum));
        } catch (UnsupportedOperationException e) {
            if (building) {
                unavailable.put(s, "not available in this build (" + what(e) + ")");
                notes.skip(who, w.name(), threads, unavailable.get(s));
            } else {
                notes.skip(who, w.name(), threads, "an operation is not supported (" + what(e) + ")");
            }
            advance(steps - r);
        } catch (OutOfMemoryError e) {
            notes.add(who + " ran out of heap on " + d.name() + " workload " + w + " with " + n + " keys (max heap "
                    + gb(Runtime.getRuntime().maxMemory()) + "); give the JVM more, e.g. BFOREST_JVM_OPTS=-Xmx24g");
            advance(steps - r);
        } catch (RuntimeException e) {
            StackTraceElement[] st = e.getStackTrace();
            notes.add(who + " failed on " + d.name() + " workload " + w + ": " + what(e)
                    + (st.length > 0 ? " at " + st[0] : ""));
            advance(steps - r);
        }
    }

    private String skipReason(Structure s, Workload w, int threads, Dataset d, Map<Structure, String> unavailable) {
        if (unavailable.containsKey(s)) {
            return unavailable.get(s);
        }
        if (!s.updatable() && !w.readOnly()) {
            return "it is read-only (no inserts or deletes)";
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
        for (int i = from; i < to; i += CHUNK) {
            int end = Math.min(to, i + CHUNK);
            sum += a.run(ops, i, end);
            if (report) {
                progress.work(end - from, to - from);
            }
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

    private void compareChecksums(List<Result> cell) {
        if (cell.size() < 2) {
            return;
        }
        Result ref = cell.get(0);
        for (Result r : cell) {
            if (r.structure() == Structure.TREEMAP) {
                ref = r;
            }
        }
        for (Result r : cell) {
            if (r.checksum() != ref.checksum()) {
                notes.add(r.structure().cliName() + " on " + r.dataset() + " workload " + r.workload()
                        + " returned different results from " + ref.structure().cliName() + " (checksum "
                        + r.checksum() + " vs " + ref.checksum() + "): one of them is wrong");
            }
        }
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
