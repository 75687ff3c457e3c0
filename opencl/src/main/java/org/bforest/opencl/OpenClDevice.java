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
 * device's or platform's name, as {@link #choose(String)} reads it), else the first GPU, else the
 * first device.
 *
 * <p>OpenCL is reached through {@code libOpenCL.so.1}, the ICD loader, which finds the installed
 * drivers. On a machine with a vendor's driver but no loader (and no way to install one), the
 * system property {@code bforest.opencl.library} names the library to load instead, by path:
 * another loader, or the driver's own library, e.g.
 * {@code -Dbforest.opencl.library=/usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1} or PoCL's
 * {@code libpocl.so.2}. A driver's library loaded this way is reached as the loader reaches it
 * (its {@code clIcdGetPlatformIDsKHR} and the dispatch table of its platform), and its platforms
 * are the only ones seen. A path that is not there, or a library that is not OpenCL, is an
 * {@link OpenClException} naming the property and the path.
 */
public final class OpenClDevice {
    /** The system property that names the device. */
    public static final String PROPERTY = "bforest.opencl.device";
    /**
     * The system property that names the OpenCL library to load, by path, instead of
     * {@code libOpenCL.so.1}; read once, the first time OpenCL is used.
     */
    public static final String LIBRARY_PROPERTY = "bforest.opencl.library";

    private final ClDevice device;
    private final int index;

    private OpenClDevice(ClDevice device, int index) {
        this.device = device;
        this.index = index;
    }

    /**
     * Every device of every installed platform; empty when OpenCL's loader is there but no driver.
     *
     * @return the devices in the loader's order, platform by platform; {@link #index()} is the
     *         position in this list
     * @throws OpenClException when no OpenCL library is installed at all, or a query of the
     *                         platforms or devices fails
     */
    public static List<OpenClDevice> all() {
        List<ClDevice> ds = ClDevice.all();
        return java.util.stream.IntStream.range(0, ds.size()).mapToObj(i -> new OpenClDevice(ds.get(i), i)).toList();
    }

    /**
     * The device {@code -Dbforest.opencl.device} names, else the first GPU, else the first device.
     *
     * @return the device to use, as {@link #choose(String)} picks it from the system property
     * @throws OpenClException when OpenCL is not installed, there is no device, or none matches
     *                         the property
     */
    public static OpenClDevice choose() {
        return choose(System.getProperty(PROPERTY));
    }

    /**
     * The device {@code spec} names: an index into {@link #all()} or a case-insensitive part of its
     * name or its platform's; {@code null} or blank: the first GPU, else the first device.
     * {@code "#2"} is always index 2. Plain digits are an index when there are that many devices,
     * else a part of a name: {@code "1"} is the second device, {@code "4090"} the first device
     * whose name holds "4090" (an "RTX 4090").
     *
     * @param spec {@code #} and a decimal index into {@link #all()}, a decimal index, a part of a
     *             device's or platform's name (case ignored, surrounding blanks stripped), or
     *             {@code null} or blank
     * @return the first device that {@code spec} names
     * @throws OpenClException when OpenCL is not installed, there is no device, the index is out
     *                         of range, or no name matches {@code spec}; the message lists the
     *                         devices there are
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
        int i = select(spec, all.stream().map(d -> new String[] {d.name(), d.platformName()}).toList());
        if (i < 0) {
            String s = spec.strip();
            throw new OpenClException((s.startsWith("#") || s.chars().allMatch(Character::isDigit)
                    ? "no OpenCL device " + s + ": there are " + all.size() + " (" + list(all) + ")"
                    : "no OpenCL device matches '" + s + "' (" + PROPERTY + "); the devices: " + list(all)));
        }
        return all.get(i);
    }

    /**
     * Which of the devices {@code spec} names (not blank), each given as its name and its
     * platform's name: {@code #n} is index {@code n}; all digits are an index when below the
     * number of devices, else a part of a name (so that "4090" finds "RTX 4090" on a machine with
     * fewer than 4091 devices, and "0" stays the first device); anything else is a part of a name,
     * case ignored. The first match wins.
     *
     * @return the position of the device named, or -1 when none is
     */
    static int select(String spec, List<String[]> names) {
        String s = spec.strip();
        if (s.startsWith("#")) {
            String digits = s.substring(1).strip();
            int i = parseIndex(digits);
            return i >= 0 && i < names.size() ? i : -1;
        }
        int i = parseIndex(s);
        if (i >= 0 && i < names.size()) {
            return i;
        }
        String needle = s.toLowerCase(Locale.ROOT);
        for (int d = 0; d < names.size(); d++) {
            for (String n : names.get(d)) {
                if (n.toLowerCase(Locale.ROOT).contains(needle)) {
                    return d;
                }
            }
        }
        return -1;
    }

    /** {@code s} as a decimal index, or -1 when it is not all digits or too large for an int. */
    private static int parseIndex(String s) {
        if (s.isEmpty() || !s.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return -1;
        }
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String list(List<OpenClDevice> all) {
        return String.join("; ", all.stream().map(OpenClDevice::toString).toList());
    }

    /** The driver's handle and properties, for the module's structures. */
    ClDevice handle() {
        return device;
    }

    /**
     * Where this device stands in {@link #all()}: the number {@code -Dbforest.opencl.device} takes.
     *
     * @return the device's index, from 0
     */
    public int index() {
        return index;
    }

    /**
     * The device's name as the driver reports it ({@code CL_DEVICE_NAME}).
     *
     * @return the device's name, blanks stripped
     */
    public String name() {
        return device.name();
    }

    /**
     * The name of the platform (driver) the device belongs to ({@code CL_PLATFORM_NAME}), such as
     * {@code "Portable Computing Language"} for PoCL.
     *
     * @return the platform's name, blanks stripped
     */
    public String platformName() {
        return device.platformName();
    }

    /**
     * The OpenCL version the device reports, e.g. {@code "OpenCL 3.0 CUDA"}.
     *
     * @return the device's {@code CL_DEVICE_VERSION} string
     */
    public String version() {
        return device.version();
    }

    /**
     * The version of the device's driver ({@code CL_DRIVER_VERSION}), e.g. {@code "550.54.14"} for
     * NVIDIA's or {@code "6.0"} for PoCL.
     *
     * @return the driver's version string
     * @throws OpenClException when the driver does not answer
     */
    public String driverVersion() {
        return device.driverVersion();
    }

    /**
     * Whether the driver reports the device as a GPU ({@code CL_DEVICE_TYPE_GPU}).
     *
     * @return {@code true} for a GPU
     */
    public boolean isGpu() {
        return device.isGpu();
    }

    /**
     * Whether this is a CPU device: an emulation of what a GPU does (PoCL, or a vendor's CPU runtime).
     *
     * @return {@code true} when the driver reports the device as a CPU ({@code CL_DEVICE_TYPE_CPU})
     */
    public boolean isEmulation() {
        return device.isCpu();
    }

    /**
     * The device's parallel compute units ({@code CL_DEVICE_MAX_COMPUTE_UNITS}): streaming
     * multiprocessors or compute units on a GPU, cores on a CPU device.
     *
     * @return the number of compute units, at least 1
     */
    public int computeUnits() {
        return device.computeUnits();
    }

    /**
     * The most work-items one work-group may have on the device ({@code CL_DEVICE_MAX_WORK_GROUP_SIZE}).
     *
     * @return the largest work-group size, in work-items
     */
    public long maxWorkGroupSize() {
        return device.maxWorkGroupSize();
    }

    /**
     * The device's global memory ({@code CL_DEVICE_GLOBAL_MEM_SIZE}): what all of its buffers
     * together, every index's pages included, can take.
     *
     * @return the global memory in bytes
     */
    public long globalMemoryBytes() {
        return device.globalMemBytes();
    }

    /**
     * The largest single buffer the device allocates ({@code CL_DEVICE_MAX_MEM_ALLOC_SIZE}); a tree
     * whose page array would need more is refused with an {@link OpenClException}.
     *
     * @return the largest allocation in bytes
     */
    public long maxAllocationBytes() {
        return device.maxAllocBytes();
    }

    @Override
    public String toString() {
        return index + ": " + name() + " (" + platformName() + ", " + (isGpu() ? "GPU" : isEmulation() ? "CPU" : "other")
                + ", " + computeUnits() + " compute units, " + (globalMemoryBytes() >> 20) + " MiB)";
    }
}
