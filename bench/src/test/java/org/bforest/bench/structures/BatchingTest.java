package org.bforest.bench.structures;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.bforest.LongIndex;
import org.bforest.bench.datasets.Dataset;
import org.bforest.bench.datasets.SyntheticDatasets;
import org.bforest.bench.workloads.Op;
import org.bforest.bench.workloads.Operations;
import org.bforest.bench.workloads.Workload;
import org.bforest.bench.workloads.WorkloadGenerator;
import org.junit.jupiter.api.Test;

/**
 * {@code --batch}'s grouping ({@link Batching}): a stream run in batches gives the answers
 * (checksum) and leaves the contents of the same stream run one operation at a time, on a
 * bforest tree, the key-only tree and TreeMap (whose batched form is the loop; every other
 * structure is checked against a model in {@link AdaptersTest}), for the
 * workloads and for a made-up stream full of dependencies (a lookup of a key put just before,
 * puts of keys already there, removes of absent ones, the same key twice in a run, scans).
 */
class BatchingTest {
    private static final Structure[] STRUCTURES = {Structure.BSTREE, Structure.BSTREE_SET, Structure.TREEMAP};
    private static final int[] SIZES = {1, 3, 100, 1 << 20};

    @Test
    void batchesAreRunsOfOneKindWithinWindows() {
        byte l = Op.LOOKUP;
        byte i = Op.INSERT;
        byte d = Op.DELETE;
        byte s = Op.SCAN;
        byte[] codes = {l, l, l, i, i, l, d, d, d, d, s, l};
        List<int[]> batches = new ArrayList<>();
        for (int at = 0; at < codes.length; ) {
            int end = Batching.end(codes, at, codes.length, 3);
            batches.add(new int[] {at, end});
            at = end;
        }
        // Windows of 3 from the stream's start: 0, 3, 6, 9, 12; a run ends at a window's end.
        assertArrayEquals(new int[][] {{0, 3}, {3, 5}, {5, 6}, {6, 9}, {9, 10}, {10, 11}, {11, 12}},
                batches.toArray(new int[0][]));
        // The same cuts from the middle of a window, and at the range's end.
        assertEquals(5, Batching.end(codes, 4, codes.length, 3));
        assertEquals(4, Batching.end(codes, 3, 4, 3));
        BatchBuffers b = BatchBuffers.forStream(3, ops(codes, new long[codes.length]));
        assertEquals(6, b.batches(), "the scan is no batched call");
        assertEquals(3, b.longest());
        assertEquals(11 / 6.0, b.meanLength(), 1e-12);
        assertEquals(3, b.keys(3).length);
        assertEquals(2, b.values(2).length);
        assertEquals(1, b.keys(1).length);
        assertTrue(b.keys(2) == b.keys(2), "one array per length, reused");
        // Every array is preallocated: a length the stream's batches do not have is refused.
        assertThrows(IllegalArgumentException.class, () -> b.keys(4));
        assertThrows(IllegalArgumentException.class, () -> BatchBuffers.forStream(0, ops(codes, new long[12])));
    }

    @Test
    void theWorkloadsInBatchesGiveTheirOneByOneResults() {
        Dataset data = SyntheticDatasets.dense(2_000, 1_000, 2);
        for (Workload w : new Workload[] {Workload.A, Workload.B, Workload.C, Workload.D, Workload.E, Workload.F}) {
            Operations ops = WorkloadGenerator.generate(w, data, w == Workload.F ? 500 : 1_000);
            for (Structure s : STRUCTURES) {
                assertSameAsOneByOne(s, data.loaded(), ops, s + " " + w);
            }
        }
    }

    @Test
    void aStreamFullOfDependenciesInBatchesGivesItsOneByOneResults() {
        long[] loaded = new long[32];
        for (int k = 0; k < loaded.length; k++) {
            loaded[k] = 2L * k; // the even keys of [0, 64): lookups miss, puts update, removes find nothing
        }
        SplittableRandom rnd = new SplittableRandom(7);
        int n = 5_000;
        byte[] codes = new byte[n];
        long[] keys = new long[n];
        long[] ends = new long[n];
        for (int at = 0; at < n; ) {
            // Runs of one kind up to 40 long, over 64 keys: a run repeats keys, and a lookup often
            // follows a put or a remove of its key.
            byte code = (byte) rnd.nextInt(Op.COUNT);
            int run = 1 + rnd.nextInt(40);
            for (int j = 0; j < run && at < n; j++, at++) {
                codes[at] = code;
                keys[at] = rnd.nextInt(64);
                ends[at] = keys[at] + 1 + rnd.nextInt(12);
            }
        }
        Operations ops = ops(codes, keys, ends);
        for (Structure s : STRUCTURES) {
            assertSameAsOneByOne(s, loaded, ops, s + " on the made-up stream");
        }
    }

