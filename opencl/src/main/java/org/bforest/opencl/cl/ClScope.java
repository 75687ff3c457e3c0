package org.bforest.opencl.cl;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.bforest.opencl.OpenClException;

/**
 * What one structure holds in a device's {@linkplain ClContext#shared shared context}: its
 * buffers ({@link ClBuffer}) and kernels ({@link PageKernels}), released together by
 * {@link #close()}, after which every call throws {@link IllegalStateException}. The context, its queue and its built programs outlive it, so a
 * new structure costs a few buffers and kernel objects, not a context and a compile.
 *
 * <p>Every call synchronises on the context ({@link #lock()}), one call at a time: a structure
 * orders its own calls under a lock of its own, so that while one structure plans a batch on the
 * host another one's commands reach the device (kernel objects and their arguments are a scope's
 * own, and the queue is in order).
 *
 * <h2>Failures</h2>
 * A command that fails marks the context broken ({@link ClContext#broken}): this scope keeps it,
 * new scopes get a fresh one. {@link #touch} and {@link #settle} let a batch commit every buffer
 * it will use before it changes anything (a driver that allocates lazily reports a device out of
 * memory at first use); {@link #failAt} makes a chosen later call fail, for tests.
 *
 * <h2>Where the time goes</h2>
 * Every command carries an event; at each blocking call the finished commands' device times are
 * added up, kernels apart from transfers, and so is the time the host spent waiting in blocking
 * calls ({@link #times}), and inside the driver's calls that do not wait, with the calls made: on
 * a GPU's driver a call can cost more than the Java work around it; these say whether it does.
 */
public final class ClScope implements AutoCloseable {
    private final ClContext ctx;
    private final Set<ClBuffer> buffers = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<MemorySegment> kernels = Collections.newSetFromMap(new IdentityHashMap<>());
    private boolean closed;
    /**
     * Pinned host memory for writes in flight ({@link #writeLongs}, {@link #writeInts}, which do
     * not wait): handed out from its start again after every blocking call of this scope (by then
     * the in-order queue has passed every write enqueued before it). A write that does not fit
     * starts a buffer twice as large (the old one is released at the next blocking call); the
     * largest is kept, since pinning memory is slow, and counted in {@link #hostBytes}.
     */
    private MemorySegment[] stage;
    private long stageUsed;
    /** Blocking calls so far ({@link #landed}), and their count when {@link #stage} handed memory out. */
    private long landings;
    private long stagedAt = -1;
    private final List<MemorySegment[]> retired = new ArrayList<>();
    /** Pinned host memory of the reads (they block): one read a call, however large. */
    private MemorySegment[] bounce;
    /** Pinned host memory of the reads in flight ({@link #readLater}), a slot each, and their events. */
    private final MemorySegment[][] later = new MemorySegment[2][];
    private final MemorySegment[] laterEvent = new MemorySegment[2];
    /** Small host memory of this scope's own: the event slot. */
    private final Arena arena = Arena.ofShared();
    private final MemorySegment eventSlot = arena.allocate(ValueLayout.ADDRESS);
    /** Events of commands not yet known to be finished, and what each was (KERNEL or TRANSFER). */
    private MemorySegment[] events = new MemorySegment[64];
    private byte[] eventKinds = new byte[64];
    private int pending;
    private static final byte KERNEL = 0;
    private static final byte TRANSFER = 1;
    /** The length of {@link #times(long[])}'s array. */
    public static final int TIMES = 5;
    /** Device ns in kernels [0], transfers [1]; host ns blocked [2], in other driver calls [3]; calls [4]. */
    private final long[] times = new long[TIMES];
    /** Whether a fill ({@link #touch}) was enqueued since the last blocking call. */
    private boolean touched;
    /** Tests: the failures injected ({@link #failAt}, {@link #failCommandAt}). */
    private final Faults faults = new Faults();
    /** Past a write batch's point of no return ({@link #seal}): no pinned memory may be allocated. */
    private boolean sealed;

