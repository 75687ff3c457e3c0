package org.bforest.opencl;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.bforest.opencl.cl.ClContext;
import org.junit.jupiter.api.Test;

/**
 * The FFM path end to end on a real OpenCL device (PoCL here): buffers, a kernel built from this
 * test's resource {@code page_search.cl} (a page rank kernel the library does not ship), arguments, a launch, results read back, all checked against Java; then the
 * failures: a kernel that does not compile, a buffer larger than the device allocates, use after
 * close.
 */
class PageSearchKernelTest {

    /** Java's answer: keys <= q in the page. */
    private static int rank(long[] keys, int page, int pageKeys, long q) {
        int r = 0;
        for (int i = 0; i < pageKeys; i++) {
            if (keys[page * pageKeys + i] <= q) {
                r++;
            }
        }
        return r;
    }

    /** The kernel under test, a resource beside this class (test resources: not in the library's jar). */
    private static String pageSearchSource() {
        try (java.io.InputStream in = PageSearchKernelTest.class.getResourceAsStream("page_search.cl")) {
            if (in == null) {
                throw new IllegalStateException("page_search.cl is missing from the test resources");
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void pageRankMatchesJavaOnRandomPagesAndTheExtremes() {
        OpenClDevice device = OpenClTesting.device();
        long seed = System.nanoTime();
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int pageKeys : new int[] {1, 2, 7, 64, 2048}) {
            int pages = 37;
            long[] keys = new long[pages * pageKeys];
            for (int p = 0; p < pages; p++) {
                int used = rnd.nextInt(pageKeys + 1);
                long[] page = new long[pageKeys];
                for (int i = 0; i < used; i++) {
                    page[i] = switch (rnd.nextInt(8)) {
                        case 0 -> Long.MIN_VALUE;
                        case 1 -> Long.MAX_VALUE - 1;
                        default -> rnd.nextLong();
                    };
                }
                Arrays.fill(page, used, pageKeys, Long.MAX_VALUE);
                Arrays.sort(page, 0, used);
                System.arraycopy(page, 0, keys, p * pageKeys, pageKeys);
            }
            int n = 5000;
            int[] pageOf = new int[n];
            long[] queries = new long[n];
            for (int i = 0; i < n; i++) {
                pageOf[i] = rnd.nextInt(pages);
                queries[i] = switch (rnd.nextInt(6)) {
                    case 0 -> Long.MIN_VALUE;
                    case 1 -> Long.MAX_VALUE;
                    case 2 -> keys[pageOf[i] * pageKeys + rnd.nextInt(pageKeys)];
                    default -> rnd.nextLong();
                };
            }
            int[] ranks = run(device, keys, pageKeys, pageOf, queries);
            for (int i = 0; i < n; i++) {
                assertEquals(rank(keys, pageOf[i], pageKeys, queries[i]), ranks[i],
                        "seed " + seed + ", page keys " + pageKeys + ", query " + i + " (" + queries[i] + ")");
            }
        }
    }

    private static int[] run(OpenClDevice device, long[] keys, int pageKeys, int[] pageOf, long[] queries) {
        int n = queries.length;
        try (ClContext cl = new ClContext(device.handle()); Arena a = Arena.ofConfined()) {
            MemorySegment program = cl.program(pageSearchSource(), "");
            MemorySegment kernel = cl.kernel(program, "page_rank");
            MemorySegment dKeys = cl.buffer(8L * keys.length);
            MemorySegment dPageOf = cl.buffer(4L * n);
            MemorySegment dQueries = cl.buffer(8L * n);
            MemorySegment dRanks = cl.buffer(4L * n);
            cl.write(dKeys, 0, a.allocateFrom(JAVA_LONG, keys));
            cl.write(dPageOf, 0, a.allocateFrom(JAVA_INT, pageOf));
            cl.write(dQueries, 0, a.allocateFrom(JAVA_LONG, queries));
            cl.arg(kernel, 0, dKeys);
            cl.arg(kernel, 1, pageKeys);
            cl.arg(kernel, 2, dPageOf);
            cl.arg(kernel, 3, dQueries);
            cl.arg(kernel, 4, dRanks);
            cl.arg(kernel, 5, n);
            // A global size rounded up to a multiple of the group size: the kernel skips the tail.
            cl.run(kernel, (n + 63) / 64 * 64L, 64);
            MemorySegment out = a.allocate(JAVA_INT, n);
            cl.read(dRanks, 0, out);
            assertEquals(4, cl.liveBuffers());
            return out.toArray(JAVA_INT);
        }
    }

    @Test
    void aKernelThatDoesNotCompileShowsTheCompilersLog() {
        OpenClDevice device = OpenClTesting.device();
        try (ClContext cl = new ClContext(device.handle())) {
            OpenClException e = assertThrows(OpenClException.class,
                    () -> cl.program("__kernel void broken(__global long *x) { x[0] = undefined_name; }", ""));
            assertTrue(e.getMessage().contains("clBuildProgram failed") && e.getMessage().contains("CL_BUILD_PROGRAM_FAILURE")
                    && e.getMessage().contains("undefined_name"), e.getMessage());
            assertEquals(-11, e.status());
            assertEquals(0, cl.livePrograms(), "the failed program is released at once");
        }
    }

    @Test
    void aCachedBuildThatFailedFailsAgainWithTheSameLogWithoutCompiling() {
        OpenClDevice device = OpenClTesting.device();
        String broken = "__kernel void broken(__global long *x) { x[0] = undefined_name; }";
        try (ClContext cl = new ClContext(device.handle())) {
            OpenClException first = assertThrows(OpenClException.class, () -> cl.cachedProgram(broken, ""));
            assertTrue(first.getMessage().contains("undefined_name"), first.getMessage());
            assertEquals(1, cl.compilations());
            assertEquals(0, cl.livePrograms());
            OpenClException again = assertThrows(OpenClException.class, () -> cl.cachedProgram(broken, ""));
            assertEquals(first.getMessage(), again.getMessage());
            assertEquals(first.status(), again.status());
            assertEquals(1, cl.compilations(), "the failure is remembered, not compiled again");
            // Other options are another build; a good source builds once and is reused.
            assertThrows(OpenClException.class, () -> cl.cachedProgram(broken, "-cl-fast-relaxed-math"));
            assertEquals(2, cl.compilations());
            String good = "__kernel void fine(__global long *x) { x[0] = 1; }";
            MemorySegment p = cl.cachedProgram(good, "");
            assertEquals(p, cl.cachedProgram(good, ""));
            assertEquals(3, cl.compilations());
            assertEquals(1, cl.livePrograms());
        }
    }

    @Test
    void aBufferLargerThanTheDeviceAllocatesIsRefusedAndClosingReleasesEverything() {
        OpenClDevice device = OpenClTesting.device();
        ClContext cl = new ClContext(device.handle());
        OpenClException big = assertThrows(OpenClException.class, () -> cl.buffer(device.maxAllocationBytes() + 1));
        assertTrue(big.getMessage().contains("CL_DEVICE_MAX_MEM_ALLOC_SIZE"), big.getMessage());
        assertThrows(IllegalArgumentException.class, () -> cl.buffer(0));
        MemorySegment b = cl.buffer(1024);
        cl.buffer(2048);
        assertEquals(2, cl.liveBuffers());
        cl.release(b);
        assertEquals(1, cl.liveBuffers());
        cl.close();
        assertEquals(0, cl.liveBuffers());
        IllegalStateException closed = assertThrows(IllegalStateException.class, () -> cl.buffer(8));
        assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
        cl.close(); // a second close does nothing
    }
}
