package org.bforest.csb;

import static org.bforest.csb.CsbTree.count;
import static org.bforest.csb.CsbTree.first;
import static org.bforest.csb.CsbTree.meta;
import static org.bforest.csb.CsbTree.offset;
import static org.bforest.spi.LeafChainIndex.MAXKEY;
import static org.bforest.spi.LeafChainIndex.NONE;

import java.util.Arrays;
import org.bforest.CsbVariant;
import org.bforest.spi.PackedLeaves;

/**
 * A CSB+-tree's insert splits, as the paper's per variant (Rao and Ross, "Making B+-Trees Cache
 * Conscious in Main Memory"): what moves nodes inside and between node groups, with its scratch.
 * Apart from {@link CsbTree} because none of it is on a descent's path: the tree's {@code put}
 * calls {@link #split} only when the leaf it found is full, after its own descent has recorded
 * the path ({@code pathNode}, {@code pathPos}).
 *
 * <p>A leaf holds up to {@code S} entries. A full leaf's {@code S + 1} entries are split in halves
 * into two node images (scratch), which replace the leaf at its index {@code c} in its group:
 * <ul>
 * <li>The parent has room. {@link CsbVariant#PLAIN}: a new group one node larger gets the old
 *     group's nodes with the split one as two, the parent's pointer moves to it and the old group
 *     is freed (section 3.1). {@link CsbVariant#SEGMENTED}: the same for the one segment that
 *     holds child {@code c} (section 3.2). {@link CsbVariant#FULL}: groups are allocated with room
 *     for {@code S} nodes, so nodes shift one place inside the block and nothing is allocated
 *     (section 3.3); the paper shifts those right of {@code c}, we shift the shorter side where
 *     the block has room on it (a new group is placed mid-block).</li>
 * <li>The parent is full. Its children (with the split node as two) are redistributed evenly
 *     between the old group, which keeps the half without the split node's images in place, and
 *     one new group (segmented: both segments are copied into four, and freed); the parent itself
 *     is split into two images, which replace it in its own group the same way, recursively; a
 *     split root makes a new root over a group of two.</li>
 * </ul>
 * <p>Appends, as database B-trees split for sequential inserts: when the full leaf is the tree's
 * last and the new key goes past its last key, the leaf keeps its {@code S} entries and the new
 * last leaf starts with the new key; a full parent on that path (each is its parent's last child)
 * keeps its {@code K + 1} children and the new node starts with the one new child, and the full
 * tree places the groups of such a split at the start of their blocks, so they grow only at their
 * end and fill the block. Ascending inserts (a time-ordered key, a sliding window) then leave full
 * leaves, inner nodes and blocks behind, as the bulk load does, instead of half-full ones that
 * never fill. Any other split is the paper's half split; the test is made only on the split path.
 *
 * Leaves whose id changes are relinked ({@link CsbTree#relink}), and so are the neighbours
 * outside the group. Storage for a whole split (two groups a level and a root) is reserved before
 * anything is written, so an {@code OutOfMemoryError} leaves the tree as it was.
 */
final class CsbSplitter {
    /** Child sources in a split: the two images of the split node. */
    private static final int IMG_LEFT = -1;
    private static final int IMG_RIGHT = -2;

    private final CsbTree t;
    /** The tree's S, key slots, pointer lanes and variant, copied (all final there). */
    private final int width;
    private final int keySlots;
    private final int segs;
    private final boolean full;
    /** The path the tree's recording descent wrote: node and child index a level. */
    private final int[] pathNode;
    private final int[] pathPos;

    // Scratch (writes are single-threaded).
    private final long[][] leafImgKeys;
    private final long[][] leafImgVals;
    /** Inner node images, by level parity and side: the images of level h are in {@code [(h & 1) * 2 + side]}. */
    private final long[][] innerImg;
    private final long[] mergeKeys;
    private final long[] mergeVals;
    private final int[] sources;
    private final int[] order;
    /** Parity of the level whose inner images {@link #writeImage} places ({@link #replaceChild} sets it). */
    private int imageLevelParity;
    /**
     * This split is an append: the new key is past the last key of the tree's last leaf, so every
     * node on the path is the last child of its parent ({@link #split} sets it).
     */
    private boolean append;

