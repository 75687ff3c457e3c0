package org.bforest.opencl.cl;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import org.bforest.opencl.OpenClException;

/**
 * The OpenCL C API functions bforest calls, as FFM downcalls to {@code libOpenCL.so.1} (the ICD
 * loader, which dispatches to whatever drivers are installed: a GPU's, or PoCL on a CPU). All of
 * them are here and nowhere else. Types as the OpenCL headers define them on LP64:
 * {@code cl_int}, {@code cl_uint} and {@code cl_bool} are 32 bits, {@code cl_ulong} and the
 * bitfields ({@code cl_device_type}, {@code cl_mem_flags}) 64, {@code size_t} 64, handles
 * ({@code cl_platform_id}, {@code cl_context}, ...) pointers.
 *
 * <p>The library is looked up the first time a function is needed, so that the CPU structures
 * never touch it; where it is missing, every call throws an {@link OpenClException} that says
 * what to install.
 */
public final class Cl {
    public static final int CL_SUCCESS = 0;
    public static final int CL_DEVICE_NOT_FOUND = -1;
    public static final int CL_PLATFORM_NOT_FOUND_KHR = -1001;
    public static final int CL_TRUE = 1;

    public static final int CL_PLATFORM_VERSION = 0x0901;
    public static final int CL_PLATFORM_NAME = 0x0902;

    public static final long CL_DEVICE_TYPE_CPU = 1L << 1;
    public static final long CL_DEVICE_TYPE_GPU = 1L << 2;
    public static final long CL_DEVICE_TYPE_ACCELERATOR = 1L << 3;
    public static final long CL_DEVICE_TYPE_ALL = 0xFFFFFFFFL;

    public static final int CL_DEVICE_TYPE = 0x1000;
    public static final int CL_DEVICE_MAX_COMPUTE_UNITS = 0x1002;
    public static final int CL_DEVICE_MAX_WORK_GROUP_SIZE = 0x1004;
    public static final int CL_DEVICE_MAX_MEM_ALLOC_SIZE = 0x1010;
    public static final int CL_DEVICE_GLOBAL_MEM_SIZE = 0x101F;
    public static final int CL_DEVICE_NAME = 0x102B;
    public static final int CL_DEVICE_VERSION = 0x102F;

    public static final long CL_MEM_READ_WRITE = 1L;
    public static final long CL_MEM_WRITE_ONLY = 1L << 1;
    public static final long CL_MEM_READ_ONLY = 1L << 2;

    public static final long CL_MEM_ALLOC_HOST_PTR = 1L << 4;
    public static final long CL_MAP_READ = 1L;
    public static final long CL_MAP_WRITE = 1L << 1;

    public static final int CL_PROGRAM_BUILD_LOG = 0x1183;

    public static final long CL_QUEUE_PROPERTIES = 0x1093;
    public static final long CL_QUEUE_PROFILING_ENABLE = 1L << 1;
    public static final int CL_PROFILING_COMMAND_START = 0x1282;
    public static final int CL_PROFILING_COMMAND_END = 0x1283;

    /** Why the library could not be loaded, once that was tried and failed; later calls repeat it. */
    private static volatile OpenClException loadFailure;

    private Cl() {
    }

    /** The downcalls, bound when first used. */
    private static final class Bound {
        static final MethodHandle GET_PLATFORM_IDS;
        static final MethodHandle GET_PLATFORM_INFO;
        static final MethodHandle GET_DEVICE_IDS;
        static final MethodHandle GET_DEVICE_INFO;
        static final MethodHandle CREATE_CONTEXT;
        static final MethodHandle RELEASE_CONTEXT;
        static final MethodHandle CREATE_COMMAND_QUEUE_WITH_PROPERTIES;
        static final MethodHandle RELEASE_COMMAND_QUEUE;
        static final MethodHandle CREATE_BUFFER;
        static final MethodHandle RELEASE_MEM_OBJECT;
        static final MethodHandle ENQUEUE_WRITE_BUFFER;
        static final MethodHandle ENQUEUE_READ_BUFFER;
        static final MethodHandle ENQUEUE_COPY_BUFFER;
        static final MethodHandle CREATE_PROGRAM_WITH_SOURCE;
        static final MethodHandle BUILD_PROGRAM;
        static final MethodHandle GET_PROGRAM_BUILD_INFO;
        static final MethodHandle RELEASE_PROGRAM;
        static final MethodHandle CREATE_KERNEL;
        static final MethodHandle RELEASE_KERNEL;
        static final MethodHandle SET_KERNEL_ARG;
        static final MethodHandle ENQUEUE_ND_RANGE_KERNEL;
        static final MethodHandle FINISH;
        static final MethodHandle ENQUEUE_FILL_BUFFER;
        static final MethodHandle ENQUEUE_MAP_BUFFER;
        static final MethodHandle ENQUEUE_UNMAP_MEM_OBJECT;
        static final MethodHandle GET_EVENT_PROFILING_INFO;
        static final MethodHandle RELEASE_EVENT;
        static final MethodHandle WAIT_FOR_EVENTS;
        static final MethodHandle GET_EVENT_INFO;

