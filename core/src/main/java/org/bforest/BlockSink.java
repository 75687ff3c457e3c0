package org.bforest;

import static org.bforest.SnapshotFormat.HEADER_BYTES;
import static org.bforest.kernel.ScalarSearch.LE_LONG;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Arrays;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;

/**
 * Where {@link SnapshotWriter} hands its data blocks: each buffer of leaves copied into one of two
 * native buffers, then checksummed block by block and written at the next offset, on a second
 * thread when the snapshot is large, so that the walk of the index fills the next buffer while the
 * previous one goes to the file (the walk and the write each take about half of a save alone).
 * The CRCs come back in block order.
 */
final class BlockSink {
    /** How often a third thread forces what was written, so the disk writes as the walk goes on. */
    private static final long FLUSH_BYTES = 128L << 20;
    private final FileChannel channel;
    /**
     * The same file opened for direct I/O ({@code O_DIRECT}), or null: a full buffer goes from
     * native memory to the device with no copy into the page cache and no write-back for the
     * kernel to do later, which on two cores measured as the save's largest cost beside the
     * walk. Only aligned buffers at aligned offsets go this way; the tail goes through
     * {@link #channel}.
     */
    private final FileChannel direct;
    /** Whether a direct write failed, so the rest go through the page cache; the writing thread's alone. */
    private boolean directRefused;
    private final MemorySegment[] buffers = new MemorySegment[2];
    @SuppressWarnings("unchecked")
    private final Future<int[]>[] pending = new Future[2];
    private final long[] firstBlock = new long[2];
    private final int leafBytes;
    private final int leavesPerBlock;
    private final ExecutorService io;
    private final ExecutorService flusher;
    /** The last force the writing thread started; read by the caller's thread once every write is done. */
    private Future<?> flushing;
    private int next;
    private int[] crcs = new int[64];
    private long blocks;
    private long end = HEADER_BYTES;

    /**
     * @param bufferBytes the bytes of a full buffer of leaves
     * @param threaded    whether to write on a second thread (worth it past a couple of buffers)
     */
    BlockSink(FileChannel channel, FileChannel direct, Arena arena, long bufferBytes, int leafBytes,
            int leavesPerBlock, boolean threaded) {
        this.channel = channel;
        this.direct = threaded ? direct : null;
        this.leafBytes = leafBytes;
        this.leavesPerBlock = leavesPerBlock;
        // page-aligned, as direct I/O needs
        this.buffers[0] = arena.allocate(bufferBytes, DIRECT_ALIGN);
        this.buffers[1] = threaded ? arena.allocate(bufferBytes, DIRECT_ALIGN) : buffers[0];
        this.io = threaded ? daemon("bforest-snapshot-write") : null;
        this.flusher = threaded && this.direct == null ? daemon("bforest-snapshot-force") : null;
    }

    /** The alignment of a direct write's buffer, offset and length (a file system block divides it). */
    static final int DIRECT_ALIGN = 4096;

    private static ExecutorService daemon(String name) {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

    /** Writes the first {@code leaves} leaves of {@code stage} after what was written before. */
    void put(long[] stage, int leaves) {
        int i = next;
        next ^= io == null ? 0 : 1;
        try {
            await(i);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        MemorySegment buf = buffers[i];
        long bytes = (long) leaves * leafBytes;
        MemorySegment.copy(stage, 0, buf, LE_LONG, 0, (int) (bytes / 8));
        long at = end;
        end += bytes;
        firstBlock[i] = blocks;
        blocks += (leaves + leavesPerBlock - 1) / leavesPerBlock;
        if (io == null) {
            try {
                merge(i, write(buf, bytes, at));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        } else {
            pending[i] = io.submit(() -> write(buf, bytes, at));
        }
    }

    /** Each block's CRC, then the bytes to the file; the CRCs in block order. */
    private int[] write(MemorySegment buf, long bytes, long at) throws IOException {
        long blockBytes = (long) leavesPerBlock * leafBytes;
        int[] out = new int[(int) ((bytes + blockBytes - 1) / blockBytes)];
        ByteBuffer b = buf.asSlice(0, bytes).asByteBuffer();
        CRC32C crc = new CRC32C();
        for (int k = 0; k < out.length; k++) {
            crc.reset();
            crc.update(b.slice((int) (k * blockBytes), (int) Math.min(blockBytes, bytes - k * blockBytes)));
            out[k] = (int) crc.getValue();
        }
        long start = at;
        if (direct != null && !directRefused && at % DIRECT_ALIGN == 0 && bytes % DIRECT_ALIGN == 0) {
            try {
                while (b.hasRemaining()) {
                    at += direct.write(b, at);
                }
            } catch (IOException e) {
                // a file system that opened the file for direct I/O but refuses the writes: through
                // the page cache from here on (a real failure, a full disk, fails there again)
                directRefused = true;
                b.position(0);
                at = start;
            }
        }
        while (b.hasRemaining()) {
            at += channel.write(b, at);
        }
        if (flusher != null && at / FLUSH_BYTES != (at - bytes) / FLUSH_BYTES && (flushing == null || flushing.isDone())) {
            // the disk writes while the walk and the writes go on: the closing force has only the tail
            flushing = flusher.submit(() -> {
                channel.force(false);
                return null;
            });
        }
        return out;
    }

    private void await(int i) throws IOException {
        Future<int[]> f = pending[i];
        if (f == null) {
            return;
        }
        pending[i] = null;
        merge(i, result(f));
    }

    private static <T> T result(Future<T> f) throws IOException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while the snapshot was written");
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof IOException io) {
                throw io;
            }
            if (c instanceof RuntimeException r) {
                throw r;
            }
            if (c instanceof Error err) {
                throw err;
            }
            throw new IOException(c);
        }
    }

    private void merge(int i, int[] c) {
        long need = firstBlock[i] + c.length;
        if (need > crcs.length) {
            crcs = Arrays.copyOf(crcs, (int) Math.max(need, 2L * crcs.length));
        }
        System.arraycopy(c, 0, crcs, (int) firstBlock[i], c.length);
    }

    /** Waits for every write, oldest first; throws the first failure. */
    void drain() throws IOException {
        await(next);
        await(next ^ 1);
        if (flushing != null) {
            result(flushing);
        }
    }

    /** The CRC of every data block, in order; after {@link #drain}. */
    int[] crcs() {
        return Arrays.copyOf(crcs, (int) blocks);
    }

    /** Where the data ends in the file; after {@link #drain}. */
    long end() {
        return end;
    }

    /** Ends the second thread once its last write is done, whatever happened (before the buffers are freed). */
    void stop() {
        if (io != null) {
            finish(io);
        }
        if (flusher != null) {
            finish(flusher);
        }
    }

    private static void finish(ExecutorService e) {
        e.shutdown();
        boolean interrupted = false;
        boolean done = false;
        while (!done) {
            try {
                done = e.awaitTermination(1, TimeUnit.MINUTES);
            } catch (InterruptedException x) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