    CsbSplitter(CsbTree t) {
        this.t = t;
        this.width = t.width;
        this.keySlots = t.keySlots;
        this.segs = t.segs;
        this.full = t.full;
        this.pathNode = t.pathNode;
        this.pathPos = t.pathPos;
        leafImgKeys = new long[2][width];
        leafImgVals = new long[2][width];
        innerImg = new long[4][width];
        mergeKeys = new long[width + 2];
        mergeVals = new long[width + 2];
        sources = new int[width + 2];
        order = new int[2 * width + 2];
    }

    /**
     * Inserts {@code key, value} at rank {@code r} of the full leaf {@code leaf} that the tree's
     * recording descent found, splitting it and whatever fills up above it.
     */
    void split(int leaf, int r, long key, long value) {
        reserve(); // may replace a small first chunk: splitLeaf fetches the arrays again
        // only here, on the split path: a put into a leaf with room never asks
        append = r == width && t.leafNext(leaf) == NONE;
        splitLeaf(leaf, r, key, value);
    }

    /**
     * Room for a split to finish once it starts: two groups of at most {@code S} nodes a level
     * (four segments hold no more), and a root with its group of two.
     */
    private void reserve() {
        PackedLeaves.checkHeight(t, t.height, CsbTree.MAX_HEIGHT);
        t.leafPool.reserveMore(2L * width + 2);
        t.innerPool.reserveMore((2L * width + 2) * (t.height + 1) + 1);
    }

    /**
     * A full leaf and the new entry at rank {@code r}: the {@code S + 1} entries in halves into the
     * two leaf images, then the images replace the leaf in its group.
     */
    private void splitLeaf(int leaf, int r, long key, long value) {
        int w = width;
        long[] kc = t.leafKeys.chunk(leaf);
        long[] vc = t.leafVals.chunk(leaf);
        int off = t.leafKeys.offset(leaf);
        long[] mk = mergeKeys;
        long[] mv = mergeVals;
        PackedLeaves.withEntry(kc, vc, off, w, r, key, value, mk, mv); // the full leaf with the new entry, in order
        // an append keeps the full leaf as it is and starts the new last leaf with the new key, so
        // ascending inserts leave full leaves behind (the half split would leave them half full)
        int left = append ? w : (w + 2) / 2;
        int right = w + 1 - left;
        fillLeafImage(0, mk, mv, 0, left);
        fillLeafImage(1, mk, mv, left, right);
        replaceChild(1, mk[left - 1]);
    }

    private void fillLeafImage(int side, long[] mk, long[] mv, int from, int n) {
        long[] ik = leafImgKeys[side];
        long[] iv = leafImgVals[side];
        System.arraycopy(mk, from, ik, 0, n);
        System.arraycopy(mv, from, iv, 0, n);
        Arrays.fill(ik, n, width, MAXKEY);
        Arrays.fill(iv, n, width, 0);
    }

    /**
     * The child on the path below level {@code h} has been split into its two images (leaf images
     * when {@code h == 1}, else the inner images of level {@code h - 1}), the left one's largest
     * key being {@code sep}: puts them in its place in the parent's group, splitting the parent
     * when it is full.
     */
    private void replaceChild(int h, long sep) {
        boolean leaves = h == 1;
        imageLevelParity = (h - 1) & 1;
        if (h > t.height) {
            newRoot(leaves, sep);
            return;
        }
        int p = pathNode[h];
        int c = pathPos[h];
        long[] a = t.inner.chunk(0);
        int off = t.innerOff(p);
        int m = t.innerChildren(p);
        int n = m - 1;
        if (n < keySlots) {
            // room: the separator goes in at c, the left image takes child c, the right one c + 1
            System.arraycopy(a, off + c, a, off + c + 1, n - c);
            a[off + c] = sep;
            if (full) {
                shiftInGroup(leaves, p, c, m);
            } else {
                copySegment(leaves, p, c);
            }
            return;
        }
        splitParent(h, sep);
    }

