package org.bforest.bstree;

import java.util.Arrays;
import org.bforest.LongEntryVisitor;
import org.bforest.kernel.NodeSearch;
import org.bforest.kernel.PackedLanes;
import org.bforest.util.BatchArguments;
import org.bforest.storage.NodeIds;
import org.bforest.storage.LongBlockHeap;
import org.bforest.storage.LongNodeArray;

/**
 * The compressed BS-tree (CBS-tree; BS-tree paper, sections 5 and 6): the BS-tree's inner levels
 * ({@link InnerLevels}, uncompressed, shared) over leaves whose keys are frame-of-reference
 * differences, so that the same 1024-bit key block holds 64 keys as 16-bit differences, 32 as
 * 32-bit or 16 as 64-bit, searched with the same data-parallel {@code succ} directly on the packed
 * lanes ({@link NodeSearch#succGTPacked}). Single-threaded.
 *
 * <h2>Leaves</h2>
 * A leaf is one record in {@code leaves}: its key block, its value lanes (in a tree with value
 * lanes) and its info, in that order, so a look-up's loads all go to one place.
 * <ul>
 * <li>keys: the 16-long key block, read as lanes of the leaf's width
 *     ({@link PackedLanes}). Lane {@code i} holds {@code key - k0} (unsigned), where {@code k0} is
 *     the leaf's reference key. Gaps hold the next used difference, or the width's all-ones value
 *     ({@code MAXD}, never a used difference) when none follows, so the lanes ascend and the
 *     branch-free search and the rules of the plain BS-tree carry over unchanged.</li>
 * <li>info: {@code k0}, the 64-bit slot bitmap, the chain ({@code next << 32 | prev}), a word
 *     {@code valueRef << 32 | valueLines << 8 | LANE_VALUES | width} and, in a tree with value
 *     lanes, the values' reference {@code v0}: 4 longs, or 5.</li>
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
 *     gives the tree value lanes when most leaves' values fit ({@link #laneValuesPay}); without
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
 * with room to spare, and a leaf of at most 16 keys always re-encodes, so this ends. Delete is
 * the BS-tree's (Algorithm 5); an emptied leaf is unlinked, its values freed and its separator
 * removed, as in the BS-tree.
 *
 * <h2>Bulk load</h2>
 * One pass over the sorted keys: a leaf tries to take {@code leafFill} of 64 lanes as 16-bit
 * differences; if their span is too wide it tries {@code leafFill} of 32 lanes at 32 bits, else
 * {@code leafFill} of 16 lanes of plain keys (section 5). Gaps are spread as in the BS-tree, none
 * between consecutive integers.
 */
final class CBSTree extends GappedTree {
    /** Offsets in the 4-long leaf info record. */
    static final int K0 = 0;
    static final int BITMAP = 1;
    static final int LINKS = 2;
    static final int META = 3;
    /** The values' reference in a lane leaf (info parts of 5 longs, trees with value lanes only). */
    static final int V0 = 4;
    /** META flag: the leaf's values are lanes in its record, else packed in {@code values}. */
    static final long LANE_VALUES = 1L << 7;

    private static final int LINE = LongBlockHeap.LINE;
    /** Entries a leaf can hold at most (64 lanes of 16 bits) plus a new one. */
    private static final int MAX_ENTRIES = MAX_LANES + 1;

    /** Offset of the value lanes in a leaf record (trees with value lanes). */
    static final int VALS = Slots.N;
    /** Longs of the info part of a leaf record: {@code K0 .. META}, and {@code V0} with value lanes. */
    private static final int INFO_LONGS = 4;
    private static final int INFO_LONGS_LANES = 5;

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
    final NodeIds leafIds = new NodeIds();
    private int structureChanges;

    // Scratch for re-encoding and splitting, allocated once.
    private final long[] oldKeys = new long[MAX_ENTRIES];
    private final long[] oldVals = new long[MAX_ENTRIES];
    private final long[] newKeys = new long[MAX_ENTRIES];
    private final long[] newVals = new long[MAX_ENTRIES];
    private final int[] lanesOut = new int[MAX_LANES];
    private final long[] laneScratch = new long[MAX_LANES];
    /** The value a replacing {@link #tryFastPut} found (writes are single-threaded). */
    private long replaced;
    private static final int BATCH = 16;

