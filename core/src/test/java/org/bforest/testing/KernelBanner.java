package org.bforest.testing;

import org.bforest.kernel.NodeSearch;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestPlan;

/**
 * Prints, once per test JVM and before its first test, the node-search kernel that the run uses
 * ({@link NodeSearch#describe()}) and the JVM's preferred vector width, e.g.
 * {@code node search: SIMD 256-bit, 4 lanes (preferred vectors 256-bit, bforest.simd=true)}.
 * core's pom runs the kernel, contract and differential tests three times (the machine's widest
 * vectors, {@code -XX:MaxVectorSize=32} and {@code -Dbforest.simd=false}); this line in the log
 * says which path each run really took. A JUnit Platform listener, registered in
 * {@code META-INF/services}, so that it prints whichever tests are selected.
 */
public final class KernelBanner implements TestExecutionListener {
    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        System.out.println("node search: " + NodeSearch.describe() + " (" + preferredVectors() + ", bforest.simd="
                + System.getProperty("bforest.simd", "true") + ")");
    }

    /** The width of the preferred species ({@code -XX:MaxVectorSize} caps it), if the Vector API is there. */
    private static String preferredVectors() {
        if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
            return "no Vector API";
        }
        return "preferred vectors " + jdk.incubator.vector.LongVector.SPECIES_PREFERRED.vectorBitSize() + "-bit";
    }
}
