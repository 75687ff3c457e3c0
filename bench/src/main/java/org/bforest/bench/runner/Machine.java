package org.bforest.bench.runner;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The hardware a run happened on, as far as the JVM can tell: the CPU model and physical cores
 * from {@code /proc/cpuinfo} on Linux (unknown elsewhere), the memory from the operating
 * system's MXBean.
 *
 * @param cpuModel      "AMD EPYC 9R14 ...", or the architecture when the model is unknown
 * @param physicalCores distinct (package, core) pairs, or -1 when unknown
 * @param memoryBytes   physical memory (a container's limit inside one), or -1 when unknown
 */
public record Machine(String cpuModel, int physicalCores, long memoryBytes) {

    public static Machine detect() {
        String model = null;
        int cores = -1;
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/cpuinfo"));
            model = field(lines, "model name");
            cores = physicalCores(lines);
        } catch (IOException | RuntimeException e) {
            // not Linux, or not readable: unknown
        }
        if (model == null) {
            model = System.getProperty("os.arch") + " (model unknown)";
        }
        long memory = -1;
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            memory = os.getTotalMemorySize();
        }
        return new Machine(model, cores, memory);
    }

    private static String field(List<String> lines, String name) {
        for (String line : lines) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equals(name)) {
                return line.substring(colon + 1).trim().replaceAll("\\s+", " ");
            }
        }
        return null;
    }

    /** Counts distinct "physical id"/"core id" pairs; -1 when the file does not have them. */
    static int physicalCores(List<String> lines) {
        Set<String> cores = new HashSet<>();
        String pkg = "0";
        for (String line : lines) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String key = line.substring(0, colon).trim();
            String value = line.substring(colon + 1).trim();
            if (key.equals("physical id")) {
                pkg = value;
            } else if (key.equals("core id")) {
                cores.add(pkg + "/" + value);
            }
        }
        return cores.isEmpty() ? -1 : cores.size();
    }
}
