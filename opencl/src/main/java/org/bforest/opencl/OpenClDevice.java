package org.bforest.opencl;

import java.util.List;
import java.util.Locale;
import org.bforest.opencl.cl.ClDevice;

/**
 * An OpenCL device bforest can put an index on: a GPU, or a CPU through an emulation such as
 * PoCL (then {@link #isEmulation()}: it computes what a GPU would, at a CPU's speed).
 *
 * <p>{@link #choose()} picks the device named by the system property
 * {@code bforest.opencl.device} (an index into {@link #all()} or a case-insensitive part of a
 * device's or platform's name), else the first GPU, else the first device.
 */
public final class OpenClDevice {
    /** The system property that names the device. */
    public static final String PROPERTY = "bforest.opencl.device";

    private final ClDevice device;
    private final int index;

    private OpenClDevice(ClDevice device, int index) {
        this.device = device;
        this.index = index;
    }

    /**
     * Every device of every installed platform; empty when OpenCL's loader is there but no driver.
     *
     * @throws OpenClException when no OpenCL library is installed at all
     */
    public static List<OpenClDevice> all() {
        List<ClDevice> ds = ClDevice.all();
        return java.util.stream.IntStream.range(0, ds.size()).mapToObj(i -> new OpenClDevice(ds.get(i), i)).toList();
    }

    /** The device {@code -Dbforest.opencl.device} names, else the first GPU, else the first device. */
    public static OpenClDevice choose() {
        return choose(System.getProperty(PROPERTY));
    }

    /**
     * The device {@code spec} names: an index into {@link #all()} or a case-insensitive part of its
     * name or its platform's; {@code null} or blank: the first GPU, else the first device.
     *
     * @throws OpenClException when there is no device, or none matches {@code spec}
     */
    public static OpenClDevice choose(String spec) {
        List<OpenClDevice> all = all();
        if (all.isEmpty()) {
            throw new OpenClException("no OpenCL device: the OpenCL loader found no platform. Install a driver"
                    + " (on Debian: apt-get install pocl-opencl-icd for the CPU, or your GPU vendor's)");
        }
        if (spec == null || spec.isBlank()) {
            return all.stream().filter(OpenClDevice::isGpu).findFirst().orElse(all.get(0));
        }
        String s = spec.strip();
        if (s.chars().allMatch(Character::isDigit)) {
            int i;
            try {
                i = Integer.parseInt(s);
            } catch (NumberFormatException e) {
                i = -1;
            }
            if (i < 0 || i >= all.size()) {
                throw new OpenClException("no OpenCL device " + s + ": there are " + all.size() + " (" + list(all)
                        + ")");
            }
            return all.get(i);
        }
        String needle = s.toLowerCase(Locale.ROOT);
        return all.stream()
                .filter(d -> d.name().toLowerCase(Locale.ROOT).contains(needle)
                        || d.platformName().toLowerCase(Locale.ROOT).contains(needle))
                .findFirst()
                .orElseThrow(() -> new OpenClException("no OpenCL device matches '" + s + "' (" + PROPERTY
                        + "); the devices: " + list(all)));
    }

    private static String list(List<OpenClDevice> all) {
        return String.join("; ", all.stream().map(OpenClDevice::toString).toList());
    }

    /** The driver's handle and properties, for the module's structures. */
    ClDevice handle() {
        return device;
    }

    public int index() {
        return index;
    }

    public String name() {
        return device.name();
    }

    public String platformName() {
        return device.platformName();
    }

    /** The OpenCL version the device reports, e.g. {@code "OpenCL 3.0 CUDA"}. */
    public String version() {
        return device.version();
    }

    public boolean isGpu() {
        return device.isGpu();
    }

    /** Whether this is a CPU device: an emulation of what a GPU does (PoCL, or a vendor's CPU runtime). */
    public boolean isEmulation() {
        return device.isCpu();
    }

    public int computeUnits() {
        return device.computeUnits();
    }

    public long maxWorkGroupSize() {
        return device.maxWorkGroupSize();
    }

    public long globalMemoryBytes() {
        return device.globalMemBytes();
    }

    public long maxAllocationBytes() {
        return device.maxAllocBytes();
    }

    @Override
    public String toString() {
        return index + ": " + name() + " (" + platformName() + ", " + (isGpu() ? "GPU" : isEmulation() ? "CPU" : "other")
                + ", " + computeUnits() + " compute units, " + (globalMemoryBytes() >> 20) + " MiB)";
    }
}
