package org.bforest.bplus;

import java.util.Arrays;
import org.bforest.IndexKind;
import org.bforest.LongEntryVisitor;
import org.bforest.kernel.Prefetch;
import org.bforest.spi.LeafChainIndex;
import org.bforest.spi.PackedLeaves;
import org.bforest.storage.FlatIntNodeArray;
import org.bforest.storage.FlatLongNodeArray;
import org.bforest.storage.IntNodeArray;
import org.bforest.storage.LongNodeArray;
import org.bforest.storage.NodeIds;
import org.bforest.util.Arrivals;

/**
 * The plain B+-tree the BS-tree paper measures against ("B+-tree" and "Sparse B+-tree", after
 * STX's {@code btree_map}): sorted, packed nodes with no gaps, searched by binary search, no SIMD.
 * It exists to make the ablation visible: what gaps buy (the BS-tree), what SIMD buys, and both.
 *
 * <h2>Layout</h2>
 * As STX's defaults for 8-byte keys and values: leaves of {@value #LEAF} entries (256 bytes of
 * keys and values), inner nodes of {@value #INNER} keys and {@value #KIDS} children. Nodes are int
 * ids into flat primitive arrays, as in the BS-tree: leaf keys and values in two
 * {@link LongNodeArray}s (same offsets), a leaf's count and chain links in an
 * {@link IntNodeArray}; inner keys, children and counts in three flat arrays. Used slots are
 * always the first {@code count}; child {@code i} of an inner node holds the keys in
 * {@code [key[i-1], key[i])}.
 *
 * <h2>Updates</h2>
 * Insert shifts the larger entries right; a full leaf splits 9 / 8 and the right leaf's first key
 * goes up; a full inner node splits 8 / 1 / 8 (the middle key goes up); a full root grows a new
 * root. At the edges of the tree the splits are uneven (ours, as database B-trees split their
 * rightmost page; {@link #edgeOf}): a key above every key of the last leaf (an ascending run,
 * time-ordered keys) leaves the full leaf as it is and starts a new one with the new key alone,
 * and the inner nodes above keep 16 of their 17 children, so the run leaves full nodes behind;
 * a key below every key of the first leaf (a descending run) is the mirror. Anywhere else the
 * halves stay, so random inserts fill as they did. Delete shifts left, and deletion is lazy as
 * in the BS-tree: nodes are never merged or rebalanced; a leaf that empties is unlinked and freed and its separator removed (the neighbour
 * to its left, or for a leftmost child the one to its right, takes over its range); an inner
 * node left without children goes too; a root with one child is replaced by it. Lookups cost one
 * descent whatever the fill, so the only price of lazy deletion is memory after heavy deletes.
 *
 * <p>{@code Long.MAX_VALUE} is stored out of band by the shared layer, like the BS-tree's, so
 * that every structure treats it the same way. Not thread-safe for writes; reads keep no state in
 * fields, so any number of threads may read an unmodified tree.
 */
final class BPlusTree extends LeafChainIndex {
    /** Entries per leaf: 256 bytes of keys and values (STX's leaf size for 16-byte pairs). */
    static final int LEAF = 16;
    /** Keys per inner node, and children (one more). */
    static final int INNER = 16;
    static final int KIDS = INNER + 1;
    static final int MAX_HEIGHT = 40;
    /** Where a leaf split happened ({@link #edgeOf}): inside the tree, the right edge, the left edge. */
    private static final int MIDDLE = 0;
    private static final int RIGHT_EDGE = 1;
    private static final int LEFT_EDGE = -1;
    /** Offsets in the 4-int leaf info record. */
    static final int COUNT = 0;
    static final int NEXT = 1;
    static final int PREV = 2;
    static final int INFO = 4;

    private final double bulkFill;

    LongNodeArray leafKeys;
    LongNodeArray leafVals;
    IntNodeArray leafInfo;
    final NodeIds leafIds = new NodeIds();
    FlatLongNodeArray innerKeys;
    FlatIntNodeArray innerKids;
    /** Keys in use per inner node (children: one more). */
    FlatIntNodeArray innerCount;
    final NodeIds innerIds = new NodeIds();
    /** The root: an inner node, or a leaf when {@link #height} is 0. */
    int root;
    int height;

