package org.bforest.olc;

import static org.bforest.kernel.GapSlots.FULL;
import static org.bforest.kernel.GapSlots.MAXKEY;
import static org.bforest.kernel.GapSlots.N;
import static org.bforest.olc.OlcNodes.ABSENT_MARK;
import static org.bforest.olc.OlcNodes.FALLBACK_MARK;
import static org.bforest.olc.OlcNodes.FAST_TRIES;
import static org.bforest.olc.OlcNodes.HIGH;
import static org.bforest.olc.OlcNodes.IB;
import static org.bforest.olc.OlcNodes.IM;
import static org.bforest.olc.OlcNodes.IV;
import static org.bforest.olc.OlcNodes.KID0;
import static org.bforest.olc.OlcNodes.LOW;
import static org.bforest.olc.OlcNodes.NONE;
import static org.bforest.olc.OlcNodes.VERSION;
import static org.bforest.olc.OlcNodes.blockOffset;
import static org.bforest.olc.OlcNodes.chunk;
import static org.bforest.olc.OlcNodes.encodePrevious;
import static org.bforest.olc.OlcNodes.failedRead;
import static org.bforest.olc.OlcNodes.keyOffset;
import static org.bforest.olc.OlcNodes.leafHdrOffset;
import static org.bforest.olc.OlcNodes.previous;

import org.bforest.LongEntryVisitor;
import org.bforest.kernel.NodeSearch;
import org.bforest.kernel.Prefetch;
import org.bforest.util.BatchArguments;
import org.bforest.util.Bounds;

/**
 * The read side of the concurrent BS-tree: look-ups ({@code get}, {@code containsKey},
 * {@code getAll}), the lock-coupled descent (written once here, for the readers and the writers)
 * and the range walk; the neighbour queries are {@link OlcNeighbours}'. Static methods handed the
 * tree (see {@link OlcNodes} for why), so that the hot look-up is the code it was, in a final class.
 *
 * <h2>Why the reads are safe without locks</h2>
 * <ol>
 * <li><b>Versions.</b> Every node has a version-and-lock word ({@link VersionLock}). A reader reads
 *     it (acquire), reads the node with plain reads, then validates: an acquire fence, the word read
 *     again and compared. A writer changes a node only while it holds the lock bit, set by a
 *     compare-and-set from the version it read, and its unlock advances the version by a release
 *     store; so a reader whose validation succeeds saw the node as no write section left it midway.
 *     A reader acts on nothing it read before that comparison succeeds.</li>
 * <li><b>Lock coupling</b> (Leis, Haubenschild and Neumann, "Optimistic Lock Coupling"). A descent
 *     reads a child's version before it validates the node it came from: that node, unchanged, still
 *     pointed at the child when the child's version was read, so the child at that version is the
 *     node on the key's path. A node that moved on, or a locked child, restarts the descent from the
 *     root. {@link #lastInner}, {@link #childOf} and {@link #couple} are that descent, once.</li>
 * <li><b>Fences.</b> A leaf's header holds the key range {@code [LOW, HIGH)} it is the leaf for, and
 *     at every version a reader can validate it holds exactly the tree's keys in that range: a split
 *     moves keys out only while both halves are locked or unpublished, and narrows the fences in
 *     the same locked section. So a leaf reached any way at all, by a torn or stale path, answers
 *     exactly when its version validates and the key lies within its fences. That is what lets
 *     {@link #lookup} descend the mirror with no version reads.</li>
 * <li><b>Freed nodes are type-stable.</b> Emptied leaves and childless inner nodes are unlinked
 *     and their ids reused ({@link OlcUnlinker}), but chunks never move or go ({@link Pinned}), a
 *     freed node stays locked until it is reused, and a node's version only grows through all its
 *     lives: a reader that holds a stale id reads a node of the kind it expects, restarts on its
 *     locked word, or fails to validate what it read in an earlier life ({@link NodeRecycler}
 *     argues it for every read path). A stale directory shows as an index exception.</li>
 * <li><b>Publication by release store.</b> A leaf created by a split becomes readable only through
 *     {@link OlcNodes#publishLeaf}'s release store of its first version, made after its keys,
 *     values and fences; a reader that acquires version 0 does not use it
 *     ({@link VersionLock#isReadable}). A new inner node becomes reachable only through its parent's
 *     unlock (a release store) or the volatile root word.</li>
 * <li><b>Torn reads are restarts.</b> Before validation a read may see a node mid-change. Java's
 *     int reads are atomic, so every child id read is one that was written (or the initial 0);
 *     the worst a bad id does is lead to the wrong leaf (fences and versions say so) or out of
 *     bounds: an {@code IndexOutOfBoundsException} or {@code NullPointerException} in a read not
 *     yet validated is a failed try, never an answer ({@link OlcNodes#failedRead}; a million in a
 *     row are reported as a bug).</li>
 * <li><b>The mirror is a hint.</b> {@link InnerMirror} is read with no validation at all; a stale,
 *     torn or unwritten route costs a try (3.), and after {@link OlcNodes#FAST_TRIES} the look-up
 *     takes the lock-coupled descent (2.), which cannot be sent astray.</li>
 * <li><b>Answers that span leaves.</b> A neighbour query ({@link OlcNeighbours}) records every
 *     (leaf, version) it read, and the {@code Long.MAX_VALUE} record's, and validates them all at
 *     the end: its answer held at one instant (linearizable). The cursor and the range walk
 *     validate each leaf alone: weakly consistent. Both move from leaf to leaf along the chain,
 *     whose links are hints checked against the fences.</li>
 * </ol>
 */
