package org.bforest.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The value heap: blocks keep their data, never straddle chunks, are reused, and are counted. */
class LongBlockHeapTest {

    @Test
    void blocksKeepTheirDataAcrossChunksAndGrowth() {
        LongBlockHeap h = new LongBlockHeap();
        SplittableRandom r = new SplittableRandom(3);
        List<int[]> blocks = new ArrayList<>();
        long lines = 0;
        while (lines < 3L * LongBlockHeap.CHUNK_LINES) {
            int size = 1 + r.nextInt(LongBlockHeap.MAX_LINES);
            int ref = h.alloc(size);
            long[] c = h.chunk(ref);
            int off = h.offset(ref);
            assertTrue(off + size * LongBlockHeap.LINE <= c.length, "block inside its chunk");
            assertEquals(ref >>> LongBlockHeap.CHUNK_SHIFT, (ref + size - 1) >>> LongBlockHeap.CHUNK_SHIFT,
                    "a block never straddles two chunks");
            for (int i = 0; i < size * LongBlockHeap.LINE; i++) {
                c[off + i] = (long) ref * 1000 + i;
            }
            blocks.add(new int[] {ref, size});
            lines += size;
        }
        assertEquals(lines, h.linesInUse());
        for (int[] b : blocks) {
            long[] c = h.chunk(b[0]);
            int off = h.offset(b[0]);
            for (int i = 0; i < b[1] * LongBlockHeap.LINE; i++) {
                assertEquals((long) b[0] * 1000 + i, c[off + i], "block " + b[0] + " word " + i);
            }
        }
    }

    @Test
    void trimGivesBackTheRoomAboveTheTopAndGrowsAgain() {
        SplittableRandom r = new SplittableRandom(4);
        LongBlockHeap h = new LongBlockHeap();
        List<int[]> blocks = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            while (h.top() < (round + 1.4) * LongBlockHeap.CHUNK_LINES) {
                int size = 1 + r.nextInt(LongBlockHeap.MAX_LINES);
                int ref = h.alloc(size);
                long[] c = h.chunk(ref);
                int off = h.offset(ref);
                assertTrue(off + size * LongBlockHeap.LINE <= c.length, "block inside its chunk");
                for (int i = 0; i < size * LongBlockHeap.LINE; i++) {
                    c[off + i] = ~((long) ref * 1000 + i);
                }
                blocks.add(new int[] {ref, size});
            }
            long before = h.bytes();
            h.trim();
            assertTrue(h.bytes() < before, "trim gave memory back");
            assertTrue(h.bytes() <= 8L * LongBlockHeap.LINE * h.top() + 8192, "about what the top holds");
            for (int[] b : blocks) {
                long[] c = h.chunk(b[0]);
                int off = h.offset(b[0]);
                for (int i = 0; i < b[1] * LongBlockHeap.LINE; i++) {
                    assertEquals(~((long) b[0] * 1000 + i), c[off + i], "block " + b[0] + " word " + i);
                }
            }
        }
    }

    @Test
    void freedBlocksAreReusedBySize() {
        LongBlockHeap h = new LongBlockHeap();
        int a = h.alloc(6);
        int b = h.alloc(3);
        h.reserve(0, 2);
        h.free(a, 6);
        h.free(b, 3);
        assertEquals(0, h.linesInUse());
        int top = h.top();
        assertEquals(b, h.alloc(3), "a freed 3-line block serves the next 3-line request");
        assertEquals(a, h.alloc(6));
        assertEquals(top, h.top(), "no new lines were taken");
        int c = h.alloc(4);
        assertTrue(c >= top, "no freed 4-line block: a fresh one");
        Set<Integer> refs = new HashSet<>(List.of(a, b, c));
        assertEquals(3, refs.size());
        assertEquals(13, h.linesInUse());
    }

    @Test
    void reserveMakesTheNextAllocationsFree() {
        LongBlockHeap h = new LongBlockHeap();
        h.reserve(3 * LongBlockHeap.MAX_LINES, 4);
        long before = h.bytes();
        for (int i = 0; i < 3; i++) {
            h.alloc(LongBlockHeap.MAX_LINES);
        }
        assertEquals(before, h.bytes(), "nothing allocated after reserve");
    }
}