    /** A scope in {@code device}'s shared context. */
    public ClScope(ClDevice device) {
        this.ctx = ClContext.join(device);
    }

    /** The monitor that orders this device's queue. */
    public Object lock() {
        return ctx;
    }

    public ClDevice device() {
        return ctx.device();
    }

    private void open() {
        if (closed) {
            throw new IllegalStateException("this OpenCL scope was closed (its index was closed): create a new one");
        }
    }

    /**
     * Counts a device call, and down to an injected failure ({@link #failAt}); called under the
     * context's monitor before every call that reaches the driver. Returns the time the call
     * starts, for {@link #enqueued} or {@link #driver}.
     */
    private long call(String what, boolean queue) {
        open();
        times[4]++;
        OpenClException e = faults.call(what);
        if (e != null) {
            if (queue) {
                ctx.breakWith(e);   // as a real failure of a queued command does
            }
            throw e;
        }
        return System.nanoTime();
    }

    /**
     * For tests: the {@code n}-th device call from now (1: the next) fails with {@code status}
     * instead of reaching the driver, as the driver's own failure would (a failed command on the
     * queue marks the context broken); 0 cancels. Calls are buffer creations, transfers, fills,
     * launches and waits.
     */
    public void failAt(long n, int status) {
        synchronized (ctx) {
            faults.callIn = n;
            faults.callStatus = status;
        }
    }

    /**
     * For tests: the {@code n}-th device call from now (1: the next) reaches the driver and
     * succeeds, but its command (or, for a call that enqueues none, the next command) fails on the
     * device with {@code status}: its event says so, and the next blocking call, which the driver
     * lets succeed, finds it there, as it would a driver's lazy allocation that failed; 0 cancels.
     */
    public void failCommandAt(long n, int status) {
        synchronized (ctx) {
            faults.commandIn = n;
            faults.commandStatus = status;
            faults.event = -1;
        }
    }

    /** Device calls until the injected failure (0: none armed, or it has happened). */
    public long faultIn() {
        synchronized (ctx) {
            return faults.callIn;
        }
    }

    /** Why the context is handed to no new structure (see {@link ClContext#broken}), or null. */
    public OpenClException broken() {
        return ctx.broken();
    }

    public ClBuffer buffer(long bytes) {
        synchronized (ctx) {
            long t0 = call("clCreateBuffer(" + bytes + " bytes)", false);
            ClBuffer b = new ClBuffer(ctx.buffer(bytes));
            driver(t0);
            buffers.add(b);
            return b;
        }
    }

    /**
     * For tests: device buffers of this scope's context (every scope on the device) fail to be
     * created as a full device's do ({@code CL_MEM_OBJECT_ALLOCATION_FAILURE}) once they would hold
     * more than {@code bytes} together; {@code Long.MAX_VALUE} lifts it. Returns the bytes they hold.
     */
    public long limitDeviceBytes(long bytes) {
        return ctx.limitDeviceBytes(bytes);
    }

    public void release(ClBuffer buffer) {
        synchronized (ctx) {
            open();
            if (buffers.remove(buffer)) {
                long t0 = System.nanoTime();
                ctx.release(buffer.mem);
                driver(t0);
            }
        }
    }

    /**
     * Enqueues a fill of {@code bytes} bytes of {@code buffer} from {@code offset}: the memory is
     * committed on the device, so that a lazy driver's out of memory shows at {@link #settle},
     * not in the middle of a batch.
     */
    public void touch(ClBuffer buffer, long offset, long bytes) {
        synchronized (ctx) {
            if (bytes <= 0) {
                return;
            }
            long t0 = call("clEnqueueFillBuffer", true);
            ctx.fill(buffer.mem, offset, bytes, eventSlot);
            enqueued(TRANSFER, t0);
            touched = true;
        }
    }

    /**
     * Until {@link #unseal}, this scope allocates no pinned memory (checked with assertions on): a
     * write batch past its point of no return reserved all it uses ({@link #reserveHost}).
     */
    public void seal() {
        synchronized (ctx) {
            sealed = true;
        }
    }