    // Writers' scratch (writes are single-threaded): the path of the last descend().
    private final int[] pathNode = new int[MAX_HEIGHT + 1];
    private final int[] pathPos = new int[MAX_HEIGHT + 1];
    private final long[] splitKeys = new long[KIDS + 1];
    private final int[] splitKids = new int[KIDS + 1];

    /** An empty tree; {@code bulkFill} is recorded for {@link #toString} only. */
    BPlusTree(String name, double bulkFill) {
        super(name);
        this.bulkFill = bulkFill;
        init();
    }

    private void init() {
        leafKeys = new LongNodeArray(LEAF, 1);
        leafVals = new LongNodeArray(LEAF, 1);
        leafInfo = new IntNodeArray(INFO, 1);
        leafIds.reset();
        innerKeys = new FlatLongNodeArray(INNER, 1);
        innerKids = new FlatIntNodeArray(KIDS, 1);
        innerCount = new FlatIntNodeArray(1, 1);
        innerIds.reset();
        int leaf = allocLeaf();
        root = leaf;
        height = 0;
        chainOne(leaf);
    }

    private static int leafOff(int leaf) {
        return LongNodeArray.offsetOf(leaf, LEAF);
    }

    private int info(int leaf, int field) {
        return leafInfo.chunk(leaf)[leafInfo.offset(leaf) + field];
    }

    private void setInfo(int leaf, int field, int v) {
        leafInfo.chunk(leaf)[leafInfo.offset(leaf) + field] = v;
    }

    @Override
    protected void setLeafNext(int leaf, int next) {
        setInfo(leaf, NEXT, next);
    }

    @Override
    protected void setLeafPrev(int leaf, int prev) {
        setInfo(leaf, PREV, prev);
    }

    int leafCount(int leaf) {
        return info(leaf, COUNT);
    }

    int innerCountOf(int node) {
        return innerCount.chunk(0)[node];
    }

    long innerKey(int node, int i) {
        return innerKeys.chunk(0)[FlatLongNodeArray.offsetOf(node, INNER) + i];
    }

    int innerKid(int node, int i) {
        return innerKids.chunk(0)[FlatIntNodeArray.offsetOf(node, KIDS) + i];
    }

    // ---- allocation ---------------------------------------------------------------------------
    // Shaped as the B− tree's, over other arrays: a B+-tree node keeps its count (a leaf's in its
    // info record, an inner node's in innerCount) where a B− node is padded and counted by rank.

    /** A new empty leaf; the caller puts it in the chain. */
    private int allocLeaf() {
        PackedLeaves.ensure(leafKeys, leafVals, leafInfo, leafIds.needed());
        int leaf = leafIds.next();
        setInfo(leaf, COUNT, 0);
        return leaf;
    }

    private int allocInner() {
        long need = innerIds.needed();
        innerKeys.ensureCapacity(need);
        innerKids.ensureCapacity(need);
        innerCount.ensureCapacity(need);
        int node = innerIds.next();
        innerCount.chunk(0)[node] = 0;
        return node;
    }

    /** Room for a split to finish once it starts: a leaf, and an inner node per level plus a root. */
    private void reserveForSplit() {
        PackedLeaves.checkHeight(this, height, MAX_HEIGHT);
        PackedLeaves.ensure(leafKeys, leafVals, leafInfo, leafIds.needed());
        long inner = innerIds.needed(height + 1);
        innerKeys.ensureCapacity(inner);
        innerKids.ensureCapacity(inner);
        innerCount.ensureCapacity(inner);
    }

    // ---- search -------------------------------------------------------------------------------
    // get, containsKey, put and remove open as the other packed trees' do (Long.MAX_VALUE out of
    // band, a descent, the leaf's key and value chunks) and stay written out in this final class,
    // with the descents: they are the hot paths, and a copy per tree keeps each JIT profile apart.