    /**
     * Full tree, parent with room: the split child's two images take its place and one more, and
     * the nodes on its shorter side move one place toward the room there (the paper shifts the
     * nodes right of it; a group placed mid-block with room on both sides moves a quarter of its
     * nodes on average instead of half). Only the moved leaves are relinked.
     */
    private void shiftInGroup(boolean leaves, int p, int c, int m) {
        long[] a = t.inner.chunk(0);
        int off = t.innerOff(p);
        long meta = a[off + keySlots];
        int g = first(meta);
        int o = offset(meta);
        boolean roomRight = o + m < width;
        int from; // the ids rewritten, [from, to]
        int to;
        int ng;
        // the neighbours outside the moved run: read before the move, and only when the run has
        // one outside the group (each is a load from another leaf's links)
        int before = NONE;
        int after = NONE;
        if (o > 0 && (c < m - 1 - c || !roomRight)) { // the c nodes left of child c move left
            if (leaves) {
                before = t.leafPrev(g);
                after = c == m - 1 ? t.leafNext(g + m - 1) : g + c + 1;
            }
            moveNodes(leaves, g, g - 1, c);
            ng = g - 1;
            a[off + keySlots] = meta(ng, o - 1, m + 1);
            from = ng;
            to = g + c;
        } else { // the m - 1 - c nodes right of it move right
            if (leaves) {
                before = c == 0 ? t.leafPrev(g) : g + c - 1;
                after = t.leafNext(g + m - 1);
            }
            moveNodes(leaves, g + c + 1, g + c + 2, m - 1 - c);
            ng = g;
            a[off + keySlots] = meta(g, o, m + 1);
            from = g + c;
            to = g + m;
        }
        writeImage(leaves, 0, ng + c); // child c of the group as it is now, and c + 1
        writeImage(leaves, 1, ng + c + 1);
        if (leaves) {
            for (int i = from; i <= to; i++) {
                order[i - from] = i;
            }
            t.relink(order, to - from + 1, before, after);
        }
    }

    /**
     * Plain and segmented trees, parent with room: the segment that holds child {@code c} (the
     * whole group when not segmented) is copied into a new group one node larger, the child
     * replaced by its two images; the parent points to the new group and the old one is freed.
     */
    private void copySegment(boolean leaves, int p, int c) {
        int off = t.innerOff(p);
        long m0 = t.inner.chunk(0)[off + keySlots];
        int j = segs == 2 && c >= count(m0) ? 1 : 0;
        int cj = j == 0 ? c : c - count(m0);
        long mj = t.inner.chunk(0)[off + keySlots + j];
        int g = first(mj);
        int m = count(mj);
        for (int i = 0; i < cj; i++) {
            sources[i] = g + i;
        }
        sources[cj] = IMG_LEFT;
        sources[cj + 1] = IMG_RIGHT;
        for (int i = cj + 1; i < m; i++) {
            sources[i + 1] = g + i;
        }
        int prevOut = leaves ? t.leafPrev(g) : NONE;
        int nextOut = leaves ? t.leafNext(g + m - 1) : NONE;
        t.inner.chunk(0)[off + keySlots + j] = placeGroup(leaves, 0, m + 1);
        free(leaves, g, m);
        if (leaves) {
            t.relink(order, m + 1, prevOut, nextOut);
        }
    }

