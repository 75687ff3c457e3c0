package org.bforest.bstree;

import static org.bforest.bstree.Slots.FULL;
import static org.bforest.bstree.Slots.N;
import static org.bforest.bstree.Slots.meta;

import org.bforest.IndexKind;
import org.bforest.LongEntryVisitor;
import org.bforest.kernel.GapSlots;
import org.bforest.kernel.NodeSearch;
import org.bforest.kernel.Prefetch;
import org.bforest.storage.IntNodeArray;
import org.bforest.storage.LongNodeArray;
import org.bforest.util.Arrivals;

/**
 * The BS-tree: a gapped, data-parallel B+-tree (Tsitsigkos, Lampropoulos, Bouros, Mamoulis and
 * Terrovitis, "BS-tree: A gapped data-parallel B-tree",
 * sections 3, 4 and 6), single-threaded, uncompressed.
 *
 * <h2>Layout</h2>
 * Every node has {@value Slots#N} key slots. Nodes are not objects: they are int ids into flat,
 * chunked primitive arrays ({@link LongNodeArray}, {@link IntNodeArray}), one family for leaves and
 * one for inner nodes, and each concern in its own array so that a search touches only keys:
 * <ul>
 * <li>leaves: {@code leafKeys} and {@code leafVals} (16 longs a node, same offsets), and
 *     {@code leafInfo} (4 ints a node: {@link #META}, {@link #NEXT}, {@link #PREV}), the
 *     doubly linked leaf chain that range scans and cursors walk;</li>
 * <li>inner nodes: {@code innerKeys} (16 separators), {@code innerKids} (17 child ids: the
 *     leftmost child, then the right child of each slot) and {@code innerMeta}.</li>
 * </ul>
 * The metadata word of a node is {@link Slots#meta}: slot use and bitmap. The inner levels are
 * {@link InnerLevels}, shared with the compressed {@link CBSTree}; the positions, cursor and range
 * scans are {@link GappedTree}'s.
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
 * <p>{@code Long.MAX_VALUE} pads the nodes, so it is kept out of band (see {@link GappedTree}).
 *
 * <h2>Updates</h2>
 * Insert puts the key into a gap, or shifts towards the nearest gap on the right, else on the
 * left (Algorithm 6). A full leaf splits into two leaves of 9 and 8 keys, each spread evenly over
 * its 16 slots (proactive gapping: 7 and 8 gaps between the keys); a full inner node keeps 8 of
 * its 17 separators, sends the 9th up and moves 8 to a new node, spread the same way; a split of
 * the root grows a new root. At the edges of the tree the splits are uneven (ours, as database
 * B-trees split their rightmost page; {@link GappedTree#edgeOf}): a key above every key of the
 * last leaf, as an ascending run (time-ordered keys) brings, leaves the full leaf as it is and
 * starts a new leaf with the new key alone, and the inner nodes above keep 16 of their 17
 * children, so such a run leaves full nodes behind instead of half-full ones; a key below
 * every key of the first leaf (a descending run) is the mirror. Anywhere else the halves stay,
 * so random inserts fill as they did. Delete copies the next used key over the deleted slot and
 * the gaps before it (Algorithm 5); nodes are never merged (as the paper argues). A leaf that becomes empty is
 * unlinked and freed, and its separator in the parent is deleted the same way; an inner node left
 * without children goes too, and a root with one child is replaced by that child. Freed nodes are
 * reused.
 *
 * <p>Not thread-safe. Notation: {@code kc}/{@code vc}/{@code ic} are the chunk arrays of a node's
 * keys, values and ints, {@code off}/{@code io} its offsets in them, {@code bm} a bitmap, {@code q}
 * a {@code succGT} result, {@code r} a slot where a key belongs, {@code h} a level (leaves are
 * level 0, the root is level {@code height}).
 */
final class BSTree extends GappedTree {
    /** Offsets in the 4-int leaf info record. */
    static final int META = 0;
    static final int NEXT = 1;
    static final int PREV = 2;
    static final int INFO = 4;

