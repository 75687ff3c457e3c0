package org.bforest.bench.jmh;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.bforest.Indexes;
import org.bforest.LongIndex;
import org.bforest.bench.cli.Counts;
import org.bforest.bench.datasets.Dataset;
import org.bforest.bench.datasets.SyntheticDatasets;
import org.bforest.bench.structures.IndexAdapter;
import org.bforest.bench.structures.Structure;
import org.bforest.bench.structures.Values;
import org.bforest.bench.workloads.Operations;
import org.bforest.bench.workloads.Workload;
import org.bforest.bench.workloads.WorkloadGenerator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Whole-structure lookups and inserts, one structure per forked JVM, through the bench's own
 * {@link IndexAdapter} and {@link Structure} enum (caffeine's {@code BasicCache} +
 * {@code CacheType} shape): the same adapters, builds and checksums as {@code ./bforest bench},
 * with JMH's forks, warm-up and error bars around them. Scores are operations per microsecond,
 * i.e. millions of operations per second.
 *
 * <p>Keys: the bench's {@code uniform} dataset ({@link SyntheticDatasets#uniform}, splitmix64
 * seed 1, uniform in [0, 2^63)) with {@code keys} loaded keys, {@code -p keys=1M} by default
 * ({@code -p keys=1M,10M} for both sizes; counts as {@code ./bforest bench --keys} reads them).
 * Structures are built as the runner builds them (bulk load where there is one).
 *
 * <ul>
 *   <li>{@link #lookup}: {@value #BATCH} look-ups of present keys per invocation, from
 *       {@value #LOOKUPS} keys drawn uniformly from the loaded ones before timing (workload A's
 *       generator), batch after batch. Structures: bstree, treemap, fastutil-avl, skiplist,
 *       sorted-array.</li>
 *   <li>{@link #getAll}: the same look-ups, {@value #BATCH} at a time through
 *       {@link LongIndex#getAll} on a BS-tree (the batched API that overlaps the misses of
 *       independent descents).</li>
 *   <li>{@link #insert}: {@value #BATCH} inserts of new keys per invocation (the dataset's insert
 *       keys, in order: workload B's generator). The structure is rebuilt from the N loaded keys
 *       at the start of every iteration, and again, outside the timed region, whenever the
 *       next batch would take it past N + N/10 keys; so every insert lands in a structure of
 *       N to 1.1 N keys, whatever its speed. Each rebuild runs a full GC before and after the
 *       build, as the runner does, so the old structure's garbage is not charged to the inserts.
 *       Structures: bstree, treemap, fastutil-avl, skiplist (sorted-array cannot insert).</li>
 * </ul>
 *
 * <p>Run: {@code ./bforest jmh IndexBenchmark} (1M keys); {@code ./bforest jmh IndexBenchmark
 * -p keys=10M} for 10M (about 1 GB of heap for the boxed peers; the forks get the JVM's default
 * heap, a quarter of the RAM, unless {@code -jvmArgsAppend -Xmx..} says otherwise);
 * {@code ./bforest jmh 'IndexBenchmark.lookup' -p structure=BSTREE,TREEMAP} for some.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
// IgnoreUnrecognizedVMOptions: the huge-page flag exists only in Linux JVMs.
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "-XX:+IgnoreUnrecognizedVMOptions",
    "-XX:+UseTransparentHugePages"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class IndexBenchmark {
    /** Operations per invocation. */
    static final int BATCH = 1024;
    /** Pre-drawn look-up keys: {@value} (a multiple of {@link #BATCH}, a power of two). */
    static final int LOOKUPS = 1 << 20;
    static final int LOOKUP_BATCHES = LOOKUPS / BATCH;

    static int keyCount(String keys) {
        long n = Counts.parse("keys", keys);
        if (n < 1 || n > SyntheticDatasets.MAX_KEYS) {
            throw new IllegalArgumentException("keys must be between 1 and " + SyntheticDatasets.MAX_KEYS + ", not "
                    + keys);
        }
        return (int) n;
    }

    /** The loaded keys and the look-up stream, shared by {@link LookupState} and {@link GetAllState}. */
    static Operations lookups(Dataset d) {
        return WorkloadGenerator.generate(Workload.A, d, LOOKUPS);
    }

    @State(Scope.Thread)
    public static class LookupState {
        @Param({"1M"})
        public String keys;

        @Param({"BSTREE", "TREEMAP", "FASTUTIL_AVL", "SKIPLIST", "SORTED_ARRAY"})
        public Structure structure;

        IndexAdapter adapter;
        Operations ops;
        int cursor;

        @Setup(Level.Trial)
        public void setup() {
            Dataset d = SyntheticDatasets.uniform(keyCount(keys), 0, SyntheticDatasets.UNIFORM_SEED);
            ops = lookups(d);
            adapter = structure.newAdapter();
            adapter.build(d.loaded(), Values.of(d.loaded()));
            System.gc();
        }
    }

    @State(Scope.Thread)
    public static class GetAllState {
        @Param({"1M"})
        public String keys;

        LongIndex index;
        long[][] batches;
        long[] out;
        int cursor;

        @Setup(Level.Trial)
        public void setup() {
            Dataset d = SyntheticDatasets.uniform(keyCount(keys), 0, SyntheticDatasets.UNIFORM_SEED);
            long[] stream = lookups(d).keys();
            batches = new long[LOOKUP_BATCHES][];
            for (int b = 0; b < LOOKUP_BATCHES; b++) {
                batches[b] = Arrays.copyOfRange(stream, b * BATCH, (b + 1) * BATCH);
            }
            out = new long[BATCH];
            index = Indexes.bsTree(d.loaded(), Values.of(d.loaded()));
            System.gc();
        }
    }

    @State(Scope.Thread)
    public static class InsertState {
        @Param({"1M"})
        public String keys;

        @Param({"BSTREE", "TREEMAP", "FASTUTIL_AVL", "SKIPLIST"})
        public Structure structure;

        long[] loaded;
        long[] values;
        /** Workload B: every operation inserts the next of the dataset's new keys. */
        Operations ops;
        IndexAdapter adapter;
        /** Inserts done into the current build. */
        int used;

        @Setup(Level.Trial)
        public void setup() {
            int n = keyCount(keys);
            int budget = Math.max(BATCH, n / 10);
            Dataset d = SyntheticDatasets.uniform(n, budget, SyntheticDatasets.UNIFORM_SEED);
            loaded = d.loaded();
            values = Values.of(loaded);
            ops = WorkloadGenerator.generate(Workload.B, d, budget);
        }

        @Setup(Level.Iteration)
        public void rebuild() {
            adapter = null;
            System.gc();
            adapter = structure.newAdapter();
            adapter.build(loaded, values);
            used = 0;
            System.gc();
        }

        /** Outside the timed region: rebuild when the next batch would pass N + N/10 keys. */
        @Setup(Level.Invocation)
        public void keepSizeNearN() {
            if (used + BATCH > ops.size()) {
                rebuild();
            }
        }
    }

    /** {@value #BATCH} look-ups of present keys through the structure's adapter. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long lookup(LookupState s) {
        int from = (s.cursor++ & (LOOKUP_BATCHES - 1)) * BATCH;
        return s.adapter.run(s.ops, from, from + BATCH);
    }

    /** The same look-ups through one {@link LongIndex#getAll} call on a BS-tree. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long getAll(GetAllState s) {
        long[] out = s.out;
        s.index.getAll(s.batches[s.cursor++ & (LOOKUP_BATCHES - 1)], out, Values.ABSENT);
        long sum = 0;
        for (long v : out) {
            sum += v;
        }
        return sum;
    }

    /**
     * {@value #BATCH} inserts of new keys through the structure's adapter. More warm-up than the
     * look-ups: rebuilds take most of an iteration's wall time, so an iteration runs fewer
     * timed inserts, and the JIT needs them to reach the split paths.
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    @Warmup(iterations = 5, time = 2)
    public long insert(InsertState s) {
        int from = s.used;
        s.used = from + BATCH;
        return s.adapter.run(s.ops, from, from + BATCH);
    }
}
