package org.bforest.opencl.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.bforest.opencl.OpenClException;
import org.junit.jupiter.api.Test;

/** A write call's chunks: each key once, in order; a later chunk's failure says how far the call got. */
class WriteChunksTest {
    private static final long[] SORTED = new long[250];

    static {
        for (int i = 0; i < SORTED.length; i++) {
            SORTED[i] = 10L * i;
        }
    }

    @Test
    void chunksCoverTheKeysInOrderAndSumTheirCounts() {
        List<int[]> seen = new ArrayList<>();
        long sum = WriteChunks.run("putAll", "in the tree", SORTED, 245, 250, 100, () -> false, (from, n) -> {
            seen.add(new int[] {from, n});
            return n;
        });
        assertEquals(245, sum);
        assertEquals(3, seen.size());
        assertEquals(List.of("0+100", "100+100", "200+45"), seen.stream().map(c -> c[0] + "+" + c[1]).toList());
    }

    @Test
    void aLaterChunksFailureSaysHowFarTheCallGot() {
        OpenClException device = new OpenClException("clEnqueueFillBuffer failed: CL_OUT_OF_RESOURCES (-5)", -5);
        OpenClException said = assertThrows(OpenClException.class, () -> WriteChunks.run("removeAll", "removed", SORTED,
                250, 250, 100, () -> false, (from, n) -> {
                    if (from == 200) {
                        throw device;
                    }
                    return n;
                }));
        assertSame(device, said.getCause());
        assertEquals(-5, said.status());
        assertTrue(said.getMessage().startsWith("removeAll stopped after 200 of its 250 distinct keys: those below 2000 are removed"),
                said.getMessage());
        assertTrue(said.getMessage().endsWith(device.getMessage()), said.getMessage());

        // A host failure keeps its type; the words ride along.
        IllegalStateException host = new IllegalStateException("host");
        IllegalStateException kept = assertThrows(IllegalStateException.class, () -> WriteChunks.run("putAll", "in the tree",
                SORTED, 250, 250, 100, () -> false, (from, n) -> {
                    if (from == 100) {
                        throw host;
                    }
                    return n;
                }));
        assertSame(host, kept);
        assertEquals(1, kept.getSuppressed().length);
        assertTrue(kept.getSuppressed()[0].getMessage().startsWith("putAll stopped after 100 of its 250 distinct keys: those below 1000"));
    }

    @Test
    void theFirstChunksFailureAndAFailedTreesAreThrownAsTheyCame() {
        OpenClException device = new OpenClException("injected", -5);
        assertSame(device, assertThrows(OpenClException.class, () -> WriteChunks.run("putAll", "in the tree", SORTED, 250, 250,
                100, () -> false, (from, n) -> {
                    throw device;
                })));
        assertSame(device, assertThrows(OpenClException.class, () -> WriteChunks.run("putAll", "in the tree", SORTED, 250, 250,
                100, () -> true, (from, n) -> {
                    if (from > 0) {
                        throw device;
                    }
                    return n;
                })));
        assertEquals(0, device.getSuppressed().length);
    }
}