    /**
     * The parent at level {@code h} is full: its {@code K + 2} children (the split one as its two
     * images) are redistributed over two new groups (segmented: each new node's two segments),
     * the old group freed, and the parent split into two images of level {@code h} that replace it
     * one level up.
     */
    private void splitParent(int h, long sep) {
        boolean leaves = h == 1;
        int p = pathNode[h];
        int c = pathPos[h];
        long[] a = t.inner.chunk(0);
        int off = t.innerOff(p);
        int k = keySlots;
        // the K + 1 keys, sep at c
        long[] mk = mergeKeys;
        System.arraycopy(a, off, mk, 0, c);
        mk[c] = sep;
        System.arraycopy(a, off + c, mk, c + 1, k - c);
        // the K + 2 children, in order, the split one as its images
        int total = k + 2;
        int s = 0;
        int firstOld = NONE;
        int lastOld = NONE;
        for (int j = 0; j < segs; j++) {
            long mj = a[off + k + j];
            for (int i = 0; i < count(mj); i++) {
                int id = first(mj) + i;
                if (firstOld == NONE) {
                    firstOld = id;
                }
                lastOld = id;
                if (s == c) {
                    sources[s++] = IMG_LEFT;
                    sources[s++] = IMG_RIGHT;
                } else {
                    sources[s++] = id;
                }
            }
        }
        long meta0 = a[off + k];
        long meta1 = segs == 2 ? a[off + k + 1] : 0;
        int prevOut = leaves ? t.leafPrev(firstOld) : NONE;
        int nextOut = leaves ? t.leafNext(lastOld) : NONE;
        // an append (c is the last child): the left image keeps the K + 1 children, all its keys,
        // the right one starts with the one new child and no key (an inner node of one child is
        // valid, the deleter leaves such too); it fills as the appends go on
        int left = append ? total - 1 : (total + 1) / 2;
        int right = total - left;
        int side = (h & 1) * 2;
        long[] li = innerImg[side];
        long[] ri = innerImg[side + 1];
        Arrays.fill(li, MAXKEY);
        Arrays.fill(ri, MAXKEY);
        System.arraycopy(mk, 0, li, 0, left - 1);
        System.arraycopy(mk, left, ri, 0, right - 1);
        long up = mk[left - 1];
        if (segs == 1) {
            splitGroup(leaves, meta0, c, left, right, li, ri);
        } else { // the paper copies both segments
            placeChildrenOf(leaves, li, 0, left);
            placeChildrenOf(leaves, ri, left, right);
            free(leaves, first(meta0), count(meta0));
            free(leaves, first(meta1), count(meta1));
        }
        if (leaves) {
            t.relink(order, total, prevOut, nextOut);
        }
        replaceChild(h + 1, up);
    }

    /**
     * One pointer lane, parent full: its group's {@code K + 2} children ({@link #sources}, the split
     * child as its two images at {@code c}) are redistributed between the old group and one new
     * group, as the paper does (section 3.1), {@code left} and {@code right} of them. The half that
     * does not hold the images stays where it is, so only the other half is copied (when the left
     * image ends the left half, it is written in place and that half stays). The plain tree frees the
     * ids the copied half leaves; the full tree keeps them, holes in its block. Writes the halves'
     * pointer lanes into the parent's images {@code li} and {@code ri}, and the new ids to
     * {@link #order}.
     */
    private void splitGroup(boolean leaves, long meta, int c, int left, int right, long[] li, long[] ri) {
        int g = first(meta);
        int o = offset(meta);
        int m = count(meta);
        if (c >= left - 1) { // the left half stays at g ..
            if (c == left - 1) {
                writeImage(leaves, 0, g + c);
            }
            for (int i = 0; i < left; i++) {
                order[i] = g + i;
            }
            li[keySlots] = meta(g, o, left);
            ri[keySlots] = placeGroup(leaves, left, right);
            if (!full) {
                free(leaves, g + left, m - left);
            }
        } else { // the right half stays: the old children left - 1 .. m - 1
            int rg = g + left - 1;
            for (int i = 0; i < right; i++) {
                order[left + i] = rg + i;
            }
            ri[keySlots] = meta(rg, full ? o + left - 1 : 0, right);
            li[keySlots] = placeGroup(leaves, 0, left);
            if (!full) {
                free(leaves, g, left - 1);
            }
        }
    }

    /** A new root over the two images of the old one (level {@code height}), which is freed. */
    private void newRoot(boolean leaves, long sep) {
        int old = t.root;
        sources[0] = IMG_LEFT;
        sources[1] = IMG_RIGHT;
        int r = t.innerPool.alloc(1);
        long[] img = innerImg[((t.height + 1) & 1) * 2];
        Arrays.fill(img, MAXKEY);
        img[0] = sep;
        placeChildrenOf(leaves, img, 0, 2);
        System.arraycopy(img, 0, t.inner.chunk(0), t.innerOff(r), width);
        free(leaves, old, 1);
        if (leaves) {
            t.chainAll(order, 2); // the root leaf's two halves are the whole chain
        }
        t.root = r;
        t.height++;
    }

