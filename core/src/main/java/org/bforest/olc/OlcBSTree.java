package org.bforest.olc;

import static org.bforest.kernel.GapSlots.FULL;
import static org.bforest.kernel.GapSlots.MAXKEY;
import static org.bforest.kernel.GapSlots.N;
import static org.bforest.kernel.GapSlots.bitsBelow;
import static org.bforest.kernel.GapSlots.bitsFrom;
import static org.bforest.kernel.GapSlots.highestBit;

import java.util.Arrays;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.StampedLock;
import org.bforest.LongCursor;
import org.bforest.LongEntryVisitor;
import org.bforest.LongIndex;
import org.bforest.kernel.GapSlots;
import org.bforest.util.BatchArguments;
import org.bforest.kernel.NodeSearch;
import org.bforest.spi.InvariantCheckable;
import org.bforest.util.SortedInput;

/**
 * The concurrent BS-tree: the gapped, data-parallel B+-tree of Tsitsigkos et al. (BS-tree paper,
 * shared/papers/bs-tree-gapped-data-parallel.md) made safe for any number of threads with
 * optimistic lock coupling, as the paper's section 7 does.
 *
 * <h2>Layout</h2>
 * The BS-tree's 16-slot gapped nodes (an unused slot holds a copy of the next used key, or
 * {@code Long.MAX_VALUE}), in flat primitive arrays addressed by int ids, leaves and inner nodes
 * each in their own family: leaf keys, leaf values, leaf headers ({@link #LH} longs: the
 * {@link VersionLock} word and the bitmap), inner keys, inner child ids (17: the leftmost, then
 * the right child of each slot; a gap's is {@link #NONE}), inner headers. The arrays are
 * {@link PinnedLongs}/{@link PinnedInts}: a node never moves once published. {@code Long.MAX_VALUE}
 * pads the nodes, so as a key it lives out of band in {@link #maxRecord}, a one-entry node with
 * its own version word. A leaf's header also holds its fences, the key range it is the leaf for.
 * Beside the nodes, {@link InnerMirror} keeps a flat copy of the inner levels for look-ups to
 * descend: routing hints that writers keep exact and readers never trust.
 *
 * <h2>Synchronization</h2>
 * Every node has a version-and-lock word. Readers take no lock: they read a node's version, read
 * the node, read the child's version, then check that the node's version has not moved (lock
 * coupling), and restart from the root if it has; a leaf's answer counts only once its version is
 * validated. Look-ups, updates, inserts that need no split and deletes first try a shorter way
 * ({@link #lookup}, {@link #insert}): the mirror's inner levels without any validation, then the
 * leaf validated (or locked from the version read) and its fences checked, which makes the leaf
 * the key's leaf however it was reached; they fall back to lock coupling after a few failed tries. An exception thrown by a read that is not yet validated (a torn node can hold any
 * child id) is a restart, never an answer. Writers lock only the nodes they change, by a
 * compare-and-set from the version they read, so a lock is taken only on a node that is exactly
 * as read. Inserts split a full inner node when they pass it (locking it and its parent, then
 * restarting), so the parent of a leaf always has a free slot; a full leaf then splits and hands
 * its separator to the parent at once, without a restart: the paper's relaxation of OLC for
 * gapped nodes. Deletes clear their slot (Algorithm 5); nodes are never merged or freed, so no
 * reader can ever land in a reused node: an emptied leaf stays in the tree and takes later
 * inserts into its key range.
 *
 * <p>{@code get}, {@code put}, {@code remove}, {@code containsKey} and the neighbour queries are
 * linearizable: a neighbour query that crosses leaves validates every leaf it read at the end, so
 * its answer held at one instant. Cursors, {@code rangeCount}, {@code rangeVisit} and
 * {@code forEach} are weakly consistent, as {@code ConcurrentSkipListMap}'s iterators: each leaf
 * is read at one instant, a key present for the whole walk is seen exactly once, a key added or
 * removed meanwhile may or may not be; they never throw {@code ConcurrentModificationException}.
 * {@code size()} is exact when no update is running and an estimate while one is.
 * {@code clear()} removes the keys one by one (not atomic, as {@code ConcurrentSkipListMap}'s).
 *
 * <p>Notation as in the BS-tree: {@code k} a chunk, {@code i} a node's index in it, {@code kc},
 * {@code vc}, {@code hc}, {@code cc} the chunks of keys, values, headers and child ids, {@code off},
 * {@code ho}, {@code co} offsets in them, {@code v} a version, {@code h} a level (leaves are 0).
 */
final class OlcBSTree implements LongIndex, InvariantCheckable {
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
    /** The node's level in its block (1 above the leaves), so that {@link #mirrorNode} knows what its children are. */
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
    /**
     * Fast look-ups that may fail in a row (a race with a split, or a stale path) before a look-up
     * takes the lock-coupled descent, which cannot be sent astray.
     */
    private static final int FAST_TRIES = 4;
    /** Keys per leaf at bulk load: the paper's 75%. */
    static final int BULK_LEAF_KEYS = 12;
    /**
     * Always 0, but not {@code final}, so the JIT cannot fold {@code x & touch} away: a load whose
     * result is and-ed with it stays in the code and, its address not depending on the node
     * search, is issued at once, so the child-id or value lines arrive with the keys instead of
     * after them (Java's stand-in for the paper's {@code __builtin_prefetch}).
     */
    @SuppressWarnings("FieldMayBeFinal")
    static int touch = 0;
    /** Failed unvalidated reads in a row after which a read is taken to be a bug, not a race. */
    private static final int MAX_FAILED_READS = 1 << 20;

    final PinnedLongs leafKeys = new PinnedLongs(N);
    final PinnedLongs leafVals = new PinnedLongs(N);
    final PinnedLongs leafHdr = new PinnedLongs(LH);
    final PinnedLongs innerKeys = new PinnedLongs(N);
    /** Inner node blocks of {@link #IB} ints: version, bitmap, child ids. */
    final PinnedInts innerKids = new PinnedInts(IB);
    final AtomicInteger leafCount = new AtomicInteger();
    final AtomicInteger innerCount = new AtomicInteger();
    /** {@code height << 32 | root}; the root is a leaf id when the height is 0. */
    private volatile long rootWord;
    private final LongAdder size = new LongAdder();
    /** The out-of-band {@code Long.MAX_VALUE}: version word, present (0 or 1), value. */
    final long[] maxRecord = new long[3];
    private volatile long defaultReturnValue;
    /** The inner levels' routing copy that look-ups descend (see {@link InnerMirror}). */
    private volatile InnerMirror mirror = new InnerMirror(16);
    /**
     * Read-held by every section that changes inner nodes (and writes them to the mirror), write-held
     * while the mirror is replaced by a larger one: the copy then sees no inner node mid-change, so
     * it starts exact and every later change is written to it.
     */
    private final StampedLock mirrorLock = new StampedLock();

    /** An empty tree: one empty leaf. */
    OlcBSTree() {
        int leaf = newLeaf();
        setFences(leaf, Long.MIN_VALUE, MAXKEY);
        publishLeaf(leaf);
        rootWord = leaf;
    }

    // ---- node access ----------------------------------------------------------------------------

    static int chunk(int id) {
        return Pinned.chunkOf(id);
    }

    static int index(int id, int k) {
        return Pinned.indexIn(id, k);
    }

    /** Where node {@code id}'s 16 keys (or values) start in its chunk. */
    static int keyOffset(int id) {
        return PAD + (id & Pinned.INDEX_MASK) * N;
    }

