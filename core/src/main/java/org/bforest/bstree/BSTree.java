package org.bforest.bstree;

import java.util.ConcurrentModificationException;
import java.util.NoSuchElementException;
import org.bforest.LongCursor;
import org.bforest.LongEntryVisitor;
import org.bforest.LongIndex;
import org.bforest.kernel.NodeSearch;
import org.bforest.storage.FlatIntNodeArray;
import org.bforest.storage.FlatLongNodeArray;
import org.bforest.storage.IntNodeArray;
import org.bforest.storage.LongNodeArray;
import org.bforest.util.SortedInput;

/**
 * The BS-tree: a gapped, data-parallel B+-tree (Tsitsigkos, Lampropoulos, Bouros, Mamoulis and
 * Terrovitis, "BS-tree: A gapped data-parallel B-tree", shared/papers/bs-tree-gapped-data-parallel.md,
 * sections 3, 4 and 6), single-threaded, uncompressed.
 *
 * <h2>Layout</h2>
 * Every node has {@value #N} key slots. Nodes are not objects: they are int ids into flat,
 * chunked primitive arrays ({@link LongNodeArray}, {@link IntNodeArray}), one family for leaves and
 * one for inner nodes, and each concern in its own array so that a search touches only keys:
 * <ul>
 * <li>leaves: {@code leafKeys} and {@code leafVals} (16 longs a node, same offsets), and
 *     {@code leafInfo} (4 ints a node: {@link #META}, {@link #NEXT}, {@link #PREV}), the
 *     doubly linked leaf chain that range scans and cursors walk;</li>
 * <li>inner nodes: {@code innerKeys} (16 separators), {@code innerKids} (17 child ids: the
 *     leftmost child, then the right child of each slot) and {@code innerMeta}.</li>
 * </ul>
 * The metadata word of a node is {@code slotUse << 16 | bitmap}: bit {@code s} of the bitmap says
 * slot {@code s} is used, and {@code slotUse} is its population count, kept beside it as the paper
 * does and checked against it by {@link #checkInvariants()}.
 *
 * <h2>Gaps</h2>
 * An unused slot holds a copy of the next used key of its node, or {@link #MAXKEY} when no used
 * slot follows. The keys of a node are therefore always sorted (non-decreasing), and the branch-free
 * {@link NodeSearch#succGT} works on a node with gaps exactly as on a packed one: on an inner node
 * it is the child to follow ({@code succ>}); on a leaf {@code q = succGT(k)} says both whether
 * {@code k} is there ({@code keys[q-1] == k}: the last slot of a run of equal keys is the used one)
 * and where it would go ({@code succ>=}). In an inner node the right child of a gap slot is dead
 * ({@code -1}): the search never selects it. Inner nodes have gaps too: bulk load spreads them, a
 * deleted separator leaves one (section 4.1), and a split spreads the halves.
 *
 * <h2>The largest key</h2>
 * {@link #MAXKEY} ({@code Long.MAX_VALUE}) pads the nodes, so it cannot also be stored in them.
 * That one key, when present, lives out of band ({@link #hasMax}, {@link #maxValue}) and every
 * operation checks for it first, the way jctools' {@code NonBlockingHashMapLong} keeps its
 * {@code NO_KEY}. Every other {@code long} lives in the tree.
 *
 * <h2>Updates</h2>
 * Insert puts the key into a gap, or shifts towards the nearest gap on the right, else on the
 * left (Algorithm 6). A full leaf splits into two leaves of 9 and 8 keys, each spread evenly over
 * its 16 slots (proactive gapping: 7 and 8 gaps between the keys); a full inner node keeps 8 of
 * its 17 separators, sends the 9th up and moves 8 to a new node, spread the same way; a split of
 * the root grows a new root. Delete copies the next used key over the deleted slot and the gaps before it
 * (Algorithm 5); nodes are never merged (as the paper argues). A leaf that becomes empty is
 * unlinked and freed, and its separator in the parent is deleted the same way; an inner node left
 * without children goes too, and a root with one child is replaced by that child. Freed nodes are
 * reused.
 *
 * <p>Not thread-safe. Notation: {@code kc}/{@code vc}/{@code ic} are the chunk arrays of a node's
 * keys, values and ints, {@code off}/{@code io} its offsets in them, {@code bm} a bitmap, {@code q}
 * a {@code succGT} result, {@code r} a slot where a key belongs, {@code h} a level (leaves are
 * level 0, the root is level {@code height}).
 */
public final class BSTree implements LongIndex {
    /** Slots per node. */
    static final int N = NodeSearch.NODE_KEYS;
    /** Child ids per inner node: the leftmost child plus one per slot. */
    static final int KIDS = N + 1;
    /** Padding and gap value where no used key follows; stored out of band when it is a key. */
    static final long MAXKEY = Long.MAX_VALUE;
    /** A bitmap with every slot used. */
    static final int FULL = (1 << N) - 1;
    /** No node (end of the leaf chain, dead child slot). */
    static final int NONE = -1;

    /** Offsets in the 4-int leaf info record. */
    static final int META = 0;
    static final int NEXT = 1;
    static final int PREV = 2;
    static final int INFO = 4;

    /** Cursor positions that are not (leaf, slot) pairs. */
    static final long POS_NONE = -1;
    static final long POS_MAX = -2;

    /** The paper's default leaf fill at bulk load. */
    public static final double DEFAULT_LEAF_FILL = 0.75;

    /**
     * With {@code -Dbforest.verify=true} (the tests set it) every structural change (split, root
     * growth, leaf removal) of a tree of at most {@link #VERIFY_LIMIT} keys runs the full
     * {@link #checkInvariants()}. A {@code static final} flag: free when off.
     */
    static final boolean VERIFY = Boolean.getBoolean("bforest.verify");
    static final long VERIFY_LIMIT = 5_000;

    private static final int MAX_HEIGHT = 40;

    LongNodeArray leafKeys;
    LongNodeArray leafVals;
    IntNodeArray leafInfo;
    FlatLongNodeArray innerKeys;
    FlatIntNodeArray innerKids;
    FlatIntNodeArray innerMeta;

