package org.bforest.opencl.pages;

import org.bforest.opencl.DeviceSearch.QueryOrder;

/**
 * The orders a batch of look-ups can reach the device in ({@link QueryOrder}): a permutation of the
 * batch computed on the host with counting sorts by the keys' leading bits, never a comparison
 * sort. The leading bits are taken relative to the batch's own smallest and largest key, so a
 * batch from a narrow key range spreads over the buckets as well as a uniform one.
 */
final class QueryOrders {
    /** A bucket at most this large is finished with an insertion sort in a full sort. */
    private static final int SMALL = 32;
    private static final int MAX_BITS = 16;

    private QueryOrders() {
    }

    /**
     * The permutation {@code perm} of {@code [0, n)} that orders {@code keys[from + perm[i]]}:
     * {@link QueryOrder#PARTIAL}, by the leading bits only, in about {@code buckets} buckets (one
     * counting-sort pass); {@link QueryOrder#SORTED}, fully (the same pass, repeated inside every
     * bucket that holds more than a few keys). Equal keys keep their order.
     */
    static int[] permutation(long[] keys, int from, int n, QueryOrder order, int buckets) {
        int[] perm = new int[n];
        for (int i = 0; i < n; i++) {
            perm[i] = i;
        }
        if (order == QueryOrder.AS_GIVEN || n < 2) {
            return perm;
        }
        int[] tmp = new int[n];
        int want = order == QueryOrder.SORTED ? n : Math.min(buckets, n);
        int bits = Math.max(1, Math.min(MAX_BITS, 32 - Integer.numberOfLeadingZeros(want - 1)));
        // No pass uses more buckets than the batch has keys (a bucket's own pass: than it has).
        int[] count = new int[(1 << Math.max(bits, Math.min(MAX_BITS, 32 - Integer.numberOfLeadingZeros(n - 1)))) + 1];
        sort(keys, from, perm, 0, n, tmp, count, bits, order == QueryOrder.SORTED);
        return perm;
    }

