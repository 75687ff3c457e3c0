package org.bforest.bench.jmh;

import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import org.bforest.Indexes;
import org.bforest.LongIndex;
import org.bforest.bench.cli.Counts;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Time-ordered keys used as a queue, the workloads where a tree that never gives emptied nodes
 * back goes quadratic: the queue drain and the first key after a long slide. Peers in the same
 * fork-per-structure run: {@code bstree-olc} (the concurrent BS-tree), {@code skiplist}
 * ({@link ConcurrentSkipListMap}, boxed, what a Java user would otherwise pick) and {@code bstree}
 * (the single-threaded BS-tree).
 *
 * <ul>
 *   <li>{@link #drain}: {@code n} ascending keys (0, 1, 2, ...) put before each single-shot
 *       iteration, then timed: {@code firstKey()} + {@code remove(firstKey)} until empty. The score
 *       is the time of the whole drain.</li>
 *   <li>{@link #firstKeyAfterSlide}: a window of 1,000 keys slid over {@code n} ascending keys
 *       (put the next, remove the oldest) once, before the iterations; then timed: one
 *       {@code firstKey()}. The score is the average time of one call.</li>
 * </ul>
 *
 * <p>Run: {@code ./bforest jmh QueueBenchmark} ({@code n} = 5M); {@code -p n=1M} for a shorter run.
 */
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
@State(Scope.Benchmark)
public class QueueBenchmark {
    /** Live keys of the sliding window. */
    static final int WINDOW = 1_000;

    @Param({"bstree-olc", "skiplist", "bstree"})
    public String structure;

    @Param({"5M"})
    public String n;

    private LongIndex index;
    private ConcurrentSkipListMap<Long, Long> skiplist;

    private int count() {
        return (int) Counts.parse("n", n);
    }

    private void fresh() {
        index = null;
        skiplist = null;
        switch (structure) {
            case "bstree-olc" -> index = Indexes.concurrentBsTree();
            case "bstree" -> index = Indexes.bsTree();
            case "skiplist" -> skiplist = new ConcurrentSkipListMap<>();
            default -> throw new IllegalArgumentException("unknown structure '" + structure
                    + "': use bstree-olc, skiplist or bstree");
        }
    }

    private void put(long k) {
        if (index != null) {
            index.put(k, k);
        } else {
            skiplist.put(k, k);
        }
    }

    private void remove(long k) {
        if (index != null) {
            index.remove(k);
        } else {
            skiplist.remove(k);
        }
    }

    /** The drain's queue, filled again before every iteration (outside the timing). */
    @State(Scope.Benchmark)
    public static class Filled {
        @Setup(Level.Iteration)
        public void fill(QueueBenchmark b) {
            b.fresh();
            int m = b.count();
            for (long k = 0; k < m; k++) {
                b.put(k);
            }
            System.gc();
        }
    }

    /** The slid window, made once per fork. */
    @State(Scope.Benchmark)
    public static class Slid {
        @Setup(Level.Trial)
        public void slide(QueueBenchmark b) {
            b.fresh();
            int m = b.count();
            for (long k = 0; k < m; k++) {
                b.put(k);
                if (k >= WINDOW) {
                    b.remove(k - WINDOW);
                }
            }
            System.gc();
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 2)
    @Measurement(iterations = 5)
    public long drain(Filled filled) {
        long sum = 0;
        if (index != null) {
            while (!index.isEmpty()) {
                long k = index.firstKey();
                sum += index.remove(k);
            }
        } else {
            while (!skiplist.isEmpty()) {
                Long k = skiplist.firstKey();
                sum += skiplist.remove(k);
            }
        }
        return sum;
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    @Warmup(iterations = 3, time = 1)
    @Measurement(iterations = 5, time = 1)
    public long firstKeyAfterSlide(Slid slid) {
        return index != null ? index.firstKey() : skiplist.firstKey();
    }
}
