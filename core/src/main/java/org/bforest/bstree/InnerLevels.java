package org.bforest.bstree;

import static org.bforest.bstree.Slots.FULL;
import static org.bforest.bstree.Slots.KIDS;
import static org.bforest.bstree.Slots.MAXKEY;
import static org.bforest.bstree.Slots.N;
import static org.bforest.bstree.Slots.NONE;
import static org.bforest.bstree.Slots.meta;

import org.bforest.kernel.GapSlots;
import org.bforest.kernel.NodeSearch;
import org.bforest.kernel.Prefetch;
import org.bforest.storage.NodeIds;
import org.bforest.storage.FlatIntNodeArray;
import org.bforest.storage.FlatLongNodeArray;

/**
 * The uncompressed inner levels that the BS-tree and the CBS-tree share (section 6: "compression
 * is not effective for inner nodes"): descent, separator insertion with splits and root growth,
 * separator deletion with node removal and root collapse, and the level-by-level bulk build. The
 * trees own their leaves and hand this class leaf ids and separators; it never reads a leaf.
 *
 * <p>Inner nodes live in three flat arrays: {@code keys} (16 separators), {@code kids} (17 child
 * ids: the leftmost child, then the right child of each slot; the right child of a gap is dead,
 * {@link Slots#NONE}) and {@code meta} (one {@link Slots#meta} word). The root is a leaf id when
 * {@link #height} is 0. Updates descend with {@link #descend}, which records the node and child
 * index of every level; {@link #insertIntoParent} and {@link #removeChild} walk that path back up.
 * A split is even, except after a leaf split at an edge of the tree ({@link #keepAtSplit}).
 */
final class InnerLevels {
    static final int MAX_HEIGHT = 40;
    /** Where a leaf split happened, for {@link #insertIntoParent(long, int, int)}: inside the tree. */
    static final int MIDDLE = 0;
    /** The tree's last leaf split for a key above all its keys (an ascending run). */
    static final int RIGHT_EDGE = 1;
    /** The tree's first leaf split for a key below all its keys (a descending run). */
    static final int LEFT_EDGE = -1;

    private final String treeName;
    FlatLongNodeArray keys;
    FlatIntNodeArray kids;
    FlatIntNodeArray meta;
    /** The root: an inner node id, or a leaf id when {@link #height} is 0. */
    int root;
    /** Inner levels above the leaves. */
    int height;
    final NodeIds ids = new NodeIds();
    /** Bumped by every split, root change and node removal. */
    int changes;

    // The path of the last descend(): node and child index at each level; and split scratch.
    // Writers' scratch only (writes are single-threaded): no read path (findLeaf, findLeaves)
    // touches a field that changes, so any number of threads may read an unmodified tree.
    final int[] pathNode = new int[MAX_HEIGHT + 1];
    final int[] pathPos = new int[MAX_HEIGHT + 1];
    private final long[] splitKeys = new long[N + 1];
    private final int[] splitKids = new int[N + 1];

    InnerLevels(String treeName) {
        this.treeName = treeName;
    }

    /** Forgets every inner node; the tree is the one leaf {@code rootLeaf}. */
    void reset(int rootLeaf) {
        keys = new FlatLongNodeArray(N, 1);
        kids = new FlatIntNodeArray(KIDS, 1);
        meta = new FlatIntNodeArray(1, 1);
        ids.reset();
        root = rootLeaf;
        height = 0;
    }

    int bitmap(int node) {
        return meta.chunk(node)[meta.offset(node)] & FULL;
    }

    int metaWord(int node) {
        return meta.chunk(node)[meta.offset(node)];
    }

    int child(int node, int index) {
        return kids.chunk(node)[kids.offset(node) + index];
    }

    /** Inner nodes in use. */
    long nodes() {
        return ids.inUse();
    }

    int[] freeIds() {
        return ids.freeIds();
    }

    long bytes() {
        return keys.bytes() + kids.bytes() + meta.bytes() + ids.bytes()
                + 2 * (16 + 4L * pathNode.length) + 16 + 8L * splitKeys.length + 16 + 4L * splitKids.length + 32;
    }

    // ---- descent ------------------------------------------------------------------------------

