package org.bforest.csb;

import java.util.Arrays;
import org.bforest.CsbVariant;
import org.bforest.IndexKind;
import org.bforest.LongEntryVisitor;
import org.bforest.kernel.NodeSearch;
import org.bforest.kernel.Prefetch;
import org.bforest.spi.LeafChainIndex;
import org.bforest.spi.PackedLeaves;
import org.bforest.storage.FlatLongNodeArray;
import org.bforest.storage.IntNodeArray;
import org.bforest.storage.LongNodeArray;
import org.bforest.util.Arrivals;

/**
 * The CSB+-trees of Rao and Ross, "Making B+-Trees Cache Conscious in Main Memory" (SIGMOD 2000),
 * all three variants, on 64-bit keys and values.
 *
 * <h2>Layout</h2>
 * A node is {@code S = 8 * lines} longs ({@link #width}; one, two or four cache lines), an int id,
 * never an object. The children of an inner node form one contiguous <em>node group</em> of ids
 * (two in the segmented tree), so an inner node stores one pointer per group instead of one per
 * child: child {@code c} is {@code firstChild + c}. Inner node: {@code K = S - segs} keys, then
 * {@code segs} pointer lanes ({@code segs} = 1, or 2 when segmented), each
 * {@code firstChild << 32 | children in the group}; all in one {@link FlatLongNodeArray}, so the
 * pointer is on the node's own cache line, which is the paper's point. Leaves, the groups of the
 * lowest inner level's children: {@code S} keys in one {@link LongNodeArray} and {@code S} values
 * at the same offsets in another (so the key lines hold keys only), plus next/previous links in
 * an {@link IntNodeArray}. Unused key slots are padded with {@link #MAXKEY}, stored out of band
 * by the shared layer, so every {@code long} is storable; a node's key count is the rank of the
 * padding (inner nodes: the children count in the pointer lanes, minus one).
 *
 * <p>Key {@code i} of an inner node is the <em>largest</em> key of child {@code i}'s subtree (the
 * paper's bulk load fills the upper levels with each child's largest key), so the child to follow
 * is the number of keys below the search key: {@link NodeSearch#rankHead}, a Vector API compare of
 * the whole node against the broadcast key whose last vector is masked to leave the pointer lanes
 * out, and {@code trueCount}. The paper's "uniform" unrolled binary search over padded keys
 * ({@link #rankUnrolled}: {@code log2 S} comparisons, a perfect tree since {@code K + 1} is a power
 * of two) is the alternative, chosen when the tree is made (a constructor parameter, reached
 * through {@link CsbTrees}' package-private factories for measurements and tests); the SIMD rank
 * is the default because it measured faster (docs/ARCHITECTURE.md, "The CSB+-trees in memory").
 *
 * <h2>Node groups</h2>
 * Leaf ids and inner ids each come from a {@link GroupPool}: a high-water mark and free lists by
 * group size, linked through the free nodes themselves (a release never allocates). Unlike the
 * paper's, the pool coalesces: freed neighbours merge, and a free run at the high-water mark
 * lowers it. A pointer lane is {@code firstChild << 32 | offset << 16 | children}; the
 * offset, where a full tree's group starts in its block of {@code S} ids, is 0 in the other
 * variants. A group may straddle two leaf chunks: nodes are addressed by id ({@code chunk(id)}).
 *
 * <h2>Insert: splits as the paper's, per variant</h2>
 * A leaf holds up to {@code S} entries; a full one splits in halves, and its group grows (plain:
 * copied one node larger; segmented: the segment that grows; full: nodes shift inside the block)
 * or, under a full parent, is redistributed over two groups, recursively. The splits and their
 * scratch are {@link CsbSplitter}; {@code put} calls it only for a full leaf. A split that appends
 * past the last key of the last leaf is uneven instead (the old nodes stay full, the new last ones
 * start with the new entry), so ascending inserts keep the tree as dense as a bulk load.
 *
 * <h2>Delete: reclaiming</h2>
 * The entry is removed from its leaf without recording a path; only when that empties the leaf
 * does {@link CsbDeleter} run (the paper's experiments delete lazily and keep empty leaves, which
 * let a window slid over ascending keys grow the tree without bound while its size stayed put).
 * The emptied leaf is unlinked from the chain, its separator removed from the parent and its id
 * given back to the leaf pool; its group closes the gap per variant (plain: one id shorter;
 * segmented: the segment; full: a shift inside the block); a parent left without children goes
 * the same way, and a root with one child is replaced by it, so the height drops. A tree emptied
 * down to its root leaf gets fresh, small storage. Leaves are never merged: every leaf but a
 * lone root leaf holds a key, so the neighbour queries and the walks read no empty leaf.
 *
 * <p>Not thread-safe for writes; reads keep no state in fields, so any number of threads may
 * read an unmodified tree.
 */
