package org.bforest.olc;

import static org.bforest.olc.OlcNodes.NONE;

import java.util.Arrays;

/**
 * The concurrent BS-tree's free lists: the ids of the leaves and inner nodes that
 * {@link OlcUnlinker} took out of the tree, which {@link OlcNodes#newLeaf} and
 * {@link OlcNodes#newInner} hand out again before they take new storage; and the unlinks put off
 * (a key in the range of each emptied leaf whose unlink could not get its locks), which later
 * unlinks and neighbour queries retry, so that no emptied leaf stays for good. Apart from the
 * tree's state because it is its own small lock domain, taken only on those rare paths.
 *
 * <h2>Safe reuse: type-stable nodes</h2>
 * A freed node is reused at once, with no epochs and nothing on the look-up path, because nodes
 * are type-stable and their version words only grow:
 * <ol>
 * <li><b>Type-stable.</b> Nodes live in chunks that are never returned or moved ({@link Pinned});
 *     a leaf id is only ever a leaf, an inner id only an inner node. A stale id therefore always
 *     names a node of the kind the reader expects, whose words it may read (any values at all, as
 *     a read mid-change may see: 6. of {@link OlcReader}).</li>
 * <li><b>Freeing keeps the node locked.</b> The unlink locks the node from the version it
 *     read, takes it out of its parent (locked) and out of the chain (its neighbours locked), and
 *     then, still holding it, adds {@link VersionLock#OBSOLETE}: the word stays locked. It goes on
 *     the free list (this monitor: a happens-before edge to the thread that takes it) after every
 *     write the unlink makes to it.</li>
 * <li><b>Reuse bumps the word again.</b> The taker writes the node while it is still locked, then
 *     {@link VersionLock#publish}es it (a leaf, before anything links it) or
 *     {@link OlcNodes#publishInner} (an inner node, before its parent's unlock or the root word
 *     links it): the next multiple of 4 above the obsolete word. So no version a node had in an
 *     earlier life recurs: every version read then fails to validate now. (Within a life, a word
 *     goes back to a version only when a neighbour walk releases a lock it wrote nothing under,
 *     {@link VersionLock#unlockUnchanged}: the node is then as it was at that version.)</li>
 * </ol>
 * What a stale reader can see, step by step:
 * <ul>
 * <li><b>The mirror route</b> ({@link OlcReader#lookup}, {@code getAll}'s lock-step, the mirrored
 *     writes): it may reach a freed or reused leaf through a stale mirror slot. Freed: the word is
 *     locked, so it retries. Reused and published: it reads the new life's version, contents and
 *     fences, and answers only if the version validates and the key lies within the fences; at any
 *     version that validates, a leaf holds exactly the tree's keys within its fences, whatever life
 *     it is in. Reused, not yet published: locked, a retry. A writer try-locks only from a version
 *     it read, so the same holds for it: its compare-and-set fails on an obsolete or newer
 *     word.</li>
 * <li><b>The lock-coupled descent</b> ({@link OlcReader#lastInner}, the batched updates' warming
 *     lock-step): it reads a child's version before it validates the parent. A child is freed only
 *     after it was taken out of its parent, in a section that holds the parent's lock, so a parent
 *     that validates pointed at the child, unfreed, when the child's version was read; if that read
 *     saw a later life's word, the reuse was ordered after the parent's change (this monitor, then
 *     the reader's acquire), so the parent's validation fails. A freed child's word reads as
 *     locked: restart.</li>
 * <li><b>The root word</b>: a root that is replaced by its only child is freed after the root word
 *     changed, under its lock; a reader that read the old root word reads the node's word (locked,
 *     or a later life's) and checks the root word after it: a later life that is the root again is
 *     the root, at the version read.</li>
 * <li><b>The chain</b> (the neighbour walks, {@link OlcCursor}): a leaf's next or previous id is a
 *     hint. The walker uses the leaf it names only if that leaf's version is readable and its fence
 *     meets the fence of the leaf it came from, and validates both: fences identify the owner of a
 *     range among the leaves that validate, whichever life they are in.</li>
 * <li><b>A cursor's copy</b> holds no node: {@code value()} compares the leaf's version with the one
 *     it copied at, which a freed or reused leaf never has again.</li>
 * </ul>
 * The lists themselves: push and pop hold this object's monitor, whose holder waits for nothing
 * else (the deadlock argument of {@link OlcWriter} stands). Allocations read a volatile count
 * first, so a tree with nothing to reuse takes no lock to split.
 */
final class NodeRecycler {
    private int[] leaves = new int[16];
    private int[] inners = new int[16];
    private long[] pending = new long[16];
    private int leafTop;
    private int innerTop;
    private int pendingTop;
    /** Read without the monitor by {@link #takeLeaf} and {@link #takeInner}: nothing to take, no lock. */
    private volatile int freeLeaves;
    private volatile int freeInners;
    private volatile int pendingKeys;

    synchronized void freeLeaf(int id) {
        if (leafTop == leaves.length) {
            leaves = Arrays.copyOf(leaves, 2 * leafTop);
        }
        leaves[leafTop++] = id;
        freeLeaves = leafTop;
    }

    synchronized void freeInner(int id) {
        if (innerTop == inners.length) {
            inners = Arrays.copyOf(inners, 2 * innerTop);
        }
        inners[innerTop++] = id;
        freeInners = innerTop;
    }

    /** A freed leaf (locked, obsolete), or {@link OlcNodes#NONE}. */
    int takeLeaf() {
        if (freeLeaves == 0) {
            return NONE;
        }
        synchronized (this) {
            if (leafTop == 0) {
                return NONE;
            }
            freeLeaves = --leafTop;
            return leaves[leafTop];
        }
    }

    /** A freed inner node (locked, obsolete), or {@link OlcNodes#NONE}. */
    int takeInner() {
        if (freeInners == 0) {
            return NONE;
        }
        synchronized (this) {
            if (innerTop == 0) {
                return NONE;
            }
            freeInners = --innerTop;
            return inners[innerTop];
        }
    }

    /** Puts off the unlink of the emptied leaf whose range holds {@code key}. */
    synchronized void defer(long key) {
        if (pendingTop == pending.length) {
            pending = Arrays.copyOf(pending, 2 * pendingTop);
        }
        pending[pendingTop++] = key;
        pendingKeys = pendingTop;
    }

    boolean hasDeferred() {
        return pendingKeys != 0;
    }

    /** Takes up to {@code max} put-off unlinks' keys (the caller retries them, and defers again any that fail). */
    synchronized long[] takeDeferred(int max) {
        int n = Math.min(max, pendingTop);
        long[] keys = Arrays.copyOfRange(pending, pendingTop - n, pendingTop);
        pendingTop -= n;
        pendingKeys = pendingTop;
        return keys;
    }

    // ---- for the checker and the accounting -----------------------------------------------------

    synchronized int[] freeLeafIds() {
        return Arrays.copyOf(leaves, leafTop);
    }

    synchronized int[] freeInnerIds() {
        return Arrays.copyOf(inners, innerTop);
    }

    synchronized long[] deferredKeys() {
        return Arrays.copyOf(pending, pendingTop);
    }

    synchronized long bytes() {
        return 16 + 4 * 4 + 3 * 16 + 4L * (leaves.length + inners.length) + 8L * pending.length;
    }
}
