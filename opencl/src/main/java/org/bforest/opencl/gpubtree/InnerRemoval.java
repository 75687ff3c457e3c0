package org.bforest.opencl.gpubtree;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bforest.opencl.cl.ClScope;
import org.bforest.opencl.pages.PageStore;

/**
 * A delete batch's changes to the GPU B+-tree's inner pages, planned on the host before the device
 * changes anything and written back after the leaves are compacted (Kaczmarek's paper leaves
 * deletion for later; this is the textbook B+-tree's, two children the least an inner page keeps).
 * Each emptied leaf comes out of its parent: the parent drops the child and the separator before
 * it (the left neighbour takes over the empty range; a dropped first child hands its range to the
 * second); a page left with no child is freed and comes out of its own parent; a page left with
 * one child merges with a sibling (the parent's separator between them comes down, the parent
 * loses a child, and so on up) or, if the two do not fit in one page, the pair's children are
 * split evenly between them and the parent's separator replaced; a root left with one child gives
 * way to it (the height drops). One removal at a time, so that every step starts from a tree in
 * which every inner page has two children: a page left with one child always has a sibling.
 *
 * <p>It works on host copies of the pages it touches, each read from the device once (only their
 * used entries; or all inner pages in two transfers, once single reads would cost more) and
 * written back once if it changed. A page's parent is known from the batch's
 * descent path (the path rows of a query that went through it) until a merge or a borrow moves it:
 * then from the copy that took it in. Apart from {@link GpuBTree} because it is the plan's state,
 * as {@code pages.Level} is an insert's.
 */
final class InnerRemoval {
    private static final long MAXKEY = Long.MAX_VALUE;

    /** A host copy of an inner page: {@code kids} children, {@code kids - 1} keys. */
    private static final class Page {
        final long[] keys;
        final int[] children;
        int kids;
        boolean changed;
        boolean freed;

        Page(int pageKeys) {
            keys = new long[pageKeys];
            children = new int[pageKeys + 1];
        }

        int indexOf(int child, int id) {
            for (int c = 0; c < kids; c++) {
                if (children[c] == child) {
                    return c;
                }
            }
            throw new IllegalStateException("inner page " + id + " does not hold child " + child);
        }

        /** Drops child c and the separator before it (child 0: the separator after it). */
        void removeAt(int c) {
            int k = c == 0 ? 0 : c - 1;
            if (kids > 1) {
                System.arraycopy(keys, k + 1, keys, k, kids - 2 - k);
            }
            System.arraycopy(children, c + 1, children, c, kids - 1 - c);
            kids--;
            changed = true;
        }
    }

    private final PageStore store;
    private final int pageKeys;
    private final int[] innerCount;
    /**
     * The batch's descent below the root: row r, query i at {@code path[(r - 1) * n + i]}, row 1
     * the root's children, {@code pathHeight - 1} the leaves' parents (row 0 would be the root).
     */
    private final int[] path;
    private final int n;
    private final int pathHeight;
    private final int pathRoot;
    private final Map<Integer, Page> pages = new HashMap<>();
    /** The parent of a page whose parent's copy is held: key {@code level << 32 | id} (level 0: leaves). */
    private final Map<Long, Integer> parents = new HashMap<>();
    private final List<Integer> freed = new ArrayList<>();
    private int root;
    private int height;
    /**
     * Reads of single pages after which it reads every inner page at once instead (two
     * transfers): about what one 64 KB transfer costs against a round trip, so that a batch that
     * empties thousands of small pages does not wait for thousands of round trips.
     */
    private final long bulkAfter;
    private int reads;
    /** Every inner page's keys and children, once read in bulk (null before). */
    private long[] allKeys;
    private int[] allKids;

    InnerRemoval(PageStore store, int[] innerCount, int root, int height, int[] path, int n) {
        this.store = store;
        this.pageKeys = store.pageKeys;
        this.innerCount = innerCount;
        this.root = root;
        this.height = height;
        this.path = path;
        this.n = n;
        this.pathHeight = height;
        this.pathRoot = root;
        long keys = (long) store.innerIds.top() * (pageKeys + 1);
        this.bulkAfter = keys > Integer.MAX_VALUE - 8 ? Long.MAX_VALUE : keys * 12 / 65_536;
    }

    int root() {
        return root;
    }

    int height() {
        return height;
    }

    /** Takes the emptied leaf page {@code leaf} out, which query {@code rep} of the batch reached. */
    void removeLeaf(int leaf, int rep) {
        removeChild(1, parentOf(0, leaf, rep), leaf, rep);
    }

    private static long key(int level, int id) {
        return (long) level << 32 | id & 0xFFFFFFFFL;
    }

    /** The parent of page {@code id} at {@code level} (below the root): where it moved, or on query {@code rep}'s path. */
    private int parentOf(int level, int id, int rep) {
        Integer moved = parents.get(key(level, id));
        if (moved != null) {
            return moved;
        }
        int row = pathHeight - level - 1;
        return row == 0 ? pathRoot : path[(row - 1) * n + rep];
    }

    /** The copy of inner page {@code id} at {@code level}, read from the device the first time. */
    private Page page(int level, int id) {
        Page p = pages.get(id);
        if (p == null) {
            p = new Page(pageKeys);
            int keys = innerCount[id];
            p.kids = keys + 1;
            if (allKeys == null && ++reads > bulkAfter) {
                int top = store.innerIds.top();
                allKeys = new long[top * pageKeys];
                store.readLongs(store.innerKeys, 0, allKeys, 0, allKeys.length);
                allKids = store.readInts(store.innerKids, 0, top * (pageKeys + 1));
            }
            if (allKeys != null) {
                System.arraycopy(allKeys, id * pageKeys, p.keys, 0, keys);
                System.arraycopy(allKids, id * (pageKeys + 1), p.children, 0, keys + 1);
            } else {
                store.readLongs(store.innerKeys, (long) id * pageKeys, p.keys, 0, keys);
                System.arraycopy(store.readInts(store.innerKids, (long) id * (pageKeys + 1), keys + 1), 0, p.children, 0,
                        keys + 1);
            }
            for (int c = 0; c <= keys; c++) {
                parents.put(key(level - 1, p.children[c]), id);
            }
            pages.put(id, p);
        }
        return p;
    }

