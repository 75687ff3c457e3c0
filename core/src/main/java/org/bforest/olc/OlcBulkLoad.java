package org.bforest.olc;

import static org.bforest.kernel.GapSlots.MAXKEY;
import static org.bforest.kernel.GapSlots.N;

import java.util.Arrays;
import org.bforest.util.Arrivals;
import org.bforest.util.SortedInput;

/**
 * The concurrent BS-tree built from sorted keys, bottom-up, before any other thread can see it: no
 * node is locked and no version checked, which is why it is apart from {@link OlcWriter}, whose
 * node writers it uses. It publishes each leaf as a split does, so the leaves' versions start as
 * every other leaf's, and it copies the mirror once at the end.
 */
final class OlcBulkLoad {
    /** Keys per leaf at bulk load: the paper's 75%. */
    static final int BULK_LEAF_KEYS = 12;

    private OlcBulkLoad() {
    }

    /**
     * A tree built from sorted keys: leaves of {@value #BULK_LEAF_KEYS} keys (75%) spread over
     * their 16 slots, inner levels 7/8 full above the leaves and full above that (the BS-tree's
     * section 4.3 schedule), built bottom-up before the tree is published.
     *
     * @throws IllegalArgumentException on unsorted or duplicate keys or arrays of different lengths
     */
    static OlcBSTree load(long[] keys, long[] values) {
        return load(keys, values, Arrivals.ALL);
    }

    /** {@link #load(long[], long[])} of input that may still be arriving ({@link Arrivals}). */
    static OlcBSTree load(long[] keys, long[] values, Arrivals in) {
        SortedInput.check(keys, values, in);
        OlcBSTree t = new OlcBSTree();
        int n = keys.length;
        if (n > 0 && keys[n - 1] == MAXKEY) {
            t.maxRecord[1] = 1;
            t.maxRecord[2] = values == null ? 0 : values[n - 1];
            t.size.increment();
            n--;
        }
        if (n == 0) {
            return t;
        }
        int leaves = (int) Math.min(Integer.MAX_VALUE - 8L, ((long) n + BULK_LEAF_KEYS - 1) / BULK_LEAF_KEYS);
        int[] ids = new int[leaves];
        long[] mins = new long[leaves];
        int at = 0;
        for (int l = 0; l < leaves; l++) {
            // Spread the keys evenly over the leaves, so that no leaf is left nearly empty.
            int end = (int) ((long) n * (l + 1) / leaves);
            in.await(end + 1); // the leaf's keys and the next leaf's first, its upper fence
            int leaf = l == 0 ? t.root() : t.newLeaf();
            OlcWriter.writeLeaf(t, leaf, keys, values, at, end - at);
            t.setFences(leaf, l == 0 ? Long.MIN_VALUE : keys[at], l == leaves - 1 ? MAXKEY : keys[end]);
            t.setLinks(leaf, OlcNodes.NONE, l == 0 ? OlcNodes.NONE : ids[l - 1]);
            if (l > 0) {
                t.setNext(ids[l - 1], leaf);
            }
            t.publishLeaf(leaf);
            ids[l] = leaf;
            mins[l] = keys[at];
            at = end;
        }
        t.size.add(n);
        t.lastLeaf = ids[leaves - 1];
        int count = leaves;
        int h = 0;
        while (count > 1) {
            // The fill grows by 1/8 a level from the leaves' 75%, full from the second level up,
            // as the BS-tree builds it: the upper levels stay few (one level fewer at 10M keys).
            int children = Math.min(N, (int) Math.round((0.75 + 0.125 * (h + 1)) * N)) + 1;
            int parents = (count + children - 1) / children;
            int first = 0;
            for (int p = 0; p < parents; p++) {
                int end = (int) ((long) count * (p + 1) / parents);
                int node = t.newInner(h + 1);
                buildInner(t, node, mins, ids, first, end - first - 1);
                ids[p] = node;
                mins[p] = mins[first];
                first = end;
            }
            count = parents;
            h++;
        }
        // Room for a quarter more inner nodes before the first copy.
        t.mirror = OlcWriter.copyMirror(t, t.innerCount.get() + t.innerCount.get() / 4 + 16);
        t.rootWord = (long) h << 32 | ids[0];
        return t;
    }

    /**
     * An inner node over children {@code ids[first, first+n]}, whose separators are the least keys
     * {@code mins[first+1, first+n]} of all but the first.
     */
    private static void buildInner(OlcNodes t, int node, long[] mins, int[] ids, int first, int n) {
        OlcWriter.writeInner(t, node, Arrays.copyOfRange(mins, first + 1, first + 1 + n),
                Arrays.copyOfRange(ids, first, first + n + 1), 0, n);
    }
}
