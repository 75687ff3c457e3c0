package org.bforest.olc;

import static org.bforest.kernel.GapSlots.FULL;
import static org.bforest.kernel.GapSlots.MAXKEY;
import static org.bforest.kernel.GapSlots.N;
import static org.bforest.olc.OlcNodes.ABSENT_MARK;
import static org.bforest.olc.OlcNodes.FALLBACK_MARK;
import static org.bforest.olc.OlcNodes.FAST_TRIES;
import static org.bforest.olc.OlcNodes.HIGH;
import static org.bforest.olc.OlcNodes.IM;
import static org.bforest.olc.OlcNodes.IV;
import static org.bforest.olc.OlcNodes.KID0;
import static org.bforest.olc.OlcNodes.KIDS;
import static org.bforest.olc.OlcNodes.LEVEL;
import static org.bforest.olc.OlcNodes.LOW;
import static org.bforest.olc.OlcNodes.META;
import static org.bforest.olc.OlcNodes.NONE;
import static org.bforest.olc.OlcNodes.VERSION;
import static org.bforest.olc.OlcNodes.blockOffset;
import static org.bforest.olc.OlcNodes.chunk;
import static org.bforest.olc.OlcNodes.encodePrevious;
import static org.bforest.olc.OlcNodes.failedRead;
import static org.bforest.olc.OlcNodes.keyOffset;
import static org.bforest.olc.OlcNodes.leafHdrOffset;
import static org.bforest.olc.OlcReader.RESTART;

import java.util.Arrays;
import org.bforest.kernel.GapSlots;
import org.bforest.kernel.NodeSearch;
import org.bforest.spi.PackedLeaves;

