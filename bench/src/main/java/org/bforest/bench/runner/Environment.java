package org.bforest.bench.runner;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import org.bforest.bench.structures.JvmLayout;
import org.bforest.kernel.NodeSearch;

/**
 * The machine and JVM a run happened on, for the report.
 *
 * @param cpus        processors available to the JVM
 * @param layout      the object layout the peers' memory estimates use
 * @param started     when the run started, ISO-8601 with the offset
 * @param nodeSearch  the node-search kernel in use ({@link NodeSearch#describe()}: the Vector API
 *                    species, or scalar)
 * @param gcs         the garbage collectors' MXBean names
 * @param javaCommand the JVM's own command line, as the operating system reports it ("" if not)
 * @param commit      the bforest commit measured ({@link Commit}: {@code -Dbforest.commit}, set by
 *                    the launcher, else git asked directly; "-dirty" when the work tree had
 *                    changes; "unknown" without git)
 */
public record Environment(String javaVersion, String vm, List<String> jvmArgs, int cpus, long maxHeapBytes,
                          String os, String layout, String started, String javaVendor, Machine machine,
                          String nodeSearch, List<String> gcs, String javaCommand, String commit) {

    public Environment {
        jvmArgs = List.copyOf(jvmArgs);
        gcs = List.copyOf(gcs);
    }

    public static Environment current() {
        return new Environment(System.getProperty("java.version"),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"),
                ManagementFactory.getRuntimeMXBean().getInputArguments(),
                Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory(),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch"),
                JvmLayout.CURRENT.describe(),
                ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME),
                System.getProperty("java.vendor"), Machine.detect(), NodeSearch.describe(),
                ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName).toList(),
                ProcessHandle.current().info().commandLine().orElse(""),
                Commit.current());
    }
}
