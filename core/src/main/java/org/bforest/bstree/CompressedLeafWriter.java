package org.bforest.bstree;

import static org.bforest.bstree.ForLeafCodec.META;
import static org.bforest.bstree.ForLeafCodec.V0;
import static org.bforest.bstree.ForLeafCodec.hasLanes;
import static org.bforest.bstree.ForLeafCodec.headroomBelow;
import static org.bforest.bstree.ForLeafCodec.lanesFit;
import static org.bforest.bstree.ForLeafCodec.lines;
import static org.bforest.bstree.ForLeafCodec.linesFor;
import static org.bforest.bstree.ForLeafCodec.meta;
import static org.bforest.bstree.ForLeafCodec.narrowestWidth;
import static org.bforest.bstree.ForLeafCodec.ref;

import java.util.Arrays;
import org.bforest.kernel.PackedLanes;
import org.bforest.storage.LongBlockHeap;
import org.bforest.util.Arrivals;

/**
 * Writes whole leaves of a {@link CBSTree}: the slow insert (the leaf's keys and the new one
 * re-encoded in the narrowest width that holds them, or the leaf split in two halves, each in its
 * own narrowest width) and the bulk load's leaves. Apart from the tree because none of it is on a
 * look-up or a fast insert: {@code put} comes here only when a key does not fit its leaf as it is.
 * One writer per tree (writes are single-threaded), holding the scratch of a rewrite; the leaf
 * format itself is {@link ForLeafCodec}'s.
 */
final class CompressedLeafWriter {
    /** Entries a leaf can hold at most (64 lanes of 16 bits) plus a new one. */
    private static final int MAX_ENTRIES = ForLeafCodec.MAX_LANES + 1;
    /** The bytes of this writer's scratch arrays, for the tree's {@code memoryBytes}. */
    static final long SCRATCH_BYTES = 4 * (16 + 8L * MAX_ENTRIES) + 16 + 4L * ForLeafCodec.MAX_LANES + 16
            + 8L * ForLeafCodec.MAX_LANES;
    private static final int LINE = LongBlockHeap.LINE;

    private final CBSTree t;
    // Scratch for re-encoding and splitting, allocated once.
    private final long[] oldKeys = new long[MAX_ENTRIES];
    private final long[] oldVals = new long[MAX_ENTRIES];
    private final long[] newKeys = new long[MAX_ENTRIES];
    private final long[] newVals = new long[MAX_ENTRIES];
    private final int[] lanesOut = new int[ForLeafCodec.MAX_LANES];
    private final long[] laneScratch = new long[ForLeafCodec.MAX_LANES];

    CompressedLeafWriter(CBSTree t) {
        this.t = t;
    }

    /**
     * The slow insert of an absent key: re-encodes the leaf with it in the narrowest width that
     * holds them all (true), or, when none does, splits the leaf's own keys into two halves
     * (false: the caller descends again).
     */
    boolean reencodeOrSplit(int leaf, long key, long value) {
        int count = gather(leaf, oldKeys, oldVals);
        // Merge the new key into a copy.
        int pos = 0;
        while (pos < count && oldKeys[pos] < key) {
            pos++;
        }
        System.arraycopy(oldKeys, 0, newKeys, 0, pos);
        System.arraycopy(oldVals, 0, newVals, 0, pos);
        newKeys[pos] = key;
        newVals[pos] = value;
        System.arraycopy(oldKeys, pos, newKeys, pos + 1, count - pos);
        System.arraycopy(oldVals, pos, newVals, pos + 1, count - pos);
        int m = count + 1;
        int width = narrowestWidth(newKeys, 0, m);
        long meta = t.leafMeta(leaf);
        if (width != 0) {
            int lines = lines(meta);
            int ref = ref(meta);
            boolean inLanes = t.laneValues && lanesFit(newVals, 0, m, width);
            if (inLanes) {
                if (lines > 0) {
                    t.values.reserve(0, 1);
                    t.values.free(ref, lines);
                }
                ref = 0;
                lines = 0;
            } else if (lines < linesFor(m)) {
                t.values.reserve(linesFor(m), 1);
                ref = t.values.alloc(linesFor(m));
                if (lines > 0) {
                    t.values.free(ref(meta), lines);
                }
                lines = linesFor(m);
            }
            // A new smallest key (a descending run, typically): leave half the width's spare range
            // below it, so the next smaller keys fit without another re-encoding.
            long k0 = pos == 0 ? headroomBelow(newKeys[0], newKeys[m - 1], width) : newKeys[0];
            writeLeaf(leaf, newKeys, newVals, 0, m, width, inLanes, ref, lines, k0);
            t.structureChanges++;
            return true;
        }
        if (splitAtEdge(leaf, count, pos, key, value)) {
            return true;
        }
        splitLeaf(leaf, count, meta);
        return false;
    }

