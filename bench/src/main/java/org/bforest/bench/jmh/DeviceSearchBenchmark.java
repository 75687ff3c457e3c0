package org.bforest.bench.jmh;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.bforest.NativeLongIndex;
import org.bforest.bench.datasets.Dataset;
import org.bforest.bench.datasets.SyntheticDatasets;
import org.bforest.bench.structures.Values;
import org.bforest.opencl.DeviceSearch;
import org.bforest.opencl.OpenClDevice;
import org.bforest.opencl.OpenClIndexes;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The later GPU trees' techniques on the OpenCL trees, one {@link DeviceSearch} per
 * forked JVM: the queries' order on the device (as given, partially sorted as Harmonia does,
 * fully sorted), the work-items a query (1, or a group searching one page together as in Awad
 * et al. and Harmonia) and, with one work-item a query or more, the queries a work-item searches
 * in lock-step ({@code lanes}: 0 the device's choice, 64 on a CPU device and 1 on a GPU). Scores
 * are operations per microsecond (millions a second).
 *
 * <ul>
 *   <li>{@link #getAll}: one {@code getAll} of {@value #BATCH} present keys drawn uniformly
 *       (workload A's keys, handed over as one batch, as {@code ./bforest bench --batch 1M} does);
 *       {@code -p batch=64,1024} hands the same keys over in calls of that many.</li>
 *   <li>{@link #rangeCountAll}: one {@code rangeCountAll} of {@value #RANGES} ranges, each from a
 *       present key to 1/100,000 of the key space above it (about 100 keys at 10M).</li>
 * </ul>
 *
 * <p>Keys: the bench's {@code uniform} dataset, {@code -p keys=10M} by default, on the device
 * {@code -Dbforest.opencl.device} names (else the first GPU, else the first device; on these
 * machines PoCL, a CPU emulation). Run: {@code ./bforest jmh DeviceSearchBenchmark} (every
 * combination; lanes above 1 with a group are skipped); {@code ./bforest jmh DeviceSearchBenchmark
 * -p structure=hybrid -p group=1}; {@code ./bforest jmh DeviceSearchBenchmark.getAll -p order=PARTIAL
 * -p group=1 -p lanes=1,64}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED",
    "-Xmx12g"})
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 8, time = 2)
public class DeviceSearchBenchmark {
    static final int BATCH = 1 << 20;
    static final int RANGES = 1 << 19;

    @State(Scope.Thread)
    public static class Tree {
        @Param({"10M"})
        public String keys;

        @Param({"gpu-btree", "hybrid"})
        public String structure;

        @Param({"AS_GIVEN", "PARTIAL", "SORTED"})
        public String order;

        @Param({"1", "8"})
        public int group;

        @Param({"0"})
        public int lanes;

        /** Keys a {@code getAll} call: the 1M queries go as calls of this many (where the order stops paying). */
        @Param({"1M"})
        public String batch;

        NativeLongIndex index;
        long[] queries;
        /** The queries in calls of {@link #batch} keys (one call of all of them at 1M). */
        long[][] calls;
        long[][] answers;
        long[] from;
        long[] to;
        long[] out;

        @Setup(Level.Trial)
        public void setup() {
            Dataset d = SyntheticDatasets.uniform(IndexBenchmark.keyCount(keys), 0, SyntheticDatasets.UNIFORM_SEED);
            long[] loaded = d.loaded();
            if (group > 1 && lanes > 1) {
                throw new IllegalArgumentException("lanes above 1 go with a group of 1 (skipping group " + group
                        + ", lanes " + lanes + ")");
            }
            DeviceSearch search = new DeviceSearch(DeviceSearch.QueryOrder.valueOf(order), group, lanes);
            OpenClDevice device = OpenClDevice.choose();
            index = switch (structure) {
                case "gpu-btree" -> OpenClIndexes.gpuBTree(device, OpenClIndexes.DEFAULT_PAGE_KEYS, search, loaded,
                        Values.of(loaded));
                case "hybrid" -> OpenClIndexes.hybridTree(device, OpenClIndexes.DEFAULT_PAGE_KEYS, search, loaded,
                        Values.of(loaded));
                default -> throw new IllegalArgumentException("structure is gpu-btree or hybrid, not " + structure);
            };
            SplittableRandom r = new SplittableRandom(7);
            queries = new long[BATCH];
            for (int i = 0; i < BATCH; i++) {
                queries[i] = loaded[r.nextInt(loaded.length)];
            }
            from = new long[RANGES];
            to = new long[RANGES];
            for (int i = 0; i < RANGES; i++) {
                from[i] = loaded[r.nextInt(loaded.length)];
                to[i] = from[i] + (Long.MAX_VALUE / 100_000);
            }
            out = new long[BATCH];
            int asked = IndexBenchmark.keyCount(batch);
            int perCall = asked >= 1_000_000 ? BATCH : asked;   // "1M": every query in one call
            if (BATCH % perCall != 0) {
                throw new IllegalArgumentException("batch is 1M (every query in one call) or a power of two below "
                        + BATCH + " (64, 1024, ...), not " + batch);
            }
            calls = new long[BATCH / perCall][];
            answers = new long[calls.length][];
            for (int c = 0; c < calls.length; c++) {
                calls[c] = perCall == BATCH ? queries : Arrays.copyOfRange(queries, c * perCall, (c + 1) * perCall);
                answers[c] = perCall == BATCH ? out : new long[perCall];
            }
            System.out.println("# device: " + device.name() + (device.isEmulation() ? " (a CPU emulation)" : "") + "; "
                    + index);
        }

        @TearDown(Level.Trial)
        public void close() {
            index.close();
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long getAll(Tree t) {
        long sum = 0;
        for (int c = 0; c < t.calls.length; c++) {
            t.index.getAll(t.calls[c], t.answers[c], Values.ABSENT);
            sum += t.answers[c][0];
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(RANGES)
    public long rangeCountAll(Tree t) {
        t.index.rangeCountAll(t.from, t.to, t.out);
        return t.out[0] + t.out[RANGES - 1];
    }
}