final class OlcReader {
    private OlcReader() {
    }

    // ---- look-ups -------------------------------------------------------------------------------

    /**
     * The encoded value of {@code key} (see {@link OlcNodes#ABSENT_MARK}), ABSENT_MARK if it is not there.
     *
     * <p>The fast path validates only the leaf: it descends the inner levels with plain reads and
     * no version checks ({@link #routeLeaf}), then reads the leaf's version (acquire), its keys,
     * value and fences, and answers if the version is unchanged and {@code key} lies within the
     * fences: exact however the leaf was reached (see the class comment, 3. to 6.). So the descent
     * costs what the plain BS-tree's does, which matters because a look-up's speed at 10M keys is
     * how many of them the core overlaps, and that is set by the instructions a look-up takes
     * (docs/BENCHMARKS.md, the single-thread gap). The leaf's arrays are read, and its value lines'
     * loads started, before the acquire read of the version: that order measured 15% more
     * look-ups a second. After {@link OlcNodes#FAST_TRIES} failures in a row, the look-up takes
     * the lock-coupled descent.
     */
    static long lookup(OlcNodes t, long key) {
        if (key == MAXKEY) {
            return maxLookup(t);
        }
        for (int tries = FAST_TRIES; tries > 0; tries--) {
            try {
                long r = readLeaf(t, routeLeaf(t, key), key);
                if (r != FALLBACK_MARK) {
                    return r;
                }
            } catch (IndexOutOfBoundsException | NullPointerException e) {
                // a bad child id from a node read mid-change: a failed try
            }
            Thread.onSpinWait();
        }
        return coupledLookup(t, key);
    }

    /**
     * {@link #lookup}'s leaf step, shared with {@link #routedBatch}: {@code key}'s value in
     * {@code leaf} (a hint from the mirror), read under the leaf's version ({@link #encodePrevious}
     * of it, or {@link OlcNodes#ABSENT_MARK}), or {@link OlcNodes#FALLBACK_MARK} when the version did
     * not hold or the leaf's fences do not own the key. The value lines' loads start with the keys'
     * (see {@link Prefetch}).
     */
    private static long readLeaf(OlcNodes t, int leaf, long key) {
        int k = chunk(leaf);
        int ho = leafHdrOffset(leaf);
        int off = keyOffset(leaf);
        long[] hc = t.leafHdr.chunk(k);
        long[] kc = t.leafKeys.chunk(k);
        long[] vc = t.leafVals.chunk(k);
        int tt = (int) ((vc[off] | vc[off + N / 2]) & Prefetch.zero());
        long v = VersionLock.read(hc, ho + VERSION);
        int q = NodeSearch.succGT(kc, off, key) + tt;
        boolean found = q != 0 && kc[off + q - 1] == key;
        long value = found ? vc[off + q - 1] : 0;
        boolean owns = hc[ho + LOW] <= key && key < hc[ho + HIGH];
        if (owns && VersionLock.isReadable(v) && VersionLock.valid(hc, ho + VERSION, v)) {
            return found ? encodePrevious(value) : ABSENT_MARK;
        }
        return FALLBACK_MARK;
    }