final class CsbTree extends LeafChainIndex {
    static final int MAX_HEIGHT = 40;
    /** The descents, one of which a tree picks when it is made ({@link #descent}). */
    private static final int ONE_LANE = 0;
    private static final int TWO_LANES = 1;
    private static final int UNROLLED = 2;
    private static final int NEXT = 0;
    private static final int PREV = 1;

    final CsbVariant variant;
    /** S: longs per node (8 per cache line). */
    final int width;
    /** Pointer lanes per inner node: 1, or 2 when segmented. */
    final int segs;
    /** Key slots per inner node: {@code width - segs}. */
    final int keySlots;
    final boolean full;
    /**
     * The descent: {@link #ONE_LANE} or {@link #TWO_LANES} (the SIMD rank, by the lane count), or
     * {@link #UNROLLED} (the paper's comparison). Chosen once, so a descent reads one final field,
     * as it read the lane count before the unrolled search was a choice per tree.
     */
    private final int descent;

    LongNodeArray leafKeys;
    LongNodeArray leafVals;
    IntNodeArray leafLinks;
    FlatLongNodeArray inner;
    /** The ids of leaves and of inner nodes: high-water marks, free groups, ids in use. */
    GroupPool leafPool;
    GroupPool innerPool;
    /** The root: an inner node (alone in a group of one), or a leaf when {@link #height} is 0. */
    int root;
    int height;

    /** The path of the last recording descent (node and child index a level), for a split. */
    final int[] pathNode = new int[MAX_HEIGHT + 2];
    final int[] pathPos = new int[MAX_HEIGHT + 2];
    /** The splits, with their scratch (writes are single-threaded). */
    private final CsbSplitter splitter;
    /** What gives an emptied leaf back (and what empties above it). */
    private final CsbDeleter deleter;

    CsbTree(String name, CsbVariant variant, int lines) {
        this(name, variant, lines, false);
    }

    /** @param unrolled descend with the paper's unrolled comparison ({@link #rankUnrolled}) instead of the SIMD rank */
    CsbTree(String name, CsbVariant variant, int lines, boolean unrolled) {
        super(name);
        if (lines != 1 && lines != 2 && lines != 4) {
            throw new IllegalArgumentException("a CSB+-tree node is 1, 2 or 4 cache lines, not " + lines);
        }
        this.variant = variant;
        this.width = 8 * lines;
        this.segs = variant == CsbVariant.SEGMENTED ? 2 : 1;
        this.keySlots = width - segs;
        this.full = variant == CsbVariant.FULL;
        this.descent = unrolled ? UNROLLED : segs == 1 ? ONE_LANE : TWO_LANES;
        splitter = new CsbSplitter(this);
        deleter = new CsbDeleter(this, splitter);
        init();
    }

