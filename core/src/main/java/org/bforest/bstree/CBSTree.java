package org.bforest.bstree;

import static org.bforest.bstree.ForLeafCodec.BITMAP;
import static org.bforest.bstree.ForLeafCodec.K0;
import static org.bforest.bstree.ForLeafCodec.LINKS;
import static org.bforest.bstree.ForLeafCodec.META;
import static org.bforest.bstree.ForLeafCodec.V0;
import static org.bforest.bstree.ForLeafCodec.VALS;
import static org.bforest.bstree.ForLeafCodec.below;
import static org.bforest.bstree.ForLeafCodec.fitsLane;
import static org.bforest.bstree.ForLeafCodec.hasLanes;
import static org.bforest.bstree.ForLeafCodec.headroomBelow;
import static org.bforest.bstree.ForLeafCodec.laneMeta;
import static org.bforest.bstree.ForLeafCodec.lanes;
import static org.bforest.bstree.ForLeafCodec.lanesFit;
import static org.bforest.bstree.ForLeafCodec.lines;
import static org.bforest.bstree.ForLeafCodec.linesFor;
import static org.bforest.bstree.ForLeafCodec.maxD;
import static org.bforest.bstree.ForLeafCodec.meta;
import static org.bforest.bstree.ForLeafCodec.narrowestWidth;
import static org.bforest.bstree.ForLeafCodec.ref;
import static org.bforest.bstree.ForLeafCodec.width;

import java.util.Arrays;
import org.bforest.IndexKind;
import org.bforest.LongEntryVisitor;
import org.bforest.kernel.NodeSearch;
import org.bforest.kernel.PackedLanes;
import org.bforest.kernel.Prefetch;
import org.bforest.storage.LongBlockHeap;
import org.bforest.storage.LongNodeArray;
import org.bforest.util.Arrivals;

/**
 * The compressed BS-tree (CBS-tree; BS-tree paper, sections 5 and 6): the BS-tree's inner levels
 * ({@link InnerLevels}, uncompressed, shared) over leaves whose keys are frame-of-reference
 * differences, so that the same 1024-bit key block holds 64 keys as 16-bit differences, 32 as
 * 32-bit or 16 as 64-bit, searched with the same data-parallel {@code succ} directly on the packed
 * lanes ({@link NodeSearch#succGTPacked}). Single-threaded.
 *
 * <h2>Leaves</h2>
 * A leaf is one record in {@code leaves}: its key block, its value lanes (in a tree with value
 * lanes) and its info, in that order, so a look-up's loads all go to one place. The record's
 * layout and its frame-of-reference codec are {@link ForLeafCodec}'s.
 * <ul>
 * <li>keys: the 16-long key block, read as lanes of the leaf's width ({@link PackedLanes}):
 *     {@code key - k0} (unsigned), gaps holding the next used difference, or the width's
 *     {@code MAXD}, so the branch-free search and the rules of the plain BS-tree carry over.</li>
 * <li>info: {@code k0}, the 64-bit slot bitmap, the chain, the info word (width, value form) and,
 *     in a tree with value lanes, the values' reference {@code v0}: 4 longs, or 5.</li>
 * <li>values, in one of two forms per leaf. This is where the CBS-tree departs from the paper,
 *     whose trees hold keys only: a map's values are 8 bytes a key that no key compression
 *     shrinks, and stored slot-aligned they would cost a 64-slot leaf 512 bytes for its 48 keys.
 *     <ul>
 *     <li><b>Value lanes</b> ({@code LANE_VALUES} set): when the leaf's values, less {@code v0},
 *         fit lanes of the keys' width, they are stored as such lanes in a second 1024-bit
 *         block right after the keys, slot-aligned with them. Its lines
 *         are then known from the leaf id alone and load with the keys (one miss, like the plain
 *         tree), and a dense leaf's 48 values take 128 bytes. Row ids, offsets and other values
 *         that grow with the key compress this way; a 64-bit leaf's values always do.</li>
 *     <li><b>Packed</b>: otherwise, in a {@link LongBlockHeap} block of {@code valueLines} cache
 *         lines, without gaps: the value of the used slot {@code s} is at its rank,
 *         {@code bitCount(bitmap below s)}. The line is known only once keys and bitmap have
 *         arrived (a second, dependent miss); an insert or delete moves the values above it
 *         (at most 63 longs), and a full block moves to one a line larger.</li>
 *     </ul>
 *     A lane leaf given a value that does not fit becomes packed, in place; a leaf becomes a lane
 *     leaf again when it is rewritten (re-encoded, split) with values that fit. The bulk load
 *     gives the tree value lanes when most leaves' values fit ({@link BulkLayout#laneValuesPay}); without
 *     them, a leaf record has no value block (20 longs, not 37), so random values cost nothing
 *     extra. An empty tree has them.</li>
 * </ul>
 * A 64-bit leaf stores its keys uncompressed: its {@code k0} is {@code Long.MIN_VALUE}, so a lane
 * is the key with its sign bit flipped and any key fits. A 16- or 32-bit leaf's {@code k0} is its
 * first key when it was written; it does not change when that key is deleted (section 5).
 *
 * <h2>Updates</h2>
 * An insert whose difference fits the leaf's width, into a leaf with a free lane, is the BS-tree
 * insert (a gap, else a shift towards the nearest gap). Otherwise (the leaf is full, the key is
 * below {@code k0}, or its difference is too wide) the leaf's keys and the new one are re-encoded
 * in the narrowest width that holds them all, if one does; if none does, the leaf splits in two
 * halves, each "compressed as tightly as its keys allow" and spread over its lanes, and the insert
 * starts again from the root. A half of an encodable leaf is always encodable in the same width
 * with room to spare, and a leaf of at most 16 keys always re-encodes, so this ends. At the
 * edges of the tree (a key above every key of the last leaf, or below every key of the first:
 * ascending and descending runs, {@link GappedTree#edgeOf}) a leaf that cannot take the key is
 * not split in halves: it stays as it is and a new leaf holds the new key alone (in the width
 * its step from the leaf needs), so a run leaves every leaf as full as its width allows. Delete is
 * the BS-tree's (Algorithm 5); an emptied leaf is unlinked, its values freed and its separator
 * removed, as in the BS-tree.
 *
 * <h2>Bulk load</h2>
 * One pass over the sorted keys: a leaf tries to take {@code leafFill} of 64 lanes as 16-bit
 * differences; if their span is too wide it tries {@code leafFill} of 32 lanes at 32 bits, else
 * {@code leafFill} of 16 lanes of plain keys (section 5; {@link BulkLayout#leafExtent}). Gaps are
 * spread as in the BS-tree, none between consecutive integers.
 */
