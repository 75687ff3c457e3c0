package org.bforest.olc;

import static org.bforest.kernel.GapSlots.MAXKEY;
import static org.bforest.kernel.GapSlots.N;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.StampedLock;

/**
 * The concurrent BS-tree's state and its node layout: the node storage, the root word, the inner
 * levels' mirror, the out-of-band {@code Long.MAX_VALUE} and the key count; where a node's parts
 * lie; reading a node's version; allocating, fencing and publishing a node. {@link OlcReader} (the
 * reads), {@link OlcWriter} (the writes), {@link OlcBulkLoad}, {@link OlcCursor} and
 * {@link OlcChecker} all address nodes through this one class.
 *
 * <p>Why a base class and not a field of the tree: {@link OlcBSTree} extends it, so the operations
 * (static methods of the reader and the writer, handed the tree) reach every field from the tree
 * itself, as when they were the tree's own methods: a look-up loads no object to get to the
 * mirror, the root word or the chunk directories. Sealed: the tree is its only subclass.
 *
 * <h2>Layout</h2>
 * The BS-tree's 16-slot gapped nodes (an unused slot holds a copy of the next used key, or
 * {@code Long.MAX_VALUE}), in flat primitive arrays addressed by int ids, leaves and inner nodes
 * each in their own family: leaf keys, leaf values, leaf headers ({@link #LH} longs: the
 * {@link VersionLock} word, the bitmap and the fences), inner keys, inner blocks ({@link #IB}
 * ints: the version word, the bitmap, 17 child ids (the leftmost, then the right child of each
 * slot; a gap's is {@link #NONE}) and the level). The arrays are {@link PinnedLongs}/{@link PinnedInts}:
 * a node never moves once published. {@code Long.MAX_VALUE} pads the nodes, so as a key it lives
 * out of band in {@link #maxRecord}, a one-entry node with its own version word. A leaf's header
 * also holds its fences, the key range it is the leaf for. The leaves are chained in key order
 * ({@link #leafLinks}: next and previous leaf), for the neighbour walks: hints that readers check
 * against the fences, exact under the writers' locks (see {@link OlcUnlinker}). Beside the nodes,
 * {@link InnerMirror} keeps a flat copy of the inner levels for look-ups to descend: routing hints
 * that writers keep exact and readers never trust. Emptied leaves and inner nodes left without a
 * child are unlinked ({@link OlcUnlinker}) and their ids reused ({@link NodeRecycler}).
 *
 * <p>Notation as in the BS-tree: {@code k} a chunk, {@code i} a node's index in it, {@code kc},
 * {@code vc}, {@code hc}, {@code cc} the chunks of keys, values, headers and child ids, {@code off},
 * {@code ho}, {@code co} offsets in them, {@code v} a version, {@code h} a level (leaves are 0).
 */
abstract sealed class OlcNodes permits OlcBSTree {
    /** Longs before node 0 in every long chunk, so nodes sit on cache lines (see {@link PinnedLongs#PAD}). */
    static final int PAD = PinnedLongs.PAD;
    /** Child ids per inner node. */
    static final int KIDS = N + 1;
    /**
     * Ints per inner node block: the version word, the bitmap and the 17 child ids, in two cache
     * lines, so that reading a child's version fetches the line its child ids are in anyway. Inner
     * versions are 32 bits: only splits write an inner node, and no node splits 2^30 times.
     */
    static final int IB = 32;
    static final int IV = 0;
    static final int IM = 1;
    static final int KID0 = 2;
    /** The node's level in its block (1 above the leaves), so that the mirror's upkeep knows what its children are. */
    static final int LEVEL = KID0 + KIDS;
    /** Ints before node 0 in every inner block chunk, so blocks sit on cache lines. */
    static final int IPAD = PinnedInts.PAD;
    /** No node: a gap's child. */
    static final int NONE = -1;
    /**
     * Longs per leaf header: the version word, the bitmap, and the leaf's fences: it holds exactly
     * the tree's keys in {@code [LOW, HIGH)} (the first leaf's LOW is {@code Long.MIN_VALUE}, the
     * last one's HIGH {@code Long.MAX_VALUE}, which lives out of band). Two headers a cache line.
     */
    static final int LH = 4;
    static final int VERSION = 0;
    static final int META = 1;
    static final int LOW = 2;
    static final int HIGH = 3;
    /** Ints per leaf in {@link #leafLinks}: the next leaf in key order, the previous one (NONE at the ends). */
    static final int LL = 2;
    static final int NEXT = 0;
    static final int PREV = 1;
    /**
     * Tries through the mirror that may fail in a row (a race with a split, or a stale path) before
     * a look-up or a write takes the lock-coupled descent, which cannot be sent astray.
     */
    static final int FAST_TRIES = 4;
    /** Failed unvalidated reads in a row after which a read is taken to be a bug, not a race. */
    private static final int MAX_FAILED_READS = 1 << 20;