    /**
     * Fresh storage with one empty leaf as the root (a new tree, {@code clear}, and the deleter's
     * compaction of a one-leaf tree). Everything is allocated before a field changes, so an
     * {@code OutOfMemoryError} leaves the tree as it was.
     */
    void init() {
        LongNodeArray keys = LongNodeArray.smallChunks(width, 1);
        LongNodeArray vals = LongNodeArray.smallChunks(width, 1);
        IntNodeArray links = new IntNodeArray(2, 1);
        FlatLongNodeArray in = new FlatLongNodeArray(width, 1);
        GroupPool lp = GroupPool.ofLeaves(this, width, keys, vals, links);
        GroupPool ip = GroupPool.ofInner(this, width, in);
        int leaf = lp.alloc(1); // within the first node's storage; grows the pool's tags
        leafKeys = keys;
        leafVals = vals;
        leafLinks = links;
        inner = in;
        leafPool = lp;
        innerPool = ip;
        clearLeaf(leaf);
        chainOne(leaf);
        root = leaf;
        height = 0;
    }

    // ---- node access ----------------------------------------------------------------------------

    int innerOff(int node) {
        return FlatLongNodeArray.offsetOf(node, width);
    }

    long innerKey(int node, int i) {
        return inner.chunk(0)[innerOff(node) + i];
    }

    /** Pointer lane {@code j} of an inner node: {@code firstChild << 32 | children}. */
    long innerMeta(int node, int j) {
        return inner.chunk(0)[innerOff(node) + keySlots + j];
    }

    static int first(long meta) {
        return (int) (meta >>> 32);
    }

    static int count(long meta) {
        return (int) meta & 0xFFFF;
    }

    /**
     * Where a full tree's group starts in its block of {@code S} ids: its first child less this is
     * the block's first id (0 in the other variants, whose groups are exactly their children).
     */
    static int offset(long meta) {
        return (int) meta >>> 16;
    }

    static long meta(int first, int count) {
        return (long) first << 32 | count;
    }

    static long meta(int first, int offset, int count) {
        return (long) first << 32 | offset << 16 | count;
    }

    /** Children of an inner node (its keys: one fewer). */
    int innerChildren(int node) {
        int n = 0;
        for (int j = 0; j < segs; j++) {
            n += count(innerMeta(node, j));
        }
        return n;
    }

    /**
     * Child {@code c} of an inner node, written plainly and apart from the descent's branch-free
     * {@link #twoLaneChild}: the checker walks the tree with this one, so the two check each other.
     */
    int innerKid(int node, int c) {
        long m0 = innerMeta(node, 0);
        if (segs == 1 || c < count(m0)) {
            return first(m0) + c;
        }
        return first(innerMeta(node, 1)) + c - count(m0);
    }

    int leafCount(int leaf) {
        return NodeSearch.rankHead(leafKeys.chunk(leaf), leafKeys.offset(leaf), width, 0, MAXKEY);
    }

    private int link(int leaf, int field) {
        return leafLinks.chunk(leaf)[leafLinks.offset(leaf) + field];
    }

    private void setLink(int leaf, int field, int v) {
        leafLinks.chunk(leaf)[leafLinks.offset(leaf) + field] = v;
    }

    @Override
    protected void setLeafNext(int leaf, int next) {
        setLink(leaf, NEXT, next);
    }

    @Override
    protected void setLeafPrev(int leaf, int prev) {
        setLink(leaf, PREV, prev);
    }

    private void clearLeaf(int leaf) {
        int off = leafKeys.offset(leaf);
        Arrays.fill(leafKeys.chunk(leaf), off, off + width, MAXKEY);
    }

    // ---- node groups ----------------------------------------------------------------------------

    /** The pool of leaf ids or of inner ids. */
    GroupPool pool(boolean leaves) {
        return leaves ? leafPool : innerPool;
    }

    // ---- search ---------------------------------------------------------------------------------
    // get, containsKey, put and remove open as the other packed trees' do (Long.MAX_VALUE out of
    // band, a descent, the leaf's key and value chunks) and stay written out in this final class,
    // with the descents: they are the hot paths, and a copy per tree keeps each JIT profile apart.