    /**
     * A key-only tree (a set, as the paper measures it): no value storage at all, every value
     * reads 0, {@link #leafVals} is null and a put of any other value is refused.
     */
    final boolean keyOnly;
    LongNodeArray leafKeys;
    /** The values, at the same offsets as the keys; {@code null} in a {@link #keyOnly} tree. */
    LongNodeArray leafVals;
    IntNodeArray leafInfo;

    /**
     * The keys a full last leaf keeps when an ascending run splits it (and the new leaf takes when
     * a descending run splits the first leaf): all 16, no gap. The gaps of section 4 are there
     * for inserts, and the run that fills these leaves does not come back to them: a time-ordered
     * stream only appends, and what later removes its oldest keys finds leaves as dense as they
     * can be. Keeping 15 (one gap) was measured: 2M ascending puts left 20.2 bytes a key against
     * 19.1, and 2M random puts on top of them ended at 25.9 against 27.0 (the gap takes one
     * insert before the leaf splits in halves), so the gap pays only when random inserts follow
     * in numbers; the B+-tree baselines keep all 16 too.
     */
    static final int EDGE_KEEP = N;

    // Scratch space for a leaf split, allocated once: its 17 entries.
    private final long[] splitKeys = new long[N + 1];
    private final long[] splitVals = new long[N + 1];

    /** An empty tree. */
    BSTree() {
        this(false);
    }

    /** An empty tree, key-only if {@code keyOnly}. */
    BSTree(boolean keyOnly) {
        super(keyOnly ? "BS-tree set" : "BS-tree");
        this.keyOnly = keyOnly;
        init();
    }

    @Override
    void newLeaves() {
        leafKeys = new LongNodeArray(N, 1);
        leafVals = keyOnly ? null : new LongNodeArray(N, 1);
        leafInfo = new IntNodeArray(INFO, 1);
    }

    // ---- leaf accessors -------------------------------------------------------------------------

    /**
     * Where a leaf's keys start in its {@code leafKeys} chunk, and its values in its
     * {@code leafVals} chunk: both arrays have standard chunks and stride {@value Slots#N}, so this is
     * {@link LongNodeArray#offsetOf} with a constant stride (a shift, no field loads).
     */
    static int leafOffset(int leaf) {
        return LongNodeArray.offsetOf(leaf, N);
    }

    int leafMeta(int leaf) {
        return leafInfo.chunk(leaf)[leafInfo.offset(leaf) + META];
    }

    @Override
    protected long leafBitmap(int leaf) {
        return leafMeta(leaf) & FULL;
    }

    @Override
    protected int leafNext(int leaf) {
        return leafInfo.chunk(leaf)[leafInfo.offset(leaf) + NEXT];
    }

    @Override
    protected int leafPrev(int leaf) {
        return leafInfo.chunk(leaf)[leafInfo.offset(leaf) + PREV];
    }

    @Override
    protected void setLeafNext(int leaf, int next) {
        leafInfo.chunk(leaf)[leafInfo.offset(leaf) + NEXT] = next;
    }

    @Override
    protected void setLeafPrev(int leaf, int prev) {
        leafInfo.chunk(leaf)[leafInfo.offset(leaf) + PREV] = prev;
    }

    @Override
    protected int leafSuccGE(int leaf, long key) {
        return NodeSearch.succGE(leafKeys.chunk(leaf), leafOffset(leaf), key);
    }

    @Override
    protected int leafSuccGT(int leaf, long key) {
        return NodeSearch.succGT(leafKeys.chunk(leaf), leafOffset(leaf), key);
    }

    @Override
    protected long leafKey(int leaf, int slot) {
        return leafKeys.chunk(leaf)[leafOffset(leaf) + slot];
    }

    @Override
    protected long leafValue(int leaf, int slot) {
        return keyOnly ? 0 : leafVals.chunk(leaf)[leafOffset(leaf) + slot];
    }

    /** The range visit's inner loop over one leaf; apart from the CBS-tree's for speed (see {@link GappedTree}). */
    @Override
    protected int visitLeaf(int leaf, long bits, LongEntryVisitor visitor, int expectedModCount) {
        long[] kc = leafKeys.chunk(leaf);
        long[] vc = keyOnly ? null : leafVals.chunk(leaf);
        int off = leafOffset(leaf);
        int n = 0;
        for (; bits != 0; bits &= bits - 1) {
            int slot = Long.numberOfTrailingZeros(bits);
            n++;
            boolean go = visitor.visit(kc[off + slot], vc == null ? 0 : vc[off + slot]);
            checkUnchanged(expectedModCount);
            if (!go) {
                return -n;
            }
        }
        return n;
    }

