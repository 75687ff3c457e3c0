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
 * passes, not 8; a digit every key shares is skipped. {@link #ascending} sorts the same leading
 * bits and then only the runs of keys that agree on them, which are short (a uniform batch's are
 * nearly all one key): a stable insertion sort for a short run, the same radix passes over the
 * rest of the bits for a long one; so exact order costs one more sequential pass, not four more
 * scattering ones. The arrays are the call's own (allocated per sort, none per key), or, for a
 * caller that sorts batch after batch, its {@link Buffers}' (allocated once).
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
    /**
     * The longest run of keys agreeing in the sorted bits that {@link #ascending} finishes by
     * insertion (at most this squared over four moves); a longer one gets radix passes, whose
     * 256 counters a digit cost more than insertion below about this many keys.
     */
    private static final int INSERTION_RUN = 48;
    /** The least batch {@link #ascending(long[], int, Parts)} splits over parts. */
    static final int PARALLEL_FROM = 1 << 16;

    /**
     * The batch's keys in order of their leading bits (see the class comment), repeats kept, at
     * {@code [0, size())}: the array is longer only when it is a {@link Buffers}' array.
     */
    public final long[] keys;
    /** {@code from[i]}: the index in the caller's batch that {@code keys[i]} came from ({@code i < size()}). */
    public final int[] from;
    /**
     * The lowest bit sorted: {@link #keys} ascends in the bits from this one up (signed order);
     * 0 when it is exactly ascending.
     */
    public final int sortedFromBit;
    private final int size;

    private BatchOrder(long[] keys, int[] from, int sortedFromBit, int size) {
        this.keys = keys;
        this.from = from;
        this.sortedFromBit = sortedFromBit;
        this.size = size;
    }

    /** The number of keys. */
    public int size() {
        return size;
    }

    /**
     * The arrays a caller keeps from sort to sort ({@link #ascending(long[], int, Parts, Buffers)}):
     * the result's keys and positions and the sort's scratch, 24 bytes a key, grown when a batch
     * is larger (by half at least) and kept for batches of up to {@code keep} keys. A structure
     * that sorts batch after batch then allocates nothing a batch: no megabytes for the JVM to
     * clear and, while the heap is still growing, none for the kernel to fault in afresh (on a
     * fresh VM that costs more than the sort). A larger batch gets arrays of its own, not kept.
     * Not thread-safe: one sort at a time, and each sort's result is valid until the next.
     */
    public static final class Buffers {
        private static final long[] NO_KEYS = new long[0];
        private static final int[] NO_POSITIONS = new int[0];
        private final int keep;
        private long[] k = NO_KEYS;
        private long[] k2 = NO_KEYS;
        private int[] p = NO_POSITIONS;
        private int[] p2 = NO_POSITIONS;

        /** Buffers kept for batches of up to {@code keep} keys (at least 0). */
        public Buffers(int keep) {
            if (keep < 0) {
                throw new IllegalArgumentException("keep must be at least 0, got " + keep);
            }
            this.keep = keep;
        }

        /** The heap bytes kept. */
        public long bytes() {
            return 12L * (k.length + k2.length);
        }

        /** Gives the arrays back to the heap (the next sort allocates them again). */
        public void release() {
            k = k2 = NO_KEYS;
            p = p2 = NO_POSITIONS;
        }

        /** Room for a batch of {@code n}; false when it is over {@link #keep} (the sort allocates its own). */
        private boolean fit(int n) {
            if (n > keep) {
                return false;
            }
            if (k.length < n) {
                int size = (int) Math.min(keep, Math.max(n, k.length + (k.length >> 1)));
                release();   // the old ones are garbage before the new ones are allocated
                k = new long[size];
                k2 = new long[size];
                p = new int[size];
                p2 = new int[size];
            }
            return true;
        }
    }

    /**
     * Sorts {@code batch} (not changed) with its positions.
     *
     * @param batch the keys, in any order
     * @return the keys in order of their leading bits, each with the index it had in
     *         {@code batch}; equal keys in the order they came
     */
    public static BatchOrder of(long[] batch) {
        return sort(batch, false, null);
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
        return sort(batch, true, null);
    }

    /**
     * {@link #ascending(long[])} with its passes cut into {@code parts} parts that {@code runner}
     * may run side by side (the OpenCL trees hand their host threads): the batch is first split by
     * its 8 leading differing bits (each part counts and moves its own slice, so the split is
     * stable), then each of the 256 buckets, a contiguous range small enough for the caches, is
     * sorted on its own as {@link #ascending(long[])} sorts a batch, the parts claiming buckets in
     * turn. One part, or a batch below 64K keys, is the one-thread sort.
     *
     * @param batch the keys, in any order (not changed)
     * @param parts how many parts each pass is cut into, at least 1
     * @param runner runs parts {@code 0..parts-1} of a pass and returns when every one has
     * @return as {@link #ascending(long[])}
     */
    public static BatchOrder ascending(long[] batch, int parts, Parts runner) {
        return ascending(batch, parts, runner, null);
    }

    /**
     * {@link #ascending(long[], int, Parts)} into {@code buffers}' arrays (null: the call's own):
     * the result's {@link #keys} and {@link #from} are then the buffers', valid until their next
     * sort, and may be longer than {@link #size()}.
     *
     * @param batch the keys, in any order (not changed)
     * @param parts how many parts each pass is cut into, at least 1
     * @param runner runs parts {@code 0..parts-1} of a pass and returns when every one has
     * @param buffers the arrays kept from sort to sort, or null
     * @return as {@link #ascending(long[])}
     */
    public static BatchOrder ascending(long[] batch, int parts, Parts runner, Buffers buffers) {
        int n = batch.length;
        if (parts < 1) {
            throw new IllegalArgumentException("parts must be at least 1, got " + parts);
        }
        if (parts == 1 || n < PARALLEL_FROM) {
            return sort(batch, true, buffers);
        }
        boolean kept = buffers != null && buffers.fit(n);
        long[] k = kept ? buffers.k : new long[n];
        int[] p = kept ? buffers.p : new int[n];
        long[] differs = new long[parts];
        boolean[] sorted = new boolean[parts];
        long first = batch[0];
        runner.run(parts, part -> differs[part] = copy(batch, k, p, start(n, parts, part), start(n, parts, part + 1),
                first, sorted, part));
        long differ = 0;
        boolean all = true;
        for (int part = 0; part < parts; part++) {
            differ |= differs[part];
            all &= sorted[part];
        }
        if (all) {
            return new BatchOrder(k, p, 0, n);
        }
        // The split: the 8 leading bits in which the keys differ (above them all keys agree).
        int shift = Math.max(0, Long.SIZE - Long.numberOfLeadingZeros(differ) - DIGIT_BITS);
        int[][] offsets = new int[parts][BUCKETS];
        runner.run(parts, part -> {
            int[] c = offsets[part];
            for (int i = start(n, parts, part), to = start(n, parts, part + 1); i < to; i++) {
                c[(int) (((k[i] ^ Long.MIN_VALUE) >>> shift) & (BUCKETS - 1))]++;
            }
        });
        int[] bucketStart = new int[BUCKETS + 1];
        int sum = 0;
        for (int b = 0; b < BUCKETS; b++) {
            bucketStart[b] = sum;
            for (int part = 0; part < parts; part++) {   // a bucket's keys in part order: stable
                int t = offsets[part][b];
                offsets[part][b] = sum;
                sum += t;
            }
        }
        bucketStart[BUCKETS] = n;
        long[] k2 = kept ? buffers.k2 : new long[n];
        int[] p2 = kept ? buffers.p2 : new int[n];
        runner.run(parts, part -> {
            int[] at = offsets[part];
            for (int i = start(n, parts, part), to = start(n, parts, part + 1); i < to; i++) {
                long key = k[i];
                int to2 = at[(int) (((key ^ Long.MIN_VALUE) >>> shift) & (BUCKETS - 1))]++;
                k2[to2] = key;
                p2[to2] = p[i];
            }
        });
        // Each bucket sorted exactly in place in k2/p2, with k/p (now free) as its scratch.
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        runner.run(parts, part -> {
            int[][] counts = new int[Long.SIZE / DIGIT_BITS][BUCKETS];
            for (int b = next.getAndIncrement(); b < BUCKETS; b = next.getAndIncrement()) {
                int from = bucketStart[b];
                int to = bucketStart[b + 1];
                if (to - from > 1) {
                    long d = 0;
                    for (int i = from + 1; i < to; i++) {
                        d |= k2[i] ^ k2[from];
                    }
                    sortRange(k2, p2, k, p, counts, from, to, d);
                }
            }
        });
        return new BatchOrder(k2, p2, 0, n);
    }

    /** Runs the parts of a pass ({@link #ascending(long[], int, Parts)}). */
    @FunctionalInterface
    public interface Parts {
        /** Runs {@code part.accept(i)} for every i in {@code [0, parts)}, in any order or side by side; returns when all have. */
        void run(int parts, java.util.function.IntConsumer part);
    }

    /** Where part {@code part} of {@code parts} over {@code [0, n)} starts. */
    private static int start(int n, int parts, int part) {
        return (int) ((long) n * part / parts);
    }

    /**
     * Copies {@code batch[from, to)} to {@code k} with the positions to {@code p}; sets
     * {@code ascending[slot]} to whether that slice ascends (from the key before it); returns the
     * bits in which its keys differ from {@code first}.
     */
    private static long copy(long[] batch, long[] k, int[] p, int from, int to, long first, boolean[] ascending,
            int slot) {
        long differ = 0;
        boolean sorted = true;
        long prev = from == 0 ? Long.MIN_VALUE : batch[from - 1];
        for (int i = from; i < to; i++) {
            long key = batch[i];
            differ |= key ^ first;
            sorted &= key >= prev;
            prev = key;
            k[i] = key;
            p[i] = i;
        }
        ascending[slot] = sorted;
        return differ;
    }

    /** The one-thread sort, into {@code buffers}' arrays where given (null: the call's own). */
    private static BatchOrder sort(long[] batch, boolean full, Buffers buffers) {
        int n = batch.length;
        boolean kept = buffers != null && buffers.fit(n);
        long[] k = kept ? buffers.k : new long[n];
        int[] p = kept ? buffers.p : new int[n];
        if (n == 0) {
            return new BatchOrder(k, p, 0, n);
        }
        boolean[] sorted = new boolean[1];
        long differ = copy(batch, k, p, 0, n, batch[0], sorted, 0);
        if (sorted[0]) {
            return new BatchOrder(k, p, 0, n); // already ascending (and stable): nothing to move
        }
        long[] k2 = kept ? buffers.k2 : new long[n];
        int[] p2 = kept ? buffers.p2 : new int[n];
        int[][] counts = new int[Long.SIZE / DIGIT_BITS][BUCKETS];
        int from = full ? sortRange(k, p, k2, p2, counts, 0, n, differ)
                : leadingBits(k, p, k2, p2, counts, 0, n, differ);
        return new BatchOrder(k, p, from, n);
    }

    /**
     * Sorts {@code [from, to)} of {@code k} (positions {@code p} alongside) by its leading bits,
     * as {@link #of} promises, with {@code k2}, {@code p2} as scratch at the same indices; the
     * result is in {@code k}, {@code p}. {@code differ}: the bits in which the range's keys
     * differ (the OR of each key XOR any one of them). Returns the lowest bit sorted.
     */
    private static int leadingBits(long[] k, int[] p, long[] k2, int[] p2, int[][] counts, int from, int to,
            long differ) {
        int n = to - from;
        int differing = Long.SIZE - Long.numberOfLeadingZeros(differ);
        // Bits that separate n keys spread evenly, and 8 more; the digits below them stay unsorted
        // (ascending() finishes the runs that agree on the sorted ones afterwards).
        int wanted = Math.min(differing, Integer.SIZE - Integer.numberOfLeadingZeros(n) + DIGIT_BITS);
        int lowest = (differing - wanted) / DIGIT_BITS; // the lowest digit sorted
        int digits = (differing + DIGIT_BITS - 1) / DIGIT_BITS;
        if (radix(k, p, k2, p2, counts, from, to, lowest, digits)) {
            System.arraycopy(k2, from, k, from, n);   // an odd number of passes ended in the scratch
            System.arraycopy(p2, from, p, from, n);
        }
        return lowest * DIGIT_BITS;
    }

    /**
     * Sorts {@code [from, to)} of {@code k} (positions alongside) exactly and stably, the result
     * in {@code k}, {@code p}: its leading bits ({@link #leadingBits}), then each run of keys
     * that agree in them (in batch order) by the bits below. Returns 0, the lowest bit sorted.
     */
    private static int sortRange(long[] k, int[] p, long[] k2, int[] p2, int[][] counts, int from, int to,
            long differ) {
        if (to - from <= INSERTION_RUN) {
            insertion(k, p, from, to);
            return 0;
        }
        int shift = leadingBits(k, p, k2, p2, counts, from, to, differ);
        if (shift == 0) {
            return 0;
        }
        int lowest = shift / DIGIT_BITS;
        int start = from;
        for (int i = from + 1; i <= to; i++) {
            if (i < to && (k[i] ^ k[start]) >>> shift == 0) {
                continue;
            }
            if (i - start > INSERTION_RUN) {
                if (radix(k, p, k2, p2, counts, start, i, 0, lowest)) {
                    System.arraycopy(k2, start, k, start, i - start);
                    System.arraycopy(p2, start, p, start, i - start);
                }
            } else if (i - start > 1) {
                insertion(k, p, start, i);
            }
            start = i;
        }
        return 0;
    }

    /**
     * Stable LSD radix passes over {@code [from, to)} of {@code k} and {@code p} (positions
     * alongside), digits {@code [lowest, digits)}, between them and the scratch {@code k2},
     * {@code p2}; a digit every key there shares is skipped. {@code counts}: a digit's 256
     * counters each, reused from call to call (a sort's many runs allocate nothing). Returns
     * whether the result ended in the scratch (an odd number of passes).
     */
    private static boolean radix(long[] k, int[] p, long[] k2, int[] p2, int[][] counts, int from, int to,
            int lowest, int digits) {
        int n = to - from;
        if (digits <= lowest) {
            return false;
        }
        for (int d = lowest; d < digits; d++) {
            java.util.Arrays.fill(counts[d], 0);
        }
        for (int i = from; i < to; i++) {
            long u = k[i] ^ Long.MIN_VALUE;
            for (int d = lowest; d < digits; d++) {
                counts[d][(int) (u >>> (d * DIGIT_BITS)) & (BUCKETS - 1)]++;
            }
        }
        long first = k[from] ^ Long.MIN_VALUE;
        boolean inScratch = false;
        long[] src = k;
        long[] dst = k2;
        int[] srcP = p;
        int[] dstP = p2;
        for (int d = lowest; d < digits; d++) {
            int[] c = counts[d];
            if (c[(int) ((first >>> (d * DIGIT_BITS)) & (BUCKETS - 1))] == n) {
                continue; // every key has this digit: the pass would move nothing
            }
            int sum = from;
            for (int b = 0; b < BUCKETS; b++) {
                int t = c[b];
                c[b] = sum;
                sum += t;
            }
            int shift = d * DIGIT_BITS;
            for (int i = from; i < to; i++) {
                long key = src[i];
                int at = c[(int) (((key ^ Long.MIN_VALUE) >>> shift) & (BUCKETS - 1))]++;
                dst[at] = key;
                dstP[at] = srcP[i];
            }
            long[] tk = src;
            src = dst;
            dst = tk;
            int[] tp = srcP;
            srcP = dstP;
            dstP = tp;
            inScratch = !inScratch;
        }
        return inScratch;
    }

    /** A stable insertion sort of {@code [from, to)} by key (signed), positions alongside. */
    private static void insertion(long[] k, int[] p, int from, int to) {
        for (int i = from + 1; i < to; i++) {
            long key = k[i];
            int pos = p[i];
            int j = i - 1;
            while (j >= from && k[j] > key) {
                k[j + 1] = k[j];
                p[j + 1] = p[j];
                j--;
            }
            k[j + 1] = key;
            p[j + 1] = pos;
        }
    }
}