    /** Keys of a leaf below {@code key}: where it is or belongs ({@code S} if after them all). */
    private int leafRank(long[] kc, int off, long key) {
        return switch (width) {
            case 8 -> NodeSearch.rankHead(kc, off, 8, 0, key);
            case 16 -> NodeSearch.rankHead(kc, off, 16, 0, key);
            default -> NodeSearch.rankHead(kc, off, 32, 0, key);
        };
    }

    /**
     * The paper's "uniform" search (section 3.1.2): binary search unfolded into a fixed sequence of
     * comparisons over the padded keys, {@code log2 S} of them (the positions compared form a
     * perfect tree over {@code S - 1} slots); branch-free here. The pointer lanes are compared only
     * when every key is below, hence the clamp to {@code K}.
     */
    int rankUnrolled(long[] a, int off, long key) {
        int p = 0;
        switch (width) {
            case 8 -> {
                p += a[off + 3] < key ? 4 : 0;
                p += a[off + p + 1] < key ? 2 : 0;
                p += a[off + p] < key ? 1 : 0;
            }
            case 16 -> {
                p += a[off + 7] < key ? 8 : 0;
                p += a[off + p + 3] < key ? 4 : 0;
                p += a[off + p + 1] < key ? 2 : 0;
                p += a[off + p] < key ? 1 : 0;
            }
            default -> {
                p += a[off + 15] < key ? 16 : 0;
                p += a[off + p + 7] < key ? 8 : 0;
                p += a[off + p + 3] < key ? 4 : 0;
                p += a[off + p + 1] < key ? 2 : 0;
                p += a[off + p] < key ? 1 : 0;
            }
        }
        return Math.min(p, keySlots);
    }

    /** Child {@code c} of the inner node at {@code off}: first child of its segment plus the offset. */
    private int child(long[] a, int off, int c) {
        return segs == 1 ? first(a[off + keySlots]) + c : twoLaneChild(a, off + keySlots, c);
    }

    /**
     * Child {@code c} of a segmented node whose two pointer lanes are at {@code a[lanes]} and
     * {@code a[lanes + 1]}. Branch-free, since either segment is as likely: the base is the first
     * child of segment 0, or that of segment 1 less segment 0's size, chosen by the sign of
     * {@code s0 - 1 - c}.
     */
    private static int twoLaneChild(long[] a, int lanes, int c) {
        long m0 = a[lanes];
        int s0 = count(m0);
        int inSecond = (s0 - 1 - c) >> 31;
        return (first(m0) ^ ((first(m0) ^ (first(a[lanes + 1]) - s0)) & inSecond)) + c;
    }

    /**
     * The descent, in two copies: one pointer lane (plain and full) and two (segmented). Each copy
     * has its lane count as a constant, so the masks and the child arithmetic fold; one loop that
     * read {@link #segs} measured 35-45% slower on lookups once a JVM had run both kinds of tree
     * (the one compiled loop then serves both, with both profiles). A tree made with the unrolled
     * search has a third, {@link #descendUnrolled}; {@link #descent} says which.
     */
    @Override
    protected int findLeaf(long key) {
        int d = descent;
        if (d == ONE_LANE) {
            return descendOneLane(key, false);
        }
        return d == TWO_LANES ? descendTwoLanes(key, false) : descendUnrolled(key, false);
    }

    /** {@link #findLeaf} recording the path (node and child index per level) for a split or a reclaiming delete. */
    int descend(long key) {
        int d = descent;
        if (d == ONE_LANE) {
            return descendOneLane(key, true);
        }
        return d == TWO_LANES ? descendTwoLanes(key, true) : descendUnrolled(key, true);
    }

