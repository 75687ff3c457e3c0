package org.bforest.util;

/**
 * A batch of keys grouped in key order, with where each key came from: the order every
 * structure's batched calls run a large batch in (written once here), so that consecutive
 * look-ups share the upper levels of the tree and read the leaves in ascending order instead of
 * one random line after another. The answers go back to the caller's order through {@link #from}.
 *
 * <p>A least-significant-digit radix sort of the keys (signed order) with their positions, 8 bits a
 * pass (256 buckets: both output streams of every bucket stay in the L1 cache), stable: equal
 * keys keep the order they had in the batch, which is what lets a batched put apply a repeated
 * key's values in order (the last one wins). It sorts only the leading bits that matter: from the
 * highest bit in which the batch's keys differ, down to about 8 bits below what separates
 * {@code size()} evenly spread keys. Keys that agree on those bits may stay in batch order
 * ({@link #sortedFromBit} says from which bit the order holds), which no tree can tell from ascending: they
 * lie a 256th of the batch's mean gap apart. So a uniform batch of a million 64-bit keys takes 4
 * passes, not 8; a digit every key shares is skipped. The arrays are the call's own (allocated
 * per sort, none per key).
 */
public final class BatchOrder {
    /**
     * The least batch the structures sort before they descend: below it, on a tree large enough
     * for the order to matter, the keys share nothing under the cached levels and the sort costs
     * more than it saves.
     */
    public static final int WORTH_SORTING = 4096;
    private static final int DIGIT_BITS = 8;
    private static final int BUCKETS = 1 << DIGIT_BITS;

    /** The batch's keys in order of their leading bits (see the class comment), repeats kept. */
    public final long[] keys;
    /** {@code from[i]}: the index in the caller's batch that {@code keys[i]} came from. */
    public final int[] from;
    /**
     * The lowest bit sorted: {@link #keys} ascends in the bits from this one up (signed order);
     * 0 when it is exactly ascending.
     */
    public final int sortedFromBit;

    private BatchOrder(long[] keys, int[] from, int sortedFromBit) {
        this.keys = keys;
        this.from = from;
        this.sortedFromBit = sortedFromBit;
    }

    /** The number of keys. */
    public int size() {
        return keys.length;
    }

    /**
     * Sorts {@code batch} (not changed) with its positions.
     *
     * @param batch the keys, in any order
     * @return the keys in order of their leading bits, each with the index it had in
     *         {@code batch}; equal keys in the order they came
     */
    public static BatchOrder of(long[] batch) {
        return sort(batch, false);
    }

    /**
     * Sorts {@code batch} (not changed) fully, with its positions: {@link #of} down to the last
     * bit ({@link #sortedFromBit} is 0), for the callers that need exact order, such as a batch's
     * deduplication (equal keys end up adjacent, in the order they came).
     *
     * @param batch the keys, in any order
     * @return the keys ascending, each with the index it had in {@code batch}; equal keys in the
     *         order they came
     */
    public static BatchOrder ascending(long[] batch) {
        return sort(batch, true);
    }

    private static BatchOrder sort(long[] batch, boolean full) {
        int n = batch.length;
        long[] k = new long[n];
        int[] p = new int[n];
        if (n == 0) {
            return new BatchOrder(k, p, 0);
        }
        // Signed order is the unsigned order of the keys with the sign bit flipped.
        long first = batch[0] ^ Long.MIN_VALUE;
        long differ = 0;
        boolean sorted = true;
        long prev = Long.MIN_VALUE;
        for (int i = 0; i < n; i++) {
            long key = batch[i];
            differ |= (key ^ Long.MIN_VALUE) ^ first;
            sorted &= key >= prev;
            prev = key;
            k[i] = key;
            p[i] = i;
        }
        if (sorted) {
            return new BatchOrder(k, p, 0); // already ascending (and stable): nothing to move
        }
        int differing = Long.SIZE - Long.numberOfLeadingZeros(differ);
        // Bits that separate n keys spread evenly, and 8 more; the digits below them stay unsorted.
        int wanted = full ? differing : Math.min(differing, Integer.SIZE - Integer.numberOfLeadingZeros(n) + DIGIT_BITS);
        int lowest = (differing - wanted) / DIGIT_BITS; // the lowest digit sorted
        int digits = (differing + DIGIT_BITS - 1) / DIGIT_BITS;
        int[][] counts = new int[digits][];
        for (int d = lowest; d < digits; d++) {
            counts[d] = new int[BUCKETS];
        }
        for (int i = 0; i < n; i++) {
            long u = k[i] ^ Long.MIN_VALUE;
            for (int d = lowest; d < digits; d++) {
                counts[d][(int) (u >>> (d * DIGIT_BITS)) & (BUCKETS - 1)]++;
            }
        }
        long[] k2 = new long[n];
        int[] p2 = new int[n];
        for (int d = lowest; d < digits; d++) {
            int[] c = counts[d];
            if (c[(int) ((first >>> (d * DIGIT_BITS)) & (BUCKETS - 1))] == n) {
                continue; // every key has this digit: the pass would move nothing
            }
            int sum = 0;
            for (int b = 0; b < BUCKETS; b++) {
                int t = c[b];
                c[b] = sum;
                sum += t;
            }
            int shift = d * DIGIT_BITS;
            for (int i = 0; i < n; i++) {
                long key = k[i];
                int at = c[(int) (((key ^ Long.MIN_VALUE) >>> shift) & (BUCKETS - 1))]++;
                k2[at] = key;
                p2[at] = p[i];
            }
            long[] tk = k;
            k = k2;
            k2 = tk;
            int[] tp = p;
            p = p2;
            p2 = tp;
        }
        return new BatchOrder(k, p, lowest * DIGIT_BITS);
    }
}
