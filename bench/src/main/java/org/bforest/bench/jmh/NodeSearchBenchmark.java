package org.bforest.bench.jmh;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.bforest.bench.datasets.SplitMix64;
import org.bforest.bench.jmh.NodeSearches.Algorithm;
import org.bforest.kernel.NodeSearch;
import org.bforest.kernel.PackedLanes;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
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
 * The BS-tree paper's Figure 2: {@code succ>} on one sorted node of N keys, for N in 8..128 and
 * 16-, 32- and 64-bit keys, by binary search, linear scan, counting (Snippet 1) and SIMD
 * counting (Snippet 2); see {@link NodeSearches} for the four implementations and their key
 * semantics (16/32-bit unsigned, 64-bit signed). Scores are searches per microsecond, i.e.
 * millions of searches per second, the paper's unit.
 *
 * <p>Setup, before anything is timed (fixed seeds: every algorithm of a width and N searches the
 * very same nodes with the very same probes):
 * <ul>
 *   <li>A pool of nodes holding {@code poolBytes} of keys (default 16 KiB, so the pool stays in
 *       the 48 KiB L1d of this machine as the paper measures in-cache node search; at least 16
 *       nodes, so the 1 KiB nodes of N=128 × 64 bits make a 16 KiB pool as well). Each node is N
 *       keys drawn uniformly from the whole 16/32/64-bit domain, sorted (duplicates allowed).
 *       {@code -p poolBytes=1048576} measures from L2 instead.</li>
 *   <li>{@value #PROBES} probes, each a random node of the pool and a key drawn uniformly from the
 *       domain, so the answers spread over 0..N and a branch predictor cannot learn them.</li>
 * </ul>
 * One invocation runs {@value #BATCH} independent searches, probe {@code i++ & MASK} after probe
 * (as the paper's loop of random successor operations), and returns the sum of the answers.
 *
 * <p>{@link #productionKernel} runs {@code org.bforest.kernel.NodeSearch.succGT} (what the
 * BS-tree calls on every node; fixed at N=16, 64-bit) on the same pool and probes as
 * {@code succ} at {@code n=16, width=64}, so the two compare directly.
 *
 * <p>Run: {@code ./bforest jmh NodeSearchBenchmark} (defaults: 1 fork, 3 × 1 s warm-up,
 * 5 × 1 s measurement; 61 cases, about 10 minutes); a quick look:
 * {@code ./bforest jmh NodeSearchBenchmark -f 1 -wi 2 -i 3 -w 1s -r 1s -p width=64 -p n=16}.
 *
 * <p>How the hot loop is kept honest: the node size is turned into a compile-time constant by a
 * {@code switch} over the benchmark's sizes (the paper's {@code CAPACITY} is a C constant, so
 * the JIT may unroll the loops as the C compiler did); the implementation is called through a
 * method reference, which each forked JVM only ever sees one target of, so it is inlined.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
// IgnoreUnrecognizedVMOptions: the huge-page flag exists only in Linux JVMs.
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "-XX:+IgnoreUnrecognizedVMOptions",
    "-XX:+UseTransparentHugePages"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class NodeSearchBenchmark {
    /** Searches per invocation. */
    static final int BATCH = 1024;
    /** Pre-drawn probes; a power of two. */
    static final int PROBES = 1 << 14;
    static final int MASK = PROBES - 1;
    static final int MIN_NODES = 16;

    @FunctionalInterface
    interface Search16 {
        int succGT(short[] keys, int off, int n, short key);
    }

    @FunctionalInterface
    interface Search32 {
        int succGT(int[] keys, int off, int n, int key);
    }

    @FunctionalInterface
    interface Search64 {
        int succGT(long[] keys, int off, int n, long key);
    }

    /** One node pool and its probes, for one width and node size. */
    static final class Pool {
        final int width;
        final int n;
        final int nodes;
        short[] keys16;
        int[] keys32;
        long[] keys64;
        short[] probes16;
        int[] probes32;
        long[] probes64;
        /** Start of each probe's node in the key array. */
        final int[] offs = new int[PROBES];

        Pool(int width, int n, int poolBytes) {
            if (n < 1) {
                throw new IllegalArgumentException("n must be positive, not " + n);
            }
            this.width = width;
            this.n = n;
            int nodeBytes = n * width / 8;
            this.nodes = Math.max(MIN_NODES, poolBytes / nodeBytes);
            SplitMix64 rng = new SplitMix64(width * 1_000_003L + n);
            int total = nodes * n;
            long[] raw = new long[total];
            for (int i = 0; i < total; i++) {
                raw[i] = rng.next();
            }
            for (int j = 0; j < PROBES; j++) {
                offs[j] = rng.nextInt(nodes) * n;
            }
            switch (width) {
                case 16 -> {
                    keys16 = new short[total];
                    probes16 = new short[PROBES];
                    for (int i = 0; i < total; i++) {
                        keys16[i] = (short) raw[i];
                    }
                    for (int s = 0; s < total; s += n) {
                        sortUnsigned(keys16, s, s + n);
                    }
                    for (int j = 0; j < PROBES; j++) {
                        probes16[j] = (short) rng.next();
                    }
                }
                case 32 -> {
                    keys32 = new int[total];
                    probes32 = new int[PROBES];
                    for (int i = 0; i < total; i++) {
                        keys32[i] = (int) raw[i];
                    }
                    for (int s = 0; s < total; s += n) {
                        sortUnsigned(keys32, s, s + n);
                    }
                    for (int j = 0; j < PROBES; j++) {
                        probes32[j] = (int) rng.next();
                    }
                }
                case 64 -> {
                    keys64 = raw;
                    probes64 = new long[PROBES];
                    for (int s = 0; s < total; s += n) {
                        Arrays.sort(keys64, s, s + n);
                    }
                    for (int j = 0; j < PROBES; j++) {
                        probes64[j] = rng.next();
                    }
                }
                default -> throw new IllegalArgumentException("width must be 16, 32 or 64, not " + width);
            }
        }

        /** Sorts {@code a[from, to)} as unsigned 16-bit values. */
        static void sortUnsigned(short[] a, int from, int to) {
            for (int i = from; i < to; i++) {
                a[i] ^= (short) 0x8000;
            }
            Arrays.sort(a, from, to);
            for (int i = from; i < to; i++) {
                a[i] ^= (short) 0x8000;
            }
        }

        /** Sorts {@code a[from, to)} as unsigned 32-bit values. */
        static void sortUnsigned(int[] a, int from, int to) {
            for (int i = from; i < to; i++) {
                a[i] ^= Integer.MIN_VALUE;
            }
            Arrays.sort(a, from, to);
            for (int i = from; i < to; i++) {
                a[i] ^= Integer.MIN_VALUE;
            }
        }
    }

    /** The Figure-2 grid: node size × key width × algorithm. */
    @State(Scope.Thread)
    public static class Nodes {
        @Param({"8", "16", "32", "64", "128"})
        public int n;

        @Param({"16", "32", "64"})
        public int width;

        @Param({"BINARY", "LINEAR", "COUNTING", "SIMD"})
        public Algorithm algorithm;

        /** Bytes of keys in the node pool (see the class comment). */
        @Param({"16384"})
        public int poolBytes;

        Pool pool;
        Search16 search16;
        Search32 search32;
        Search64 search64;
        int cursor;

        @Setup
        public void setup() {
            pool = new Pool(width, n, poolBytes);
            switch (algorithm) {
                case BINARY -> {
                    search16 = NodeSearches::binary16;
                    search32 = NodeSearches::binary32;
                    search64 = NodeSearches::binary64;
                }
                case LINEAR -> {
                    search16 = NodeSearches::linear16;
                    search32 = NodeSearches::linear32;
                    search64 = NodeSearches::linear64;
                }
                case COUNTING -> {
                    search16 = NodeSearches::counting16;
                    search32 = NodeSearches::counting32;
                    search64 = NodeSearches::counting64;
                }
                case SIMD -> {
                    NodeSearches.simdBits(width, n); // throws for a node size it cannot search
                    search16 = NodeSearches::simd16;
                    search32 = NodeSearches::simd32;
                    search64 = NodeSearches::simd64;
                }
            }
        }

        int run() {
            int at = cursor;
            cursor = at + BATCH;
            // A constant n per case: the JIT inlines the batch loop and the search into the hot
            // case with n known, as the C code's CAPACITY is.
            return switch (n) {
                case 8 -> run(at, 8);
                case 16 -> run(at, 16);
                case 32 -> run(at, 32);
                case 64 -> run(at, 64);
                case 128 -> run(at, 128);
                default -> run(at, n);
            };
        }

        private int run(int at, int size) {
            Pool p = pool;
            return switch (width) {
                case 16 -> batch16(search16, p.keys16, p.offs, p.probes16, at, size);
                case 32 -> batch32(search32, p.keys32, p.offs, p.probes32, at, size);
                default -> batch64(search64, p.keys64, p.offs, p.probes64, at, size);
            };
        }
    }

    static int batch16(Search16 f, short[] keys, int[] offs, short[] probes, int at, int n) {
        int sum = 0;
        for (int q = 0; q < BATCH; q++) {
            int j = (at + q) & MASK;
            sum += f.succGT(keys, offs[j], n, probes[j]);
        }
        return sum;
    }

    static int batch32(Search32 f, int[] keys, int[] offs, int[] probes, int at, int n) {
        int sum = 0;
        for (int q = 0; q < BATCH; q++) {
            int j = (at + q) & MASK;
            sum += f.succGT(keys, offs[j], n, probes[j]);
        }
        return sum;
    }

    static int batch64(Search64 f, long[] keys, int[] offs, long[] probes, int at, int n) {
        int sum = 0;
        for (int q = 0; q < BATCH; q++) {
            int j = (at + q) & MASK;
            sum += f.succGT(keys, offs[j], n, probes[j]);
        }
        return sum;
    }

    /** The production kernel's pool: N=16, 64-bit, the same nodes and probes as {@link Nodes} there. */
    @State(Scope.Thread)
    public static class KernelNodes {
        @Param({"16384"})
        public int poolBytes;

        Pool pool;
        int cursor;

        @Setup
        public void setup() {
            if (NodeSearch.NODE_KEYS != 16) {
                throw new IllegalStateException("the production kernel's node has " + NodeSearch.NODE_KEYS
                        + " keys; this benchmark assumes 16");
            }
            pool = new Pool(64, NodeSearch.NODE_KEYS, poolBytes);
        }
    }

    /** {@code succ>} on one node: the implementation {@code algorithm} at {@code n} keys of {@code width} bits. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int succ(Nodes s) {
        return s.run();
    }

    /** {@code org.bforest.kernel.NodeSearch.succGT}, the production kernel (16 longs per node). */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int productionKernel(KernelNodes s) {
        int at = s.cursor;
        s.cursor = at + BATCH;
        long[] keys = s.pool.keys64;
        int[] offs = s.pool.offs;
        long[] probes = s.pool.probes64;
        int sum = 0;
        for (int q = 0; q < BATCH; q++) {
            int j = (at + q) & MASK;
            sum += NodeSearch.succGT(keys, offs[j], probes[j]);
        }
        return sum;
    }

    /**
     * The CBS-tree's pool: 1024-bit blocks of packed unsigned lanes ({@link PackedLanes}), 64 of
     * 16 bits, 32 of 32 or 16 of 64, each block sorted and padded the way a leaf is.
     */
    @State(Scope.Thread)
    public static class PackedNodes {
        @Param({"16", "32", "64"})
        public int width;

        @Param({"16384"})
        public int poolBytes;

        long[] blocks;
        final int[] offs = new int[PROBES];
        final long[] probes = new long[PROBES];
        int cursor;

        @Setup
        public void setup() {
            int lanes = PackedLanes.lanes(width);
            long max = PackedLanes.maxLane(width);
            int nodes = Math.max(MIN_NODES, poolBytes / (PackedLanes.BLOCK_BITS / 8));
            blocks = new long[nodes * NodeSearch.NODE_KEYS];
            SplitMix64 rng = new SplitMix64(width * 7_919L);
            long[] lane = new long[lanes];
            for (int b = 0; b < nodes; b++) {
                for (int i = 0; i < lanes; i++) {
                    lane[i] = Long.remainderUnsigned(rng.next(), max) ^ Long.MIN_VALUE; // below the padding value
                }
                Arrays.sort(lane); // signed sort of sign-flipped values = unsigned order
                for (int i = 0; i < lanes; i++) {
                    lane[i] ^= Long.MIN_VALUE;
                }
                PackedLanes.pack(lane, blocks, b * NodeSearch.NODE_KEYS, width);
            }
            for (int j = 0; j < PROBES; j++) {
                offs[j] = rng.nextInt(nodes) * NodeSearch.NODE_KEYS;
                probes[j] = Long.remainderUnsigned(rng.next(), max);
            }
        }
    }

    /**
     * {@code org.bforest.kernel.NodeSearch.succGTPacked}, the CBS-tree's kernel: Figure 2's claim
     * that 64 16-bit keys cost what 16 64-bit keys cost, on the code the tree runs.
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int packedKernel(PackedNodes s) {
        int at = s.cursor;
        s.cursor = at + BATCH;
        long[] keys = s.blocks;
        int[] offs = s.offs;
        long[] probes = s.probes;
        int width = s.width;
        int sum = 0;
        for (int q = 0; q < BATCH; q++) {
            int j = (at + q) & MASK;
            sum += NodeSearch.succGTPacked(keys, offs[j], width, probes[j]);
        }
        return sum;
    }
}