    final PinnedLongs leafKeys = new PinnedLongs(N);
    final PinnedLongs leafVals = new PinnedLongs(N);
    final PinnedLongs leafHdr = new PinnedLongs(LH);
    final PinnedLongs innerKeys = new PinnedLongs(N);
    /** Inner node blocks of {@link #IB} ints: version, bitmap, child ids, level. */
    final PinnedInts innerKids = new PinnedInts(IB);
    /**
     * The leaf chain, {@link #LL} ints a leaf, apart from the headers so that look-ups never load
     * it. A leaf's NEXT is written only under its own lock, its PREV only under the lock of the
     * leaf before it (or while the leaf is unpublished): see {@link OlcUnlinker}.
     */
    final PinnedInts leafLinks = new PinnedInts(LL);
    /** Leaf ids handed out so far (the storage's high-water mark; freed ids are reused first). */
    final AtomicInteger leafCount = new AtomicInteger();
    /** Inner node ids handed out so far, as {@link #leafCount}. */
    final AtomicInteger innerCount = new AtomicInteger();
    /**
     * The first and the last leaf in key order: hints for {@code firstKey()} and {@code lastKey()},
     * which take the leaf only if its LOW fence is {@code Long.MIN_VALUE} (its HIGH MAXKEY) at a
     * version they validate, so that a queue's head costs no descent. Written, plain, only under
     * the lock of the leaf that stops being first (last): a split of the last leaf, an unlink of
     * the first or the last.
     */
    int firstLeaf;
    int lastLeaf;
    /** Freed node ids and the unlinks put off (see {@link NodeRecycler}). */
    final NodeRecycler recycler = new NodeRecycler();
    /** {@code height << 32 | root}; the root is a leaf id when the height is 0. */
    volatile long rootWord;
    /** Keys in the tree, {@code Long.MAX_VALUE}'s included. */
    final LongAdder size = new LongAdder();
    /** The out-of-band {@code Long.MAX_VALUE}: version word, present (0 or 1), value. */
    final long[] maxRecord = new long[3];
    /** The inner levels' routing copy that look-ups descend (see {@link InnerMirror}). */
    volatile InnerMirror mirror = new InnerMirror(16);
    /**
     * Read-held by every section that changes inner nodes (and writes them to the mirror), write-held
     * while the mirror is replaced by a larger one: the copy then sees no inner node mid-change, so
     * it starts exact and every later change is written to it (see {@link OlcWriter}).
     */
    final StampedLock mirrorLock = new StampedLock();

    /** An empty tree: one empty leaf. */
    OlcNodes() {
        int leaf = newLeaf();
        setFences(leaf, Long.MIN_VALUE, MAXKEY);
        setLinks(leaf, NONE, NONE);
        publishLeaf(leaf);
        firstLeaf = leaf;
        lastLeaf = leaf;
        rootWord = leaf;
    }

    // ---- node access ----------------------------------------------------------------------------

    static int chunk(int id) {
        return Pinned.chunkOf(id);
    }

    /** Node {@code id}'s index in its chunk. */
    static int index(int id) {
        return Pinned.indexIn(id);
    }

    /** Where node {@code id}'s 16 keys (or values) start in its chunk. */
    static int keyOffset(int id) {
        return PAD + (id & Pinned.INDEX_MASK) * N;
    }

    /** Where inner node {@code id}'s block (version, bitmap, child ids) starts in its chunk. */
    static int blockOffset(int id) {
        return IPAD + (id & Pinned.INDEX_MASK) * IB;
    }