final class CBSTree extends GappedTree {
    private static final int LINE = LongBlockHeap.LINE;

    /**
     * The leaves, one record each: the key block, then (with value lanes) the value lanes, then
     * the info. One record, not an array per part: a look-up then touches one region of memory,
     * not three, and on this VM every further region cost measurably more than further lines of
     * the same one (docs/BENCHMARKS.md, "one record per leaf").
     */
    LongNodeArray leaves;
    /** Offset of the info part in a leaf record: after the keys, or after the value lanes. */
    final int infoOffset;
    LongBlockHeap values;
    /** Whether leaves may hold their values as lanes (fixed when the tree is made). */
    final boolean laneValues;

    /** Writes whole leaves: re-encodings, splits, the bulk load; holds their scratch. */
    private final CompressedLeafWriter writer = new CompressedLeafWriter(this);
    /** The value a replacing {@link #tryFastPut} found (writes are single-threaded). */
    private long replaced;

    /** An empty tree, with value lanes. */
    CBSTree() {
        this(true);
    }

    /** An empty tree; {@code laneValues}: whether leaves may hold values as lanes. */
    CBSTree(boolean laneValues) {
        super("CBS-tree");
        this.laneValues = laneValues;
        this.infoOffset = ForLeafCodec.infoOffset(laneValues);
        init();
    }

    @Override
    void newLeaves() {
        leaves = LongNodeArray.smallChunks(ForLeafCodec.recordLongs(laneValues), 1);
        values = new LongBlockHeap();
    }

    // ---- leaf accessors -------------------------------------------------------------------------

    /** Where a leaf's key lanes start in {@code leaves.chunk(leaf)}. */
    int keysAt(int leaf) {
        return leaves.offset(leaf);
    }

