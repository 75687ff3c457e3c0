package org.bforest.opencl.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The checker on host images, no device needed: a sound tree passes, and each broken invariant of
 * the page accounting and of the inner pages is reported, among them an inner page with no key
 * (what two-key pages made of every level before inner pieces kept a key).
 */
class CheckerTest {
    private static final long MAX = Long.MAX_VALUE;

    /** A tree of two-key pages over {@code leaves} full leaves, keys 10, 20, 30, ... */
    private static Image image(int leaves) {
        long[] keys = new long[2 * leaves];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = 10L * (i + 1);
        }
        return Image.build(keys, null, 2, 1.0, true);
    }

    /** What the checker reports on {@code b} with these ids in use, the chain in key order. */
    private static List<String> check(Image b, PageIds leafIds, PageIds innerIds, LeafChain chain) {
        List<String> failures = new ArrayList<>();
        Checker c = new Checker(failures::add, b, 2, chain.count, leafIds);
        c.innerPages(b.root, b.height, b.innerCounts, innerIds);
        long keys = 0;
        for (int p = 0; p < b.leafPages; p++) {
            keys += leafIds.isFree(p) ? 0 : chain.count[p];
        }
        c.finish(chain, keys);
        return failures;
    }

    private static PageIds ids(int inUse) {
        PageIds ids = new PageIds();
        ids.reset(inUse);
        return ids;
    }

    private static LeafChain chain(Image b) {
        LeafChain chain = new LeafChain();
        chain.install(b.leafCounts, b.leafPages);
        return chain;
    }

    @Test
    void aSoundTreePasses() {
        Image b = image(9);
        assertEquals(List.of(), check(b, ids(b.leafPages), ids(b.innerPages), chain(b)));
        assertEquals(2, b.height);
    }

    @Test
    void anInnerPageWithNoKeyIsRejected() {
        // Two leaves under inner page 0, and above it page 1 with no key and page 0 its one child:
        // every key is still found, but the level does not branch.
        Image b = image(2);
        b.innerPages = 2;
        b.innerKeys = new long[] {30, MAX, MAX, MAX};
        b.innerKids = new int[] {0, 1, 1, 0, 0, 0};
        b.innerCounts = new int[] {1, 0};
        b.root = 1;
        b.height = 2;
        List<String> failures = check(b, ids(2), ids(2), chain(b));
        assertEquals(1, failures.size(), failures.toString());
        assertTrue(failures.get(0).contains("inner page 1 has 0 keys"), failures.toString());
    }

    /** {@code b} with {@code extra} more inner pages (padding, no key) that nothing reaches. */
    private static Image withUnreachedInnerPages(Image b, int extra) {
        b.innerPages += extra;
        int keys = b.innerKeys.length;
        b.innerKeys = Arrays.copyOf(b.innerKeys, b.innerPages * 2);
        Arrays.fill(b.innerKeys, keys, b.innerKeys.length, MAX);
        b.innerKids = Arrays.copyOf(b.innerKids, b.innerPages * 3);
        b.innerCounts = Arrays.copyOf(b.innerCounts, b.innerPages);
        return b;
    }

    @Test
    void theFreeListIsAccountedFor() {
        // Two inner pages beyond the tree's: the first free, the second in use but unreached (lost).
        Image b = withUnreachedInnerPages(image(9), 2);
        PageIds inner = ids(b.innerPages);
        inner.release(b.innerPages - 2);
        List<String> failures = check(b, ids(9), inner, chain(b));
        assertEquals(List.of("inner page " + (b.innerPages - 1) + " is neither free nor reachable from the root"),
                failures);
        // A leaf that the tree reaches but the free list holds.
        Image c = image(9);
        PageIds leaves = ids(9);
        leaves.release(4);
        failures = check(c, leaves, ids(c.innerPages), chain(c));
        assertTrue(failures.stream().anyMatch(f -> f.contains("leaf page 4 does not exist or is free")), failures.toString());
    }

    @Test
    void anEmptiedLeafLeftInTheTreeIsRejected() {
        Image b = image(3);
        b.leafKeys[2] = b.leafKeys[3] = MAX;
        LeafChain chain = chain(b);
        chain.count[1] = 0;
        List<String> failures = check(b, ids(3), ids(b.innerPages), chain);
        assertTrue(failures.stream().anyMatch(f -> f.contains("leaf page 1 is empty")), failures.toString());
        // The only leaf of a tree may be empty.
        Image empty = Image.build(new long[0], null, 2, 1.0, true);
        assertEquals(List.of(), check(empty, ids(1), ids(0), chain(empty)));
    }
}