    /** An empty tree, with value lanes. */
    CBSTree() {
        this(true);
    }

    /** An empty tree; {@code laneValues}: whether leaves may hold values as lanes. */
    CBSTree(boolean laneValues) {
        super("CBS-tree");
        this.laneValues = laneValues;
        this.infoOffset = laneValues ? VALS + Slots.N : Slots.N;
        init();
    }

    private void init() {
        leaves = LongNodeArray.smallChunks(infoOffset + (laneValues ? INFO_LONGS_LANES : INFO_LONGS), 1);
        values = new LongBlockHeap();
        leafIds.reset();
        int root = allocLeaf();
        inner.reset(root);
        headLeaf = root;
        tailLeaf = root;
    }

    // ---- the info word and lanes ----------------------------------------------------------------

    static long meta(int ref, int lines, int width) {
        return (long) ref << 32 | (long) lines << 8 | width;
    }

    static int width(long meta) {
        return (int) meta & 0x7F;
    }

    /** The info word of a lane leaf of {@code width}. */
    static long laneMeta(int width) {
        return LANE_VALUES | width;
    }

    static boolean hasLanes(long meta) {
        return (meta & LANE_VALUES) != 0;
    }

    static int lines(long meta) {
        return (int) (meta >>> 8) & 0xF;
    }

    static int ref(long meta) {
        return (int) (meta >>> 32);
    }

    /** Lanes of a width: 64, 32, 16 (no division on the hot path). */
    static int lanes(int width) {
        return 1 << (10 - Integer.numberOfTrailingZeros(width));
    }

    /** The padding value of a width, all ones; never a used difference. */
    static long maxD(int width) {
        return -1L >>> (64 - width);
    }

    private static long below(int s) {
        return s >= MAX_LANES ? -1L : (1L << s) - 1;
    }

    /** Value lines for {@code n} entries. */
    private static int linesFor(int n) {
        return Math.max(1, (n + LINE - 1) / LINE);
    }

    /** Whether value {@code v} fits a lane of {@code width} bits above {@code v0} (any value fits 64). */
    static boolean fitsLane(long v, long v0, int width) {
        return Long.compareUnsigned(v - v0, maxD(width)) <= 0;
    }