        static {
            // libOpenCL.so.1, or the library -Dbforest.opencl.library names (ClLibrary).
            SymbolLookup lib;
            try {
                lib = ClLibrary.open();
            } catch (OpenClException e) {
                throw loadFailure = e;
            }
            Linker linker = Linker.nativeLinker();
            GET_PLATFORM_IDS = bind(linker, lib, "clGetPlatformIDs", JAVA_INT, JAVA_INT, ADDRESS, ADDRESS);
            GET_PLATFORM_INFO = bind(linker, lib, "clGetPlatformInfo", JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG,
                    ADDRESS, ADDRESS);
            GET_DEVICE_IDS = bind(linker, lib, "clGetDeviceIDs", JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS,
                    ADDRESS);
            GET_DEVICE_INFO = bind(linker, lib, "clGetDeviceInfo", JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS,
                    ADDRESS);
            CREATE_CONTEXT = bind(linker, lib, "clCreateContext", ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS,
                    ADDRESS, ADDRESS);
            RELEASE_CONTEXT = bind(linker, lib, "clReleaseContext", JAVA_INT, ADDRESS);
            CREATE_COMMAND_QUEUE_WITH_PROPERTIES = bind(linker, lib, "clCreateCommandQueueWithProperties", ADDRESS,
                    ADDRESS, ADDRESS, ADDRESS, ADDRESS);
            RELEASE_COMMAND_QUEUE = bind(linker, lib, "clReleaseCommandQueue", JAVA_INT, ADDRESS);
            CREATE_BUFFER = bind(linker, lib, "clCreateBuffer", ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS,
                    ADDRESS);
            RELEASE_MEM_OBJECT = bind(linker, lib, "clReleaseMemObject", JAVA_INT, ADDRESS);
            ENQUEUE_WRITE_BUFFER = bind(linker, lib, "clEnqueueWriteBuffer", JAVA_INT, ADDRESS, ADDRESS, JAVA_INT,
                    JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_INT, ADDRESS, ADDRESS);
            ENQUEUE_READ_BUFFER = bind(linker, lib, "clEnqueueReadBuffer", JAVA_INT, ADDRESS, ADDRESS, JAVA_INT,
                    JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_INT, ADDRESS, ADDRESS);
            ENQUEUE_COPY_BUFFER = bind(linker, lib, "clEnqueueCopyBuffer", JAVA_INT, ADDRESS, ADDRESS, ADDRESS,
                    JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS);
            CREATE_PROGRAM_WITH_SOURCE = bind(linker, lib, "clCreateProgramWithSource", ADDRESS, ADDRESS, JAVA_INT,
                    ADDRESS, ADDRESS, ADDRESS);
            BUILD_PROGRAM = bind(linker, lib, "clBuildProgram", JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, ADDRESS,
                    ADDRESS);
            GET_PROGRAM_BUILD_INFO = bind(linker, lib, "clGetProgramBuildInfo", JAVA_INT, ADDRESS, ADDRESS, JAVA_INT,
                    JAVA_LONG, ADDRESS, ADDRESS);
            RELEASE_PROGRAM = bind(linker, lib, "clReleaseProgram", JAVA_INT, ADDRESS);
            CREATE_KERNEL = bind(linker, lib, "clCreateKernel", ADDRESS, ADDRESS, ADDRESS, ADDRESS);
            RELEASE_KERNEL = bind(linker, lib, "clReleaseKernel", JAVA_INT, ADDRESS);
            SET_KERNEL_ARG = bind(linker, lib, "clSetKernelArg", JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS);
            ENQUEUE_ND_RANGE_KERNEL = bind(linker, lib, "clEnqueueNDRangeKernel", JAVA_INT, ADDRESS, ADDRESS, JAVA_INT,
                    ADDRESS, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS);
            FINISH = bind(linker, lib, "clFinish", JAVA_INT, ADDRESS);
            ENQUEUE_FILL_BUFFER = bind(linker, lib, "clEnqueueFillBuffer", JAVA_INT, ADDRESS, ADDRESS, ADDRESS,
                    JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS);
            ENQUEUE_MAP_BUFFER = bind(linker, lib, "clEnqueueMapBuffer", ADDRESS, ADDRESS, ADDRESS, JAVA_INT,
                    JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
            ENQUEUE_UNMAP_MEM_OBJECT = bind(linker, lib, "clEnqueueUnmapMemObject", JAVA_INT, ADDRESS, ADDRESS,
                    ADDRESS, JAVA_INT, ADDRESS, ADDRESS);
            GET_EVENT_PROFILING_INFO = bind(linker, lib, "clGetEventProfilingInfo", JAVA_INT, ADDRESS, JAVA_INT,
                    JAVA_LONG, ADDRESS, ADDRESS);
            RELEASE_EVENT = bind(linker, lib, "clReleaseEvent", JAVA_INT, ADDRESS);
            WAIT_FOR_EVENTS = bind(linker, lib, "clWaitForEvents", JAVA_INT, JAVA_INT, ADDRESS);
            GET_EVENT_INFO = bind(linker, lib, "clGetEventInfo", JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS,
                    ADDRESS);
        }

        private static MethodHandle bind(Linker linker, SymbolLookup lib, String name,
                java.lang.foreign.MemoryLayout result, java.lang.foreign.MemoryLayout... args) {
            MemorySegment symbol = lib.find(name).orElseThrow(() -> new OpenClException(
                    "the OpenCL library has no " + name + ": an OpenCL 2.0 or newer ICD loader is needed"));
            return linker.downcallHandle(symbol, FunctionDescriptor.of(result, args));
        }
    }