    /** Where leaf {@code id}'s header (version, bitmap, fences) starts in its chunk. */
    static int leafHdrOffset(int id) {
        return PAD + (id & Pinned.INDEX_MASK) * LH;
    }

    /** Where leaf {@code id}'s links (next, previous) start in its chunk of {@link #leafLinks}. */
    static int linkOffset(int id) {
        return PinnedInts.PAD + (id & Pinned.INDEX_MASK) * LL;
    }

    final int nextLeaf(int leaf) {
        return leafLinks.chunk(chunk(leaf))[linkOffset(leaf) + NEXT];
    }

    final int prevLeaf(int leaf) {
        return leafLinks.chunk(chunk(leaf))[linkOffset(leaf) + PREV];
    }

    /** Sets a leaf's NEXT (its own lock held, or unpublished). */
    final void setNext(int leaf, int next) {
        leafLinks.chunk(chunk(leaf))[linkOffset(leaf) + NEXT] = next;
    }

    /** Sets a leaf's PREV (the lock of the leaf before it held, or unpublished). */
    final void setPrev(int leaf, int prev) {
        leafLinks.chunk(chunk(leaf))[linkOffset(leaf) + PREV] = prev;
    }

    final void setLinks(int leaf, int next, int prev) {
        int[] lc = leafLinks.chunk(chunk(leaf));
        int lo = linkOffset(leaf);
        lc[lo + NEXT] = next;
        lc[lo + PREV] = prev;
    }

    final long leafLow(int leaf) {
        return leafHdr.chunk(chunk(leaf))[leafHdrOffset(leaf) + LOW];
    }

    final long leafHigh(int leaf) {
        return leafHdr.chunk(chunk(leaf))[leafHdrOffset(leaf) + HIGH];
    }

    /** A leaf's bitmap of used slots. */
    final int leafBits(int leaf) {
        return (int) leafHdr.chunk(chunk(leaf))[leafHdrOffset(leaf) + META];
    }

    /** An inner node's bitmap of used slots (0: it has only its leftmost child). */
    final int innerBits(int node) {
        return innerKids.chunk(chunk(node))[blockOffset(node) + IM];
    }

    /** An inner node's child {@code c} (0: the leftmost; {@code s + 1}: the right child of slot s). */
    final int innerKid(int node, int c) {
        return innerKids.chunk(chunk(node))[blockOffset(node) + KID0 + c];
    }

    final long leafVersion(int leaf) {
        return VersionLock.read(leafHdr.chunk(chunk(leaf)), leafHdrOffset(leaf) + VERSION);
    }

    final long innerVersion(int node) {
        return VersionLock.read(innerKids.chunk(chunk(node)), blockOffset(node) + IV);
    }

    final boolean leafValid(int leaf, long v) {
        return VersionLock.valid(leafHdr.chunk(chunk(leaf)), leafHdrOffset(leaf) + VERSION, v);
    }

    final boolean innerValid(int node, long v) {
        return VersionLock.valid(innerKids.chunk(chunk(node)), blockOffset(node) + IV, v);
    }

    /** The current inner-level mirror (for the checker and the tests). */
    final InnerMirror mirror() {
        return mirror;
    }

    final int root() {
        return (int) rootWord;
    }

    final int rootHeight() {
        return (int) (rootWord >>> 32);
    }

    /** The number of keys: exact when no update is running, an estimate while one is. */
    final long count() {
        return Math.max(0, size.sum());
    }

    /**
     * One more failed unvalidated read: returns the new count, or rethrows once reads have failed
     * so often in a row that a concurrent writer cannot explain it.
     */
    static int failedRead(RuntimeException e, int failures) {
        if (++failures >= MAX_FAILED_READS) {
            throw new IllegalStateException("concurrent BS-tree: " + failures
                    + " optimistic reads in a row failed; this is a bug, please report it", e);
        }
        Thread.onSpinWait();
        return failures;
    }

    // ---- allocation -----------------------------------------------------------------------------

