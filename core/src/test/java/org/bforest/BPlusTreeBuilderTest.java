package org.bforest;

import static org.bforest.BuiltContent.assertBuildsAWorkingIndex;
import static org.bforest.BuiltContent.assertBuildsAnEmptyIndex;
import static org.bforest.BuiltContent.assertRefused;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link BPlusTreeBuilder}: the leaf fill shapes the bulk load, the default is full leaves, bad fills are refused. */
class BPlusTreeBuilderTest {
    @Test
    void theLeafFillShapesTheBulkLoad() {
        for (double fill : new double[] {0.5, 0.75, 0.9, 1.0}) {
            LongIndex t = assertBuildsAWorkingIndex((k, v) -> Indexes.bPlusTreeBuilder().leafFill(fill).build(k, v),
                    3_000, "leafFill " + fill);
            assertTrue(t.toString().contains("bulkFill=" + fill), t.toString());
            assertTrue(t.toString().startsWith(fill < 1 ? "sparse B+-tree[" : "B+-tree["), t.toString());
        }
        // 1600 keys in leaves of 16 slots: 100 leaves full, 200 half full
        assertTrue(Indexes.bPlusTreeBuilder().build(keys(1_600), null).toString().contains("leaves=100,"));
        assertTrue(Indexes.bPlusTreeBuilder().leafFill(0.5).build(keys(1_600), null).toString().contains("leaves=200,"));
        assertTrue(Indexes.bPlusTree(keys(1_600), null, 0.5).toString().contains("leaves=200,"),
                "bPlusTree(keys, values, fill) is short for the builder");
        assertTrue(Indexes.bPlusTree(keys(1_600), null).toString().contains("leaves=100,"), "full leaves by default");
        assertBuildsAnEmptyIndex(Indexes.bPlusTreeBuilder().leafFill(0.75).build(), "empty");
    }

    @Test
    void aFillOutsideHalfToFullIsRefused() {
        for (double bad : new double[] {0.49, 0, -1, 1.01, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertRefused(() -> Indexes.bPlusTreeBuilder().leafFill(bad), "leafFill", "[0.5, 1]", "got " + bad);
            assertRefused(() -> Indexes.bPlusTree(keys(10), null, bad), "leafFill", "[0.5, 1]");
        }
    }

    private static long[] keys(int n) {
        long[] k = new long[n];
        for (int i = 0; i < n; i++) {
            k[i] = i * 5L;
        }
        return k;
    }
}