    /** The leaf whose key range holds {@code key} (Algorithm 3, lines 1-2); {@code key < MAXKEY}. */
    int findLeaf(long key) {
        // One array each (flat), fetched once; offsets from constant strides (see keyOffset).
        long[] ka = keys.chunk(0);
        int[] ca = kids.chunk(0);
        int z = Prefetch.zero();
        int node = root;
        for (int h = height; h > 0; h--) {
            int ko = kidOffset(node);
            // Start loading both cache lines of the child ids now, in parallel with the keys,
            // instead of after the search picks one (see Prefetch).
            int t = (ca[ko] | ca[ko + N]) & z;
            int c = NodeSearch.succGT(ka, keyOffset(node), key);
            node = ca[ko + c + t];
        }
        return node;
    }

    /**
     * Where an inner node's separators start in the keys array: the flat arrays' offset with the
     * constant stride {@value Slots#N}, which the JIT turns into a shift instead of loading the
     * array object's stride and multiplying on every level.
     */
    static int keyOffset(int node) {
        return FlatLongNodeArray.offsetOf(node, N);
    }

    /** Where an inner node's child ids start in the kids array (constant stride {@value Slots#KIDS}). */
    static int kidOffset(int node) {
        return FlatIntNodeArray.offsetOf(node, KIDS);
    }

    /** {@link #findLeaf} for an update: records the path that splits and removals walk back up. */
    int descend(long key) {
        long[] ka = keys.chunk(0);
        int[] ca = kids.chunk(0);
        int z = Prefetch.zero();
        int node = root;
        for (int h = height; h > 0; h--) {
            int ko = kidOffset(node);
            int t = (ca[ko] | ca[ko + N]) & z; // see Prefetch
            int c = NodeSearch.succGT(ka, keyOffset(node), key);
            pathNode[h] = node;
            pathPos[h] = c;
            node = ca[ko + c + t];
        }
        return node;
    }

    /**
     * Inner nodes few enough to stay in a core's cache (1024 nodes of keys and child ids: about
     * 200 KB with 16-key nodes), for which {@link #findLeaves} skips its prefetch pass.
     */
    private static final long CACHED_NODES = 1024;

    /**
     * The leaves of {@code n} keys at once, level by level in lock-step, so the CPU has up to
     * {@code n} independent cache misses in flight instead of one dependent chain. A key of
     * {@link Slots#MAXKEY} descends as {@code MAXKEY - 1} (the trees answer it out of band).
     */
    void findLeaves(long[] keysIn, int base, int n, int[] leaves) {
        findLeaves(keysIn, base, n, leaves, 0);
    }

    /** {@link #findLeaves} into {@code leaves[at, at + n)} (one part of a batch among several threads). */
    void findLeaves(long[] keysIn, int base, int n, int[] leaves, int at) {
        for (int i = at; i < at + n; i++) {
            leaves[i] = root;
        }
        long[] ka = keys.chunk(0);
        int[] ca = kids.chunk(0);
        int z = Prefetch.zero();
        for (int h = height; h > 0; h--) {
            // Two passes per level. The first only starts the loads of every node's lines (both
            // key lines and both child-id lines, see Prefetch), so the n nodes' misses are all in
            // flight at once, child ids included; the second searches nodes whose lines are
            // arriving, and its child-id loads no longer wait for the search to start them.
            // (Not for inner levels that stay in a core's cache: there the pass starts no miss.)
            int t = 0;
            if (ids.inUse() > CACHED_NODES) {
                for (int i = at; i < at + n; i++) {
                    int node = leaves[i];
                    int ko = keyOffset(node);
                    int co = kidOffset(node);
                    t |= (int) (ka[ko] ^ ka[ko + N - 1]) | ca[co] | ca[co + N];
                }
                t &= z;
            }
            for (int i = at; i < at + n; i++) {
                int node = leaves[i];
                long key = Math.min(keysIn[base - at + i], MAXKEY - 1);
                int c = NodeSearch.succGT(ka, keyOffset(node), key);
                leaves[i] = ca[kidOffset(node) + c + t];
            }
        }
    }