    /** Ends {@link #seal}. */
    public void unseal() {
        synchronized (ctx) {
            sealed = false;
        }
    }

    /** Waits for the fills of {@link #touch} since the last blocking call, if there were any. */
    public void settle() {
        synchronized (ctx) {
            if (touched) {
                finish();
            }
        }
    }

    /** Adds the time since {@code t0} to the host's time inside the driver's calls that do not block. */
    private void driver(long t0) {
        times[3] += System.nanoTime() - t0;
    }

    /** Runs a call that blocks on the device, its time counted as the host's time blocked ({@link #times}). */
    private void blocking(Runnable call) {
        long t0 = System.nanoTime();
        try {
            call.run();
        } finally {
            times[2] += System.nanoTime() - t0;
        }
    }

    /** {@link #blocking(Runnable)} for a call with a result. */
    private <T> T blockingGet(java.util.function.Supplier<T> call) {
        long t0 = System.nanoTime();
        try {
            return call.get();
        } finally {
            times[2] += System.nanoTime() - t0;
        }
    }

    /** Waits until the queue has run everything enqueued: a failure of any of it shows here. */
    public void finish() {
        synchronized (ctx) {
            call("clFinish", true);
            blocking(ctx::finish);
            landed();
        }
    }

    /**
     * Writes all of {@code src} to the start of {@code buffer} and waits (a bulk load's pages),
     * in parts through host memory of its own ({@link BulkTransfer}), not the staging buffer.
     */
    public void upload(ClBuffer buffer, long[] src) {
        BulkTransfer.run(this, buffer, src, ValueLayout.JAVA_LONG, src.length, true);
    }

    /** {@link #upload(ClBuffer, long[])} of ints. */
    public void upload(ClBuffer buffer, int[] src) {
        BulkTransfer.run(this, buffer, src, ValueLayout.JAVA_INT, src.length, true);
    }

    /**
     * Reads the first {@code out.length} longs of {@code buffer} into {@code out} (blocking; the
     * invariant checker's read of every page), as {@link #upload} writes: not through the bounce
     * buffer, which a tree's memory figure counts.
     */
    public void download(ClBuffer buffer, long[] out) {
        BulkTransfer.run(this, buffer, out, ValueLayout.JAVA_LONG, out.length, false);
    }

    /** {@link #download(ClBuffer, long[])} of ints. */
    public void download(ClBuffer buffer, int[] out) {
        BulkTransfer.run(this, buffer, out, ValueLayout.JAVA_INT, out.length, false);
    }

