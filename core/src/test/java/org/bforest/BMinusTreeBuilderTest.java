package org.bforest;

import static org.bforest.BuiltContent.assertBuildsAWorkingIndex;
import static org.bforest.BuiltContent.assertBuildsAnEmptyIndex;
import static org.bforest.BuiltContent.assertRefused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link BMinusTreeBuilder}: each node size builds that tree, the default is 32, bad sizes are refused. */
class BMinusTreeBuilderTest {
    @ParameterizedTest
    @ValueSource(ints = {16, 32, 64})
    void eachNodeSizeBuildsThatTree(int b) {
        LongIndex bulk = assertBuildsAWorkingIndex((k, v) -> Indexes.bMinusTreeBuilder().nodeKeys(b).build(k, v),
                3_000, "nodeKeys " + b);
        assertTrue(bulk.toString().contains("B=" + b + ","), bulk.toString());
        LongIndex empty = assertBuildsAnEmptyIndex(Indexes.bMinusTreeBuilder().nodeKeys(b).build(), "empty, nodeKeys " + b);
        assertTrue(empty.toString().contains("B=" + b + ","), empty.toString());
        // the positional factories are short for the builder
        assertEquals(bulk.getClass(), Indexes.bMinusTree(new long[] {1}, null, b).getClass());
        assertTrue(Indexes.bMinusTree(b).toString().contains("B=" + b + ","));
    }

    @Test
    void theDefaultIsTheArticles32KeysANode() {
        assertTrue(Indexes.bMinusTreeBuilder().build().toString().contains("B=32,"));
        assertTrue(Indexes.bMinusTreeBuilder().build(new long[] {1, 2}, null).toString().contains("B=32,"));
        assertTrue(Indexes.bMinusTree().toString().contains("B=32,"));
    }

    @Test
    void anotherNodeSizeIsRefusedSayingWhatIsAllowed() {
        for (int bad : new int[] {0, -32, 8, 31, 48, 128}) {
            assertRefused(() -> Indexes.bMinusTreeBuilder().nodeKeys(bad), "nodeKeys", "16, 32 or 64", "got " + bad);
            assertRefused(() -> Indexes.bMinusTree(bad), "nodeKeys", "16, 32 or 64");
            assertRefused(() -> Indexes.bMinusTree(new long[] {1}, null, bad), "nodeKeys", "16, 32 or 64");
        }
        BMinusTreeBuilder b = Indexes.bMinusTreeBuilder().nodeKeys(16);
        assertRefused(() -> b.nodeKeys(17), "nodeKeys");
        assertTrue(b.build().toString().contains("B=16,"), "a refused setting leaves the builder as it was");
    }
}