/**
 * The write side of the concurrent BS-tree: put and delete and the conditional writes (through the
 * mirror, or by lock coupling; one mode argument, see {@link #PUT}), leaf and inner splits, the
 * out-of-band {@code Long.MAX_VALUE}, and the upkeep of the inner levels' mirror. A leaf that a
 * delete empties is handed to {@link OlcUnlinker}, whose locking follows the rules below. Static
 * methods handed the tree (see {@link OlcNodes} for why); {@link #mirroredWrite}, the hot path of
 * put and remove, is the code it was, in a final class. The node writers ({@link #writeLeaf},
 * {@link #writeInner}) and {@link #copyMirror} also serve {@link OlcBulkLoad}.
 *
 * <h2>Why the locking is deadlock-free</h2>
 * <ol>
 * <li><b>Nobody waits for a node lock.</b> Every node lock is taken by {@link VersionLock#tryLock},
 *     a compare-and-set from the version the writer read, so a lock is taken only on a node exactly
 *     as read, and what was read before it (the search, the bitmap, the fences, the path) is exact
 *     once it is held. A tryLock that fails releases every lock the writer holds (try/finally) and
 *     the operation starts again. A thread that holds node locks never waits for one, so node locks
 *     form no cycle of waiting, whatever the order they are taken in; the orders are: a leaf alone
 *     (an update, an insert with room, a delete); an inner node's parent, then the node
 *     ({@link #splitFullInner}, top-down); a leaf, then its parent ({@link #splitFullLeaf}: the
 *     leaf is locked when the insert finds it full); an unlink's inner nodes top-down, the emptied
 *     leaf, the leaf before it, the leaf after it ({@link OlcUnlinker}); a root alone (its
 *     replacement by its only child); the leaves of a neighbour walk in walk order
 *     ({@link OlcNeighbours}, after repeated restarts).</li>
 * <li><b>The mirror's lock ends every wait.</b> The one lock a writer waits for is the mirror's
 *     {@code StampedLock}. Its read lock is held by each section that changes inner nodes, maybe
 *     with a leaf already locked ({@link #splitFullLeaf}); its write lock only by
 *     {@link #growMirror}, which holds no node lock and copies the nodes without locking them. No
 *     holder waits for anything while it holds it: a read section only try-locks, allocates
 *     (the storage's monitor is held only to add a chunk, the free lists' only to push or pop an
 *     id), writes and unlocks; the copy only reads.
 *     {@link #lockMirror} grows the mirror before it takes the read lock and {@link #unlockMirror}
 *     after it released it, so no thread waits for the write lock while it holds the read lock.</li>
 * <li>The {@code Long.MAX_VALUE} record's lock is waited for ({@link #lockMax} spins), but its
 *     holder holds no other lock and only makes a few stores.</li>
 * </ol>
 *
 * <h2>Why the mirror stays exact</h2>
 * <ol start="4">
 * <li>An inner node changes only in a section that holds the mirror's read lock and the node's
 *     lock (or the node is new and not linked yet), and the section writes the node into the
 *     current mirror, read inside the section, before it unlocks the node. {@link #growMirror}'s
 *     write lock excludes every such section, so its copy sees no node mid-change and starts
 *     exact, and it stores the new mirror before it releases the lock, so every later section
 *     writes to the new one; the old one is never written again. With no update running, every
 *     inner node's mirror slot is the node ({@link OlcChecker} checks it).</li>
 * <li>Threads splitting at once can allocate past the mirror's end (each checked the capacity
 *     before the others allocated): {@link #mirrorNode} skips such a node, and
 *     {@link #unlockMirror} copies the mirror as the section ends, so no node stays unmirrored.</li>
 * <li>Leaves are not in the mirror (its last level holds leaf ids), so a write inside a leaf never
 *     touches it. A wrong mirror is only slow, never wrong: a leaf is trusted only by its version
 *     and fences (see {@link OlcReader}, 3.).</li>
 * </ol>
 *
 * <h2>What the readers rely on</h2>
 * <ol start="7">
 * <li>A leaf split fills the new right leaf (keys, values, fences, its chain links, and the PREV of
 *     the leaf after it) and publishes it with a release store before the separator links it, and
 *     narrows the left leaf's HIGH fence in the locked section that moves the keys out: at every
 *     version, a leaf holds exactly the keys within its fences. A new inner node (fresh or reused)
 *     is filled and {@link OlcNodes#publishInner}ed before its parent's unlock or the root word's
 *     volatile store links it. An unlink hands an emptied leaf's range to a neighbour in one
 *     locked section ({@link OlcUnlinker}); freed nodes stay locked until reused
 *     ({@link NodeRecycler}).</li>
 * <li>Inserts split a full inner node when they pass it (Leis et al.'s eager split), so the parent
 *     of a leaf always has a free slot (unlinks only take separators out); a full leaf then splits
 *     and hands its separator to the parent at once, without a restart: the BS-tree paper's
 *     relaxation of OLC for gapped nodes. Deletes clear their slot (the paper's Algorithm 5).</li>
 * <li>A conditional write that changes nothing (a key absent, a value not the expected one, a
 *     PUT_IF_ABSENT of a key there) answers from a read of the leaf it validates; one that changes
 *     locks the leaf from the version it read, so the comparison it made is exact: each is one
 *     atomic step.</li>
 * </ol>
 */
final class OlcWriter {
    private OlcWriter() {
    }

    // ---- put and delete -------------------------------------------------------------------------

    /*
     * What a write does with the key's slot (an int, so that put and remove pass a constant and
     * their paths fold it away). Modes from REPLACE on change only a key that is there; modes from
     * REPLACE_IF on only one whose value is the expected one. Every mode answers ABSENT_MARK or the
     * encoded value the key had; it changes nothing where it answers from a validated read.
     */
    /** Insert, or replace the value. */
    static final int PUT = 0;
    /** Insert only: a key that is there keeps its value, which is the answer. */
    static final int PUT_IF_ABSENT = 1;
    /** Replace the value of a key that is there; nothing else. */
    static final int REPLACE = 2;
    static final int REMOVE = 3;
    /** Replace the value only if it is the expected one (the answer is ABSENT_MARK otherwise). */
    static final int REPLACE_IF = 4;
    /** Remove the key only if its value is the expected one. */
    static final int REMOVE_IF = 5;

    /**
     * Puts; returns ABSENT_MARK if the key was new, else the encoded previous value. An update, or
     * an insert into a leaf with a free slot, first tries {@link #mirroredWrite}. An insert that
     * must split, and every try that fails {@link OlcNodes#FAST_TRIES} times, takes the lock-coupled
     * descent, which splits full inner nodes on its way down.
     */
    static long insert(OlcNodes t, long key, long value) {
        if (key == MAXKEY) {
            return writeMax(t, value, PUT, 0);
        }
        long r = mirroredWrite(t, key, value, false);
        return r != FALLBACK_MARK ? r : coupledInsert(t, key, value, PUT);
    }