    /**
     * {@link #findLeaf} for each of {@code keys[base, base + n)} into {@code leaves[at, at + n)}, for a batch
     * whose keys come nearly in key order (sorted, or bucketed by their leading bits): a key inside
     * the range of either of the last two leaves found takes that leaf without a descent. Each
     * descent keeps its leaf's range, the nearest separator at or below the key and the nearest
     * above it along the path (ranges nest, so the tightest of each wins), so a batch over p
     * leaves costs about p descents and a compare pair a key, where {@link #findLeaves} costs a
     * node search per key and level. Two ranges, because a bucket that holds a leaf boundary
     * sends its keys to the leaves on both sides in no order. Keeps no state: safe from several
     * threads on disjoint parts of a batch while nobody writes.
     */
    void findLeavesNear(long[] keysIn, int base, int n, int[] leaves, int at) {
        long[] ka = keys.chunk(0);
        int[] ca = kids.chunk(0);
        // Empty ranges ([1, 0)) until the first descent.
        long loA = 1;
        long hiA = 0;
        long loB = 1;
        long hiB = 0;
        int leafA = root;
        int leafB = root;
        for (int i = 0; i < n; i++) {
            long key = Math.min(keysIn[base + i], MAXKEY - 1);
            if (key >= loB && key < hiB) {
                leaves[at + i] = leafB;
                continue;
            }
            if (key >= loA && key < hiA) {
                leaves[at + i] = leafA;
                continue;
            }
            long lo = Long.MIN_VALUE;
            long hi = MAXKEY;
            int node = root;
            for (int h = height; h > 0; h--) {
                int ko = keyOffset(node);
                int c = NodeSearch.succGT(ka, ko, key);
                // Slot c - 1 is used (a gap holds the next used key, so the count never stops
                // right after one); slot c holds the next used key, or MAXKEY: no bound here.
                if (c > 0) {
                    lo = Math.max(lo, ka[ko + c - 1]);
                }
                if (c < N) {
                    hi = Math.min(hi, ka[ko + c]);
                }
                node = ca[kidOffset(node) + c];
            }
            loA = loB;
            hiA = hiB;
            leafA = leafB;
            loB = lo;
            hiB = hi;
            leafB = node;
            leaves[at + i] = node;
        }
    }

    // ---- allocation ---------------------------------------------------------------------------

    /** A fresh node: keys all {@link Slots#MAXKEY}, every child dead. May grow the arrays. */
    private int alloc() {
        grow(ids.needed());
        int node = ids.next();
        long[] kc = keys.chunk(node);
        int off = keys.offset(node);
        int[] cc = kids.chunk(node);
        int co = kids.offset(node);
        for (int s = 0; s < N; s++) {
            kc[off + s] = MAXKEY;
        }
        for (int s = 0; s < KIDS; s++) {
            cc[co + s] = NONE;
        }
        meta.chunk(node)[meta.offset(node)] = 0;
        return node;
    }

    /** Returns a node to the free list; {@link #reserveForRemoval} made room for it. */
    private void release(int node) {
        meta.chunk(node)[meta.offset(node)] = 0;
        ids.release(node);
    }

    /** Gives back the room beyond the nodes handed out so far (after a bulk load). */
    void trim() {
        keys.trimTo(ids.count());
        kids.trimTo(ids.count());
        meta.trimTo(ids.count());
    }

    private void grow(long nodes) {
        keys.ensureCapacity(nodes);
        kids.ensureCapacity(nodes);
        meta.ensureCapacity(nodes);
    }

    /**
     * Room for a leaf split to finish once it starts: one node per level plus a new root, taken
     * before the tree changes anything. If memory runs out, it runs out here.
     */
    void reserveForSplit() {
        if (height >= MAX_HEIGHT) {
            throw new IllegalStateException(treeName + " height limit " + MAX_HEIGHT + " reached");
        }
        grow(ids.needed(height + 1));
    }

    /**
     * Room on the free list for every node a leaf removal can free, taken before it starts. A
     * removal frees the emptied nodes on its path (at most one per level below the root) and then
     * collapses roots left with one child (at most one per level again, and the collapse can go
     * below the levels whose path nodes were freed): at most {@code 2 * height} nodes. Reserving
     * only {@code height + 1} ran out while draining small trees (ApiContractTest).
     */
    void reserveForRemoval() {
        ids.reserveReleases(2 * height + 1);
    }