    private int descendOneLane(long key, boolean record) {
        long[] a = inner.chunk(0);
        int node = root;
        int w = width;
        for (int h = height; h > 0; h--) {
            int off = FlatLongNodeArray.offsetOf(node, w);
            int c = switch (w) {
                case 8 -> NodeSearch.rankHead(a, off, 8, 1, key);
                case 16 -> NodeSearch.rankHead(a, off, 16, 1, key);
                default -> NodeSearch.rankHead(a, off, 32, 1, key);
            };
            if (record) {
                pathNode[h] = node;
                pathPos[h] = c;
            }
            node = first(a[off + w - 1]) + c;
        }
        return node;
    }

    private int descendTwoLanes(long key, boolean record) {
        long[] a = inner.chunk(0);
        int node = root;
        int w = width;
        for (int h = height; h > 0; h--) {
            int off = FlatLongNodeArray.offsetOf(node, w);
            int c = switch (w) {
                case 8 -> NodeSearch.rankHead(a, off, 8, 2, key);
                case 16 -> NodeSearch.rankHead(a, off, 16, 2, key);
                default -> NodeSearch.rankHead(a, off, 32, 2, key);
            };
            if (record) {
                pathNode[h] = node;
                pathPos[h] = c;
            }
            node = twoLaneChild(a, off + w - 2, c);
        }
        return node;
    }

