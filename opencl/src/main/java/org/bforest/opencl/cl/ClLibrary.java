package org.bforest.opencl.cl;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.bforest.opencl.OpenClDevice;
import org.bforest.opencl.OpenClException;

/**
 * Where {@link Cl}'s functions come from: {@code libOpenCL.so.1} (the ICD loader), or the library
 * {@code -Dbforest.opencl.library} names by path.
 *
 * <p>A loader exports every OpenCL function. A vendor's driver library (the "ICD" a loader loads,
 * such as {@code libnvidia-opencl.so.1} or PoCL's {@code libpocl.so.2}) need not: NVIDIA's and
 * PoCL's export {@code clGetExtensionFunctionAddress} and little else. Such a library is reached
 * the way a loader reaches it (the {@code cl_khr_icd} extension): its platforms come from
 * {@code clIcdGetPlatformIDsKHR} (a symbol, or asked of {@code clGetExtensionFunctionAddress}),
 * and every other function from the dispatch table that each of its objects starts with, a
 * platform's included; a driver has one table for all its objects.
 */
final class ClLibrary {
    /** The library loaded when the property is not set: the ICD loader. */
    static final String DEFAULT = "libOpenCL.so.1";

    /**
     * The positions in the Khronos ICD dispatch table ({@code cl_icd_dispatch}, {@code CL/cl_icd.h})
     * of the functions {@link Cl} binds: the order of the OpenCL 1.0 functions, then the 1.1, 1.2
     * and extension entries before OpenCL 2.0's {@code clCreateCommandQueueWithProperties}.
     */
    static final Map<String, Integer> DISPATCH = Map.ofEntries(
            Map.entry("clGetPlatformIDs", 0),
            Map.entry("clGetPlatformInfo", 1),
            Map.entry("clGetDeviceIDs", 2),
            Map.entry("clGetDeviceInfo", 3),
            Map.entry("clCreateContext", 4),
            Map.entry("clReleaseContext", 7),
            Map.entry("clReleaseCommandQueue", 11),
            Map.entry("clCreateBuffer", 14),
            Map.entry("clReleaseMemObject", 18),
            Map.entry("clCreateProgramWithSource", 26),
            Map.entry("clReleaseProgram", 29),
            Map.entry("clBuildProgram", 30),
            Map.entry("clGetProgramBuildInfo", 33),
            Map.entry("clCreateKernel", 34),
            Map.entry("clReleaseKernel", 37),
            Map.entry("clSetKernelArg", 38),
            Map.entry("clWaitForEvents", 41),
            Map.entry("clGetEventInfo", 42),
            Map.entry("clReleaseEvent", 44),
            Map.entry("clGetEventProfilingInfo", 45),
            Map.entry("clFinish", 47),
            Map.entry("clEnqueueReadBuffer", 48),
            Map.entry("clEnqueueWriteBuffer", 49),
            Map.entry("clEnqueueCopyBuffer", 50),
            Map.entry("clEnqueueMapBuffer", 56),
            Map.entry("clEnqueueUnmapMemObject", 58),
            Map.entry("clEnqueueNDRangeKernel", 59),
            Map.entry("clGetExtensionFunctionAddress", 65),
            Map.entry("clEnqueueFillBuffer", 102),
            Map.entry("clCreateCommandQueueWithProperties", 123));
    /** Entries of the table read: up to the last one used. */
    private static final int DISPATCH_ENTRIES = 124;

    private ClLibrary() {
    }

    /**
     * The functions of the OpenCL library to use: the property's, else the loader's.
     *
     * @throws OpenClException when the library is missing or is not an OpenCL library
     */
    static SymbolLookup open() {
        String property = System.getProperty(OpenClDevice.LIBRARY_PROPERTY, "").strip();
        if (property.isEmpty()) {
            SymbolLookup lib;
            try {
                lib = SymbolLookup.libraryLookup(DEFAULT, Arena.global());
            } catch (IllegalArgumentException e) {
                throw new OpenClException("OpenCL is not installed: libOpenCL.so.1 was not found. Install an OpenCL"
                        + " ICD loader and a driver (on Debian: apt-get install ocl-icd-libopencl1"
                        + " pocl-opencl-icd for the CPU, or your GPU vendor's driver); ./bforest test installs"
                        + " them when run as root; or name the driver's library with -D"
                        + OpenClDevice.LIBRARY_PROPERTY + "=/path/to/its/libOpenCL.so", e);
            }
            return lib;
        }
        return open(property);
    }