    int root;
    /** Inner levels above the leaves; 0 when the root is a leaf. */
    int height;
    int headLeaf;
    int tailLeaf;
    /** High-water marks of allocated node ids. */
    int leafCount;
    int innerCount;
    private int[] freeLeaves = new int[8];
    private int freeLeafTop;
    private int[] freeInner = new int[8];
    private int freeInnerTop;

    long size;
    /** Bumped when a key is added or removed; cursors compare it to detect staleness. */
    int modCount;
    /** Bumped by every split, root change and node removal (drives {@link #VERIFY}). */
    private int structureChanges;

    boolean hasMax;
    long maxValue;

    // Scratch space for updates, allocated once: the descent path and the 17 entries of a split.
    private final int[] pathNode = new int[MAX_HEIGHT + 1];
    private final int[] pathPos = new int[MAX_HEIGHT + 1];
    private final long[] splitKeys = new long[N + 1];
    private final long[] splitVals = new long[N + 1];
    private final int[] splitKids = new int[N + 1];
    private final int[] batchNodes = new int[BATCH];

    /** An empty tree. */
    public BSTree() {
        init(1, 1);
    }

    private void init(int leaves, int inner) {
        leafKeys = new LongNodeArray(N, leaves);
        leafVals = new LongNodeArray(N, leaves);
        leafInfo = new IntNodeArray(INFO, leaves);
        innerKeys = new FlatLongNodeArray(N, inner);
        innerKids = new FlatIntNodeArray(KIDS, inner);
        innerMeta = new FlatIntNodeArray(1, inner);
        leafCount = 0;
        innerCount = 0;
        freeLeafTop = 0;
        freeInnerTop = 0;
        root = allocLeaf();
        headLeaf = root;
        tailLeaf = root;
        height = 0;
        size = 0;
        hasMax = false;
        maxValue = 0;
    }

    // ---- metadata words -----------------------------------------------------------------------

    static int meta(int bitmap) {
        return Integer.bitCount(bitmap) << 16 | bitmap;
    }

    static int bitmap(int meta) {
        return meta & FULL;
    }

    static int slotUse(int meta) {
        return meta >>> 16;
    }

    /** Used slots at or above {@code s} (0 <= s <= 16). */
    private static int bitsFrom(int bm, int s) {
        return bm & (FULL << s) & FULL;
    }

    /** Used slots below {@code s} (0 <= s <= 16). */
    private static int bitsBelow(int bm, int s) {
        return bm & ((1 << s) - 1);
    }

    private static int highestBit(int bits) {
        return 31 - Integer.numberOfLeadingZeros(bits);
    }

    int leafBitmap(int leaf) {
        return leafInfo.chunk(leaf)[leafInfo.offset(leaf) + META] & FULL;
    }

    int leafNext(int leaf) {
        return leafInfo.chunk(leaf)[leafInfo.offset(leaf) + NEXT];
    }

    int leafPrev(int leaf) {
        return leafInfo.chunk(leaf)[leafInfo.offset(leaf) + PREV];
    }

    private void setLeafNext(int leaf, int next) {
        leafInfo.chunk(leaf)[leafInfo.offset(leaf) + NEXT] = next;
    }

    private void setLeafPrev(int leaf, int prev) {
        leafInfo.chunk(leaf)[leafInfo.offset(leaf) + PREV] = prev;
    }

    int innerBitmap(int node) {
        return innerMeta.chunk(node)[innerMeta.offset(node)] & FULL;
    }

    int child(int node, int index) {
        return innerKids.chunk(node)[innerKids.offset(node) + index];
    }

    // ---- allocation ---------------------------------------------------------------------------

    /**
     * A fresh leaf: keys all {@link #MAXKEY}, no slot used, unlinked. May grow the storage, so a
     * caller must fetch chunk arrays again afterwards.
     */
    private int allocLeaf() {
        int leaf;
        if (freeLeafTop > 0) {
            leaf = freeLeaves[--freeLeafTop];
        } else {
            leaf = leafCount;
            growLeaves(leafCount + 1L);
            leafCount++;
        }
        long[] kc = leafKeys.chunk(leaf);
        long[] vc = leafVals.chunk(leaf);
        int off = leafKeys.offset(leaf);
        for (int s = 0; s < N; s++) {
            kc[off + s] = MAXKEY;
            vc[off + s] = 0;
        }
        int[] ic = leafInfo.chunk(leaf);
        int io = leafInfo.offset(leaf);
        ic[io + META] = 0;
        ic[io + NEXT] = NONE;
        ic[io + PREV] = NONE;
        return leaf;
    }

    /** A fresh inner node: keys all {@link #MAXKEY}, every child dead. Same caveat as allocLeaf. */
    private int allocInner() {
        int node;
        if (freeInnerTop > 0) {
            node = freeInner[--freeInnerTop];
        } else {
            node = innerCount;
            growInner(innerCount + 1L);
            innerCount++;
        }
        long[] kc = innerKeys.chunk(node);
        int off = innerKeys.offset(node);
        int[] cc = innerKids.chunk(node);
        int co = innerKids.offset(node);
        for (int s = 0; s < N; s++) {
            kc[off + s] = MAXKEY;
        }
        for (int s = 0; s < KIDS; s++) {
            cc[co + s] = NONE;
        }
        innerMeta.chunk(node)[innerMeta.offset(node)] = 0;
        return node;
    }

    /** Returns a leaf to the free list; {@link #reserveForRemoval} made room for it. */
    private void freeLeaf(int leaf) {
        leafInfo.chunk(leaf)[leafInfo.offset(leaf) + META] = 0;
        freeLeaves[freeLeafTop++] = leaf;
    }

    /** Returns an inner node to the free list; {@link #reserveForRemoval} made room for it. */
    private void freeInnerNode(int node) {
        innerMeta.chunk(node)[innerMeta.offset(node)] = 0;
        freeInner[freeInnerTop++] = node;
    }

    /** Free node ids, for the invariant checker. */
    int[] freeLeafIds() {
        return java.util.Arrays.copyOf(freeLeaves, freeLeafTop);
    }

    int[] freeInnerIds() {
        return java.util.Arrays.copyOf(freeInner, freeInnerTop);
    }

    // ---- search -------------------------------------------------------------------------------