    // ---- allocation ---------------------------------------------------------------------------

    /**
     * A fresh leaf: keys all {@link Slots#MAXKEY}, no slot used, unlinked. May grow the storage,
     * so a caller must fetch chunk arrays again afterwards.
     */
    @Override
    int allocLeaf() {
        growLeaves(leafIds.needed());
        int leaf = leafIds.next();
        long[] kc = leafKeys.chunk(leaf);
        int off = leafOffset(leaf);
        for (int s = 0; s < N; s++) {
            kc[off + s] = MAXKEY;
        }
        if (!keyOnly) {
            long[] vc = leafVals.chunk(leaf);
            for (int s = 0; s < N; s++) {
                vc[off + s] = 0;
            }
        }
        int[] ic = leafInfo.chunk(leaf);
        int io = leafInfo.offset(leaf);
        ic[io + META] = 0;
        ic[io + NEXT] = NONE;
        ic[io + PREV] = NONE;
        return leaf;
    }

    /** Returns a leaf to the free list; {@link #reserveForRemoval} made room for it. */
    @Override
    void freeLeaf(int leaf) {
        leafInfo.chunk(leaf)[leafInfo.offset(leaf) + META] = 0;
        leafIds.release(leaf);
    }

    /** Room for leaf ids {@code [0, leaves)} in every leaf array. */
    private void growLeaves(long leaves) {
        leafKeys.ensureCapacity(leaves);
        if (!keyOnly) {
            leafVals.ensureCapacity(leaves);
        }
        leafInfo.ensureCapacity(leaves);
    }

    // ---- search -------------------------------------------------------------------------------

    @Override
    public long get(long key, long absent) {
        if (key == MAXKEY) {
            return getMax(absent);
        }
        if (keyOnly) {
            return containsKey(key) ? 0 : absent;
        }
        int leaf = inner.findLeaf(key);
        long[] kc = leafKeys.chunk(leaf);
        long[] vc = leafVals.chunk(leaf);
        int off = leafOffset(leaf);
        // Start the value lines' loads with the keys' (see Prefetch).
        int t = (int) ((vc[off] | vc[off + N / 2] | vc[off + N - 1]) & Prefetch.zero());
        int q = NodeSearch.succGT(kc, off, key);
        if (q != 0 && kc[off + q - 1] == key) {
            return vc[off + q - 1 + t];
        }
        return absent;
    }

    /**
     * The batched look-up's descent: the shared lock-step over the inner levels, then the loads of
     * every leaf's key lines and, in a map, value lines, all started before any leaf is searched
     * (see {@link Prefetch}); the leaf ids carry the touches' zero, so the loads are not dropped.
     * Requesting only the one value line that holds the answer, after the search, was measured
     * slower at 50M keys (batches of 1,024: 3.4-4.0 against 4.1-5.7 Mops/s, Zen 4): the search's
     * wait for the key lines and then the value's are two rounds where this is one.
     */
    @Override
    protected void findLeaves(long[] keys, int from, int n, int[] leaves) {
        inner.findLeaves(keys, from, n, leaves);
        int t = 0;
        for (int i = 0; i < n; i++) {
            int leaf = leaves[i];
            long[] kc = leafKeys.chunk(leaf);
            int off = leafOffset(leaf);
            t |= (int) (kc[off] ^ kc[off + N - 1]);
            if (!keyOnly) {
                long[] vc = leafVals.chunk(leaf);
                t |= (int) (vc[off] ^ vc[off + N / 2] ^ vc[off + N - 1]);
            }
        }
        t &= Prefetch.zero();
        for (int i = 0; i < n; i++) {
            leaves[i] += t;
        }
    }

    @Override
    protected long leafGet(int leaf, long key, long absent) {
        long[] kc = leafKeys.chunk(leaf);
        int off = leafOffset(leaf);
        int q = NodeSearch.succGT(kc, off, key);
        if (q != 0 && kc[off + q - 1] == key) {
            return keyOnly ? 0 : leafVals.chunk(leaf)[off + q - 1];
        }
        return absent;
    }