    // ---- separators in, splits, root growth -----------------------------------------------------

    /**
     * Adds separator {@code sep} with right child {@code kid} next to the leaf the last
     * {@link #descend} reached (a leaf split); {@link #reserveForSplit} was called first.
     */
    void insertIntoParent(long sep, int kid) {
        insertIntoParent(1, sep, kid, MIDDLE);
    }

    /**
     * {@link #insertIntoParent(long, int)} after a leaf split at an edge of the tree: {@link #RIGHT_EDGE}
     * when the tree's last leaf split for a key above all of its keys (an ascending run), so
     * every node on the path is the last of its level and {@code sep} goes to its right end;
     * {@link #LEFT_EDGE} for the mirror (the first leaf, a descending run); else {@link #MIDDLE}.
     */
    void insertIntoParent(long sep, int kid, int edge) {
        insertIntoParent(1, sep, kid, edge);
    }

    private void insertIntoParent(int h, long sep, int kid, int edge) {
        if (h > height) {
            int oldRoot = root;
            int newRoot = alloc();
            splitKeys[0] = sep;
            splitKids[0] = kid;
            spread(newRoot, oldRoot, splitKeys, splitKids, 0, 1);
            root = newRoot;
            height++;
            changes++;
            return;
        }
        int node = pathNode[h];
        // The path went through child c, the right child of slot c-1; sep lies strictly between
        // that slot's key and the next used key, so it belongs at slot r = c.
        int r = pathPos[h];
        int[] mc = meta.chunk(node);
        int mo = meta.offset(node);
        int bm = mc[mo] & FULL;
        if (bm == FULL) {
            split(node, h, r, sep, kid, edge);
            return;
        }
        long[] kc = keys.chunk(node);
        int off = keys.offset(node);
        int[] cc = kids.chunk(node);
        int co = kids.offset(node);
        int opened = GapSlots.openSlot(kc, off, cc, co + 1, bm, r);
        int at = opened & 0xFF;
        kc[off + at] = sep;
        cc[co + 1 + at] = kid;
        mc[mo] = meta(bm | 1 << (opened >>> 8));
    }

    /**
     * Splits a full node around a new (separator, child): of the 17 pairs, 8 stay, the 9th's key
     * moves up and its child becomes the new node's leftmost, and 8 go to the new node. At an
     * edge of the tree ({@link #keepAtSplit}) the split is uneven instead, so that an ascending
     * or descending run leaves full nodes behind, as it leaves full leaves.
     */
    private void split(int node, int h, int r, long sep, int kid, int edge) {
        long[] kc = keys.chunk(node);
        int off = keys.offset(node);
        int[] cc = kids.chunk(node);
        int co = kids.offset(node);
        long[] sk = splitKeys;
        int[] sc = splitKids;
        int leftmost = cc[co];
        System.arraycopy(kc, off, sk, 0, r);
        System.arraycopy(cc, co + 1, sc, 0, r);
        sk[r] = sep;
        sc[r] = kid;
        System.arraycopy(kc, off + r, sk, r + 1, N - r);
        System.arraycopy(cc, co + 1 + r, sc, r + 1, N - r);

        int right = alloc(); // may move the arrays: nothing fetched above is used below
        int keep = keepAtSplit(r, edge);
        spread(node, leftmost, sk, sc, 0, keep);
        spread(right, sc[keep], sk, sc, keep + 1, N - keep);
        changes++;
        insertIntoParent(h + 1, sk[keep], right, edge);
    }

    /**
     * The pairs a full node keeps when the new pair goes to slot {@code r}: 8 of the 17 (the
     * halves of section 4.2), or at an edge of the tree the most that still leaves the other
     * node a separator. An ascending run ({@link #RIGHT_EDGE}, the new pair at the right end)
     * keeps 15, the new node taking the 16th's child as its leftmost and the new pair: 16 of 17
     * children stay behind, where the ascending run never comes back. A descending run
     * ({@link #LEFT_EDGE}, the new pair at slot 0) keeps 1: the node the run goes on in has two
     * children and the new node 16. A node of one child (no separator) would be denser by one
     * child in 17 but is a shape no other split makes; not worth it on levels a sixteenth the
     * size of the one below.
     */
    static int keepAtSplit(int r, int edge) {
        if (edge == RIGHT_EDGE && r == N) {
            return N - 1;
        }
        if (edge == LEFT_EDGE && r == 0) {
            return 1;
        }
        return N / 2;
    }

