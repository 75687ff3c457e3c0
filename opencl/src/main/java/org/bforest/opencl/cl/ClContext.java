package org.bforest.opencl.cl;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.List;
import org.bforest.opencl.OpenClException;

/**
 * A context and an in-order command queue on one device, and everything created in it: buffers,
 * programs, kernels. {@link #close()} releases all of them (kernels first, the context last);
 * using the context afterwards is an {@link IllegalStateException}. Not thread-safe: one owner
 * drives it, or, for the {@linkplain #shared shared} context of a device, whoever holds its
 * monitor (creating and releasing buffers and kernels synchronise by themselves, so that a
 * {@link java.lang.ref.Cleaner} may release them).
 *
 * <p>Host-side staging memory for transfers comes from the caller (a {@link MemorySegment}); the
 * transfers here are blocking, so a segment may be reused as soon as a call returns.
 */
public final class ClContext implements AutoCloseable {
    private final ClDevice device;
    private final MemorySegment context;
    private final MemorySegment queue;
    private final Set<MemorySegment> buffers = Collections.newSetFromMap(new IdentityHashMap<>());
    private final List<MemorySegment> programs = new ArrayList<>();
    private final Set<MemorySegment> kernels = Collections.newSetFromMap(new IdentityHashMap<>());
    /** Small scratch for arguments and status words, one owner, so one arena for the context's life. */
    private final Arena arena = Arena.ofShared();
    private final MemorySegment errcode = arena.allocate(JAVA_INT);
    private final MemorySegment argSlot = arena.allocate(JAVA_LONG);
    private final MemorySegment sizes = arena.allocate(JAVA_LONG, 2);
    private boolean closed;
    /** The work-group sizes of {@link #enqueue}: small launches, and large ones on a GPU. */
    private static final long SMALL_GROUP = 64;
    private static final long SMALL_LAUNCH = 1 << 16;
    private static final long GPU_GROUP = 256;
    private final Map<String, MemorySegment> built = new HashMap<>();
    private static final Map<Long, ClContext> SHARED = new HashMap<>();

    public ClContext(ClDevice device) {
        this.device = device;
        MemorySegment ids = arena.allocate(ADDRESS);
        ids.set(ADDRESS, 0, device.id());
        MemorySegment ctx = Cl.clCreateContext(MemorySegment.NULL, 1, ids, errcode);
        try {
            Cl.check(errcode, "clCreateContext");
        } catch (OpenClException e) {
            arena.close();
            throw e;
        }
        context = ctx;
        MemorySegment q = Cl.clCreateCommandQueueWithProperties(context, device.id(), MemorySegment.NULL, errcode);
        try {
            Cl.check(errcode, "clCreateCommandQueueWithProperties");
        } catch (OpenClException e) {
            Cl.clReleaseContext(context);
            arena.close();
            throw e;
        }
        queue = q;
    }

    /**
     * The process-wide context of {@code device}, created on first use and never closed: the
     * structures on one device share it (and its built programs), each tracking what it creates
     * in a {@link ClScope}. Callers synchronise on it to use its queue.
     */
    public static ClContext shared(ClDevice device) {
        synchronized (SHARED) {
            ClContext c = SHARED.get(device.id().address());
            if (c == null) {
                c = new ClContext(device);
                SHARED.put(device.id().address(), c);
            }
            return c;
        }
    }

    /** {@link #program} built once per source and options in this context, then reused. */
    public synchronized MemorySegment cachedProgram(String source, String options) {
        String key = options + "\u0000" + source;
        MemorySegment p = built.get(key);
        if (p == null) {
            p = program(source, options);
            built.put(key, p);
        }
        return p;
    }

    /** Programs {@link #cachedProgram} has built and keeps (a test's check that a source is compiled once). */
    public synchronized int cachedPrograms() {
        return built.size();
    }

    /** Releases a kernel this context created. */
    public synchronized void releaseKernel(MemorySegment kernel) {
        open();
        if (kernels.remove(kernel)) {
            Cl.check(Cl.clReleaseKernel(kernel), "clReleaseKernel");
        }
    }

    public ClDevice device() {
        return device;
    }

    private void open() {
        if (closed) {
            throw new IllegalStateException("this OpenCL context was closed (its index was closed): create a new one");
        }
    }

    // ---- buffers --------------------------------------------------------------------------------