    /** The batched put's step: an update, or an insert into a leaf with a gap (Algorithm 6 without the split). */
    @Override
    protected boolean leafPut(int leaf, long key, long value) {
        long[] kc = leafKeys.chunk(leaf);
        int off = leafOffset(leaf);
        int q = NodeSearch.succGT(kc, off, key);
        if (q != 0 && kc[off + q - 1] == key) {
            if (!keyOnly) {
                leafVals.chunk(leaf)[off + q - 1] = value;
            }
            return true;
        }
        if ((leafMeta(leaf) & FULL) == FULL) {
            return false; // the split needs the path: put descends for it
        }
        insertIntoLeaf(leaf, q, key, value);
        size++;
        modCount++;
        return true;
    }

    @Override
    protected int shapeVersion() {
        return changes();
    }

    @Override
    protected boolean storesValues() {
        return !keyOnly;
    }

    @Override
    public boolean containsKey(long key) {
        if (key == MAXKEY) {
            return hasMax;
        }
        int leaf = inner.findLeaf(key);
        long[] kc = leafKeys.chunk(leaf);
        int off = leafOffset(leaf);
        int q = NodeSearch.succGT(kc, off, key);
        return q != 0 && kc[off + q - 1] == key;
    }

    @Override
    public IndexKind kind() {
        return IndexKind.bsTree(false, keyOnly, bulkFill);
    }

    @Override
    public boolean isCompressed() {
        return false;
    }

    @Override
    public boolean isKeyOnly() {
        return keyOnly;
    }

    // ---- insert -------------------------------------------------------------------------------

    @Override
    public long put(long key, long value) {
        if (keyOnly && value != 0) {
            throw new IllegalArgumentException("a key-only BS-tree stores no values: put(" + key + ", " + value
                    + ") would lose the value; put 0, or build a tree with values");
        }
        if (key == MAXKEY) {
            return putMax(value);
        }
        int node = inner.descend(key);
        long[] kc = leafKeys.chunk(node);
        int off = leafOffset(node);
        int q = NodeSearch.succGT(kc, off, key) + touchLeaf(node, off);
        if (q != 0 && kc[off + q - 1] == key) {
            if (keyOnly) {
                return 0;
            }
            long[] vc = leafVals.chunk(node);
            long previous = vc[off + q - 1];
            vc[off + q - 1] = value;
            return previous;
        }
        int changes = changes();
        insertIntoLeaf(node, q, key, value);
        size++;
        modCount++;
        if (VERIFY && changes != changes() && size <= VERIFY_LIMIT) {
            checkInvariants();
        }
        return defaultReturnValue();
    }

    /**
     * Returns 0, having started the loads of the value lines and the metadata of a leaf, so an
     * update waits for one memory miss where it would otherwise wait for three in a row: keys,
     * then metadata, then values (see {@link Prefetch}).
     */
    private int touchLeaf(int leaf, int off) {
        int[] ic = leafInfo.chunk(leaf);
        int z = Prefetch.zero();
        int t = ic[leafInfo.offset(leaf)] & z;
        if (!keyOnly) {
            long[] vc = leafVals.chunk(leaf);
            t |= (int) ((vc[off] | vc[off + N / 2] | vc[off + N - 1]) & z);
        }
        return t;
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
        long[] vc = keyOnly ? null : leafVals.chunk(leaf);
        int off = leafOffset(leaf);
        int opened = GapSlots.openSlot(kc, off, vc, off, bm, r);
        int at = opened & 0xFF;
        kc[off + at] = key;
        if (vc != null) {
            vc[off + at] = value;
        }
        ic[io + META] = meta(bm | 1 << (opened >>> 8));
    }

    /**
     * Makes sure a split can finish once it starts: room for one leaf and for one inner node per
     * level plus a new root, taken before anything is changed. If memory runs out, it runs out
     * here and the tree is left as it was; no call leaves a half-done split behind.
     */
    private void reserveForSplit() {
        inner.reserveForSplit();
        growLeaves(leafIds.needed());
    }

