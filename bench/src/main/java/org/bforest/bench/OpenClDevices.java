package org.bforest.bench;

import java.util.List;
import java.util.Locale;
import org.bforest.opencl.OpenClDevice;
import org.bforest.opencl.OpenClException;

/**
 * {@code ./bforest gpu-check}'s device list: every OpenCL device (platform, name, type, memory,
 * largest allocation, OpenCL and driver versions), then the one {@code -Dbforest.opencl.device}
 * chooses, as a line {@code chosen: #N kind name} that the script reads. Exit status 2 when there
 * is no OpenCL device (the reason printed).
 */
public final class OpenClDevices {
    private OpenClDevices() {
    }

    public static void main(String[] args) {
        List<OpenClDevice> all;
        OpenClDevice chosen;
        try {
            all = OpenClDevice.all();
            if (all.isEmpty()) {
                System.out.println("no OpenCL device: the OpenCL loader found no platform");
                System.exit(2);
                return;
            }
            for (OpenClDevice d : all) {
                System.out.printf(Locale.ROOT, "#%d  %s%n    platform: %s%n    type: %s, %d compute units, max work-group %d%n"
                        + "    global memory: %.2f GiB, max allocation: %.2f GiB%n    OpenCL: %s, driver: %s%n",
                        d.index(), d.name(), d.platformName(), kind(d), d.computeUnits(), d.maxWorkGroupSize(),
                        d.globalMemoryBytes() / (double) (1L << 30), d.maxAllocationBytes() / (double) (1L << 30),
                        d.version(), driver(d));
            }
            chosen = OpenClDevice.choose();
        } catch (OpenClException e) {
            System.out.println("no OpenCL device: " + e.getMessage());
            System.exit(2);
            return;
        }
        String property = System.getProperty(OpenClDevice.PROPERTY);
        System.out.println();
        System.out.println("chosen: #" + chosen.index() + " " + kind(chosen) + " " + chosen.name() + " ("
                + (property == null || property.isBlank() ? "the first GPU, else the first device"
                : "-D" + OpenClDevice.PROPERTY + "=" + property) + ")");
    }

    private static String kind(OpenClDevice d) {
        return d.isGpu() ? "GPU" : d.isEmulation() ? "CPU" : "other";
    }

    private static String driver(OpenClDevice d) {
        try {
            return d.driverVersion();
        } catch (OpenClException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }
}
