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
    /**
     * Every memory object this context created, with its device bytes ({@link #buffer}; 0 for the
     * pinned host memory of {@link #pinned}); their sum, and a test's limit on it.
     */
    private final Map<MemorySegment, Long> buffers = new IdentityHashMap<>();
    private long deviceBytes;
    private long deviceLimit = Long.MAX_VALUE;
    private final List<MemorySegment> programs = new ArrayList<>();
    private final Set<MemorySegment> kernels = Collections.newSetFromMap(new IdentityHashMap<>());
    /** Small scratch for arguments and status words, one owner, so one arena for the context's life. */
    private final Arena arena = Arena.ofShared();
    private final MemorySegment errcode = arena.allocate(JAVA_INT);
    private final MemorySegment argSlot = arena.allocate(JAVA_LONG);
    private final MemorySegment sizes = arena.allocate(JAVA_LONG, 2);
    /** The pattern of {@link #fill}: 128 zero bytes. */
    private final MemorySegment zeros = arena.allocate(128, 128);
    private boolean closed;
    /**
     * Why this context is no longer handed to new structures: a command on its queue failed. A
     * driver's errors are sticky (after a kernel fault an NVIDIA context stays dead until the
     * process ends), so new structures get a fresh context ({@link #shared}); the structures
     * already in this one keep it, and it is released when the last of them closes.
     */
    private volatile OpenClException broken;
    /** The {@link ClScope}s open in this context (a broken one is released when they are all closed). */
    private int scopes;
    /** The work-group sizes of {@link #enqueue}: small launches, and large ones on a GPU. */
    private static final long SMALL_GROUP = 64;
    private static final long SMALL_LAUNCH = 1 << 16;
    private static final long GPU_GROUP = 256;
    private final Map<String, MemorySegment> built = new HashMap<>();
    /** The builds that failed, by the same key as {@link #built}: asked again, they fail again at once. */
    private final Map<String, OpenClException> failedBuilds = new HashMap<>();
    /** The statuses of a build that fails the same way every time: the source's or the options' fault. */
    private static final int BUILD_PROGRAM_FAILURE = -11;
    private static final int INVALID_BUILD_OPTIONS = -43;
    /** How many times {@link #program} called the compiler. */
    private int compilations;
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
        // Profiling on: every command's event says how long the device spent on it (the per-phase
        // times of a batch, see ClScope); it costs two timestamps a command.
        MemorySegment props = arena.allocate(JAVA_LONG, 3);
        props.setAtIndex(JAVA_LONG, 0, Cl.CL_QUEUE_PROPERTIES);
        props.setAtIndex(JAVA_LONG, 1, Cl.CL_QUEUE_PROFILING_ENABLE);
        props.setAtIndex(JAVA_LONG, 2, 0);
        MemorySegment q = Cl.clCreateCommandQueueWithProperties(context, device.id(), props, errcode);
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
            if (c == null || c.broken != null) {
                c = new ClContext(device);
                SHARED.put(device.id().address(), c);
            }
            return c;
        }
    }

    /**
     * {@link #shared}, counted as one more scope's ({@link #scopes}) in the same step, so that a
     * context being broken and released by its last scope meanwhile cannot be handed out.
     */
    static ClContext join(ClDevice device) {
        synchronized (SHARED) {
            ClContext c = shared(device);
            synchronized (c) {
                c.scopes++;
            }
            return c;
        }
    }

    /** A scope of this context closed: a broken context is released with its last scope. */
    synchronized void closedScope() {
        scopes--;
        if (scopes == 0 && broken != null && !closed) {
            try {
                close();
            } catch (OpenClException e) {
                // A dead context may refuse its releases too; nothing more can be given back.
            }
        }
    }

    /** Why this context is handed to no new structure, or null while it is sound. */
    public OpenClException broken() {
        return broken;
    }

    /**
     * Checks the status of a command on the queue: a failure throws, and marks the context broken
     * (see {@link #broken}) unless it was memory running out (device or host), after which a
     * context goes on.
     */
    void checkQueue(int status, String call) {
        if (status != Cl.CL_SUCCESS) {
            OpenClException e = new OpenClException(call + " failed on " + device.name() + ": "
                    + ClErrors.name(status) + " (" + status + ")", status);
            if (status != CL_MEM_OBJECT_ALLOCATION_FAILURE && status != CL_OUT_OF_HOST_MEMORY) {
                breakWith(e);   // running out of memory leaves a context usable; a fault does not
            }
            throw e;
        }
    }

    private static final int CL_MEM_OBJECT_ALLOCATION_FAILURE = -4;
    private static final int CL_OUT_OF_HOST_MEMORY = -6;

    /** Marks this context broken (the first cause is kept) and takes it out of the shared map. */
    void breakWith(OpenClException cause) {
        synchronized (SHARED) {
            if (broken == null) {
                broken = cause;
            }
            SHARED.remove(device.id().address(), this);
        }
    }

    /**
     * {@link #program} built once per source and options in this context, then reused. A build
     * that fails is remembered too: asking again for the same source and options throws an
     * {@link OpenClException} with the same message (the compiler's log) and status, without
     * compiling again.
     */
    public synchronized MemorySegment cachedProgram(String source, String options) {
        String key = options + "\u0000" + source;
        MemorySegment p = built.get(key);
        if (p == null) {
            OpenClException failure = failedBuilds.get(key);
            if (failure != null) {
                throw new OpenClException(failure.getMessage(), failure.status());
            }
            try {
                p = program(source, options);
            } catch (OpenClException e) {
                if (e.status() == BUILD_PROGRAM_FAILURE || e.status() == INVALID_BUILD_OPTIONS) {
                    failedBuilds.put(key, e);
                }
                throw e;
            }
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
        if (deviceBytes + bytes > deviceLimit) {
            throw new OpenClException("clCreateBuffer(" + bytes + " bytes) failed: CL_MEM_OBJECT_ALLOCATION_FAILURE"
                    + " (-4) (a test's limit of " + deviceLimit + " device bytes, " + deviceBytes + " held)",
                    CL_MEM_OBJECT_ALLOCATION_FAILURE);
        }
        MemorySegment mem = Cl.clCreateBuffer(context, Cl.CL_MEM_READ_WRITE, bytes, MemorySegment.NULL, errcode);
        Cl.check(errcode, "clCreateBuffer(" + bytes + " bytes)");
        buffers.put(mem, bytes);
        deviceBytes += bytes;
        return mem;
    }

    /** {@link ClScope#limitDeviceBytes}: returns the device bytes the buffers hold now. */
    synchronized long limitDeviceBytes(long bytes) {
        deviceLimit = bytes;
        return deviceBytes;
    }

    /** Releases a buffer this context created. */
    public synchronized void release(MemorySegment mem) {
        open();
        Long size = buffers.remove(mem);
        if (size != null) {
            deviceBytes -= size;
            Cl.check(Cl.clReleaseMemObject(mem), "clReleaseMemObject");
        }
    }

    /** Copies {@code src} (host memory) to byte {@code offset} of {@code mem}; blocks until done. */
    public void write(MemorySegment mem, long offset, MemorySegment src) {
        open();
        checkQueue(Cl.clEnqueueWriteBuffer(queue, mem, offset, src.byteSize(), src), "clEnqueueWriteBuffer");
    }

    /**
     * Enqueues a copy of {@code src} (host memory) to byte {@code offset} of {@code mem} and
     * returns at once: {@code src} must stay valid until a later blocking call on this context.
     */
    public void writeAsync(MemorySegment mem, long offset, MemorySegment src, MemorySegment event) {
        open();
        checkQueue(Cl.clEnqueueWriteBuffer(queue, mem, false, offset, src.byteSize(), src, event),
                "clEnqueueWriteBuffer");
    }

    /** Copies {@code dst.byteSize()} bytes at byte {@code offset} of {@code mem} to {@code dst}; blocks until done. */
    public void read(MemorySegment mem, long offset, MemorySegment dst) {
        read(mem, offset, dst, MemorySegment.NULL);
    }

    /** {@link #read(MemorySegment, long, MemorySegment)}, its event into {@code event} (NULL: none). */
    public void read(MemorySegment mem, long offset, MemorySegment dst, MemorySegment event) {
        open();
        checkQueue(Cl.clEnqueueReadBuffer(queue, mem, true, offset, dst.byteSize(), dst, event),
                "clEnqueueReadBuffer");
    }

    /**
     * Enqueues a copy of {@code dst.byteSize()} bytes at byte {@code offset} of {@code mem} into
     * host memory {@code dst} without waiting; its event goes to {@code event} (see {@link #await}).
     */
    public void readAsync(MemorySegment mem, long offset, MemorySegment dst, MemorySegment event) {
        open();
        checkQueue(Cl.clEnqueueReadBuffer(queue, mem, false, offset, dst.byteSize(), dst, event),
                "clEnqueueReadBuffer");
    }

    /** Waits for the command whose event handle is {@code event}. */
    public void await(MemorySegment event) {
        open();
        argSlot.set(ADDRESS, 0, event);
        checkQueue(Cl.clWaitForEvents(1, argSlot), "clWaitForEvents");
    }

    /** Copies {@code bytes} bytes from {@code src} to {@code dst} on the device; blocks until done. */
    public void copy(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, long bytes,
            MemorySegment event) {
        open();
        if (bytes > 0) {
            checkQueue(Cl.clEnqueueCopyBuffer(queue, src, dst, srcOffset, dstOffset, bytes, event),
                    "clEnqueueCopyBuffer");
            checkQueue(Cl.clFinish(queue), "clFinish");
        }
    }

    /**
     * Enqueues a fill of {@code bytes} bytes of {@code mem} from byte {@code offset} with zeros
     * (not waiting): it touches the memory, which a driver that allocates lazily (NVIDIA's) only
     * then commits, so that a device out of memory shows at the next blocking call.
     */
    public void fill(MemorySegment mem, long offset, long bytes, MemorySegment event) {
        open();
        if (bytes > 0) {
            // The widest pattern (at most 128 bytes, as OpenCL allows) that both ends are a multiple
            // of: a driver may fill a pattern at a time, and a byte at a time is slow.
            long pattern = 128;
            while ((offset % pattern) != 0 || (bytes % pattern) != 0) {
                pattern >>= 1;
            }
            checkQueue(Cl.clEnqueueFillBuffer(queue, mem, zeros, pattern, offset, bytes, event), "clEnqueueFillBuffer");
        }
    }

    /**
     * Host memory the device reaches directly ("pinned": {@code CL_MEM_ALLOC_HOST_PTR}, mapped
     * once): a transfer from or to it is a DMA, and a non-blocking write from it does not wait, as
     * one from ordinary (pageable) memory does on NVIDIA's driver. {@code [0]} the buffer,
     * {@code [1]} its mapping ({@code bytes} long); {@link #releasePinned} gives both back.
     */
    public synchronized MemorySegment[] pinned(long bytes) {
        open();
        MemorySegment mem = Cl.clCreateBuffer(context, Cl.CL_MEM_READ_WRITE | Cl.CL_MEM_ALLOC_HOST_PTR, bytes,
                MemorySegment.NULL, errcode);
        Cl.check(errcode, "clCreateBuffer(" + bytes + " bytes of pinned host memory)");
        MemorySegment mapped = Cl.clEnqueueMapBuffer(queue, mem, Cl.CL_MAP_READ | Cl.CL_MAP_WRITE, bytes, errcode);
        int status = errcode.get(JAVA_INT, 0);
        if (status != Cl.CL_SUCCESS) {
            Cl.clReleaseMemObject(mem);
            checkQueue(status, "clEnqueueMapBuffer(" + bytes + " bytes)");
        }
        buffers.put(mem, 0L);
        return new MemorySegment[] {mem, mapped.reinterpret(bytes)};
    }

    /** Unmaps and releases what {@link #pinned} gave. */
    public synchronized void releasePinned(MemorySegment[] pinned) {
        open();
        if (buffers.remove(pinned[0]) != null) {
            int unmapped = Cl.clEnqueueUnmapMemObject(queue, pinned[0], pinned[1]);
            int released = Cl.clReleaseMemObject(pinned[0]);
            Cl.check(unmapped, "clEnqueueUnmapMemObject");
            Cl.check(released, "clReleaseMemObject");
        }
    }

    /**
     * Adds the device time of a finished command's {@code event} to {@code into[at]} and releases
     * the event; a context whose profiling fails (a broken one) adds nothing. Returns the command's
     * execution status: negative, its error, if it failed (a driver may report a command's failure
     * there only, its queue's blocking call returning success), else {@code CL_COMPLETE} (0); a
     * status that cannot be read counts as complete.
     */
    public int drain(MemorySegment event, long[] into, int at) {
        int status = Cl.CL_SUCCESS;
        if (Cl.clGetEventInfo(event, Cl.CL_EVENT_COMMAND_EXECUTION_STATUS, argSlot) == Cl.CL_SUCCESS) {
            status = Math.min(0, argSlot.get(JAVA_INT, 0));
        }
        if (Cl.clGetEventProfilingInfo(event, Cl.CL_PROFILING_COMMAND_START, argSlot) == Cl.CL_SUCCESS) {
            long start = argSlot.get(JAVA_LONG, 0);
            if (Cl.clGetEventProfilingInfo(event, Cl.CL_PROFILING_COMMAND_END, argSlot) == Cl.CL_SUCCESS) {
                into[at] += Math.max(0, argSlot.get(JAVA_LONG, 0) - start);
            }
        }
        Cl.clReleaseEvent(event);
        return status;
    }

    // ---- programs and kernels -------------------------------------------------------------------

    /** The text of a kernel source shipped as a resource of this module, e.g. {@code "kernels/gpu_btree.cl"}. */
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
     * Compiles {@code source} for this device; a failed build releases the program object and
     * throws an {@link OpenClException} whose message holds the compiler's log.
     */
    public synchronized MemorySegment program(String source, String options) {
        open();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment text = a.allocateFrom(source, StandardCharsets.UTF_8);
            MemorySegment strings = a.allocate(ADDRESS);
            strings.set(ADDRESS, 0, text);
            MemorySegment lengths = a.allocate(JAVA_LONG);
            lengths.set(JAVA_LONG, 0, text.byteSize() - 1);
            MemorySegment program = Cl.clCreateProgramWithSource(context, 1, strings, lengths, errcode);
            Cl.check(errcode, "clCreateProgramWithSource");
            MemorySegment ids = a.allocate(ADDRESS);
            ids.set(ADDRESS, 0, device.id());
            compilations++;
            int status = Cl.clBuildProgram(program, 1, ids, a.allocateFrom(options == null ? "" : options));
            if (status != Cl.CL_SUCCESS) {
                String log = buildLog(a, program);
                // The failed program is of no use: released here, not kept until close().
                Cl.clReleaseProgram(program);
                throw new OpenClException("clBuildProgram failed on " + device.name() + ": "
                        + ClErrors.name(status) + " (" + status + "); the compiler's log:\n" + log, status);
            }
            programs.add(program);
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

    /** A kernel argument's status: the message is built only when there is something to say (a launch sets several). */
    private static void checkArg(int status, int index) {
        if (status != Cl.CL_SUCCESS) {
            Cl.check(status, "clSetKernelArg(" + index + ")");
        }
    }

    /** Argument {@code index} of {@code kernel}: a buffer. */
    public void arg(MemorySegment kernel, int index, MemorySegment mem) {
        open();
        argSlot.set(ADDRESS, 0, mem);
        checkArg(Cl.clSetKernelArg(kernel, index, ADDRESS.byteSize(), argSlot), index);
    }

    /** Argument {@code index} of {@code kernel}: an {@code int}. */
    public void arg(MemorySegment kernel, int index, int value) {
        open();
        argSlot.set(JAVA_INT, 0, value);
        checkArg(Cl.clSetKernelArg(kernel, index, JAVA_INT.byteSize(), argSlot), index);
    }

    /** Argument {@code index} of {@code kernel}: a {@code long}. */
    public void arg(MemorySegment kernel, int index, long value) {
        open();
        argSlot.set(JAVA_LONG, 0, value);
        checkArg(Cl.clSetKernelArg(kernel, index, JAVA_LONG.byteSize(), argSlot), index);
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
        checkQueue(Cl.clEnqueueNDRangeKernel(queue, kernel, sizes, localSize), "clEnqueueNDRangeKernel");
        checkQueue(Cl.clFinish(queue), "clFinish");
    }

    /**
     * Enqueues {@code kernel} over {@code global} work-items without waiting: the queue is in
     * order, so the next read (blocking) or {@link #run} sees its results. A failure of an
     * enqueued kernel surfaces at that next blocking call.
     */
    public void enqueue(MemorySegment kernel, long global, MemorySegment event) {
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
        checkQueue(Cl.clEnqueueNDRangeKernel(queue, kernel, sizes, sizes.asSlice(JAVA_LONG.byteSize()), event),
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
    public void enqueueLocal(MemorySegment kernel, long global, long local, MemorySegment event) {
        open();
        if (global <= 0) {
            return;
        }
        if (local <= 0 || global % local != 0) {
            throw new IllegalArgumentException("a launch of " + global + " work-items in groups of " + local);
        }
        sizes.setAtIndex(JAVA_LONG, 0, global);
        sizes.setAtIndex(JAVA_LONG, 1, local);
        checkQueue(Cl.clEnqueueNDRangeKernel(queue, kernel, sizes, sizes.asSlice(JAVA_LONG.byteSize()), event),
                "clEnqueueNDRangeKernel");
    }

    /**
     * {@link #enqueue} of a kernel whose work-items cooperate in runs of {@code group} (a power of
     * two): the work-group size is a multiple of it, and argument {@code flagsArg} becomes the
     * kernel's local memory, an {@code int} a work-item.
     *
     * @throws IllegalArgumentException if the device's work-groups cannot hold whole runs
     */
    public void enqueueGroups(MemorySegment kernel, long global, int group, int flagsArg, MemorySegment event) {
        open();
        if (global <= 0) {
            return;
        }
        long local = workGroup(global);
        if (local % group != 0) {
            throw new IllegalArgumentException("a search group of " + group + " work-items does not divide the"
                    + " work-group size " + local + " of " + device.name() + ": use a smaller group");
        }
        checkArg(Cl.clSetKernelArg(kernel, flagsArg, 4 * local, MemorySegment.NULL), flagsArg);
        sizes.setAtIndex(JAVA_LONG, 0, (global + local - 1) / local * local);
        sizes.setAtIndex(JAVA_LONG, 1, local);
        checkQueue(Cl.clEnqueueNDRangeKernel(queue, kernel, sizes, sizes.asSlice(JAVA_LONG.byteSize()), event),
                "clEnqueueNDRangeKernel");
    }

    /** Waits until the queue has run everything enqueued. */
    public void finish() {
        open();
        checkQueue(Cl.clFinish(queue), "clFinish");
    }

    /** Whether {@link #close()} was called. */
    public boolean isClosed() {
        return closed;
    }

    /** Programs this context holds now, built ones only (a leak check's figure). */
    public synchronized int livePrograms() {
        return programs.size();
    }

    /** How many times this context has called the compiler ({@code clBuildProgram}). */
    public synchronized int compilations() {
        return compilations;
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
        for (MemorySegment b : buffers.keySet()) {
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