    /**
     * The batch in {@code order} into {@code q} (n keys) with {@code perm} such that
     * {@code q[i] = keys[from + perm[i]]}: {@link #permutation} and {@link #permuted} in one, and
     * for {@link QueryOrder#PARTIAL} in one counting pass that moves the keys with their positions
     * (no second pass gathering keys from random places), split over the host's threads.
     * {@code counts}: the counts of the call before (any size, reused where large enough); returns
     * the ones to pass to the next.
     */
    static int[][] ordered(long[] keys, int from, int n, QueryOrder order, int buckets, long[] q, int[] perm,
                           int[][] counts) {
        if (order != QueryOrder.PARTIAL || n < 2) {
            int[] p = permutation(keys, from, n, order, buckets);
            System.arraycopy(p, 0, perm, 0, n);
            for (int i = 0; i < n; i++) {
                q[i] = keys[from + p[i]];
            }
            return counts;
        }
        // A stable counting sort in parts (HostWork): each part's range, then each part's counts,
        // then each part moves its keys to where the counts of the parts before it leave room:
        // the same order as one pass, in a fraction of its time.
        int parts = HostWork.parts(n);
        long[] mins = new long[parts];
        long[] maxs = new long[parts];
        HostWork.split(n, parts, (p, lo, hi) -> {
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            for (int i = lo; i < hi; i++) {
                long k = keys[from + i];
                min = Math.min(min, k);
                max = Math.max(max, k);
            }
            mins[p] = min;
            maxs[p] = max;
        });
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int p = 0; p < parts; p++) {
            min = Math.min(min, mins[p]);
            max = Math.max(max, maxs[p]);
        }
        long base = min;
        int bits = Math.max(1, Math.min(MAX_BITS, 32 - Integer.numberOfLeadingZeros(Math.min(buckets, n) - 1)));
        int used = 64 - Long.numberOfLeadingZeros(max - min);
        int shift = Math.max(0, used - bits);
        int nb = (int) ((max - min) >>> shift) + 1;
        int[][] count = counts.length >= parts && counts[0].length >= nb ? counts : new int[parts][nb];
        HostWork.split(n, parts, (p, lo, hi) -> {
            int[] c = count[p];
            java.util.Arrays.fill(c, 0, nb, 0);
            for (int i = lo; i < hi; i++) {
                c[(int) ((keys[from + i] - base) >>> shift)]++;
            }
        });
        int at = 0;
        for (int b = 0; b < nb; b++) {
            for (int p = 0; p < parts; p++) {
                int c = count[p][b];
                count[p][b] = at;
                at += c;
            }
        }
        HostWork.split(n, parts, (p, lo, hi) -> {
            int[] c = count[p];
            for (int i = lo; i < hi; i++) {
                long k = keys[from + i];
                int to = c[(int) ((k - base) >>> shift)]++;
                q[to] = k;
                perm[to] = i;
            }
        });
        return count;
    }

    /** The batch in the order {@code perm} gives: {@code keys[from + perm[i]]} for i below n. */
    static long[] permuted(long[] keys, int from, int[] perm, int n) {
        long[] q = new long[n];
        for (int i = 0; i < n; i++) {
            q[i] = keys[from + perm[i]];
        }
        return q;
    }

    /** The answers of a {@link #permuted} batch back in the caller's order: {@code dst[to + perm[i]] = src[i]}. */
    static void unpermute(long[] src, int[] perm, int n, long[] dst, int to) {
        for (int i = 0; i < n; i++) {
            dst[to + perm[i]] = src[i];
        }
    }

    /** Orders perm[lo, hi) by the keys' leading {@code bits} bits within their range; recursively if {@code full}. */
    private static void sort(long[] keys, int from, int[] perm, int lo, int hi, int[] tmp, int[] count, int bits,
                             boolean full) {
        if (full && hi - lo <= SMALL) {
            insertionSort(keys, from, perm, lo, hi);
            return;
        }
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int i = lo; i < hi; i++) {
            long k = keys[from + perm[i]];
            min = Math.min(min, k);
            max = Math.max(max, k);
        }
        if (min == max) {
            return;
        }
        // Bucket of k: the leading `bits` bits of k - min (unsigned: the range may span 2^64 - 1).
        int used = 64 - Long.numberOfLeadingZeros(max - min);
        int shift = Math.max(0, used - bits);
        int nb = (int) ((max - min) >>> shift) + 1;
        java.util.Arrays.fill(count, 0, nb + 1, 0);
        for (int i = lo; i < hi; i++) {
            count[(int) ((keys[from + perm[i]] - min) >>> shift) + 1]++;
        }
        for (int b = 0; b < nb; b++) {
            count[b + 1] += count[b];
        }
        for (int i = lo; i < hi; i++) {
            int p = perm[i];
            tmp[lo + count[(int) ((keys[from + p] - min) >>> shift)]++] = p;
        }
        System.arraycopy(tmp, lo, perm, lo, hi - lo);
        if (!full) {
            return;
        }
        // count[b] is now the end of bucket b; each bucket is sorted the same way, in its own range.
        int start = lo;
        int[] ends = java.util.Arrays.copyOf(count, nb);
        for (int b = 0; b < nb; b++) {
            int end = lo + ends[b];
            if (end - start > 1) {
                int sub = Math.max(1, Math.min(MAX_BITS, 32 - Integer.numberOfLeadingZeros(end - start - 1)));
                sort(keys, from, perm, start, end, tmp, count, sub, true);
            }
            start = end;
        }
    }

    private static void insertionSort(long[] keys, int from, int[] perm, int lo, int hi) {
        for (int i = lo + 1; i < hi; i++) {
            int p = perm[i];
            long k = keys[from + p];
            int j = i - 1;
            while (j >= lo && keys[from + perm[j]] > k) {
                perm[j + 1] = perm[j];
                j--;
            }
            perm[j + 1] = p;
        }
    }
}
