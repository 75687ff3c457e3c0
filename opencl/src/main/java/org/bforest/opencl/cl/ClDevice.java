package org.bforest.opencl.cl;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One OpenCL device as the driver describes it, with its platform and device handles (which stay
 * valid for the life of the process: OpenCL never releases platform or root-device ids).
 */
public record ClDevice(MemorySegment platform, MemorySegment id, String platformName, String name, long type,
        String version, int computeUnits, long maxWorkGroupSize, long globalMemBytes, long maxAllocBytes) {

    /** Every device of every platform, in the ICD loader's order; empty when no platform is installed. */
    public static List<ClDevice> all() {
        List<ClDevice> out = new ArrayList<>();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment count = a.allocate(JAVA_INT);
            int status = Cl.clGetPlatformIDs(0, MemorySegment.NULL, count);
            if (status == Cl.CL_PLATFORM_NOT_FOUND_KHR) {
                return out;
            }
            Cl.check(status, "clGetPlatformIDs");
            int np = count.get(JAVA_INT, 0);
            if (np == 0) {
                return out;
            }
            MemorySegment platforms = a.allocate(ADDRESS, np);
            Cl.check(Cl.clGetPlatformIDs(np, platforms, MemorySegment.NULL), "clGetPlatformIDs");
            for (int p = 0; p < np; p++) {
                MemorySegment platform = platforms.getAtIndex(ADDRESS, p);
                String platformName = platformString(a, platform, Cl.CL_PLATFORM_NAME);
                status = Cl.clGetDeviceIDs(platform, Cl.CL_DEVICE_TYPE_ALL, 0, MemorySegment.NULL, count);
                if (status == Cl.CL_DEVICE_NOT_FOUND) {
                    continue;
                }
                Cl.check(status, "clGetDeviceIDs");
                int nd = count.get(JAVA_INT, 0);
                MemorySegment devices = a.allocate(ADDRESS, Math.max(1, nd));
                Cl.check(Cl.clGetDeviceIDs(platform, Cl.CL_DEVICE_TYPE_ALL, nd, devices, MemorySegment.NULL),
                        "clGetDeviceIDs");
                for (int d = 0; d < nd; d++) {
                    MemorySegment id = devices.getAtIndex(ADDRESS, d);
                    out.add(new ClDevice(platform, id, platformName, deviceString(a, id, Cl.CL_DEVICE_NAME),
                            deviceLong(a, id, Cl.CL_DEVICE_TYPE), deviceString(a, id, Cl.CL_DEVICE_VERSION),
                            deviceInt(a, id, Cl.CL_DEVICE_MAX_COMPUTE_UNITS),
                            deviceLong(a, id, Cl.CL_DEVICE_MAX_WORK_GROUP_SIZE),
                            deviceLong(a, id, Cl.CL_DEVICE_GLOBAL_MEM_SIZE),
                            deviceLong(a, id, Cl.CL_DEVICE_MAX_MEM_ALLOC_SIZE)));
                }
            }
        }
        return out;
    }

    /** {@code CL_DRIVER_VERSION}: the driver's own version string. */
    private static final int CL_DRIVER_VERSION = 0x102D;

    /** The driver's version ({@code CL_DRIVER_VERSION}), asked of the driver each call. */
    public String driverVersion() {
        try (Arena a = Arena.ofConfined()) {
            return deviceString(a, id, CL_DRIVER_VERSION);
        }
    }

    public boolean isGpu() {
        return (type & Cl.CL_DEVICE_TYPE_GPU) != 0;
    }

    public boolean isCpu() {
        return (type & Cl.CL_DEVICE_TYPE_CPU) != 0;
    }

    private static String platformString(Arena a, MemorySegment platform, int param) {
        MemorySegment size = a.allocate(JAVA_LONG);
        Cl.check(Cl.clGetPlatformInfo(platform, param, 0, MemorySegment.NULL, size), "clGetPlatformInfo");
        MemorySegment value = a.allocate(Math.max(1, size.get(JAVA_LONG, 0)));
        Cl.check(Cl.clGetPlatformInfo(platform, param, value.byteSize(), value, MemorySegment.NULL),
                "clGetPlatformInfo");
        return value.getString(0, StandardCharsets.UTF_8).strip();
    }

    private static String deviceString(Arena a, MemorySegment device, int param) {
        MemorySegment size = a.allocate(JAVA_LONG);
        Cl.check(Cl.clGetDeviceInfo(device, param, 0, MemorySegment.NULL, size), "clGetDeviceInfo");
        MemorySegment value = a.allocate(Math.max(1, size.get(JAVA_LONG, 0)));
        Cl.check(Cl.clGetDeviceInfo(device, param, value.byteSize(), value, MemorySegment.NULL), "clGetDeviceInfo");
        return value.getString(0, StandardCharsets.UTF_8).strip();
    }

    /** A {@code cl_ulong} or {@code size_t} property (both 64 bits here). */
    private static long deviceLong(Arena a, MemorySegment device, int param) {
        MemorySegment value = a.allocate(JAVA_LONG);
        Cl.check(Cl.clGetDeviceInfo(device, param, JAVA_LONG.byteSize(), value, MemorySegment.NULL),
                "clGetDeviceInfo");
        return value.get(JAVA_LONG, 0);
    }

    /** A {@code cl_uint} property. */
    private static int deviceInt(Arena a, MemorySegment device, int param) {
        MemorySegment value = a.allocate(JAVA_INT);
        Cl.check(Cl.clGetDeviceInfo(device, param, JAVA_INT.byteSize(), value, MemorySegment.NULL),
                "clGetDeviceInfo");
        return value.get(JAVA_INT, 0);
    }
}
