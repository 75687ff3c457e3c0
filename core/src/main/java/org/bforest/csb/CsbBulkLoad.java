package org.bforest.csb;

import static org.bforest.csb.CsbTree.meta;
import static org.bforest.spi.LeafChainIndex.MAXKEY;

import java.util.Arrays;
import org.bforest.spi.PackedLeaves;
import org.bforest.util.Arrivals;

/**
 * A CSB+-tree's bulk load, as the paper's: level by level from the leaves up, full leaves, inner
 * nodes with all their key slots but one used (the paper's search experiment), each level's nodes
 * spread evenly over their parents, and each parent's children one contiguous group (in the full
 * tree, a group of {@code S} ids with its spare room at the end; segmented, two segments split
 * evenly). Apart from {@link CsbTree} because it runs once, on a new tree, and writes nodes
 * directly instead of through inserts; {@link CsbTree#bulkLoad} validates the input first.
 */
final class CsbBulkLoad {
    private CsbBulkLoad() {
    }

    /** Builds the empty tree {@code t} over the {@code n} validated {@code keys} ({@code values} may be null for zeros). */
    static void build(CsbTree t, int n, long[] keys, long[] values, Arrivals in) {
        int w = t.width;
        int fan = t.keySlots; // children a bulk-loaded inner node gets: its key slots less one, plus one
        int leaves = (n + w - 1) / w;
        // the shape: nodes per level, bottom up
        int[] counts = new int[CsbTree.MAX_HEIGHT + 2];
        counts[0] = leaves;
        int levels = 0;
        while (counts[levels] > 1) {
            counts[levels + 1] = (counts[levels] + fan - 1) / fan;
            levels++;
        }
        t.leafPool.forgetAll(); // the empty tree's root leaf: the ids below are laid out from 0
        // ids of each node of the level below and its largest key
        int[] ids = new int[leaves];
        long[] maxs = new long[leaves];
        for (int h = 0; h <= levels; h++) {
            int count = counts[h];
            boolean top = h == levels;
            int parents = top ? 1 : counts[h + 1];
            // ids: each parent's children as one contiguous run; full: S ids a parent
            int base = t.pool(h == 0).alloc(top ? 1 : groupIds(t, count, parents));
            int[] levelIds = new int[count];
            for (int j = 0, c = 0; j < parents; j++) {
                int take = PackedLeaves.share(count, parents, j);
                int g = t.full ? base + j * w : base + c;
                for (int i = 0; i < take; i++) {
                    levelIds[c + i] = g + i;
                }
                c += take;
            }
            if (h == 0) {
                for (int j = 0, i = 0; j < count; j++) {
                    int take = PackedLeaves.share(n, count, j);
                    in.await(i + take);
                    int leaf = levelIds[j];
                    PackedLeaves.load(t.leafKeys, t.leafVals, leaf, keys, values, i, take);
                    int off = t.leafKeys.offset(leaf);
                    Arrays.fill(t.leafKeys.chunk(leaf), off + take, off + w, MAXKEY); // the padding
                    i += take;
                    maxs[j] = keys[i - 1];
                }
                t.chainAll(levelIds, count);
            } else {
                int below = counts[h - 1];
                long[] a = t.inner.chunk(0);
                for (int j = 0, c = 0; j < count; j++) {
                    int take = PackedLeaves.share(below, count, j);
                    int off = t.innerOff(levelIds[j]);
                    Arrays.fill(a, off, off + w, MAXKEY);
                    for (int i = 0; i < take - 1; i++) {
                        a[off + i] = maxs[c + i];
                    }
                    if (t.segs == 1) {
                        a[off + t.keySlots] = meta(ids[c], take);
                    } else {
                        int n0 = (take + 1) / 2;
                        a[off + t.keySlots] = meta(ids[c], n0);
                        a[off + t.keySlots + 1] = meta(take - n0 == 0 ? 0 : ids[c + n0], take - n0);
                    }
                    maxs[j] = maxs[c + take - 1];
                    c += take;
                }
            }
            System.arraycopy(levelIds, 0, ids, 0, count);
        }
        t.root = ids[0];
        t.height = levels;
        PackedLeaves.trim(t.leafKeys, t.leafVals, t.leafLinks, t.leafPool.highWater());
        t.inner.trimTo(t.innerPool.highWater());
    }

    /** Ids a level of {@code count} nodes under {@code parents} takes: {@code count}, full: {@code S} a parent. */
    private static int groupIds(CsbTree t, int count, int parents) {
        return t.full ? parents * t.width : count;
    }
}
