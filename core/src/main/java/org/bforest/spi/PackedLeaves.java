package org.bforest.spi;

import org.bforest.LongEntryVisitor;
import org.bforest.kernel.Prefetch;
import org.bforest.storage.IntNodeArray;
import org.bforest.storage.LongNodeArray;

/**
 * The cold and per-leaf code of a <em>packed</em> leaf, written once for the B+-tree, the B&minus;
 * tree and the CSB+-trees: a leaf whose entries sit sorted in slots {@code 0 .. count-1} (the rest
 * unused, or padded with {@link LeafChainIndex#MAXKEY}), its keys in one {@link LongNodeArray}
 * and its values in another at the same offsets, and an optional int record per leaf (links, a
 * count) in an {@link IntNodeArray}. Static methods over those arrays: the position SPI's reads of
 * a leaf ({@link #bitmap}, {@link #key}, {@link #value}, {@link #visit}), storage upkeep
 * ({@link #ensure}, {@link #trim}), the scratch copy and height check of a split ({@link #withEntry},
 * {@link #checkHeight}), memory accounting ({@link #bytes} and friends) and the bulk
 * load's layout ({@link #checkFill}, {@link #leavesFor}, {@link #share}, {@link #load},
 * {@link #innerLevels}).
 *
 * <p>Apart because it is the same in every packed tree and in none of their hot paths: descents,
 * leaf search, insert and delete stay in each tree's own final class, so that the JIT profiles
 * each apart. What is here is static, takes the arrays as arguments and keeps no state: a call
 * from a tree is inlined like the tree's own code. Public for the trees' packages; the module
 * exports {@code spi} only to the project's own modules, never to users.
 */
public final class PackedLeaves {
    private PackedLeaves() {
    }

    // ---- reading a leaf --------------------------------------------------------------------------

    /** The used slots of a packed leaf of {@code count} entries (at most 63): its low bits. */
    public static long bitmap(int count) {
        return (1L << count) - 1;
    }

    /** The key in slot {@code slot} of {@code leaf}. */
    public static long key(LongNodeArray keys, int leaf, int slot) {
        return keys.chunk(leaf)[keys.offset(leaf) + slot];
    }

    /**
     * The value in slot {@code slot} of {@code leaf}: at the key's offset ({@code values} has the
     * key array's stride and chunking, so the key offset serves both).
     */
    public static long value(LongNodeArray keys, LongNodeArray values, int leaf, int slot) {
        return values.chunk(leaf)[keys.offset(leaf) + slot];
    }

    /**
     * {@link LeafChainIndex#visitLeaf} over a packed leaf whose keys and values start at
     * {@code off} of {@code keys} and {@code values}: the entries of the slots in {@code bits},
     * in key order, until the visitor returns false, checking after each that {@code index} did
     * not change. Returns how many it gave, negated if the visitor stopped.
     */
    public static int visit(LeafChainIndex index, long[] keys, long[] values, int off, long bits,
                            LongEntryVisitor visitor, int expectedModCount) {
        int n = 0;
        for (; bits != 0; bits &= bits - 1) {
            int slot = Long.numberOfTrailingZeros(bits);
            n++;
            boolean go = visitor.visit(keys[off + slot], values[off + slot]);
            index.checkUnchanged(expectedModCount);
            if (!go) {
                return -n;
            }
        }
        return n;
    }

    // ---- splits ----------------------------------------------------------------------------------

    /**
     * The first step of a split that builds its halves from scratch: the {@code n} sorted entries
     * of a full leaf at {@code off} of {@code keys} and {@code values}, with {@code (key, value)}
     * inserted at rank {@code r}, copied in key order into {@code toKeys} and {@code toValues}
     * {@code [0, n]}. Also the concurrent BS-tree's, whose full leaf has no gaps and so is packed.
     */
    public static void withEntry(long[] keys, long[] values, int off, int n, int r, long key, long value,
                                 long[] toKeys, long[] toValues) {
        System.arraycopy(keys, off, toKeys, 0, r);
        System.arraycopy(values, off, toValues, 0, r);
        toKeys[r] = key;
        toValues[r] = value;
        System.arraycopy(keys, off + r, toKeys, r + 1, n - r);
        System.arraycopy(values, off + r, toValues, r + 1, n - r);
    }

    /**
     * The batched descent's last step for packed leaves ({@link LeafChainIndex#findLeaves}): starts
     * the loads of every line of the {@code n} leaves' keys and values, and of their word in
     * {@code record} when it is not null, before any leaf is searched (see
     * {@code kernel.Prefetch}); the leaf ids carry the loads' zero, so the loads are kept.
     */
    public static void touch(int[] leaves, int n, LongNodeArray keys, LongNodeArray values, IntNodeArray record,
                             int width) {
        int t = 0;
        for (int i = 0; i < n; i++) {
            int leaf = leaves[i];
            int off = keys.offset(leaf);
            t |= Prefetch.lines(keys.chunk(leaf), off, width) | Prefetch.lines(values.chunk(leaf), off, width);
            if (record != null) {
                t |= record.chunk(leaf)[record.offset(leaf)];
            }
        }
        t &= Prefetch.zero();
        for (int i = 0; i < n; i++) {
            leaves[i] += t;
        }
    }