    /**
     * The leaf the mirror routes {@code key} to: a hint, which the caller checks against the leaf's
     * version and fences (see {@link #lookup}). A torn or stale mirror can make it throw an index
     * exception, which the caller counts as a failed try.
     */
    static int routeLeaf(OlcNodes t, long key) {
        InnerMirror m = t.mirror;
        long[] mk = m.keys;
        int[] mc = m.kids;
        int last = m.lastKid(0);
        long rw = t.rootWord;
        int node = (int) rw;
        int h = (int) (rw >>> 32);
        if (h == 0) {
            return node;
        }
        int z = Prefetch.zero();
        // Mirror slots down to the last inner level, whose children are leaf ids.
        int s = Pinned.denseOf(node);
        for (; h > 0; h--) {
            int ko = InnerMirror.kidOffset(s);
            // Start the children's line's load with the keys' (see Prefetch).
            int tt = mc[ko] & z;
            int c = NodeSearch.succGT(mk, InnerMirror.keyOffset(s), key) + tt;
            s = mc[c < InnerMirror.LINE ? ko + c : last + s];
        }
        return s;
    }

    /** {@link #lookup} by optimistic lock coupling: every level validated before its child is used. */
    private static long coupledLookup(OlcNodes t, long key) {
        int failures = 0;
        for (;;) {
            try {
                long rw = t.rootWord;
                long at = lastInner(t, key, rw, false);
                if (at == RESTART) {
                    continue;
                }
                int leaf = childOf(t, at, key, rw);
                long v = couple(t, at, leaf, rw, true);
                if (v == RESTART) {
                    continue;
                }
                int z = Prefetch.zero();
                int k = chunk(leaf);
                int off = keyOffset(leaf);
                long[] kc = t.leafKeys.chunk(k);
                long[] vc = t.leafVals.chunk(k);
                int tt = (int) ((vc[off] | vc[off + N / 2]) & z);
                int q = NodeSearch.succGT(kc, off, key) + tt;
                boolean found = q != 0 && kc[off + q - 1] == key;
                long value = found ? vc[off + q - 1] : 0;
                if (!t.leafValid(leaf, v)) {
                    continue;
                }
                return found ? encodePrevious(value) : ABSENT_MARK;
            } catch (IndexOutOfBoundsException | NullPointerException e) {
                failures = failedRead(e, failures);
            }
        }
    }

    /** Keys descended in lock-step by {@link #getAll}: enough to overlap their misses, few enough to stay cheap. */
    static final int BATCH = 16;

    /**
     * Batched look-up: up to {@value #BATCH} keys at a time route through the mirror level by
     * level, so their cache misses overlap instead of forming one chain a key, and each key's leaf
     * is read and validated as {@link #lookup}'s fast path does ({@link #routedBatch}); a key whose
     * check fails is looked up again alone. Each answer is linearizable by itself; the batch as a
     * whole is not one atomic read. Allocates one array of {@value #BATCH} per call, none per key.
     * (It once descended the versioned nodes with lock coupling, level by level: no faster than
     * the single look-up through the mirror, docs/BENCHMARKS.md "Batches at the memory's limit".)
     */
    static void getAll(OlcNodes t, long[] keys, long[] values, long absent) {
        BatchArguments.checkGetAll(keys, values);
        int[] nodes = new int[BATCH];
        for (int base = 0; base < keys.length; base += BATCH) {
            int n = Math.min(BATCH, keys.length - base);
            int redo;
            try {
                redo = routedBatch(t, keys, base, n, nodes, values, absent);
            } catch (IndexOutOfBoundsException | NullPointerException e) {
                // An unvalidated read of a node a writer was changing: every key of the batch again.
                redo = (1 << n) - 1;
            }
            while (redo != 0) {
                int j = Integer.numberOfTrailingZeros(redo);
                redo &= redo - 1;
                long r = lookup(t, keys[base + j]);
                values[base + j] = r == ABSENT_MARK ? absent : previous(r);
            }
        }
    }