    /** A device buffer of {@code bytes} bytes, read and written by kernels. */
    public synchronized MemorySegment buffer(long bytes) {
        open();
        if (bytes <= 0) {
            throw new IllegalArgumentException("a buffer needs at least one byte, got " + bytes);
        }
        if (bytes > device.maxAllocBytes()) {
            throw new OpenClException("a buffer of " + bytes + " bytes is larger than " + device.name()
                    + " allocates at once (" + device.maxAllocBytes() + " bytes, CL_DEVICE_MAX_MEM_ALLOC_SIZE)");
        }
        MemorySegment mem = Cl.clCreateBuffer(context, Cl.CL_MEM_READ_WRITE, bytes, MemorySegment.NULL, errcode);
        Cl.check(errcode, "clCreateBuffer(" + bytes + " bytes)");
        buffers.add(mem);
        return mem;
    }

    /** Releases a buffer this context created. */
    public synchronized void release(MemorySegment mem) {
        open();
        if (buffers.remove(mem)) {
            Cl.check(Cl.clReleaseMemObject(mem), "clReleaseMemObject");
        }
    }

    /** Copies {@code src} (host memory) to byte {@code offset} of {@code mem}; blocks until done. */
    public void write(MemorySegment mem, long offset, MemorySegment src) {
        open();
        Cl.check(Cl.clEnqueueWriteBuffer(queue, mem, offset, src.byteSize(), src), "clEnqueueWriteBuffer");
    }

    /**
     * Enqueues a copy of {@code src} (host memory) to byte {@code offset} of {@code mem} and
     * returns at once: {@code src} must stay valid until a later blocking call on this context.
     */
    public void writeAsync(MemorySegment mem, long offset, MemorySegment src) {
        open();
        Cl.check(Cl.clEnqueueWriteBuffer(queue, mem, false, offset, src.byteSize(), src), "clEnqueueWriteBuffer");
    }

    /** Copies {@code dst.byteSize()} bytes at byte {@code offset} of {@code mem} to {@code dst}; blocks until done. */
    public void read(MemorySegment mem, long offset, MemorySegment dst) {
        open();
        Cl.check(Cl.clEnqueueReadBuffer(queue, mem, offset, dst.byteSize(), dst), "clEnqueueReadBuffer");
    }

    /** Copies {@code bytes} bytes from {@code src} to {@code dst} on the device; blocks until done. */
    public void copy(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, long bytes) {
        open();
        if (bytes > 0) {
            Cl.check(Cl.clEnqueueCopyBuffer(queue, src, dst, srcOffset, dstOffset, bytes), "clEnqueueCopyBuffer");
            Cl.check(Cl.clFinish(queue), "clFinish");
        }
    }

    // ---- programs and kernels -------------------------------------------------------------------

    /** The text of a kernel source shipped as a resource of this module, e.g. {@code "kernels/page_search.cl"}. */
    public static String resource(String name) {
        try (InputStream in = ClContext.class.getResourceAsStream("/org/bforest/opencl/" + name)) {
            if (in == null) {
                throw new OpenClException("kernel source " + name + " is missing from the bforest-opencl jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new OpenClException("cannot read kernel source " + name, e);
        }
    }

    /**
     * Compiles {@code source} for this device; a failed build throws an {@link OpenClException}
     * whose message holds the compiler's log.
     */
    public MemorySegment program(String source, String options) {
        open();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment text = a.allocateFrom(source, StandardCharsets.UTF_8);
            MemorySegment strings = a.allocate(ADDRESS);
            strings.set(ADDRESS, 0, text);
            MemorySegment lengths = a.allocate(JAVA_LONG);
            lengths.set(JAVA_LONG, 0, text.byteSize() - 1);
            MemorySegment program = Cl.clCreateProgramWithSource(context, 1, strings, lengths, errcode);
            Cl.check(errcode, "clCreateProgramWithSource");
            programs.add(program);
            MemorySegment ids = a.allocate(ADDRESS);
            ids.set(ADDRESS, 0, device.id());
            int status = Cl.clBuildProgram(program, 1, ids, a.allocateFrom(options == null ? "" : options));
            if (status != Cl.CL_SUCCESS) {
                String log = buildLog(a, program);
                // Not kept: a caller's source that does not build must not hold a program for the context's life.
                programs.remove(program);
                Cl.clReleaseProgram(program);
                throw new OpenClException("clBuildProgram failed on " + device.name() + ": "
                        + ClErrors.name(status) + " (" + status + "); the compiler's log:\n" + log, status);
            }
            return program;
        }
    }

    private String buildLog(Arena a, MemorySegment program) {
        MemorySegment size = a.allocate(JAVA_LONG);
        if (Cl.clGetProgramBuildInfo(program, device.id(), Cl.CL_PROGRAM_BUILD_LOG, 0, MemorySegment.NULL, size)
                != Cl.CL_SUCCESS) {
            return "(no build log: clGetProgramBuildInfo failed)";
        }
        MemorySegment log = a.allocate(Math.max(1, size.get(JAVA_LONG, 0)));
        if (Cl.clGetProgramBuildInfo(program, device.id(), Cl.CL_PROGRAM_BUILD_LOG, log.byteSize(), log,
                MemorySegment.NULL) != Cl.CL_SUCCESS) {
            return "(no build log: clGetProgramBuildInfo failed)";
        }
        return log.getString(0, StandardCharsets.UTF_8).strip();
    }

    /** Kernel {@code name} of a built program. */
    public synchronized MemorySegment kernel(MemorySegment program, String name) {
        open();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment kernel = Cl.clCreateKernel(program, a.allocateFrom(name), errcode);
            Cl.check(errcode, "clCreateKernel(" + name + ")");
            kernels.add(kernel);
            return kernel;
        }
    }

