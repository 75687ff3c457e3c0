package org.bforest.opencl.pages;

import static org.bforest.spi.LeafChainIndex.MAXKEY;
import static org.bforest.spi.LeafChainIndex.NONE;

import java.util.Arrays;
import org.bforest.util.BatchOrder;

/**
 * The host's plan of an update batch, made before the device changes anything: the batch's keys
 * sorted and deduplicated (the last value of a repeated key wins), and, once the look-up has said
 * where each key is, the keys a leaf page takes (or loses) as one job of a {@link Level}, a sorted
 * run each. With the pages' counts on the host, the plan knows every split ({@link
 * Level#assignPieces}) and every launch's scratch ({@link LevelMerge#reserve}) in advance, so that a
 * device out of memory leaves the index as it was; once the device has run the jobs, the host's
 * counts and chain follow the plan ({@link #linkPieces}, {@link #dropRuns}). Apart from
 * {@link PagedTree} because none of it touches the device: plain arrays in, a plan out.
 */
final class BatchPlan {
    private BatchPlan() {
    }

    /**
     * The distinct keys of {@code keys} in ascending order (at {@code [0][0, u)}) and, when
     * {@code values} is given, the last value each is given ({@code [1]}), with
     * {@code u = result[0].length}. Linear time: a stable radix sort of the keys with their
     * positions ({@link BatchOrder#ascending}, its passes over the host threads of
     * {@link HostWork}), the values gathered into key order (in parts too), then one pass that
     * keeps the last of every run of equal keys (a stable sort leaves the caller's last one last).
     */
    static long[][] distinctSorted(long[] keys, long[] values) {
        BatchOrder order = BatchOrder.ascending(keys, HostWork.parts(keys.length), BatchPlan::runParts);
        long[] k = order.keys;
        int[] from = order.from;
        int n = k.length;
        long[] vals = values == null ? null : new long[n];
        if (vals != null) {
            // The values in key order first, a gather of its own in parts over the host's threads
            // (its random reads overlap; inside the loop below they waited on its branch: the
            // loop 1.6x slower on one thread, a scratch measurement).
            HostWork.split(n, (p, lo, hi) -> {
                for (int i = lo; i < hi; i++) {
                    vals[i] = values[from[i]];
                }
            });
        }
        int u = 0;
        for (int i = 0; i < n; i++) {
            if (i + 1 == n || k[i + 1] != k[i]) {
                if (vals != null) {
                    vals[u] = vals[i];
                }
                k[u++] = k[i];   // the last of its run; u <= i, so nothing unread is overwritten
            }
        }
        return u == n ? new long[][] {k, vals}
                : new long[][] {Arrays.copyOf(k, u), vals == null ? null : Arrays.copyOf(vals, u)};
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
    static Level inserts(int[] found, int n, long[] keys, long[] vals, int from, int fresh, int[] leafCount) {
        Level leaves = new Level(false);
        leaves.runKeys = new long[fresh];
        leaves.runValues = new long[fresh];
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
    static Level deletes(int[] found, int n, long[] keys, int from, int present, int[] leafCount) {
        Level lv = new Level(false);
        lv.runKeys = new long[present];
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