    /**
     * @throws IllegalStateException if a tree of {@code height} levels above its leaves may not
     *         grow a root: checked before a split reserves storage, so a tree at the limit is
     *         left as it was
     */
    public static void checkHeight(LeafChainIndex index, int height, int max) {
        if (height >= max) {
            throw new IllegalStateException(index.toString() + ": height limit " + max + " reached");
        }
    }

    // ---- storage ---------------------------------------------------------------------------------

    /** Makes room for leaf ids {@code [0, nodes)} in the key, value and ({@code record} non-null) record arrays. */
    public static void ensure(LongNodeArray keys, LongNodeArray values, IntNodeArray record, long nodes) {
        keys.ensureCapacity(nodes);
        values.ensureCapacity(nodes);
        if (record != null) {
            record.ensureCapacity(nodes);
        }
    }

    /** Gives back the room beyond leaf ids {@code [0, nodes)} (after a bulk load); {@code record} may be null. */
    public static void trim(LongNodeArray keys, LongNodeArray values, IntNodeArray record, int nodes) {
        keys.trimTo(nodes);
        values.trimTo(nodes);
        if (record != null) {
            record.trimTo(nodes);
        }
    }

    // ---- memory accounting -------------------------------------------------------------------------

    /** Heap bytes of the leaves' key, value and ({@code record} non-null) record arrays. */
    public static long bytes(LongNodeArray keys, LongNodeArray values, IntNodeArray record) {
        return keys.bytes() + values.bytes() + (record == null ? 0 : record.bytes());
    }

    /** Heap bytes of an object of {@code fields} fields, as every tree counts itself: 16 + 8 each. */
    public static long objectBytes(int fields) {
        return 16 + 8L * fields;
    }

    /** Heap bytes of an {@code int[]}: header and elements. */
    public static long bytes(int[] a) {
        return 16 + 4L * a.length;
    }

    /** Heap bytes of a {@code long[]}: header and elements. */
    public static long bytes(long[] a) {
        return 16 + 8L * a.length;
    }

    // ---- bulk-load layout --------------------------------------------------------------------------

    /** @throws IllegalArgumentException unless {@code leafFill} is in [0.5, 1] */
    public static void checkFill(double leafFill) {
        if (!(leafFill >= 0.5 && leafFill <= 1.0)) {
            throw new IllegalArgumentException("leafFill must be in [0.5, 1], got " + leafFill);
        }
    }

    /**
     * Leaves a bulk load of {@code n} keys takes when each holds {@code leafFill} of
     * {@code capacity} keys (rounded, at least one).
     */
    public static int leavesFor(int n, double leafFill, int capacity) {
        int per = Math.max(1, (int) Math.round(leafFill * capacity));
        return (int) ((n + (long) per - 1) / per);
    }

    /**
     * Part {@code j} of {@code total} things spread evenly over {@code parts}: the first
     * {@code total % parts} parts take one more, so no part is nearly empty (no short last leaf).
     */
    public static int share(int total, int parts, int j) {
        return total / parts + (j < total % parts ? 1 : 0);
    }

    /** Builds one inner node of a bulk load over the children {@code ids[from, from + take)}; returns its id. */
    @FunctionalInterface
    public interface InnerNode {
        /**
         * {@code bounds[i]}: the smallest or largest key under child {@code ids[i]}, as
         * {@link PackedLeaves#innerLevels} was told.
         */
        int build(int[] ids, long[] bounds, int from, int take);
    }

    /**
     * The inner levels of a bulk load, bottom up: the {@code count} nodes of the level below
     * ({@code ids[0, count)}, {@code bounds[i]} the smallest key under node {@code i}, or the
     * largest when {@code largest}) are spread evenly ({@link #share}) over
     * {@code ceil(count / fan)} new nodes that {@code node} builds, which become the next level in
     * {@code ids} and {@code bounds} (overwritten in place) until one node is left: the root,
     * {@code ids[0]}. Returns how many levels it built: the tree's height.
     */
    public static int innerLevels(int[] ids, long[] bounds, int count, int fan, boolean largest, InnerNode node) {
        int levels = 0;
        while (count > 1) {
            int nodes = (count + fan - 1) / fan;
            int c = 0;
            for (int j = 0; j < nodes; j++) {
                int take = share(count, nodes, j);
                ids[j] = node.build(ids, bounds, c, take); // j <= c: the children are read first
                bounds[j] = bounds[largest ? c + take - 1 : c];
                c += take;
            }
            count = nodes;
            levels++;
        }
        return levels;
    }

    /**
     * Copies {@code take} keys from {@code srcKeys[from]} into slots 0 .. take-1 of {@code leaf},
     * and as many values from {@code srcValues} (null: the values stay as they are, zeros in new
     * storage).
     */
    public static void load(LongNodeArray keys, LongNodeArray values, int leaf, long[] srcKeys, long[] srcValues,
                            int from, int take) {
        int off = keys.offset(leaf);
        System.arraycopy(srcKeys, from, keys.chunk(leaf), off, take);
        if (srcValues != null) {
            System.arraycopy(srcValues, from, values.chunk(leaf), off, take);
        }
    }
}