    /**
     * Allocates the group (segmented: the two segments, split evenly) for {@code n} children taken
     * from {@code sources[from ..]} and writes its pointer lanes into the node image {@code node};
     * the new ids, in order, go to {@link #order} from {@code from}.
     */
    private void placeChildrenOf(boolean leaves, long[] node, int from, int n) {
        if (segs == 1) {
            node[keySlots] = placeGroup(leaves, from, n);
        } else {
            int n0 = (n + 1) / 2;
            node[keySlots] = placeGroup(leaves, from, n0);
            node[keySlots + 1] = placeGroup(leaves, from + n0, n - n0);
        }
    }

    /**
     * A new group of {@code cap(n)} ids holding the children {@code sources[from .. from+n)}; its
     * pointer lane. The full tree centres the children in their block (an append: at its start), leaving room on both sides
     * for {@link #shiftInGroup}.
     */
    private long placeGroup(boolean leaves, int from, int n) {
        if (n == 0) {
            return 0;
        }
        // an append places its groups at the start of the block: they grow only at their end
        int o = full && !append ? (width - n) / 2 : 0;
        int g = t.pool(leaves).alloc(cap(n)) + o;
        for (int i = 0; i < n; i++) {
            int src = sources[from + i];
            if (src < 0) {
                writeImage(leaves, src == IMG_LEFT ? 0 : 1, g + i);
            } else {
                copyNode(leaves, src, g + i);
            }
            order[from + i] = g + i;
        }
        return meta(g, o, n);
    }

    private void free(boolean leaves, int g, int n) {
        t.pool(leaves).free(g, n);
    }

    /**
     * Moves the {@code k} nodes from id {@code src} to id {@code dst}, one place away
     * ({@code dst = src - 1} or {@code src + 1}): one copy a node array when the ids share a chunk
     * ({@code System.arraycopy} handles the overlap), else node by node in the safe order. Also
     * {@link CsbDeleter}'s, which closes a removed child's place in its group.
     */
    void moveNodes(boolean leaves, int src, int dst, int k) {
        if (k == 0) {
            return;
        }
        int lo = Math.min(src, dst);
        int hi = Math.max(src, dst) + k - 1;
        if (!leaves) {
            long[] a = t.inner.chunk(0);
            System.arraycopy(a, t.innerOff(src), a, t.innerOff(dst), k * width);
        } else if (t.leafKeys.chunk(lo) == t.leafKeys.chunk(hi)) {
            int so = t.leafKeys.offset(src);
            int d = t.leafKeys.offset(dst);
            long[] kc = t.leafKeys.chunk(lo);
            long[] vc = t.leafVals.chunk(lo);
            System.arraycopy(kc, so, kc, d, k * width);
            System.arraycopy(vc, so, vc, d, k * width);
        } else if (dst < src) {
            for (int i = 0; i < k; i++) {
                copyNode(true, src + i, dst + i);
            }
        } else {
            for (int i = k - 1; i >= 0; i--) {
                copyNode(true, src + i, dst + i);
            }
        }
    }

    void copyNode(boolean leaves, int from, int to) {
        if (leaves) {
            int fo = t.leafKeys.offset(from);
            int to2 = t.leafKeys.offset(to);
            System.arraycopy(t.leafKeys.chunk(from), fo, t.leafKeys.chunk(to), to2, width);
            System.arraycopy(t.leafVals.chunk(from), fo, t.leafVals.chunk(to), to2, width);
        } else {
            long[] a = t.inner.chunk(0);
            System.arraycopy(a, t.innerOff(from), a, t.innerOff(to), width);
        }
    }

    /** Writes image {@code side} of the level being split (leaf or inner) to node {@code to}. */
    private void writeImage(boolean leaves, int side, int to) {
        if (leaves) {
            int o = t.leafKeys.offset(to);
            System.arraycopy(leafImgKeys[side], 0, t.leafKeys.chunk(to), o, width);
            System.arraycopy(leafImgVals[side], 0, t.leafVals.chunk(to), o, width);
        } else {
            // the images being placed are those of the level below the one splitting
            System.arraycopy(innerImg[imageLevelParity * 2 + side], 0, t.inner.chunk(0), t.innerOff(to), width);
        }
    }

    /** Ids a group of {@code n} nodes takes: {@code n}, or always {@code S} in the full tree. */
    private int cap(int n) {
        return full ? width : n;
    }
}