    /** Where a leaf's value lanes start in {@code leaves.chunk(leaf)} (trees with value lanes). */
    int valsAt(int leaf) {
        return leaves.offset(leaf) + VALS;
    }

    /** Where a leaf's info ({@link ForLeafCodec#K0} ...) starts in {@code leaves.chunk(leaf)}. */
    int infoAt(int leaf) {
        return leaves.offset(leaf) + infoOffset;
    }

    long leafMeta(int leaf) {
        return leaves.chunk(leaf)[infoAt(leaf) + META];
    }

    long leafK0(int leaf) {
        return leaves.chunk(leaf)[infoAt(leaf) + K0];
    }

    /** The width of a leaf's key lanes: 16, 32 or 64. */
    int leafWidth(int leaf) {
        return width(leafMeta(leaf));
    }

    @Override
    protected long leafBitmap(int leaf) {
        return leaves.chunk(leaf)[infoAt(leaf) + BITMAP];
    }

    @Override
    protected int leafNext(int leaf) {
        return ForLeafCodec.next(leaves.chunk(leaf)[infoAt(leaf) + LINKS]);
    }

    @Override
    protected int leafPrev(int leaf) {
        return ForLeafCodec.prev(leaves.chunk(leaf)[infoAt(leaf) + LINKS]);
    }

    // Each finds the links word once: the bulk load's chainLeaves calls them for every leaf.

    @Override
    protected void setLeafNext(int leaf, int next) {
        long[] c = leaves.chunk(leaf);
        int at = infoAt(leaf) + LINKS;
        c[at] = ForLeafCodec.links(next, ForLeafCodec.prev(c[at]));
    }

    @Override
    protected void setLeafPrev(int leaf, int prev) {
        long[] c = leaves.chunk(leaf);
        int at = infoAt(leaf) + LINKS;
        c[at] = ForLeafCodec.links(ForLeafCodec.next(c[at]), prev);
    }

    @Override
    protected int leafSuccGE(int leaf, long key) {
        return leafSucc(leaf, key, false);
    }

    @Override
    protected int leafSuccGT(int leaf, long key) {
        return leafSucc(leaf, key, true);
    }

    /** {@code succ>} or {@code succ>=} on a leaf's lanes, for keys below k0 or past the width too. */
    private int leafSucc(int leaf, long key, boolean greater) {
        long[] ic = leaves.chunk(leaf);
        int io = infoAt(leaf);
        long k0 = ic[io + K0];
        int width = width(ic[io + META]);
        if (key < k0) {
            return 0;
        }
        long d = key - k0;
        if (Long.compareUnsigned(d, maxD(width)) >= 0) {
            return lanes(width); // beyond every used lane
        }
        long[] kc = leaves.chunk(leaf);
        int off = keysAt(leaf);
        return greater ? NodeSearch.succGTPacked(kc, off, width, d) : NodeSearch.succGEPacked(kc, off, width, d);
    }

    @Override
    protected long leafKey(int leaf, int slot) {
        long[] ic = leaves.chunk(leaf);
        int io = infoAt(leaf);
        return ic[io + K0] + PackedLanes.get(leaves.chunk(leaf), keysAt(leaf), width(ic[io + META]), slot);
    }

    @Override
    protected long leafValue(int leaf, int slot) {
        long[] ic = leaves.chunk(leaf);
        int io = infoAt(leaf);
        long meta = ic[io + META];
        if (hasLanes(meta)) {
            return ic[io + V0] + PackedLanes.get(leaves.chunk(leaf), valsAt(leaf), width(meta), slot);
        }
        int ref = ref(meta);
        return values.chunk(ref)[values.offset(ref) + Long.bitCount(ic[io + BITMAP] & below(slot))];
    }