    /** Where inner node {@code id}'s block (version, bitmap, child ids) starts in its chunk. */
    static int blockOffset(int id) {
        return IPAD + (id & Pinned.INDEX_MASK) * IB;
    }

    /** Where leaf {@code id}'s header (version, bitmap) starts in its chunk. */
    static int leafHdrOffset(int id) {
        return PAD + (id & Pinned.INDEX_MASK) * LH;
    }

    long leafVersion(int leaf) {
        int k = chunk(leaf);
        return VersionLock.read(leafHdr.chunk(k), PAD + index(leaf, k) * LH + VERSION);
    }

    long innerVersion(int node) {
        int k = chunk(node);
        return VersionLock.read(innerKids.chunk(k), IPAD + index(node, k) * IB + IV);
    }

    /** The version of node {@code id} at level {@code h}. */
    private long version(int id, int h) {
        return h == 0 ? leafVersion(id) : innerVersion(id);
    }

    boolean leafValid(int leaf, long v) {
        int k = chunk(leaf);
        return VersionLock.valid(leafHdr.chunk(k), PAD + index(leaf, k) * LH + VERSION, v);
    }

    /** The current inner-level mirror (for the checker). */
    InnerMirror mirror() {
        return mirror;
    }

    int root() {
        return (int) rootWord;
    }

