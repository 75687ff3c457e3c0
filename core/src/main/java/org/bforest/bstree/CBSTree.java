package org.bforest.bstree;

import java.util.Arrays;
import org.bforest.LongEntryVisitor;
import org.bforest.kernel.NodeSearch;
import org.bforest.kernel.PackedLanes;
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
 * <ul>
 * <li>{@code leafKeys}: the 16-long key block, read as lanes of the leaf's width
 *     ({@link PackedLanes}). Lane {@code i} holds {@code key - k0} (unsigned), where {@code k0} is
 *     the leaf's reference key. Gaps hold the next used difference, or the width's all-ones value
 *     ({@code MAXD}, never a used difference) when none follows, so the lanes ascend and the
 *     branch-free search and the rules of the plain BS-tree carry over unchanged.</li>
 * <li>{@code leafInfo}: 4 longs: {@code k0}, the 64-bit slot bitmap, the chain ({@code next << 32 |
 *     prev}) and a word {@code valueRef << 32 | valueLines << 8 | width}.</li>
 * <li>values: in a {@link LongBlockHeap} block of {@code valueLines} cache lines, without gaps:
 *     the value of the used slot {@code s} is at its rank, {@code bitCount(bitmap below s)}. This
 *     is where the CBS-tree departs from the paper, whose trees hold keys only: a map's values are
 *     8 bytes a key that no key compression shrinks, and stored slot-aligned they would cost a
 *     64-slot leaf 512 bytes for its 48 keys. Packed, a bulk-loaded leaf of 48 keys takes 6 lines.
 *     The price: an insert or delete moves the values above it within the block (at most 63
 *     longs), and a leaf whose block is full moves to a block one line larger.</li>
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
public final class CBSTree extends GappedTree {
    /** Offsets in the 4-long leaf info record. */
    static final int K0 = 0;
    static final int BITMAP = 1;
    static final int LINKS = 2;
    static final int META = 3;
    static final int INFO = 4;

    private static final int LINE = LongBlockHeap.LINE;
    /** Entries a leaf can hold at most (64 lanes of 16 bits) plus a new one. */
    private static final int MAX_ENTRIES = MAX_LANES + 1;

    LongNodeArray leafKeys;
    LongNodeArray leafInfo;
    LongBlockHeap values;
    final NodeIds leafIds = new NodeIds();
    private int structureChanges;

    // Scratch for re-encoding and splitting, allocated once.
    private final long[] oldKeys = new long[MAX_ENTRIES];
    private final long[] oldVals = new long[MAX_ENTRIES];
    private final long[] newKeys = new long[MAX_ENTRIES];
    private final long[] newVals = new long[MAX_ENTRIES];
    private final int[] lanesOut = new int[MAX_LANES];
    private final long[] laneScratch = new long[MAX_LANES];
    private final int[] batchNodes = new int[BATCH];
    private static final int BATCH = 16;

    /** An empty tree. */
    public CBSTree() {
        super("CBS-tree");
        init();
    }

    private void init() {
        leafKeys = new LongNodeArray(Slots.N, 1);
        leafInfo = new LongNodeArray(INFO, 1);
        values = new LongBlockHeap();
        leafIds.reset();
        int root = allocLeaf();
        inner.reset(root);
        headLeaf = root;
        tailLeaf = root;
        size = 0;
        hasMax = false;
        maxValue = 0;
    }

    // ---- the info word and lanes ----------------------------------------------------------------

    static long meta(int ref, int lines, int width) {
        return (long) ref << 32 | (long) lines << 8 | width;
    }