    /** The descent with the paper's unrolled comparison (a tree made with {@code unrolled}). */
    private int descendUnrolled(long key, boolean record) {
        long[] a = inner.chunk(0);
        int node = root;
        for (int h = height; h > 0; h--) {
            int off = FlatLongNodeArray.offsetOf(node, width);
            int c = rankUnrolled(a, off, key);
            if (record) {
                pathNode[h] = node;
                pathPos[h] = c;
            }
            node = child(a, off, c);
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
        int off = leafKeys.offset(leaf);
        int t = Prefetch.lines(vc, off, width); // the value lines load with the keys (0)
        int r = leafRank(kc, off, key);
        return r < width && kc[off + r] == key ? vc[off + r + t] : absent;
    }

    /**
     * The batched look-up's descent: the keys level by level in lock-step, every node's lines
     * (keys and pointer lanes, one record) requested before any is searched (see {@link Prefetch}),
     * then every leaf's key and value lines. One loop for every kind of tree: it waits on memory,
     * not on the search's arithmetic, so the copies of the single descent are not needed here.
     */
    @Override
    protected void findLeaves(long[] keys, int from, int n, int[] leaves) {
        long[] a = inner.chunk(0);
        int w = width;
        int z = Prefetch.zero();
        for (int i = 0; i < n; i++) {
            leaves[i] = root;
        }
        for (int h = height; h > 0; h--) {
            int t = 0;
            for (int i = 0; i < n; i++) {
                t |= Prefetch.lines(a, FlatLongNodeArray.offsetOf(leaves[i], w), w);
            }
            t &= z;
            for (int i = 0; i < n; i++) {
                int off = FlatLongNodeArray.offsetOf(leaves[i], w) + t;
                long key = Math.min(keys[from + i], MAXKEY - 1);
                int c = descent == UNROLLED ? rankUnrolled(a, off, key) : NodeSearch.rankHead(a, off, w, segs, key);
                leaves[i] = child(a, off, c);
            }
        }
        PackedLeaves.touch(leaves, n, leafKeys, leafVals, null, w);
    }

    @Override
    protected long leafGet(int leaf, long key, long absent) {
        long[] kc = leafKeys.chunk(leaf);
        int off = leafKeys.offset(leaf);
        int r = leafRank(kc, off, key);
        return r < width && kc[off + r] == key ? leafVals.chunk(leaf)[off + r] : absent;
    }

    @Override
    public boolean containsKey(long key) {
        if (key == MAXKEY) {
            return hasMax;
        }
        int leaf = findLeaf(key);
        long[] kc = leafKeys.chunk(leaf);
        int off = leafKeys.offset(leaf);
        int r = leafRank(kc, off, key);
        return r < width && kc[off + r] == key;
    }

    // ---- insert ---------------------------------------------------------------------------------

    @Override
    public long put(long key, long value) {
        if (key == MAXKEY) {
            return putMax(value);
        }
        int leaf = descend(key);
        long[] kc = leafKeys.chunk(leaf);
        long[] vc = leafVals.chunk(leaf);
        int off = leafKeys.offset(leaf);
        int w = width;
        int t = Prefetch.lines(vc, off, width);
        int r = leafRank(kc, off, key) + t;
        if (r < w && kc[off + r] == key) {
            long previous = vc[off + r];
            vc[off + r] = value;
            return previous;
        }
        if (kc[off + w - 1] == MAXKEY) { // room
            System.arraycopy(kc, off + r, kc, off + r + 1, w - 1 - r);
            System.arraycopy(vc, off + r, vc, off + r + 1, w - 1 - r);
            kc[off + r] = key;
            vc[off + r] = value;
        } else {
            splitter.split(leaf, r, key, value); // the path is in pathNode, pathPos
        }
        size++;
        modCount++;
        return defaultReturnValue();
    }

    // ---- the leaf chain as groups move (for CsbSplitter) -----------------------------------------

    /**
     * Links the leaves {@code order[0 .. n)} in that order between {@code prevOut} and {@code nextOut}
     * ({@code NONE}: the chain's end). The CSB+-trees' own chain upkeep, beside the shared
     * {@code linkAfter}: a split gives a whole run of leaves new ids, so the run replaces the old
     * one between the neighbours outside it.
     */
    void relink(int[] order, int n, int prevOut, int nextOut) {
        for (int i = 0; i < n; i++) {
            setLink(order[i], PREV, i == 0 ? prevOut : order[i - 1]);
            setLink(order[i], NEXT, i == n - 1 ? nextOut : order[i + 1]);
        }
        if (prevOut == NONE) {
            headLeaf = order[0];
        } else {
            setLink(prevOut, NEXT, order[0]);
        }
        if (nextOut == NONE) {
            tailLeaf = order[n - 1];
        } else {
            setLink(nextOut, PREV, order[n - 1]);
        }
    }

    /** Makes {@code leaves[0 .. n)} the whole chain (a root leaf's two halves): the shared {@code chainLeaves}. */
    void chainAll(int[] leaves, int n) {
        chainLeaves(leaves, n);
    }

    /** Makes {@code leaf} the whole chain (a collapsed root): the shared {@code chainOne}. */
    void chainSingle(int leaf) {
        chainOne(leaf);
    }

    /** Drops an emptied leaf from the chain (for {@link CsbDeleter}): the shared {@code unlinkLeaf}. */
    void unchain(int leaf) {
        unlinkLeaf(leaf);
    }

    // ---- delete ---------------------------------------------------------------------------------

    @Override
    public long remove(long key) {
        if (key == MAXKEY) {
            return removeMax();
        }
        int leaf = findLeaf(key);
        long[] kc = leafKeys.chunk(leaf);
        long[] vc = leafVals.chunk(leaf);
        int off = leafKeys.offset(leaf);
        int w = width;
        int r = leafRank(kc, off, key) + Prefetch.lines(vc, off, width);
        if (r == w || kc[off + r] != key) {
            return defaultReturnValue();
        }
        long previous = vc[off + r];
        if (kc[off + 1] == MAXKEY) { // its only key: the leaf empties, and the deleter gives it back
            kc[off] = MAXKEY;
            vc[off] = 0;
            size--;
            modCount++;
            deleter.leafEmptied(leaf, key);
            return previous;
        }
        System.arraycopy(kc, off + r + 1, kc, off + r, w - 1 - r);
        System.arraycopy(vc, off + r + 1, vc, off + r, w - 1 - r);
        kc[off + w - 1] = MAXKEY;
        vc[off + w - 1] = 0;
        size--;
        modCount++;
        return previous;
    }

    @Override
    public void clear() {
        init();
        resetCommon();
    }

    // ---- the position SPI -----------------------------------------------------------------------
    // One-line overrides, alike in every packed tree: LeafChainIndex declares them per tree, the
    // reads of a leaf are PackedLeaves', and the leaf searches stay in this final class (own profile).

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
        return link(leaf, NEXT);
    }

