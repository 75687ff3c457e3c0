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
     * Host memory for writes in flight ({@link #staging}, {@link #writeAsync}): one buffer, handed
     * out from its start again after every blocking call of this scope (by then the in-order queue
     * has passed every write enqueued before it). A write that does not fit starts a buffer twice
     * as large; the old one is freed at the next blocking call. So a batch allocates nothing once
     * the buffer has grown to the batch's size.
     */
    private Arena stageArena;
    private MemorySegment stage;
    private long stageUsed;
    private final List<Arena> retired = new ArrayList<>();
    /** Host memory for blocking reads ({@link #readLongs}, {@link #readInts}): reused, grown when a read needs more. */
    private Arena readArena;
    private MemorySegment readBuf;

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
     * blocking call has returned. The caller holds {@link #lock()} from here to the write.
     */
    public MemorySegment staging(long bytes) {
        synchronized (ctx) {
            open();
            long need = (Math.max(8, bytes) + 63) & ~63L;
            if (stage == null || stageUsed + need > stage.byteSize()) {
                if (stageArena != null) {
                    retired.add(stageArena);   // writes in flight may still read it
                }
                long size = Math.max(need, stage == null ? 1 << 16 : 2 * stage.byteSize());
                stageArena = Arena.ofShared();
                stage = stageArena.allocate(size, 64);
                stageUsed = 0;
            }
            MemorySegment m = stage.asSlice(stageUsed, need);
            stageUsed += need;
            return m;
        }
    }

    /** Reads {@code n} longs at byte {@code offset} of {@code mem} into {@code out} from index {@code to} (blocking). */
    public void readLongs(MemorySegment mem, long offset, long[] out, int to, int n) {
        synchronized (ctx) {
            open();
            if (n == 0) {
                return;
            }
            MemorySegment h = readBuffer(8L * n);
            ctx.read(mem, offset, h);
            landed();
            MemorySegment.copy(h, ValueLayout.JAVA_LONG, 0, out, to, n);
        }
    }

    /** Reads {@code n} ints at byte {@code offset} of {@code mem} into {@code out} from index {@code to} (blocking). */
    public void readInts(MemorySegment mem, long offset, int[] out, int to, int n) {
        synchronized (ctx) {
            open();
            if (n == 0) {
                return;
            }
            MemorySegment h = readBuffer(4L * n);
            ctx.read(mem, offset, h);
            landed();
            MemorySegment.copy(h, ValueLayout.JAVA_INT, 0, out, to, n);
        }
    }

    /** The first {@code bytes} of the read buffer, grown if need be (the old one freed: reads block, none is in flight). */
    private MemorySegment readBuffer(long bytes) {
        if (readBuf == null || readBuf.byteSize() < bytes) {
            if (readArena != null) {
                readArena.close();
            }
            long size = Math.max(bytes, readBuf == null ? 1 << 16 : 2 * readBuf.byteSize());
            readArena = Arena.ofShared();
            readBuf = readArena.allocate(size, 64);
        }
        return readBuf.asSlice(0, bytes);
    }

    /** Host bytes this scope keeps for transfers (the staging and read buffers). */
    public long hostBytes() {
        synchronized (ctx) {
            return (stage == null ? 0 : stage.byteSize()) + (readBuf == null ? 0 : readBuf.byteSize());
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
        stageUsed = 0;
        for (Arena a : retired) {
            a.close();
        }
        retired.clear();
    }

    public void copy(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, long bytes) {
        synchronized (ctx) {
            open();
            ctx.copy(src, srcOffset, dst, dstOffset, bytes);
            if (bytes > 0) {
                landed();   // the copy waited for the queue (a copy of nothing enqueues nothing)
            }
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
            for (Arena a : new Arena[] {stageArena, readArena}) {
                if (a != null) {
                    a.close();
                }
            }
            stageArena = readArena = null;
            stage = readBuf = null;
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