    /**
     * The range visit's inner loop over one leaf. Not shared with {@code BSTree.visitLeaf}, which
     * it resembles: each decodes its own leaf format in line, where a shared loop would call back
     * for every key.
     */
    @Override
    protected int visitLeaf(int leaf, long bits, LongEntryVisitor visitor, int expectedModCount) {
        long[] ic = leaves.chunk(leaf);
        int io = infoAt(leaf);
        long k0 = ic[io + K0];
        long meta = ic[io + META];
        int width = width(meta);
        int ref = ref(meta);
        long[] kc = leaves.chunk(leaf);
        int off = keysAt(leaf);
        if (hasLanes(meta)) {
            long[] lc = leaves.chunk(leaf);
            long v0 = ic[io + V0];
            int n = 0;
            for (; bits != 0; bits &= bits - 1) {
                int slot = Long.numberOfTrailingZeros(bits);
                n++;
                boolean go = visitor.visit(k0 + PackedLanes.get(kc, off, width, slot),
                        v0 + PackedLanes.get(lc, off + VALS, width, slot));
                checkUnchanged(expectedModCount);
                if (!go) {
                    return -n;
                }
            }
            return n;
        }
        long[] vc = values.chunk(ref);
        // bits is a run of consecutive used slots, so their values are consecutive too.
        int v = values.offset(ref) + Long.bitCount(ic[io + BITMAP] & below(Long.numberOfTrailingZeros(bits)));
        int n = 0;
        for (; bits != 0; bits &= bits - 1) {
            int slot = Long.numberOfTrailingZeros(bits);
            n++;
            boolean go = visitor.visit(k0 + PackedLanes.get(kc, off, width, slot), vc[v++]);
            checkUnchanged(expectedModCount);
            if (!go) {
                return -n;
            }
        }
        return n;
    }

    // ---- allocation ---------------------------------------------------------------------------

    /** A fresh leaf: 64-bit lanes all padding, no slot used, no value block, unlinked. */
    @Override
    int allocLeaf() {
        growLeaves(leafIds.needed());
        int leaf = leafIds.next();
        long[] kc = leaves.chunk(leaf);
        int off = keysAt(leaf);
        Arrays.fill(kc, off, off + Slots.N, -1L);
        long[] ic = leaves.chunk(leaf);
        int io = infoAt(leaf);
        ic[io + K0] = Long.MIN_VALUE;
        ic[io + BITMAP] = 0;
        ic[io + LINKS] = -1L; // next and prev NONE
        ic[io + META] = laneValues ? laneMeta(64) : meta(0, 0, 64);
        if (laneValues) {
            ic[io + V0] = 0;
        }
        return leaf;
    }

    /** Frees a leaf and its value block; {@link #reserveForRemoval} made room for both. */
    @Override
    void freeLeaf(int leaf) {
        long[] ic = leaves.chunk(leaf);
        int io = infoAt(leaf);
        long meta = ic[io + META];
        if (lines(meta) > 0) {
            values.free(ref(meta), lines(meta));
        }
        ic[io + BITMAP] = 0;
        ic[io + META] = meta(0, 0, 64);
        leafIds.release(leaf);
    }

    void growLeaves(long count) {
        leaves.ensureCapacity(count);
    }

    /** Leaves in use whose lanes are {@code width} bits wide (16, 32 or 64). */
    long leavesOfWidth(int width) {
        long n = 0;
        for (int leaf = headLeaf; leaf != NONE; leaf = leafNext(leaf)) {
            n += leafWidth(leaf) == width ? 1 : 0;
        }
        return n;
    }

    /** Leaves in use whose values are lanes beside the keys (the rest are packed by rank). */
    long leavesWithValueLanes() {
        long n = 0;
        for (int leaf = headLeaf; leaf != NONE; leaf = leafNext(leaf)) {
            n += hasLanes(leafMeta(leaf)) ? 1 : 0;
        }
        return n;
    }

    /** Whether this tree gives leaves value lanes where their values fit (see the class comment). */
    @Override
    public boolean hasValueLanes() {
        return laneValues;
    }

    @Override
    public IndexKind kind() {
        return IndexKind.bsTree(true, false, bulkFill);
    }

    @Override
    public boolean isCompressed() {
        return true;
    }

    @Override
    protected String describeShape() {
        return super.describeShape() + ", values=" + (laneValues ? "lanes in " + leavesWithValueLanes() + " leaves"
                : "packed (they did not fit lanes at the bulk load)");
    }

    // ---- search -------------------------------------------------------------------------------

    @Override
    public long get(long key, long absent) {
        if (key == MAXKEY) {
            return getMax(absent);
        }
        return lookIn(inner.findLeaf(key), key, absent);
    }

    /** The batched look-up's descent: the shared inner levels' lock-step. */
    @Override
    protected void findLeaves(long[] keys, int from, int n, int[] leaves) {
        inner.findLeaves(keys, from, n, leaves);
    }

