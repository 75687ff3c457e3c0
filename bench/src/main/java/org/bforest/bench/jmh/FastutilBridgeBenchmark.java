package org.bforest.bench.jmh;

import it.unimi.dsi.fastutil.longs.Long2LongAVLTreeMap;
import it.unimi.dsi.fastutil.longs.Long2LongSortedMap;
import java.util.concurrent.TimeUnit;
import org.bforest.Indexes;
import org.bforest.LongIndex;
import org.bforest.bench.datasets.Dataset;
import org.bforest.bench.datasets.SyntheticDatasets;
import org.bforest.bench.structures.Values;
import org.bforest.bench.workloads.Operations;
import org.bforest.bench.workloads.Workload;
import org.bforest.bench.workloads.WorkloadGenerator;
import org.bforest.fastutil.FastutilViews;
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
 * What the fastutil bridge ({@code bforest-fastutil}'s {@link FastutilViews#asLong2LongSortedMap})
 * costs: the same {@code get} and {@code put} calls through a {@link Long2LongSortedMap} over a
 * BS-tree ({@code BRIDGE}), on the BS-tree's own {@link LongIndex} methods ({@code INDEX}), and on
 * fastutil's {@link Long2LongAVLTreeMap} ({@code AVL}, the primitive tree map a fastutil user
 * would otherwise hold), one per forked JVM ({@code @Param face}) so that each call site stays
 * monomorphic. The bridge and the AVL tree are called through the {@code Long2LongSortedMap}
 * interface, as code written against fastutil calls them. Scores are operations per microsecond
 * (millions a second).
 *
 * <p>Keys: the bench's {@code uniform} dataset ({@link SyntheticDatasets#uniform}, splitmix64 seed
 * 1), {@code keys} loaded ({@code -p keys=1M} by default), values {@link Values#of}. The BS-tree is
 * bulk-loaded (the bridge wraps it; nothing is copied); the AVL tree gets ascending {@code put}s,
 * as {@code ./bforest bench} builds it. The default return value is {@link Values#ABSENT}
 * everywhere.
 *
 * <ul>
 *   <li>{@link #get}: {@value IndexBenchmark#BATCH} look-ups of present keys per invocation, the
 *       stream {@link IndexBenchmark#lookup} reads (workload A's generator).</li>
 *   <li>{@link #putExisting}: {@code put} of a new value for each of those keys: the map's shape
 *       does not change, so this is the bridge's cost on a write without the tree's insert
 *       path.</li>
 *   <li>{@link #putNew}: {@code put} of new keys (workload B's, in order), rebuilt as
 *       {@link IndexBenchmark#insert} does: from the N loaded keys at every iteration and, outside
 *       the timed region, whenever the next batch would take it past N + N/10 keys.</li>
 * </ul>
 *
 * <p>Run: {@code ./bforest jmh FastutilBridgeBenchmark} (1M keys; about 3 minutes with
 * {@code -f 1 -wi 2 -i 3 -w 1s -r 1s}).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
// IgnoreUnrecognizedVMOptions: the huge-page flag exists only in Linux JVMs.
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "-XX:+IgnoreUnrecognizedVMOptions",
    "-XX:+UseTransparentHugePages"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class FastutilBridgeBenchmark {
    static final int BATCH = IndexBenchmark.BATCH;

    /** Who answers the calls. */
    public enum Face {
        /** The BS-tree's own primitive methods ({@code LongIndex.get(long)}, {@code put}). */
        INDEX,
        /** The same BS-tree through the bridge, called as a {@code Long2LongSortedMap}. */
        BRIDGE,
        /** fastutil's {@code Long2LongAVLTreeMap}, called as a {@code Long2LongSortedMap}. */
        AVL
    }

    /** The structure behind one face: {@code index} for INDEX, {@code map} for BRIDGE and AVL. */
    static final class Built {
        LongIndex index;
        Long2LongSortedMap map;

        Built(Face face, long[] sortedKeys, long[] values) {
            switch (face) {
                case INDEX, BRIDGE -> {
                    index = Indexes.bsTree(sortedKeys, values);
                    index.defaultReturnValue(Values.ABSENT);
                    if (face == Face.BRIDGE) {
                        map = FastutilViews.asLong2LongSortedMap(index);
                    }
                }
                case AVL -> {
                    Long2LongAVLTreeMap m = new Long2LongAVLTreeMap();
                    m.defaultReturnValue(Values.ABSENT);
                    for (int i = 0; i < sortedKeys.length; i++) {
                        m.put(sortedKeys[i], values[i]);
                    }
                    map = m;
                }
            }
        }
    }

    @State(Scope.Thread)
    public static class LookupState {
        @Param({"1M"})
        public String keys;

        @Param({"INDEX", "BRIDGE", "AVL"})
        public Face face;

        Built built;
        long[] lookups;
        int cursor;

        @Setup(Level.Trial)
        public void setup() {
            Dataset d = SyntheticDatasets.uniform(IndexBenchmark.keyCount(keys), 0, SyntheticDatasets.UNIFORM_SEED);
            lookups = IndexBenchmark.lookups(d).keys();
            built = new Built(face, d.loaded(), Values.of(d.loaded()));
            System.gc();
        }

        int nextBatch() {
            return (cursor++ & (IndexBenchmark.LOOKUP_BATCHES - 1)) * BATCH;
        }
    }

    @State(Scope.Thread)
    public static class InsertState {
        @Param({"1M"})
        public String keys;

        @Param({"INDEX", "BRIDGE", "AVL"})
        public Face face;

        long[] loaded;
        long[] values;
        /** Workload B: the dataset's new keys, in order. */
        long[] inserts;
        Built built;
        /** Inserts done into the current build. */
        int used;

        @Setup(Level.Trial)
        public void setup() {
            int n = IndexBenchmark.keyCount(keys);
            int budget = Math.max(BATCH, n / 10);
            Dataset d = SyntheticDatasets.uniform(n, budget, SyntheticDatasets.UNIFORM_SEED);
            loaded = d.loaded();
            values = Values.of(loaded);
            Operations ops = WorkloadGenerator.generate(Workload.B, d, budget);
            inserts = ops.keys();
        }

        @Setup(Level.Iteration)
        public void rebuild() {
            built = null;
            System.gc();
            built = new Built(face, loaded, values);
            used = 0;
            System.gc();
        }

        /** Outside the timed region: rebuild when the next batch would pass N + N/10 keys. */
        @Setup(Level.Invocation)
        public void keepSizeNearN() {
            if (used + BATCH > inserts.length) {
                rebuild();
            }
        }
    }

    /** {@value IndexBenchmark#BATCH} look-ups of present keys. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long get(LookupState s) {
        long[] keys = s.lookups;
        int from = s.nextBatch();
        int to = from + BATCH;
        long sum = 0;
        if (s.face == Face.INDEX) {
            LongIndex index = s.built.index;
            for (int i = from; i < to; i++) {
                sum += index.get(keys[i]);
            }
        } else {
            Long2LongSortedMap map = s.built.map;
            for (int i = from; i < to; i++) {
                sum += map.get(keys[i]);
            }
        }
        return sum;
    }

    /** {@value IndexBenchmark#BATCH} puts of a new value for present keys (no insert, no split). */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long putExisting(LookupState s) {
        long[] keys = s.lookups;
        int from = s.nextBatch();
        int to = from + BATCH;
        long sum = 0;
        if (s.face == Face.INDEX) {
            LongIndex index = s.built.index;
            for (int i = from; i < to; i++) {
                sum += index.put(keys[i], i);
            }
        } else {
            Long2LongSortedMap map = s.built.map;
            for (int i = from; i < to; i++) {
                sum += map.put(keys[i], i);
            }
        }
        return sum;
    }

    /**
     * {@value IndexBenchmark#BATCH} puts of new keys. More warm-up than the look-ups, as
     * {@link IndexBenchmark#insert}: rebuilds take most of an iteration's wall time.
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    @Warmup(iterations = 5, time = 2)
    public long putNew(InsertState s) {
        long[] keys = s.inserts;
        int from = s.used;
        int to = from + BATCH;
        s.used = to;
        long sum = 0;
        if (s.face == Face.INDEX) {
            LongIndex index = s.built.index;
            for (int i = from; i < to; i++) {
                sum += index.put(keys[i], Values.of(keys[i]));
            }
        } else {
            Long2LongSortedMap map = s.built.map;
            for (int i = from; i < to; i++) {
                sum += map.put(keys[i], Values.of(keys[i]));
            }
        }
        return sum;
    }
}
