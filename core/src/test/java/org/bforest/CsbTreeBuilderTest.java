package org.bforest;

import static org.bforest.BuiltContent.assertBuildsAWorkingIndex;
import static org.bforest.BuiltContent.assertBuildsAnEmptyIndex;
import static org.bforest.BuiltContent.assertRefused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link CsbTreeBuilder}: every variant at every node size builds that tree, the defaults are
 * PLAIN and two lines, bad settings are refused.
 */
class CsbTreeBuilderTest {
    /** What the tree's {@code toString} says of a variant and a node of {@code lines} lines (8 entries a line). */
    private static String shape(CsbVariant v, int lines) {
        return v + ", S=" + 8 * lines + ",";
    }

    @ParameterizedTest
    @EnumSource(CsbVariant.class)
    void everyVariantAtEveryNodeSizeBuildsThatTree(CsbVariant v) {
        for (int lines : new int[] {1, 2, 4}) {
            String what = v + ", nodeLines " + lines;
            LongIndex bulk = assertBuildsAWorkingIndex(
                    (k, val) -> Indexes.csbTreeBuilder().variant(v).nodeLines(lines).build(k, val), 2_000, what);
            assertTrue(bulk.toString().contains(shape(v, lines)), bulk.toString());
            LongIndex empty = assertBuildsAnEmptyIndex(Indexes.csbTreeBuilder().nodeLines(lines).variant(v).build(),
                    "empty, " + what);
            assertTrue(empty.toString().contains(shape(v, lines)), empty.toString());
            assertTrue(Indexes.csbTree(v, lines).toString().contains(shape(v, lines)), "csbTree(variant, lines)");
            assertTrue(Indexes.csbTree(v, lines, new long[] {1}, null).toString().contains(shape(v, lines)));
        }
        assertTrue(Indexes.csbTree(v).toString().contains(shape(v, 2)), "csbTree(variant): two lines");
    }

    @Test
    void theDefaultsArePlainAndTwoLines() {
        assertTrue(Indexes.csbTreeBuilder().build().toString().contains(shape(CsbVariant.PLAIN, 2)));
        assertTrue(Indexes.csbTreeBuilder().build(new long[] {1, 2}, null).toString().contains(shape(CsbVariant.PLAIN, 2)));
    }

    @Test
    void badSettingsAreRefusedSayingWhatIsAllowed() {
        for (int bad : new int[] {0, -1, 3, 8, 16}) {
            assertRefused(() -> Indexes.csbTreeBuilder().nodeLines(bad), "nodeLines", "1, 2 or 4", "got " + bad);
            assertRefused(() -> Indexes.csbTree(CsbVariant.FULL, bad), "nodeLines", "1, 2 or 4");
            assertRefused(() -> Indexes.csbTree(CsbVariant.FULL, bad, new long[] {1}, null), "nodeLines");
        }
        NullPointerException e = assertThrows(NullPointerException.class, () -> Indexes.csbTreeBuilder().variant(null));
        assertEquals("variant", e.getMessage());
        assertEquals("variant", assertThrows(NullPointerException.class, () -> Indexes.csbTree(null)).getMessage());
        assertEquals("variant", assertThrows(NullPointerException.class,
                () -> Indexes.csbTree(null, new long[0], null)).getMessage());
        CsbTreeBuilder b = Indexes.csbTreeBuilder().variant(CsbVariant.SEGMENTED).nodeLines(4);
        assertRefused(() -> b.nodeLines(5), "nodeLines");
        assertThrows(NullPointerException.class, () -> b.variant(null));
        assertTrue(b.build().toString().contains(shape(CsbVariant.SEGMENTED, 4)),
                "refused settings leave the builder as it was");
    }
}
