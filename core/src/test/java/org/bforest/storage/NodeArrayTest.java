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
    void trimKeepsTheNodesBelowGivesBackTheRestAndGrowsAgain() {
        int chunk = LongNodeArray.CHUNK_NODES;
        for (int keep : new int[] {1, 7, chunk, chunk + 1, 2 * chunk + 300}) {
            LongNodeArray a = new LongNodeArray(16, 1);
            IntNodeArray b = new IntNodeArray(4, 1);
            FlatLongNodeArray c = new FlatLongNodeArray(16, 1);
            FlatIntNodeArray d = new FlatIntNodeArray(17, 1);
            int nodes = 3 * chunk + 5;
            a.ensureCapacity(nodes);
            b.ensureCapacity(nodes);
            c.ensureCapacity(nodes);
            d.ensureCapacity(nodes);
            for (int n = 0; n < nodes; n++) {
                a.chunk(n)[a.offset(n) + 15] = n;
                b.chunk(n)[b.offset(n) + 3] = n;
                c.chunk(n)[c.offset(n) + 15] = n;
                d.chunk(n)[d.offset(n) + 16] = n;
            }
            long before = a.bytes();
            a.trimTo(keep);
            b.trimTo(keep);
            c.trimTo(keep);
            d.trimTo(keep);
            assertEquals(keep, a.capacity());
            assertEquals(keep, b.capacity());
            assertEquals(keep, c.capacity());
            assertEquals(keep, d.capacity());
            assertTrue(a.bytes() < before);
            assertTrue(a.bytes() <= 8L * 16 * keep + 8L * 16 * 4 + 4096, "trimmed to about what it holds");
            for (int n = 0; n < keep; n++) {
                assertEquals(n, a.chunk(n)[a.offset(n) + 15]);
                assertEquals(n, b.chunk(n)[b.offset(n) + 3]);
                assertEquals(n, c.chunk(n)[c.offset(n) + 15]);
                assertEquals(n, d.chunk(n)[d.offset(n) + 16]);
            }
            // Grows again from the short chunk, keeping every node.
            a.ensureCapacity(nodes + chunk);
            b.ensureCapacity(nodes + chunk);
            c.ensureCapacity(nodes + chunk);
            d.ensureCapacity(nodes + chunk);
            for (int n = keep; n < nodes + chunk; n++) {
                a.chunk(n)[a.offset(n) + 15] = -n;
                b.chunk(n)[b.offset(n) + 3] = -n;
                c.chunk(n)[c.offset(n) + 15] = -n;
                d.chunk(n)[d.offset(n) + 16] = -n;
            }
            for (int n = 0; n < nodes + chunk; n++) {
                long want = n < keep ? n : -n;
                assertEquals(want, a.chunk(n)[a.offset(n) + 15], "keep " + keep + " node " + n);
                assertEquals(want, b.chunk(n)[b.offset(n) + 3]);
                assertEquals(want, c.chunk(n)[c.offset(n) + 15]);
                assertEquals(want, d.chunk(n)[d.offset(n) + 16]);
            }
            assertTrue(a.capacity() >= nodes + chunk);
        }
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
