package org.bforest.opencl.pages;

import static org.bforest.spi.LeafChainIndex.MAXKEY;
import static org.bforest.spi.LeafChainIndex.NONE;

import org.bforest.util.BatchOrder;

/**
 * The host's plan of an update batch, made before the device changes anything: the batch's keys
 * sorted and deduplicated (the last value of a repeated key wins), and, once the look-up has said
 * where each key is, the keys a leaf page takes (or loses) as one job of a {@link Level}, a sorted
 * run each. With the pages' counts on the host, the plan knows every split ({@link
 * Level#assignPieces}) and every launch's scratch ({@link LevelMerge#reserve}) in advance, so that a
 * device out of memory leaves the index as it was; once the device has run the jobs, the host's
 * counts and chain follow the plan ({@link LeafChain#link}, {@link LeafChain#drop}). Apart from
 * {@link PagedTree} because none of it touches the device: plain arrays in, a plan out.
 *
 * <p>A tree's one plan keeps its arrays from batch to batch (the sort's, the values', the
 * look-up's answers, the leaves' runs and jobs: about 60 bytes a key), for batches of up to
 * {@code keep} keys; a larger call allocates its own. Allocating them afresh cost a 1M-key
 * {@code putAll} 64 MB a batch, which the JVM clears and, while the heap grows, the kernel faults
 * in page by page (on a fresh VM that cost more than the sort). Writes are the caller's to
 * serialise, so one plan at a time: each call's result is valid until the next.
 */
final class BatchPlan {
    private static final long[] NO_LONGS = new long[0];
    private static final int[] NO_INTS = new int[0];
    private final int keep;
    private final BatchOrder.Buffers order;
    private long[] vals = NO_LONGS;
    private int[] found = NO_INTS;
    private long[] runKeys = NO_LONGS;
    private long[] runValues = NO_LONGS;
    /** The leaves' level of the batch in hand (one at a time), its job arrays kept. */
    private final Level leaves = new Level(false);
    /** The last {@link #distinctSorted}'s keys and values. */
    private long[] keys = NO_LONGS;
    private long[] values;

    /** A plan whose arrays are kept for batches of up to {@code keep} keys. */
    BatchPlan(int keep) {
        this.keep = keep;
        this.order = new BatchOrder.Buffers(keep);
    }

    /**
     * Sorts {@code keys} and drops repeats: returns {@code u}, the number of distinct keys, which
     * {@link #keys()} holds ascending at {@code [0, u)} and, when {@code values} is given,
     * {@link #values()} the last value each is given. Linear time: a stable radix sort of the
     * keys with their positions ({@link BatchOrder#ascending}, its passes over the host threads
     * of {@link HostWork}), the values gathered into key order (in parts too), then one pass that
     * keeps the last of every run of equal keys (a stable sort leaves the caller's last one last).
     */
    int distinctSorted(long[] keys, long[] values) {
        BatchOrder sorted = BatchOrder.ascending(keys, HostWork.parts(keys.length), BatchPlan::runParts, order);
        long[] k = sorted.keys;
        int[] from = sorted.from;
        int n = sorted.size();
        long[] v = null;
        if (values != null) {
            v = longs(vals, n);
            if (n <= keep) {
                vals = v;
            }
            // The values in key order first, a gather of its own in parts over the host's threads
            // (its random reads overlap; inside the loop below they waited on its branch: the
            // loop 1.6x slower on one thread, a scratch measurement).
            long[] into = v;
            HostWork.split(n, (p, lo, hi) -> {
                for (int i = lo; i < hi; i++) {
                    into[i] = values[from[i]];
                }
            });
        }
        int u = 0;
        for (int i = 0; i < n; i++) {
            if (i + 1 == n || k[i + 1] != k[i]) {
                if (v != null) {
                    v[u] = v[i];
                }
                k[u++] = k[i];   // the last of its run; u <= i, so nothing unread is overwritten
            }
        }
        this.keys = k;
        this.values = v;
        return u;
    }

    /** The last {@link #distinctSorted}'s keys, ascending and distinct at {@code [0, u)}. */
    long[] keys() {
        return keys;
    }

    /** The last {@link #distinctSorted}'s values, in the order of {@link #keys()} (null for a delete). */
    long[] values() {
        return values;
    }

    /** An array for a look-up's {@code n} answers ({@link PageStore#found}). */
    int[] found(int n) {
        if (found.length < n) {
            int[] a = new int[grown(found.length, n)];
            if (n > keep) {
                return a;
            }
            found = a;
        }
        return found;
    }