    /** The functions of the library at {@code path} (the property's value). */
    static SymbolLookup open(String path) {
        String where = "-D" + OpenClDevice.LIBRARY_PROPERTY + "=" + path;
        if (!Files.exists(Path.of(path))) {
            throw new OpenClException("the OpenCL library " + where + " names no file: give the path of an ICD"
                    + " loader (libOpenCL.so.1) or of a driver's library (e.g. libnvidia-opencl.so.1)");
        }
        SymbolLookup lib;
        try {
            lib = SymbolLookup.libraryLookup(Path.of(path), Arena.global());
        } catch (IllegalArgumentException e) {
            throw new OpenClException("the OpenCL library " + where + " could not be loaded: " + e.getMessage(), e);
        }
        if (lib.find("clGetPlatformIDs").isPresent() && lib.find("clCreateContext").isPresent()) {
            return complete(lib, where, "its exports"); // a loader, or a driver that exports the API itself
        }
        return complete(viaDispatch(lib, where), where, "its dispatch table");
    }

    /** {@code lib}, once it is known to have every function {@link Cl} binds. */
    private static SymbolLookup complete(SymbolLookup lib, String where, String from) {
        for (String name : DISPATCH.keySet()) {
            if (!name.equals("clGetExtensionFunctionAddress") && lib.find(name).isEmpty()) {
                throw new OpenClException("the OpenCL library " + where + " has no " + name + " in " + from
                        + ": an OpenCL 2.0 or newer loader or driver is needed");
            }
        }
        return lib;
    }

    /** A driver library that exports only the ICD entry points: its dispatch table. */
    private static SymbolLookup viaDispatch(SymbolLookup lib, String where) {
        Linker linker = Linker.nativeLinker();
        MemorySegment getPlatforms = lib.find("clIcdGetPlatformIDsKHR").orElse(MemorySegment.NULL);
        if (getPlatforms.equals(MemorySegment.NULL)) {
            Optional<MemorySegment> ext = lib.find("clGetExtensionFunctionAddress");
            if (ext.isPresent()) {
                MethodHandle getExt = linker.downcallHandle(ext.get(), FunctionDescriptor.of(ADDRESS, ADDRESS));
                try (Arena a = Arena.ofConfined()) {
                    getPlatforms = (MemorySegment) getExt.invokeExact(a.allocateFrom("clIcdGetPlatformIDsKHR"));
                } catch (Throwable t) {
                    throw new OpenClException("the OpenCL library " + where + ": clGetExtensionFunctionAddress failed", t);
                }
            }
        }
        if (getPlatforms.equals(MemorySegment.NULL)) {
            throw new OpenClException("the OpenCL library " + where + " is not an OpenCL library: it has neither"
                    + " clGetPlatformIDs (an ICD loader's) nor clIcdGetPlatformIDsKHR (a driver's)");
        }
        MemorySegment table;
        MethodHandle platformIds = linker.downcallHandle(getPlatforms,
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
        try (Arena a = Arena.ofConfined()) {
            MemorySegment count = a.allocate(JAVA_INT);
            MemorySegment first = a.allocate(ADDRESS);
            int status = (int) platformIds.invokeExact(1, first, count);
            if (status != Cl.CL_SUCCESS || count.get(JAVA_INT, 0) == 0) {
                throw new OpenClException("the OpenCL library " + where + " has no platform: clIcdGetPlatformIDsKHR"
                        + " returned " + ClErrors.name(status) + " (" + status + ") and "
                        + count.get(JAVA_INT, 0) + " platforms", status);
            }
            // The cl_khr_icd contract: an object's first field points at its driver's dispatch table.
            table = first.get(ADDRESS, 0).reinterpret(ADDRESS.byteSize()).get(ADDRESS, 0)
                    .reinterpret(DISPATCH_ENTRIES * ADDRESS.byteSize());
        } catch (OpenClException e) {
            throw e;
        } catch (Throwable t) {
            throw new OpenClException("the OpenCL library " + where + ": clIcdGetPlatformIDsKHR failed", t);
        }
        MemorySegment platforms = getPlatforms;
        MemorySegment dispatch = table;
        return name -> {
            if (name.equals("clGetPlatformIDs")) {
                return Optional.of(platforms); // the same signature: the driver's own platforms
            }
            Integer slot = DISPATCH.get(name);
            MemorySegment f = slot == null ? MemorySegment.NULL : dispatch.getAtIndex(ADDRESS, slot);
            return f.equals(MemorySegment.NULL) ? Optional.empty() : Optional.of(f);
        };
    }
}