    /**
     * An unpublished leaf, keys all MAXKEY: a freed one if there is one (still locked and obsolete,
     * see {@link NodeRecycler}), else a fresh one (version 0). The caller writes its keys, values,
     * bitmap, fences and links, then {@link #publishLeaf}s it; until then no reader or writer can
     * validate or lock it.
     */
    final int newLeaf() {
        int id = recycler.takeLeaf();
        if (id == NONE) {
            id = Pinned.allocate(leafCount);
            leafKeys.ensure(id);
            leafVals.ensure(id);
            leafHdr.ensure(id);
            leafLinks.ensure(id);
        }
        int off = keyOffset(id);
        Arrays.fill(leafKeys.chunk(chunk(id)), off, off + N, MAXKEY);
        return id;
    }

    /** Sets a leaf's fences: it holds the keys in {@code [low, high)}. Locked or unpublished leaves only. */
    final void setFences(int leaf, long low, long high) {
        long[] hc = leafHdr.chunk(chunk(leaf));
        int ho = leafHdrOffset(leaf);
        hc[ho + LOW] = low;
        hc[ho + HIGH] = high;
    }

    /**
     * Publishes a fresh leaf whose keys, values and fences are written: its version goes from 0 to
     * {@link VersionLock#STEP} with a release store, so a reader that reaches it by an unvalidated
     * path (see {@link OlcReader#lookup}) and acquires a non-zero version sees all of it; a reader
     * that still sees 0 restarts.
     */
    final void publishLeaf(int leaf) {
        VersionLock.publish(leafHdr.chunk(chunk(leaf)), leafHdrOffset(leaf));
    }

    /**
     * An unlinked inner node at {@code level}: keys all MAXKEY, children NONE, bitmap 0. A freed one
     * if there is one (still locked and obsolete, see {@link NodeRecycler}), else a fresh one
     * (version 0). The caller fills it, then {@link #publishInner}s it before it links it.
     */
    final int newInner(int level) {
        int id = recycler.takeInner();
        if (id == NONE) {
            id = Pinned.allocate(innerCount);
            innerKeys.ensure(id);
            innerKids.ensure(id);
        }
        int k = chunk(id);
        int off = keyOffset(id);
        Arrays.fill(innerKeys.chunk(k), off, off + N, MAXKEY);
        int co = blockOffset(id);
        int[] cc = innerKids.chunk(k);
        Arrays.fill(cc, co + KID0, co + KID0 + KIDS, NONE);
        cc[co + IM] = 0;
        cc[co + LEVEL] = level;
        return id;
    }

    /**
     * Makes a filled inner node lockable before it is linked: version 0 (fresh) or obsolete (reused)
     * to the next multiple of 4. Readers reach an inner node only through its parent or the root
     * word, both written after this (a release store each), so they acquire its contents.
     */
    final void publishInner(int node) {
        VersionLock.publish(innerKids.chunk(chunk(node)), blockOffset(node) + IV);
    }

    // ---- answers without allocating -------------------------------------------------------------

    /*
     * A look-up, a put and a delete must say both whether the key was there and its value without
     * allocating: they return the value, except that an absent key returns ABSENT_MARK; a value
     * that happens to equal one of the marks is returned as ESCAPED_MARK, with the value in a
     * thread-local cell that previous() reads back, so the decoding is exact.
     */
    static final long ABSENT_MARK = Long.MIN_VALUE + 0x5eed_0b5e_77eeL;
    static final long ESCAPED_MARK = ABSENT_MARK + 1;
    /** {@link OlcWriter#mirroredWrite} could not: the caller takes the lock-coupled way. Never returned to a user. */
    static final long FALLBACK_MARK = ABSENT_MARK + 2;
    private static final ThreadLocal<long[]> ESCAPED = ThreadLocal.withInitial(() -> new long[1]);

    /** The encoded form of a value that was there. */
    static long encodePrevious(long previous) {
        if (previous == ABSENT_MARK || previous == ESCAPED_MARK || previous == FALLBACK_MARK) {
            ESCAPED.get()[0] = previous;
            return ESCAPED_MARK;
        }
        return previous;
    }

    /** The value an encoded answer other than ABSENT_MARK stands for. */
    static long previous(long r) {
        return r == ESCAPED_MARK ? ESCAPED.get()[0] : r;
    }
}
