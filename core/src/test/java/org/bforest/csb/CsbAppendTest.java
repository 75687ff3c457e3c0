package org.bforest.csb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.bforest.CsbVariant;
import org.bforest.LongCursor;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The CSB+-trees' append splits ({@link CsbSplitter}): ascending inserts leave every leaf but the
 * last full and every inner node on the way full, so the node and id counts are those of a tree
 * packed to the brim (each variant, each node size); a split that is not an append (a key inside
 * the last leaf, or past the last key of a leaf that is not the last) still splits in halves; and
 * ascending, random and deleting runs mixed match {@link TreeMap} with the checker throughout.
 */
class CsbAppendTest {
    static Stream<Arguments> variantsAndLines() {
        List<Arguments> out = new ArrayList<>();
        for (CsbVariant v : CsbVariant.values()) {
            for (int lines : new int[] {1, 2, 4}) {
                out.add(Arguments.of(v, lines));
            }
        }
        return out.stream();
    }

    private static long[] keys(int n, long step) {
        long[] k = new long[n];
        for (int i = 0; i < n; i++) {
            k[i] = i * step;
        }
        return k;
    }

    private static void sameAs(TreeMap<Long, Long> model, CsbTree t, String what) {
        try {
            t.checkInvariants();
        } catch (IllegalStateException e) {
            throw new AssertionError(what + ": " + e.getMessage(), e);
        }
        assertEquals(model.size(), t.size(), what);
        LongCursor c = t.cursor();
        boolean on = c.seekFirst();
        for (Map.Entry<Long, Long> e : model.entrySet()) {
            assertTrue(on, what + ": cursor ended early");
            assertEquals(e.getKey(), c.key(), what);
            assertEquals(e.getValue(), c.value(), what);
            on = c.next();
        }
        assertTrue(!on, what + ": cursor runs past the model");
    }

    /** The entries of the leaves in chain order. */
    private static List<Integer> leafCounts(CsbTree t) {
        List<Integer> out = new ArrayList<>();
        for (int leaf = t.firstLeaf(); leaf != CsbTree.NONE; leaf = t.leafNext(leaf)) {
            out.add(t.leafCount(leaf));
        }
        return out;
    }

    @ParameterizedTest
    @MethodSource("variantsAndLines")
    void ascendingInsertsFillEveryNode(CsbVariant v, int lines) {
        int s = 8 * lines;
        int n = s * s * 9 + 5; // several inner levels at S = 8, two at S = 32
        CsbTree t = new CsbTree("t", v, lines);
        for (int i = 0; i < n; i++) {
            t.put(i * 3L, i);
        }
        t.checkInvariants();
        // every leaf full but the last, which holds the remainder
        List<Integer> counts = leafCounts(t);
        int leaves = (n + s - 1) / s;
        assertEquals(leaves, counts.size(), "leaves: n / S rounded up");
        for (int i = 0; i < leaves - 1; i++) {
            assertEquals(s, counts.get(i), "leaf " + i + " is full");
        }
        assertEquals(n - (leaves - 1) * s, counts.get(leaves - 1));
        // every inner node holds K + 1 children but the last of its level: the levels of a tree
        // packed full, and the ids they take (the full tree: a block of S for each group)
        int fan = t.keySlots + 1;
        long innerIds = 1; // the root, alone in its group
        int level = leaves;
        int height = 0;
        int parents = (level + fan - 1) / fan;
        long leafIds = v == CsbVariant.FULL ? (long) parents * s : leaves;
        while (level > 1) {
            int up = (level + fan - 1) / fan;
            if (height > 0) { // this level's nodes are inner: ids in the groups of the level above
                innerIds += v == CsbVariant.FULL ? (long) up * s : level;
            }
            level = up;
            height++;
        }
        assertEquals(height, t.height, "the height of a packed tree");
        assertEquals(leafIds, t.leafPool.used(), "leaf ids");
        assertEquals(innerIds, t.innerPool.used(), "inner ids");
        // no more ids than the bulk load of the same keys, which leaves one key slot of a node
        // free (memoryBytes is not compared: the arrays grown one split at a time have spare
        // capacity, the bulk load's are exact)
        CsbTree bulk = CsbTree.bulkLoad("b", v, lines, keys(n, 3), null);
        assertTrue(t.leafPool.used() <= bulk.leafPool.used(), t + " against " + bulk);
        assertTrue(t.innerPool.used() <= bulk.innerPool.used(), t + " against " + bulk);
    }