    /**
     * One group of {@link #getAll}, as {@link #lookup}'s fast path does it for one key but in
     * lock-step: the keys route through the inner levels' mirror level by level, every mirror
     * node's lines requested before any is searched (see {@link Prefetch}), then every leaf's
     * lines; then each key reads its leaf under the leaf's version and keeps the answer only if
     * the version held and the leaf's fences own the key. Returns the mask of the keys to look up
     * again alone (a failed check, or {@code MAXKEY}). A torn mirror can throw an index exception,
     * which the caller takes as every key failing.
     */
    private static int routedBatch(OlcNodes t, long[] keys, int base, int n, int[] leaves, long[] values,
            long absent) {
        InnerMirror m = t.mirror;
        long[] mk = m.keys;
        int[] mc = m.kids;
        int last = m.lastKid(0);
        long rw = t.rootWord;
        int h = (int) (rw >>> 32);
        int z = Prefetch.zero();
        int start = h == 0 ? (int) rw : Pinned.denseOf((int) rw);
        for (int j = 0; j < n; j++) {
            leaves[j] = start;
        }
        for (; h > 0; h--) {
            int tt = 0;
            for (int j = 0; j < n; j++) {
                int ko = InnerMirror.keyOffset(leaves[j]);
                tt |= (int) (mk[ko] ^ mk[ko + N - 1]) | mc[InnerMirror.kidOffset(leaves[j])];
            }
            tt &= z;
            for (int j = 0; j < n; j++) {
                int sl = leaves[j];
                int ko = InnerMirror.kidOffset(sl);
                long key = Math.min(keys[base + j], MAXKEY - 1);
                int c = NodeSearch.succGT(mk, InnerMirror.keyOffset(sl) + tt, key);
                leaves[j] = mc[c < InnerMirror.LINE ? ko + c : last + sl];
            }
        }
        int lt = 0;
        for (int j = 0; j < n; j++) {
            int leaf = leaves[j];
            int k = chunk(leaf);
            int off = keyOffset(leaf);
            long[] kc = t.leafKeys.chunk(k);
            long[] vc = t.leafVals.chunk(k);
            lt |= (int) (t.leafHdr.chunk(k)[leafHdrOffset(leaf)] ^ kc[off] ^ kc[off + N - 1] ^ vc[off]
                    ^ vc[off + N / 2] ^ vc[off + N - 1]);
        }
        lt &= z;
        int redo = 0;
        for (int j = 0; j < n; j++) {
            long key = keys[base + j];
            long r = key == MAXKEY ? FALLBACK_MARK : readLeaf(t, leaves[j] + lt, key);
            if (r == FALLBACK_MARK) {
                redo |= 1 << j;
            } else {
                values[base + j] = r == ABSENT_MARK ? absent : previous(r);
            }
        }
        return redo;
    }

    /**
     * Descends {@code keys[base, base + n)} ({@code n <=} {@value #BATCH}) in lock-step as
     * {@link #getAll} does, for the cache only: the batched updates run it before they apply a
     * group, so that each update's own descent and leaf find their lines already there. What it
     * reads is not used, so a node changed under it costs nothing but the warming. The four arrays
     * of {@value #BATCH} are the caller's scratch.
     */
    static void warm(OlcNodes t, long[] keys, int base, int n, int[] nodes, long[] versions, long[] group,
                     long[] scratch) {
        System.arraycopy(keys, base, group, 0, n);
        try {
            batch(t, group, 0, n, nodes, versions, scratch, 0);
        } catch (IndexOutOfBoundsException | NullPointerException e) {
            // an unvalidated read of a node a writer was changing: the warming is only a hint
        }
    }