    /** Removes; returns ABSENT_MARK if the key was not there, else the encoded previous value. */
    static long delete(OlcNodes t, long key) {
        if (key == MAXKEY) {
            return writeMax(t, 0, REMOVE, 0);
        }
        long r = mirroredWrite(t, key, 0, true);
        return r != FALLBACK_MARK ? r : coupledChange(t, key, 0, REMOVE, 0);
    }

    /**
     * A write in {@code mode} (see {@link #PUT}), one atomic step under the leaf's lock or answered
     * from one validated read of the leaf. {@code expected} counts for REPLACE_IF and REMOVE_IF only.
     * PUT and REMOVE go the way of {@link #insert} and {@link #delete}.
     */
    static long write(OlcNodes t, long key, long value, int mode, long expected) {
        if (mode == PUT) {
            return insert(t, key, value);
        }
        if (mode == REMOVE) {
            return delete(t, key);
        }
        if (key == MAXKEY) {
            return writeMax(t, value, mode, expected);
        }
        long r = mirroredChange(t, key, value, mode, expected);
        if (r != FALLBACK_MARK) {
            return r;
        }
        return mode == PUT_IF_ABSENT ? coupledInsert(t, key, value, mode)
                : coupledChange(t, key, value, mode, expected);
    }

    /**
     * A put ({@code remove} false) or a delete through the leaf the mirror routes {@code key} to,
     * trusted once its version and fences say it is the key's leaf, then locked from the version
     * read, so that everything read before the lock is exact. Returns as {@link #insert} or
     * {@link #delete} would, or {@link OlcNodes#FALLBACK_MARK} for an insert that must split a leaf or
     * after {@link OlcNodes#FAST_TRIES} failed tries. Apart from {@link #mirroredChange} (the same
     * for the other modes) so that the hot paths stay the size the JIT inlines whole.
     */
    private static long mirroredWrite(OlcNodes t, long key, long value, boolean remove) {
        for (int tries = FAST_TRIES; tries > 0; tries--) {
            try {
                int leaf = OlcReader.routeLeaf(t, key);
                int k = chunk(leaf);
                int ho = leafHdrOffset(leaf);
                int off = keyOffset(leaf);
                long[] hc = t.leafHdr.chunk(k);
                long[] kc = t.leafKeys.chunk(k);
                long[] vc = t.leafVals.chunk(k);
                long v = VersionLock.read(hc, ho + VERSION);
                int q = NodeSearch.succGT(kc, off, key);
                boolean found = q != 0 && kc[off + q - 1] == key;
                int bm = (int) hc[ho + META];
                boolean owns = hc[ho + LOW] <= key && key < hc[ho + HIGH];
                if (owns && VersionLock.isReadable(v)) {
                    if (remove && !found) {
                        if (VersionLock.valid(hc, ho + VERSION, v)) {
                            return unchanged(t, false, bm, REMOVE, 0, key);
                        }
                    } else if (!remove && !found && bm == FULL) {
                        return FALLBACK_MARK; // a split
                    } else if (VersionLock.tryLock(hc, ho + VERSION, v)) {
                        return remove ? deleteLocked(t, kc, vc, hc, off, ho, q, bm, key)
                                : insertLocked(t, kc, vc, hc, off, ho, q, found, bm, key, value);
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
     * {@link #mirroredWrite} for the modes other than PUT and REMOVE: a write that changes nothing
     * answers from the leaf's validated read; one that changes locks the leaf from the version read.
     */
    private static long mirroredChange(OlcNodes t, long key, long value, int mode, long expected) {
        for (int tries = FAST_TRIES; tries > 0; tries--) {
            try {
                int leaf = OlcReader.routeLeaf(t, key);
                int k = chunk(leaf);
                int ho = leafHdrOffset(leaf);
                int off = keyOffset(leaf);
                long[] hc = t.leafHdr.chunk(k);
                long[] kc = t.leafKeys.chunk(k);
                long[] vc = t.leafVals.chunk(k);
                long v = VersionLock.read(hc, ho + VERSION);
                int q = NodeSearch.succGT(kc, off, key);
                boolean found = q != 0 && kc[off + q - 1] == key;
                int bm = (int) hc[ho + META];
                long old = found ? vc[off + q - 1] : 0;
                boolean owns = hc[ho + LOW] <= key && key < hc[ho + HIGH];
                if (owns && VersionLock.isReadable(v)) {
                    if (found ? keeps(mode, old, expected) : mode >= REPLACE) {
                        if (VersionLock.valid(hc, ho + VERSION, v)) {
                            return unchanged(t, found, bm, mode, old, key);
                        }
                    } else if (!found && bm == FULL) {
                        return FALLBACK_MARK; // a split
                    } else if (VersionLock.tryLock(hc, ho + VERSION, v)) {
                        return mode == REMOVE_IF ? deleteLocked(t, kc, vc, hc, off, ho, q, bm, key)
                                : insertLocked(t, kc, vc, hc, off, ho, q, found, bm, key, value);
                    }
                }
            } catch (IndexOutOfBoundsException | NullPointerException e) {
                // a bad child id from the mirror read mid-change: a failed try
            }
            Thread.onSpinWait();
        }
        return FALLBACK_MARK;
    }

    /** Whether a key that is there, with value {@code old}, stays as it is in {@code mode} (not PUT or REMOVE). */
    private static boolean keeps(int mode, long old, long expected) {
        return mode == PUT_IF_ABSENT || mode >= REPLACE_IF && old != expected;
    }

    /**
     * The answer of a write that changed nothing, from a leaf read and validated: the value for a
     * PUT_IF_ABSENT that found the key, else ABSENT_MARK. A validated empty leaf (a delete of a key
     * that is not there) is handed to {@link OlcUnlinker#metEmpty}: an emptied leaf whose unlink
     * was put off is reclaimed by whatever meets it.
     */
    private static long unchanged(OlcNodes t, boolean found, int bm, int mode, long old, long key) {
        if (found) {
            return mode == PUT_IF_ABSENT ? encodePrevious(old) : ABSENT_MARK;
        }
        if (bm == 0) {
            OlcUnlinker.metEmpty(t, key);
        }
        return ABSENT_MARK;
    }

    /**
     * The leaf part of a put, on a leaf this thread locked at the version it read {@code q},
     * {@code found} and {@code bm} at (so they are exact), with a free slot unless {@code found}.
     * Unlocks the leaf.
     */
    private static long insertLocked(OlcNodes t, long[] kc, long[] vc, long[] hc, int off, int ho, int q,
            boolean found, int bm, long key, long value) {
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
        t.size.increment();
        return ABSENT_MARK;
    }

    /**
     * Clears slot {@code q - 1} of a leaf this thread locked at the version it read {@code q} and
     * {@code bm} at; unlocks it. A leaf it empties is unlinked ({@link OlcUnlinker#emptied}) after
     * the unlock: the delete has happened by then, whatever the unlink does.
     */
    private static long deleteLocked(OlcNodes t, long[] kc, long[] vc, long[] hc, int off, int ho, int q, int bm,
            long key) {
        long previous = vc[off + q - 1];
        vc[off + q - 1] = 0;
        int left = GapSlots.clearSlot(kc, off, bm, q - 1);
        hc[ho + META] = left;
        VersionLock.unlock(hc, ho + VERSION);
        t.size.decrement();
        if (left == 0) {
            OlcUnlinker.emptied(t, key);
        }
        return encodePrevious(previous);
    }

    /**
     * A PUT or PUT_IF_ABSENT by optimistic lock coupling ({@link OlcReader#lastInner}), splitting as
     * it must.
     */
    private static long coupledInsert(OlcNodes t, long key, long value, int mode) {
        int failures = 0;
        for (;;) {
            try {
                long rw = t.rootWord;
                long at = OlcReader.lastInner(t, key, rw, true);
                if (at == RESTART) {
                    continue;
                }
                int node = OlcReader.childOf(t, at, key, rw);
                int parent = OlcReader.nodeOf(at);
                long pv = OlcReader.versionOf(at);
                if (OlcReader.fullNext(at)) {
                    // A full inner node on an insert's path splits now, so that the split of any
                    // node below finds room in its parent (Leis et al.'s eager split). Its bitmap is
                    // read again after its version: the lock taken from that version makes it exact.
                    long v = OlcReader.couple(t, at, node, rw, false);
                    if (v != RESTART && t.innerKids.chunk(chunk(node))[blockOffset(node) + IM] == FULL) {
                        splitFullInner(t, node, v, parent, pv, rw);
                    }
                    continue;
                }
                long v = OlcReader.couple(t, at, node, rw, true);
                if (v == RESTART) {
                    continue;
                }
                int k = chunk(node);
                int off = keyOffset(node);
                int ho = leafHdrOffset(node);
                long[] kc = t.leafKeys.chunk(k);
                long[] vc = t.leafVals.chunk(k);
                long[] hc = t.leafHdr.chunk(k);
                int q = NodeSearch.succGT(kc, off, key);
                boolean found = q != 0 && kc[off + q - 1] == key;
                int bm = (int) hc[ho + META];
                if (found && mode == PUT_IF_ABSENT) {
                    long old = vc[off + q - 1];
                    if (!VersionLock.valid(hc, ho + VERSION, v)) {
                        continue;
                    }
                    return encodePrevious(old);
                }
                if (!VersionLock.tryLock(hc, ho + VERSION, v)) {
                    continue;
                }
                // Locked, and unchanged since it was read: q, found and bm are exact.
                if (found || bm != FULL) {
                    return insertLocked(t, kc, vc, hc, off, ho, q, found, bm, key, value);
                }
                if (!splitFullLeaf(t, node, q, key, value, parent, pv)) {
                    continue;
                }
                t.size.increment();
                return ABSENT_MARK;
            } catch (IndexOutOfBoundsException | NullPointerException e) {
                failures = failedRead(e, failures);
            }
        }
    }

    /**
     * A write that changes only a key that is there (REPLACE, REMOVE, REPLACE_IF, REMOVE_IF) by
     * optimistic lock coupling ({@link OlcReader#lastInner}); it never splits.
     */
    private static long coupledChange(OlcNodes t, long key, long value, int mode, long expected) {
        int failures = 0;
        for (;;) {
            try {
                long rw = t.rootWord;
                long at = OlcReader.lastInner(t, key, rw, false);
                if (at == RESTART) {
                    continue;
                }
                int leaf = OlcReader.childOf(t, at, key, rw);
                long v = OlcReader.couple(t, at, leaf, rw, true);
                if (v == RESTART) {
                    continue;
                }
                int k = chunk(leaf);
                int off = keyOffset(leaf);
                int ho = leafHdrOffset(leaf);
                long[] kc = t.leafKeys.chunk(k);
                long[] vc = t.leafVals.chunk(k);
                long[] hc = t.leafHdr.chunk(k);
                int q = NodeSearch.succGT(kc, off, key);
                boolean found = q != 0 && kc[off + q - 1] == key;
                int bm = (int) hc[ho + META];
                long old = found ? vc[off + q - 1] : 0;
                if (!found || keeps(mode, old, expected)) {
                    if (!VersionLock.valid(hc, ho + VERSION, v)) {
                        continue;
                    }
                    return unchanged(t, found, bm, mode, old, key);
                }
                if (!VersionLock.tryLock(hc, ho + VERSION, v)) {
                    continue;
                }
                return mode == REMOVE || mode == REMOVE_IF ? deleteLocked(t, kc, vc, hc, off, ho, q, bm, key)
                        : insertLocked(t, kc, vc, hc, off, ho, q, true, bm, key, value);
            } catch (IndexOutOfBoundsException | NullPointerException e) {
                failures = failedRead(e, failures);
            }
        }
    }

    // ---- splits ---------------------------------------------------------------------------------

    /**
     * Splits the full inner node {@code node} (read at version {@code v}) if it and its parent
     * ({@code NONE} for the root of {@code rw}) are still as read: its first 8 separators stay, the
     * 9th goes up, the last 7 move to a new node. Returns having unlocked everything, split or not;
     * the caller restarts either way.
     */
    private static void splitFullInner(OlcNodes t, int node, long v, int parent, long pv, long rw) {
        int[] hc = t.innerKids.chunk(chunk(node));
        int ho = blockOffset(node) + IV;
        int h = hc[blockOffset(node) + LEVEL];
        if (parent == NONE) {
            long stamp = lockMirror(t);
            try {
                if (!VersionLock.tryLock(hc, ho, v)) {
                    return;
                }
                try {
                    if (t.rootWord != rw) {
                        return; // the root moved on (cannot while we hold it, but cheap to be sure)
                    }
                    int right = t.newInner(h);
                    int root = t.newInner(h + 1);
                    long sep = splitInner(t, node, right);
                    writeRoot(t, root, node, sep, right);
                    t.publishInner(right);
                    t.publishInner(root);
                    InnerMirror m = t.mirror;
                    mirrorNode(t, m, node);
                    mirrorNode(t, m, right);
                    mirrorNode(t, m, root);
                    t.rootWord = (long) (h + 1) << 32 | root;
                } finally {
                    VersionLock.unlock(hc, ho);
                }
            } finally {
                unlockMirror(t, stamp);
            }
            return;
        }
        int[] phc = t.innerKids.chunk(chunk(parent));
        int pho = blockOffset(parent) + IV;
        long stamp = lockMirror(t);
        try {
            if (!VersionLock.tryLock(phc, pho, pv)) {
                return;
            }
            try {
                if (!VersionLock.tryLock(hc, ho, v)) {
                    return;
                }
                try {
                    int right = t.newInner(h);
                    long sep = splitInner(t, node, right);
                    t.publishInner(right);
                    insertSeparator(t, parent, sep, right);
                    InnerMirror m = t.mirror;
                    mirrorNode(t, m, right);
                    mirrorNode(t, m, node);
                    mirrorNode(t, m, parent);
                } finally {
                    VersionLock.unlock(hc, ho);
                }
            } finally {
                VersionLock.unlock(phc, pho);
            }
        } finally {
            unlockMirror(t, stamp);
        }
    }

    /**
     * Splits the full, locked leaf {@code leaf} around a new key that belongs at slot {@code q}: 9
     * entries stay, 8 go to a new leaf, each half spread over 16 slots; the separator goes into the
     * parent (locked here if it is still at version {@code pv}; it has room, see
     * {@link #splitFullInner}) or, for a root leaf, into a new root. Unlocks the leaf. Returns
     * false, with nothing changed, if the parent moved on.
     */
    private static boolean splitFullLeaf(OlcNodes t, int leaf, int q, long key, long value, int parent, long pv) {
        long[] hc = t.leafHdr.chunk(chunk(leaf));
        int ho = leafHdrOffset(leaf) + VERSION;
        try {
            long stamp = lockMirror(t);
            try {
                if (parent == NONE) {
                    int right = t.newLeaf();
                    int root = t.newInner(1);
                    long sep = splitLeaf(t, leaf, q, key, value, right);
                    writeRoot(t, root, leaf, sep, right);
                    t.publishInner(root);
                    mirrorNode(t, t.mirror, root);
                    t.rootWord = 1L << 32 | root;
                    return true;
                }
                int[] phc = t.innerKids.chunk(chunk(parent));
                int pho = blockOffset(parent) + IV;
                if (!VersionLock.tryLock(phc, pho, pv)) {
                    return false;
                }
                try {
                    int right = t.newLeaf();
                    long sep = splitLeaf(t, leaf, q, key, value, right);
                    insertSeparator(t, parent, sep, right);
                    mirrorNode(t, t.mirror, parent);
                } finally {
                    VersionLock.unlock(phc, pho);
                }
                return true;
            } finally {
                unlockMirror(t, stamp);
            }
        } finally {
            VersionLock.unlock(hc, ho);
        }
    }

    /** Moves the 17 entries of a full leaf plus the new one into it and {@code right}; returns the separator. */
    private static long splitLeaf(OlcNodes t, int leaf, int q, long key, long value, int right) {
        int k = chunk(leaf);
        int off = keyOffset(leaf);
        long[] kc = t.leafKeys.chunk(k);
        long[] vc = t.leafVals.chunk(k);
        long[] sk = new long[N + 1];
        long[] sv = new long[N + 1];
        // A full leaf has no gaps: slot s is entry s; the new key goes before slot q.
        PackedLeaves.withEntry(kc, vc, off, N, q, key, value, sk, sv);
        int left = (N + 2) / 2;
        long sep = sk[left];
        writeLeaf(t, right, sk, sv, left, N + 1 - left);
        long[] hc = t.leafHdr.chunk(k);
        int ho = leafHdrOffset(leaf);
        t.setFences(right, sep, hc[ho + HIGH]);
        // Into the chain: the next leaf's PREV is written under this leaf's lock (the leaf before
        // it) and before the new leaf is published, so that nobody else can lock the new leaf yet.
        int next = t.nextLeaf(leaf);
        t.setLinks(right, next, leaf);
        if (next != NONE) {
            t.setPrev(next, right);
        } else {
            t.lastLeaf = right;
        }
        // Readable before the separator links it: a reader that reaches it early acquires it whole.
        t.publishLeaf(right);
        writeLeaf(t, leaf, sk, sv, 0, left);
        hc[ho + HIGH] = sep;
        t.setNext(leaf, right);
        return sep;
    }

    /** Splits a full, locked inner node: 8 separators stay, 7 go to {@code right}; returns the 9th. */
    private static long splitInner(OlcNodes t, int node, int right) {
        int k = chunk(node);
        int off = keyOffset(node);
        long[] ks = Arrays.copyOfRange(t.innerKeys.chunk(k), off, off + N);
        int co = blockOffset(node) + KID0;
        int[] kids = Arrays.copyOfRange(t.innerKids.chunk(k), co, co + KIDS);
        writeInner(t, right, ks, kids, N / 2 + 1, N / 2 - 1);
        writeInner(t, node, ks, kids, 0, N / 2);
        return ks[N / 2];
    }

    /** A new root over {@code left} and {@code right}, separated by {@code sep}. */
    private static void writeRoot(OlcNodes t, int root, int left, long sep, int right) {
        writeInner(t, root, new long[] {sep}, new int[] {left, right}, 0, 1);
    }

    /** Inserts (sep, child) into a locked inner node that has a free slot. */
    private static void insertSeparator(OlcNodes t, int node, long sep, int child) {
        int k = chunk(node);
        int off = keyOffset(node);
        int bo = blockOffset(node);
        long[] kc = t.innerKeys.chunk(k);
        int[] cc = t.innerKids.chunk(k);
        int bm = cc[bo + IM];
        // sep lies strictly between the separators around the child that split, so succ> puts it
        // right after that child's slot.
        int r = NodeSearch.succGT(kc, off, sep);
        int opened = GapSlots.openSlot(kc, off, cc, bo + KID0 + 1, bm, r);
        int at = opened & 0xFF;
        kc[off + at] = sep;
        cc[bo + KID0 + 1 + at] = child;
        cc[bo + IM] = bm | 1 << (opened >>> 8);
    }

    // ---- node writers (splits and the bulk load) ------------------------------------------------

    /** Writes {@code n >= 1} sorted entries into a leaf, entry j at slot {@code j*16/n}. */
    static void writeLeaf(OlcNodes t, int leaf, long[] ks, long[] vs, int from, int n) {
        int k = chunk(leaf);
        int off = keyOffset(leaf);
        long[] kc = t.leafKeys.chunk(k);
        long[] vc = t.leafVals.chunk(k);
        int bm = GapSlots.spread(kc, off, ks, from, n);
        Arrays.fill(vc, off, off + N, 0);
        for (int j = 0; j < n; j++) {
            vc[off + j * N / n] = vs == null ? 0 : vs[from + j];
        }
        t.leafHdr.chunk(k)[leafHdrOffset(leaf) + META] = bm;
    }

    /** Writes keys {@code ks[from, from+n)} with children {@code kids[from, from+n]} into a node, spread. */
    static void writeInner(OlcNodes t, int node, long[] ks, int[] kids, int from, int n) {
        int k = chunk(node);
        int bm = GapSlots.spread(t.innerKeys.chunk(k), keyOffset(node), ks, from, n);
        int[] cc = t.innerKids.chunk(k);
        int co = blockOffset(node) + KID0;
        Arrays.fill(cc, co, co + KIDS, NONE);
        cc[co] = kids[from];
        for (int j = 0; j < n; j++) {
            cc[co + 1 + j * N / n] = kids[from + 1 + j];
        }
        cc[blockOffset(node) + IM] = bm;
    }

    // ---- the inner levels' mirror ----------------------------------------------------------------

    /**
     * Takes the mirror's read lock for a section that will change inner nodes, first replacing the
     * mirror by a larger one if the section's new nodes might not fit. Blocks only while a mirror
     * is being copied, and the copier waits for no node lock, so holding node locks here is safe.
     */
    static long lockMirror(OlcNodes t) {
        if (t.innerCount.get() + 2 > t.mirror.capacity) {
            growMirror(t);
        }
        return t.mirrorLock.readLock();
    }

    /**
     * Ends a {@link #lockMirror} section. Threads splitting at once can together allocate past the
     * mirror's end (each checked before the others allocated); their nodes were skipped, so the
     * mirror is copied now rather than at the next split, which may never come.
     */
    static void unlockMirror(OlcNodes t, long stamp) {
        t.mirrorLock.unlockRead(stamp);
        if (t.innerCount.get() > t.mirror.capacity) {
            growMirror(t);
        }
    }

    /** Replaces the mirror by one with room for half as many inner nodes again, copied from the nodes. */
    private static void growMirror(OlcNodes t) {
        long stamp = t.mirrorLock.writeLock();
        try {
            int count = t.innerCount.get();
            if (count + 2 <= t.mirror.capacity) {
                return;
            }
            t.mirror = copyMirror(t, count + count / 2 + 16);
        } finally {
            t.mirrorLock.unlockWrite(stamp);
        }
    }

    /** A mirror of every inner node allocated so far; no inner node may be changing. */
    static InnerMirror copyMirror(OlcNodes t, int capacity) {
        int count = t.innerCount.get();
        InnerMirror m = new InnerMirror(Math.max(capacity, count));
        for (int n = 0; n < count; n++) {
            mirrorNode(t, m, Pinned.idOf(n));
        }
        return m;
    }

    /**
     * Writes inner node {@code id} into mirror {@code m}: its keys, and its children as mirror slots
     * (inner) or leaf ids. The caller holds the mirror's read lock and the node is locked or not yet
     * linked, so the node does not change meanwhile. A node past the mirror's end is skipped: look-ups
     * that need it fall back to lock coupling until the next {@link #growMirror} copies it.
     */
    static void mirrorNode(OlcNodes t, InnerMirror m, int id) {
        int n = Pinned.denseOf(id);
        if (n >= m.capacity) {
            return;
        }
        int k = chunk(id);
        System.arraycopy(t.innerKeys.chunk(k), keyOffset(id), m.keys, InnerMirror.keyOffset(n), N);
        int[] cc = t.innerKids.chunk(k);
        int co = blockOffset(id);
        boolean leaves = cc[co + LEVEL] == 1;
        for (int j = 0; j < KIDS; j++) {
            int kid = cc[co + KID0 + j];
            m.kids[m.kid(n, j)] = leaves || kid == NONE ? kid : Pinned.denseOf(kid);
        }
    }

    // ---- the out-of-band Long.MAX_VALUE ---------------------------------------------------------

    private static void lockMax(long[] mr) {
        for (;;) {
            long v = VersionLock.read(mr, VERSION);
            if (!VersionLock.isLocked(v) && VersionLock.tryLock(mr, VERSION, v)) {
                return;
            }
            Thread.onSpinWait();
        }
    }

    /** {@link #write} for the out-of-band {@code Long.MAX_VALUE}, under its record's lock. */
    private static long writeMax(OlcNodes t, long value, int mode, long expected) {
        long[] mr = t.maxRecord;
        lockMax(mr);
        boolean present = mr[1] != 0;
        long previous = mr[2];
        boolean removing = mode == REMOVE || mode == REMOVE_IF;
        boolean change = present ? mode != PUT_IF_ABSENT && (mode < REPLACE_IF || previous == expected)
                : mode <= PUT_IF_ABSENT;
        if (change) {
            mr[1] = removing ? 0 : 1;
            mr[2] = removing ? 0 : value;
        }
        VersionLock.unlock(mr, VERSION);
        if (change && present == removing) {
            t.size.add(removing ? -1 : 1);
        }
        return present && (change || mode == PUT_IF_ABSENT) ? encodePrevious(previous) : ABSENT_MARK;
    }
}