    static int width(long meta) {
        return (int) meta & 0x7F;
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

    // ---- leaf accessors -------------------------------------------------------------------------

    long leafMeta(int leaf) {
        return leafInfo.chunk(leaf)[leafInfo.offset(leaf) + META];
    }

    long leafK0(int leaf) {
        return leafInfo.chunk(leaf)[leafInfo.offset(leaf) + K0];
    }

    /** The width of a leaf's key lanes: 16, 32 or 64. */
    int leafWidth(int leaf) {
        return width(leafMeta(leaf));
    }

    @Override
    long leafBitmap(int leaf) {
        return leafInfo.chunk(leaf)[leafInfo.offset(leaf) + BITMAP];
    }

    @Override
    int leafNext(int leaf) {
        return (int) (leafInfo.chunk(leaf)[leafInfo.offset(leaf) + LINKS] >>> 32);
    }

    @Override
    int leafPrev(int leaf) {
        return (int) leafInfo.chunk(leaf)[leafInfo.offset(leaf) + LINKS];
    }

    private void setLinks(int leaf, int next, int prev) {
        leafInfo.chunk(leaf)[leafInfo.offset(leaf) + LINKS] = (long) next << 32 | (prev & 0xFFFF_FFFFL);
    }

    @Override
    void setLeafNext(int leaf, int next) {
        setLinks(leaf, next, leafPrev(leaf));
    }

    @Override
    void setLeafPrev(int leaf, int prev) {
        setLinks(leaf, leafNext(leaf), prev);
    }

    @Override
    int leafSuccGE(int leaf, long key) {
        return leafSucc(leaf, key, false);
    }

    @Override
    int leafSuccGT(int leaf, long key) {
        return leafSucc(leaf, key, true);
    }

    /** {@code succ>} or {@code succ>=} on a leaf's lanes, for keys below k0 or past the width too. */
    private int leafSucc(int leaf, long key, boolean greater) {
        long[] ic = leafInfo.chunk(leaf);
        int io = leafInfo.offset(leaf);
        long k0 = ic[io + K0];
        int width = width(ic[io + META]);
        if (key < k0) {
            return 0;
        }
        long d = key - k0;
        if (Long.compareUnsigned(d, maxD(width)) >= 0) {
            return lanes(width); // beyond every used lane
        }
        long[] kc = leafKeys.chunk(leaf);
        int off = leafKeys.offset(leaf);
        return greater ? NodeSearch.succGTPacked(kc, off, width, d) : NodeSearch.succGEPacked(kc, off, width, d);
    }

    @Override
    long leafKey(int leaf, int slot) {
        long[] ic = leafInfo.chunk(leaf);
        int io = leafInfo.offset(leaf);
        return ic[io + K0] + PackedLanes.get(leafKeys.chunk(leaf), leafKeys.offset(leaf), width(ic[io + META]), slot);
    }

    @Override
    long leafValue(int leaf, int slot) {
        long[] ic = leafInfo.chunk(leaf);
        int io = leafInfo.offset(leaf);
        int ref = ref(ic[io + META]);
        return values.chunk(ref)[values.offset(ref) + Long.bitCount(ic[io + BITMAP] & below(slot))];
    }

    @Override
    void visitLeaf(int leaf, long bits, LongEntryVisitor visitor, int expectedModCount) {
        long[] ic = leafInfo.chunk(leaf);
        int io = leafInfo.offset(leaf);
        long k0 = ic[io + K0];
        long meta = ic[io + META];
        int width = width(meta);
        int ref = ref(meta);
        long[] kc = leafKeys.chunk(leaf);
        int off = leafKeys.offset(leaf);
        long[] vc = values.chunk(ref);
        // bits is a run of consecutive used slots, so their values are consecutive too.
        int v = values.offset(ref) + Long.bitCount(ic[io + BITMAP] & below(Long.numberOfTrailingZeros(bits)));
        for (; bits != 0; bits &= bits - 1) {
            int slot = Long.numberOfTrailingZeros(bits);
            visitor.visit(k0 + PackedLanes.get(kc, off, width, slot), vc[v++]);
            modified(expectedModCount, modCount);
        }
    }

    // ---- allocation ---------------------------------------------------------------------------

    /** A fresh leaf: 64-bit lanes all padding, no slot used, no value block, unlinked. */
    private int allocLeaf() {
        growLeaves(leafIds.needed());
        int leaf = leafIds.next();
        long[] kc = leafKeys.chunk(leaf);
        int off = leafKeys.offset(leaf);
        Arrays.fill(kc, off, off + Slots.N, -1L);
        long[] ic = leafInfo.chunk(leaf);
        int io = leafInfo.offset(leaf);
        ic[io + K0] = Long.MIN_VALUE;
        ic[io + BITMAP] = 0;
        ic[io + LINKS] = -1L; // next and prev NONE
        ic[io + META] = meta(0, 0, 64);
        return leaf;
    }

    private void freeLeaf(int leaf) {
        long[] ic = leafInfo.chunk(leaf);
        int io = leafInfo.offset(leaf);
        ic[io + BITMAP] = 0;
        ic[io + META] = meta(0, 0, 64);
        leafIds.release(leaf);
    }

    int[] freeLeafIds() {
        return leafIds.freeIds();
    }

    private void growLeaves(long leaves) {
        leafKeys.ensureCapacity(leaves);
        leafInfo.ensureCapacity(leaves);
    }

    /** Leaves in use. */
    @Override
    public long leafNodes() {
        return leafIds.inUse();
    }

    /** Leaves in use whose lanes are {@code width} bits wide (16, 32 or 64). */
    public long leavesOfWidth(int width) {
        long n = 0;
        for (int leaf = headLeaf; leaf != NONE; leaf = leafNext(leaf)) {
            n += leafWidth(leaf) == width ? 1 : 0;
        }
        return n;
    }

    @Override
    public boolean isCompressed() {
        return true;
    }

    // ---- search -------------------------------------------------------------------------------

    @Override
    public long get(long key, long absent) {
        if (key == MAXKEY) {
            return hasMax ? maxValue : absent;
        }
        return lookIn(inner.findLeaf(key), key, absent);
    }

    @Override
    public void getAll(long[] keys, long[] vals, long absent) {
        if (vals.length < keys.length) {
            throw new IllegalArgumentException("values has length " + vals.length + " but " + keys.length
                    + " keys are looked up: pass an output array at least as long as the keys");
        }
        int[] nodes = batchNodes;
        for (int base = 0; base < keys.length; base += BATCH) {
            int n = Math.min(BATCH, keys.length - base);
            inner.findLeaves(keys, base, n, nodes);
            for (int i = 0; i < n; i++) {
                long key = keys[base + i];
                vals[base + i] = key == MAXKEY ? (hasMax ? maxValue : absent) : lookIn(nodes[i], key, absent);
            }
        }
    }

    /**
     * The value of {@code key} in {@code leaf}, or {@code absent}. The value's line is known only
     * after the search (its rank needs the bitmap): one more dependent miss than the plain tree,
     * whose values sit at the slot's own offset (docs/BENCHMARKS.md measures it).
     */
    private long lookIn(int leaf, long key, long absent) {
        int slot = findSlot(leaf, key);
        if (slot < 0) {
            return absent;
        }
        long[] ic = leafInfo.chunk(leaf);
        int io = leafInfo.offset(leaf);
        int ref = ref(ic[io + META]);
        return values.chunk(ref)[values.offset(ref) + Long.bitCount(ic[io + BITMAP] & below(slot))];
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
        long[] ic = leafInfo.chunk(leaf);
        int io = leafInfo.offset(leaf);
        long k0 = ic[io + K0];
        int width = width(ic[io + META]);
        long d = key - k0;
        if (key < k0 || Long.compareUnsigned(d, maxD(width)) >= 0) {
            return -1;
        }
        return NodeSearch.succGTPacked(leafKeys.chunk(leaf), leafKeys.offset(leaf), width, d);
    }

    @Override
    public void clear() {
        init();
        modCount++;
        structureChanges++;
    }

    private int changes() {
        return structureChanges + inner.changes;
    }

    // ---- insert -------------------------------------------------------------------------------

    @Override
    public boolean put(long key, long value) {
        if (key == MAXKEY) {
            return putMax(value);
        }
        int changes = changes();
        while (true) {
            int leaf = inner.descend(key);
            int r = tryFastPut(leaf, key, value);
            if (r == 0) {
                return false; // replaced
            }
            if (r == 1 || reencodeOrSplit(leaf, key, value)) {
                size++;
                modCount++;
                if (VERIFY && changes != changes() && size <= VERIFY_LIMIT) {
                    checkInvariants();
                }
                return true;
            }
            // The leaf split; descend again for the half the key belongs to.
        }
    }

    /**
     * The common insert: returns 0 if the key was there (its value replaced), 1 if it went in,
     * 2 if the leaf must be re-encoded or split first (the key is then certainly absent).
     */
    private int tryFastPut(int leaf, long key, long value) {
        int q = succIn(leaf, key);
        if (q < 0) {
            return 2;
        }
        long[] ic = leafInfo.chunk(leaf);
        int io = leafInfo.offset(leaf);
        long meta = ic[io + META];
        int width = width(meta);
        long d = key - ic[io + K0];
        long[] kc = leafKeys.chunk(leaf);
        int off = leafKeys.offset(leaf);
        long bm = ic[io + BITMAP];
        if (q != 0 && PackedLanes.get(kc, off, width, q - 1) == d) {
            int ref = ref(meta);
            values.chunk(ref)[values.offset(ref) + Long.bitCount(bm & below(q - 1))] = value;
            return 0;
        }
        int count = Long.bitCount(bm);
        int lanes = lanes(width);
        if (count == lanes) {
            return 2;
        }
        if (count == lines(meta) * LINE) {
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
                at = q;
            } else {
                gap = highestBit(~bm & below(q));
                PackedLanes.shiftDown(kc, off, width, gap + 1, q - 1 - gap);
                at = q - 1;
            }
        }
        PackedLanes.set(kc, off, width, at, d);
        bm |= 1L << gap;
        ic[io + BITMAP] = bm;
        int ref = ref(meta);
        long[] vc = values.chunk(ref);
        int rank = values.offset(ref) + Long.bitCount(bm & below(at));
        int end = values.offset(ref) + count;
        System.arraycopy(vc, rank, vc, rank + 1, end - rank);
        vc[rank] = value;
        return 1;
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
        leafInfo.chunk(leaf)[leafInfo.offset(leaf) + META] = m;
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
            if (lines < linesFor(m)) {
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
            writeLeaf(leaf, newKeys, newVals, 0, m, width, ref, lines, k0);
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
        long[] ic = leafInfo.chunk(leaf);
        int io = leafInfo.offset(leaf);
        long k0 = ic[io + K0];
        long meta = ic[io + META];
        PackedLanes.unpack(leafKeys.chunk(leaf), leafKeys.offset(leaf), width(meta), laneScratch);
        int n = 0;
        for (long bits = ic[io + BITMAP]; bits != 0; bits &= bits - 1) {
            ks[n++] = k0 + laneScratch[Long.numberOfTrailingZeros(bits)];
        }
        if (n > 0) {
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
        int ll = linesFor(half) + 1;
        int lr = linesFor(count - half) + 1;
        inner.reserveForSplit();
        growLeaves(leafIds.needed());
        values.reserve(ll + lr, 1);
        int right = allocLeaf();
        int refL = values.alloc(ll);
        int refR = values.alloc(lr);
        if (lines(meta) > 0) {
            values.free(ref(meta), lines(meta));
        }
        writeLeaf(leaf, oldKeys, oldVals, 0, half, wl, refL, ll, oldKeys[0]);
        writeLeaf(right, oldKeys, oldVals, half, count - half, wr, refR, lr, oldKeys[half]);
        linkAfter(leaf, right);
        structureChanges++;
        inner.insertIntoParent(oldKeys[half], right);
    }

    /**
     * Writes {@code n} sorted entries into a leaf in lanes of {@code width} bits, spread evenly
     * (entry i at lane {@code i * lanes / n}), gaps holding the next difference, and their values
     * packed into block {@code ref} of {@code lines} lines. Keeps the chain links.
     */
    private void writeLeaf(int leaf, long[] ks, long[] vs, int from, int n, int width, int ref, int lines, long k0) {
        int lanes = lanes(width);
        for (int i = 0; i < n; i++) {
            lanesOut[i] = (int) ((long) i * lanes / n);
        }
        fillLeaf(leaf, ks, from, n, width, lanesOut, k0);
        System.arraycopy(vs, from, values.chunk(ref), values.offset(ref), n);
        leafInfo.chunk(leaf)[leafInfo.offset(leaf) + META] = meta(ref, lines, width);
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
        PackedLanes.pack(lanes, leafKeys.chunk(leaf), leafKeys.offset(leaf), width);
        long[] ic = leafInfo.chunk(leaf);
        int io = leafInfo.offset(leaf);
        ic[io + K0] = k0;
        ic[io + BITMAP] = bm;
    }

    // ---- delete -------------------------------------------------------------------------------

    @Override
    public boolean remove(long key) {
        if (key == MAXKEY) {
            return removeMax();
        }
        int leaf = inner.descend(key);
        int p = findSlot(leaf, key);
        if (p < 0) {
            return false;
        }
        reserveForRemoval();
        long[] ic = leafInfo.chunk(leaf);
        int io = leafInfo.offset(leaf);
        long meta = ic[io + META];
        int width = width(meta);
        long[] kc = leafKeys.chunk(leaf);
        int off = leafKeys.offset(leaf);
        long bm = ic[io + BITMAP];
        int count = Long.bitCount(bm);
        // Values above move down over the deleted one.
        int ref = ref(meta);
        long[] vc = values.chunk(ref);
        int rank = values.offset(ref) + Long.bitCount(bm & below(p));
        int end = values.offset(ref) + count;
        System.arraycopy(vc, rank + 1, vc, rank, end - rank - 1);
        vc[end - 1] = 0;
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
        return true;
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
                + leafKeys.bytes() + leafInfo.bytes() + values.bytes() + inner.bytes()
                + leafIds.bytes() + 4 * (16 + 8L * MAX_ENTRIES) + 16 + 4L * lanesOut.length + 16 + 8L * MAX_LANES
                + 16 + 4L * batchNodes.length;
    }

    @Override
    public void checkInvariants() {
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
    public static CBSTree bulkLoad(long[] keys, long[] vals, double leafFill) {
        CBSTree t = new CBSTree();
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
        return t;
    }

    private int loadLeaves(long[] keys, long[] vals, int n, double leafFill, int[] ids, long[] mins) {
        int leaves = 0;
        int prev = NONE;
        int i = 0;
        while (i < n) {
            int width = 0;
            int placed = 0;
            for (int w = 16; w <= 64; w <<= 1) {
                placed = place(keys, i, n, lanes(w), leafFill, lanesOut);
                if (w == 64 || Long.compareUnsigned(keys[i + placed - 1] - keys[i], maxD(w)) < 0) {
                    width = w;
                    break;
                }
            }
            int leaf = leaves == 0 ? inner.root : allocLeaf();
            fillLeaf(leaf, keys, i, placed, width, lanesOut, keys[i]);
            int lines = linesFor(placed);
            int ref = values.alloc(lines);
            long[] vc = values.chunk(ref);
            int vo = values.offset(ref);
            if (vals != null) {
                System.arraycopy(vals, i, vc, vo, placed);
            } else {
                Arrays.fill(vc, vo, vo + lines * LINE, 0);
            }
            leafInfo.chunk(leaf)[leafInfo.offset(leaf) + META] = meta(ref, lines, width);
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
