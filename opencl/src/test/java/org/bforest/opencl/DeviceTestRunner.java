package org.bforest.opencl;

import static org.junit.platform.engine.discovery.ClassNameFilter.includeClassNamePatterns;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;
import static org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs this module's tests and the conformance kit on its structures without Maven: the same
 * classes as the module's surefire configuration, in one JVM, one class after another. It is what
 * {@code ./bforest gpu-bundle} packs for a GPU machine that has a driver but no Maven and no
 * network; the JVM flags (the kit's size, the device) come from its command line, as surefire's
 * {@code argLine} gives them. A machine with many cores runs parts of the classes in JVMs side by
 * side ({@code i/n}).
 *
 * <p>Prints a line a class, each failure with its stack, and a last line in surefire's words
 * ({@code Tests run: N, Failures: F, Errors: 0, Skipped: S}); exits 1 if anything failed or
 * nothing ran.
 */
public final class DeviceTestRunner {

    /** The conformance kit's classes the module's pom includes beside its own {@code *Test}s. */
    static final List<String> KIT_CLASSES = List.of(
            "org.bforest.contract.LongIndexContractTest",
            "org.bforest.contract.ApiContractTest",
            "org.bforest.contract.DifferentialTest",
            "org.bforest.contract.ReclaimContractTest",
            "org.bforest.contract.BatchContractTest",
            "org.bforest.contract.ExactUpdatesContractTest",
            "org.bforest.contract.SnapshotContractTest",
            "org.bforest.contract.ReadOnlyContractTest",
            "org.bforest.NavigableMapViewTest");

    /** Class names of this module's own tests, as the pom's {@code org/bforest/opencl/**}{@code /*Test.java}. */
    static final String OWN_TESTS = "org\\.bforest\\.opencl\\.([^$]*\\.)?[^.$]*Test";

    private DeviceTestRunner() {}

    /**
     * {@code args}: none, or {@code i/n} to run part {@code i} (from 0) of {@code n}: the test
     * classes sorted by name, every n-th from the i-th, so that n JVMs side by side run them all.
     */
    public static void main(String[] args) {
        int part = 0;
        int parts = 1;
        if (args.length > 0) {
            String[] in = args[0].split("/");
            try {
                part = Integer.parseInt(in[0]);
                parts = Integer.parseInt(in[1]);
            } catch (RuntimeException e) {
                part = -1;
            }
            if (in.length != 2 || parts < 1 || part < 0 || part >= parts) {
                System.err.println("DeviceTestRunner: the argument is i/n (0 <= i < n), not '" + args[0] + "'");
                System.exit(2);
            }
        }
        List<DiscoverySelector> selectors = new ArrayList<>();
        selectors.add(selectPackage("org.bforest.opencl"));
        List<String> patterns = new ArrayList<>(List.of(OWN_TESTS));
        for (String kit : KIT_CLASSES) {
            selectors.add(selectClass(kit));
            patterns.add(kit.replace(".", "\\."));
        }
        Launcher launcher = LauncherFactory.create();
        TestPlan plan = launcher.discover(request().selectors(selectors)
                .filters(includeClassNamePatterns(patterns.toArray(String[]::new))).build());
        List<String> classes = new ArrayList<>();
        for (TestIdentifier root : plan.getRoots()) {
            for (TestIdentifier child : plan.getChildren(root)) {
                if (child.getSource().orElse(null) instanceof ClassSource c) {
                    classes.add(c.getClassName());
                }
            }
        }
        Collections.sort(classes);
        List<DiscoverySelector> mine = new ArrayList<>();
        for (int i = part; i < classes.size(); i += parts) {
            mine.add(selectClass(classes.get(i)));
        }
        Counts counts = new Counts(System.out);
        if (!mine.isEmpty()) {
            launcher.execute(request().selectors(mine).build(), counts);
        }
        System.out.printf("Tests run: %d, Failures: %d, Errors: 0, Skipped: %d%n",
                counts.run.get(), counts.failed.get(), counts.skipped.get());
        System.exit(counts.failed.get() == 0 && (counts.run.get() > 0 || classes.size() <= part) ? 0 : 1);
    }

    /** Counts tests a class and in all, and prints each failure as it happens. */
    private static final class Counts implements TestExecutionListener {
        final AtomicLong run = new AtomicLong();
        final AtomicLong failed = new AtomicLong();
        final AtomicLong skipped = new AtomicLong();
        private final PrintStream out;
        private long classRun;
        private long classFailed;
        private long classStart;

        Counts(PrintStream out) {
            this.out = out;
        }

        private static boolean isClass(TestIdentifier id) {
            return id.isContainer() && id.getSource().orElse(null) instanceof ClassSource c
                    && c.getJavaClass().getEnclosingClass() == null;
        }

        @Override
        public void executionStarted(TestIdentifier id) {
            if (isClass(id)) {
                classRun = 0;
                classFailed = 0;
                classStart = System.nanoTime();
                out.println("Running " + ((ClassSource) id.getSource().get()).getClassName());
            }
        }

        @Override
        public void executionSkipped(TestIdentifier id, String reason) {
            if (id.isTest()) {
                skipped.incrementAndGet();
            }
        }

        @Override
        public void executionFinished(TestIdentifier id, TestExecutionResult result) {
            // Aborted (an assumption that does not hold for these structures) is skipped, as
            // surefire counts it.
            if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
                if (id.isTest()) {
                    skipped.incrementAndGet();
                }
                return;
            }
            boolean bad = result.getStatus() == TestExecutionResult.Status.FAILED;
            if (id.isTest()) {
                run.incrementAndGet();
                classRun++;
            }
            if (bad && (id.isTest() || isClass(id))) {
                failed.incrementAndGet();
                classFailed++;
                out.println("FAILED: " + id.getLegacyReportingName() + " ["
                        + id.getUniqueId() + "]");
                result.getThrowable().ifPresent(t -> t.printStackTrace(out));
            }
            if (isClass(id)) {
                out.printf("Tests run: %d, Failures: %d, Time elapsed: %.1f s - in %s%n", classRun,
                        classFailed, (System.nanoTime() - classStart) / 1e9,
                        ((ClassSource) id.getSource().get()).getClassName());
            }
        }
    }
}