    /** The kept array {@code a} if it holds {@code n}, else a larger one (kept by the caller unless over {@link #keep}). */
    private long[] longs(long[] a, int n) {
        return a.length >= n ? a : new long[grown(a.length, n)];
    }

    /** The length an array of {@code length} grows to for {@code n}: by half at least, up to {@link #keep}. */
    private int grown(int length, int n) {
        return n > keep ? n : (int) Math.min(keep, Math.max(n, length + (length >> 1)));
    }

    /** Heap bytes kept between batches. */
    long bytes() {
        return order.bytes() + 8L * (vals.length + runKeys.length + runValues.length) + 4L * found.length
                + leaves.bytes();
    }

    /** Gives the kept arrays back to the heap (a tree cleared). */
    void release() {
        order.release();
        vals = runKeys = runValues = keys = NO_LONGS;
        values = null;
        found = NO_INTS;
        leaves.release();
    }

    /** {@link BatchOrder.Parts} on the host threads: part i of {@code parts} is {@link HostWork}'s part i. */
    private static void runParts(int parts, java.util.function.IntConsumer part) {
        HostWork.split(parts, parts, (p, from, to) -> {
            for (int i = from; i < to; i++) {
                part.accept(i);
            }
        });
    }

    /** The keys of {@code sorted[0, u)} that go to the leaves: all but {@code Long.MAX_VALUE}, which the host keeps. */
    static int inLeaves(long[] sorted, int u) {
        return u > 0 && sorted[u - 1] == MAXKEY ? u - 1 : u;
    }

    /** How many of a look-up's first {@code n} answers ({@link PageStore#found}) say "not there" ({@code < 0}). */
    static int missing(int[] found, int n) {
        int m = 0;
        for (int i = 0; i < n; i++) {
            m += found[i] < 0 ? 1 : 0;
        }
        return m;
    }

    /**
     * The leaves' jobs of an insert: the {@code fresh} keys of {@code keys[from, from + n)} that
     * the look-up did not find ({@code found}: {@link PageStore#found}, ~page for those), a run
     * with their values a leaf page, in key order (so in page order: the batch is sorted).
     */
    Level inserts(int[] found, int n, long[] keys, long[] vals, int from, int fresh, int[] leafCount) {
        Level leaves = this.leaves;
        leaves.reset();
        leaves.runKeys = longs(runKeys, fresh);
        leaves.runValues = longs(runValues, fresh);
        if (fresh <= keep) {
            runKeys = leaves.runKeys;
            runValues = leaves.runValues;
        }
        int r = 0;
        int prevPage = NONE;
        int j = -1;
        for (int i = 0; i < n; i++) {
            if (found[i] >= 0) {
                continue;
            }
            int p = ~found[i];
            if (p != prevPage) {
                j = leaves.add(p, leafCount[p], r, i);
                prevPage = p;
            }
            leaves.runLen[j]++;
            leaves.runKeys[r] = keys[from + i];
            leaves.runValues[r] = vals[from + i];
            r++;
        }
        return leaves;
    }

    /**
     * The leaves' jobs of a delete: the {@code present} keys of {@code keys[from, from + n)} that
     * the look-up found, a run a leaf page, each job's result staying in its page.
     */
    Level deletes(int[] found, int n, long[] keys, int from, int present, int[] leafCount) {
        Level lv = leaves;
        lv.reset();
        lv.runKeys = longs(runKeys, present);
        if (present <= keep) {
            runKeys = lv.runKeys;
        }
        int r = 0;
        int prevPage = NONE;
        int j = -1;
        for (int i = 0; i < n; i++) {
            if (found[i] < 0) {
                continue;
            }
            int p = found[i];
            if (p != prevPage) {
                j = lv.add(p, leafCount[p], r, i);
                lv.dest[j] = lv.destCount;
                lv.addDest(p);
                prevPage = p;
            }
            lv.runLen[j]++;
            lv.runKeys[r++] = keys[from + i];
        }
        return lv;
    }

    private static final int[] NONE_EMPTIED = new int[0];

    /** The jobs of a delete whose pages it empties, in key order. */
    static int[] emptied(Level lv) {
        int n = 0;
        for (int j = 0; j < lv.jobs; j++) {
            n += lv.total(j, true) == 0 ? 1 : 0;
        }
        if (n == 0) {
            return NONE_EMPTIED;
        }
        int[] jobs = new int[n];
        n = 0;
        for (int j = 0; j < lv.jobs; j++) {
            if (lv.total(j, true) == 0) {
                jobs[n++] = j;
            }
        }
        return jobs;
    }
}