    /**
     * The uneven split at an edge of the tree ({@link GappedTree#edgeOf}), for a key no width can
     * add to its leaf: above every key of the last leaf (an ascending run), the leaf stays as it
     * is, full for its width, and a new leaf after it holds the new key alone; below every key of
     * the first leaf, the mirror: the leaf's record moves as it is to a new leaf and the new key
     * alone takes the leaf's place, first in the chain. Either way no key is re-encoded and the
     * insert is done (true); false, with nothing changed, anywhere else.
     *
     * <p>The lone key's leaf takes the width that the step from its neighbour (the leaf's last
     * key, or its first) needs, and its whole range on the side the run goes on to ({@code k0}
     * the key, or a whole range below it), so a run that goes on at that pace fills the leaf
     * without re-encoding it. Its value, in lanes, gets the whole range on the side its own step
     * from the neighbour's value points to: values that grow with the key (row ids, times) then
     * fill the leaf in lanes too, where the centred {@code v0} of a rewrite held half of them.
     */
    private boolean splitAtEdge(int leaf, int count, int pos, long key, long value) {
        int edge = t.edgeOf(leaf, pos, count);
        if (edge == InnerLevels.MIDDLE) {
            return false;
        }
        boolean ascending = edge == InnerLevels.RIGHT_EDGE;
        newKeys[0] = ascending ? oldKeys[count - 1] : key;
        newKeys[1] = ascending ? key : oldKeys[0];
        int width = narrowestWidth(newKeys, 0, 2);
        newKeys[0] = key;
        newVals[0] = value;
        boolean inLanes = t.laneValues; // one value always fits lanes of any width
        int lines = inLanes ? 0 : linesFor(1);
        t.inner.reserveForSplit();
        t.growLeaves(t.leafIds.needed());
        t.values.reserve(lines, 0);
        int fresh = t.allocLeaf();
        int ref = inLanes ? 0 : t.values.alloc(lines);
        int lone = ascending ? fresh : leaf;
        if (!ascending) {
            moveRecord(leaf, fresh);
        }
        writeLeaf(lone, newKeys, newVals, 0, 1, width, inLanes, ref, lines, ascending ? key : rangeBelow(key, width));
        if (inLanes && width < 64) {
            long near = ascending ? oldVals[count - 1] : oldVals[0];
            boolean roomAbove = value > near || (ascending && value == near);
            long v0 = roomAbove ? value : rangeBelow(value, width);
            long[] c = t.leaves.chunk(lone);
            c[t.infoAt(lone) + V0] = v0;
            PackedLanes.set(c, t.valsAt(lone), width, 0, value - v0); // spread(1): the entry is in lane 0
        }
        t.addSplitLeaf(leaf, fresh, ascending ? key : oldKeys[0], edge);
        return true;
    }

    /**
     * The reference that puts {@code x} at the top of a lane of {@code width} bits, {@code MAXD - 1}
     * above it (a key's lane stays below {@code MAXD}, the gaps' value), or at {@code Long.MIN_VALUE}
     * when that is nearer: a whole range below {@code x} for a descending run.
     */
    private static long rangeBelow(long x, int width) {
        if (width == 64) {
            return Long.MIN_VALUE;
        }
        long spare = ForLeafCodec.maxD(width) - 1;
        long room = x - Long.MIN_VALUE; // unsigned distance to the smallest long
        return x - (Long.compareUnsigned(spare, room) <= 0 ? spare : room);
    }

    /**
     * Moves leaf {@code from}'s entries to the fresh leaf {@code to}: its whole record (keys,
     * value lanes, info with the reference to its value block, which goes with it) but the chain
     * links, which stay {@code to}'s own. {@code from} is rewritten next.
     */
    private void moveRecord(int from, int to) {
        long[] tc = t.leaves.chunk(to);
        int links = t.infoAt(to) + ForLeafCodec.LINKS;
        long keep = tc[links];
        int longs = ForLeafCodec.recordLongs(t.laneValues);
        System.arraycopy(t.leaves.chunk(from), t.keysAt(from), tc, t.keysAt(to), longs);
        tc[links] = keep;
    }

    /** Copies a leaf's used keys and values out in key order; returns how many. */
    private int gather(int leaf, long[] ks, long[] vs) {
        long[] c = t.leaves.chunk(leaf);
        int off = t.keysAt(leaf);
        int io = t.infoAt(leaf);
        long meta = c[io + META];
        int n = ForLeafCodec.decodeKeys(c, off, io, laneScratch, ks);
        if (hasLanes(meta)) {
            ForLeafCodec.decodeValueLanes(c, off, io, vs);
        } else if (n > 0) {
            int ref = ref(meta);
            System.arraycopy(t.values.chunk(ref), t.values.offset(ref), vs, 0, n);
        }
        return n;
    }