    /** Whether values {@code vs[from, from+n)} fit lanes of {@code width} bits above one reference. */
    static boolean lanesFit(long[] vs, int from, int n, int width) {
        if (width == 64 || n == 0) {
            return true;
        }
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int i = from; i < from + n; i++) {
            min = Math.min(min, vs[i]);
            max = Math.max(max, vs[i]);
        }
        return Long.compareUnsigned(max - min, maxD(width)) <= 0;
    }

    /**
     * The reference {@code v0} for values {@code vs[from, from+n)} that {@link #lanesFit}: half
     * the width's spare range below the smallest (never below {@code Long.MIN_VALUE}), so that
     * later values a little below or above it fit too.
     */
    static long laneBase(long[] vs, int from, int n, int width) {
        if (width == 64 || n == 0) {
            return 0;
        }
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int i = from; i < from + n; i++) {
            min = Math.min(min, vs[i]);
            max = Math.max(max, vs[i]);
        }
        long spare = (maxD(width) - (max - min)) >>> 1;
        long room = min - Long.MIN_VALUE; // unsigned distance to the smallest long
        return min - (Long.compareUnsigned(spare, room) <= 0 ? spare : room);
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

    /** Where a leaf's info ({@link #K0} ...) starts in {@code leaves.chunk(leaf)}. */
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
        return (int) (leaves.chunk(leaf)[infoAt(leaf) + LINKS] >>> 32);
    }

    @Override
    protected int leafPrev(int leaf) {
        return (int) leaves.chunk(leaf)[infoAt(leaf) + LINKS];
    }

    private void setLinks(int leaf, int next, int prev) {
        leaves.chunk(leaf)[infoAt(leaf) + LINKS] = (long) next << 32 | (prev & 0xFFFF_FFFFL);
    }

    @Override
    protected void setLeafNext(int leaf, int next) {
        setLinks(leaf, next, leafPrev(leaf));
    }

    @Override
    protected void setLeafPrev(int leaf, int prev) {
        setLinks(leaf, leafNext(leaf), prev);
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
    private int allocLeaf() {
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

    private void freeLeaf(int leaf) {
        long[] ic = leaves.chunk(leaf);
        int io = infoAt(leaf);
        ic[io + BITMAP] = 0;
        ic[io + META] = meta(0, 0, 64);
        leafIds.release(leaf);
    }

    int[] freeLeafIds() {
        return leafIds.freeIds();
    }

    private void growLeaves(long count) {
        leaves.ensureCapacity(count);
    }

    /** Leaves in use. */
    @Override
    public long leafNodes() {
        return leafIds.inUse();
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
    boolean hasValueLanes() {
        return laneValues;
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

    /**
     * Batched look-up, {@value #BATCH} descents in lock-step (see {@code BSTree.getAll}); one array
     * of leaf ids per call, no shared scratch, so concurrent readers are safe.
     */
    @Override
    public void getAll(long[] keys, long[] vals, long absent) {
        BatchArguments.checkGetAll(keys, vals);
        int[] nodes = new int[BATCH];
        for (int base = 0; base < keys.length; base += BATCH) {
            int n = Math.min(BATCH, keys.length - base);
            inner.findLeaves(keys, base, n, nodes);
            for (int i = 0; i < n; i++) {
                long key = keys[base + i];
                vals[base + i] = key == MAXKEY ? getMax(absent) : lookIn(nodes[i], key, absent);
            }
        }
    }

    /**
     * The value of {@code key} in {@code leaf}, or {@code absent}. Keys, info and value lanes
     * are one record, so their lines are requested together (see {@link InnerLevels#touch}) and
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
                    & InnerLevels.touch);
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

    @Override
    public void clear() {
        init();
        resetCommon();
        structureChanges++;
    }

    private int changes() {
        return structureChanges + inner.changes;
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
            if (r == 1 || reencodeOrSplit(leaf, key, value)) {
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

    /**
     * The slow insert of an absent key: re-encodes the leaf with it in the narrowest width that
     * holds them all (true), or, when none does, splits the leaf's own keys into two halves
     * (false: the caller descends again).
     */
    private boolean reencodeOrSplit(int leaf, long key, long value) {
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
        long meta = leafMeta(leaf);
        if (width != 0) {
            int lines = lines(meta);
            int ref = ref(meta);
            boolean inLanes = laneValues && lanesFit(newVals, 0, m, width);
            if (inLanes) {
                if (lines > 0) {
                    values.reserve(0, 1);
                    values.free(ref, lines);
                }
                ref = 0;
                lines = 0;
            } else if (lines < linesFor(m)) {
                values.reserve(linesFor(m), 1);
                ref = values.alloc(linesFor(m));
                if (lines > 0) {
                    values.free(ref(meta), lines);
                }
                lines = linesFor(m);
            }
            // A new smallest key (a descending run, typically): leave half the width's spare range
            // below it, so the next smaller keys fit without another re-encoding.
            long k0 = pos == 0 ? headroomBelow(newKeys[0], newKeys[m - 1], width) : newKeys[0];
            writeLeaf(leaf, newKeys, newVals, 0, m, width, inLanes, ref, lines, k0);
            structureChanges++;
            return true;
        }
        splitLeaf(leaf, count, meta);
        return false;
    }

    /**
     * A reference key for keys {@code first..last} in lanes of {@code width} bits that leaves
     * half of the spare range below {@code first} (never below {@code Long.MIN_VALUE}); the
     * differences stay below {@code MAXD}.
     */
    static long headroomBelow(long first, long last, int width) {
        if (width == 64) {
            return Long.MIN_VALUE;
        }
        long spare = (maxD(width) - 1 - (last - first)) >>> 1; // fits: narrowestWidth checked the span
        long room = first - Long.MIN_VALUE; // unsigned distance to the smallest long
        return first - (Long.compareUnsigned(spare, room) <= 0 ? spare : room);
    }

    /** Copies a leaf's used keys and values out in key order; returns how many. */
    private int gather(int leaf, long[] ks, long[] vs) {
        long[] ic = leaves.chunk(leaf);
        int io = infoAt(leaf);
        long k0 = ic[io + K0];
        long meta = ic[io + META];
        PackedLanes.unpack(leaves.chunk(leaf), keysAt(leaf), width(meta), laneScratch);
        int n = 0;
        for (long bits = ic[io + BITMAP]; bits != 0; bits &= bits - 1) {
            ks[n++] = k0 + laneScratch[Long.numberOfTrailingZeros(bits)];
        }
        if (hasLanes(meta)) {
            long v0 = ic[io + V0];
            long[] lc = leaves.chunk(leaf);
            int off = valsAt(leaf);
            int i = 0;
            for (long bits = ic[io + BITMAP]; bits != 0; bits &= bits - 1) {
                vs[i++] = v0 + PackedLanes.get(lc, off, width(meta), Long.numberOfTrailingZeros(bits));
            }
        } else if (n > 0) {
            int ref = ref(meta);
            System.arraycopy(values.chunk(ref), values.offset(ref), vs, 0, n);
        }
        return n;
    }

    /**
     * The narrowest lane width (16, 32, 64) in which {@code n} sorted keys fit one leaf as
     * differences to the first (64: plain keys, always, for up to 16 keys); 0 if none.
     */
    static int narrowestWidth(long[] ks, int from, int n) {
        long span = n == 0 ? 0 : ks[from + n - 1] - ks[from];
        if (n <= 64 && Long.compareUnsigned(span, maxD(16)) < 0) {
            return 16;
        }
        if (n <= 32 && Long.compareUnsigned(span, maxD(32)) < 0) {
            return 32;
        }
        return n <= 16 ? 64 : 0;
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
        boolean lanesL = laneValues && lanesFit(oldVals, 0, half, wl);
        boolean lanesR = laneValues && lanesFit(oldVals, half, count - half, wr);
        int ll = lanesL ? 0 : linesFor(half) + 1;
        int lr = lanesR ? 0 : linesFor(count - half) + 1;
        inner.reserveForSplit();
        growLeaves(leafIds.needed());
        values.reserve(ll + lr, 1);
        int right = allocLeaf();
        int refL = lanesL ? 0 : values.alloc(ll);
        int refR = lanesR ? 0 : values.alloc(lr);
        if (lines(meta) > 0) {
            values.free(ref(meta), lines(meta));
        }
        writeLeaf(leaf, oldKeys, oldVals, 0, half, wl, lanesL, refL, ll, oldKeys[0]);
        writeLeaf(right, oldKeys, oldVals, half, count - half, wr, lanesR, refR, lr, oldKeys[half]);
        linkAfter(leaf, right);
        structureChanges++;
        inner.insertIntoParent(oldKeys[half], right);
    }

    /**
     * Writes {@code n} sorted entries into a leaf in lanes of {@code width} bits, spread evenly
     * (entry i at lane {@code i * lanes / n}), gaps holding the next difference, and their values
     * as lanes ({@code inLanes}, which {@link #lanesFit}) or packed into block {@code ref} of
     * {@code lines} lines. Keeps the chain links.
     */
    private void writeLeaf(int leaf, long[] ks, long[] vs, int from, int n, int width, boolean inLanes, int ref,
            int lines, long k0) {
        int lanes = lanes(width);
        for (int i = 0; i < n; i++) {
            lanesOut[i] = (int) ((long) i * lanes / n);
        }
        fillLeaf(leaf, ks, from, n, width, lanesOut, k0);
        writeValues(leaf, vs, from, n, width, lanesOut, inLanes, ref, lines);
    }

    /** Writes a leaf's values {@code vs[from, from+n)}, at lanes {@code at}, and its info word. */
    private void writeValues(int leaf, long[] vs, int from, int n, int width, int[] at, boolean inLanes, int ref,
            int lines) {
        long[] ic = leaves.chunk(leaf);
        int io = infoAt(leaf);
        if (inLanes) {
            long v0 = vs == null ? 0 : laneBase(vs, from, n, width);
            long[] lanes = laneScratch;
            Arrays.fill(lanes, 0, lanes(width), 0);
            for (int i = 0; vs != null && i < n; i++) {
                lanes[at[i]] = vs[from + i] - v0;
            }
            PackedLanes.pack(lanes, leaves.chunk(leaf), valsAt(leaf), width);
            ic[io + V0] = v0;
            ic[io + META] = laneMeta(width);
        } else {
            if (vs != null) {
                System.arraycopy(vs, from, values.chunk(ref), values.offset(ref), n);
            } else {
                Arrays.fill(values.chunk(ref), values.offset(ref), values.offset(ref) + lines * LINE, 0);
            }
            ic[io + META] = meta(ref, lines, width);
        }
    }

    /** Writes keys {@code ks[from, from+n)} at lanes {@code at[0, n)} (ascending), k0, bitmap and gaps. */
    private void fillLeaf(int leaf, long[] ks, int from, int n, int width, int[] at, long firstK0) {
        long k0 = width == 64 ? Long.MIN_VALUE : firstK0;
        long[] lanes = laneScratch;
        long next = maxD(width);
        int s = lanes(width) - 1;
        long bm = 0;
        for (int i = n - 1; i >= 0; i--) {
            for (; s > at[i]; s--) {
                lanes[s] = next;
            }
            next = ks[from + i] - k0;
            lanes[s] = next;
            bm |= 1L << s;
            s--;
        }
        for (; s >= 0; s--) {
            lanes[s] = next;
        }
        PackedLanes.pack(lanes, leaves.chunk(leaf), keysAt(leaf), width);
        long[] ic = leaves.chunk(leaf);
        int io = infoAt(leaf);
        ic[io + K0] = k0;
        ic[io + BITMAP] = bm;
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
            if (VERIFY && size <= VERIFY_LIMIT) {
                checkInvariants();
            }
        }
        return previous;
    }

    /** Room on every free list a delete can push to, taken before it changes anything. */
    private void reserveForRemoval() {
        leafIds.reserveReleases(1);
        values.reserve(0, 1);
        inner.reserveForRemoval();
    }

    /** Unlinks and frees an empty leaf and its values, then deletes its separator (section 4.1). */
    private void removeLeaf(int leaf) {
        unlinkLeaf(leaf);
        long meta = leafMeta(leaf);
        if (lines(meta) > 0) {
            values.free(ref(meta), lines(meta));
        }
        freeLeaf(leaf);
        structureChanges++;
        inner.removeChild();
    }

    // ---- accounting ---------------------------------------------------------------------------

    @Override
    public long memoryBytes() {
        return 16 + 8L * 16 // this object's header and fields, roughly
                + leaves.bytes() + values.bytes()
                + inner.bytes()
                + leafIds.bytes() + 4 * (16 + 8L * MAX_ENTRIES) + 16 + 4L * lanesOut.length + 16 + 8L * MAX_LANES
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
     * lanes of 32-bit differences, else {@code leafFill} of 16 plain keys; gaps are spread, none
     * between consecutive integers; the inner levels are built as the BS-tree's.
     *
     * @param keys     strictly ascending
     * @param vals     one per key, or {@code null} for zeros
     * @param leafFill between 0.5 and 1
     * @throws IllegalArgumentException on bad input; nothing is built
     */
    static CBSTree bulkLoad(long[] keys, long[] vals, double leafFill) {
        CBSTree t = new CBSTree(laneValuesPay(keys, vals, leafFill));
        int n = t.acceptBulk(keys, vals, leafFill);
        if (n == 0) {
            return t;
        }
        // At most one leaf per round(leafFill * 16) keys.
        int maxLeaves = leavesFor(n, Math.max(1, (int) Math.round(leafFill * 16)));
        int[] ids = new int[maxLeaves];
        long[] mins = new long[maxLeaves];
        int count = t.loadLeaves(keys, vals, n, leafFill, ids, mins);
        t.inner.build(ids, mins, count, leafFill);
        // Give back storage beyond the nodes in use: a bulk-loaded tree knows its size.
        t.inner.trim();
        t.leaves.trimTo(t.leafIds.count());
        t.values.trim();
        return t;
    }

    /**
     * Whether value lanes pay for a bulk load: they do when at least 3/4 of its leaves' values
     * fit them (with no values, all do); otherwise the tree leaves them out and saves their 128
     * bytes a leaf. It looks at up to {@value #LANE_SAMPLES} leaves spread evenly over the keys
     * (every leaf of a smaller load), each laid out as the bulk load would from that key. Bad
     * input gives {@code true}: the bulk load rejects it next.
     */
    static boolean laneValuesPay(long[] keys, long[] vals, double leafFill) {
        if (vals == null || keys == null || vals.length != keys.length || !(leafFill >= 0.5 && leafFill <= 1.0)) {
            return true;
        }
        int n = keys.length > 0 && keys[keys.length - 1] == MAXKEY ? keys.length - 1 : keys.length;
        int[] at = new int[MAX_LANES];
        int stride = Math.max(1, n / LANE_SAMPLES);
        long leaves = 0;
        long fit = 0;
        for (int i = 0; i < n; ) {
            long extent = leafExtent(keys, i, n, leafFill, at);
            int placed = (int) (extent >>> 8);
            leaves++;
            fit += lanesFit(vals, i, placed, (int) extent & 0xFF) ? 1 : 0;
            i += Math.max(placed, Math.min(stride, n - i));
        }
        return fit * 4 >= leaves * 3;
    }

    /** Leaves {@link #laneValuesPay} looks at, at most. */
    static final int LANE_SAMPLES = 4096;

    /**
     * The bulk load's next leaf from key {@code i} (section 5): {@code leafFill} of 64 lanes of
     * 16 bits if their span allows, else of 32 lanes of 32 bits, else of 16 plain keys. Fills
     * {@code at} with their lanes; returns {@code placed << 8 | width}.
     */
    private static long leafExtent(long[] keys, int i, int n, double leafFill, int[] at) {
        for (int w = 16; ; w <<= 1) {
            int placed = place(keys, i, n, lanes(w), leafFill, at);
            if (w == 64 || Long.compareUnsigned(keys[i + placed - 1] - keys[i], maxD(w)) < 0) {
                return (long) placed << 8 | w;
            }
        }
    }

    private int loadLeaves(long[] keys, long[] vals, int n, double leafFill, int[] ids, long[] mins) {
        int leaves = 0;
        int prev = NONE;
        int i = 0;
        while (i < n) {
            long extent = leafExtent(keys, i, n, leafFill, lanesOut);
            int placed = (int) (extent >>> 8);
            int width = (int) extent & 0xFF;
            int leaf = leaves == 0 ? inner.root : allocLeaf();
            fillLeaf(leaf, keys, i, placed, width, lanesOut, keys[i]);
            boolean inLanes = laneValues && (vals == null || lanesFit(vals, i, placed, width));
            int lines = inLanes ? 0 : linesFor(placed);
            writeValues(leaf, vals, i, placed, width, lanesOut, inLanes, inLanes ? 0 : values.alloc(lines), lines);
            setLinks(leaf, NONE, prev);
            if (prev != NONE) {
                setLeafNext(prev, leaf);
            }
            prev = leaf;
            ids[leaves] = leaf;
            mins[leaves] = keys[i];
            leaves++;
            i += placed;
        }
        headLeaf = ids[0];
        tailLeaf = prev;
        return leaves;
    }

    /**
     * Where the keys from {@code i} go in a leaf of {@code lanes} lanes filled to {@code leafFill}:
     * a gap is left where the spread calls for one, except between consecutive integers (nothing
     * could be inserted there). Fills {@code at} and returns how many keys the leaf takes.
     */
    static int place(long[] keys, int i, int n, int lanes, double leafFill, int[] at) {
        int perLeaf = Math.max(1, Math.min(lanes, (int) Math.round(leafFill * lanes)));
        int slot = 0;
        int placed = 0;
        while (slot < lanes && i < n) {
            at[placed] = slot;
            slot++;
            placed++;
            i++;
            boolean gapDue = (placed * lanes / perLeaf) - ((placed - 1) * lanes / perLeaf) > 1;
            if (gapDue && slot < lanes && i < n && keys[i] != keys[i - 1] + 1) {
                slot++;
            }
        }
        return placed;
    }
}