    /** Argument {@code index} of {@code kernel}: a buffer. */
    public void arg(MemorySegment kernel, int index, MemorySegment mem) {
        open();
        argSlot.set(ADDRESS, 0, mem);
        Cl.check(Cl.clSetKernelArg(kernel, index, ADDRESS.byteSize(), argSlot), "clSetKernelArg(" + index + ")");
    }

    /** Argument {@code index} of {@code kernel}: an {@code int}. */
    public void arg(MemorySegment kernel, int index, int value) {
        open();
        argSlot.set(JAVA_INT, 0, value);
        Cl.check(Cl.clSetKernelArg(kernel, index, JAVA_INT.byteSize(), argSlot), "clSetKernelArg(" + index + ")");
    }

    /** Argument {@code index} of {@code kernel}: a {@code long}. */
    public void arg(MemorySegment kernel, int index, long value) {
        open();
        argSlot.set(JAVA_LONG, 0, value);
        Cl.check(Cl.clSetKernelArg(kernel, index, JAVA_LONG.byteSize(), argSlot), "clSetKernelArg(" + index + ")");
    }

    /**
     * Runs {@code kernel} over {@code global} work-items in groups of {@code local} ({@code 0}: the
     * driver picks; else {@code global} must be a multiple of it), then waits for it.
     */
    public void run(MemorySegment kernel, long global, long local) {
        open();
        if (global <= 0) {
            return;
        }
        sizes.setAtIndex(JAVA_LONG, 0, global);
        sizes.setAtIndex(JAVA_LONG, 1, local);
        MemorySegment localSize = local == 0 ? MemorySegment.NULL : sizes.asSlice(ValueLayout.JAVA_LONG.byteSize());
        Cl.check(Cl.clEnqueueNDRangeKernel(queue, kernel, sizes, localSize), "clEnqueueNDRangeKernel");
        Cl.check(Cl.clFinish(queue), "clFinish");
    }

    /**
     * Enqueues {@code kernel} over {@code global} work-items without waiting: the queue is in
     * order, so the next read (blocking) or {@link #run} sees its results. A failure of an
     * enqueued kernel surfaces at that next blocking call.
     */
    public void enqueue(MemorySegment kernel, long global) {
        open();
        if (global <= 0) {
            return;
        }
        // One work-group size for every launch, the global size rounded up to it (the kernels
        // ignore work-items past their n): a driver that specializes a kernel per work-group size
        // (PoCL compiles one per size it meets) compiles each kernel once, not once per batch size.
        // Two sizes, so two compiles at most: groups of 64 for small launches (single keys, small
        // batches: little padding); for large ones 256 on a GPU, and on a CPU device (PoCL) the
        // largest it takes (4096 there), since it runs a group as one task and small groups cost
        // it a scheduling step each.
        long local = workGroup(global);
        sizes.setAtIndex(JAVA_LONG, 0, (global + local - 1) / local * local);
        sizes.setAtIndex(JAVA_LONG, 1, local);
        Cl.check(Cl.clEnqueueNDRangeKernel(queue, kernel, sizes, sizes.asSlice(JAVA_LONG.byteSize())),
                "clEnqueueNDRangeKernel");
    }

