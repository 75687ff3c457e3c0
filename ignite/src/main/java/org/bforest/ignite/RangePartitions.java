package org.bforest.ignite;

import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.Serial;
import java.io.Serializable;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Objects;

/**
 * The signed {@code long} key space cut into {@code P} contiguous partitions by {@code P - 1}
 * strictly ascending split points: partition {@code p} holds the keys in
 * {@code [split[p - 1], split[p])}, partition {@code 0} starts at {@link Long#MIN_VALUE} and the
 * last one ends at {@link Long#MAX_VALUE} inclusive. A key's partition is a binary search over the
 * split points; a key range maps to a run of consecutive partitions, which is what lets an
 * ordered index be cut across nodes without losing its order.
 *
 * <p>Immutable and {@link Serializable} (it travels inside a cache configuration to every node).
 * At most {@value #MAX_PARTITIONS} partitions, Ignite's own limit.
 *
 * <pre>{@code
 * RangePartitions ranges = RangePartitions.even(64);
 * int p = ranges.partition(42L);                       // 32: 0 opens the upper half
 * RangePartitions.Span s = ranges.partitionsCovering(-10, true, 10, false);   // 31..32
 * }</pre>
 */
public final class RangePartitions implements Serializable {
    /** The serialized form's version. */
    @Serial
    private static final long serialVersionUID = 1L;

    /** The most partitions, Ignite's {@code CacheConfiguration.MAX_PARTITIONS_COUNT}. */
    public static final int MAX_PARTITIONS = 65_000;

    /** How many split points {@link #toString()} shows before it elides the rest. */
    private static final int SHOWN_SPLITS = 8;

    /** Strictly ascending, none {@link Long#MIN_VALUE}; partition p holds [splits[p-1], splits[p]). */
    private final long[] splits;

    private RangePartitions(long[] splits) {
        this.splits = splits;
    }

    /**
     * {@code partitions} partitions of equal width over the whole signed range (widths differ by
     * at most one key, as {@code 2^64} rarely divides evenly). Right for keys spread evenly over
     * the signed range (hashes, random ids); for keys that crowd a part of it (timestamps,
     * counters) use {@link #fromSample}.
     *
     * @param partitions how many partitions
     * @return the partitions
     * @throws IllegalArgumentException if {@code partitions} is not in {@code [1, 65000]}
     */
    public static RangePartitions even(int partitions) {
        checkCount(partitions);
        long[] splits = new long[partitions - 1];
        BigInteger span = BigInteger.ONE.shiftLeft(Long.SIZE);
        BigInteger parts = BigInteger.valueOf(partitions);
        for (int i = 1; i < partitions; i++) {
            // floor(i * 2^64 / P) keys below split i, counted from MIN_VALUE (exact, not a rounded step).
            long offset = span.multiply(BigInteger.valueOf(i)).divide(parts).longValue();
            splits[i - 1] = Long.MIN_VALUE + offset;
        }
        return new RangePartitions(splits);
    }

    /**
     * Up to {@code partitions} partitions that each hold about the same share of {@code sample}:
     * split {@code i} is the sample's {@code i/P} quantile, so the sample's key there opens
     * partition {@code i}. The sample need not be sorted (it is copied, then sorted) and may hold
     * duplicates.
     *
     * <p><b>Fewer partitions than asked</b> when the sample has too few distinct values: quantiles
     * that fall on the same key, or on {@link Long#MIN_VALUE} (which cannot open a partition but
     * the first), are merged, so {@link #partitions()} is between {@code 1} and
     * {@code partitions}; never two equal split points, never an empty partition. Ask for what
     * you need from {@link #partitions()}, not from the argument.
     *
     * @param sample     keys like those the partitions will hold, in any order; not changed
     * @param partitions how many partitions at most
     * @return the partitions
     * @throws NullPointerException     if {@code sample} is null
     * @throws IllegalArgumentException if {@code sample} is empty or {@code partitions} is not in
     *                                  {@code [1, 65000]}
     */
    public static RangePartitions fromSample(long[] sample, int partitions) {
        Objects.requireNonNull(sample, "sample");
        checkCount(partitions);
        if (sample.length == 0) {
            throw new IllegalArgumentException("the sample is empty: pass at least one key, or use even("
                    + partitions + ") for keys spread over the whole signed range");
        }
        long[] sorted = sample.clone();
        Arrays.sort(sorted);
        long[] splits = new long[partitions - 1];
        int n = 0;
        for (int i = 1; i < partitions; i++) {
            long q = sorted[(int) ((long) i * sorted.length / partitions)];
            // Quantiles only grow: a repeat is a duplicate quantile, merged into the partition before.
            if (q != Long.MIN_VALUE && (n == 0 || q != splits[n - 1])) {
                splits[n++] = q;
            }
        }
        return new RangePartitions(Arrays.copyOf(splits, n));
    }

    /**
     * The partitions cut at exactly these split points: {@code splits.length + 1} partitions,
     * split {@code i} opening partition {@code i + 1}. No split points is one partition.
     *
     * @param splits the split points, strictly ascending; copied
     * @return the partitions
     * @throws NullPointerException     if {@code splits} is null
     * @throws IllegalArgumentException if the splits are not strictly ascending, if the first is
     *                                  {@link Long#MIN_VALUE} (partition 0 would be empty), or if
     *                                  there are more than 64999 of them
     */
    public static RangePartitions of(long... splits) {
        Objects.requireNonNull(splits, "splits");
        String problem = problem(splits);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        return new RangePartitions(splits.clone());
    }

    /**
     * How many partitions.
     *
     * @return the split points plus one
     */
    public int partitions() {
        return splits.length + 1;
    }