    /** The first of {@code n} sorted keys at {@code off} that is {@code > key}: binary search. */
    private static int upperBound(long[] a, int off, int n, long key) {
        int lo = 0;
        int hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[off + mid] <= key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The first of {@code n} sorted keys at {@code off} that is {@code >= key}. */
    private static int lowerBound(long[] a, int off, int n, long key) {
        int lo = 0;
        int hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[off + mid] < key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    @Override
    protected int findLeaf(long key) {
        long[] ka = innerKeys.chunk(0);
        int[] ca = innerKids.chunk(0);
        int[] na = innerCount.chunk(0);
        int node = root;
        for (int h = height; h > 0; h--) {
            int c = upperBound(ka, FlatLongNodeArray.offsetOf(node, INNER), na[node], key);
            node = ca[FlatIntNodeArray.offsetOf(node, KIDS) + c];
        }
        return node;
    }

    /** {@link #findLeaf} for an update: records the path that splits and removals walk back up. */
    private int descend(long key) {
        long[] ka = innerKeys.chunk(0);
        int[] ca = innerKids.chunk(0);
        int[] na = innerCount.chunk(0);
        int node = root;
        for (int h = height; h > 0; h--) {
            int c = upperBound(ka, FlatLongNodeArray.offsetOf(node, INNER), na[node], key);
            pathNode[h] = node;
            pathPos[h] = c;
            node = ca[FlatIntNodeArray.offsetOf(node, KIDS) + c];
        }
        return node;
    }

    @Override
    public long get(long key, long absent) {
        if (key == MAXKEY) {
            return getMax(absent);
        }
        int leaf = findLeaf(key);
        long[] kc = leafKeys.chunk(leaf);
        int off = leafOff(leaf);
        int i = Arrays.binarySearch(kc, off, off + leafCount(leaf), key);
        return i >= 0 ? leafVals.chunk(leaf)[i] : absent;
    }

    /**
     * The batched look-up's descent: the keys level by level in lock-step, every node's key,
     * child-id and count lines requested before any is searched (see {@code kernel.Prefetch}),
     * then every leaf's key and value lines.
     */
    @Override
    protected void findLeaves(long[] keys, int from, int n, int[] leaves) {
        long[] ka = innerKeys.chunk(0);
        int[] ca = innerKids.chunk(0);
        int[] na = innerCount.chunk(0);
        int z = Prefetch.zero();
        for (int i = 0; i < n; i++) {
            leaves[i] = root;
        }
        for (int h = height; h > 0; h--) {
            int t = 0;
            for (int i = 0; i < n; i++) {
                int node = leaves[i];
                int co = FlatIntNodeArray.offsetOf(node, KIDS);
                t |= Prefetch.lines(ka, FlatLongNodeArray.offsetOf(node, INNER), INNER) | ca[co] | ca[co + INNER]
                        | na[node];
            }
            t &= z;
            for (int i = 0; i < n; i++) {
                int node = leaves[i];
                long key = Math.min(keys[from + i], MAXKEY - 1);
                int c = upperBound(ka, FlatLongNodeArray.offsetOf(node, INNER) + t, na[node], key);
                leaves[i] = ca[FlatIntNodeArray.offsetOf(node, KIDS) + c];
            }
        }
        PackedLeaves.touch(leaves, n, leafKeys, leafVals, leafInfo, LEAF); // the count is in the info record
    }

    @Override
    protected long leafGet(int leaf, long key, long absent) {
        long[] kc = leafKeys.chunk(leaf);
        int off = leafOff(leaf);
        int i = Arrays.binarySearch(kc, off, off + leafCount(leaf), key);
        return i >= 0 ? leafVals.chunk(leaf)[i] : absent;
    }

    @Override
    public boolean containsKey(long key) {
        if (key == MAXKEY) {
            return hasMax;
        }
        int leaf = findLeaf(key);
        int off = leafOff(leaf);
        return Arrays.binarySearch(leafKeys.chunk(leaf), off, off + leafCount(leaf), key) >= 0;
    }

    // ---- insert -------------------------------------------------------------------------------

    @Override
    public long put(long key, long value) {
        if (key == MAXKEY) {
            return putMax(value);
        }
        int leaf = descend(key);
        long[] kc = leafKeys.chunk(leaf);
        long[] vc = leafVals.chunk(leaf);
        int off = leafOff(leaf);
        int n = leafCount(leaf);
        int r = lowerBound(kc, off, n, key);
        if (r < n && kc[off + r] == key) {
            long previous = vc[off + r];
            vc[off + r] = value;
            return previous;
        }
        if (n == LEAF) {
            reserveForSplit();
            splitLeaf(leaf, r, key, value);
        } else {
            System.arraycopy(kc, off + r, kc, off + r + 1, n - r);
            System.arraycopy(vc, off + r, vc, off + r + 1, n - r);
            kc[off + r] = key;
            vc[off + r] = value;
            setInfo(leaf, COUNT, n + 1);
        }
        size++;
        modCount++;
        return defaultReturnValue();
    }

    /**
     * Splits a full leaf around a new entry at {@code r}: 9 entries stay, 8 go to a new right
     * leaf; at an edge of the tree ({@link #edgeOf}) all 16 stay and the new entry alone goes to
     * the new leaf (or, below every key of the first leaf, the new entry alone stays).
     */
    private void splitLeaf(int leaf, int r, long key, long value) {
        int right = allocLeaf(); // reserved: never moves chunks that hold existing leaves' data
        long[] kc = leafKeys.chunk(leaf);
        long[] vc = leafVals.chunk(leaf);
        int off = leafOff(leaf);
        long[] rk = leafKeys.chunk(right);
        long[] rv = leafVals.chunk(right);
        int roff = leafOff(right);
        int edge = edgeOf(leaf, r);
        int keep = edge == RIGHT_EDGE ? LEAF : edge == LEFT_EDGE ? 1 : (LEAF + 2) / 2; // else 9 of the 17
        int moved = LEAF + 1 - keep;
        if (r < keep) {
            // The new entry stays left: entries [keep-1, 16) move right, then shift in.
            System.arraycopy(kc, off + keep - 1, rk, roff, moved);
            System.arraycopy(vc, off + keep - 1, rv, roff, moved);
            System.arraycopy(kc, off + r, kc, off + r + 1, keep - 1 - r);
            System.arraycopy(vc, off + r, vc, off + r + 1, keep - 1 - r);
            kc[off + r] = key;
            vc[off + r] = value;
        } else {
            int rr = r - keep; // where it goes in the right leaf
            System.arraycopy(kc, off + keep, rk, roff, rr);
            System.arraycopy(vc, off + keep, rv, roff, rr);
            rk[roff + rr] = key;
            rv[roff + rr] = value;
            System.arraycopy(kc, off + r, rk, roff + rr + 1, LEAF - r);
            System.arraycopy(vc, off + r, rv, roff + rr + 1, LEAF - r);
        }
        setInfo(leaf, COUNT, keep);
        setInfo(right, COUNT, moved);
        linkAfter(leaf, right);
        insertIntoParent(1, rk[roff], right, edge);
    }

    /**
     * Where a full leaf splits for an entry at {@code r}: {@link #RIGHT_EDGE} for a key above
     * every key of the tree's last leaf, the shape of an ascending run (time-ordered keys), so
     * that the leaves it leaves behind are full, not half full, as database B-trees split their
     * rightmost page; {@link #LEFT_EDGE} for the mirror at the first leaf (a descending run);
     * {@link #MIDDLE} anywhere else, the even split, so random inserts fill and run as before.
     * Only the edges: a key at the right end of a leaf inside the tree is as likely a random one
     * (one insert in 17), and splitting those unevenly would leave random inserts' leaves
     * emptier. On the split path only.
     */
    private int edgeOf(int leaf, int r) {
        if (r == LEAF && leaf == tailLeaf) {
            return RIGHT_EDGE;
        }
        return r == 0 && leaf == headLeaf ? LEFT_EDGE : MIDDLE;
    }

    /**
     * Adds separator {@code sep} with right child {@code kid} to the path node at level {@code h};
     * {@code edge} is the leaf split's {@link #edgeOf}. A full node splits 8 / 1 / 8; at an edge it
     * splits so that it keeps 16 of its 18 children (ascending: 15 keys stay, the new node has the
     * last two children) or the node the run goes on in has 2 (descending), so the inner levels of
     * a run are as dense as its leaves, short of one child: a node of one child and no key would
     * be a shape no other split makes.
     */
    private void insertIntoParent(int h, long sep, int kid, int edge) {
        if (h > height) {
            int oldRoot = root;
            int node = allocInner();
            int ko = FlatLongNodeArray.offsetOf(node, INNER);
            int co = FlatIntNodeArray.offsetOf(node, KIDS);
            innerKeys.chunk(0)[ko] = sep;
            innerKids.chunk(0)[co] = oldRoot;
            innerKids.chunk(0)[co + 1] = kid;
            innerCount.chunk(0)[node] = 1;
            root = node;
            height++;
            return;
        }
        int node = pathNode[h];
        int c = pathPos[h]; // the path went through child c: the new key goes at c, its child at c+1
        long[] ka = innerKeys.chunk(0);
        int[] ca = innerKids.chunk(0);
        int ko = FlatLongNodeArray.offsetOf(node, INNER);
        int co = FlatIntNodeArray.offsetOf(node, KIDS);
        int n = innerCountOf(node);
        if (n < INNER) {
            System.arraycopy(ka, ko + c, ka, ko + c + 1, n - c);
            System.arraycopy(ca, co + c + 1, ca, co + c + 2, n - c);
            ka[ko + c] = sep;
            ca[co + c + 1] = kid;
            innerCount.chunk(0)[node] = n + 1;
            return;
        }
        // Full: 17 keys and 18 children; 8 keys stay, the 9th goes up, 8 move to a new node
        // (at an edge: 15 or 1 stay, see above).
        long[] sk = splitKeys;
        int[] sc = splitKids;
        System.arraycopy(ka, ko, sk, 0, c);
        sk[c] = sep;
        System.arraycopy(ka, ko + c, sk, c + 1, INNER - c);
        System.arraycopy(ca, co, sc, 0, c + 1);
        sc[c + 1] = kid;
        System.arraycopy(ca, co + c + 1, sc, c + 2, INNER - c);
        int right = allocInner(); // reserved; flat arrays were grown before: fetch them again
        ka = innerKeys.chunk(0);
        ca = innerKids.chunk(0);
        int keep = edge == RIGHT_EDGE && c == INNER ? INNER - 1 : edge == LEFT_EDGE && c == 0 ? 1 : INNER / 2;
        int rko = FlatLongNodeArray.offsetOf(right, INNER);
        int rco = FlatIntNodeArray.offsetOf(right, KIDS);
        System.arraycopy(sk, 0, ka, ko, keep);
        System.arraycopy(sc, 0, ca, co, keep + 1);
        innerCount.chunk(0)[node] = keep;
        int moved = INNER - keep; // keys after the middle one
        System.arraycopy(sk, keep + 1, ka, rko, moved);
        System.arraycopy(sc, keep + 1, ca, rco, moved + 1);
        innerCount.chunk(0)[right] = moved;
        insertIntoParent(h + 1, sk[keep], right, edge);
    }

    // ---- delete -------------------------------------------------------------------------------

    @Override
    public long remove(long key) {
        if (key == MAXKEY) {
            return removeMax();
        }
        int leaf = descend(key);
        long[] kc = leafKeys.chunk(leaf);
        long[] vc = leafVals.chunk(leaf);
        int off = leafOff(leaf);
        int n = leafCount(leaf);
        int r = lowerBound(kc, off, n, key);
        if (r == n || kc[off + r] != key) {
            return defaultReturnValue();
        }
        leafIds.reserveReleases(1);
        innerIds.reserveReleases(2 * height + 1);
        long previous = vc[off + r];
        System.arraycopy(kc, off + r + 1, kc, off + r, n - r - 1);
        System.arraycopy(vc, off + r + 1, vc, off + r, n - r - 1);
        setInfo(leaf, COUNT, n - 1);
        size--;
        modCount++;
        if (n == 1 && height > 0) {
            removeLeaf(leaf);
        }
        return previous;
    }

    /** Unlinks and frees an emptied leaf, then removes it from its parent. */
    private void removeLeaf(int leaf) {
        unlinkLeaf(leaf);
        leafIds.release(leaf);
        removeChild(1);
    }

    /**
     * Removes child {@code pathPos[h]} of the path node at level {@code h}: with the key to its
     * left (the left neighbour takes its range), or for child 0 with key 0 (the right neighbour
     * takes it). A node left without children goes too; then a root with one child is replaced.
     * The B&minus; tree's removeChild has this shape but drops key c (the last child: key c-1),
     * its separators being max keys.
     */
    private void removeChild(int h) {
        int node = pathNode[h];
        int c = pathPos[h];
        int n = innerCountOf(node);
        if (n == 0) {
            // Its only child is gone: the node goes, and with it its slot in the parent.
            if (h == height) {
                throw new IllegalStateException(toString() + ": the root lost its last child");
            }
            innerIds.release(node);
            removeChild(h + 1);
            return;
        }
        long[] ka = innerKeys.chunk(0);
        int[] ca = innerKids.chunk(0);
        int ko = FlatLongNodeArray.offsetOf(node, INNER);
        int co = FlatIntNodeArray.offsetOf(node, KIDS);
        int k = c == 0 ? 0 : c - 1;
        System.arraycopy(ka, ko + k + 1, ka, ko + k, n - k - 1);
        System.arraycopy(ca, co + c + 1, ca, co + c, n - c);
        innerCount.chunk(0)[node] = n - 1;
        while (height > 0 && innerCountOf(root) == 0) {
            int only = innerKid(root, 0);
            innerIds.release(root);
            root = only;
            height--;
        }
    }

    @Override
    public void clear() {
        init();
        resetCommon();
    }

    // ---- the position SPI -----------------------------------------------------------------------
    // One-line answers over this tree's own arrays, alike in shape in every packed tree: the layer
    // declares them per tree, leafBitmap and visitLeaf are PackedLeaves', and leafSuccGE/GT are
    // this tree's binary search, kept here beside the descents (this tree's own JIT profile).

    @Override
    protected int firstLeaf() {
        return headLeaf;
    }

    @Override
    protected int lastLeaf() {
        return tailLeaf;
    }

    @Override
    protected int leafNext(int leaf) {
        return info(leaf, NEXT);
    }

    @Override
    protected int leafPrev(int leaf) {
        return info(leaf, PREV);
    }

    @Override
    protected long leafBitmap(int leaf) {
        return PackedLeaves.bitmap(leafCount(leaf));
    }

    @Override
    protected int leafSuccGE(int leaf, long key) {
        return lowerBound(leafKeys.chunk(leaf), leafOff(leaf), leafCount(leaf), key);
    }

    @Override
    protected int leafSuccGT(int leaf, long key) {
        return upperBound(leafKeys.chunk(leaf), leafOff(leaf), leafCount(leaf), key);
    }

    @Override
    protected long leafKey(int leaf, int slot) {
        return leafKeys.chunk(leaf)[leafOff(leaf) + slot];
    }

    @Override
    protected long leafValue(int leaf, int slot) {
        return leafVals.chunk(leaf)[leafOff(leaf) + slot];
    }

    @Override
    protected int visitLeaf(int leaf, long bits, LongEntryVisitor visitor, int expectedModCount) {
        return PackedLeaves.visit(this, leafKeys.chunk(leaf), leafVals.chunk(leaf), leafOff(leaf), bits, visitor,
                expectedModCount);
    }

    @Override
    protected int descentLevels() {
        return height;
    }

    @Override
    protected String describeShape() {
        return "leaves=" + leafIds.inUse() + ", inner=" + innerIds.inUse() + ", height=" + height + ", bulkFill="
                + bulkFill;
    }

    @Override
    public IndexKind kind() {
        return IndexKind.bPlusTree(bulkFill);
    }

    @Override
    public long memoryBytes() {
        return PackedLeaves.objectBytes(16) + PackedLeaves.bytes(leafKeys, leafVals, leafInfo) + leafIds.bytes()
                + innerKeys.bytes() + innerKids.bytes() + innerCount.bytes() + innerIds.bytes()
                + PackedLeaves.bytes(pathNode) + PackedLeaves.bytes(pathPos) + PackedLeaves.bytes(splitKeys)
                + PackedLeaves.bytes(splitKids);
    }

    @Override
    protected void checkStructure() {
        new BPlusChecker(this).check();
    }

    // ---- bulk load ----------------------------------------------------------------------------

    /**
     * A tree of {@code keys} (strictly ascending; {@code values} may be null for zeros) with
     * leaves {@code leafFill} full (1.0: the dense B+-tree; 0.75: the sparse one, 25% free for
     * inserts) and full inner nodes, each level spread evenly so that no node is nearly empty.
     * The layout is PackedLeaves'; the loop over leaves is the B&minus; tree's but for the count each
     * leaf records and the bound it passes up (its least key, the B&minus; tree's largest), and stays
     * here so that a leaf is allocated, filled and counted in one step, with no call-back per leaf.
     */
    static BPlusTree bulkLoad(String name, long[] keys, long[] values, double leafFill) {
        return bulkLoad(name, keys, values, leafFill, Arrivals.ALL);
    }

    /** {@link #bulkLoad(String, long[], long[], double)} of input that may still be arriving. */
    static BPlusTree bulkLoad(String name, long[] keys, long[] values, double leafFill, Arrivals in) {
        PackedLeaves.checkFill(leafFill);
        BPlusTree t = new BPlusTree(name, leafFill);
        int n = t.acceptBulk(keys, values, in);
        if (n == 0) {
            return t;
        }
        int leaves = PackedLeaves.leavesFor(n, leafFill, LEAF);
        int[] ids = new int[leaves];
        long[] mins = new long[leaves];
        for (int j = 0, i = 0; j < leaves; j++) {
            int take = PackedLeaves.share(n, leaves, j);
            in.await(i + take);
            int leaf = j == 0 ? t.root : t.allocLeaf();
            PackedLeaves.load(t.leafKeys, t.leafVals, leaf, keys, values, i, take);
            t.setInfo(leaf, COUNT, take);
            ids[j] = leaf;
            mins[j] = keys[i];
            i += take;
        }
        t.chainLeaves(ids, leaves);
        t.height = PackedLeaves.innerLevels(ids, mins, leaves, KIDS, false, (kids, bounds, from, take) -> {
            int node = t.allocInner();
            int ko = FlatLongNodeArray.offsetOf(node, INNER);
            int co = FlatIntNodeArray.offsetOf(node, KIDS);
            long[] ka = t.innerKeys.chunk(0);
            int[] ca = t.innerKids.chunk(0);
            for (int s = 0; s < take; s++) {
                ca[co + s] = kids[from + s];
                if (s > 0) {
                    ka[ko + s - 1] = bounds[from + s]; // the smallest key of the child to its right
                }
            }
            t.innerCount.chunk(0)[node] = take - 1;
            return node;
        });
        t.root = ids[0];
        PackedLeaves.trim(t.leafKeys, t.leafVals, t.leafInfo, t.leafIds.count());
        t.innerKeys.trimTo(t.innerIds.count());
        t.innerKids.trimTo(t.innerIds.count());
        t.innerCount.trimTo(t.innerIds.count());
        return t;
    }
}
