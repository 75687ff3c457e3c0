package org.bforest.spi;

import static org.bforest.spi.LeafChainIndex.MAXKEY;
import static org.bforest.spi.LeafChainIndex.POS_NONE;

import java.util.Objects;
import org.bforest.util.BatchArguments;
import org.bforest.util.BatchOrder;

/**
 * The batched calls of every {@link LeafChainIndex}, written once over the two steps a structure
 * gives ({@link LeafChainIndex#findLeaves}, {@link LeafChainIndex#leafGet}):
 * <ul>
 * <li>A large batch is put in key order first ({@link BatchOrder}, stable), so consecutive keys
 *     share the upper levels and the leaves are read in ascending order; the answers go back to
 *     the caller's order. Reads are ordered only when the batch is large next to the tree (an
 *     eighth of its keys): below that its keys share little below the cached levels and the sort
 *     costs more than it saves (measured: {@link #orderReads}).</li>
 * <li>The keys go {@value #GROUP} at a time through the structure's lock-step descent, so their
 *     cache misses overlap; then each key's own step reads a leaf whose lines are already on their
 *     way.</li>
 * <li>{@code putAll} runs the same descent, then puts each key straight into the leaf it found
 *     ({@link LeafChainIndex#leafPut}) while the tree's shape has not changed since; a key whose
 *     leaf is full, and the rest of its group after a split, go through the structure's own
 *     {@code put}, whose descent now hits the cache: the splits and gaps stay the structure's.
 *     {@code removeAll} runs the descent to bring the group's paths and leaves into the cache, then
 *     the structure's {@code remove} (the reclamation stays the structure's). In key order on a
 *     sorted batch, in the caller's order otherwise; a key given twice ends with its last value
 *     either way (the sort is stable).</li>
 * </ul>
 * Nothing is kept in a field: any number of threads may run the read-only calls at once.
 */
final class LeafBatches {
    /** Keys a lock-step descent takes at once: enough to overlap the misses, few enough to stay cheap. */
    static final int GROUP = 16;

    private LeafBatches() {
    }

    /**
     * Whether a read-only batch of {@code n} keys is put in key order first: when it is large next
     * to the tree, so that its keys share leaves and the last inner levels. A million keys on 50M
     * (one key in four leaves) gained less from the order than the sort cost (4.0-4.8 Mops/s
     * sorted against 4.5-6.2 as they came, Zen 4); on 2M keys the order paid (see
     * docs/BENCHMARKS.md, "Batches at the memory's limit"). Updates are always ordered when large:
     * a put's leaf is written, and in key order a leaf takes its run of keys at once.
     */
    private static boolean orderReads(LeafChainIndex t, int n) {
        return n >= BatchOrder.WORTH_SORTING && n >= t.size() >> 3;
    }

    static void getAll(LeafChainIndex t, long[] keys, long[] values, long absent) {
        BatchArguments.checkGetAll(keys, values);
        reads(t, keys, values, absent, false);
    }

    static void ceilingKeyAll(LeafChainIndex t, long[] keys, long[] ceilings, long absent) {
        BatchArguments.checkGetAll(keys, ceilings);
        reads(t, keys, ceilings, absent, true);
    }

    /** The read-only batch: each key's value ({@code ceiling} false) or ceiling, into {@code out}. */
    private static void reads(LeafChainIndex t, long[] keys, long[] out, long absent, boolean ceiling) {
        if (!orderReads(t, keys.length)) {
            read(t, keys, out, absent, ceiling);
            return;
        }
        BatchOrder o = BatchOrder.of(keys);
        long[] sorted = new long[keys.length];
        read(t, o.keys, sorted, absent, ceiling);
        int[] at = o.from;
        for (int i = 0; i < sorted.length; i++) {
            out[at[i]] = sorted[i]; // back to the caller's order
        }
    }

    private static void read(LeafChainIndex t, long[] keys, long[] out, long absent, boolean ceiling) {
        int[] leaves = new int[GROUP];
        for (int base = 0; base < keys.length; base += GROUP) {
            int n = Math.min(GROUP, keys.length - base);
            t.findLeaves(keys, base, n, leaves);
            for (int i = 0; i < n; i++) {
                long key = keys[base + i];
                long r;
                if (key == MAXKEY) {
                    r = ceiling ? (t.hasMax ? MAXKEY : absent) : t.getMax(absent);
                } else if (!ceiling) {
                    r = t.leafGet(leaves[i], key, absent);
                } else {
                    // The least key >= key is in key's leaf at or after succ>=(key), or further right.
                    long p = t.firstFrom(leaves[i], t.leafSuccGE(leaves[i], key));
                    r = p == POS_NONE ? absent : t.keyAt(p);
                }
                out[base + i] = r;
            }
        }
    }

    static void rangeCountAll(LeafChainIndex t, long[] from, long[] to, long[] counts) {
        BatchArguments.checkRangeCountAll(from, to, counts);
        int[] leaves = new int[GROUP];
        // The lower bounds' descents in lock-step bring their paths and first leaves in; each
        // count then descends again, through the cache, and walks on as rangeCount does.
        for (int base = 0; base < from.length; base += GROUP) {
            int n = Math.min(GROUP, from.length - base);
            t.findLeaves(from, base, n, leaves);
            for (int i = base; i < base + n; i++) {
                counts[i] = t.rangeCount(from[i], true, to[i], false);
            }
        }
    }

    static void putAll(LeafChainIndex t, long[] keys, long[] values) {
        BatchArguments.checkPutAll(keys, values);
        if (!t.storesValues()) {
            for (int i = 0; i < values.length; i++) {
                if (values[i] != 0) {
                    throw new IllegalArgumentException(t + " stores no values: putAll with values[" + i + "] = "
                            + values[i] + " for key " + keys[i] + " (a key-only index takes value 0 only);"
                            + " nothing was put");
                }
            }
        }
        long[] k = keys;
        int[] at = null;
        if (keys.length >= BatchOrder.WORTH_SORTING) {
            BatchOrder o = BatchOrder.of(keys);
            k = o.keys;
            at = o.from;
        }
        int[] leaves = new int[GROUP];
        for (int base = 0; base < k.length; base += GROUP) {
            int n = Math.min(GROUP, k.length - base);
            t.findLeaves(k, base, n, leaves);
            int shape = t.shapeVersion();
            for (int i = 0; i < n; i++) {
                long key = k[base + i];
                long value = values[at == null ? base + i : at[base + i]];
                // Into the leaf the descent found while no split has moved keys since; else put.
                if (key == MAXKEY || t.shapeVersion() != shape || !t.leafPut(leaves[i], key, value)) {
                    t.put(key, value);
                }
            }
        }
    }

    static long removeAll(LeafChainIndex t, long[] keys) {
        Objects.requireNonNull(keys, "keys");
        long before = t.size;
        long[] k = keys.length < BatchOrder.WORTH_SORTING ? keys : BatchOrder.of(keys).keys;
        int[] leaves = new int[GROUP];
        for (int base = 0; base < k.length; base += GROUP) {
            int n = Math.min(GROUP, k.length - base);
            t.findLeaves(k, base, n, leaves);
            for (int i = base; i < base + n; i++) {
                t.remove(k[i]);
            }
        }
        return before - t.size;
    }
}