    int rootHeight() {
        return (int) (rootWord >>> 32);
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

    /** A fresh, unpublished leaf: keys all MAXKEY, values 0, version 0, no slot used. */
    private int newLeaf() {
        int id = Pinned.allocate(leafCount);
        leafKeys.ensure(id);
        leafVals.ensure(id);
        leafHdr.ensure(id);
        int k = chunk(id);
        int off = PAD + index(id, k) * N;
        Arrays.fill(leafKeys.chunk(k), off, off + N, MAXKEY);
        return id;
    }

    /** Sets a leaf's fences: it holds the keys in {@code [low, high)}. Locked or unpublished leaves only. */
    private void setFences(int leaf, long low, long high) {
        long[] hc = leafHdr.chunk(chunk(leaf));
        int ho = leafHdrOffset(leaf);
        hc[ho + LOW] = low;
        hc[ho + HIGH] = high;
    }

    /**
     * Publishes a fresh leaf whose keys, values and fences are written: its version goes from 0 to
     * {@link VersionLock#STEP} with a release store, so a reader that reaches it by an unvalidated
     * path (see {@link #lookup}) and acquires a non-zero version sees all of it; a reader that
     * still sees 0 restarts.
     */
    private void publishLeaf(int leaf) {
        VersionLock.publish(leafHdr.chunk(chunk(leaf)), leafHdrOffset(leaf));
    }

    /** A fresh, unpublished inner node: keys all MAXKEY, children NONE, version 0. */
    private int newInner(int level) {
        int id = Pinned.allocate(innerCount);
        innerKeys.ensure(id);
        innerKids.ensure(id);
        int k = chunk(id);
        int i = index(id, k);
        Arrays.fill(innerKeys.chunk(k), PAD + i * N, PAD + i * N + N, MAXKEY);
        int co = IPAD + i * IB + KID0;
        Arrays.fill(innerKids.chunk(k), co, co + KIDS, NONE);
        innerKids.chunk(k)[IPAD + i * IB + LEVEL] = level;
        return id;
    }

    // ---- look-ups -------------------------------------------------------------------------------

    @Override
    public long get(long key, long absent) {
        long r = lookup(key);
        return r == ABSENT_MARK ? absent : previous(r);
    }

    @Override
    public boolean containsKey(long key) {
        return lookup(key) != ABSENT_MARK;
    }

    /**
     * The encoded value of {@code key} (see {@link #ABSENT_MARK}), ABSENT_MARK if it is not there.
     *
     * <p>The fast path validates only the leaf: it descends the inner levels with plain reads and
     * no version checks, then reads the leaf's version (acquire), its keys, value and fences, and
     * answers if the version is unchanged and {@code key} lies within the fences. That answer is
     * exact however the leaf was reached: a leaf holds all of the tree's keys within its fences
     * at every version a reader can validate (a split moves keys out only while both halves are
     * locked or unpublished, and narrows the fences in the same locked section), leaves are never
     * freed or reused, and a leaf created by a split becomes readable only through
     * {@link #publishLeaf}'s release store, after its contents. The inner levels may be read torn,
     * or stale, or before a new node's contents are visible: Java's int reads are atomic, so every
     * child id read is one that was written (or the initial 0), and the worst a bad id does is
     * lead to the wrong leaf (the fences say so, and the look-up tries again) or out of bounds (an
     * exception caught as a failed try). So the descent costs what the plain BS-tree's does, which
     * matters because a look-up's speed at 10M keys is how many of them the core overlaps, and
     * that is set by the instructions a look-up takes (docs/BENCHMARKS.md, the single-thread gap).
     * After {@link #FAST_TRIES} failures in a row, the look-up takes the lock-coupled descent.
     */
    private long lookup(long key) {
        if (key == MAXKEY) {
            return maxLookup();
        }
        for (int tries = FAST_TRIES; tries > 0; tries--) {
            try {
                int node = routeLeaf(key);
                int z = touch;
                int k = chunk(node);
                int ho = leafHdrOffset(node);
                int off = keyOffset(node);
                long[] hc = leafHdr.chunk(k);
                long[] kc = leafKeys.chunk(k);
                long[] vc = leafVals.chunk(k);
                int t = (int) ((vc[off] | vc[off + N / 2]) & z);
                long v = VersionLock.read(hc, ho + VERSION);
                int q = NodeSearch.succGT(kc, off, key) + t;
                boolean found = q != 0 && kc[off + q - 1] == key;
                long value = found ? vc[off + q - 1] : 0;
                boolean owns = hc[ho + LOW] <= key && key < hc[ho + HIGH];
                if (owns && VersionLock.isReadable(v) && VersionLock.valid(hc, ho + VERSION, v)) {
                    return found ? encodePrevious(value) : ABSENT_MARK;
                }
            } catch (IndexOutOfBoundsException | NullPointerException e) {
                // a bad child id from a node read mid-change: a failed try
            }
            Thread.onSpinWait();
        }
        return coupledLookup(key);
    }

    /**
     * The leaf the mirror routes {@code key} to: a hint, which the caller checks against the leaf's
     * version and fences (see {@link #lookup}). A torn or stale mirror can make it throw an index
     * exception, which the caller counts as a failed try.
     */
    private int routeLeaf(long key) {
        InnerMirror m = mirror;
        long[] mk = m.keys;
        int[] mc = m.kids;
        int last = m.lastKid(0);
        long rw = rootWord;
        int node = (int) rw;
        int h = (int) (rw >>> 32);
        if (h == 0) {
            return node;
        }
        int z = touch;
        // Mirror slots down to the last inner level, whose children are leaf ids.
        int s = Pinned.denseOf(node);
        for (; h > 0; h--) {
            int ko = InnerMirror.kidOffset(s);
            // Start the children's line's load with the keys' (see touch).
            int t = mc[ko] & z;
            int c = NodeSearch.succGT(mk, InnerMirror.keyOffset(s), key) + t;
            s = mc[c < InnerMirror.LINE ? ko + c : last + s];
        }
        return s;
    }

    /** {@link #lookup} by optimistic lock coupling: every level validated before its child is used. */
    private long coupledLookup(long key) {
        int failures = 0;
        restart:
        for (;;) {
            try {
                long rw = rootWord;
                int node = (int) rw;
                int h = (int) (rw >>> 32);
                // The directories are read once an attempt (volatile reads are barriers the JIT
                // cannot move loads across), then indexed on every level.
                long[][] ikd = innerKeys.directory();
                int[][] ibd = innerKids.directory();
                long[][] lhd = leafHdr.directory();
                long v = h == 0 ? VersionLock.read(lhd[chunk(node)], leafHdrOffset(node))
                        : VersionLock.read(ibd[chunk(node)], blockOffset(node));
                if (VersionLock.isLocked(v) || rootWord != rw) {
                    Thread.onSpinWait();
                    continue;
                }
                int z = touch;
                // Levels above the last inner one: each child is an inner node. The loop keeps
                // only the node id and its version live, so the JIT has registers for the rest.
                for (; h > 1; h--) {
                    int[] cc = ibd[chunk(node)];
                    int co = blockOffset(node);
                    // Start the child-id lines' loads with the keys' (see touch).
                    int t = (cc[co] | cc[co + IB / 2]) & z;
                    int c = NodeSearch.succGT(ikd[chunk(node)], keyOffset(node), key);
                    int child = cc[co + KID0 + c + t];
                    long cv = VersionLock.read(ibd[chunk(child)], blockOffset(child));
                    if (!VersionLock.valid(cc, co + IV, v) || VersionLock.isLocked(cv)) {
                        continue restart;
                    }
                    node = child;
                    v = cv;
                }
                if (h == 1) {
                    // The last inner level: the child is a leaf.
                    int[] cc = ibd[chunk(node)];
                    int co = blockOffset(node);
                    int t = (cc[co] | cc[co + IB / 2]) & z;
                    int c = NodeSearch.succGT(ikd[chunk(node)], keyOffset(node), key);
                    int child = cc[co + KID0 + c + t];
                    long cv = VersionLock.read(lhd[chunk(child)], leafHdrOffset(child));
                    if (!VersionLock.valid(cc, co + IV, v) || VersionLock.isLocked(cv)) {
                        continue;
                    }
                    node = child;
                    v = cv;
                }
                int k = chunk(node);
                int off = keyOffset(node);
                long[] kc = leafKeys.chunk(k);
                long[] vc = leafVals.chunk(k);
                int t = (int) ((vc[off] | vc[off + N / 2]) & z);
                int q = NodeSearch.succGT(kc, off, key) + t;
                boolean found = q != 0 && kc[off + q - 1] == key;
                long value = found ? vc[off + q - 1] : 0;
                if (!VersionLock.valid(lhd[k], leafHdrOffset(node), v)) {
                    continue;
                }
                return found ? encodePrevious(value) : ABSENT_MARK;
            } catch (IndexOutOfBoundsException | NullPointerException e) {
                failures = failedRead(e, failures);
            }
        }
    }

    /** Keys descended in lock-step by {@link #getAll}: enough to overlap their misses, few enough to stay cheap. */
    private static final int BATCH = 16;

    /**
     * Batched look-up: descends up to {@value #BATCH} keys level by level, so their cache misses
     * overlap instead of forming one chain a key (what the plain BS-tree's {@code getAll} does; a
     * single {@link #get} cannot, see docs/BENCHMARKS.md on the single-thread gap). Every key's
     * path is read and validated as {@link #get} reads it; a key whose validation fails is looked
     * up again alone. Each answer is linearizable by itself; the batch as a whole is not one atomic
     * read. Allocates two arrays of {@value #BATCH} per call, none per key.
     */
    @Override
    public void getAll(long[] keys, long[] values, long absent) {
        BatchArguments.checkGetAll(keys, values);
        int[] nodes = new int[BATCH];
        long[] versions = new long[BATCH];
        for (int base = 0; base < keys.length; base += BATCH) {
            int n = Math.min(BATCH, keys.length - base);
            int redo;
            try {
                redo = batch(keys, base, n, nodes, versions, values, absent);
            } catch (IndexOutOfBoundsException | NullPointerException e) {
                // An unvalidated read of a node a writer was changing: every key of the batch again.
                redo = (1 << n) - 1;
            }
            while (redo != 0) {
                int j = Integer.numberOfTrailingZeros(redo);
                redo &= redo - 1;
                long r = lookup(keys[base + j]);
                values[base + j] = r == ABSENT_MARK ? absent : previous(r);
            }
        }
    }

    /**
     * One batch of {@link #getAll}: answers {@code keys[base, base+n)} into {@code values} and
     * returns the bit mask of those it could not (a validation failed, or the key is MAXKEY).
     */
    private int batch(long[] keys, int base, int n, int[] nodes, long[] versions, long[] values, long absent) {
        int all = (1 << n) - 1;
        long rw = rootWord;
        int root = (int) rw;
        int h = (int) (rw >>> 32);
        long[][] ikd = innerKeys.directory();
        int[][] ibd = innerKids.directory();
        long[][] lhd = leafHdr.directory();
        long v = h == 0 ? VersionLock.read(lhd[chunk(root)], leafHdrOffset(root))
                : VersionLock.read(ibd[chunk(root)], blockOffset(root) + IV);
        if (VersionLock.isLocked(v) || rootWord != rw) {
            return all;
        }
        int redo = 0;
        for (int j = 0; j < n; j++) {
            nodes[j] = root;
            versions[j] = v;
            if (keys[base + j] == MAXKEY) {
                redo |= 1 << j;
            }
        }
        int z = touch;
        for (; h > 0; h--) {
            // One level for every key before the next level: the keys' loads are independent.
            for (int j = 0; j < n; j++) {
                if ((redo >>> j & 1) != 0) {
                    continue;
                }
                int node = nodes[j];
                int[] cc = ibd[chunk(node)];
                int co = blockOffset(node);
                int t = (cc[co] | cc[co + IB / 2]) & z;
                int c = NodeSearch.succGT(ikd[chunk(node)], keyOffset(node), keys[base + j]);
                int child = cc[co + KID0 + c + t];
                long cv = h > 1 ? VersionLock.read(ibd[chunk(child)], blockOffset(child) + IV)
                        : VersionLock.read(lhd[chunk(child)], leafHdrOffset(child));
                if (!VersionLock.valid(cc, co + IV, versions[j]) || VersionLock.isLocked(cv)) {
                    redo |= 1 << j;
                    continue;
                }
                nodes[j] = child;
                versions[j] = cv;
            }
        }
        for (int j = 0; j < n; j++) {
            if ((redo >>> j & 1) != 0) {
                continue;
            }
            int leaf = nodes[j];
            int k = chunk(leaf);
            int off = keyOffset(leaf);
            long[] kc = leafKeys.chunk(k);
            long[] vc = leafVals.chunk(k);
            int t = (int) ((vc[off] | vc[off + N / 2]) & z);
            long key = keys[base + j];
            int q = NodeSearch.succGT(kc, off, key) + t;
            boolean found = q != 0 && kc[off + q - 1] == key;
            long value = found ? vc[off + q - 1] : absent;
            if (!VersionLock.valid(lhd[k], leafHdrOffset(leaf), versions[j])) {
                redo |= 1 << j;
                continue;
            }
            values[base + j] = value;
        }
        return redo;
    }

    @Override
    public long defaultReturnValue() {
        return defaultReturnValue;
    }

    @Override
    public void defaultReturnValue(long value) {
        defaultReturnValue = value;
    }

    // ---- insert ---------------------------------------------------------------------------------

    @Override
    public long put(long key, long value) {
        long r = insert(key, value);
        return r == ABSENT_MARK ? defaultReturnValue : previous(r);
    }

    @Override
    public boolean upsert(long key, long value) {
        return insert(key, value) == ABSENT_MARK;
    }

    /*
     * lookup(), insert() and delete0() must say both whether the key was there and its value
     * without allocating: they return the value, except that an absent key returns ABSENT_MARK;
     * a value that happens to equal ABSENT_MARK or ESCAPED_MARK is returned as ESCAPED_MARK, with
     * the value in a thread-local cell that previous() reads back, so the decoding is exact.
     */
    static final long ABSENT_MARK = Long.MIN_VALUE + 0x5eed_0b5e_77eeL;
    private static final long ESCAPED_MARK = ABSENT_MARK + 1;
    /** {@link #mirroredWrite} could not: the caller takes the lock-coupled way. Never returned to a user. */
    private static final long FALLBACK_MARK = ABSENT_MARK + 2;
    private static final ThreadLocal<long[]> ESCAPED = ThreadLocal.withInitial(() -> new long[1]);

    private static long encodePrevious(long previous) {
        if (previous == ABSENT_MARK || previous == ESCAPED_MARK || previous == FALLBACK_MARK) {
            ESCAPED.get()[0] = previous;
            return ESCAPED_MARK;
        }
        return previous;
    }

    static long previous(long r) {
        return r == ESCAPED_MARK ? ESCAPED.get()[0] : r;
    }

    /**
     * Puts; returns ABSENT_MARK if the key was new, else the encoded previous value. An update, or
     * an insert into a leaf with a free slot, first tries the way {@link #lookup} reads: the leaf
     * the mirror routes to, locked from the version read if the key lies within its fences (then
     * it is the key's leaf, and everything read before the lock is exact). An insert that must
     * split, and every try that fails {@link #FAST_TRIES} times, takes the lock-coupled descent,
     * which splits full inner nodes on its way down.
     */
    private long insert(long key, long value) {
        if (key == MAXKEY) {
            return putMax(value);
        }
        long r = mirroredWrite(key, value, false);
        return r != FALLBACK_MARK ? r : coupledInsert(key, value);
    }

    /**
     * A put ({@code remove} false) or a delete through the leaf the mirror routes {@code key} to,
     * trusted once its version and fences say it is the key's leaf, then locked from the version
     * read, so that everything read before the lock is exact. Returns as {@link #insert} or
     * {@link #delete0} would, or {@link #FALLBACK_MARK} for an insert that must split a leaf or
     * after {@link #FAST_TRIES} failed tries.
     */
    private long mirroredWrite(long key, long value, boolean remove) {
        for (int tries = FAST_TRIES; tries > 0; tries--) {
            try {
                int leaf = routeLeaf(key);
                int k = chunk(leaf);
                int ho = leafHdrOffset(leaf);
                int off = keyOffset(leaf);
                long[] hc = leafHdr.chunk(k);
                long[] kc = leafKeys.chunk(k);
                long[] vc = leafVals.chunk(k);
                long v = VersionLock.read(hc, ho + VERSION);
                int q = NodeSearch.succGT(kc, off, key);
                boolean found = q != 0 && kc[off + q - 1] == key;
                int bm = (int) hc[ho + META];
                boolean owns = hc[ho + LOW] <= key && key < hc[ho + HIGH];
                if (owns && VersionLock.isReadable(v)) {
                    if (remove && !found) {
                        if (VersionLock.valid(hc, ho + VERSION, v)) {
                            return ABSENT_MARK;
                        }
                    } else if (!remove && !found && bm == FULL) {
                        return FALLBACK_MARK; // a split
                    } else if (VersionLock.tryLock(hc, ho + VERSION, v)) {
                        return remove ? deleteLocked(kc, vc, hc, off, ho, q, bm)
                                : insertLocked(kc, vc, hc, off, ho, q, found, bm, key, value);
                    }
                }
            } catch (IndexOutOfBoundsException | NullPointerException e) {
                // a bad child id from the mirror read mid-change: a failed try
            }
            Thread.onSpinWait();
        }
        return FALLBACK_MARK;
    }

    /**
     * The leaf part of a put, on a leaf this thread locked at the version it read {@code q},
     * {@code found} and {@code bm} at (so they are exact), with a free slot unless {@code found}.
     * Unlocks the leaf.
     */
    private long insertLocked(long[] kc, long[] vc, long[] hc, int off, int ho, int q, boolean found, int bm,
            long key, long value) {
        if (found) {
            long previous = vc[off + q - 1];
            vc[off + q - 1] = value;
            VersionLock.unlock(hc, ho + VERSION);
            return encodePrevious(previous);
        }
        int opened = GapSlots.openSlot(kc, off, vc, off, bm, q);
        int at = opened & 0xFF;
        kc[off + at] = key;
        vc[off + at] = value;
        hc[ho + META] = bm | 1 << (opened >>> 8);
        VersionLock.unlock(hc, ho + VERSION);
        size.increment();
        return ABSENT_MARK;
    }

    /** {@link #insert} by optimistic lock coupling, splitting as it must. */
    private long coupledInsert(long key, long value) {
        int failures = 0;
        restart:
        for (;;) {
            try {
                long rw = rootWord;
                int node = (int) rw;
                int h = (int) (rw >>> 32);
                long v = version(node, h);
                if (VersionLock.isLocked(v) || rootWord != rw) {
                    Thread.onSpinWait();
                    continue;
                }
                int parent = NONE;
                long pv = 0;
                long[][] ikd = innerKeys.directory();
                int[][] ibd = innerKids.directory();
                for (; h > 0; h--) {
                    int[] cc = ibd[chunk(node)];
                    int co = blockOffset(node);
                    if (cc[co + IM] == FULL) {
                        // A full inner node on an insert's path splits now, so that the split of
                        // any node below finds room in its parent (Leis et al.'s eager split).
                        splitFullInner(node, v, parent, pv, h, rw);
                        continue restart;
                    }
                    // The bitmap read started the first child-id line; start the second (touch).
                    int t = cc[co + IB / 2] & touch;
                    int c = NodeSearch.succGT(ikd[chunk(node)], keyOffset(node), key);
                    int child = cc[co + KID0 + c + t];
                    long cv = h > 1 ? VersionLock.read(ibd[chunk(child)], blockOffset(child) + IV)
                            : leafVersion(child);
                    if (!VersionLock.valid(cc, co + IV, v) || VersionLock.isLocked(cv)) {
                        continue restart;
                    }
                    parent = node;
                    pv = v;
                    node = child;
                    v = cv;
                }
                int k = chunk(node);
                int i = index(node, k);
                int off = PAD + i * N;
                int ho = PAD + i * LH;
                long[] kc = leafKeys.chunk(k);
                long[] vc = leafVals.chunk(k);
                long[] hc = leafHdr.chunk(k);
                int q = NodeSearch.succGT(kc, off, key);
                boolean found = q != 0 && kc[off + q - 1] == key;
                int bm = (int) hc[ho + META];
                if (!VersionLock.tryLock(hc, ho + VERSION, v)) {
                    continue;
                }
                // Locked, and unchanged since it was read: q, found and bm are exact.
                if (found || bm != FULL) {
                    return insertLocked(kc, vc, hc, off, ho, q, found, bm, key, value);
                }
                if (!splitFullLeaf(node, q, key, value, parent, pv)) {
                    continue;
                }
                size.increment();
                return ABSENT_MARK;
            } catch (IndexOutOfBoundsException | NullPointerException e) {
                failures = failedRead(e, failures);
            }
        }
    }

    /**
     * Splits the full inner node {@code node} (read at version {@code v}, level {@code h}) if it and
     * its parent are still as read: its first 8 separators stay, the 9th goes up, the last 7 move to
     * a new node. Returns having unlocked everything, split or not; the caller restarts either way.
     */
    private void splitFullInner(int node, long v, int parent, long pv, int h, long rw) {
        int k = chunk(node);
        int[] hc = innerKids.chunk(k);
        int ho = IPAD + index(node, k) * IB + IV;
        if (parent == NONE) {
            long stamp = lockMirror();
            try {
                if (!VersionLock.tryLock(hc, ho, v)) {
                    return;
                }
                try {
                    if (rootWord != rw) {
                        return; // the root moved on (cannot while we hold it, but cheap to be sure)
                    }
                    int right = newInner(h);
                    int root = newInner(h + 1);
                    long sep = splitInner(node, right);
                    writeRoot(root, node, sep, right);
                    InnerMirror m = mirror;
                    mirrorNode(m, node);
                    mirrorNode(m, right);
                    mirrorNode(m, root);
                    rootWord = (long) (h + 1) << 32 | root;
                } finally {
                    VersionLock.unlock(hc, ho);
                }
            } finally {
                unlockMirror(stamp);
            }
            return;
        }
        int pk = chunk(parent);
        int[] phc = innerKids.chunk(pk);
        int pho = IPAD + index(parent, pk) * IB + IV;
        long stamp = lockMirror();
        try {
            if (!VersionLock.tryLock(phc, pho, pv)) {
                return;
            }
            try {
                if (!VersionLock.tryLock(hc, ho, v)) {
                    return;
                }
                try {
                    int right = newInner(h);
                    long sep = splitInner(node, right);
                    insertSeparator(parent, sep, right);
                    InnerMirror m = mirror;
                    mirrorNode(m, right);
                    mirrorNode(m, node);
                    mirrorNode(m, parent);
                } finally {
                    VersionLock.unlock(hc, ho);
                }
            } finally {
                VersionLock.unlock(phc, pho);
            }
        } finally {
            unlockMirror(stamp);
        }
    }

    /**
     * Splits the full, locked leaf {@code leaf} around a new key that belongs at slot {@code q}: 9
     * entries stay, 8 go to a new leaf, each half spread over 16 slots; the separator goes into the
     * parent (locked here if it is still at version {@code pv}; it has room, see
     * {@link #splitFullInner}) or, for a root leaf, into a new root. Unlocks the leaf. Returns
     * false, with nothing changed, if the parent moved on.
     */
    private boolean splitFullLeaf(int leaf, int q, long key, long value, int parent, long pv) {
        int k = chunk(leaf);
        long[] hc = leafHdr.chunk(k);
        int ho = PAD + index(leaf, k) * LH + VERSION;
        try {
            long stamp = lockMirror();
            try {
                if (parent == NONE) {
                    int right = newLeaf();
                    int root = newInner(1);
                    long sep = splitLeaf(leaf, q, key, value, right);
                    writeRoot(root, leaf, sep, right);
                    mirrorNode(mirror, root);
                    rootWord = 1L << 32 | root;
                    return true;
                }
                int pk = chunk(parent);
                int[] phc = innerKids.chunk(pk);
                int pho = IPAD + index(parent, pk) * IB + IV;
                if (!VersionLock.tryLock(phc, pho, pv)) {
                    return false;
                }
                try {
                    int right = newLeaf();
                    long sep = splitLeaf(leaf, q, key, value, right);
                    insertSeparator(parent, sep, right);
                    mirrorNode(mirror, parent);
                } finally {
                    VersionLock.unlock(phc, pho);
                }
                return true;
            } finally {
                unlockMirror(stamp);
            }
        } finally {
            VersionLock.unlock(hc, ho);
        }
    }

    // ---- the inner levels' mirror ----------------------------------------------------------------

    /**
     * Takes the mirror's read lock for a section that will change inner nodes, first replacing the
     * mirror by a larger one if the section's new nodes might not fit. Blocks only while a mirror
     * is being copied, and the copier waits for no node lock, so holding node locks here is safe.
     */
    private long lockMirror() {
        if (innerCount.get() + 2 > mirror.capacity) {
            growMirror();
        }
        return mirrorLock.readLock();
    }

    /**
     * Ends a {@link #lockMirror} section. Threads splitting at once can together allocate past the
     * mirror's end (each checked before the others allocated); their nodes were skipped, so the
     * mirror is copied now rather than at the next split, which may never come.
     */
    private void unlockMirror(long stamp) {
        mirrorLock.unlockRead(stamp);
        if (innerCount.get() > mirror.capacity) {
            growMirror();
        }
    }

    /** Replaces the mirror by one with room for half as many inner nodes again, copied from the nodes. */
    private void growMirror() {
        long stamp = mirrorLock.writeLock();
        try {
            int count = innerCount.get();
            if (count + 2 <= mirror.capacity) {
                return;
            }
            mirror = copyMirror(count + count / 2 + 16);
        } finally {
            mirrorLock.unlockWrite(stamp);
        }
    }

    /** A mirror of every inner node allocated so far; no inner node may be changing. */
    private InnerMirror copyMirror(int capacity) {
        int count = innerCount.get();
        InnerMirror m = new InnerMirror(Math.max(capacity, count));
        for (int n = 0; n < count; n++) {
            mirrorNode(m, Pinned.idOf(n));
        }
        return m;
    }

    /**
     * Writes inner node {@code id} into mirror {@code m}: its keys, and its children as mirror slots
     * (inner) or leaf ids. The caller holds the mirror's read lock and the node is locked or not yet
     * linked, so the node does not change meanwhile. A node past the mirror's end is skipped: look-ups
     * that need it fall back to lock coupling until the next {@link #growMirror} copies it.
     */
    private void mirrorNode(InnerMirror m, int id) {
        int n = Pinned.denseOf(id);
        if (n >= m.capacity) {
            return;
        }
        int k = chunk(id);
        int i = index(id, k);
        System.arraycopy(innerKeys.chunk(k), PAD + i * N, m.keys, InnerMirror.keyOffset(n), N);
        int[] cc = innerKids.chunk(k);
        int co = IPAD + i * IB;
        boolean leaves = cc[co + LEVEL] == 1;
        for (int j = 0; j < KIDS; j++) {
            int kid = cc[co + KID0 + j];
            m.kids[m.kid(n, j)] = leaves || kid == NONE ? kid : Pinned.denseOf(kid);
        }
    }

    /** Moves the 17 entries of a full leaf plus the new one into it and {@code right}; returns the separator. */
    private long splitLeaf(int leaf, int q, long key, long value, int right) {
        int k = chunk(leaf);
        int off = PAD + index(leaf, k) * N;
        long[] kc = leafKeys.chunk(k);
        long[] vc = leafVals.chunk(k);
        long[] sk = new long[N + 1];
        long[] sv = new long[N + 1];
        // A full leaf has no gaps: slot s is entry s; the new key goes before slot q.
        System.arraycopy(kc, off, sk, 0, q);
        System.arraycopy(vc, off, sv, 0, q);
        sk[q] = key;
        sv[q] = value;
        System.arraycopy(kc, off + q, sk, q + 1, N - q);
        System.arraycopy(vc, off + q, sv, q + 1, N - q);
        int left = (N + 2) / 2;
        long sep = sk[left];
        writeLeaf(right, sk, sv, left, N + 1 - left);
        long[] hc = leafHdr.chunk(k);
        int ho = leafHdrOffset(leaf);
        setFences(right, sep, hc[ho + HIGH]);
        // Readable before the separator links it: a reader that reaches it early acquires it whole.
        publishLeaf(right);
        writeLeaf(leaf, sk, sv, 0, left);
        hc[ho + HIGH] = sep;
        return sep;
    }

    /** Writes {@code n >= 1} sorted entries into a leaf, entry j at slot {@code j*16/n}. */
    private void writeLeaf(int leaf, long[] ks, long[] vs, int from, int n) {
        int k = chunk(leaf);
        int i = index(leaf, k);
        long[] kc = leafKeys.chunk(k);
        long[] vc = leafVals.chunk(k);
        int bm = spread(kc, PAD + i * N, ks, from, n);
        Arrays.fill(vc, PAD + i * N, PAD + i * N + N, 0);
        for (int j = 0; j < n; j++) {
            vc[PAD + i * N + j * N / n] = vs == null ? 0 : vs[from + j];
        }
        leafHdr.chunk(k)[PAD + i * LH + META] = bm;
    }

    /**
     * Writes {@code n >= 1} sorted keys into a node's 16 slots, key j at slot {@code j*16/n} (the
     * paper's proactive gaps), every gap holding the next key, the slots after the last MAXKEY;
     * returns the bitmap.
     */
    static int spread(long[] kc, int off, long[] ks, int from, int n) {
        int bm = 0;
        long next = MAXKEY;
        int s = N - 1;
        for (int j = n - 1; j >= 0; j--) {
            int at = j * N / n;
            for (; s > at; s--) {
                kc[off + s] = next;
            }
            next = ks[from + j];
            kc[off + at] = next;
            bm |= 1 << at;
            s = at - 1;
        }
        return bm;
    }

    /** Splits a full, locked inner node: 8 separators stay, 7 go to {@code right}; returns the 9th. */
    private long splitInner(int node, int right) {
        int k = chunk(node);
        int i = index(node, k);
        long[] ks = Arrays.copyOfRange(innerKeys.chunk(k), PAD + i * N, PAD + i * N + N);
        int co = IPAD + i * IB + KID0;
        int[] kids = Arrays.copyOfRange(innerKids.chunk(k), co, co + KIDS);
        writeInner(right, ks, kids, N / 2 + 1, N / 2 - 1);
        writeInner(node, ks, kids, 0, N / 2);
        return ks[N / 2];
    }

    /** Writes keys {@code ks[from, from+n)} with children {@code kids[from, from+n]} into a node, spread. */
    private void writeInner(int node, long[] ks, int[] kids, int from, int n) {
        int k = chunk(node);
        int i = index(node, k);
        int bm = spread(innerKeys.chunk(k), PAD + i * N, ks, from, n);
        int[] cc = innerKids.chunk(k);
        int co = IPAD + i * IB + KID0;
        Arrays.fill(cc, co, co + KIDS, NONE);
        cc[co] = kids[from];
        for (int j = 0; j < n; j++) {
            cc[co + 1 + j * N / n] = kids[from + 1 + j];
        }
        innerKids.chunk(k)[IPAD + i * IB + IM] = bm;
    }

    /** A new root over {@code left} and {@code right}, separated by {@code sep}. */
    private void writeRoot(int root, int left, long sep, int right) {
        writeInner(root, new long[] {sep}, new int[] {left, right}, 0, 1);
    }

    /** Inserts (sep, child) into a locked inner node that has a free slot. */
    private void insertSeparator(int node, long sep, int child) {
        int k = chunk(node);
        int i = index(node, k);
        long[] kc = innerKeys.chunk(k);
        int[] cc = innerKids.chunk(k);
        int bm = cc[IPAD + i * IB + IM];
        // sep lies strictly between the separators around the child that split, so succ> puts it
        // right after that child's slot.
        int r = NodeSearch.succGT(kc, PAD + i * N, sep);
        int opened = GapSlots.openSlot(kc, PAD + i * N, cc, IPAD + i * IB + KID0 + 1, bm, r);
        int at = opened & 0xFF;
        kc[PAD + i * N + at] = sep;
        cc[IPAD + i * IB + KID0 + 1 + at] = child;
        cc[IPAD + i * IB + IM] = bm | 1 << (opened >>> 8);
    }

    // ---- delete ---------------------------------------------------------------------------------

    @Override
    public long remove(long key) {
        long r = delete0(key);
        return r == ABSENT_MARK ? defaultReturnValue : previous(r);
    }

    @Override
    public boolean delete(long key) {
        return delete0(key) != ABSENT_MARK;
    }

    /** Removes; returns ABSENT_MARK if the key was not there, else the encoded previous value. */
    private long delete0(long key) {
        if (key == MAXKEY) {
            return removeMax();
        }
        long r = mirroredWrite(key, 0, true);
        return r != FALLBACK_MARK ? r : coupledDelete(key);
    }

    /** Clears slot {@code q - 1} of a leaf this thread locked at the version it read {@code q} and {@code bm} at; unlocks it. */
    private long deleteLocked(long[] kc, long[] vc, long[] hc, int off, int ho, int q, int bm) {
        long previous = vc[off + q - 1];
        vc[off + q - 1] = 0;
        hc[ho + META] = GapSlots.clearSlot(kc, off, bm, q - 1);
        VersionLock.unlock(hc, ho + VERSION);
        size.decrement();
        return encodePrevious(previous);
    }

    /** {@link #delete0} by optimistic lock coupling. */
    private long coupledDelete(long key) {
        int failures = 0;
        restart:
        for (;;) {
            try {
                long rw = rootWord;
                int node = (int) rw;
                int h = (int) (rw >>> 32);
                long v = version(node, h);
                if (VersionLock.isLocked(v) || rootWord != rw) {
                    Thread.onSpinWait();
                    continue;
                }
                for (; h > 0; h--) {
                    int k = chunk(node);
                    int i = index(node, k);
                    int c = NodeSearch.succGT(innerKeys.chunk(k), PAD + i * N, key);
                    int child = innerKids.chunk(k)[IPAD + i * IB + KID0 + c];
                    long cv = version(child, h - 1);
                    if (!VersionLock.valid(innerKids.chunk(k), IPAD + i * IB + IV, v) || VersionLock.isLocked(cv)) {
                        continue restart;
                    }
                    node = child;
                    v = cv;
                }
                int k = chunk(node);
                int i = index(node, k);
                int off = PAD + i * N;
                int ho = PAD + i * LH + VERSION;
                long[] kc = leafKeys.chunk(k);
                long[] hc = leafHdr.chunk(k);
                int q = NodeSearch.succGT(kc, off, key);
                boolean found = q != 0 && kc[off + q - 1] == key;
                int bm = (int) hc[PAD + i * LH + META];
                if (!found) {
                    if (!VersionLock.valid(hc, ho, v)) {
                        continue;
                    }
                    return ABSENT_MARK;
                }
                if (!VersionLock.tryLock(hc, ho, v)) {
                    continue;
                }
                return deleteLocked(kc, leafVals.chunk(k), hc, off, PAD + i * LH, q, bm);
            } catch (IndexOutOfBoundsException | NullPointerException e) {
                failures = failedRead(e, failures);
            }
        }
    }

    @Override
    public void clear() {
        // Key by key, each removal linearizable; not atomic as a whole (see the class comment).
        LongCursor c = cursor();
        for (boolean ok = c.seekFirst(); ok; ok = c.isValid()) {
            c.remove();
        }
    }

    @Override
    public long size() {
        return Math.max(0, size.sum());
    }

    // ---- the out-of-band Long.MAX_VALUE ---------------------------------------------------------

    /** The encoded value of {@code Long.MAX_VALUE}, or ABSENT_MARK. */
    long maxLookup() {
        for (;;) {
            long v = VersionLock.read(maxRecord, VERSION);
            if (!VersionLock.isLocked(v)) {
                boolean present = maxRecord[1] != 0;
                long value = maxRecord[2];
                if (VersionLock.valid(maxRecord, VERSION, v)) {
                    return present ? encodePrevious(value) : ABSENT_MARK;
                }
            }
            Thread.onSpinWait();
        }
    }

    private void lockMax() {
        for (;;) {
            long v = VersionLock.read(maxRecord, VERSION);
            if (!VersionLock.isLocked(v) && VersionLock.tryLock(maxRecord, VERSION, v)) {
                return;
            }
            Thread.onSpinWait();
        }
    }

    private long putMax(long value) {
        lockMax();
        boolean present = maxRecord[1] != 0;
        long previous = maxRecord[2];
        maxRecord[1] = 1;
        maxRecord[2] = value;
        VersionLock.unlock(maxRecord, VERSION);
        if (present) {
            return encodePrevious(previous);
        }
        size.increment();
        return ABSENT_MARK;
    }

    private long removeMax() {
        lockMax();
        boolean present = maxRecord[1] != 0;
        long previous = maxRecord[2];
        maxRecord[1] = 0;
        maxRecord[2] = 0;
        VersionLock.unlock(maxRecord, VERSION);
        if (!present) {
            return ABSENT_MARK;
        }
        size.decrement();
        return encodePrevious(previous);
    }

    // ---- descents for queries that may cross leaves ---------------------------------------------

    /**
     * A read-only descent to the leaf whose range holds {@code key} (below MAXKEY): fills the probe's leaf, its
     * version (read before its parent was validated) and its range's bounds. False: restart.
     */
    boolean descend(long key, Probe p) {
        long rw = rootWord;
        int node = (int) rw;
        int h = (int) (rw >>> 32);
        long v = version(node, h);
        if (VersionLock.isLocked(v) || rootWord != rw) {
            return false;
        }
        p.hasLow = false;
        p.hasHigh = false;
        for (; h > 0; h--) {
            int k = chunk(node);
            int i = index(node, k);
            long[] kc = innerKeys.chunk(k);
            int off = PAD + i * N;
            int c = NodeSearch.succGT(kc, off, key);
            int child = innerKids.chunk(k)[IPAD + i * IB + KID0 + c];
            // The deepest separators around the path are the tightest bounds of the leaf's range.
            if (c > 0) {
                p.low = kc[off + c - 1];
                p.hasLow = true;
            }
            if (c < N && kc[off + c] != MAXKEY) {
                p.high = kc[off + c];
                p.hasHigh = true;
            }
            long cv = version(child, h - 1);
            if (!VersionLock.valid(innerKids.chunk(k), IPAD + i * IB + IV, v) || VersionLock.isLocked(cv)) {
                return false;
            }
            node = child;
            v = cv;
        }
        p.leaf = node;
        p.version = v;
        return true;
    }

    /** Whether every (node, version) the probe saw is still at that version. */
    boolean allValid(Probe p) {
        long[] seen = p.seen;
        for (int j = 0; j < p.seenCount; j++) {
            int node = (int) seen[2 * j];
            long v = seen[2 * j + 1];
            boolean ok = node == Probe.MAX_RECORD ? VersionLock.valid(maxRecord, VERSION, v) : leafValid(node, v);
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /**
     * The nearest key to {@code key}: the least above it ({@code above}) or the greatest below, the
     * key itself included if {@code inclusive}. Sets {@code p.found}, {@code p.key}, {@code p.value}.
     */
    void near(long key, boolean above, boolean inclusive, Probe p) {
        int failures = 0;
        for (;;) {
            try {
                if (above ? nearAbove(key, inclusive, p) : nearBelow(key, inclusive, p)) {
                    return;
                }
            } catch (IndexOutOfBoundsException | NullPointerException e) {
                failures = failedRead(e, failures);
            }
        }
    }

    private boolean nearAbove(long key, boolean inclusive, Probe p) {
        p.resetSeen();
        p.found = false;
        if (key == MAXKEY) {
            return !inclusive || readMax(p);
        }
        long target = key;
        boolean incl = inclusive;
        for (;;) {
            if (!descend(target, p)) {
                return false;
            }
            int leaf = p.leaf;
            int k = chunk(leaf);
            int i = index(leaf, k);
            long[] kc = leafKeys.chunk(k);
            int s = incl ? NodeSearch.succGE(kc, PAD + i * N, target) : NodeSearch.succGT(kc, PAD + i * N, target);
            int bits = bitsFrom((int) leafHdr.chunk(k)[PAD + i * LH + META] & FULL, s);
            p.see(leaf, p.version);
            if (bits != 0) {
                int slot = Integer.numberOfTrailingZeros(bits);
                p.key = kc[PAD + i * N + slot];
                p.value = leafVals.chunk(k)[PAD + i * N + slot];
                p.found = true;
                return allValid(p);
            }
            if (!p.hasHigh) {
                return readMax(p);
            }
            // Nothing at or above target in this leaf: everything else lies at or above its bound.
            target = p.high;
            incl = true;
        }
    }

    private boolean nearBelow(long key, boolean inclusive, Probe p) {
        p.resetSeen();
        p.found = false;
        if (key == MAXKEY && inclusive) {
            if (!readMax(p)) {
                return false;
            }
            if (p.found) {
                return true;
            }
        }
        // The leaves hold keys below MAXKEY only, and a descent for MAXKEY itself would follow
        // the dead child of a gap (gaps hold MAXKEY): look for the greatest key <= MAXKEY - 1.
        long target = key == MAXKEY ? MAXKEY - 1 : key;
        boolean incl = inclusive || key == MAXKEY;
        for (;;) {
            if (!descend(target, p)) {
                return false;
            }
            int leaf = p.leaf;
            int k = chunk(leaf);
            int i = index(leaf, k);
            long[] kc = leafKeys.chunk(k);
            int s = incl ? NodeSearch.succGT(kc, PAD + i * N, target) : NodeSearch.succGE(kc, PAD + i * N, target);
            int bits = bitsBelow((int) leafHdr.chunk(k)[PAD + i * LH + META] & FULL, s);
            p.see(leaf, p.version);
            if (bits != 0) {
                int slot = highestBit(bits);
                p.key = kc[PAD + i * N + slot];
                p.value = leafVals.chunk(k)[PAD + i * N + slot];
                p.found = true;
                return allValid(p);
            }
            if (!p.hasLow) {
                return allValid(p);
            }
            // Nothing at or below target here: the rest lies below this leaf's lower bound.
            target = p.low - 1;
            incl = true;
        }
    }

    /** Reads the out-of-band record into the probe as the answer (if present) and validates all. */
    private boolean readMax(Probe p) {
        long v = VersionLock.read(maxRecord, VERSION);
        if (VersionLock.isLocked(v)) {
            return false;
        }
        boolean present = maxRecord[1] != 0;
        long value = maxRecord[2];
        p.see(Probe.MAX_RECORD, v);
        if (!allValid(p)) {
            return false;
        }
        if (present) {
            p.found = true;
            p.key = MAXKEY;
            p.value = value;
        }
        return true;
    }

    // ---- neighbours -----------------------------------------------------------------------------

    private long nearKey(long key, boolean above, boolean inclusive, long absent) {
        Probe p = new Probe();
        near(key, above, inclusive, p);
        return p.found ? p.key : absent;
    }

    @Override
    public long ceilingKey(long key, long absent) {
        return nearKey(key, true, true, absent);
    }

    @Override
    public long higherKey(long key, long absent) {
        return nearKey(key, true, false, absent);
    }

    @Override
    public long floorKey(long key, long absent) {
        return nearKey(key, false, true, absent);
    }

    @Override
    public long lowerKey(long key, long absent) {
        return nearKey(key, false, false, absent);
    }

    @Override
    public long firstKey() {
        Probe p = new Probe();
        near(Long.MIN_VALUE, true, true, p);
        if (!p.found) {
            throw new NoSuchElementException("firstKey() of an empty index");
        }
        return p.key;
    }

    @Override
    public long lastKey() {
        Probe p = new Probe();
        near(MAXKEY, false, true, p);
        if (!p.found) {
            throw new NoSuchElementException("lastKey() of an empty index");
        }
        return p.key;
    }

    // ---- cursors and ranges ---------------------------------------------------------------------

    @Override
    public LongCursor cursor() {
        return new OlcCursor(this);
    }

    @Override
    public long rangeCount(long from, boolean fromInclusive, long to, boolean toInclusive) {
        return walk(from, fromInclusive, to, toInclusive, null);
    }

    @Override
    public long rangeVisit(long from, boolean fromInclusive, long to, boolean toInclusive, LongEntryVisitor visitor) {
        Objects.requireNonNull(visitor, "visitor");
        return walk(from, fromInclusive, to, toInclusive, visitor);
    }

    /**
     * Counts, or visits, the keys in the range: leaf by leaf, each leaf read at one instant, moving
     * on by the leaf's upper bound (weakly consistent). With a visitor, returns how many entries it
     * was given, the one it stopped at included.
     */
    private long walk(long from, boolean fromInclusive, long to, boolean toInclusive, LongEntryVisitor visitor) {
        if (!fromInclusive && from == MAXKEY || !toInclusive && to == Long.MIN_VALUE) {
            return 0;
        }
        long lo = fromInclusive ? from : from + 1;
        long hi = toInclusive ? to : to - 1;
        if (lo > hi) {
            return 0;
        }
        long n = 0;
        if (lo < MAXKEY) {
            OlcCursor c = new OlcCursor(this);
            long end = hi == MAXKEY ? MAXKEY - 1 : hi; // leaves hold keys below MAXKEY only
            boolean more = c.loadCovering(lo);
            while (true) {
                // Slots of the snapshot with keys in [lo, end].
                int bits = c.slotsBetween(lo, end);
                if (visitor == null) {
                    n += Integer.bitCount(bits);
                } else {
                    for (; bits != 0; bits &= bits - 1) {
                        int slot = Integer.numberOfTrailingZeros(bits);
                        n++;
                        if (!visitor.visit(c.keys[slot], c.vals[slot])) {
                            return n;
                        }
                    }
                }
                if (!more || c.snapHigh > end) {
                    break;
                }
                more = c.loadCovering(c.snapHigh);
            }
        }
        if (hi == MAXKEY) {
            long r = maxLookup();
            if (r != ABSENT_MARK) {
                n++;
                if (visitor != null) {
                    visitor.visit(MAXKEY, previous(r));
                }
            }
        }
        return n;
    }

    // ---- accounting -----------------------------------------------------------------------------

    @Override
    public long memoryBytes() {
        return 64 + leafKeys.bytes() + leafVals.bytes() + leafHdr.bytes() + innerKeys.bytes() + innerKids.bytes()
                + mirror.bytes()
                + 16 + 8L * maxRecord.length + 64;
    }

    /** Inner levels above the leaves. */
    public int height() {
        return rootHeight();
    }

    @Override
    public void checkInvariants() {
        new OlcChecker(this).check();
    }

    @Override
    public String toString() {
        return "concurrent BS-tree[size=" + size() + ", height=" + rootHeight() + ", leaves=" + leafCount.get()
                + ", inner=" + innerCount.get() + ", search=" + NodeSearch.describe() + "]";
    }

    // ---- bulk load ------------------------------------------------------------------------------

    /**
     * A tree built from sorted keys: leaves of {@value #BULK_LEAF_KEYS} keys (75%) spread over
     * their 16 slots, inner levels 7/8 full above the leaves and full above that (the BS-tree's
     * section 4.3 schedule), built bottom-up before the tree is published.
     *
     * @throws IllegalArgumentException on unsorted or duplicate keys or arrays of different lengths
     */
    static OlcBSTree bulkLoad(long[] keys, long[] values) {
        SortedInput.check(keys, values);
        OlcBSTree t = new OlcBSTree();
        int n = keys.length;
        if (n > 0 && keys[n - 1] == MAXKEY) {
            t.maxRecord[1] = 1;
            t.maxRecord[2] = values == null ? 0 : values[n - 1];
            t.size.increment();
            n--;
        }
        if (n == 0) {
            return t;
        }
        int leaves = (int) Math.min(Integer.MAX_VALUE - 8L, ((long) n + BULK_LEAF_KEYS - 1) / BULK_LEAF_KEYS);
        int[] ids = new int[leaves];
        long[] mins = new long[leaves];
        int at = 0;
        for (int l = 0; l < leaves; l++) {
            // Spread the keys evenly over the leaves, so that no leaf is left nearly empty.
            int end = (int) ((long) n * (l + 1) / leaves);
            int leaf = l == 0 ? t.root() : t.newLeaf();
            t.writeLeaf(leaf, keys, values, at, end - at);
            t.setFences(leaf, l == 0 ? Long.MIN_VALUE : keys[at], l == leaves - 1 ? MAXKEY : keys[end]);
            t.publishLeaf(leaf);
            ids[l] = leaf;
            mins[l] = keys[at];
            at = end;
        }
        t.size.add(n);
        int count = leaves;
        int h = 0;
        while (count > 1) {
            // The fill grows by 1/8 a level from the leaves' 75%, full from the second level up,
            // as the BS-tree builds it: the upper levels stay few (one level fewer at 10M keys).
            int children = Math.min(N, (int) Math.round((0.75 + 0.125 * (h + 1)) * N)) + 1;
            int parents = (count + children - 1) / children;
            int first = 0;
            for (int p = 0; p < parents; p++) {
                int end = (int) ((long) count * (p + 1) / parents);
                int node = t.newInner(h + 1);
                t.buildInner(node, mins, ids, first, end - first - 1);
                ids[p] = node;
                mins[p] = mins[first];
                first = end;
            }
            count = parents;
            h++;
        }
        // Room for a quarter more inner nodes before the first copy.
        t.mirror = t.copyMirror(t.innerCount.get() + t.innerCount.get() / 4 + 16);
        t.rootWord = (long) h << 32 | ids[0];
        return t;
    }

    /**
     * Bulk load: an inner node over children {@code ids[first, first+n]}, whose separators are the
     * least keys {@code mins[first+1, first+n]} of all but the first.
     */
    private void buildInner(int node, long[] mins, int[] ids, int first, int n) {
        writeInner(node, Arrays.copyOfRange(mins, first + 1, first + 1 + n), Arrays.copyOfRange(ids, first, first + n + 1),
                0, n);
    }
}