    @Override
    protected long leafGet(int leaf, long key, long absent) {
        return lookIn(leaf, key, absent);
    }

    /**
     * The value of {@code key} in {@code leaf}, or {@code absent}. Keys, info and value lanes
     * are one record, so their lines are requested together (see {@link Prefetch}) and
     * the look-up waits for one miss. A packed value's line is known only after the search (its
     * rank needs the bitmap): one more dependent miss (docs/BENCHMARKS.md measures both).
     */
    private long lookIn(int leaf, long key, long absent) {
        long[] c = leaves.chunk(leaf);
        int off = keysAt(leaf);
        int io = off + infoOffset;
        int t = 0;
        if (laneValues) {
            // Requested now, used only by the value read at the end: were t added to the
            // search's offset instead, the keys' load would wait for these lines.
            // Three words, not two: a record is not line-aligned, so its 128 bytes of lanes
            // may span three cache lines.
            t = (int) ((c[off + VALS] | c[off + VALS + Slots.N / 2] | c[off + VALS + Slots.N - 1])
                    & Prefetch.zero());
        }
        long k0 = c[io + K0];
        long meta = c[io + META];
        int width = width(meta);
        long d = key - k0;
        if (key < k0 || Long.compareUnsigned(d, maxD(width)) >= 0) {
            return absent;
        }
        int q = NodeSearch.succGTPacked(c, off, width, d);
        // The last slot of a run of equal lanes is the used one (gaps repeat the next used lane).
        if (q == 0 || PackedLanes.get(c, off, width, q - 1) != d) {
            return absent;
        }
        if (hasLanes(meta)) {
            return c[io + V0] + PackedLanes.get(c, off + VALS + t, width, q - 1);
        }
        int ref = ref(meta);
        return values.chunk(ref)[values.offset(ref) + Long.bitCount(c[io + BITMAP] & below(q - 1))];
    }

    @Override
    public boolean containsKey(long key) {
        if (key == MAXKEY) {
            return hasMax;
        }
        return findSlot(inner.findLeaf(key), key) >= 0;
    }

    /** The used slot of {@code leaf} holding {@code key}, or -1. */
    private int findSlot(int leaf, long key) {
        int q = succIn(leaf, key);
        // The last slot of a run of equal lanes is the used one (gaps repeat the next used lane).
        return q > 0 && leafKey(leaf, q - 1) == key ? q - 1 : -1;
    }

    /**
     * {@code succ>} of {@code key} on the leaf's lanes, or -1 when the leaf cannot hold it (below
     * {@code k0}, or a difference its width cannot represent): then it is certainly absent.
     */
    private int succIn(int leaf, long key) {
        long[] ic = leaves.chunk(leaf);
        int io = infoAt(leaf);
        long k0 = ic[io + K0];
        int width = width(ic[io + META]);
        long d = key - k0;
        if (key < k0 || Long.compareUnsigned(d, maxD(width)) >= 0) {
            return -1;
        }
        return NodeSearch.succGTPacked(leaves.chunk(leaf), keysAt(leaf), width, d);
    }

    // ---- insert -------------------------------------------------------------------------------

    @Override
    public long put(long key, long value) {
        if (key == MAXKEY) {
            return putMax(value);
        }
        int changes = changes();
        while (true) {
            int leaf = inner.descend(key);
            int r = tryFastPut(leaf, key, value);
            if (r == 0) {
                return replaced;
            }
            if (r == 1 || writer.reencodeOrSplit(leaf, key, value)) {
                size++;
                modCount++;
                if (VERIFY && changes != changes() && size <= VERIFY_LIMIT) {
                    checkInvariants();
                }
                return defaultReturnValue();
            }
            // The leaf split; descend again for the half the key belongs to.
        }
    }