    /** The leaf whose key range holds {@code key} (Algorithm 3, lines 1-2); {@code key < MAXKEY}. */
    int findLeaf(long key) {
        int z = touch;
        int node = root;
        for (int h = height; h > 0; h--) {
            int[] kids = innerKids.chunk(node);
            int ko = innerKids.offset(node);
            // Start loading both cache lines of the child ids now, in parallel with the keys,
            // instead of after the search picks one (see TOUCH).
            int t = (kids[ko] | kids[ko + N]) & z;
            int c = NodeSearch.succGT(innerKeys.chunk(node), innerKeys.offset(node), key);
            node = kids[ko + c + t];
        }
        return node;
    }

    /**
     * Always 0, but not {@code final}, so the JIT cannot fold {@code x & touch} away: a load
     * whose result is and-ed with it stays in the code and, having an address that does not
     * depend on the node search, is issued at once. That is how Java gets the effect of the
     * paper's {@code __builtin_prefetch}: the line holding the child id (or the value) is already
     * on its way when the search result arrives, and the two misses overlap instead of adding up.
     */
    @SuppressWarnings("FieldMayBeFinal")
    private static int touch = 0;

    @Override
    public long get(long key, long absent) {
        if (key == MAXKEY) {
            return hasMax ? maxValue : absent;
        }
        int leaf = findLeaf(key);
        long[] kc = leafKeys.chunk(leaf);
        long[] vc = leafVals.chunk(leaf);
        int off = leafKeys.offset(leaf);
        int t = (int) ((vc[off] | vc[off + N / 2] | vc[off + N - 1]) & touch); // see TOUCH
        int q = NodeSearch.succGT(kc, off, key);
        if (q != 0 && kc[off + q - 1] == key) {
            return vc[off + q - 1 + t];
        }
        return absent;
    }

    /** Descents run in lock-step by {@link #getAll}: enough to overlap the misses, few enough to stay in registers. */
    private static final int BATCH = 16;

    /**
     * Batched look-up: descends {@value #BATCH} keys at a time level by level, so the CPU has up
     * to 16 independent cache misses in flight instead of one dependent chain (the design brief
     * measured 2.7x on a memory-bound tree). Allocates nothing.
     */
    @Override
    public void getAll(long[] keys, long[] values, long absent) {
        if (values.length < keys.length) {
            throw new IllegalArgumentException("values has length " + values.length + " but " + keys.length
                    + " keys are looked up: pass an output array at least as long as the keys");
        }
        int[] nodes = batchNodes;
        for (int base = 0; base < keys.length; base += BATCH) {
            int n = Math.min(BATCH, keys.length - base);
            for (int i = 0; i < n; i++) {
                nodes[i] = root;
            }
            for (int h = height; h > 0; h--) {
                for (int i = 0; i < n; i++) {
                    int node = nodes[i];
                    // MAXKEY is answered out of band below; descend for MAXKEY - 1 so its path stays valid.
                    long key = Math.min(keys[base + i], MAXKEY - 1);
                    int c = NodeSearch.succGT(innerKeys.chunk(node), innerKeys.offset(node), key);
                    nodes[i] = innerKids.chunk(node)[innerKids.offset(node) + c];
                }
            }
            for (int i = 0; i < n; i++) {
                long key = keys[base + i];
                long v = absent;
                if (key == MAXKEY) {
                    v = hasMax ? maxValue : absent;
                } else {
                    int leaf = nodes[i];
                    long[] kc = leafKeys.chunk(leaf);
                    int off = leafKeys.offset(leaf);
                    int q = NodeSearch.succGT(kc, off, key);
                    if (q != 0 && kc[off + q - 1] == key) {
                        v = leafVals.chunk(leaf)[off + q - 1];
                    }
                }
                values[base + i] = v;
            }
        }
    }