    /** The work-group size of a launch of {@code global} work-items (see {@link #enqueue}). */
    private long workGroup(long global) {
        boolean gpu = (device.type() & Cl.CL_DEVICE_TYPE_GPU) != 0;
        long big = gpu ? GPU_GROUP : device.maxWorkGroupSize();
        return Math.max(1, Math.min(global <= SMALL_LAUNCH ? SMALL_GROUP : big, device.maxWorkGroupSize()));
    }

    /**
     * Enqueues {@code kernel} over {@code global} work-items (a multiple of {@code local}) in
     * work-groups of exactly {@code local}, without waiting (see {@link #enqueue}): for kernels
     * that give each work-group a task of its own.
     */
    public void enqueueLocal(MemorySegment kernel, long global, long local) {
        open();
        if (global <= 0) {
            return;
        }
        if (local <= 0 || global % local != 0) {
            throw new IllegalArgumentException("a launch of " + global + " work-items in groups of " + local);
        }
        sizes.setAtIndex(JAVA_LONG, 0, global);
        sizes.setAtIndex(JAVA_LONG, 1, local);
        Cl.check(Cl.clEnqueueNDRangeKernel(queue, kernel, sizes, sizes.asSlice(JAVA_LONG.byteSize())),
                "clEnqueueNDRangeKernel");
    }

    /**
     * {@link #enqueue} of a kernel whose work-items cooperate in runs of {@code group} (a power of
     * two): the work-group size is a multiple of it, and argument {@code flagsArg} becomes the
     * kernel's local memory, an {@code int} a work-item.
     *
     * @throws IllegalArgumentException if the device's work-groups cannot hold whole runs
     */
    public void enqueueGroups(MemorySegment kernel, long global, int group, int flagsArg) {
        open();
        if (global <= 0) {
            return;
        }
        long local = workGroup(global);
        if (local % group != 0) {
            throw new IllegalArgumentException("a search group of " + group + " work-items does not divide the"
                    + " work-group size " + local + " of " + device.name() + ": use a smaller group");
        }
        Cl.check(Cl.clSetKernelArg(kernel, flagsArg, 4 * local, MemorySegment.NULL), "clSetKernelArg(" + flagsArg + ", local)");
        sizes.setAtIndex(JAVA_LONG, 0, (global + local - 1) / local * local);
        sizes.setAtIndex(JAVA_LONG, 1, local);
        Cl.check(Cl.clEnqueueNDRangeKernel(queue, kernel, sizes, sizes.asSlice(JAVA_LONG.byteSize())),
                "clEnqueueNDRangeKernel");
    }

    /** Waits until the queue has run everything enqueued. */
    public void finish() {
        open();
        Cl.check(Cl.clFinish(queue), "clFinish");
    }

    /** Whether {@link #close()} was called. */
    public boolean isClosed() {
        return closed;
    }

    /** Device buffers this context holds now (a leak check's figure). */
    public int liveBuffers() {
        return buffers.size();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        // Release everything even if one release fails, then report the first failure.
        OpenClException first = null;
        for (MemorySegment k : kernels) {
            first = keep(first, Cl.clReleaseKernel(k), "clReleaseKernel");
        }
        for (MemorySegment p : programs) {
            first = keep(first, Cl.clReleaseProgram(p), "clReleaseProgram");
        }
        for (MemorySegment b : buffers) {
            first = keep(first, Cl.clReleaseMemObject(b), "clReleaseMemObject");
        }
        kernels.clear();
        programs.clear();
        buffers.clear();
        first = keep(first, Cl.clReleaseCommandQueue(queue), "clReleaseCommandQueue");
        first = keep(first, Cl.clReleaseContext(context), "clReleaseContext");
        arena.close();
        if (first != null) {
            throw first;
        }
    }

    private static OpenClException keep(OpenClException first, int status, String call) {
        if (first == null && status != Cl.CL_SUCCESS) {
            return new OpenClException(call + " failed: " + ClErrors.name(status) + " (" + status + ")", status);
        }
        return first;
    }
}