    /**
     * The common insert: returns 0 if the key was there (its value replaced; the old one is left
     * in {@link #replaced}), 1 if it went in,
     * 2 if the leaf must be re-encoded or split first (the key is then certainly absent).
     */
    private int tryFastPut(int leaf, long key, long value) {
        int q = succIn(leaf, key);
        if (q < 0) {
            return 2;
        }
        long[] ic = leaves.chunk(leaf);
        int io = infoAt(leaf);
        long meta = ic[io + META];
        int width = width(meta);
        long d = key - ic[io + K0];
        long[] kc = leaves.chunk(leaf);
        int off = keysAt(leaf);
        long bm = ic[io + BITMAP];
        int count = Long.bitCount(bm);
        boolean present = q != 0 && PackedLanes.get(kc, off, width, q - 1) == d;
        int lanes = lanes(width);
        if (!present && count == lanes) {
            return 2;
        }
        if (hasLanes(meta) && !fitsLane(value, ic[io + V0], width)) {
            meta = toPacked(leaf, meta, present ? count : count + 1); // before anything else changes
        }
        if (present) {
            replaced = leafValue(leaf, q - 1);
            if (hasLanes(meta)) {
                PackedLanes.set(kc, off + VALS, width, q - 1, value - ic[io + V0]);
            } else {
                int ref = ref(meta);
                values.chunk(ref)[values.offset(ref) + Long.bitCount(bm & below(q - 1))] = value;
            }
            return 0;
        }
        boolean inLanes = hasLanes(meta);
        long[] lc = inLanes ? leaves.chunk(leaf) : null;
        if (!inLanes && count == lines(meta) * LINE) {
            meta = growValues(leaf, meta, count); // before anything changes: it may run out of memory
        }
        // Algorithm 6 on lanes: a gap at r, else shift towards the nearest gap.
        long full = below(lanes);
        int at;
        int gap;
        if (q < lanes && (bm & (1L << q)) == 0) {
            at = q;
            gap = q;
        } else {
            long right = q + 1 >= lanes ? 0 : ~bm & (-1L << (q + 1)) & full;
            if (right != 0) {
                gap = Long.numberOfTrailingZeros(right);
                PackedLanes.shiftUp(kc, off, width, q, gap - q);
                if (inLanes) {
                    PackedLanes.shiftUp(lc, off + VALS, width, q, gap - q);
                }
                at = q;
            } else {
                gap = highestBit(~bm & below(q));
                PackedLanes.shiftDown(kc, off, width, gap + 1, q - 1 - gap);
                if (inLanes) {
                    PackedLanes.shiftDown(lc, off + VALS, width, gap + 1, q - 1 - gap);
                }
                at = q - 1;
            }
        }
        PackedLanes.set(kc, off, width, at, d);
        bm |= 1L << gap;
        ic[io + BITMAP] = bm;
        if (inLanes) {
            PackedLanes.set(lc, off + VALS, width, at, value - ic[io + V0]);
            return 1;
        }
        int ref = ref(meta);
        long[] vc = values.chunk(ref);
        int rank = values.offset(ref) + Long.bitCount(bm & below(at));
        int end = values.offset(ref) + count;
        System.arraycopy(vc, rank, vc, rank + 1, end - rank);
        vc[rank] = value;
        return 1;
    }

    /**
     * Moves a lane leaf's values into a packed block with room for {@code room} of them, keeping
     * the keys where they are; returns the new info word. Allocates before it changes anything.
     */
    private long toPacked(int leaf, long meta, int room) {
        int lines = linesFor(room);
        values.reserve(lines, 0);
        int ref = values.alloc(lines);
        long[] ic = leaves.chunk(leaf);
        int io = infoAt(leaf);
        long v0 = ic[io + V0];
        int width = width(meta);
        long[] lc = leaves.chunk(leaf);
        int off = valsAt(leaf);
        long[] vc = values.chunk(ref);
        int v = values.offset(ref);
        for (long bits = ic[io + BITMAP]; bits != 0; bits &= bits - 1) {
            vc[v++] = v0 + PackedLanes.get(lc, off, width, Long.numberOfTrailingZeros(bits));
        }
        long m = meta(ref, lines, width);
        ic[io + META] = m;
        return m;
    }

    /** Moves a leaf's {@code count} values to a block one line larger; returns the new info word. */
    private long growValues(int leaf, long meta, int count) {
        int lines = lines(meta);
        values.reserve(lines + 1, 1);
        int ref = values.alloc(lines + 1);
        if (lines > 0) {
            int old = ref(meta);
            System.arraycopy(values.chunk(old), values.offset(old), values.chunk(ref), values.offset(ref), count);
            values.free(old, lines);
        }
        long m = meta(ref, lines + 1, width(meta));
        leaves.chunk(leaf)[infoAt(leaf) + META] = m;
        return m;
    }