    /**
     * Splits a full leaf around a new key: the 17 entries go 9 to the left leaf and 8 to a new
     * right leaf, each spread evenly over the 16 slots; the right leaf's first key becomes the
     * separator in the parent. At an edge of the tree ({@link #edgeOf}) the split is uneven:
     * for a key above every key of the last leaf the leaf keeps its {@value #EDGE_KEEP} keys and
     * the new leaf holds the new key alone; for a key below every key of the first leaf, the
     * mirror (the new key alone in this leaf, the first of the two, its 16 keys in the new one).
     */
    private void splitLeaf(int leaf, int r, long key, long value) {
        long[] kc = leafKeys.chunk(leaf);
        int off = leafOffset(leaf);
        long[] sk = splitKeys;
        long[] sv = splitVals;
        // A full leaf has no gaps: slot s is entry s; the new key goes before slot r.
        System.arraycopy(kc, off, sk, 0, r);
        sk[r] = key;
        System.arraycopy(kc, off + r, sk, r + 1, N - r);
        if (!keyOnly) {
            long[] vc = leafVals.chunk(leaf);
            System.arraycopy(vc, off, sv, 0, r);
            sv[r] = value;
            System.arraycopy(vc, off + r, sv, r + 1, N - r);
        }

        int right = allocLeaf(); // may move chunk 0: nothing fetched above is used below
        int edge = edgeOf(leaf, r, N);
        int left = edge == InnerLevels.RIGHT_EDGE ? EDGE_KEEP
                : edge == InnerLevels.LEFT_EDGE ? N + 1 - EDGE_KEEP : (N + 2) / 2;
        spreadLeaf(leaf, sk, sv, 0, left);
        spreadLeaf(right, sk, sv, left, N + 1 - left);

        addSplitLeaf(leaf, right, sk[left], edge);
    }

    /**
     * Writes {@code n} sorted entries into a leaf, spread evenly over the 16 slots (entry i at slot
     * {@code i*16/n}), and fills the gaps with the next key.
     */
    private void spreadLeaf(int leaf, long[] ks, long[] vs, int from, int n) {
        int off = leafOffset(leaf);
        int bm = GapSlots.spread(leafKeys.chunk(leaf), off, ks, from, n);
        if (!keyOnly) {
            long[] vc = leafVals.chunk(leaf);
            for (int t = 0; t < N; t++) {
                vc[off + t] = 0;
            }
            for (int i = 0; i < n; i++) {
                vc[off + i * N / n] = vs[from + i];
            }
        }
        leafInfo.chunk(leaf)[leafInfo.offset(leaf) + META] = meta(bm);
    }

    // ---- delete -------------------------------------------------------------------------------

    @Override
    public long remove(long key) {
        if (key == MAXKEY) {
            return removeMax();
        }
        int node = inner.descend(key);
        long[] kc = leafKeys.chunk(node);
        int off = leafOffset(node);
        int q = NodeSearch.succGT(kc, off, key) + touchLeaf(node, off);
        if (q == 0 || kc[off + q - 1] != key) {
            return defaultReturnValue();
        }
        reserveForRemoval();
        int[] ic = leafInfo.chunk(node);
        int io = leafInfo.offset(node);
        int bm = GapSlots.clearSlot(kc, off, ic[io + META] & FULL, q - 1);
        long previous = 0;
        if (!keyOnly) {
            long[] vc = leafVals.chunk(node);
            previous = vc[off + q - 1];
            vc[off + q - 1] = 0;
        }
        ic[io + META] = meta(bm);
        size--;
        modCount++;
        if (bm == 0 && inner.height > 0) {
            removeLeaf(node);
        }
        return previous;
    }

    /**
     * Room on the free lists for everything a delete can free (one leaf, one inner node per level),
     * taken before the delete changes anything, so that it cannot fail half-way.
     */
    private void reserveForRemoval() {
        leafIds.reserveReleases(1);
        inner.reserveForRemoval();
    }

    // ---- accounting ---------------------------------------------------------------------------

    @Override
    public long memoryBytes() {
        return 16 + 8L * 16 // this object's header and fields, roughly
                + leafKeys.bytes() + (keyOnly ? 0 : leafVals.bytes()) + leafInfo.bytes() + inner.bytes()
                + leafIds.bytes() + 2 * (16 + 8L * splitKeys.length);
    }

