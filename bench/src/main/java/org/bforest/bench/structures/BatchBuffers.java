package org.bforest.bench.structures;

import java.util.Arrays;
import java.util.TreeSet;
import org.bforest.bench.workloads.Operations;

/**
 * The scratch arrays of a batched run ({@code --batch}), allocated by the runner before the
 * clock starts, so that the timed loop allocates nothing: a keys array and a values array of
 * every length a batch of the stream has ({@link Batching} cuts them). {@code LongIndex.getAll},
 * {@code putAll} and {@code removeAll} take whole arrays, so a batch needs arrays of exactly its
 * own length: full batches share one pair; a stream of one kind (A, B, F) adds only its last,
 * shorter batch; a mixed stream (C, E) adds one pair per length of its runs of one kind. No two
 * batches are in flight at once, so each length needs one pair, and the lengths of a stream's
 * batches, each counted once, add up to at most its number of operations.
 *
 * <p>The runner hands the adapters ranges that start on a multiple of {@link #size()} (whole
 * windows; see {@link Batching}); {@link #keys(int)} and {@link #values(int)} refuse a length
 * that the stream's batches do not have.
 */
public final class BatchBuffers {
    private final int size;
    /** The full batch's arrays; empty when the stream has no full batch (N above its length). */
    private final long[] keys;
    private final long[] values;
    /** The other lengths, ascending, and their arrays. */
    private final int[] lengths;
    private final long[][] otherKeys;
    private final long[][] otherValues;
    private final int batches;
    private final int longest;
    private final int operations;

    /** Buffers for batches of {@code size} keys over a stream of {@code ops} operations of one kind. */
    public BatchBuffers(int size, int ops) {
        this(size, check(size, ops) >= size, ops % size == 0 ? new int[0] : new int[] {ops % size},
                (int) (((long) ops + size - 1) / size), Math.min(size, ops), ops);
    }

    private BatchBuffers(int size, boolean full, int[] others, int batches, int longest, int operations) {
        this.size = size;
        keys = new long[full ? size : 0];
        values = new long[full ? size : 0];
        lengths = others;
        otherKeys = new long[others.length][];
        otherValues = new long[others.length][];
        for (int i = 0; i < others.length; i++) {
            otherKeys[i] = new long[others[i]];
            otherValues[i] = new long[others[i]];
        }
        this.batches = batches;
        this.longest = longest;
        this.operations = operations;
    }

    /**
     * Buffers for the batches {@link Batching} cuts from the whole of {@code ops}, at most
     * {@code size} operations each: the runner's, built once per cell outside the clock.
     */
    public static BatchBuffers forStream(int size, Operations ops) {
        check(size, ops.size());
        byte[] codes = ops.codes();
        TreeSet<Integer> others = new TreeSet<>();
        boolean full = false;
        int batches = 0;
        int longest = 0;
        int scans = 0;
        for (int i = 0; i < codes.length; ) {
            int end = Batching.end(codes, i, codes.length, size);
            if (Batching.isScan(codes[i])) {
                scans++;
            } else {
                int n = end - i;
                batches++;
                longest = Math.max(longest, n);
                if (n != size) {
                    others.add(n);
                } else {
                    full = true;
                }
            }
            i = end;
        }
        return new BatchBuffers(size, full, others.stream().mapToInt(Integer::intValue).toArray(), batches, longest,
                codes.length - scans);
    }

    private static int check(int size, int ops) {
        if (size < 1 || ops < 0) {
            throw new IllegalArgumentException("a batch of " + size + " keys over " + ops + " operations");
        }
        return ops;
    }

    /** Keys a full batch: the most a call gets. */
    public int size() {
        return size;
    }

    /** How many batched calls the stream makes (range scans, one a call, not counted). */
    public int batches() {
        return batches;
    }

    /** The longest batch of the stream. */
    public int longest() {
        return longest;
    }

    /** The mean number of operations a batched call, over the stream (0 for an empty one). */
    public double meanLength() {
        return batches == 0 ? 0 : operations / (double) batches;
    }

    /** The keys array for a batch of {@code n} keys. */
    public long[] keys(int n) {
        return n == keys.length ? keys : otherKeys[slot(n)];
    }

    /** The values array for a batch of {@code n} keys. */
    public long[] values(int n) {
        return n == values.length ? values : otherValues[slot(n)];
    }

    private int slot(int n) {
        int at = Arrays.binarySearch(lengths, n);
        if (at < 0) {
            throw new IllegalArgumentException("a batch of " + n + " keys: these buffers hold batches of at most "
                    + size + ": " + (keys.length > 0 ? size + (lengths.length == 0 ? " only" : " and ") : "")
                    + (lengths.length == 1 ? Integer.toString(lengths[0]) : lengths.length > 1
                    ? Arrays.toString(lengths) : ""));
        }
        return at;
    }
}
