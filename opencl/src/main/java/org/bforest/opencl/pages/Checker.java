package org.bforest.opencl.pages;

import static org.bforest.spi.LeafChainIndex.NONE;

import java.util.function.Consumer;

/**
 * A paged tree's invariants, checked on an {@link Image} read back from the device against the
 * host's control state. The levels above the leaves report each leaf with its key range
 * ({@link #leaf}), left to right; device inner pages are walked by {@link #innerPages}. Checked:
 * every page's keys ascend strictly, the used ones within the page's range and below
 * {@code Long.MAX_VALUE}, the rest exactly that (values 0); every inner page has a key (two
 * children), and unused child slots repeat the last child; every leaf page is reached once, in
 * the order of the host's chain (both ways), and none is empty unless it is the tree's only one;
 * occupancies match the host's counts, and the leaves hold the index's keys. The page accounting:
 * no free page is reached, and every page id below the top that is not free is reached (none is
 * lost), leaves and device inner pages alike.
 */
public final class Checker {
    private static final long MAXKEY = Long.MAX_VALUE;
    private final Consumer<String> fail;
    private final Image image;
    private final int pageKeys;
    private final int[] leafCount;
    private final PageIds leafIds;
    private final int[] leafOrder;
    private int leavesSeen;
    private long keysSeen;
    private boolean[] innerSeen;

    /** {@code image.leafPages}: the leaf ids read back, up to {@code leafIds}' top. */
    Checker(Consumer<String> fail, Image image, int pageKeys, int[] leafCount, PageIds leafIds) {
        this.fail = fail;
        this.image = image;
        this.pageKeys = pageKeys;
        this.leafCount = leafCount;
        this.leafIds = leafIds;
        this.leafOrder = new int[leafIds.inUse()];
        if (image.leafPages != leafIds.top()) {
            fail.accept(image.leafPages + " leaf pages were read back, the top id is " + leafIds.top());
        }
    }

    /** Reports a broken invariant. */
    public void fail(String what) {
        fail.accept(what);
    }

    /** The next leaf page from the left, whose keys must lie in [lo, hi). */
    public void leaf(int p, long lo, long hi) {
        if (p < 0 || p >= image.leafPages || leafIds.isFree(p)) {
            fail.accept("leaf page " + p + " does not exist or is free");
            return;
        }
        if (leavesSeen == leafOrder.length) {
            fail.accept("leaf page " + p + " is reached twice");
            return;
        }
        leafOrder[leavesSeen++] = p;
        int n = leafCount[p];
        checkPage(image.leafKeys, p, n, lo, hi, "leaf");
        for (int s = n; s < pageKeys; s++) {
            if (image.leafValues[p * pageKeys + s] != 0) {
                fail.accept("leaf page " + p + " has a value in unused slot " + s);
            }
        }
        keysSeen += n;
    }

    /**
     * Walks device inner pages from {@code root}, {@code height} levels above the leaves
     * ({@code image.innerPages}: the inner ids read back, up to {@code innerIds}' top), and checks
     * that every inner page in use is reached.
     */
    public void innerPages(int root, int height, int[] innerCount, PageIds innerIds) {
        innerSeen = new boolean[image.innerPages];
        if (image.innerPages != innerIds.top()) {
            fail.accept(image.innerPages + " inner pages were read back, the top id is " + innerIds.top());
        }
        if (height == 0 && innerIds.inUse() != 0) {
            fail.accept("a tree of height 0 has " + innerIds.inUse() + " inner pages in use");
        }
        visit(root, height, Long.MIN_VALUE, MAXKEY, innerCount, innerIds);
        for (int p = 0; p < image.innerPages; p++) {
            if (!innerSeen[p] && !innerIds.isFree(p)) {
                fail.accept("inner page " + p + " is neither free nor reachable from the root");
            }
        }
    }

    /**
     * After the leaves: every one in use reached, in the order of the chain (whose links agree
     * both ways), none empty unless it is the only one, holding {@code keys} keys in all.
     */
    void finish(LeafChain chain, long keys) {
        if (leavesSeen != leafOrder.length || chain.pages != leafOrder.length) {
            fail.accept(leavesSeen + " leaves are reachable from the root, " + leafOrder.length + " ids are in use, "
                    + chain.pages + " are in the chain");
        }
        int page = chain.first;
        int before = NONE;
        for (int i = 0; i < leavesSeen; i++) {
            if (leafOrder[i] != page) {
                fail.accept("leaf " + i + " from the left is page " + leafOrder[i] + ", but the chain has " + page);
                return;
            }
            if (chain.prev[page] != before) {
                fail.accept("leaf page " + page + " links back to " + chain.prev[page] + ", not " + before);
            }
            if (leavesSeen > 1 && leafCount[page] == 0) {
                fail.accept("leaf page " + page + " is empty but still in the tree (" + leavesSeen + " leaves)");
            }
            before = page;
            if (i + 1 < leavesSeen) {
                page = chain.next[page];
            }
        }
        if (page != chain.last || chain.next[page] != NONE) {
            fail.accept("the chain ends at page " + page + ", but the last page is " + chain.last);
        }
        if (keysSeen != keys) {
            fail.accept("the leaves hold " + keysSeen + " keys, expected " + keys);
        }
    }

    /** Page {@code p}, {@code level} levels above the leaves, whose keys must lie in [lo, hi). */
    private void visit(int p, int level, long lo, long hi, int[] innerCount, PageIds innerIds) {
        if (level == 0) {
            leaf(p, lo, hi);
            return;
        }
        if (p < 0 || p >= image.innerPages || innerSeen[p] || innerIds.isFree(p)) {
            fail.accept("inner page " + p + " does not exist, is free or is reached twice");
            return;
        }
        innerSeen[p] = true;
        int n = innerCount[p];
        if (n < 1) {
            fail.accept("inner page " + p + " has " + n + " keys: an inner page has two children at least");
        }
        checkPage(image.innerKeys, p, n, lo, hi, "inner");
        int base = p * (pageKeys + 1);
        for (int c = n + 1; c <= pageKeys; c++) {
            if (image.innerKids[base + c] != image.innerKids[base + n]) {
                fail.accept("inner page " + p + ": unused child slot " + c + " holds " + image.innerKids[base + c]
                        + ", not the last child " + image.innerKids[base + n]);
            }
        }
        for (int c = 0; c <= n; c++) {
            long from = c == 0 ? lo : image.innerKeys[p * pageKeys + c - 1];
            long to = c == n ? hi : image.innerKeys[p * pageKeys + c];
            visit(image.innerKids[base + c], level - 1, from, to, innerCount, innerIds);
        }
    }

    private void checkPage(long[] keys, int p, int n, long lo, long hi, String kind) {
        if (n < 0 || n > pageKeys) {
            fail.accept(kind + " page " + p + " counts " + n + " keys in a page of " + pageKeys);
            return;
        }
        int base = p * pageKeys;
        for (int s = 0; s < pageKeys; s++) {
            long k = keys[base + s];
            if (s >= n) {
                if (k != MAXKEY) {
                    fail.accept(kind + " page " + p + " holds " + k + " in unused slot " + s + " (of " + n + " used)");
                }
                continue;
            }
            if (k == MAXKEY || k < lo || k >= hi) {
                fail.accept(kind + " page " + p + " slot " + s + ": key " + k + " is outside its range [" + lo + ", "
                        + hi + ")");
            }
            if (s > 0 && k <= keys[base + s - 1]) {
                fail.accept(kind + " page " + p + " slot " + s + ": key " + k + " does not ascend");
            }
        }
    }
}