    private void free(int id) {
        pages.get(id).freed = true;
        freed.add(id);
    }

    /** Takes {@code child} out of inner page {@code id} at {@code level}; fixes what that breaks, up to the root. */
    private void removeChild(int level, int id, int child, int rep) {
        Page p = page(level, id);
        p.removeAt(p.indexOf(child, id));
        parents.remove(key(level - 1, child));
        if (level == height) {   // the root
            if (p.kids == 0) {
                throw new IllegalStateException("the root lost its last child; an emptied tree keeps a leaf");
            }
            if (p.kids == 1) {
                // A root of one child gives way to it (the child has two children, or is a leaf).
                root = p.children[0];
                height--;
                free(id);
            }
            return;
        }
        if (p.kids == 0) {
            free(id);
            removeChild(level + 1, parentOf(level, id, rep), id, rep);
        } else if (p.kids == 1) {
            rebalance(level, id, p, rep);
        }
    }

    /** Inner page {@code id} (not the root) has one child: merge it with a sibling, or share the pair's children. */
    private void rebalance(int level, int id, Page p, int rep) {
        int gid = parentOf(level, id, rep);
        Page g = page(level + 1, gid);
        int at = g.indexOf(id, gid);
        boolean left = at > 0;   // the sibling on the left if there is one
        int sid = g.children[left ? at - 1 : at + 1];
        Page s = page(level, sid);
        int lid = left ? sid : id;
        int rid = left ? id : sid;
        Page l = left ? s : p;
        Page r = left ? p : s;
        int sepAt = left ? at - 1 : at;   // the parent's separator between l and r
        int kids = l.kids + r.kids;
        long[] keys = new long[kids - 1];
        int[] children = new int[kids];
        System.arraycopy(l.keys, 0, keys, 0, l.kids - 1);
        keys[l.kids - 1] = g.keys[sepAt];
        System.arraycopy(r.keys, 0, keys, l.kids, r.kids - 1);
        System.arraycopy(l.children, 0, children, 0, l.kids);
        System.arraycopy(r.children, 0, children, l.kids, r.kids);
        if (kids - 1 <= pageKeys) {
            // One page: l takes it all, r goes, and the parent loses r (and the separator).
            fill(l, lid, level, keys, children, 0, kids);
            free(rid);
            removeChild(level + 1, gid, rid, rep);
        } else {
            // Too many for one page (the sibling was full): half each, a new separator between.
            int half = kids / 2;
            fill(l, lid, level, keys, children, 0, half);
            fill(r, rid, level, keys, children, half, kids);
            g.keys[sepAt] = keys[half - 1];
            g.changed = true;
        }
    }

    /** Page {@code pg} (id {@code id}) becomes children [from, to) of the merged run and the keys between them. */
    private void fill(Page pg, int id, int level, long[] keys, int[] children, int from, int to) {
        pg.kids = to - from;
        System.arraycopy(children, from, pg.children, 0, to - from);
        System.arraycopy(keys, from, pg.keys, 0, to - from - 1);
        for (int c = from; c < to; c++) {
            parents.put(key(level - 1, children[c]), id);
        }
        pg.changed = true;
    }

    /**
     * The pinned staging memory {@link #apply} writes through (each changed page's keys and
     * children, each write 64-byte aligned), for the batch to reserve before it changes anything.
     */
    long stagedBytes() {
        long page = ClScope.staged(8L * pageKeys) + ClScope.staged(4L * (pageKeys + 1));
        long changed = 0;
        for (Page p : pages.values()) {
            changed += !p.freed && p.changed ? 1 : 0;
        }
        return changed * page;
    }

    /**
     * Carries the plan out once the leaves are compacted: each changed page written back whole
     * (keys padded with {@code Long.MAX_VALUE}, unused child slots repeating the last child, as
     * the descent expects), the counts in {@code counts}, and the freed pages given back.
     */
    void apply(int[] counts) {
        long[] keys = new long[pageKeys];
        int[] kids = new int[pageKeys + 1];
        for (Map.Entry<Integer, Page> e : pages.entrySet()) {
            Page p = e.getValue();
            if (p.freed || !p.changed) {
                continue;
            }
            int id = e.getKey();
            System.arraycopy(p.keys, 0, keys, 0, p.kids - 1);
            Arrays.fill(keys, p.kids - 1, pageKeys, MAXKEY);
            System.arraycopy(p.children, 0, kids, 0, p.kids);
            Arrays.fill(kids, p.kids, pageKeys + 1, p.children[p.kids - 1]);
            store.writeLongs(store.innerKeys, (long) id * pageKeys, keys, 0, pageKeys, null, 0, 0);
            store.writeInts(store.innerKids, (long) id * (pageKeys + 1), kids, pageKeys + 1);
            counts[id] = p.kids - 1;
        }
        for (int id : freed) {
            counts[id] = 0;
            store.innerIds.release(id);
        }
    }

    /** {@code counts} cut down when the inner ids in use end at a quarter of its length or below. */
    static int[] trimmed(int[] counts, int top) {
        return counts.length > 4 && top <= counts.length / 4 ? Arrays.copyOf(counts, Math.max(1, 2 * top)) : counts;
    }
}
