package org.bforest.bminus;

import java.util.Arrays;
import org.bforest.IndexKind;
import org.bforest.LongEntryVisitor;
import org.bforest.kernel.NodeSearch;
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
 * The B&minus; tree of the article "Search Trees: B&minus; Tree" (Algorithmica / en, Sergey
 * Slotin) on 64-bit keys and values.
 *
 * <h2>Layout</h2>
 * Every node is a run of {@code B} keys ({@link #width}: 32 by default, 16 or 64 selectable) in a
 * flat primitive array, padded with {@link #MAXKEY} as the article pads with {@code INT_MAX}; a
 * node is an int id, never an object. Leaves: keys and values in two {@link LongNodeArray}s at the
 * same offsets, nothing else on their lines, so a leaf's keys are exactly {@code B * 8} bytes (four
 * cache lines at B = 32). Inner nodes: keys in a {@link FlatLongNodeArray}, children as int ids in
 * a {@link FlatIntNodeArray} at the same offsets. As in the article, key {@code i} of an inner node
 * is the <em>largest</em> key of child {@code i}'s subtree (a B+-tree stores the smallest of child
 * {@code i+1}), so a search never leaves the leaf it descends to: the rank of the key (how many
 * node keys are below it) is the child to follow, and in a leaf the slot where it is or belongs.
 * A leaf holds at most {@code B-1} keys and an inner node {@code B-2} keys ({@code B-1} children):
 * the free slot takes the new entry before a split, so a split needs no buffer.
 *
 * <h2>What we do not copy</h2>
 * The article's {@code INT_MAX} padding makes {@code INT_MAX} unstorable, and its tree is one
 * pre-allocated array. Here {@code Long.MAX_VALUE} pads and is stored out of band by the shared
 * layer, so every {@code long} is storable; the arrays grow in chunks (leaves) or by doubling
 * (inner nodes, a sixteenth of the bytes), and storage is reserved before a split starts, so an
 * {@code OutOfMemoryError} leaves the tree as it was.
 *
 * <h2>Search and insert</h2>
 * Rank is {@link NodeSearch#rank}: Vector API compares against the broadcast key and
 * {@code trueCount} (four 512-bit compares at B = 32 on AVX-512, eight 256-bit on AVX2), no
 * branch on the keys. Insert shifts the larger keys and values one slot right with
 * {@link NodeSearch#shiftRight}, the article's masked shift. A leaf that reaches {@code B} keys
 * splits in halves and its left half's last key goes up; an inner node that reaches
 * {@code B-1} keys splits around its middle key, which goes up; a full root grows a new one.
 * At the edges of the tree the splits are uneven (ours, as database B-trees split their
 * rightmost page; {@link #edgeOf}): a key above every key of the last leaf (an ascending run,
 * time-ordered keys) goes alone to the new leaf, the leaf keeping its {@code B-1} keys, and the
 * inner nodes above keep {@code B-2} children (of at most {@code B-1}), so the run leaves full nodes
 * behind; a key below every key of the first leaf (a descending run) is the mirror. Anywhere
 * else the halves stay, so random inserts fill as they did.
 *
 * <h2>Delete: lazy</h2>
 * The article leaves delete out. Here delete shifts left, and nodes are never merged or
 * rebalanced: a leaf that empties is freed and removed from its parent (the neighbour to its
 * right takes over its range; for the last child, the one to its left), an inner node left
 * without children goes too, and a root with one child is replaced by it. The defence is the
 * BS-tree paper's, whose trees do the same: a descent costs one node per level whatever the fill,
 * so a lookup after deletes is as fast as before; the price is memory after heavy deletes (never
 * more than the tree had at its largest), which {@link #memoryBytes()} shows. Max-key separators
 * stay correct under deletion: a separator remains an upper bound of its subtree even when the
 * key it copied is gone, so no ancestor is ever rewritten.
 *
 * <h2>Ranges and cursors</h2>
 * The shared layer walks leaves in key order through {@link #leafNext}/{@link #leafPrev}. Two ways
 * are built, as the issue asks to measure: sibling links in an int array apart from the key
 * lines (the default), or none, as the article suggests, with the next leaf found from the
 * ancestors: one descent by the leaf's first key, remembering the deepest ancestor with a child
 * to the right, then leftmost down from it. The ancestors a scan re-reads are the ones it just
 * read, so they are in L1. The constructor's {@code links} chooses (the factories build with
 * links); {@code docs/BENCHMARKS.md} has the measurement that chose the first.
 *
 * <p>Not thread-safe for writes; reads keep no state in fields, so any number of threads may
 * read an unmodified tree.
 */
final class BMinusTree extends LeafChainIndex {
    static final int MAX_HEIGHT = 40;
    /** Where a leaf split happened ({@link #edgeOf}): inside the tree, the right edge, the left edge. */
    private static final int MIDDLE = 0;
    private static final int RIGHT_EDGE = 1;
    private static final int LEFT_EDGE = -1;
    /** The leaf link record: next and previous leaf. */
    private static final int NEXT = 0;
    private static final int PREV = 1;

    /** B: keys per node, 16, 32 or 64. */
    final int width;
    /**
     * Sibling links between leaves ({@code true}, the default), or the next leaf found through the
     * ancestors. A final field, read where a leaf step chooses its way: no virtual call.
     */
    final boolean links;
    private final double bulkFill;

    LongNodeArray leafKeys;
    LongNodeArray leafVals;
    /** Next and previous leaf ({@link #links} only; null otherwise). */
    IntNodeArray leafLinks;
    final NodeIds leafIds = new NodeIds();
    FlatLongNodeArray innerKeys;
    FlatIntNodeArray innerKids;
    final NodeIds innerIds = new NodeIds();
    /**
     * The root: an inner node, or a leaf when {@link #height} is 0. With {@link #links}, the chain's
     * first and last leaf are the shared layer's {@code headLeaf} and {@code tailLeaf}; without, a
     * descent finds them.
     */
    int root;
    int height;

    // Writers' scratch (writes are single-threaded): the path of the last descend().
    private final int[] pathNode = new int[MAX_HEIGHT + 1];
    private final int[] pathPos = new int[MAX_HEIGHT + 1];

    /** An empty tree with sibling links; {@code bulkFill} is recorded for {@link #toString} only. */
    BMinusTree(String name, int width, double bulkFill) {
        this(name, width, bulkFill, true);
    }

    /** An empty tree, with sibling links between leaves or ({@code links} false) without. */
    BMinusTree(String name, int width, double bulkFill, boolean links) {
        super(name);
        if (width != 16 && width != 32 && width != 64) {
            throw new IllegalArgumentException("a B-minus tree node holds 16, 32 or 64 keys, not " + width);
        }
        this.width = width;
        this.links = links;
        this.bulkFill = bulkFill;
        init();
    }

    private void init() {
        // Chunks under half a G1 region: a 2 MiB chunk (8192 leaves of 32 keys) is a humongous
        // object that takes a whole region, measured as 44 heap bytes a key for 23 used.
        leafKeys = LongNodeArray.smallChunks(width, 1);
        leafVals = LongNodeArray.smallChunks(width, 1);
        leafLinks = links ? new IntNodeArray(2, 1) : null;
        leafIds.reset();
        innerKeys = new FlatLongNodeArray(width, 1);
        innerKids = new FlatIntNodeArray(width, 1);
        innerIds.reset();
        int leaf = allocLeaf();
        root = leaf;
        height = 0;
        if (links) {
            chainOne(leaf);
        }
    }

    /** Where a leaf starts in its key chunk and, the arrays being alike, in its value chunk. */
    private int leafOff(int leaf) {
        return leafKeys.offset(leaf);
    }

    private int innerOff(int node) {
        return FlatLongNodeArray.offsetOf(node, width);
    }

    /** Keys in a leaf: the rank of the padding. */
    int leafCount(int leaf) {
        return NodeSearch.rank(leafKeys.chunk(leaf), leafOff(leaf), width, MAXKEY);
    }

    /** Keys in an inner node (children: one more). */
    int innerCount(int node) {
        return NodeSearch.rank(innerKeys.chunk(0), innerOff(node), width, MAXKEY);
    }

    private int kidOff(int node) {
        return FlatIntNodeArray.offsetOf(node, width);
    }

    long innerKey(int node, int i) {
        return innerKeys.chunk(0)[innerOff(node) + i];
    }

    int innerKid(int node, int i) {
        return innerKids.chunk(0)[FlatIntNodeArray.offsetOf(node, width) + i];
    }

    private int link(int leaf, int field) {
        return leafLinks.chunk(leaf)[leafLinks.offset(leaf) + field];
    }

    private void setLink(int leaf, int field, int v) {
        leafLinks.chunk(leaf)[leafLinks.offset(leaf) + field] = v;
    }

    @Override
    protected void setLeafNext(int leaf, int next) {
        checkLinks();
        setLink(leaf, NEXT, next);
    }

    @Override
    protected void setLeafPrev(int leaf, int prev) {
        checkLinks();
        setLink(leaf, PREV, prev);
    }

    /** The chain methods are for a tree with links; one without never calls them. */
    private void checkLinks() {
        if (!links) {
            throw new UnsupportedOperationException(toString() + " keeps no sibling links");
        }
    }

    // ---- allocation ---------------------------------------------------------------------------

    /** A new empty leaf (all padding); with links, the caller puts it in the chain. */
    private int allocLeaf() {
        PackedLeaves.ensure(leafKeys, leafVals, leafLinks, leafIds.needed());
        int leaf = leafIds.next();
        int off = leafOff(leaf);
        Arrays.fill(leafKeys.chunk(leaf), off, off + width, MAXKEY);
        return leaf;
    }

    private int allocInner() {
        long need = innerIds.needed();
        innerKeys.ensureCapacity(need);
        innerKids.ensureCapacity(need);
        int node = innerIds.next();
        int off = innerOff(node);
        Arrays.fill(innerKeys.chunk(0), off, off + width, MAXKEY);
        return node;
    }

    /** Room for a split to finish once it starts: a leaf, and an inner node per level plus a root. */
    private void reserveForSplit() {
        PackedLeaves.checkHeight(this, height, MAX_HEIGHT);
        PackedLeaves.ensure(leafKeys, leafVals, leafLinks, leafIds.needed());
        long inner = innerIds.needed(height + 1);
        innerKeys.ensureCapacity(inner);
        innerKids.ensureCapacity(inner);
    }

    // ---- search -------------------------------------------------------------------------------
    // get, containsKey, put and remove open as the other packed trees' do (Long.MAX_VALUE out of
    // band, a descent, the leaf's key and value chunks) and stay written out in this final class,
    // with the descents: they are the hot paths, and a copy per tree keeps each JIT profile apart.

    /** The article's {@code lower_bound} descent: at each level, the rank is the child. */
    @Override
    protected int findLeaf(long key) {
        long[] ka = innerKeys.chunk(0);
        int[] ca = innerKids.chunk(0);
        int w = width;
        int z = Prefetch.zero();
        int node = root;
        for (int h = height; h > 0; h--) {
            int co = FlatIntNodeArray.offsetOf(node, w);
            int t = (ca[co] | ca[co + (w >> 1)] | ca[co + w - 1]) & z; // every child-id line: see Prefetch
            node = ca[co + t + NodeSearch.rank(ka, FlatLongNodeArray.offsetOf(node, w), w, key)];
        }
        return node;
    }

    /** {@link #findLeaf} for an update: records the path that splits and removals walk back up. */
    private int descend(long key) {
        long[] ka = innerKeys.chunk(0);
        int[] ca = innerKids.chunk(0);
        int w = width;
        int z = Prefetch.zero();
        int node = root;
        for (int h = height; h > 0; h--) {
            int co = FlatIntNodeArray.offsetOf(node, w);
            int t = (ca[co] | ca[co + (w >> 1)] | ca[co + w - 1]) & z; // see Prefetch
            int c = NodeSearch.rank(ka, FlatLongNodeArray.offsetOf(node, w), w, key);
            pathNode[h] = node;
            pathPos[h] = c;
            node = ca[co + c + t];
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
        long[] vc = leafVals.chunk(leaf);
        int off = leafOff(leaf);
        int t = Prefetch.lines(vc, off, width); // the value lines load with the keys'
        int at = off + NodeSearch.rank(kc, off, width, key);
        return kc[at] == key ? vc[at + t] : absent;
    }

    /**
     * The batched look-up's descent: the keys level by level in lock-step, every node's key and
     * child-id lines requested before any is searched (see {@link Prefetch}), then every leaf's
     * key and value lines.
     */
    @Override
    protected void findLeaves(long[] keys, int from, int n, int[] leaves) {
        long[] ka = innerKeys.chunk(0);
        int[] ca = innerKids.chunk(0);
        int w = width;
        int z = Prefetch.zero();
        for (int i = 0; i < n; i++) {
            leaves[i] = root;
        }
        for (int h = height; h > 0; h--) {
            int t = 0;
            for (int i = 0; i < n; i++) {
                int node = leaves[i];
                int co = FlatIntNodeArray.offsetOf(node, w);
                t |= Prefetch.lines(ka, FlatLongNodeArray.offsetOf(node, w), w)
                        | ca[co] | ca[co + (w >> 1)] | ca[co + w - 1];
            }
            t &= z;
            for (int i = 0; i < n; i++) {
                int node = leaves[i];
                long key = Math.min(keys[from + i], MAXKEY - 1);
                leaves[i] = ca[FlatIntNodeArray.offsetOf(node, w) + t
                        + NodeSearch.rank(ka, FlatLongNodeArray.offsetOf(node, w), w, key)];
            }
        }
        PackedLeaves.touch(leaves, n, leafKeys, leafVals, null, w);
    }

    @Override
    protected long leafGet(int leaf, long key, long absent) {
        long[] kc = leafKeys.chunk(leaf);
        int off = leafOff(leaf);
        int at = off + NodeSearch.rank(kc, off, width, key);
        return kc[at] == key ? leafVals.chunk(leaf)[at] : absent;
    }

    @Override
    public boolean containsKey(long key) {
        if (key == MAXKEY) {
            return hasMax;
        }
        int leaf = findLeaf(key);
        long[] kc = leafKeys.chunk(leaf);
        return kc[leafOff(leaf) + NodeSearch.rank(kc, leafOff(leaf), width, key)] == key;
    }

    // ---- insert -------------------------------------------------------------------------------
    // The steps of BPlusTree's (descend, shift in, split, separator into the path's parent, a new
    // root at the top) over other nodes: no counts to keep (a node's count is the rank of its
    // padding), a slot always free so that a split needs no scratch, and the separator that goes
    // up is the left half's largest key, where the B+-tree sends the right half's least.

    @Override
    public long put(long key, long value) {
        if (key == MAXKEY) {
            return putMax(value);
        }
        int leaf = descend(key);
        long[] kc = leafKeys.chunk(leaf);
        long[] vc = leafVals.chunk(leaf);
        int off = leafOff(leaf);
        int w = width;
        int r = NodeSearch.rank(kc, off, w, key) + Prefetch.lines(vc, off, w);
        if (kc[off + r] == key) {
            long previous = vc[off + r];
            vc[off + r] = value;
            return previous;
        }
        boolean full = kc[off + w - 2] != MAXKEY; // B-1 keys: this one fills the spare slot, then a split
        if (full) {
            reserveForSplit(); // may replace a small first chunk: fetch the arrays again
            kc = leafKeys.chunk(leaf);
            vc = leafVals.chunk(leaf);
        }
        NodeSearch.shiftRight(kc, off, r, w);
        NodeSearch.shiftRight(vc, off, r, w);
        kc[off + r] = key;
        vc[off + r] = value;
        size++;
        modCount++;
        if (full) {
            splitLeaf(leaf, r);
        }
        return defaultReturnValue();
    }

    /**
     * Splits a leaf of B keys, the new one at slot {@code r}, in halves; the left half's largest
     * key goes up. At an edge of the tree ({@link #edgeOf}) the split is uneven: a new largest key
     * of the last leaf goes alone to the new leaf, the leaf keeping its B-1 keys; a new smallest
     * key of the first leaf stays alone, its B-1 neighbours moving to the new leaf.
     */
    private void splitLeaf(int leaf, int r) {
        int w = width;
        int edge = edgeOf(r == w - 1, r == 0);
        int keep = edge == RIGHT_EDGE ? w - 1 : edge == LEFT_EDGE ? 1 : w / 2;
        int right = allocLeaf(); // reserved
        long[] kc = leafKeys.chunk(leaf);
        long[] vc = leafVals.chunk(leaf);
        int off = leafOff(leaf);
        int roff = leafOff(right);
        System.arraycopy(kc, off + keep, leafKeys.chunk(right), roff, w - keep);
        System.arraycopy(vc, off + keep, leafVals.chunk(right), roff, w - keep);
        Arrays.fill(kc, off + keep, off + w, MAXKEY);
        if (links) {
            linkAfter(leaf, right);
        }
        insertIntoParent(1, kc[off + keep - 1], right, edge);
    }

    /**
     * Where a full leaf splits: {@link #RIGHT_EDGE} for a new key above every key ({@code atEnd})
     * of the tree's last leaf, the shape of an ascending run (time-ordered keys), so that the
     * leaves it leaves behind are full, not half full, as database B-trees split their rightmost
     * page; {@link #LEFT_EDGE} for the mirror at the first leaf (a descending run); {@link #MIDDLE}
     * anywhere else, the even split, so random inserts fill and run as before (a key at the end
     * of a leaf inside the tree is as likely a random one). Whether the leaf is the last (first)
     * is read from the path of the last descent, the last (first) child at every level, so it
     * needs no links. On the split path only.
     */
    private int edgeOf(boolean atEnd, boolean atStart) {
        boolean last = atEnd;
        boolean first = atStart;
        for (int h = 1; h <= height && (last || first); h++) {
            int c = pathPos[h];
            last &= c == innerCount(pathNode[h]);
            first &= c == 0;
        }
        return last ? RIGHT_EDGE : first ? LEFT_EDGE : MIDDLE;
    }

    /**
     * Adds separator {@code sep} (the largest key left of it) with right child {@code kid} to the
     * path node at level {@code h}: the path went through child c, so the key goes in at c and the
     * child at c + 1, by the same masked shift as a leaf's. {@code edge} is the leaf split's
     * {@link #edgeOf}: at an edge a full node splits so that it keeps B-2 of its B children
     * (ascending: the new node has the last two) or the node the run goes on in has 2
     * (descending), so the inner levels of a run are as dense as its leaves, short of one child:
     * a node of one child and no key would be a shape no other split makes.
     */
    private void insertIntoParent(int h, long sep, int kid, int edge) {
        int w = width;
        if (h > height) {
            int oldRoot = root;
            int node = allocInner(); // reserved
            innerKeys.chunk(0)[innerOff(node)] = sep;
            int[] ca = innerKids.chunk(0);
            int co = kidOff(node);
            ca[co] = oldRoot;
            ca[co + 1] = kid;
            root = node;
            height++;
            return;
        }
        int node = pathNode[h];
        int c = pathPos[h];
        long[] ka = innerKeys.chunk(0);
        int[] ca = innerKids.chunk(0);
        int off = innerOff(node);
        int co = kidOff(node);
        boolean full = ka[off + w - 3] != MAXKEY; // B-2 keys: this one makes B-1, then a split
        NodeSearch.shiftRight(ka, off, c, w);
        ka[off + c] = sep;
        System.arraycopy(ca, co + c + 1, ca, co + c + 2, w - 2 - c);
        ca[co + c + 1] = kid;
        if (!full) {
            return;
        }
        // B-1 keys and B children: the first m+1 children stay with m keys, key m goes up, the
        // other children move right with the keys after it (and the padding slot, w-1). Halves:
        // m = B/2-1. At the right edge (the new key at c = B-2, the end) m = B-3, at the left
        // edge (c = 0) m = 1.
        int m = edge == RIGHT_EDGE && c == w - 2 ? w - 3 : edge == LEFT_EDGE && c == 0 ? 1 : w / 2 - 1;
        int right = allocInner(); // reserved, so the arrays did not move
        int roff = innerOff(right);
        System.arraycopy(ka, off + m + 1, ka, roff, w - m - 1);
        System.arraycopy(ca, co + m + 1, ca, kidOff(right), w - m - 1);
        long up = ka[off + m];
        Arrays.fill(ka, off + m, off + w, MAXKEY);
        insertIntoParent(h + 1, up, right, edge);
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
        int w = width;
        int r = NodeSearch.rank(kc, off, w, key);
        if (kc[off + r] != key) {
            return defaultReturnValue();
        }
        leafIds.reserveReleases(1);
        innerIds.reserveReleases(2 * height + 1);
        long previous = vc[off + r];
        System.arraycopy(kc, off + r + 1, kc, off + r, w - 1 - r);
        System.arraycopy(vc, off + r + 1, vc, off + r, w - 1 - r);
        kc[off + w - 1] = MAXKEY;
        size--;
        modCount++;
        if (kc[off] == MAXKEY && height > 0) {
            removeLeaf(leaf);
        }
        return previous;
    }

    /** Frees an emptied leaf (unlinking it) and removes it from its parent. */
    private void removeLeaf(int leaf) {
        if (links) {
            unlinkLeaf(leaf);
        }
        leafIds.release(leaf);
        removeChild(1);
    }

    /**
     * Removes child {@code c = pathPos[h]} of the path node at level {@code h} with its upper
     * bound, key c (the right neighbour takes its range); the last child goes with the key before
     * it (the left neighbour's range extends). A node left without children goes too; then a root
     * with one child is replaced by it. BPlusTree's removeChild has this shape but drops another
     * key: there key i is the least key of child i+1, so child c goes with key c-1 (child 0 with
     * key 0), and a count is lowered where here the freed slot is padded.
     */
    private void removeChild(int h) {
        int node = pathNode[h];
        int c = pathPos[h];
        int n = innerCount(node);
        if (n == 0) {
            if (h == height) {
                throw new IllegalStateException(toString() + ": the root lost its last child");
            }
            innerIds.release(node);
            removeChild(h + 1);
            return;
        }
        long[] ka = innerKeys.chunk(0);
        int[] ca = innerKids.chunk(0);
        int off = innerOff(node);
        int co = kidOff(node);
        int k = c < n ? c : c - 1;
        System.arraycopy(ka, off + k + 1, ka, off + k, n - k - 1);
        ka[off + n - 1] = MAXKEY;
        System.arraycopy(ca, co + c + 1, ca, co + c, n - c);
        while (height > 0 && innerCount(root) == 0) {
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
    // declares them per tree, the reads of a leaf are PackedLeaves', and leafSuccGE/GT are this
    // tree's rank, kept here beside the descents (this tree's own JIT profile). firstLeaf to
    // leafPrev choose between the links and the walk through the ancestors.

    @Override
    protected int firstLeaf() {
        if (links) {
            return headLeaf;
        }
        int node = root;
        for (int h = height; h > 0; h--) {
            node = innerKid(node, 0);
        }
        return node;
    }

    @Override
    protected int lastLeaf() {
        if (links) {
            return tailLeaf;
        }
        int node = root;
        for (int h = height; h > 0; h--) {
            node = innerKid(node, innerCount(node));
        }
        return node;
    }

    @Override
    protected int leafNext(int leaf) {
        return links ? link(leaf, NEXT) : step(leaf, true);
    }

    @Override
    protected int leafPrev(int leaf) {
        return links ? link(leaf, PREV) : step(leaf, false);
    }

    /**
     * The leaf after (or before) {@code leaf} without links: descend by its first key, keep the
     * deepest ancestor that has a child to that side, and go down the near edge of that child.
     * Only a lone root leaf can be empty, and it has no neighbour.
     */
    private int step(int leaf, boolean forward) {
        long first = leafKeys.chunk(leaf)[leafOff(leaf)];
        if (first == MAXKEY) {
            return NONE;
        }
        long[] ka = innerKeys.chunk(0);
        int[] ca = innerKids.chunk(0);
        int w = width;
        int node = root;
        int turnAt = NONE;
        int turnLevel = 0;
        for (int h = height; h > 0; h--) {
            int off = FlatLongNodeArray.offsetOf(node, w);
            int co = FlatIntNodeArray.offsetOf(node, w);
            int c = NodeSearch.rank(ka, off, w, first);
            if (forward ? c < NodeSearch.rank(ka, off, w, MAXKEY) : c > 0) {
                turnAt = co + (forward ? c + 1 : c - 1);
                turnLevel = h;
            }
            node = ca[co + c];
        }
        if (turnAt == NONE) {
            return NONE;
        }
        node = ca[turnAt];
        for (int h = turnLevel - 1; h > 0; h--) {
            node = ca[FlatIntNodeArray.offsetOf(node, w)
                    + (forward ? 0 : NodeSearch.rank(ka, FlatLongNodeArray.offsetOf(node, w), w, MAXKEY))];
        }
        return node;
    }

    @Override
    protected long leafBitmap(int leaf) {
        return PackedLeaves.bitmap(leafCount(leaf)); // at most B-1 = 63 keys
    }

    @Override
    protected int leafSuccGE(int leaf, long key) {
        return NodeSearch.rank(leafKeys.chunk(leaf), leafOff(leaf), width, key);
    }

    @Override
    protected int leafSuccGT(int leaf, long key) {
        // keys are distinct: the keys <= key are the keys < key, plus key itself if present
        long[] kc = leafKeys.chunk(leaf);
        int off = leafOff(leaf);
        int r = NodeSearch.rank(kc, off, width, key);
        return kc[off + r] == key ? r + 1 : r;
    }

    @Override
    protected long leafKey(int leaf, int slot) {
        return PackedLeaves.key(leafKeys, leaf, slot);
    }

    @Override
    protected long leafValue(int leaf, int slot) {
        return PackedLeaves.value(leafKeys, leafVals, leaf, slot);
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
        return "B=" + width + ", leaves=" + leafIds.inUse() + ", inner=" + innerIds.inUse() + ", height=" + height
                + ", links=" + links + ", bulkFill=" + bulkFill;
    }

    @Override
    public IndexKind kind() {
        return IndexKind.bMinusTree(width);
    }

    @Override
    public long memoryBytes() {
        return PackedLeaves.objectBytes(16) + PackedLeaves.bytes(leafKeys, leafVals, leafLinks) + leafIds.bytes()
                + innerKeys.bytes() + innerKids.bytes() + innerIds.bytes() + PackedLeaves.bytes(pathNode)
                + PackedLeaves.bytes(pathPos);
    }

    @Override
    protected void checkStructure() {
        new BMinusChecker(this).check();
    }

    // ---- bulk load ----------------------------------------------------------------------------

    /**
     * A tree of {@code keys} (strictly ascending; {@code values} may be null for zeros) with
     * leaves holding {@code leafFill} of their {@code B-1} keys and full inner nodes, each level
     * spread evenly so that no node is nearly empty. The loop over leaves is BPlusTree's but for
     * the bound a leaf passes up (its largest key: the max-key rule), no count to record, and the
     * chain, which only a tree with links keeps; the layout is PackedLeaves'.
     */
    static BMinusTree bulkLoad(String name, int width, long[] keys, long[] values, double leafFill) {
        return bulkLoad(name, width, keys, values, leafFill, true);
    }

    /** {@link #bulkLoad(String, int, long[], long[], double)}, with sibling links or without. */
    static BMinusTree bulkLoad(String name, int width, long[] keys, long[] values, double leafFill, boolean links) {
        return bulkLoad(name, width, keys, values, leafFill, links, Arrivals.ALL);
    }

    /** {@link #bulkLoad(String, int, long[], long[], double, boolean)} of input that may still be arriving. */
    static BMinusTree bulkLoad(String name, int width, long[] keys, long[] values, double leafFill, boolean links,
            Arrivals in) {
        PackedLeaves.checkFill(leafFill);
        BMinusTree t = new BMinusTree(name, width, leafFill, links);
        int n = t.acceptBulk(keys, values, in);
        if (n == 0) {
            return t;
        }
        int leaves = PackedLeaves.leavesFor(n, leafFill, width - 1);
        int[] ids = new int[leaves];
        long[] maxs = new long[leaves];
        for (int j = 0, i = 0; j < leaves; j++) {
            int take = PackedLeaves.share(n, leaves, j);
            in.await(i + take);
            int leaf = j == 0 ? t.root : t.allocLeaf();
            PackedLeaves.load(t.leafKeys, t.leafVals, leaf, keys, values, i, take);
            ids[j] = leaf;
            i += take;
            maxs[j] = keys[i - 1];
        }
        if (links) {
            t.chainLeaves(ids, leaves);
        }
        t.height = PackedLeaves.innerLevels(ids, maxs, leaves, width - 1, true, (kids, bounds, from, take) -> {
            int node = t.allocInner(); // all padding
            int off = t.innerOff(node);
            int co = t.kidOff(node);
            long[] ka = t.innerKeys.chunk(0);
            int[] ca = t.innerKids.chunk(0);
            for (int s = 0; s < take; s++) {
                ca[co + s] = kids[from + s];
                if (s < take - 1) {
                    ka[off + s] = bounds[from + s]; // the largest key of the child
                }
            }
            return node;
        });
        t.root = ids[0];
        PackedLeaves.trim(t.leafKeys, t.leafVals, t.leafLinks, t.leafIds.count());
        t.innerKeys.trimTo(t.innerIds.count());
        t.innerKids.trimTo(t.innerIds.count());
        return t;
    }
}
