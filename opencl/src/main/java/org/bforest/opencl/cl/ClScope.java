package org.bforest.opencl.cl;

import java.lang.foreign.MemorySegment;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.bforest.opencl.OpenClException;

/**
 * What one structure holds in a device's {@linkplain ClContext#shared shared context}: its
 * buffers and kernels, released together by {@link #close()}, after which every call throws
 * {@link IllegalStateException}. The context, its queue and its built programs outlive it, so a
 * new structure costs a few buffers and kernel objects, not a context and a compile.
 *
 * <p>Every call synchronises on the context ({@link #lock()}); a structure that makes several
 * calls in a row (a batch) holds that lock around them, so that its kernels' arguments and the
 * queue's order are its own until it is done.
 */
public final class ClScope implements AutoCloseable {
    private final ClContext ctx;
    private final Set<MemorySegment> buffers = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<MemorySegment> kernels = Collections.newSetFromMap(new IdentityHashMap<>());
    private boolean closed;
    /**
     * Host memory of writes still in flight ({@link #writeAsync}): freed after the next blocking
     * call of this scope, by which time the in-order queue has passed them.
     */
    private final java.util.List<MemorySegment> inFlight = new java.util.ArrayList<>();

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

    public MemorySegment buffer(long bytes) {
        synchronized (ctx) {
            open();
            MemorySegment m = ctx.buffer(bytes);
            buffers.add(m);
            return m;
        }
    }

    public void release(MemorySegment mem) {
        synchronized (ctx) {
            open();
            if (buffers.remove(mem)) {
                ctx.release(mem);
            }
        }
    }

    public void write(MemorySegment mem, long offset, MemorySegment src) {
        synchronized (ctx) {
            open();
            ctx.write(mem, offset, src);
            landed();
        }
    }

    public void read(MemorySegment mem, long offset, MemorySegment dst) {
        synchronized (ctx) {
            open();
            ctx.read(mem, offset, dst);
            landed();
        }
    }

    /**
     * Host memory of {@code bytes} bytes for {@link #writeAsync}, valid until the scope's next
     * blocking call has returned.
     */
    public MemorySegment staging(long bytes) {
        synchronized (ctx) {
            open();
            // Auto memory: held here until the write has landed, then left to the collector.
            MemorySegment m = java.lang.foreign.Arena.ofAuto().allocate(Math.max(8, bytes), 8);
            inFlight.add(m);
            return m;
        }
    }

    /** Enqueues a write of {@code src} (from {@link #staging}) without waiting for it. */
    public void writeAsync(MemorySegment mem, long offset, MemorySegment src) {
        synchronized (ctx) {
            open();
            ctx.writeAsync(mem, offset, src);
        }
    }

    /** After a blocking call: the queue has passed every write enqueued before it. */
    private void landed() {
        inFlight.clear();
    }

    public void copy(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, long bytes) {
        synchronized (ctx) {
            open();
            ctx.copy(src, srcOffset, dst, dstOffset, bytes);
            landed();
        }
    }

    /** The built program of a kernel source resource (see {@link ClContext#resource}), built once per device. */
    public MemorySegment program(String resource) {
        synchronized (ctx) {
            open();
            return ctx.cachedProgram(ClContext.resource(resource), "");
        }
    }

    public MemorySegment kernel(MemorySegment program, String name) {
        synchronized (ctx) {
            open();
            MemorySegment k = ctx.kernel(program, name);
            kernels.add(k);
            return k;
        }
    }

    public void arg(MemorySegment kernel, int index, MemorySegment mem) {
        synchronized (ctx) {
            open();
            ctx.arg(kernel, index, mem);
        }
    }

    public void arg(MemorySegment kernel, int index, int value) {
        synchronized (ctx) {
            open();
            ctx.arg(kernel, index, value);
        }
    }

    public void arg(MemorySegment kernel, int index, long value) {
        synchronized (ctx) {
            open();
            ctx.arg(kernel, index, value);
        }
    }

    public void enqueue(MemorySegment kernel, long global) {
        synchronized (ctx) {
            open();
            ctx.enqueue(kernel, global);
        }
    }

    public void enqueueGroups(MemorySegment kernel, long global, int group, int flagsArg) {
        synchronized (ctx) {
            open();
            ctx.enqueueGroups(kernel, global, group, flagsArg);
        }
    }

    public void run(MemorySegment kernel, long global, long local) {
        synchronized (ctx) {
            open();
            ctx.run(kernel, global, local);
            landed();
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
            if (!inFlight.isEmpty()) {
                try {
                    ctx.finish();
                } catch (OpenClException e) {
                    first = e;
                }
                landed();
            }
            for (MemorySegment k : kernels) {
                try {
                    ctx.releaseKernel(k);
                } catch (OpenClException e) {
                    first = first == null ? e : first;
                }
            }
            for (MemorySegment b : buffers) {
                try {
                    ctx.release(b);
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