    @Override
    protected void checkStructure() {
        new InvariantChecker(this).check();
    }

    // ---- bulk load ----------------------------------------------------------------------------

    /**
     * Builds a tree from sorted keys (section 4.3): leaves take {@code leafFill * 16} keys with the
     * gaps spread through them (a gap after every 3 keys at 75%), except that no gap is left
     * between consecutive integers, where nothing could be inserted (footnote 2;
     * {@link BulkLayout#place}); separators are the leaves' first keys; each inner level is built
     * from the one below with a fill that grows by 1/8 per level up to full nodes ({@link #load}).
     *
     * @param keys     strictly ascending
     * @param values   one per key, or {@code null} for zeros (a tree with values, not key-only)
     * @param leafFill between 0.5 and 1
     * @throws IllegalArgumentException on bad input; nothing is built
     */
    static BSTree bulkLoad(long[] keys, long[] values, double leafFill) {
        return bulkLoad(keys, values, leafFill, false);
    }

    /**
     * {@link #bulkLoad(long[], long[], double)}, key-only if {@code keyOnly} (then
     * {@code values} must be null).
     */
    static BSTree bulkLoad(long[] keys, long[] values, double leafFill, boolean keyOnly) {
        return bulkLoad(keys, values, leafFill, keyOnly, Arrivals.ALL);
    }

    /** {@link #bulkLoad(long[], long[], double, boolean)} of input that may still be arriving. */
    static BSTree bulkLoad(long[] keys, long[] values, double leafFill, boolean keyOnly, Arrivals in) {
        if (keyOnly && values != null) {
            throw new IllegalArgumentException("a key-only BS-tree stores no values: pass null values");
        }
        BSTree t = new BSTree(keyOnly);
        t.load(keys, values, leafFill, in);
        return t;
    }

    @Override
    void trimLeaves() {
        int leaves = leafIds.count();
        leafKeys.trimTo(leaves);
        if (!keyOnly) {
            leafVals.trimTo(leaves);
        }
        leafInfo.trimTo(leaves);
    }

    /**
     * Fills the leaf level; returns the number of leaves, their ids and first keys. One forward
     * pass writes every slot of a leaf once: a gap takes the key placed after it (gaps are never
     * adjacent), the slots after the last key take {@link #MAXKEY}; the values of gaps stay the
     * zeros of fresh storage.
     */
    @Override
    int loadLeaves(long[] keys, long[] values, int n, double leafFill, int[] ids, long[] mins, Arrivals in) {
        boolean withValues = !keyOnly && values != null;
        int perLeaf = BulkLayout.perLeaf(N, leafFill);
        int leaves = 0;
        int i = 0;
        while (i < n) {
            in.await(i + N + 1); // a leaf's keys and the next, which the gap rule compares
            int leaf;
            if (leaves == 0) {
                leaf = inner.root;
            } else {
                growLeaves(leafIds.needed());
                leaf = leafIds.next();
            }
            long[] kc = leafKeys.chunk(leaf);
            long[] vc = withValues ? leafVals.chunk(leaf) : null;
            int off = leafOffset(leaf);
            ids[leaves] = leaf;
            mins[leaves] = keys[i];
            leaves++;
            int bm = 0;
            int slot = 0;
            int placed = 0;
            boolean gapBefore = false;
            while (slot < N && i < n) {
                long k = keys[i];
                kc[off + slot] = k;
                if (gapBefore) {
                    kc[off + slot - 1] = k;
                }
                if (vc != null) {
                    vc[off + slot] = values[i];
                }
                bm |= 1 << slot;
                slot++;
                placed++;
                i++;
                // BulkLayout.place's rule, applied as the slots are written (one pass).
                gapBefore = BulkLayout.gapAfter(keys, i, n, placed, slot, N, perLeaf);
                if (gapBefore) {
                    slot++;
                }
            }
            for (int s = Slots.highestBit(bm) + 1; s < N; s++) {
                kc[off + s] = MAXKEY;
            }
            leafInfo.chunk(leaf)[leafInfo.offset(leaf) + META] = meta(bm);
        }
        return leaves;
    }
}