    @Override
    protected int leafPrev(int leaf) {
        return link(leaf, PREV);
    }

    @Override
    protected long leafBitmap(int leaf) {
        return PackedLeaves.bitmap(leafCount(leaf)); // the rank of the padding: at most 32 keys
    }

    @Override
    protected int leafSuccGE(int leaf, long key) {
        return NodeSearch.rankHead(leafKeys.chunk(leaf), leafKeys.offset(leaf), width, 0, key);
    }

    @Override
    protected int leafSuccGT(int leaf, long key) {
        long[] kc = leafKeys.chunk(leaf);
        int off = leafKeys.offset(leaf);
        int r = leafRank(kc, off, key);
        return r < width && kc[off + r] == key ? r + 1 : r;
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
        return PackedLeaves.visit(this, leafKeys.chunk(leaf), leafVals.chunk(leaf), leafKeys.offset(leaf), bits,
                visitor, expectedModCount);
    }

    /** Whether the descents use the paper's unrolled comparison (for the tests). */
    boolean searchesUnrolled() {
        return descent == UNROLLED;
    }

    @Override
    protected int descentLevels() {
        return height;
    }

    @Override
    protected String describeShape() {
        return variant + ", S=" + width + ", leaves=" + leafPool.used() + ", inner=" + innerPool.used() + ", height="
                + height;
    }

    @Override
    public IndexKind kind() {
        return IndexKind.csbTree(variant, width / 8);
    }

    @Override
    public long memoryBytes() {
        // the tree's fields, its node arrays, the two pools' list heads and tags, the paths, the
        // split scratch (counted as ten node images of S longs) and the deleter's
        return PackedLeaves.objectBytes(25) + PackedLeaves.bytes(leafKeys, leafVals, leafLinks) + inner.bytes()
                + leafPool.bytes() + innerPool.bytes() + PackedLeaves.bytes(pathNode) + PackedLeaves.bytes(pathPos)
                + (4 + 2 * 2 + 2) * (16 + 8L * width) + deleter.bytes();
    }

    @Override
    protected void checkStructure() {
        new CsbChecker(this).check();
    }

    // ---- bulk load ------------------------------------------------------------------------------

    /**
     * A tree of {@code keys} (strictly ascending; {@code values} may be null for zeros), built level
     * by level as the paper's bulk load ({@link CsbBulkLoad}) once the shared layer has checked the
     * input.
     */
    static CsbTree bulkLoad(String name, CsbVariant variant, int lines, long[] keys, long[] values) {
        return bulkLoad(name, variant, lines, keys, values, false);
    }

    /** {@link #bulkLoad(String, CsbVariant, int, long[], long[])}, descending with {@link #rankUnrolled} if {@code unrolled}. */
    static CsbTree bulkLoad(String name, CsbVariant variant, int lines, long[] keys, long[] values, boolean unrolled) {
        return bulkLoad(name, variant, lines, keys, values, unrolled, Arrivals.ALL);
    }

    /** {@link #bulkLoad(String, CsbVariant, int, long[], long[], boolean)} of input that may still be arriving. */
    static CsbTree bulkLoad(String name, CsbVariant variant, int lines, long[] keys, long[] values, boolean unrolled,
            Arrivals in) {
        CsbTree t = new CsbTree(name, variant, lines, unrolled);
        int n = t.acceptBulk(keys, values, in);
        if (n == 0) {
            return t;
        }
        CsbBulkLoad.build(t, n, keys, values, in);
        return t;
    }
}