    /**
     * One batch of {@link #getAll}: answers {@code keys[base, base+n)} into {@code values} and
     * returns the bit mask of those it could not (a validation failed, or the key is MAXKEY).
     */
    private static int batch(OlcNodes t, long[] keys, int base, int n, int[] nodes, long[] versions, long[] values,
            long absent) {
        int all = (1 << n) - 1;
        long rw = t.rootWord;
        int root = (int) rw;
        int h = (int) (rw >>> 32);
        long[][] ikd = t.innerKeys.directory();
        int[][] ibd = t.innerKids.directory();
        long[][] lhd = t.leafHdr.directory();
        long v = h == 0 ? VersionLock.read(lhd[chunk(root)], leafHdrOffset(root))
                : VersionLock.read(ibd[chunk(root)], blockOffset(root) + IV);
        if (VersionLock.isLocked(v) || t.rootWord != rw) {
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
        int z = Prefetch.zero();
        for (; h > 0; h--) {
            // One level for every key before the next level: the keys' loads are independent.
            for (int j = 0; j < n; j++) {
                if ((redo >>> j & 1) != 0) {
                    continue;
                }
                int node = nodes[j];
                int[] cc = ibd[chunk(node)];
                int co = blockOffset(node);
                int tt = (cc[co] | cc[co + IB / 2]) & z;
                int c = NodeSearch.succGT(ikd[chunk(node)], keyOffset(node), keys[base + j]);
                int child = cc[co + KID0 + c + tt];
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
            long[] kc = t.leafKeys.chunk(k);
            long[] vc = t.leafVals.chunk(k);
            int tt = (int) ((vc[off] | vc[off + N / 2]) & z);
            long key = keys[base + j];
            int q = NodeSearch.succGT(kc, off, key) + tt;
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

    // ---- the lock-coupled descent, written once -------------------------------------------------
    //
    // A descent's position is an inner node whose version was read while the node above it was
    // still valid, and that is not validated itself yet: node << 32 | version, as one long, so
    // that no call allocates (inner versions are 32 bits). The caller of lastInner takes the last
    // step itself, childOf then couple, because a leaf's version is 64 bits: it keeps the leaf id
    // and the version in its own locals. Every caller does, in this order:
    //
    //     long at = lastInner(t, key, rw, ...);        // RESTART: start again
    //     int leaf = childOf(t, at, key, rw, ...);      // unvalidated
    //     long v = couple(t, at, leaf, rw, true);      // RESTART: start again
    //
    // and then reads the leaf and validates v, or locks the leaf from v.

    /** A node moved on under a descent, or was locked: start again from the root. Never a position. */
    static final long RESTART = Long.MIN_VALUE;
    /** The position above the root: the next node is the root itself (a leaf at height 0). */
    static final long ROOT = (long) NONE << 32;
    /**
     * Flag on a position ({@link #lastInner} asked to stop at full nodes): the next node on the path
     * is a full inner node. An unlocked inner version is a multiple of {@link VersionLock#STEP}, so
     * its lowest bit is free.
     */
    static final long FULL_NEXT = 1;

    static long position(int node, long version) {
        return (long) node << 32 | version & 0xFFFF_FFFFL;
    }

    /** The node of a position: an inner node id, or NONE for {@link #ROOT}. */
    static int nodeOf(long at) {
        return (int) (at >>> 32);
    }

    /** The version of a position, as {@link VersionLock#read(int[], int)} returned it. */
    static long versionOf(long at) {
        return (int) at & ~(int) FULL_NEXT;
    }

    static boolean fullNext(long at) {
        return (at & FULL_NEXT) != 0;
    }

    /**
     * Optimistic lock coupling through the inner levels: from the root of {@code rw} (the root word
     * the caller read) down to the last inner node on {@code key}'s path. Each level reads the child's
     * version, then validates the node it came from, then moves on. Returns the last inner node's
     * position, {@link #ROOT} when the root is a leaf, or {@link #RESTART}.
     *
     * <p>With {@code stopAtFull} (inserts, which split a full inner node when they pass it), returns
     * as soon as the next node is a full inner node: the position above it, flagged
     * {@link #FULL_NEXT}.
     */
    static long lastInner(OlcNodes t, long key, long rw, boolean stopAtFull) {
        int node = (int) rw;
        int h = (int) (rw >>> 32);
        if (h == 0) {
            return ROOT;
        }
        // The directories are read once a descent (volatile reads are barriers the JIT cannot move
        // loads across), then indexed on every level.
        long[][] ikd = t.innerKeys.directory();
        int[][] ibd = t.innerKids.directory();
        long v = VersionLock.read(ibd[chunk(node)], blockOffset(node) + IV);
        if (VersionLock.isLocked(v) || t.rootWord != rw) {
            Thread.onSpinWait();
            return RESTART;
        }
        if (stopAtFull && ibd[chunk(node)][blockOffset(node) + IM] == FULL) {
            return ROOT | FULL_NEXT;
        }
        int z = Prefetch.zero();
        // The loop keeps only the node id and its version live, so the JIT has registers for the rest.
        for (; h > 1; h--) {
            int[] cc = ibd[chunk(node)];
            int co = blockOffset(node);
            // Start the child-id lines' loads with the keys' (see Prefetch).
            int tt = (cc[co] | cc[co + IB / 2]) & z;
            int c = NodeSearch.succGT(ikd[chunk(node)], keyOffset(node), key);
            int child = cc[co + KID0 + c + tt];
            int[] xc = ibd[chunk(child)];
            int xo = blockOffset(child);
            long cv = VersionLock.read(xc, xo + IV);
            if (!VersionLock.valid(cc, co + IV, v) || VersionLock.isLocked(cv)) {
                return RESTART;
            }
            if (stopAtFull && xc[xo + IM] == FULL) {
                return position(node, v) | FULL_NEXT;
            }
            node = child;
            v = cv;
        }
        return position(node, v);
    }

    /**
     * The node after position {@code at} on {@code key}'s path (for {@link #ROOT}, the root of
     * {@code rw}), read without validation: {@link #couple} validates {@code at} after reading its
     * version.
     */
    static int childOf(OlcNodes t, long at, long key, long rw) {
        int node = nodeOf(at);
        if (node == NONE) {
            return (int) rw;
        }
        int[] cc = t.innerKids.chunk(chunk(node));
        int co = blockOffset(node);
        int tt = (cc[co] | cc[co + IB / 2]) & Prefetch.zero();
        int c = NodeSearch.succGT(t.innerKeys.chunk(chunk(node)), keyOffset(node), key);
        return cc[co + KID0 + c + tt];
    }

    /**
     * The lock-coupling step's end: reads the version of {@code child} (a leaf, or an inner node),
     * then validates position {@code at} (for {@link #ROOT}: that the root word is still
     * {@code rw}). Returns that version, at which {@code child} is the node on the key's path, or
     * {@link #RESTART} if {@code at} moved on or {@code child} is locked.
     */
    static long couple(OlcNodes t, long at, int child, long rw, boolean leaf) {
        long cv = leaf ? t.leafVersion(child) : t.innerVersion(child);
        int node = nodeOf(at);
        if (node == NONE) {
            if (VersionLock.isLocked(cv) || t.rootWord != rw) {
                Thread.onSpinWait();
                return RESTART;
            }
            return cv;
        }
        if (!t.innerValid(node, versionOf(at)) || VersionLock.isLocked(cv)) {
            return RESTART;
        }
        return cv;
    }

    /**
     * A read-only descent to the leaf whose range holds {@code key} (below MAXKEY): fills the probe's
     * leaf and its version (read before its parent was validated). False: restart.
     */
    static boolean descend(OlcNodes t, long key, Probe p) {
        long rw = t.rootWord;
        long at = lastInner(t, key, rw, false);
        if (at == RESTART) {
            return false;
        }
        int leaf = childOf(t, at, key, rw);
        long v = couple(t, at, leaf, rw, true);
        if (v == RESTART) {
            return false;
        }
        p.leaf = leaf;
        p.version = v;
        return true;
    }

    /** The encoded value of {@code Long.MAX_VALUE}, or ABSENT_MARK. */
    static long maxLookup(OlcNodes t) {
        long[] mr = t.maxRecord;
        for (;;) {
            long v = VersionLock.read(mr, VERSION);
            if (!VersionLock.isLocked(v)) {
                boolean present = mr[1] != 0;
                long value = mr[2];
                if (VersionLock.valid(mr, VERSION, v)) {
                    return present ? encodePrevious(value) : ABSENT_MARK;
                }
            }
            Thread.onSpinWait();
        }
    }

    // ---- ranges ---------------------------------------------------------------------------------

    /**
     * Counts, or visits, the keys in the range: leaf by leaf, each leaf read at one instant, moving
     * on by the leaf's upper bound (weakly consistent). With a visitor, returns how many entries it
     * was given, the one it stopped at included.
     */
    static long walk(OlcBSTree t, long from, boolean fromInclusive, long to, boolean toInclusive,
            LongEntryVisitor visitor) {
        if (Bounds.isEmpty(from, fromInclusive, to, toInclusive)) {
            return 0;
        }
        long lo = Bounds.lowest(from, fromInclusive);
        long hi = Bounds.highest(to, toInclusive);
        long n = 0;
        if (lo < MAXKEY) {
            OlcCursor c = new OlcCursor(t);
            long end = hi == MAXKEY ? MAXKEY - 1 : hi; // leaves hold keys below MAXKEY only
            boolean more = c.loadCovering(lo);
            long at = lo;
            while (true) {
                // Slots of the snapshot with keys in [at, end]. Past the first leaf, at is the
                // last copy's HIGH: the next copy may reach below it (its range took over an emptied
                // leaf's since), and a key put back there must not be visited twice.
                int bits = c.slotsBetween(at, end);
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
                at = c.snapHigh;
                more = c.loadNext();
            }
        }
        if (hi == MAXKEY) {
            long r = maxLookup(t);
            if (r != ABSENT_MARK) {
                n++;
                if (visitor != null) {
                    visitor.visit(MAXKEY, previous(r));
                }
            }
        }
        return n;
    }
}