    /** One blocking transfer of all of {@code host} to ({@code up}) or from byte {@code offset} of {@code buffer}. */
    void transferNow(ClBuffer buffer, long offset, MemorySegment host, boolean up) {
        synchronized (ctx) {
            call(up ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer", true);
            blocking(() -> {
                if (up) {
                    ctx.write(buffer.mem, offset, host);
                } else {
                    ctx.read(buffer.mem, offset, host);
                }
            });
            landed();
        }
    }

    /**
     * Writes {@code n} longs of {@code src} from index {@code from} to byte {@code offset} of
     * {@code buffer} without waiting (the queue is in order, so what runs after it sees it; the
     * host goes on preparing the next launch meanwhile): the data goes through the staging buffer.
     */
    public void writeLongs(ClBuffer buffer, long offset, long[] src, int from, int n) {
        write(buffer, offset, src, ValueLayout.JAVA_LONG, from, n);
    }

    /** {@link #writeLongs} of ints. */
    public void writeInts(ClBuffer buffer, long offset, int[] src, int from, int n) {
        write(buffer, offset, src, ValueLayout.JAVA_INT, from, n);
    }

    /** {@link #writeLongs} of the array {@code src} of {@code layout}'s elements. */
    private void write(ClBuffer buffer, long offset, Object src, ValueLayout layout, int from, int n) {
        synchronized (ctx) {
            open();
            long bytes = layout.byteSize() * n;
            if (n == 0) {
                return;
            }
            MemorySegment h = staging(bytes);
            MemorySegment.copy(src, from, h, layout, 0, n);
            long t0 = call("clEnqueueWriteBuffer", true);
            ctx.writeAsync(buffer.mem, offset, h, eventSlot);
            enqueued(TRANSFER, t0);
        }
    }

    /**
     * Pinned staging memory of {@code bytes} for the caller to fill (from any thread) and then send
     * with {@link #writeStaged}: a write without the copy of {@link #writeLongs}, for host work
     * that produces its data straight into the memory the device reads. No blocking call of this
     * scope may come between the two ({@link #writeStaged} throws if one did: the memory may have
     * been handed out again); size the device buffers first.
     */
    public MemorySegment stage(long bytes) {
        synchronized (ctx) {
            open();
            MemorySegment m = staging(Math.max(1, bytes));   // may wait (new pinned memory): before the mark
            stagedAt = landings;
            return m;
        }
    }

    /** Writes {@code staged} (from {@link #stage}) to byte {@code offset} of {@code buffer} without waiting. */
    public void writeStaged(ClBuffer buffer, long offset, MemorySegment staged) {
        synchronized (ctx) {
            open();
            if (stagedAt != landings) {
                throw new IllegalStateException("staged memory outlived its scope's blocking call: stage after sizing the buffers");
            }
            long t0 = call("clEnqueueWriteBuffer", true);
            ctx.writeAsync(buffer.mem, offset, staged, eventSlot);
            enqueued(TRANSFER, t0);
        }
    }

    /** The staging memory a write of {@code bytes} takes (each starts 64-byte aligned), for {@link #reserveHost}. */
    public static long staged(long bytes) {
        return (bytes + 63) & ~63L;
    }

    /** Host memory for a write in flight, valid until the scope's next blocking call. */
    private MemorySegment staging(long bytes) {
        long need = staged(bytes);
        if (stage == null || stageUsed + need > stage[1].byteSize()) {
            long size = Math.max(need, stage == null ? 1 << 12 : 2 * stage[1].byteSize());
            MemorySegment[] fresh = pinned(size);
            if (stage != null) {
                retired.add(stage);   // writes in flight may still read it
            }
            stage = fresh;
            stageUsed = 0;
        }
        MemorySegment m = stage[1].asSlice(stageUsed, bytes);
        stageUsed += need;
        return m;
    }

    /**
     * Makes room, before a batch changes anything, for {@code stageBytes} more bytes of writes
     * before the next blocking call and a read of {@code readBytes}: the pinned memory they will
     * use is allocated now, so that no host allocation can fail once the batch has begun.
     */
    public void reserveHost(long stageBytes, long readBytes) {
        synchronized (ctx) {
            open();
            if (stage == null || stageUsed + stageBytes > stage[1].byteSize()) {
                long size = Math.max(stageUsed + stageBytes, stage == null ? 1 << 12 : 2 * stage[1].byteSize());
                MemorySegment[] fresh = pinned(size);
                if (stage != null) {
                    retired.add(stage);   // writes in flight may still read it
                }
                stage = fresh;
                stageUsed = 0;
            }
            if (readBytes > 0) {
                bounce(readBytes);
            }
        }
    }

    /** New pinned memory: mapping it waits for the queue (a blocking call), so the wait counts as blocked. */
    private MemorySegment[] pinned(long bytes) {
        assert !sealed : "pinned memory (" + bytes + " bytes) allocated past a write batch's point of no return";
        call("clCreateBuffer(" + bytes + " bytes of pinned host memory)", false);
        return blockingGet(() -> ctx.pinned(bytes));
    }

    /** Reads {@code n} longs at byte {@code offset} of {@code buffer} into {@code out} from index {@code to} (blocking). */
    public void readLongs(ClBuffer buffer, long offset, long[] out, int to, int n) {
        read(buffer, offset, out, ValueLayout.JAVA_LONG, to, n);
    }

    /** Reads {@code n} ints at byte {@code offset} of {@code buffer} into {@code out} from index {@code to} (blocking). */
    public void readInts(ClBuffer buffer, long offset, int[] out, int to, int n) {
        read(buffer, offset, out, ValueLayout.JAVA_INT, to, n);
    }

    /** {@link #readLongs} into the array {@code out} of {@code layout}'s elements, through the bounce buffer: one read. */
    private void read(ClBuffer buffer, long offset, Object out, ValueLayout layout, int to, int n) {
        synchronized (ctx) {
            open();
            if (n == 0) {
                return;
            }
            long bytes = layout.byteSize() * n;
            MemorySegment h = bounce(bytes);
            call("clEnqueueReadBuffer", true);
            blocking(() -> ctx.read(buffer.mem, offset, h, eventSlot));
            recorded(TRANSFER);
            MemorySegment.copy(h, layout, 0, out, to, n);
            landed();
        }
    }

    /**
     * Reads {@code bytes} bytes at byte {@code offset} of {@code buffer} into this scope's pinned
     * bounce memory (blocking) and returns that memory, for a caller that copies it out itself (in
     * parts over several threads): valid until the scope's next read.
     */
    public MemorySegment readBounced(ClBuffer buffer, long offset, long bytes) {
        synchronized (ctx) {
            open();
            if (bytes == 0) {
                return MemorySegment.NULL;
            }
            MemorySegment h = bounce(bytes);
            call("clEnqueueReadBuffer", true);
            blocking(() -> ctx.read(buffer.mem, offset, h, eventSlot));
            recorded(TRANSFER);
            landed();
            return h;
        }
    }

    /**
     * Enqueues a read of {@code bytes} bytes at byte {@code offset} of {@code buffer} into this
     * scope's pinned memory of {@code slot} (0 or 1) without waiting: the host goes on (with the
     * next batch's host work, say) while the device gets there; {@link #awaitRead} waits for it.
     * Two reads in flight at most, one a slot; {@link #afterReads} when both are collected.
     */
    public void readLater(ClBuffer buffer, long offset, long bytes, int slot) {
        synchronized (ctx) {
            open();
            if (later[slot] == null || later[slot][1].byteSize() < bytes) {
                long size = Math.max(Math.max(bytes, 64), later[slot] == null ? 0 : 2 * later[slot][1].byteSize());
                MemorySegment[] fresh = pinned(size);
                if (later[slot] != null) {
                    ctx.releasePinned(later[slot]);
                }
                later[slot] = fresh;
            }
            long t0 = call("clEnqueueReadBuffer", true);
            ctx.readAsync(buffer.mem, offset, later[slot][1].asSlice(0, bytes), eventSlot);
            enqueued(TRANSFER, t0);
            laterEvent[slot] = events[pending - 1];
        }
    }

    /** Waits for the read {@link #readLater} put in {@code slot}; returns its host memory (valid until the slot's next read). */
    public MemorySegment awaitRead(int slot) {
        synchronized (ctx) {
            open();
            if (laterEvent[slot] != null) {   // else a blocking call since has waited for it
                call("clWaitForEvents", true);
                blocking(() -> ctx.await(laterEvent[slot]));
                laterEvent[slot] = null;
            }
            return later[slot][1];
        }
    }

    /**
     * After the last {@link #awaitRead} of a batch: the queue has passed every command enqueued
     * before that read (it is in order), so staging and events are settled as after any blocking call.
     */
    public void afterReads() {
        synchronized (ctx) {
            if (laterEvent[0] == null && laterEvent[1] == null) {
                landed();
            }
        }
    }

    /**
     * The first {@code bytes} of the pinned bounce buffer, grown (to twice its size at least) when
     * a read needs more.
     */
    private MemorySegment bounce(long bytes) {
        if (bounce == null || bounce[1].byteSize() < bytes) {
            long size = Math.max(bytes, bounce == null ? 1 << 12 : 2 * bounce[1].byteSize());
            MemorySegment[] fresh = pinned(size);
            if (bounce != null) {
                ctx.releasePinned(bounce);
            }
            bounce = fresh;
        }
        return bounce[1].asSlice(0, bytes);
    }

    /** Host bytes this scope keeps for transfers (the pinned staging and bounce buffers). */
    public long hostBytes() {
        synchronized (ctx) {
            long b = (stage == null ? 0 : stage[1].byteSize()) + (bounce == null ? 0 : bounce[1].byteSize());
            for (MemorySegment[] l : later) {
                b += l == null ? 0 : l[1].byteSize();
            }
            return b;
        }
    }

    /** A command enqueued by a driver call that began at {@code t0} and does not wait: its time and its event. */
    private void enqueued(byte kind, long t0) {
        driver(t0);
        recorded(kind);
    }

    /** The event of the command just enqueued, kept until the next blocking call says it finished. */
    private void recorded(byte kind) {
        if (pending == events.length) {
            events = Arrays.copyOf(events, 2 * pending);
            eventKinds = Arrays.copyOf(eventKinds, 2 * pending);
        }
        faults.recorded(pending);
        events[pending] = eventSlot.get(ValueLayout.ADDRESS, 0);
        eventKinds[pending++] = kind;
    }

    /**
     * After a blocking call: the queue has passed every command enqueued before it. A command
     * whose event says it failed fails the call, as a failed call would (the context broken
     * unless memory ran out): the blocking call's own success does not vouch for the commands
     * before it (the OpenCL specification reports a command's failure in its event).
     */
    private void landed() {
        long t0 = System.nanoTime();
        stageUsed = 0;
        landings++;
        touched = false;
        laterEvent[0] = laterEvent[1] = null;   // reads in flight have landed too (their memory stays)
        for (MemorySegment[] r : retired) {
            ctx.releasePinned(r);
        }
        retired.clear();
        int failed = Cl.CL_SUCCESS;
        byte failedKind = KERNEL;
        for (int i = 0; i < pending; i++) {
            int status = faults.status(i, ctx.drain(events[i], times, eventKinds[i] == KERNEL ? 0 : 1));
            if (status < 0 && failed == Cl.CL_SUCCESS) {
                failed = status;
                failedKind = eventKinds[i];
            }
            events[i] = null;
        }
        pending = 0;
        driver(t0);
        ctx.checkQueue(failed, failedKind == KERNEL ? "a kernel launch (its event's status)"
                : "a transfer or fill (its event's status)");
    }

    /**
     * Adds to {@code into} (of {@link #TIMES} longs) the device nanoseconds of this scope's finished
     * kernels ({@code [0]}) and transfers ({@code [1]}, fills and copies too), the host's
     * nanoseconds waiting in blocking calls ({@code [2]}) and inside the driver's calls that do not
     * block ({@code [3]}: enqueues, creations and releases, the events' queries; not the setting of
     * kernel arguments), and the device calls made ({@code [4]}: those {@link #failAt} counts),
     * since the scope was made.
     */
    public void times(long[] into) {
        synchronized (ctx) {
            for (int i = 0; i < TIMES; i++) {
                into[i] += times[i];
            }
        }
    }

    public void copy(ClBuffer src, long srcOffset, ClBuffer dst, long dstOffset, long bytes) {
        synchronized (ctx) {
            if (bytes <= 0) {
                return;
            }
            call("clEnqueueCopyBuffer", true);
            blocking(() -> ctx.copy(src.mem, srcOffset, dst.mem, dstOffset, bytes, eventSlot));
            recorded(TRANSFER);
            landed();   // the copy waited for the queue
        }
    }

    /**
     * The built program of a kernel source resource (see {@link ClContext#resource}) with the
     * compiler's {@code options}, built once per device and options.
     */
    MemorySegment program(String resource, String options) {
        synchronized (ctx) {
            open();
            return ctx.cachedProgram(ClContext.resource(resource), options);
        }
    }

    /**
     * The built program of {@code source} (kernel source text made at run time), built once per
     * device and source; a source that does not build throws {@link OpenClException} with the
     * compiler's log, and is not kept.
     */
    MemorySegment programOf(String source) {
        synchronized (ctx) {
            open();
            return ctx.cachedProgram(source, "");
        }
    }

    /** Releases a kernel object of this scope's before the scope closes (a cache that drops it). */
    void releaseKernel(MemorySegment kernel) {
        synchronized (ctx) {
            open();
            if (kernels.remove(kernel)) {
                long t0 = System.nanoTime();
                ctx.releaseKernel(kernel);
                driver(t0);
            }
        }
    }

    /** A launch in work-groups of exactly {@code local} (see {@link ClContext#enqueueLocal}). */
    void enqueueLocal(MemorySegment kernel, long global, long local) {
        synchronized (ctx) {
            if (global <= 0) {
                return;
            }
            long t0 = call("clEnqueueNDRangeKernel", true);
            ctx.enqueueLocal(kernel, global, local, eventSlot);
            enqueued(KERNEL, t0);
        }
    }

    /** A kernel object of this scope's own (kernel objects hold their arguments: see {@link PageKernels}). */
    MemorySegment kernel(MemorySegment program, String name) {
        synchronized (ctx) {
            open();
            long t0 = System.nanoTime();
            MemorySegment k = ctx.kernel(program, name);
            driver(t0);
            kernels.add(k);
            return k;
        }
    }

    void arg(MemorySegment kernel, int index, ClBuffer buffer) {
        synchronized (ctx) {
            open();
            ctx.arg(kernel, index, buffer.mem);
        }
    }

    void arg(MemorySegment kernel, int index, int value) {
        synchronized (ctx) {
            open();
            ctx.arg(kernel, index, value);
        }
    }

    void arg(MemorySegment kernel, int index, long value) {
        synchronized (ctx) {
            open();
            ctx.arg(kernel, index, value);
        }
    }

    void enqueue(MemorySegment kernel, long global) {
        synchronized (ctx) {
            if (global <= 0) {
                return;
            }
            long t0 = call("clEnqueueNDRangeKernel", true);
            ctx.enqueue(kernel, global, eventSlot);
            enqueued(KERNEL, t0);
        }
    }

    void enqueueGroups(MemorySegment kernel, long global, int group, int flagsArg) {
        synchronized (ctx) {
            if (global <= 0) {
                return;
            }
            long t0 = call("clEnqueueNDRangeKernel", true);
            ctx.enqueueGroups(kernel, global, group, flagsArg, eventSlot);
            enqueued(KERNEL, t0);
        }
    }

    /** Buffers this scope holds now (a leak check's figure). */
    public int liveBuffers() {
        synchronized (ctx) {
            return buffers.size();
        }
    }

    public boolean isClosed() {
        synchronized (ctx) {
            return closed;
        }
    }

    /** Releases this scope's kernels and buffers (idempotent); reports the first failure after releasing all. */
    @Override
    public void close() {
        synchronized (ctx) {
            if (closed) {
                return;
            }
            closed = true;
            OpenClException first = null;
            if (pending > 0 || !retired.isEmpty()) {
                try {
                    ctx.finish();   // writes in flight read the staging memory released below
                } catch (OpenClException e) {
                    first = e;
                }
            }
            try {
                landed();
            } catch (OpenClException e) {
                first = first == null ? e : first;
            }
            for (MemorySegment[] p : new MemorySegment[][] {stage, bounce, later[0], later[1]}) {
                if (p != null) {
                    try {
                        ctx.releasePinned(p);
                    } catch (OpenClException e) {
                        first = first == null ? e : first;
                    }
                }
            }
            stage = bounce = later[0] = later[1] = null;
            arena.close();
            for (MemorySegment k : kernels) {
                try {
                    ctx.releaseKernel(k);
                } catch (OpenClException e) {
                    first = first == null ? e : first;
                }
            }
            for (ClBuffer b : buffers) {
                try {
                    ctx.release(b.mem);
                } catch (OpenClException e) {
                    first = first == null ? e : first;
                }
            }
            kernels.clear();
            buffers.clear();
            ctx.closedScope();
            DeviceMemory.closed();
            if (first != null) {
                throw first;
            }
        }
    }
}