    /** A batched run allocates nothing beyond what the index's own getAll calls do. */
    @Test
    void aBatchedRunAllocatesNoMoreThanTheIndexsOwnCalls() {
        Dataset data = SyntheticDatasets.dense(20_000, 1_000, 2);
        Operations ops = WorkloadGenerator.generate(Workload.A, data, 20_000);
        LongIndexAdapter a = (LongIndexAdapter) Structure.BSTREE.newAdapter();
        a.build(data.loaded(), Values.of(data.loaded()));
        int size = 256;
        BatchBuffers buffers = BatchBuffers.forStream(size, ops);
        LongIndex ix = a.index();
        long[] k = buffers.keys(size);
        long[] v = buffers.values(size);
        int calls = ops.size() / size;
        for (int warm = 0; warm < 20; warm++) {
            a.runBatched(ops, 0, ops.size(), buffers);
            for (int c = 0; c < calls; c++) {
                ix.getAll(k, v, Values.ABSENT);
            }
        }
        long own = Long.MAX_VALUE;
        long batched = Long.MAX_VALUE;
        for (int r = 0; r < 5; r++) { // the least of five: a stray allocation of the JVM's own is not ours
            long t0 = allocated();
            for (int c = 0; c < calls; c++) {
                ix.getAll(k, v, Values.ABSENT);
            }
            long t1 = allocated();
            a.runBatched(ops, 0, ops.size(), buffers);
            long t2 = allocated();
            own = Math.min(own, t1 - t0);
            batched = Math.min(batched, t2 - t1);
        }
        assertTrue(batched <= own + 1024, "the batched run allocated " + batched + " bytes, its getAll calls alone "
                + own);
    }

    private static long allocated() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    /**
     * Runs {@code ops} on {@code s} one operation at a time and, on fresh builds, in batches of
     * each size (in whole windows, as the runner chunks them): the same checksum, size and
     * contents every time.
     */
    private static void assertSameAsOneByOne(Structure s, long[] loaded, Operations ops, String what) {
        if (!s.updatable()) {
            return;
        }
        IndexAdapter plain = s.newAdapter();
        plain.build(loaded, Values.of(loaded));
        long expected = plain.run(ops, 0, ops.size());
        long[] contents = contents(plain);
        for (int size : SIZES) {
            IndexAdapter a = s.newAdapter();
            a.build(loaded, Values.of(loaded));
            BatchBuffers buffers = BatchBuffers.forStream(size, ops);
            int chunk = (int) Math.min(Integer.MAX_VALUE, Math.max(1, 700 / size) * (long) size);
            long got = 0;
            for (int i = 0; i < ops.size(); i += chunk) {
                got += a.runBatched(ops, i, Math.min(ops.size(), i + chunk), buffers);
            }
            assertEquals(expected, got, what + ": the checksum in batches of " + size);
            assertEquals(plain.size(), a.size(), what + ": the size after batches of " + size);
            assertArrayEquals(contents, contents(a), what + ": the contents after batches of " + size);
        }
    }

    /**
     * The entries held: exactly (key, value, ...) for a bforest tree; for the others the size and
     * the checksum of a scan over every key, which any difference in keys or values changes.
     */
    private static long[] contents(IndexAdapter a) {
        if (a instanceof LongIndexAdapter l) {
            long[] out = new long[2 * (int) l.size()];
            int[] at = {0};
            l.index().forEach((k, v) -> {
                out[at[0]++] = k;
                out[at[0]++] = v;
            });
            return out;
        }
        Operations all = ops(new byte[] {Op.SCAN}, new long[] {Long.MIN_VALUE}, new long[] {Long.MAX_VALUE});
        return new long[] {a.size(), a.run(all, 0, 1)};
    }

    private static Operations ops(byte[] codes, long[] keys) {
        return ops(codes, keys, new long[codes.length]);
    }

    private static Operations ops(byte[] codes, long[] keys, long[] ends) {
        int[] counts = new int[Op.COUNT];
        for (byte c : codes) {
            counts[c]++;
        }
        return new Operations(Workload.E, 1, codes, keys, ends, counts, 0);
    }
}
