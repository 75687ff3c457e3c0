package org.bforest.testing;

import org.bforest.kernel.NodeSearch;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestPlan;

/**
 * Prints, once per test JVM and before its first test, the node-search kernel that the run uses
 * ({@link NodeSearch#describe()}) and the JVM's preferred vector width, e.g.
 * {@code node search: SIMD 256-bit, 4 lanes (preferred vectors 256-bit, UseAVX=2, bforest.simd=true)}.
 * core's pom runs the kernel, contract and differential tests three times (the machine's widest
 * vectors, {@code -XX:MaxVectorSize=32} with {@code -XX:UseAVX=2} on x86, and
 * {@code -Dbforest.simd=false}); this line in the log
 * says which path each run really took. A JUnit Platform listener, registered in
 * {@code META-INF/services}, so that it prints whichever tests are selected.
 */
public final class KernelBanner implements TestExecutionListener {
    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        System.out.println("node search: " + NodeSearch.describe() + " (" + preferredVectors() + useAvx()
                + ", bforest.simd=" + System.getProperty("bforest.simd", "true") + ")");
    }

    /**
     * {@code ", UseAVX=n"} on an x86 HotSpot: the instruction sets its JIT may use (3: AVX-512,
     * 2: AVX2), which core's 256-bit run lowers to 2; empty elsewhere.
     */
    private static String useAvx() {
        // by reflection: the test classes are patched into org.bforest, which does not read
        // jdk.management (reflection needs no reads edge); absent module or flag: nothing to say
        try {
            Class<?> factory = Class.forName("java.lang.management.ManagementFactory");
            Class<?> diagnostic = Class.forName("com.sun.management.HotSpotDiagnosticMXBean");
            Object bean = factory.getMethod("getPlatformMXBean", Class.class).invoke(null, diagnostic);
            Object option = diagnostic.getMethod("getVMOption", String.class).invoke(bean, "UseAVX");
            return ", UseAVX=" + option.getClass().getMethod("getValue").invoke(option);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return "";
        }
    }

    /** The width of the preferred species ({@code -XX:MaxVectorSize} caps it), if the Vector API is there. */
    private static String preferredVectors() {
        if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
            return "no Vector API";
        }
        return "preferred vectors " + jdk.incubator.vector.LongVector.SPECIES_PREFERRED.vectorBitSize() + "-bit";
    }
}