    /**
     * Splits a leaf of {@code count} keys (already in {@link #oldKeys}) into two halves, each in
     * its narrowest width and spread over its lanes; the right half goes to a new leaf whose first
     * key becomes the separator. Every allocation happens before the tree changes.
     */
    private void splitLeaf(int leaf, int count, long meta) {
        int half = count / 2;
        int wl = narrowestWidth(oldKeys, 0, half);
        int wr = narrowestWidth(oldKeys, half, count - half);
        boolean lanesL = t.laneValues && lanesFit(oldVals, 0, half, wl);
        boolean lanesR = t.laneValues && lanesFit(oldVals, half, count - half, wr);
        int ll = lanesL ? 0 : linesFor(half) + 1;
        int lr = lanesR ? 0 : linesFor(count - half) + 1;
        t.inner.reserveForSplit();
        t.growLeaves(t.leafIds.needed());
        t.values.reserve(ll + lr, 1);
        int right = t.allocLeaf();
        int refL = lanesL ? 0 : t.values.alloc(ll);
        int refR = lanesR ? 0 : t.values.alloc(lr);
        if (lines(meta) > 0) {
            t.values.free(ref(meta), lines(meta));
        }
        writeLeaf(leaf, oldKeys, oldVals, 0, half, wl, lanesL, refL, ll, oldKeys[0]);
        writeLeaf(right, oldKeys, oldVals, half, count - half, wr, lanesR, refR, lr, oldKeys[half]);
        t.addSplitLeaf(leaf, right, oldKeys[half], InnerLevels.MIDDLE);
    }

    /**
     * Writes {@code n} sorted entries into a leaf in lanes of {@code width} bits, spread evenly
     * (entry i at lane {@code i * lanes / n}), gaps holding the next difference, and their values
     * as lanes ({@code inLanes}, which {@link ForLeafCodec#lanesFit}) or packed into block {@code ref} of
     * {@code lines} lines. Keeps the chain links.
     */
    private void writeLeaf(int leaf, long[] ks, long[] vs, int from, int n, int width, boolean inLanes, int ref,
            int lines, long k0) {
        ForLeafCodec.spread(n, width, lanesOut);
        fillLeaf(leaf, ks, from, n, width, lanesOut, k0);
        writeValues(leaf, vs, from, n, width, lanesOut, inLanes, ref, lines);
    }

    /** Writes a leaf's values {@code vs[from, from+n)}, at lanes {@code at}, and its info word. */
    private void writeValues(int leaf, long[] vs, int from, int n, int width, int[] at, boolean inLanes, int ref,
            int lines) {
        long[] ic = t.leaves.chunk(leaf);
        int io = t.infoAt(leaf);
        if (inLanes) {
            long v0 = ForLeafCodec.valueLanes(vs, from, n, width, at, laneScratch);
            ForLeafCodec.storeValues(laneScratch, width, v0, ic, t.keysAt(leaf), io);
        } else {
            if (vs != null) {
                System.arraycopy(vs, from, t.values.chunk(ref), t.values.offset(ref), n);
            } else {
                Arrays.fill(t.values.chunk(ref), t.values.offset(ref), t.values.offset(ref) + lines * LINE, 0);
            }
            ic[io + META] = meta(ref, lines, width);
        }
    }

    /** Writes keys {@code ks[from, from+n)} at lanes {@code at[0, n)} (ascending), k0, bitmap and gaps. */
    private void fillLeaf(int leaf, long[] ks, int from, int n, int width, int[] at, long firstK0) {
        long k0 = ForLeafCodec.k0For(width, firstK0);
        long bm = ForLeafCodec.keyLanes(ks, from, n, width, at, k0, laneScratch);
        ForLeafCodec.storeKeys(laneScratch, width, k0, bm, t.leaves.chunk(leaf), t.keysAt(leaf), t.infoAt(leaf));
    }

    /** The bulk load's leaf level ({@link GappedTree#loadLeaves}): one pass, a leaf at a time. */
    int loadLeaves(long[] keys, long[] vals, int n, double leafFill, int[] ids, long[] mins, Arrivals in) {
        int leaves = 0;
        int i = 0;
        while (i < n) {
            in.await(i + ForLeafCodec.MAX_LANES + 1); // the widest leaf's keys and the next one
            long extent = BulkLayout.leafExtent(keys, i, n, leafFill, lanesOut);
            int placed = (int) (extent >>> 8);
            int width = (int) extent & 0xFF;
            int leaf = leaves == 0 ? t.inner.root : t.allocLeaf();
            fillLeaf(leaf, keys, i, placed, width, lanesOut, keys[i]);
            boolean inLanes = t.laneValues && (vals == null || lanesFit(vals, i, placed, width));
            int lines = inLanes ? 0 : linesFor(placed);
            writeValues(leaf, vals, i, placed, width, lanesOut, inLanes, inLanes ? 0 : t.values.alloc(lines), lines);
            ids[leaves] = leaf;
            mins[leaves] = keys[i];
            leaves++;
            i += placed;
        }
        return leaves;
    }
}