    /** Checks a status a call returned: {@link #CL_SUCCESS}, or an exception naming the call and the error. */
    public static void check(int status, String call) {
        if (status != CL_SUCCESS) {
            throw new OpenClException(call + " failed: " + ClErrors.name(status) + " (" + status + ")", status);
        }
    }

    /** A status written through {@code errcode_ret}. */
    public static void check(MemorySegment errcode, String call) {
        check(errcode.get(JAVA_INT, 0), call);
    }

    // ---- the calls, each a thin wrapper that rethrows what FFM reports ---------------------

    public static int clGetPlatformIDs(int numEntries, MemorySegment platforms, MemorySegment numPlatforms) {
        try {
            return (int) Bound.GET_PLATFORM_IDS.invokeExact(numEntries, platforms, numPlatforms);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int clGetPlatformInfo(MemorySegment platform, int param, long size, MemorySegment value,
            MemorySegment sizeRet) {
        try {
            return (int) Bound.GET_PLATFORM_INFO.invokeExact(platform, param, size, value, sizeRet);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int clGetDeviceIDs(MemorySegment platform, long type, int numEntries, MemorySegment devices,
            MemorySegment numDevices) {
        try {
            return (int) Bound.GET_DEVICE_IDS.invokeExact(platform, type, numEntries, devices, numDevices);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int clGetDeviceInfo(MemorySegment device, int param, long size, MemorySegment value,
            MemorySegment sizeRet) {
        try {
            return (int) Bound.GET_DEVICE_INFO.invokeExact(device, param, size, value, sizeRet);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static MemorySegment clCreateContext(MemorySegment properties, int numDevices, MemorySegment devices,
            MemorySegment errcode) {
        try {
            return (MemorySegment) Bound.CREATE_CONTEXT.invokeExact(properties, numDevices, devices,
                    MemorySegment.NULL, MemorySegment.NULL, errcode);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int clReleaseContext(MemorySegment context) {
        try {
            return (int) Bound.RELEASE_CONTEXT.invokeExact(context);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static MemorySegment clCreateCommandQueueWithProperties(MemorySegment context, MemorySegment device,
            MemorySegment properties, MemorySegment errcode) {
        try {
            return (MemorySegment) Bound.CREATE_COMMAND_QUEUE_WITH_PROPERTIES.invokeExact(context, device, properties,
                    errcode);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int clReleaseCommandQueue(MemorySegment queue) {
        try {
            return (int) Bound.RELEASE_COMMAND_QUEUE.invokeExact(queue);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static MemorySegment clCreateBuffer(MemorySegment context, long flags, long size, MemorySegment hostPtr,
            MemorySegment errcode) {
        try {
            return (MemorySegment) Bound.CREATE_BUFFER.invokeExact(context, flags, size, hostPtr, errcode);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int clReleaseMemObject(MemorySegment mem) {
        try {
            return (int) Bound.RELEASE_MEM_OBJECT.invokeExact(mem);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** A blocking write of {@code size} bytes from host memory {@code src} at byte {@code offset} of {@code mem}. */
    public static int clEnqueueWriteBuffer(MemorySegment queue, MemorySegment mem, long offset, long size,
            MemorySegment src) {
        return clEnqueueWriteBuffer(queue, mem, true, offset, size, src, MemorySegment.NULL);
    }

    /**
     * A write of host memory {@code src} to byte {@code offset} of {@code mem}; unless
     * {@code blocking}, it returns at once and {@code src} must stay valid until the queue has
     * passed the write (a later blocking call on the in-order queue). {@code event}: where the
     * command's event goes (NULL: none), as for every enqueue here.
     */
    public static int clEnqueueWriteBuffer(MemorySegment queue, MemorySegment mem, boolean blocking, long offset,
            long size, MemorySegment src, MemorySegment event) {
        try {
            return (int) Bound.ENQUEUE_WRITE_BUFFER.invokeExact(queue, mem, blocking ? CL_TRUE : 0, offset, size, src,
                    0, MemorySegment.NULL, event);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** A blocking read of {@code size} bytes at byte {@code offset} of {@code mem} into host memory {@code dst}. */
    public static int clEnqueueReadBuffer(MemorySegment queue, MemorySegment mem, long offset, long size,
            MemorySegment dst) {
        return clEnqueueReadBuffer(queue, mem, true, offset, size, dst, MemorySegment.NULL);
    }

    /** A read of {@code size} bytes at byte {@code offset} of {@code mem} into host memory {@code dst}, blocking or not. */
    public static int clEnqueueReadBuffer(MemorySegment queue, MemorySegment mem, boolean blocking, long offset,
            long size, MemorySegment dst, MemorySegment event) {
        try {
            return (int) Bound.ENQUEUE_READ_BUFFER.invokeExact(queue, mem, blocking ? CL_TRUE : 0, offset, size, dst, 0,
                    MemorySegment.NULL, event);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static MemorySegment clCreateProgramWithSource(MemorySegment context, int count, MemorySegment strings,
            MemorySegment lengths, MemorySegment errcode) {
        try {
            return (MemorySegment) Bound.CREATE_PROGRAM_WITH_SOURCE.invokeExact(context, count, strings, lengths,
                    errcode);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int clBuildProgram(MemorySegment program, int numDevices, MemorySegment devices,
            MemorySegment options) {
        try {
            return (int) Bound.BUILD_PROGRAM.invokeExact(program, numDevices, devices, options, MemorySegment.NULL,
                    MemorySegment.NULL);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int clGetProgramBuildInfo(MemorySegment program, MemorySegment device, int param, long size,
            MemorySegment value, MemorySegment sizeRet) {
        try {
            return (int) Bound.GET_PROGRAM_BUILD_INFO.invokeExact(program, device, param, size, value, sizeRet);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int clReleaseProgram(MemorySegment program) {
        try {
            return (int) Bound.RELEASE_PROGRAM.invokeExact(program);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static MemorySegment clCreateKernel(MemorySegment program, MemorySegment name, MemorySegment errcode) {
        try {
            return (MemorySegment) Bound.CREATE_KERNEL.invokeExact(program, name, errcode);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int clReleaseKernel(MemorySegment kernel) {
        try {
            return (int) Bound.RELEASE_KERNEL.invokeExact(kernel);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int clSetKernelArg(MemorySegment kernel, int index, long size, MemorySegment value) {
        try {
            return (int) Bound.SET_KERNEL_ARG.invokeExact(kernel, index, size, value);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** A one-dimensional launch of {@code global} work-items in groups of {@code local} (0: the driver picks). */
    public static int clEnqueueNDRangeKernel(MemorySegment queue, MemorySegment kernel, MemorySegment globalSize,
            MemorySegment localSize) {
        return clEnqueueNDRangeKernel(queue, kernel, globalSize, localSize, MemorySegment.NULL);
    }

    /** {@link #clEnqueueNDRangeKernel(MemorySegment, MemorySegment, MemorySegment, MemorySegment)} with its event. */
    public static int clEnqueueNDRangeKernel(MemorySegment queue, MemorySegment kernel, MemorySegment globalSize,
            MemorySegment localSize, MemorySegment event) {
        try {
            return (int) Bound.ENQUEUE_ND_RANGE_KERNEL.invokeExact(queue, kernel, 1, MemorySegment.NULL, globalSize,
                    localSize, 0, MemorySegment.NULL, event);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Enqueues a device-to-device copy (no events: the queue is in order). */
    public static int clEnqueueCopyBuffer(MemorySegment queue, MemorySegment src, MemorySegment dst, long srcOffset,
            long dstOffset, long size, MemorySegment event) {
        try {
            return (int) Bound.ENQUEUE_COPY_BUFFER.invokeExact(queue, src, dst, srcOffset, dstOffset, size, 0,
                    MemorySegment.NULL, event);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int clFinish(MemorySegment queue) {
        try {
            return (int) Bound.FINISH.invokeExact(queue);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Fills {@code size} bytes at {@code offset} of {@code mem} with the {@code patternSize}-byte {@code pattern}. */
    public static int clEnqueueFillBuffer(MemorySegment queue, MemorySegment mem, MemorySegment pattern,
            long patternSize, long offset, long size, MemorySegment event) {
        try {
            return (int) Bound.ENQUEUE_FILL_BUFFER.invokeExact(queue, mem, pattern, patternSize, offset, size, 0,
                    MemorySegment.NULL, event);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Maps {@code size} bytes of {@code mem} into host memory (blocking); the status goes to {@code errcode}. */
    public static MemorySegment clEnqueueMapBuffer(MemorySegment queue, MemorySegment mem, long flags, long size,
            MemorySegment errcode) {
        try {
            return (MemorySegment) Bound.ENQUEUE_MAP_BUFFER.invokeExact(queue, mem, CL_TRUE, flags, 0L, size, 0,
                    MemorySegment.NULL, MemorySegment.NULL, errcode);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int clEnqueueUnmapMemObject(MemorySegment queue, MemorySegment mem, MemorySegment mapped) {
        try {
            return (int) Bound.ENQUEUE_UNMAP_MEM_OBJECT.invokeExact(queue, mem, mapped, 0, MemorySegment.NULL,
                    MemorySegment.NULL);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** A {@code cl_ulong} of an event's profiling information (nanoseconds on the device's clock). */
    public static int clGetEventProfilingInfo(MemorySegment event, int param, MemorySegment value) {
        try {
            return (int) Bound.GET_EVENT_PROFILING_INFO.invokeExact(event, param, 8L, value, MemorySegment.NULL);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Waits for the {@code n} events of the list {@code events} (an array of event handles). */
    public static int clWaitForEvents(int n, MemorySegment events) {
        try {
            return (int) Bound.WAIT_FOR_EVENTS.invokeExact(n, events);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code CL_EVENT_COMMAND_EXECUTION_STATUS}: a command's state, or its error code (negative) if it failed. */
    public static final int CL_EVENT_COMMAND_EXECUTION_STATUS = 0x11D3;

    /** A {@code cl_int} of an event's information into {@code value}. */
    public static int clGetEventInfo(MemorySegment event, int param, MemorySegment value) {
        try {
            return (int) Bound.GET_EVENT_INFO.invokeExact(event, param, 4L, value, MemorySegment.NULL);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int clReleaseEvent(MemorySegment event) {
        try {
            return (int) Bound.RELEASE_EVENT.invokeExact(event);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** What a downcall threw: the binding's own exception as it is, anything else wrapped. */
    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof ExceptionInInitializerError e && e.getCause() instanceof OpenClException o) {
            return o;
        }
        if (t instanceof NoClassDefFoundError && loadFailure != null) {
            return new OpenClException(loadFailure.getMessage(), t);
        }
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new OpenClException("OpenCL downcall failed", t);
    }
}