    /**
     * Writes a node from its leftmost child and {@code n} sorted (separator, child) pairs, spread
     * evenly over the 16 slots (pair i at slot {@code i*16/n}); gaps get the next key and a dead
     * child. {@link GapSlots#spread}'s loop with each child written beside its key, so one pass
     * over the node (the bulk load runs it for every inner node), and all padding when {@code n} is 0.
     */
    private void spread(int node, int leftmost, long[] ks, int[] kidsIn, int from, int n) {
        long[] kc = keys.chunk(node);
        int off = keys.offset(node);
        int[] cc = kids.chunk(node);
        int co = kids.offset(node);
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
            cc[co + 1 + at] = kidsIn[from + i];
            bm |= 1 << at;
            s = at - 1;
        }
        for (; s >= 0; s--) {
            kc[off + s] = next;
            cc[co + 1 + s] = NONE;
        }
        meta.chunk(node)[meta.offset(node)] = meta(bm);
    }

    // ---- separators out -------------------------------------------------------------------------

    /**
     * Removes the leaf the last {@link #descend} reached (the tree has unlinked and freed it):
     * the separator that leads to it is deleted like a leaf key (the child to its left takes over
     * its range); a removed leftmost child is replaced by the first used slot's child; a node left
     * with no child goes too; a root left with one child is replaced by it (section 4.1).
     * {@link #reserveForRemoval} was called first.
     */
    void removeChild() {
        changes++;
        removeChild(1);
    }

    private void removeChild(int h) {
        int node = pathNode[h];
        int c = pathPos[h];
        int[] mc = meta.chunk(node);
        int mo = meta.offset(node);
        int bm = mc[mo] & FULL;
        if (bm == 0) {
            // Only the leftmost child was left, and it is gone.
            if (h == height) {
                throw new IllegalStateException(treeName + " root lost its last child");
            }
            release(node);
            removeChild(h + 1);
            return;
        }
        long[] kc = keys.chunk(node);
        int off = keys.offset(node);
        int[] cc = kids.chunk(node);
        int co = kids.offset(node);
        int slot;
        if (c == 0) {
            slot = Integer.numberOfTrailingZeros(bm);
            cc[co] = cc[co + 1 + slot];
        } else {
            slot = c - 1;
        }
        bm = GapSlots.clearSlot(kc, off, bm, slot);
        cc[co + 1 + slot] = NONE;
        mc[mo] = meta(bm);
        while (height > 0 && bitmap(root) == 0) {
            int only = child(root, 0);
            release(root);
            root = only;
            height--;
        }
    }

    // ---- bulk load ----------------------------------------------------------------------------

    /**
     * Builds the inner levels over {@code count} leaves in key order, {@code mins} their first
     * keys (section 4.3): each level is built from the one below with a fill that grows by 1/8
     * per level from {@code leafFill} up to full nodes, spread so that the last node of a level
     * is not nearly empty. Overwrites both arrays.
     */
    void build(int[] ids, long[] mins, int leaves, double leafFill) {
        int n = leaves;
        for (int level = 1; n > 1; level++) {
            double fill = Math.min(1.0, leafFill + 0.125 * level);
            int perNode = Math.max(1, Math.min(N, (int) Math.round(fill * N))) + 1;
            int nodes = (n + perNode - 1) / perNode;
            int c = 0;
            for (int j = 0; j < nodes; j++) {
                int take = n / nodes + (j < n % nodes ? 1 : 0);
                int node = alloc();
                // Pairs (mins[c+t], ids[c+t]) for t >= 1 become the slots; ids[c] the leftmost child.
                spread(node, ids[c], mins, ids, c + 1, take - 1);
                ids[j] = node;
                mins[j] = mins[c];
                c += take;
            }
            n = nodes;
            height = level;
        }
        root = ids[0];
    }
}
