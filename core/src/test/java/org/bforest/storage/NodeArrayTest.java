package org.bforest.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The node storage: addressing across chunks, growth that keeps data, and the capacity limit. */
class NodeArrayTest {

    @Test
    void nodesAcrossChunksKeepTheirData() {
        LongNodeArray a = new LongNodeArray(16, 1);
        int nodes = 3 * LongNodeArray.CHUNK_NODES + 5;
        for (int n = 0; n < nodes; n++) {
            a.ensureCapacity(n + 1L);
            a.chunk(n)[a.offset(n)] = n;
            a.chunk(n)[a.offset(n) + 15] = -n;
        }
        for (int n = 0; n < nodes; n++) {
            assertEquals(n, a.chunk(n)[a.offset(n)]);
            assertEquals(-n, a.chunk(n)[a.offset(n) + 15]);
        }
        assertNotSame(a.chunk(0), a.chunk(LongNodeArray.CHUNK_NODES), "one chunk per 8192 nodes");
        assertSame(a.chunk(LongNodeArray.CHUNK_NODES), a.chunk(2 * LongNodeArray.CHUNK_NODES - 1));
        assertEquals(4 * LongNodeArray.CHUNK_NODES, a.capacity());
    }

    @Test
    void smallChunksStayBelowHalfTheSmallestRegionAndKeepTheirData() {
        for (int stride : new int[] {16, 20, 37, 40, 100}) {
            LongNodeArray a = LongNodeArray.smallChunks(stride, 1);
            int per = a.chunkNodes();
            assertEquals(0, per & (per - 1), "a power of two");
            assertTrue(8L * (LongNodeArray.PAD + (long) per * stride) + 16 <= LongNodeArray.SMALL_CHUNK_BYTES,
                    "stride " + stride + ": " + per + " nodes a chunk is a humongous object");
            assertTrue(8L * (LongNodeArray.PAD + 2L * per * stride) + 16 > LongNodeArray.SMALL_CHUNK_BYTES,
                    "stride " + stride + ": the largest such power of two");
            int nodes = 3 * per + 7;
            for (int n = 0; n < nodes; n++) {
                a.ensureCapacity(n + 1L);
                a.chunk(n)[a.offset(n)] = n;
                a.chunk(n)[a.offset(n) + stride - 1] = -n;
            }
            for (int n = 0; n < nodes; n++) {
                assertEquals(n, a.chunk(n)[a.offset(n)]);
                assertEquals(-n, a.chunk(n)[a.offset(n) + stride - 1]);
            }
            long[] second = a.chunk(per);
            a.ensureCapacity(10L * per);
            assertSame(second, a.chunk(per));
            assertNotSame(a.chunk(per), a.chunk(2 * per));
        }
    }

    @Test
    void laterChunksAreNeverCopied() {
        IntNodeArray a = new IntNodeArray(4, 1);
        a.ensureCapacity(IntNodeArray.CHUNK_NODES + 1L);
        int[] second = a.chunk(IntNodeArray.CHUNK_NODES);
        a.ensureCapacity(10L * IntNodeArray.CHUNK_NODES);
        assertSame(second, a.chunk(IntNodeArray.CHUNK_NODES), "growing allocates chunks, it does not move them");
    }

    @Test
    void anEmptyArrayIsSmall() {
        assertTrue(new LongNodeArray(16, 1).bytes() < 400);
    }

    @Test
    void beyondTheLimitIsAClearErrorBeforeAnyAllocation() {
        LongNodeArray a = new LongNodeArray(16, 1);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> a.ensureCapacity(LongNodeArray.MAX_NODES + 1L));
        assertTrue(e.getMessage().contains("index full"), e.getMessage());
        assertEquals(1, a.capacity(), "nothing was allocated");
        // 2^31 - 8192 nodes of 16 slots: the leaves can address about 2^35 key slots.
        assertTrue((long) LongNodeArray.MAX_NODES * 16 > (1L << 34));
    }

    @Test
    void flatArraysDoubleAndKeepTheirData() {
        FlatLongNodeArray a = new FlatLongNodeArray(16, 1);
        for (int n = 0; n < 1000; n++) {
            a.ensureCapacity(n + 1L);
            a.chunk(n)[a.offset(n) + 3] = n;
        }
        for (int n = 0; n < 1000; n++) {
            assertEquals(n, a.chunk(n)[a.offset(n) + 3]);
        }
        assertTrue(a.capacity() >= 1000 && a.capacity() < 2048);
    }
}