    @Override
    public boolean containsKey(long key) {
        if (key == MAXKEY) {
            return hasMax;
        }
        int leaf = findLeaf(key);
        long[] kc = leafKeys.chunk(leaf);
        int off = leafKeys.offset(leaf);
        int q = NodeSearch.succGT(kc, off, key);
        return q != 0 && kc[off + q - 1] == key;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public void clear() {
        init(1, 1);
        modCount++;
        structureChanges++;
    }

    /** Inner levels above the leaves (0 when the whole tree is one leaf). */
    public int height() {
        return height;
    }

    /** Leaves in use. */
    public long leafNodes() {
        return (long) leafCount - freeLeafTop;
    }

    /** Inner nodes in use. */
    public long innerNodes() {
        return (long) innerCount - freeInnerTop;
    }

    // ---- insert -------------------------------------------------------------------------------

    @Override
    public boolean put(long key, long value) {
        if (key == MAXKEY) {
            boolean fresh = !hasMax;
            hasMax = true;
            maxValue = value;
            if (fresh) {
                size++;
                modCount++;
            }
            return fresh;
        }
        int node = descend(key);
        long[] kc = leafKeys.chunk(node);
        int off = leafKeys.offset(node);
        int q = NodeSearch.succGT(kc, off, key) + touchLeaf(node, off);
        if (q != 0 && kc[off + q - 1] == key) {
            leafVals.chunk(node)[off + q - 1] = value;
            return false;
        }
        int changes = structureChanges;
        insertIntoLeaf(node, q, key, value);
        size++;
        modCount++;
        if (VERIFY && changes != structureChanges && size <= VERIFY_LIMIT) {
            checkInvariants();
        }
        return true;
    }

    /**
     * {@link #findLeaf} for an update: records the node and child index of every level in
     * {@link #pathNode}/{@link #pathPos}, which splits and leaf removals walk back up.
     */
    private int descend(long key) {
        int z = touch;
        int node = root;
        for (int h = height; h > 0; h--) {
            int[] kids = innerKids.chunk(node);
            int ko = innerKids.offset(node);
            int t = (kids[ko] | kids[ko + N]) & z; // see touch
            int c = NodeSearch.succGT(innerKeys.chunk(node), innerKeys.offset(node), key);
            pathNode[h] = node;
            pathPos[h] = c;
            node = kids[ko + c + t];
        }
        return node;
    }

    /**
     * Returns 0, having started the loads of the value lines and the metadata of a leaf, so an
     * update waits for one memory miss where it would otherwise wait for three in a row: keys,
     * then metadata, then values (see {@link #touch}).
     */
    private int touchLeaf(int leaf, int off) {
        long[] vc = leafVals.chunk(leaf);
        int[] ic = leafInfo.chunk(leaf);
        return (int) ((vc[off] | vc[off + N / 2] | vc[off + N - 1]) & touch) | (ic[leafInfo.offset(leaf)] & touch);
    }

    /** Inserts an absent key at slot {@code r} = succ>=(key) of {@code leaf} (Algorithm 6). */
    private void insertIntoLeaf(int leaf, int r, long key, long value) {
        int[] ic = leafInfo.chunk(leaf);
        int io = leafInfo.offset(leaf);
        int bm = ic[io + META] & FULL;
        if (bm == FULL) {
            reserveForSplit();
            splitLeaf(leaf, r, key, value);
            return;
        }
        long[] kc = leafKeys.chunk(leaf);
        long[] vc = leafVals.chunk(leaf);
        int off = leafKeys.offset(leaf);
        int opened = openSlot(kc, off, vc, off, bm, r);
        int at = opened & 0xFF;
        kc[off + at] = key;
        vc[off + at] = value;
        ic[io + META] = meta(bm | 1 << (opened >>> 8));
    }

    /**
     * Makes room in a non-full node for a key that belongs at slot {@code r} (all used keys below
     * {@code r} are smaller, all at or above are larger): {@code r} itself if it is a gap; else
     * the used run {@code [r, j)} moves right into the nearest gap {@code j > r}; else the run
     * {@code (j, r)} moves left into the nearest gap {@code j < r} and the key goes to
     * {@code r - 1}. The payload (a leaf's {@code long} values or an inner node's {@code int}
     * children, slot 0 at {@code po}) moves with the keys. No gap before the slot written needs
     * updating: the slot before it is always used.
     *
     * @return the slot to write, plus the gap that was filled shifted left by 8
     */
    private static int openSlot(long[] kc, int off, Object payload, int po, int bm, int r) {
        if (r < N && (bm & (1 << r)) == 0) {
            return r << 8 | r;
        }
        int right = ~bm & (FULL << (r + 1)) & FULL;
        if (right != 0) {
            int j = Integer.numberOfTrailingZeros(right);
            System.arraycopy(kc, off + r, kc, off + r + 1, j - r);
            System.arraycopy(payload, po + r, payload, po + r + 1, j - r);
            return j << 8 | r;
        }
        int j = highestBit(~bm & ((1 << r) - 1));
        System.arraycopy(kc, off + j + 1, kc, off + j, r - 1 - j);
        System.arraycopy(payload, po + j + 1, payload, po + j, r - 1 - j);
        return j << 8 | (r - 1);
    }

    /**
     * Makes sure a split can finish once it starts: room for one leaf and for one inner node per
     * level plus a new root, taken before anything is changed. If memory runs out, it runs out
     * here and the tree is left as it was; no call leaves a half-done split behind.
     */
    private void reserveForSplit() {
        if (height >= MAX_HEIGHT) {
            throw new IllegalStateException("BS-tree height limit " + MAX_HEIGHT + " reached");
        }
        if (freeLeafTop == 0) {
            growLeaves(leafCount + 1L);
        }
        int innerNeeded = height + 1 - freeInnerTop;
        if (innerNeeded > 0) {
            growInner((long) innerCount + innerNeeded);
        }
    }

    /** Room for leaf ids {@code [0, leaves)} in every leaf array. */
    private void growLeaves(long leaves) {
        leafKeys.ensureCapacity(leaves);
        leafVals.ensureCapacity(leaves);
        leafInfo.ensureCapacity(leaves);
    }

    /** Room for inner ids {@code [0, nodes)} in every inner array. */
    private void growInner(long nodes) {
        innerKeys.ensureCapacity(nodes);
        innerKids.ensureCapacity(nodes);
        innerMeta.ensureCapacity(nodes);
    }

    /**
     * Splits a full leaf around a new key: the 17 entries go 9 to the left leaf and 8 to a new
     * right leaf, each spread evenly over the 16 slots; the right leaf's first key becomes the
     * separator in the parent.
     */
    private void splitLeaf(int leaf, int r, long key, long value) {
        long[] kc = leafKeys.chunk(leaf);
        long[] vc = leafVals.chunk(leaf);
        int off = leafKeys.offset(leaf);
        long[] sk = splitKeys;
        long[] sv = splitVals;
        // A full leaf has no gaps: slot s is entry s; the new key goes before slot r.
        System.arraycopy(kc, off, sk, 0, r);
        System.arraycopy(vc, off, sv, 0, r);
        sk[r] = key;
        sv[r] = value;
        System.arraycopy(kc, off + r, sk, r + 1, N - r);
        System.arraycopy(vc, off + r, sv, r + 1, N - r);

        int right = allocLeaf(); // may move chunk 0: nothing fetched above is used below
        int left = (N + 2) / 2;
        spreadLeaf(leaf, sk, sv, 0, left);
        spreadLeaf(right, sk, sv, left, N + 1 - left);

        int next = leafNext(leaf);
        setLeafNext(right, next);
        setLeafPrev(right, leaf);
        setLeafNext(leaf, right);
        if (next != NONE) {
            setLeafPrev(next, right);
        } else {
            tailLeaf = right;
        }
        structureChanges++;
        insertIntoParent(1, sk[left], right);
    }

    /**
     * Writes {@code n} sorted entries into a leaf, spread evenly over the 16 slots (entry i at slot
     * {@code i*16/n}), and fills the gaps with the next key.
     */
    private void spreadLeaf(int leaf, long[] ks, long[] vs, int from, int n) {
        long[] kc = leafKeys.chunk(leaf);
        long[] vc = leafVals.chunk(leaf);
        int off = leafKeys.offset(leaf);
        int bm = 0;
        long next = MAXKEY;
        int s = N - 1;
        for (int i = n - 1; i >= 0; i--) {
            int at = i * N / n;
            for (; s > at; s--) {
                kc[off + s] = next;
                vc[off + s] = 0;
            }
            next = ks[from + i];
            kc[off + at] = next;
            vc[off + at] = vs[from + i];
            bm |= 1 << at;
            s = at - 1;
        }
        leafInfo.chunk(leaf)[leafInfo.offset(leaf) + META] = meta(bm);
    }

    /** Same as {@link #spreadLeaf} for an inner node; dead children are {@link #NONE}. */
    private void spreadInner(int node, int leftmost, long[] ks, int[] kids, int from, int n) {
        long[] kc = innerKeys.chunk(node);
        int off = innerKeys.offset(node);
        int[] cc = innerKids.chunk(node);
        int co = innerKids.offset(node);
        cc[co] = leftmost;
        int bm = 0;
        long next = MAXKEY;
        int s = N - 1;
        for (int i = n - 1; i >= 0; i--) {
            int at = i * N / n;
            for (; s > at; s--) {
                kc[off + s] = next;
                cc[co + 1 + s] = NONE;
            }
            next = ks[from + i];
            kc[off + at] = next;
            cc[co + 1 + at] = kids[from + i];
            bm |= 1 << at;
            s = at - 1;
        }
        for (; s >= 0; s--) {
            kc[off + s] = next;
            cc[co + 1 + s] = NONE;
        }
        innerMeta.chunk(node)[innerMeta.offset(node)] = meta(bm);
    }

    /**
     * Adds separator {@code sep} with right child {@code kid} to the inner node at level {@code h}
     * of the current path, right after the child the path went through; grows the root when
     * {@code h} is above it.
     */
    private void insertIntoParent(int h, long sep, int kid) {
        if (h > height) {
            if (height == MAX_HEIGHT) {
                throw new IllegalStateException("BS-tree height limit " + MAX_HEIGHT + " reached");
            }
            int oldRoot = root;
            int newRoot = allocInner();
            splitKeys[0] = sep;
            splitKids[0] = kid;
            spreadInner(newRoot, oldRoot, splitKeys, splitKids, 0, 1);
            root = newRoot;
            height++;
            structureChanges++;
            return;
        }
        int node = pathNode[h];
        // The path went through child c, the right child of slot c-1; sep lies strictly between
        // that slot's key and the next used key, so it belongs at slot r = c.
        int r = pathPos[h];
        int[] mc = innerMeta.chunk(node);
        int mo = innerMeta.offset(node);
        int bm = mc[mo] & FULL;
        if (bm == FULL) {
            splitInner(node, h, r, sep, kid);
            return;
        }
        long[] kc = innerKeys.chunk(node);
        int off = innerKeys.offset(node);
        int[] cc = innerKids.chunk(node);
        int co = innerKids.offset(node);
        int opened = openSlot(kc, off, cc, co + 1, bm, r);
        int at = opened & 0xFF;
        kc[off + at] = sep;
        cc[co + 1 + at] = kid;
        mc[mo] = meta(bm | 1 << (opened >>> 8));
    }

    /**
     * Splits a full inner node around a new (separator, child): of the 17 pairs, 8 stay, the 9th's
     * key moves up and its child becomes the new node's leftmost, and 8 go to the new node.
     */
    private void splitInner(int node, int h, int r, long sep, int kid) {
        long[] kc = innerKeys.chunk(node);
        int off = innerKeys.offset(node);
        int[] cc = innerKids.chunk(node);
        int co = innerKids.offset(node);
        long[] sk = splitKeys;
        int[] sc = splitKids;
        int leftmost = cc[co];
        System.arraycopy(kc, off, sk, 0, r);
        System.arraycopy(cc, co + 1, sc, 0, r);
        sk[r] = sep;
        sc[r] = kid;
        System.arraycopy(kc, off + r, sk, r + 1, N - r);
        System.arraycopy(cc, co + 1 + r, sc, r + 1, N - r);

        int right = allocInner(); // may move chunk 0
        int keep = N / 2;
        spreadInner(node, leftmost, sk, sc, 0, keep);
        spreadInner(right, sc[keep], sk, sc, keep + 1, N - keep);
        structureChanges++;
        insertIntoParent(h + 1, sk[keep], right);
    }

    // ---- delete -------------------------------------------------------------------------------

    @Override
    public boolean remove(long key) {
        if (key == MAXKEY) {
            if (!hasMax) {
                return false;
            }
            hasMax = false;
            maxValue = 0;
            size--;
            modCount++;
            return true;
        }
        int node = descend(key);
        long[] kc = leafKeys.chunk(node);
        int off = leafKeys.offset(node);
        int q = NodeSearch.succGT(kc, off, key) + touchLeaf(node, off);
        if (q == 0 || kc[off + q - 1] != key) {
            return false;
        }
        reserveForRemoval();
        int[] ic = leafInfo.chunk(node);
        int io = leafInfo.offset(node);
        int bm = clearSlot(kc, off, ic[io + META] & FULL, q - 1);
        leafVals.chunk(node)[off + q - 1] = 0;
        ic[io + META] = meta(bm);
        size--;
        modCount++;
        if (bm == 0 && height > 0) {
            removeLeaf(node);
            if (VERIFY && size <= VERIFY_LIMIT) {
                checkInvariants();
            }
        }
        return true;
    }

    /**
     * Room on the free lists for everything a delete can free (one leaf, one inner node per level),
     * taken before the delete changes anything, so that it cannot fail half-way.
     */
    private void reserveForRemoval() {
        if (freeLeafTop == freeLeaves.length) {
            freeLeaves = java.util.Arrays.copyOf(freeLeaves, freeLeafTop * 2);
        }
        if (freeInnerTop + height + 1 > freeInner.length) {
            freeInner = java.util.Arrays.copyOf(freeInner, Math.max(2 * freeInner.length, freeInnerTop + height + 1));
        }
    }

    /**
     * Algorithm 5: frees used slot {@code p}; it and the run of gaps before it (which all held its
     * key) now hold the next used key, or {@link #MAXKEY} if none follows. Returns the new bitmap.
     */
    private static int clearSlot(long[] kc, int off, int bm, int p) {
        bm &= ~(1 << p);
        int above = bitsFrom(bm, p + 1);
        long fill = above != 0 ? kc[off + Integer.numberOfTrailingZeros(above)] : MAXKEY;
        int below = bitsBelow(bm, p);
        int start = below == 0 ? 0 : highestBit(below) + 1;
        for (int s = start; s <= p; s++) {
            kc[off + s] = fill;
        }
        return bm;
    }

    /** Unlinks and frees an empty leaf, then deletes its separator from the parent (section 4.1). */
    private void removeLeaf(int leaf) {
        int prev = leafPrev(leaf);
        int next = leafNext(leaf);
        if (prev != NONE) {
            setLeafNext(prev, next);
        } else {
            headLeaf = next;
        }
        if (next != NONE) {
            setLeafPrev(next, prev);
        } else {
            tailLeaf = prev;
        }
        freeLeaf(leaf);
        structureChanges++;
        removeChild(1);
    }

    /**
     * Removes the child the path went through at level {@code h}: the separator that leads to it is
     * deleted like a leaf key (the child to its left takes over its range); the leftmost child is
     * replaced by the first used slot's child; a node left with no child goes too. A root left with
     * one child is replaced by it.
     */
    private void removeChild(int h) {
        int node = pathNode[h];
        int c = pathPos[h];
        int[] mc = innerMeta.chunk(node);
        int mo = innerMeta.offset(node);
        int bm = mc[mo] & FULL;
        if (bm == 0) {
            // Only the leftmost child was left, and it is gone.
            if (h == height) {
                throw new IllegalStateException("BS-tree root lost its last child");
            }
            freeInnerNode(node);
            removeChild(h + 1);
            return;
        }
        long[] kc = innerKeys.chunk(node);
        int off = innerKeys.offset(node);
        int[] cc = innerKids.chunk(node);
        int co = innerKids.offset(node);
        int slot;
        if (c == 0) {
            slot = Integer.numberOfTrailingZeros(bm);
            cc[co] = cc[co + 1 + slot];
        } else {
            slot = c - 1;
        }
        bm = clearSlot(kc, off, bm, slot);
        cc[co + 1 + slot] = NONE;
        mc[mo] = meta(bm);
        while (height > 0 && innerBitmap(root) == 0) {
            int only = child(root, 0);
            freeInnerNode(root);
            root = only;
            height--;
        }
    }

    // ---- positions: (leaf, slot) packed in a long ---------------------------------------------

    static long pos(int leaf, int slot) {
        return (long) leaf << 4 | slot;
    }

    static int posLeaf(long pos) {
        return (int) (pos >>> 4);
    }

    static int posSlot(long pos) {
        return (int) pos & (N - 1);
    }

    long keyAt(long pos) {
        if (pos == POS_MAX) {
            return MAXKEY;
        }
        int leaf = posLeaf(pos);
        return leafKeys.chunk(leaf)[leafKeys.offset(leaf) + posSlot(pos)];
    }

    long valueAt(long pos) {
        if (pos == POS_MAX) {
            return maxValue;
        }
        int leaf = posLeaf(pos);
        return leafVals.chunk(leaf)[leafVals.offset(leaf) + posSlot(pos)];
    }

    /** The first used slot at or after slot {@code s} of {@code leaf}, else further right. */
    long firstFrom(int leaf, int s) {
        int bits = bitsFrom(leafBitmap(leaf), s);
        while (bits == 0) {
            leaf = leafNext(leaf);
            if (leaf == NONE) {
                return hasMax ? POS_MAX : POS_NONE;
            }
            bits = leafBitmap(leaf);
        }
        return pos(leaf, Integer.numberOfTrailingZeros(bits));
    }

    /** The last used slot below slot {@code s} of {@code leaf}, else further left. */
    long lastBelow(int leaf, int s) {
        int bits = bitsBelow(leafBitmap(leaf), s);
        while (bits == 0) {
            leaf = leafPrev(leaf);
            if (leaf == NONE) {
                return POS_NONE;
            }
            bits = leafBitmap(leaf);
        }
        return pos(leaf, highestBit(bits));
    }

    long ceilingPos(long key) {
        if (key == MAXKEY) {
            return hasMax ? POS_MAX : POS_NONE;
        }
        int leaf = findLeaf(key);
        // The least key >= key is in this leaf at or after slot succ>=(key), or further right:
        // every key of later leaves is >= this leaf's upper separator > key.
        return firstFrom(leaf, NodeSearch.succGE(leafKeys.chunk(leaf), leafKeys.offset(leaf), key));
    }

    long floorPos(long key) {
        if (key == MAXKEY) {
            return hasMax ? POS_MAX : lastBelow(tailLeaf, N);
        }
        int leaf = findLeaf(key);
        return lastBelow(leaf, NodeSearch.succGT(leafKeys.chunk(leaf), leafKeys.offset(leaf), key));
    }

    long higherPos(long key) {
        return key == MAXKEY ? POS_NONE : ceilingPos(key + 1);
    }

    long lowerPos(long key) {
        return key == Long.MIN_VALUE ? POS_NONE : floorPos(key - 1);
    }

    long firstPos() {
        return firstFrom(headLeaf, 0);
    }

    long lastPos() {
        return hasMax ? POS_MAX : lastBelow(tailLeaf, N);
    }

    /** The position after {@code pos} in key order. */
    long nextPos(long pos) {
        if (pos == POS_MAX) {
            return POS_NONE;
        }
        return firstFrom(posLeaf(pos), posSlot(pos) + 1);
    }

    /** The position before {@code pos} in key order. */
    long prevPos(long pos) {
        if (pos == POS_MAX) {
            return lastBelow(tailLeaf, N);
        }
        return lastBelow(posLeaf(pos), posSlot(pos));
    }

    private long keyOr(long pos, long absent) {
        return pos == POS_NONE ? absent : keyAt(pos);
    }

    @Override
    public long ceilingKey(long key, long absent) {
        return keyOr(ceilingPos(key), absent);
    }

    @Override
    public long floorKey(long key, long absent) {
        return keyOr(floorPos(key), absent);
    }

    @Override
    public long higherKey(long key, long absent) {
        return keyOr(higherPos(key), absent);
    }

    @Override
    public long lowerKey(long key, long absent) {
        return keyOr(lowerPos(key), absent);
    }

    @Override
    public long firstKey() {
        long p = firstPos();
        if (p == POS_NONE) {
            throw new NoSuchElementException("the index is empty");
        }
        return keyAt(p);
    }

    @Override
    public long lastKey() {
        long p = lastPos();
        if (p == POS_NONE) {
            throw new NoSuchElementException("the index is empty");
        }
        return keyAt(p);
    }

    @Override
    public LongCursor cursor() {
        return new Cursor();
    }

    // ---- ranges -------------------------------------------------------------------------------

    @Override
    public long rangeCount(long from, long to) {
        return rangeCount(from, to, height + 1);
    }

    @Override
    public long rangeVisit(long from, long to, LongEntryVisitor visitor) {
        return rangeVisit(from, to, visitor, height + 1);
    }

    /**
     * Counts keys in {@code [from, to)} with both strategies of section 3.3, chosen as the scan
     * goes. It descends for {@code from} and scans leaves comparing their keys with {@code to}
     * (Algorithm 4); a range that has not ended after {@code scanLeaves + 1} leaves is long, so it then
     * descends for {@code to} as well, and counts the leaves in between from their slot-use words
     * alone, without reading their keys. {@code scanLeaves} = 0 is the pure two-descent strategy,
     * {@code Integer.MAX_VALUE} the pure scan (both exposed for tests).
     */
    long rangeCount(long from, long to, int scanLeaves) {
        if (from >= to) {
            return 0;
        }
        int leaf = findLeaf(from);
        int s = NodeSearch.succGE(leafKeys.chunk(leaf), leafKeys.offset(leaf), from);
        long n = 0;
        for (int scanned = 0; ; scanned++) {
            int bm = leafBitmap(leaf);
            int e = NodeSearch.succGE(leafKeys.chunk(leaf), leafKeys.offset(leaf), to);
            n += Integer.bitCount(bitsFrom(bm, s) & bitsBelow(bm, e));
            if (bitsFrom(bm, e) != 0) {
                return n; // a used key >= to: the range ends in this leaf
            }
            if (scanned >= scanLeaves) {
                return n + countAfter(leaf, to);
            }
            leaf = leafNext(leaf);
            if (leaf == NONE) {
                return n;
            }
            s = 0;
        }
    }

    /**
     * Keys {@code < to} in the leaves after {@code leaf}, by a second descent (strategy 2): the
     * leaves strictly between contribute their slot use, read from the metadata alone.
     */
    private long countAfter(int leaf, long to) {
        int endLeaf = endLeaf(to);
        if (endLeaf == leaf) {
            return 0;
        }
        int endSlot = endSlot(endLeaf, to);
        long n = 0;
        for (leaf = leafNext(leaf); leaf != endLeaf; leaf = leafNext(leaf)) {
            n += slotUse(leafInfo.chunk(leaf)[leafInfo.offset(leaf) + META]);
        }
        return n + Integer.bitCount(bitsBelow(leafBitmap(endLeaf), endSlot));
    }

    /** The leaf that holds the first position {@code >= to} (the tail when {@code to} is MAXKEY). */
    private int endLeaf(long to) {
        return to == MAXKEY ? tailLeaf : findLeaf(to);
    }

    /** The slot in {@link #endLeaf(long)} below which the keys are {@code < to}. */
    private int endSlot(int endLeaf, long to) {
        return to == MAXKEY ? N : NodeSearch.succGE(leafKeys.chunk(endLeaf), leafKeys.offset(endLeaf), to);
    }

    /** {@link #rangeVisit(long, long, LongEntryVisitor)} with the strategy switch of rangeCount. */
    long rangeVisit(long from, long to, LongEntryVisitor visitor, int scanLeaves) {
        if (from >= to) {
            return 0;
        }
        int expected = modCount;
        int leaf = findLeaf(from);
        int s = NodeSearch.succGE(leafKeys.chunk(leaf), leafKeys.offset(leaf), from);
        int endLeaf = NONE;
        int endSlot = N;
        long n = 0;
        for (int scanned = 0; ; scanned++) {
            long[] kc = leafKeys.chunk(leaf);
            long[] vc = leafVals.chunk(leaf);
            int off = leafKeys.offset(leaf);
            int bm = leafBitmap(leaf);
            boolean last;
            int e;
            if (endLeaf == NONE) {
                e = NodeSearch.succGE(kc, off, to);
                last = bitsFrom(bm, e) != 0;
            } else {
                last = leaf == endLeaf;
                e = last ? endSlot : N;
            }
            for (int bits = bitsFrom(bm, s) & bitsBelow(bm, e); bits != 0; bits &= bits - 1) {
                int slot = Integer.numberOfTrailingZeros(bits);
                visitor.visit(kc[off + slot], vc[off + slot]);
                n++;
                if (modCount != expected) {
                    throw new ConcurrentModificationException("the index was changed during rangeVisit");
                }
            }
            if (last) {
                return n;
            }
            if (endLeaf == NONE && scanned >= scanLeaves) {
                endLeaf = endLeaf(to);
                endSlot = endSlot(endLeaf, to);
                if (endLeaf == leaf) {
                    return n;
                }
            }
            leaf = leafNext(leaf);
            if (leaf == NONE) {
                return n;
            }
            s = 0;
        }
    }

    // ---- accounting ---------------------------------------------------------------------------

    @Override
    public long memoryBytes() {
        return 16 + 8L * 16 // this object's header and fields, roughly
                + leafKeys.bytes() + leafVals.bytes() + leafInfo.bytes()
                + innerKeys.bytes() + innerKids.bytes() + innerMeta.bytes()
                + 16 + 4L * freeLeaves.length + 16 + 4L * freeInner.length
                + 2 * (16 + 4L * pathNode.length) + 2 * (16 + 8L * splitKeys.length) + 16 + 4L * splitKids.length;
    }

    @Override
    public void checkInvariants() {
        new InvariantChecker(this).check();
    }

    @Override
    public String toString() {
        return "BSTree[size=" + size + ", height=" + height + ", leaves=" + leafNodes() + ", inner=" + innerNodes()
                + ", search=" + NodeSearch.describe() + "]";
    }

    // ---- bulk load ----------------------------------------------------------------------------

    /**
     * Builds a tree from sorted keys (section 4.3): leaves take {@code leafFill * 16} keys with the
     * gaps spread through them (a gap after every 3 keys at 75%), except that no gap is left
     * between consecutive integers, where nothing could be inserted (footnote 2); separators are
     * the leaves' first keys; each inner level is built from the one below with a fill that grows
     * by 1/8 per level up to full nodes.
     *
     * @param keys     strictly ascending
     * @param values   one per key, or {@code null} for zeros
     * @param leafFill between 0.5 and 1
     * @throws IllegalArgumentException on bad input; nothing is built
     */
    public static BSTree bulkLoad(long[] keys, long[] values, double leafFill) {
        SortedInput.check(keys, values);
        if (!(leafFill >= 0.5 && leafFill <= 1.0)) {
            throw new IllegalArgumentException("leafFill must be in [0.5, 1], got " + leafFill);
        }
        int n = keys.length;
        BSTree t = new BSTree();
        if (n > 0 && keys[n - 1] == MAXKEY) {
            t.hasMax = true;
            t.maxValue = values == null ? 0 : values[n - 1];
            n--;
        }
        t.size = keys.length;
        if (n == 0) {
            return t;
        }
        int perLeaf = Math.max(1, Math.min(N, (int) Math.round(leafFill * N)));
        long maxLeaves = ((long) n + perLeaf - 1) / perLeaf;
        if (maxLeaves > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(n + " keys need more than 2^31 leaves");
        }
        int[] ids = new int[(int) maxLeaves];
        long[] mins = new long[(int) maxLeaves];
        int count = t.loadLeaves(keys, values, n, perLeaf, ids, mins);
        for (int level = 1; count > 1; level++) {
            double fill = Math.min(1.0, leafFill + 0.125 * level);
            int perNode = Math.max(1, Math.min(N, (int) Math.round(fill * N))) + 1;
            count = t.loadInnerLevel(ids, mins, count, perNode);
            t.height = level;
        }
        t.root = ids[0];
        return t;
    }

    /** Fills the leaf level; returns the number of leaves, their ids and first keys. */
    private int loadLeaves(long[] keys, long[] values, int n, int perLeaf, int[] ids, long[] mins) {
        int leaves = 0;
        int prev = NONE;
        int i = 0;
        while (i < n) {
            int leaf = leaves == 0 ? root : allocLeaf();
            long[] kc = leafKeys.chunk(leaf);
            long[] vc = leafVals.chunk(leaf);
            int off = leafKeys.offset(leaf);
            ids[leaves] = leaf;
            mins[leaves] = keys[i];
            leaves++;
            int bm = 0;
            int slot = 0;
            int placed = 0;
            while (slot < N && i < n) {
                kc[off + slot] = keys[i];
                vc[off + slot] = values == null ? 0 : values[i];
                bm |= 1 << slot;
                slot++;
                placed++;
                i++;
                boolean gapDue = (placed * N / perLeaf) - ((placed - 1) * N / perLeaf) > 1;
                if (gapDue && slot < N && i < n && keys[i] != keys[i - 1] + 1) {
                    slot++;
                }
            }
            long next = MAXKEY;
            for (int s = N - 1; s >= 0; s--) {
                if ((bm & (1 << s)) != 0) {
                    next = kc[off + s];
                } else {
                    kc[off + s] = next;
                }
            }
            int[] ic = leafInfo.chunk(leaf);
            int io = leafInfo.offset(leaf);
            ic[io + META] = meta(bm);
            ic[io + PREV] = prev;
            ic[io + NEXT] = NONE;
            if (prev != NONE) {
                setLeafNext(prev, leaf);
            }
            prev = leaf;
        }
        headLeaf = ids[0];
        tailLeaf = prev;
        return leaves;
    }

    /**
     * Builds one inner level over {@code count} children, {@code perNode} children a node, spread
     * evenly so that the last node is not nearly empty. Rewrites {@code ids}/{@code mins} in place
     * with the new nodes and returns how many there are.
     */
    private int loadInnerLevel(int[] ids, long[] mins, int count, int perNode) {
        int nodes = (count + perNode - 1) / perNode;
        int c = 0;
        for (int j = 0; j < nodes; j++) {
            int take = count / nodes + (j < count % nodes ? 1 : 0);
            int node = allocInner();
            // Pairs (mins[c+t], ids[c+t]) for t >= 1 become the slots; ids[c] the leftmost child.
            spreadInner(node, ids[c], mins, ids, c + 1, take - 1);
            ids[j] = node;
            mins[j] = mins[c];
            c += take;
        }
        return nodes;
    }

    // ---- cursor -------------------------------------------------------------------------------

    /** A (leaf, slot) position, walking the leaf chain; stale when {@link #modCount} moves. */
    private final class Cursor implements LongCursor {
        private long pos = POS_NONE;
        private int expected = modCount;

        private boolean at(long p) {
            pos = p;
            expected = modCount;
            return p != POS_NONE;
        }

        private void checkFresh() {
            if (expected != modCount) {
                throw new ConcurrentModificationException("the index was changed after this cursor was positioned");
            }
        }

        private long current() {
            checkFresh();
            if (pos == POS_NONE) {
                throw new NoSuchElementException("the cursor is not on an entry");
            }
            return pos;
        }

        @Override
        public boolean seekCeiling(long key) {
            return at(ceilingPos(key));
        }

        @Override
        public boolean seekFloor(long key) {
            return at(floorPos(key));
        }

        @Override
        public boolean seekHigher(long key) {
            return at(higherPos(key));
        }

        @Override
        public boolean seekLower(long key) {
            return at(lowerPos(key));
        }

        @Override
        public boolean seekFirst() {
            return at(firstPos());
        }

        @Override
        public boolean seekLast() {
            return at(lastPos());
        }

        @Override
        public boolean next() {
            checkFresh();
            return pos != POS_NONE && at(nextPos(pos));
        }

        @Override
        public boolean previous() {
            checkFresh();
            return pos != POS_NONE && at(prevPos(pos));
        }

        @Override
        public boolean isValid() {
            checkFresh();
            return pos != POS_NONE;
        }

        @Override
        public long key() {
            return keyAt(current());
        }

        @Override
        public long value() {
            return valueAt(current());
        }

        @Override
        public void remove() {
            long key = keyAt(current());
            BSTree.this.remove(key);
            at(higherPos(key));
        }
    }
}
