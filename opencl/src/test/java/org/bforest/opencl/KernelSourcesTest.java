package org.bforest.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bforest.opencl.cl.ClContext;
import org.junit.jupiter.api.Test;

/**
 * The kernel sources the library ships: every helper function is {@code static inline} (a plain
 * {@code inline} function has no definition of its own in C99, and a build without optimisation,
 * {@code -cl-opt-disable}, on clang-based compilers leaves its calls undefined), and the sources
 * build with optimisation off as well as on, at one query a work-item and at a CPU device's lanes.
 */
class KernelSourcesTest {
    /** Every kernel source in the library's jar. */
    static final List<String> SHIPPED = List.of("kernels/gpu_btree.cl", "kernels/query_order.cl");

    /** A function definition at the start of a line: its qualifiers, return type and name. */
    private static final Pattern FUNCTION = Pattern.compile(
            "(?m)^((?:[A-Za-z_][A-Za-z_0-9]*\\s+)+\\**)([A-Za-z_][A-Za-z_0-9]*)\\s*\\([^;{]*\\)\\s*\\{");

    @Test
    void everyHelperIsStaticInline() {
        for (String name : SHIPPED) {
            Matcher m = FUNCTION.matcher(ClContext.resource(name));
            int helpers = 0;
            while (m.find()) {
                String head = m.group(1).strip();
                if (head.startsWith("__kernel") || head.startsWith("kernel")) {
                    continue;
                }
                helpers++;
                assertTrue(head.startsWith("static inline "), name + ": " + m.group(2) + " is declared '" + head
                        + "': make it static inline");
            }
            assertTrue(helpers > 0, name + " has helpers; the pattern should find them");
        }
    }

    @Test
    void theShippedSourcesBuildWithOptimisationOff() {
        OpenClDevice device = OpenClTesting.device();
        try (org.bforest.opencl.cl.ClContext cl = new ClContext(device.handle())) {
            // and with the lanes a CPU device's one-query kernels get
            for (String name : SHIPPED) {
                cl.program(ClContext.resource(name), "-cl-opt-disable");
                cl.program(ClContext.resource(name), "-cl-opt-disable -D LANES=" + DeviceSearch.CPU_LANES);
            }
            assertEquals(2 * SHIPPED.size(), cl.livePrograms());
        }
    }
}
