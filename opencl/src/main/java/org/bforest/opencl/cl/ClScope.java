package org.bforest.opencl.cl;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
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
 * <p>Every call synchronises on the context ({@link #lock()}); a structure that makes several
 * calls in a row (a batch) holds that lock around them, so that its kernels' arguments and the
 * queue's order are its own until it is done.
 */
public final class ClScope implements AutoCloseable {
    private final ClContext ctx;
    private final Set<ClBuffer> buffers = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<MemorySegment> kernels = Collections.newSetFromMap(new IdentityHashMap<>());
    private boolean closed;
    /**
     * Host memory for writes in flight ({@link #writeLongs}, {@link #writeInts}, which do not
     * wait): one buffer, handed out from its start again after every blocking call of this scope
     * (by then the in-order queue has passed every write enqueued before it). A write that does not
     * fit starts a buffer twice as large; the old one is freed at the next blocking call, and so is
     * a buffer larger than {@value #BOUNCE_BYTES} bytes: a large batch allocates its staging, a
     * stream of small ones reuses a few kilobytes, and nothing large is held between batches.
     */
    private Arena stageArena;
    private MemorySegment stage;
    private long stageUsed;
    private final List<Arena> retired = new ArrayList<>();
    /** Host memory of the reads (they block): {@value #BOUNCE_BYTES} bytes at a time at most. */
    private Arena bounceArena;
    private MemorySegment bounce;
    static final int BOUNCE_BYTES = 1 << 20;

    /** A scope in {@code device}'s shared context. */
    public ClScope(ClDevice device) {
        this.ctx = ClContext.shared(device);
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

    public ClBuffer buffer(long bytes) {
        synchronized (ctx) {
            open();
            ClBuffer b = new ClBuffer(ctx.buffer(bytes));
            buffers.add(b);
            return b;
        }
    }

    public void release(ClBuffer buffer) {
        synchronized (ctx) {
            open();
            if (buffers.remove(buffer)) {
                ctx.release(buffer.mem);
            }
        }
    }

    /**
     * Writes all of {@code src} to the start of {@code buffer} and waits (a bulk load's pages):
     * through host memory of its own, freed on return, not the staging buffer.
     */
    public void upload(ClBuffer buffer, long[] src) {
        transfer(buffer, src, ValueLayout.JAVA_LONG, src.length, true);
    }

    /** {@link #upload(ClBuffer, long[])} of ints. */
    public void upload(ClBuffer buffer, int[] src) {
        transfer(buffer, src, ValueLayout.JAVA_INT, src.length, true);
    }

    /**
     * Reads the first {@code out.length} longs of {@code buffer} into {@code out} (blocking; the
     * invariant checker's read of every page): through host memory of its own, freed on return,
     * not the bounce buffer, which a tree's memory figure counts.
     */
    public void download(ClBuffer buffer, long[] out) {
        transfer(buffer, out, ValueLayout.JAVA_LONG, out.length, false);
    }

    /** {@link #download(ClBuffer, long[])} of ints. */
    public void download(ClBuffer buffer, int[] out) {
        transfer(buffer, out, ValueLayout.JAVA_INT, out.length, false);
    }

    /** A blocking transfer of a whole array of {@code layout}'s elements to ({@code up}) or from the start of {@code buffer}. */
    private void transfer(ClBuffer buffer, Object array, ValueLayout layout, int n, boolean up) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment h = a.allocate(layout, n);
            if (up) {
                MemorySegment.copy(array, 0, h, layout, 0, n);
            }
            synchronized (ctx) {
                open();
                if (up) {
                    ctx.write(buffer.mem, 0, h);
                } else {
                    ctx.read(buffer.mem, 0, h);
                }
                landed();
            }
            if (!up) {
                MemorySegment.copy(h, layout, 0, array, 0, n);
            }
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
            ctx.writeAsync(buffer.mem, offset, h);
        }
    }

    /** Host memory for a write in flight, valid until the scope's next blocking call. */
    private MemorySegment staging(long bytes) {
        long need = (bytes + 63) & ~63L;
        if (stage == null || stageUsed + need > stage.byteSize()) {
            if (stageArena != null) {
                retired.add(stageArena);   // writes in flight may still read it
            }
            long size = Math.max(need, stage == null ? 1 << 12 : 2 * stage.byteSize());
            stageArena = Arena.ofShared();
            stage = stageArena.allocate(size, 64);
            stageUsed = 0;
        }
        MemorySegment m = stage.asSlice(stageUsed, bytes);
        stageUsed += need;
        return m;
    }

    /** Reads {@code n} longs at byte {@code offset} of {@code buffer} into {@code out} from index {@code to} (blocking). */
    public void readLongs(ClBuffer buffer, long offset, long[] out, int to, int n) {
        read(buffer, offset, out, ValueLayout.JAVA_LONG, to, n);
    }

    /** Reads {@code n} ints at byte {@code offset} of {@code buffer} into {@code out} from index {@code to} (blocking). */
    public void readInts(ClBuffer buffer, long offset, int[] out, int to, int n) {
        read(buffer, offset, out, ValueLayout.JAVA_INT, to, n);
    }

    /** {@link #readLongs} into the array {@code out} of {@code layout}'s elements, through the bounce buffer. */
    private void read(ClBuffer buffer, long offset, Object out, ValueLayout layout, int to, int n) {
        synchronized (ctx) {
            open();
            long size = layout.byteSize();
            int step = (int) (BOUNCE_BYTES / size);
            for (int i = 0; i < n; i += step) {
                int c = Math.min(step, n - i);
                MemorySegment h = bounce(size * c);
                ctx.read(buffer.mem, offset + size * i, h);
                MemorySegment.copy(h, layout, 0, out, to + i, c);
            }
            if (n > 0) {
                landed();
            }
        }
    }

    /**
     * The first {@code bytes} (at most {@value #BOUNCE_BYTES}) of the bounce buffer, grown (doubling,
     * the old one freed: the transfers through it block) when a transfer needs more: a tree that
     * only ever moves a few keys keeps a few kilobytes.
     */
    private MemorySegment bounce(long bytes) {
        if (bounce == null || bounce.byteSize() < bytes) {
            long size = Math.min(BOUNCE_BYTES, Math.max(bytes, bounce == null ? 1 << 12 : 2 * bounce.byteSize()));
            if (bounceArena != null) {
                bounceArena.close();
            }
            bounceArena = Arena.ofShared();
            bounce = bounceArena.allocate(size, 64);
        }
        return bounce.asSlice(0, bytes);
    }

    /** Host bytes this scope keeps for transfers (the staging and bounce buffers). */
    public long hostBytes() {
        synchronized (ctx) {
            return (stage == null ? 0 : stage.byteSize()) + (bounce == null ? 0 : bounce.byteSize());
        }
    }

    /** After a blocking call: the queue has passed every write enqueued before it. */
    private void landed() {
        stageUsed = 0;
        for (Arena a : retired) {
            a.close();
        }
        retired.clear();
        if (stage != null && stage.byteSize() > BOUNCE_BYTES) {
            stageArena.close();
            stageArena = null;
            stage = null;
        }
    }

    public void copy(ClBuffer src, long srcOffset, ClBuffer dst, long dstOffset, long bytes) {
        synchronized (ctx) {
            open();
            ctx.copy(src.mem, srcOffset, dst.mem, dstOffset, bytes);
            if (bytes > 0) {
                landed();   // the copy waited for the queue (a copy of nothing enqueues nothing)
            }
        }
    }

    /** The built program of a kernel source resource (see {@link ClContext#resource}), built once per device. */
    MemorySegment program(String resource) {
        synchronized (ctx) {
            open();
            return ctx.cachedProgram(ClContext.resource(resource), "");
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
                ctx.releaseKernel(kernel);
            }
        }
    }

    /** A launch in work-groups of exactly {@code local} (see {@link ClContext#enqueueLocal}). */
    void enqueueLocal(MemorySegment kernel, long global, long local) {
        synchronized (ctx) {
            open();
            ctx.enqueueLocal(kernel, global, local);
        }
    }

    /** Waits until the device has run everything enqueued (a failure of an enqueued kernel surfaces here). */
    public void finish() {
        synchronized (ctx) {
            open();
            ctx.finish();
            landed();
        }
    }

    /** A kernel object of this scope's own (kernel objects hold their arguments: see {@link PageKernels}). */
    MemorySegment kernel(MemorySegment program, String name) {
        synchronized (ctx) {
            open();
            MemorySegment k = ctx.kernel(program, name);
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
            open();
            ctx.enqueue(kernel, global);
        }
    }

    void enqueueGroups(MemorySegment kernel, long global, int group, int flagsArg) {
        synchronized (ctx) {
            open();
            ctx.enqueueGroups(kernel, global, group, flagsArg);
        }
    }

    void run(MemorySegment kernel, long global, long local) {
        synchronized (ctx) {
            open();
            ctx.run(kernel, global, local);
            if (global > 0) {
                landed();   // the run waited for the queue (a run of nothing enqueues nothing)
            }
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
            if (stageUsed > 0 || !retired.isEmpty()) {
                try {
                    ctx.finish();   // writes in flight read the staging memory freed below
                } catch (OpenClException e) {
                    first = e;
                }
            }
            landed();
            for (Arena a : new Arena[] {stageArena, bounceArena}) {
                if (a != null) {
                    a.close();
                }
            }
            stageArena = bounceArena = null;
            stage = bounce = null;
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
            if (first != null) {
                throw first;
            }
        }
    }
}