    // ---- delete -------------------------------------------------------------------------------

    @Override
    public long remove(long key) {
        if (key == MAXKEY) {
            return removeMax();
        }
        int leaf = inner.descend(key);
        int p = findSlot(leaf, key);
        if (p < 0) {
            return defaultReturnValue();
        }
        long previous = leafValue(leaf, p);
        reserveForRemoval();
        long[] ic = leaves.chunk(leaf);
        int io = infoAt(leaf);
        long meta = ic[io + META];
        int width = width(meta);
        long[] kc = leaves.chunk(leaf);
        int off = keysAt(leaf);
        long bm = ic[io + BITMAP];
        int count = Long.bitCount(bm);
        if (!hasLanes(meta)) { // a lane value simply stays behind in what becomes a gap
            // Values above move down over the deleted one.
            int ref = ref(meta);
            long[] vc = values.chunk(ref);
            int rank = values.offset(ref) + Long.bitCount(bm & below(p));
            int end = values.offset(ref) + count;
            System.arraycopy(vc, rank + 1, vc, rank, end - rank - 1);
            vc[end - 1] = 0;
        }
        // Algorithm 5: the slot and the gaps before it take the next used difference, or MAXD.
        bm &= ~(1L << p);
        long above = bitsFrom(bm, p + 1);
        long fill = above != 0 ? PackedLanes.get(kc, off, width, Long.numberOfTrailingZeros(above)) : maxD(width);
        long lower = bm & below(p);
        for (int s = lower == 0 ? 0 : highestBit(lower) + 1; s <= p; s++) {
            PackedLanes.set(kc, off, width, s, fill);
        }
        ic[io + BITMAP] = bm;
        size--;
        modCount++;
        if (bm == 0 && inner.height > 0) {
            removeLeaf(leaf);
        }
        return previous;
    }

    /** Room on every free list a delete can push to, taken before it changes anything. */
    private void reserveForRemoval() {
        leafIds.reserveReleases(1);
        values.reserve(0, 1);
        inner.reserveForRemoval();
    }

    // ---- accounting ---------------------------------------------------------------------------

    @Override
    public long memoryBytes() {
        return 16 + 8L * 16 // this object's header and fields, roughly
                + leaves.bytes() + values.bytes()
                + inner.bytes()
                + leafIds.bytes() + CompressedLeafWriter.SCRATCH_BYTES
                + 16;
    }

    @Override
    protected void checkStructure() {
        new CompressedInvariantChecker(this).check();
    }

    // ---- bulk load ----------------------------------------------------------------------------

    /**
     * Builds a tree from sorted keys in one pass (section 5): each leaf takes {@code leafFill} of
     * 64 lanes of 16-bit differences if the span of those keys allows, else {@code leafFill} of 32
     * lanes of 32-bit differences, else {@code leafFill} of 16 plain keys ({@link BulkLayout});
     * gaps are spread, none between consecutive integers; the rest is {@link #load}'s.
     *
     * @param keys     strictly ascending
     * @param vals     one per key, or {@code null} for zeros
     * @param leafFill between 0.5 and 1
     * @throws IllegalArgumentException on bad input; nothing is built
     */
    static CBSTree bulkLoad(long[] keys, long[] vals, double leafFill) {
        return bulkLoad(keys, vals, leafFill, BulkLayout.laneValuesPay(keys, vals, leafFill), Arrivals.ALL);
    }

    /**
     * {@link #bulkLoad(long[], long[], double)} with value lanes or without as the caller says
     * (a snapshot records its tree's choice: the sample that makes it spans the whole input,
     * which a load still reading it does not have), of input that may still be arriving.
     */
    static CBSTree bulkLoad(long[] keys, long[] vals, double leafFill, boolean laneValues, Arrivals in) {
        CBSTree t = new CBSTree(laneValues);
        t.load(keys, vals, leafFill, in);
        return t;
    }

    @Override
    int loadLeaves(long[] keys, long[] vals, int n, double leafFill, int[] ids, long[] mins, Arrivals in) {
        return writer.loadLeaves(keys, vals, n, leafFill, ids, mins, in);
    }

    @Override
    void trimLeaves() {
        leaves.trimTo(leafIds.count());
        values.trim();
    }
}
