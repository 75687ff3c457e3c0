package org.bforest.bench.runner;

import java.lang.management.ManagementFactory;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import org.bforest.bench.structures.JvmLayout;

/** The machine and JVM a run happened on, for the report. */
public record Environment(String javaVersion, String vm, List<String> jvmArgs, int cpus, long maxHeapBytes,
                          String os, String layout, String started) {

    public static Environment current() {
        return new Environment(System.getProperty("java.version"),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"),
                ManagementFactory.getRuntimeMXBean().getInputArguments(),
                Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory(),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch"),
                JvmLayout.CURRENT.describe(),
                ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
    }
}