    /**
     * The split points.
     *
     * @return a copy of them, ascending: element {@code i} is the lowest key of partition {@code i + 1}
     */
    public long[] splits() {
        return splits.clone();
    }

    /**
     * The partition that holds a key: a binary search, no allocation.
     *
     * @param key any key
     * @return how many split points are {@code <= key}, in {@code [0, partitions())}
     */
    public int partition(long key) {
        int lo = 0;
        int hi = splits.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (splits[mid] <= key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * The lowest key of a partition.
     *
     * @param p the partition
     * @return its lowest key (inclusive)
     * @throws IndexOutOfBoundsException if {@code p} is not in {@code [0, partitions())}
     */
    public long lowest(int p) {
        checkPartition(p);
        return p == 0 ? Long.MIN_VALUE : splits[p - 1];
    }

    /**
     * The highest key of a partition.
     *
     * @param p the partition
     * @return its highest key (inclusive)
     * @throws IndexOutOfBoundsException if {@code p} is not in {@code [0, partitions())}
     */
    public long highest(int p) {
        checkPartition(p);
        return p == splits.length ? Long.MAX_VALUE : splits[p] - 1;
    }

    /**
     * The run of partitions that holds every key of the range from {@code lo} to {@code hi}, each
     * bound inclusive or not: what a range query must visit. {@link Span#EMPTY} when the range
     * holds no key ({@code lo > hi}, or an exclusive bound that leaves nothing, such as
     * {@code [5, 5)} or {@code (MAX_VALUE, ...]}).
     *
     * @param lo          the range's lower bound
     * @param loInclusive whether {@code lo} is in the range
     * @param hi          the range's upper bound
     * @param hiInclusive whether {@code hi} is in the range
     * @return the first and last partition the range's keys fall in, or {@link Span#EMPTY}
     */
    public Span partitionsCovering(long lo, boolean loInclusive, long hi, boolean hiInclusive) {
        if (!loInclusive) {
            if (lo == Long.MAX_VALUE) {
                return Span.EMPTY;
            }
            lo++;
        }
        if (!hiInclusive) {
            if (hi == Long.MIN_VALUE) {
                return Span.EMPTY;
            }
            hi--;
        }
        return lo > hi ? Span.EMPTY : new Span(partition(lo), partition(hi));
    }

    /**
     * A run of consecutive partitions, {@code first} to {@code last} inclusive; empty when
     * {@code first > last} (then it is {@link #EMPTY}).
     *
     * @param first the first partition
     * @param last  the last partition (inclusive)
     */
    public record Span(int first, int last) {
        /** No partition: a range with no key in it. */
        public static final Span EMPTY = new Span(0, -1);

        /**
         * Whether the run holds no partition.
         *
         * @return {@code first > last}
         */
        public boolean isEmpty() {
            return first > last;
        }

        /**
         * How many partitions the run holds.
         *
         * @return {@code last - first + 1}, or 0 when empty
         */
        public int count() {
            return isEmpty() ? 0 : last - first + 1;
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RangePartitions r && Arrays.equals(splits, r.splits);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(splits);
    }

    /** The partition count and the split points, the first few of them when there are many. */
    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("RangePartitions[partitions=").append(partitions()).append(", splits=[");
        int shown = Math.min(splits.length, SHOWN_SPLITS);
        for (int i = 0; i < shown; i++) {
            s.append(i == 0 ? "" : ", ").append(splits[i]);
        }
        if (shown < splits.length) {
            s.append(", ... ").append(splits.length - shown).append(" more, last ").append(splits[splits.length - 1]);
        }
        return s.append("]]").toString();
    }

    /**
     * Reads the split points and checks them as {@link #of} does: a stream is input like any
     * other, and a forged one must not build partitions that break the search.
     *
     * @param in the stream
     * @throws IOException            if the stream fails, or its split points are not valid
     *                                ({@link InvalidObjectException})
     * @throws ClassNotFoundException if a class in the stream is not found
     */
    @Serial
    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        String problem = splits == null ? "no split points" : problem(splits);
        if (problem != null) {
            throw new InvalidObjectException(problem);
        }
    }

    private static void checkCount(int partitions) {
        if (partitions < 1 || partitions > MAX_PARTITIONS) {
            throw new IllegalArgumentException("partitions must be in [1, " + MAX_PARTITIONS + "] (Ignite's limit), got "
                    + partitions);
        }
    }

    private void checkPartition(int p) {
        if (p < 0 || p > splits.length) {
            throw new IndexOutOfBoundsException("partition " + p + " does not exist: there are " + partitions()
                    + " partitions, 0 to " + splits.length);
        }
    }

    /** What is wrong with these split points, or null when they are fine. */
    private static String problem(long[] splits) {
        if (splits.length + 1 > MAX_PARTITIONS) {
            return splits.length + " split points make " + (splits.length + 1L) + " partitions; at most "
                    + (MAX_PARTITIONS - 1) + " split points (" + MAX_PARTITIONS + " partitions, Ignite's limit)";
        }
        if (splits.length > 0 && splits[0] == Long.MIN_VALUE) {
            return "split point 0 is Long.MIN_VALUE, which would leave partition 0 empty: partition 0 starts at"
                    + " Long.MIN_VALUE already, drop that split point";
        }
        for (int i = 1; i < splits.length; i++) {
            if (splits[i] <= splits[i - 1]) {
                return "split points must be strictly ascending, but split " + i + " (" + splits[i] + ") is "
                        + (splits[i] == splits[i - 1] ? "equal to" : "below") + " split " + (i - 1) + " ("
                        + splits[i - 1] + "): sort them and drop duplicates";
            }
        }
        return null;
    }
}
