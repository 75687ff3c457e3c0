package org.bforest.olc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Node ids: the n-th node's chunk and index, across the geometric chunks and the fixed ones after them. */
class PinnedTest {

    @Test
    void theNthNodeFillsEveryChunkInOrderWithoutGapsOrOverlaps() {
        int expectedChunk = 0;
        int expectedIndex = 0;
        for (int n = 0; n < Pinned.GEOMETRIC_NODES + 3 * (1 << Pinned.INDEX_BITS) + 5; n++) {
            int id = Pinned.idOf(n);
            int k = Pinned.chunkOf(id);
            int i = Pinned.indexIn(id);
            if (expectedIndex == Pinned.chunkNodes(expectedChunk)) {
                expectedChunk++;
                expectedIndex = 0;
            }
            assertEquals(expectedChunk, k, "chunk of node " + n);
            assertEquals(expectedIndex, i, "index of node " + n);
            assertTrue(id >= 0, "id of node " + n);
            assertEquals(n, Pinned.denseOf(id), "allocation order of node " + n);
            expectedIndex++;
        }
        assertEquals(16, Pinned.chunkNodes(0));
        assertEquals(1 << Pinned.INDEX_BITS, Pinned.chunkNodes(Pinned.GEOMETRIC - 1));
        assertEquals(1 << Pinned.INDEX_BITS, Pinned.chunkNodes(Pinned.GEOMETRIC + 100));
    }

    @Test
    void theLastNodeHasAValidIdAndTheOneAfterItIsRefused() {
        int last = Pinned.idOf(Pinned.MAX_NODES - 1);
        assertTrue(last > 0);
        assertEquals(Pinned.MAX_CHUNKS - 1, Pinned.chunkOf(last));
        assertEquals(Pinned.INDEX_MASK, Pinned.indexIn(last));
        assertEquals(Pinned.MAX_NODES - 1, Pinned.denseOf(last));
        AtomicInteger counter = new AtomicInteger(Pinned.MAX_NODES);
        assertThrows(IllegalStateException.class, () -> Pinned.allocate(counter));
    }

    @Test
    void storageGrowsItsDirectoryAndKeepsEveryChunkItHad() {
        PinnedLongs s = new PinnedLongs(16);
        long[][] before = s.directory();
        long[] first = s.chunk(0);
        int id = Pinned.idOf(Pinned.GEOMETRIC_NODES + 10);
        s.ensure(id);
        long[][] after = s.directory();
        assertTrue(after.length > Pinned.chunkOf(id));
        assertTrue(first == after[0] && first == before[0], "chunk 0 must not move");
        for (int k = 0; k <= Pinned.chunkOf(id); k++) {
            assertEquals(PinnedLongs.PAD + Pinned.chunkNodes(k) * 16, after[k].length, "chunk " + k);
        }
    }
}
