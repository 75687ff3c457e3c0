package org.bforest.opencl.pages;

import java.util.Arrays;
import org.bforest.opencl.cl.ClBuffer;
import org.bforest.util.SortedInput;

/**
 * A host-side image of a GPU B+-tree's pages: built from sorted keys for a bulk load, or read back
 * from the device for the invariant checker. Leaf page {@code p}'s keys are
 * {@code leafKeys[p * pageKeys ...]}; inner page {@code p}'s separators
 * {@code innerKeys[p * pageKeys ...]} and children {@code innerKids[p * (pageKeys + 1) ...]}.
 */
public final class Image {
    public static final long MAXKEY = Long.MAX_VALUE;

    public long[] leafKeys;
    public long[] leafValues;
    public int[] leafCounts;
    public long[] innerKeys;
    public int[] innerKids;
    public int[] innerCounts;
    /** The first key of each leaf page (Long.MAX_VALUE for an empty one): for inner levels built elsewhere. */
    public long[] leafMins;
    public int leafPages;
    public int innerPages;
    public int height;
    public int root;
    public long size;
    public boolean hasMax;
    public long maxValue;

    /**
     * Checks a bulk load's arguments before anything reaches a device: a page size in [2, 2^20],
     * a fill in (0, 1], sorted distinct keys and as many values (or none).
     */
    public static void check(long[] keys, long[] values, int pageKeys, double fill) {
        if (pageKeys < 2 || pageKeys > 1 << 20) {
            throw new IllegalArgumentException("pages hold 2 to 2^20 keys, got " + pageKeys);
        }
        if (!(fill > 0 && fill <= 1)) {
            throw new IllegalArgumentException("the leaves' fill must be in (0, 1], got " + fill);
        }
        SortedInput.check(keys, values);
    }

    /**
     * The pages of sorted, distinct {@code keys} ({@code values} null: all 0), leaves filled to
     * {@code fill}, the keys spread evenly over them as every bforest bulk load does; inner levels
     * bottom-up, children spread evenly, at most {@code pageKeys + 1} a page. Keeps
     * {@code Long.MAX_VALUE} out of band.
     */
    public static Image build(long[] keys, long[] values, int pageKeys, double fill, boolean innerPages) {
        Image b = new Image();
        int n = keys.length;
        if (n > 0 && keys[n - 1] == MAXKEY) {
            b.hasMax = true;
            b.maxValue = values == null ? 0 : values[n - 1];
            n--;
        }
        b.size = keys.length;
        int perLeaf = Math.max(1, (int) Math.floor(pageKeys * fill));
        int leaves = Math.max(1, (n + perLeaf - 1) / perLeaf);
        b.leafPages = leaves;
        b.leafKeys = filled(Math.multiplyExact(leaves, pageKeys), MAXKEY);
        b.leafValues = new long[leaves * pageKeys];
        b.leafCounts = new int[leaves];
        long[] mins = new long[leaves];
        int at = 0;
        for (int l = 0; l < leaves; l++) {
            int end = (int) ((long) n * (l + 1) / leaves);
            System.arraycopy(keys, at, b.leafKeys, l * pageKeys, end - at);
            if (values != null) {
                System.arraycopy(values, at, b.leafValues, l * pageKeys, end - at);
            }
            b.leafCounts[l] = end - at;
            mins[l] = at < end ? keys[at] : MAXKEY;
            at = end;
        }
        b.leafMins = mins.clone();
        if (!innerPages) {
            b.innerKeys = new long[0];
            b.innerKids = new int[0];
            b.innerCounts = new int[0];
            return b;
        }
        int fan = pageKeys + 1;
        int total = 0;
        for (int levelPages = leaves; levelPages > 1; ) {
            levelPages = (levelPages + fan - 1) / fan;
            total += levelPages;
        }
        b.innerPages = total;
        b.innerKeys = filled(Math.multiplyExact(total, pageKeys), MAXKEY);
        b.innerKids = new int[Math.multiplyExact(total, fan)];
        b.innerCounts = new int[total];
        int[] ids = new int[leaves];
        Arrays.setAll(ids, i -> i);
        int count = leaves;
        int pages = 0;
        int h = 0;
        while (count > 1) {
            int parents = (count + fan - 1) / fan;
            int first = 0;
            for (int p = 0; p < parents; p++) {
                int end = (int) ((long) count * (p + 1) / parents);
                int page = pages++;
                int kids = end - first;
                for (int c = 0; c < fan; c++) {
                    // Unused child slots repeat the last child: no query can leave the tree.
                    b.innerKids[page * fan + c] = ids[first + Math.min(c, kids - 1)];
                }
                for (int c = 1; c < kids; c++) {
                    b.innerKeys[page * pageKeys + c - 1] = mins[first + c];
                }
                b.innerCounts[page] = kids - 1;
                ids[p] = page;
                mins[p] = mins[first];
                first = end;
            }
            count = parents;
            h++;
        }
        b.height = h;
        b.root = ids[0];
        return b;
    }

    /** The first {@code leaves} leaf pages and {@code inners} inner pages, read from the device. */
    public static Image read(PageStore store, int leaves, int inners) {
        Image b = new Image();
        int p = store.pageKeys;
        b.leafPages = leaves;
        b.innerPages = inners;
        b.leafKeys = readLongs(store, store.leafKeys, (long) leaves * p);
        b.leafValues = readLongs(store, store.leafValues, (long) leaves * p);
        b.innerKeys = readLongs(store, store.innerKeys, (long) inners * p);
        long kids = (long) inners * (p + 1);
        b.innerKids = new int[(int) kids];
        if (kids > 0) {
            store.cl.download(store.innerKids, b.innerKids);
        }
        return b;
    }

    private static long[] readLongs(PageStore store, ClBuffer src, long n) {
        long[] out = new long[Math.toIntExact(n)];
        if (n > 0) {
            store.cl.download(src, out);
        }
        return out;
    }

    static long[] filled(int n, long v) {
        long[] a = new long[n];
        Arrays.fill(a, v);
        return a;
    }
}
