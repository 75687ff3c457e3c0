package org.bforest.bench.jmh;

import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.bforest.bench.datasets.SplitMix64;
import org.bforest.util.BatchOrder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The exact sort of a batch with its positions ({@code BatchOrder.ascending}), what an OpenCL
 * tree's {@code putAll} runs on the host to drop repeated keys: on the calling thread alone, and
 * cut into {@code parts} parts on the common fork-join pool (as the trees run it on their host
 * threads). Score: milliseconds a sort of a batch of {@code keys} uniform 64-bit keys (8 batches
 * taken in turn, so that no one batch stays in the caches).
 *
 * <p>{@code ./bforest jmh BatchOrderBenchmark} (about 2 minutes); {@code -p parts=1,2,16} on a
 * machine with more cores.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@State(Scope.Thread)
public class BatchOrderBenchmark {
    private static final int BATCHES = 8;

    @Param({"1M"})
    public String keys;

    /** Parts of each pass on the common pool; 1: the one-thread sort. */
    @Param({"1", "2"})
    public int parts;

    private long[][] batches;
    private int next;
    private final BatchOrder.Parts pool = (n, part) -> IntStream.range(0, n).parallel().forEach(part);

    @Setup
    public void setUp() {
        int n = IndexBenchmark.keyCount(keys);
        SplitMix64 r = new SplitMix64(0xBA7C40DEL);
        batches = new long[BATCHES][n];
        for (long[] b : batches) {
            for (int i = 0; i < n; i++) {
                b[i] = r.next();
            }
        }
    }

    @Benchmark
    public long ascending() {
        long[] b = batches[next++ & (BATCHES - 1)];
        BatchOrder o = parts == 1 ? BatchOrder.ascending(b) : BatchOrder.ascending(b, parts, pool);
        return o.keys[o.size() >>> 1] + o.from[o.size() >>> 2];
    }
}
