package org.bforest;

import static org.bforest.BuiltContent.assertBuildsAWorkingIndex;
import static org.bforest.BuiltContent.assertBuildsAnEmptyIndex;
import static org.bforest.BuiltContent.assertRefused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.bforest.BSTreeBuilder.Compression;
import org.junit.jupiter.api.Test;

/**
 * {@link BSTreeBuilder}: compression and leaf fill build that tree, bad settings are refused, and
 * a bulk load with {@code null} values is a tree of zeros, not the key-only form.
 */
class BSTreeBuilderTest {
    @Test
    void compressionAndFillBuildThatTree() {
        for (Compression c : new Compression[] {Compression.NEVER, Compression.ALWAYS}) {
            for (double fill : new double[] {0.5, 0.75, 1.0}) {
                BSTreeIndex t = (BSTreeIndex) assertBuildsAWorkingIndex(
                        (k, v) -> Indexes.bsTreeBuilder().compression(c).leafFill(fill).build(k, v), 3_000,
                        c + ", leafFill " + fill);
                assertEquals(c == Compression.ALWAYS, t.isCompressed(), c + " " + fill);
            }
            BSTreeIndex empty = (BSTreeIndex) assertBuildsAnEmptyIndex(Indexes.bsTreeBuilder().compression(c).build(),
                    "empty, " + c);
            assertEquals(c == Compression.ALWAYS, empty.isCompressed());
        }
        // 1600 keys in 16-slot leaves: full leaves take 100, half-full ones 200
        assertEquals(100, Indexes.bsTreeBuilder().compression(Compression.NEVER).leafFill(1.0).build(keys(1_600), null)
                .leafNodes());
        assertEquals(200, Indexes.bsTreeBuilder().compression(Compression.NEVER).leafFill(0.5).build(keys(1_600), null)
                .leafNodes());
    }

    @Test
    void nullValuesMeanZerosNotAKeyOnlyTree() {
        BSTreeIndex t = Indexes.bsTree(keys(100), null);
        assertFalse(t.isKeyOnly(), "bsTree(keys, null) stores values");
        assertEquals(0, t.get(5, -1));
        assertEquals(0, t.put(5, 42), "a value other than 0 can be put");
        assertEquals(42, t.get(5, -1));
        assertTrue(Indexes.bsTreeKeyOnly(keys(100)).isKeyOnly(), "the key-only form is bsTreeKeyOnly");
    }

    @Test
    void badSettingsAreRefused() {
        for (double bad : new double[] {0.49, 0, 1.5, Double.NaN}) {
            assertRefused(() -> Indexes.bsTreeBuilder().leafFill(bad), "leafFill", "[0.5, 1]", "got " + bad);
            assertRefused(() -> Indexes.bsTree(keys(3), null, bad), "leafFill", "[0.5, 1]");
        }
        NullPointerException e = assertThrows(NullPointerException.class, () -> Indexes.bsTreeBuilder().compression(null));
        assertEquals("compression", e.getMessage());
    }

    private static long[] keys(int n) {
        long[] k = new long[n];
        for (int i = 0; i < n; i++) {
            k[i] = i * 5L;
        }
        return k;
    }
}