    @ParameterizedTest
    @MethodSource("variantsAndLines")
    void appendsAfterABulkLoadFillNewLeaves(CsbVariant v, int lines) {
        int s = 8 * lines;
        int n = s * 500;
        CsbTree t = CsbTree.bulkLoad("t", v, lines, keys(n, 2), null);
        for (int i = 0; i < n; i++) {
            t.put(2L * n + i, i);
        }
        t.checkInvariants();
        List<Integer> counts = leafCounts(t);
        assertEquals(2 * n / s, counts.size(), "the bulk load's leaves and as many full ones");
        assertTrue(counts.stream().allMatch(c -> c == s), "all full: " + counts);
    }

    @ParameterizedTest
    @EnumSource(CsbVariant.class)
    void splitsThatAreNotAppendsStillSplitInHalves(CsbVariant v) {
        int s = 8;
        int left = (s + 2) / 2;
        // a key inside the last leaf
        CsbTree t = new CsbTree("t", v, 1);
        for (int i = 0; i < s; i++) {
            t.put(i * 10L, i);
        }
        t.put(35, 1);
        assertEquals(List.of(left, s + 1 - left), leafCounts(t));
        // past the last key of the last leaf: the full leaf stays, the new one holds the key
        CsbTree a = new CsbTree("a", v, 1);
        for (int i = 0; i <= s; i++) {
            a.put(i * 10L, i);
        }
        assertEquals(List.of(s, 1), leafCounts(a));
        a.checkInvariants();
        // past the last key of a full leaf that is not the last (its largest key was removed, its
        // separator stayed): a half split
        CsbTree b = CsbTree.bulkLoad("b", v, 1, keys(2 * s, 10), null);
        long top = (s - 1) * 10L; // leaf 0's largest, its separator
        assertEquals(0, b.remove(top)); // the bulk load's values are 0
        b.put(1, 1); // leaf 0 full again, its last key below the separator
        assertEquals(List.of(s, s), leafCounts(b));
        b.put(top - 1, 2); // rank S in leaf 0, which has a next leaf
        assertEquals(List.of(left, s + 1 - left, s), leafCounts(b));
        b.checkInvariants();
        assertEquals(2, b.get(top - 1, -1));
    }

    @ParameterizedTest
    @MethodSource("variantsAndLines")
    void ascendingThenRandomThenDeletesMatchTreeMap(CsbVariant v, int lines) {
        SplittableRandom r = new SplittableRandom(31L * lines + v.ordinal());
        CsbTree t = new CsbTree("t", v, lines);
        TreeMap<Long, Long> model = new TreeMap<>();
        int n = 12_000;
        long next = 0;
        for (int round = 0; round < 3; round++) {
            // appends, with gaps the random keys fall into
            for (int i = 0; i < n; i++, next += 16) {
                t.put(next, next);
                model.put(next, next);
            }
            sameAs(model, t, v + " lines " + lines + " round " + round + " ascending");
            // random keys in the range so far (half splits, inner ones too), some overwrites
            for (int i = 0; i < n / 2; i++) {
                long k = r.nextLong(next);
                long val = r.nextLong();
                assertEquals(model.containsKey(k) ? model.get(k) : t.defaultReturnValue(), t.put(k, val));
                model.put(k, val);
            }
            sameAs(model, t, v + " lines " + lines + " round " + round + " random");
            // deletes: random ones, and the newest keys, so the next appends start from a thinned
            // right edge
            for (int i = 0; i < n / 2; i++) {
                long k = i % 3 == 0 ? model.lastKey() : r.nextLong(next);
                Long had = model.remove(k);
                assertEquals(had == null ? t.defaultReturnValue() : had, t.remove(k));
            }
            next = model.lastKey() + 1;
            sameAs(model, t, v + " lines " + lines + " round " + round + " deletes");
        }
        // drain from the front, as a window's deletes do
        while (model.size() > 100) {
            long k = model.firstKey();
            assertEquals(model.remove(k), t.remove(k));
        }
        sameAs(model, t, v + " lines " + lines + " drained");
    }
}
