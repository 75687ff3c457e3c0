package org.bforest.opencl.pages;

import java.util.function.Consumer;

/**
 * A paged tree's invariants, checked on an {@link Image} read back from the device against the
 * host's control state. The levels above the leaves report each leaf with its key range
 * ({@link #leaf}), left to right; device inner pages are walked by {@link #innerPages}. Checked:
 * every page's keys ascend strictly, the used ones within the page's range and below
 * {@code Long.MAX_VALUE}, the rest exactly that (values 0); unused child slots repeat the last
 * child; every leaf page is reached once, in the order of the host's chain; occupancies match the
 * host's counts, and the leaves hold the index's keys.
 */
public final class Checker {
    private static final long MAXKEY = Long.MAX_VALUE;
    private final Consumer<String> fail;
    private final Image image;
    private final int pageKeys;
    private final int[] leafCount;
    private final int[] leafOrder;
    private int leavesSeen;
    private long keysSeen;
    private boolean[] innerSeen;

    Checker(Consumer<String> fail, Image image, int pageKeys, int[] leafCount) {
        this.fail = fail;
        this.image = image;
        this.pageKeys = pageKeys;
        this.leafCount = leafCount;
        this.leafOrder = new int[image.leafPages];
    }

    /** Reports a broken invariant. */
    public void fail(String what) {
        fail.accept(what);
    }

    /** The next leaf page from the left, whose keys must lie in [lo, hi). */
    public void leaf(int p, long lo, long hi) {
        if (p < 0 || p >= image.leafPages) {
            fail.accept("leaf page " + p + " does not exist");
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

    /** Walks device inner pages from {@code root}, {@code height} levels above the leaves. */
    public void innerPages(int root, int height, int[] innerCount) {
        innerSeen = new boolean[image.innerPages];
        if (height == 0 && root != 0) {
            fail.accept("a tree of height 0 has root " + root + ", not leaf 0");
        }
        visit(root, height, Long.MIN_VALUE, MAXKEY, innerCount);
    }

    /** After the leaves: every one reached, in chain order, holding {@code keys} keys in all. */
    void finish(int[] leafNext, int lastPage, long keys) {
        if (leavesSeen != image.leafPages) {
            fail.accept(leavesSeen + " leaves are reachable from the root, " + image.leafPages + " exist");
        }
        int page = 0;
        for (int i = 0; i < leavesSeen; i++) {
            if (leafOrder[i] != page) {
                fail.accept("leaf " + i + " from the left is page " + leafOrder[i] + ", but the chain has " + page);
            }
            if (i + 1 < leavesSeen) {
                page = leafNext[page];
            }
        }
        if (page != lastPage) {
            fail.accept("the chain ends at page " + page + ", but the last page is " + lastPage);
        }
        if (keysSeen != keys) {
            fail.accept("the leaves hold " + keysSeen + " keys, expected " + keys);
        }
    }

    /** Page {@code p}, {@code level} levels above the leaves, whose keys must lie in [lo, hi). */
    private void visit(int p, int level, long lo, long hi, int[] innerCount) {
        if (level == 0) {
            leaf(p, lo, hi);
            return;
        }
        if (p < 0 || p >= image.innerPages || innerSeen[p]) {
            fail.accept("inner page " + p + " does not exist or is reached twice");
            return;
        }
        innerSeen[p] = true;
        int n = innerCount[p];
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
            visit(image.innerKids[base + c], level - 1, from, to, innerCount);
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
