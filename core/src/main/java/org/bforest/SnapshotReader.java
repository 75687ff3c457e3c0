package org.bforest;

import static org.bforest.SnapshotFormat.HEADER_BYTES;
import static org.bforest.SnapshotFormat.INNER_CHUNK;
import static org.bforest.SnapshotFormat.NODE;
import static org.bforest.kernel.ScalarSearch.LE_LONG;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.zip.CRC32C;
import org.bforest.util.Arrivals;

/**
 * Reads snapshot files ({@link SnapshotFormat}): the header and the block table, checked before
 * anything else is read; then, for a load, every block checked against its CRC as it is copied
 * into the key and value arrays. Whatever is wrong throws a {@link SnapshotException} naming the
 * file; nothing is built from a file that is not whole.
 */
final class SnapshotReader {
    private static final int READ_BYTES = 4 << 20;

    private SnapshotReader() {
    }

    /** A snapshot's entries, in key order, {@code Long.MAX_VALUE} last if there. */
    record Entries(SnapshotFormat.Header header, long[] keys, long[] values) {
    }

    /** An open snapshot file whose header and block table have been checked. */
    record Opened(Path file, FileChannel channel, SnapshotFormat.Header header, int[] table) {
    }

    /** Opens {@code file} and checks its header and block table; the caller closes the channel. */
    static Opened open(Path file) throws IOException {
        if (Files.isDirectory(file)) {
            throw new SnapshotException(file, "is a directory, not a snapshot file");
        }
        FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
        try {
            long size = ch.size();
            if (size < HEADER_BYTES) {
                throw new CorruptSnapshotException(file, "is " + size + " bytes, shorter than a snapshot's "
                        + HEADER_BYTES + "-byte header" + (size == 0 ? " (empty)" : ": it was cut short or is no snapshot"));
            }
            SnapshotFormat.Header h = SnapshotFormat.decode(file, readFully(ch, 0, HEADER_BYTES), size);
            ByteBuffer t = readFully(ch, h.tableOffset(), (int) h.tableBytes());
            if (SnapshotFormat.crc(t, 0, t.capacity()) != h.tableCrc()) {
                throw new CorruptSnapshotException(file, "has a damaged block table (its checksum does not match)");
            }
            int[] table = new int[t.capacity() / 4];
            t.order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(table);
            return new Opened(file, ch, h, table);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    static SnapshotInfo info(Path file) throws IOException {
        Opened o = open(file);
        try (FileChannel ch = o.channel()) {
            return o.header().info(file);
        }
    }

    /** Checks every block of {@code file}; copies the entries out when {@code copy}. */
    static Entries read(Path file, boolean copy) throws IOException {
        return read(file, copy, null);
    }

    /**
     * {@link #read(Path, boolean)} of a snapshot that must be of {@code expected}'s family (any
     * when null), checked in the header before the data is read.
     */
    static Entries read(Path file, boolean copy, IndexKind.Family expected) throws IOException {
        Opened o = open(file);
        try (FileChannel ch = o.channel()) {
            Entries e = entries(o, copy, expected);
            readData(o, e, null, () -> false);
            return e;
        }
    }

    /**
     * Starts a load that reads and builds at once: the header and the block table are checked
     * here; the data blocks are read, checked and copied into the arrays on a second thread,
     * {@link Stream#arrivals} saying how far it has got, while the caller builds from them. A
     * small snapshot is read whole here first (its arrivals are {@link Arrivals#ALL}).
     */
    static Stream stream(Path file, IndexKind.Family expected) throws IOException {
        Opened o = open(file);
        Entries e;
        try {
            e = entries(o, true, expected);
            if (o.header().dataBytes() <= 2L * READ_BYTES) {
                try (FileChannel ch = o.channel()) {
                    readData(o, e, null, () -> false);
                }
                return new Stream(e, Arrivals.ALL, null);
            }
        } catch (IOException | RuntimeException | Error x) {
            o.channel().close();
            throw x;
        }
        return new Stream(o, e);
    }

    /**
     * A load reading on its own thread. {@link #finish} waits for the read to end and throws
     * what stopped it, if anything did; {@link #cancel} stops it early (the build failed).
     */
    static final class Stream {
        private final Entries entries;
        private final Arrivals arrivals;
        private final Thread reader;
        private volatile boolean cancelled;
        private Throwable failure;

        private Stream(Entries entries, Arrivals arrivals, Thread reader) {
            this.entries = entries;
            this.arrivals = arrivals;
            this.reader = reader;
        }

        private Stream(Opened o, Entries e) {
            this.entries = e;
            this.arrivals = Arrivals.stream();
            this.reader = new Thread(() -> {
                try (FileChannel ch = o.channel()) {
                    readData(o, e, arrivals, () -> cancelled);
                } catch (Throwable t) {
                    failure = t;
                    arrivals.fail(t);
                }
            }, "bforest-snapshot-read");
            reader.setDaemon(true);
            reader.start();
        }

        Entries entries() {
            return entries;
        }

        Arrivals arrivals() {
            return arrivals;
        }

        /** Waits for the read to end; throws what stopped it. */
        void finish() throws IOException {
            if (reader == null) {
                return;
            }
            boolean interrupted = false;
            while (true) {
                try {
                    reader.join();
                    break;
                } catch (InterruptedException ie) {
                    // the read is bounded by the file: let it end, then keep the interrupt
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            Throwable f = failure; // written before the thread ended: join orders it
            if (f instanceof IOException io) {
                throw io;
            } else if (f instanceof RuntimeException re) {
                throw re;
            } else if (f instanceof Error er) {
                throw er;
            } else if (f != null) {
                throw new IOException(f);
            }
        }

        /**
         * Stops the read at its next buffer and waits for it to end, because the build failed with
         * {@code cause}: that stays the exception thrown, with whatever the read threw added to it.
         */
        void cancel(Throwable cause) {
            cancelled = true;
            try {
                finish();
            } catch (Throwable e) {
                if (e != cause) {
                    cause.addSuppressed(e);
                }
            }
        }
    }

    /** The header, and the arrays for the entries when {@code copy} ({@code Long.MAX_VALUE} set last). */
    private static Entries entries(Opened o, boolean copy, IndexKind.Family expected) throws SnapshotException {
        Path file = o.file();
        SnapshotFormat.Header h = o.header();
        if (expected != null && h.kind().family() != expected) {
            throw new SnapshotKindException(file, expected, h.kind());
        }
        long[] keys = null;
        long[] values = null;
        if (copy) {
            if (h.keys() > Integer.MAX_VALUE - 16) {
                throw new SnapshotException(file, "holds " + h.keys()
                        + " keys, more than a Java array holds: open it with Indexes.map");
            }
            keys = new long[(int) h.keys()];
            values = h.values() ? new long[(int) h.keys()] : null;
            if (h.hasMax()) {
                // before any entry arrives: a bulk load reads the last slot first (see Arrivals)
                keys[(int) h.stored()] = Long.MAX_VALUE;
                if (values != null) {
                    values[(int) h.stored()] = h.maxValue();
                }
            }
        }
        return new Entries(h, keys, values);
    }

    /**
     * Reads every data block of an opened snapshot, checks its CRC and copies its entries into
     * {@code e}'s arrays (when there are arrays), checking that the keys ascend; then checks the
     * inner levels' chunks. Tells {@code out} (when not null) how many entries are in the arrays
     * after each read; stops when {@code stop} says so.
     */
    private static void readData(Opened o, Entries e, Arrivals out, BooleanSupplier stop) throws IOException {
        Path file = o.file();
        FileChannel ch = o.channel();
        SnapshotFormat.Header h = e.header();
        long[] keys = e.keys();
        long[] values = e.values();
        long stored = h.stored();
        int blockBytes = (int) h.blockBytes();
        int leafBytes = h.leafBytes();
        long dataBytes = h.dataBytes();
        int perRead = (int) Math.max(1, Math.min(READ_BYTES, dataBytes) / blockBytes);
        ReadAhead ahead = out != null ? ReadAhead.start(ch, h.fileBytes()) : null;
        try (Arena arena = Arena.ofConfined()) {
            // freed when the read ends, not when a collection finds the buffer
            MemorySegment seg = arena.allocate((long) perRead * blockBytes, 64);
            ByteBuffer buf = seg.asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
            CRC32C crc = new CRC32C();
            long blocks = h.blocks();
            long previous = Long.MIN_VALUE;
            for (long b = 0; b < blocks; b += perRead) {
                if (stop.getAsBoolean()) {
                    return;
                }
                long from = b * blockBytes;
                int len = (int) Math.min((long) perRead * blockBytes, dataBytes - from);
                fill(ch, buf.clear().limit(len), HEADER_BYTES + from);
                for (int i = 0; i * blockBytes < len; i++) {
                    int bytes = Math.min(blockBytes, len - i * blockBytes);
                    crc.reset();
                    crc.update(buf.slice(i * blockBytes, bytes));
                    if ((int) crc.getValue() != o.table()[(int) (b + i)]) {
                        throw damaged(file, "data block " + (b + i) + " of " + blocks,
                                HEADER_BYTES + from + (long) i * blockBytes, bytes);
                    }
                }
                if (from + len == dataBytes && stored % NODE != 0) {
                    // the last leaf's padding: a key count that does not match the data is damage
                    long last = len - leafBytes;
                    for (long p = stored % NODE; p < NODE; p++) {
                        if (seg.get(LE_LONG, last + 8 * p) != Long.MAX_VALUE) {
                            throw new CorruptSnapshotException(file, "holds more entries than its header's "
                                    + h.keys() + " keys");
                        }
                    }
                }
                if (keys != null) {
                    // leaf by leaf: 16 keys, then their 16 values
                    int start = (int) (from / leafBytes * NODE);
                    int end = (int) Math.min(start + (long) len / leafBytes * NODE, stored);
                    for (int at = 0, first = start; first < end; at += leafBytes, first += NODE) {
                        int count = Math.min(NODE, end - first);
                        MemorySegment.copy(seg, LE_LONG, at, keys, first, count);
                        if (values != null) {
                            MemorySegment.copy(seg, LE_LONG, at + NODE * 8, values, first, count);
                        }
                    }
                    previous = checkOrder(file, keys, start, end, previous);
                    if (out != null) {
                        out.arrived(end);
                        ahead.readTo(HEADER_BYTES + from + len);
                    }
                }
            }
            if (out != null) {
                out.arrived(Integer.MAX_VALUE);
            }
            long inner = h.innerBytes();
            for (long c = 0; c * INNER_CHUNK < inner; c++) {
                int len = (int) Math.min(INNER_CHUNK, inner - c * INNER_CHUNK);
                ByteBuffer chunk = readFully(ch, h.innerOffset() + c * INNER_CHUNK, len);
                if (SnapshotFormat.crc(chunk, 0, len) != o.table()[(int) (blocks + c)]) {
                    throw damaged(file, "inner-level chunk " + c, h.innerOffset() + c * INNER_CHUNK, len);
                }
            }
        } finally {
            if (ahead != null) {
                ahead.end();
            }
        }
    }

    /**
     * Keeps the disk busy while the reader checks and copies: a thread that asks the kernel for
     * the file a chunk at a time ({@link MemorySegment#load} on a read-only mapping: an
     * {@code madvise(WILLNEED)} and a touch of each page) up to {@value #LEAD_MIB} MiB ahead of
     * the reader, whose own reads then find the pages in the page cache or already on their way.
     * Without it the disk idles whenever the reader works on a buffer or waits for a core. Only a
     * hint: if the file cannot be mapped it ends, and the reader reads as before.
     */
    private static final class ReadAhead extends Thread {
        private static final long CHUNK = 16L << 20;
        private static final int LEAD_MIB = 256;
        private final FileChannel channel;
        private final long bytes;
        private volatile long readTo;
        private volatile boolean stop;

        private ReadAhead(FileChannel channel, long bytes) {
            super("bforest-snapshot-readahead");
            this.channel = channel;
            this.bytes = bytes;
            setDaemon(true);
        }

        static ReadAhead start(FileChannel ch, long bytes) {
            ReadAhead r = new ReadAhead(ch, bytes);
            r.start();
            return r;
        }

        /** The reader has read the file up to byte {@code at}. */
        void readTo(long at) {
            readTo = at;
        }

        @Override
        public void run() {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment file = channel.map(FileChannel.MapMode.READ_ONLY, 0, bytes, arena);
                for (long at = HEADER_BYTES; at < bytes && !stop; at += CHUNK) {
                    while (at - readTo > ((long) LEAD_MIB << 20) && !stop) {
                        LockSupport.parkNanos(this, 1_000_000);
                    }
                    file.asSlice(at, Math.min(CHUNK, bytes - at)).load();
                }
            } catch (IOException | RuntimeException e) {
                // a hint only: the reader reads the file whatever happens here
            }
        }

        /** Stops it and waits for its current chunk, so that no thread outlives the load. */
        void end() {
            stop = true;
            boolean interrupted = false;
            while (isAlive()) {
                try {
                    join();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Checks that {@code keys[from, to)} ascend strictly from {@code previous} (the key before
     * them; {@code from == 0}: none) and stay below {@code Long.MAX_VALUE}, which is kept in the
     * header; returns the last. Every block's checksum matched, so a failure here is a snapshot
     * written wrong, or made by hand.
     */
    private static long checkOrder(Path file, long[] keys, int from, int to, long previous) throws CorruptSnapshotException {
        long p = previous;
        boolean ordered = true;
        for (int i = from; i < to; i++) {
            long k = keys[i];
            // no early exit: the loop stays branch-free and fast; the index is found below
            ordered &= k > p | i == 0;
            p = k;
        }
        if (!ordered || to > from && p == Long.MAX_VALUE) {
            for (int i = Math.max(1, from); i < to; i++) {
                long before = i == from ? previous : keys[i - 1];
                if (keys[i] <= before) {
                    throw new CorruptSnapshotException(file, "holds entries no index can have (key " + i + ", "
                            + keys[i] + ", is not above the one before it, " + before + ")");
                }
            }
            throw new CorruptSnapshotException(file, "holds Long.MAX_VALUE among its entries (it is kept in the header)");
        }
        return p;
    }

    private static CorruptSnapshotException damaged(Path file, String what, long at, long len) {
        return new CorruptSnapshotException(file, "has a damaged " + what + " (bytes " + at + " to " + (at + len)
                + ": its checksum does not match)");
    }

    static ByteBuffer readFully(FileChannel ch, long at, int len) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(len).order(ByteOrder.LITTLE_ENDIAN);
        fill(ch, b, at);
        return b.clear();
    }

    private static void fill(FileChannel ch, ByteBuffer b, long at) throws IOException {
        while (b.hasRemaining()) {
            int r = ch.read(b, at);
            if (r < 0) {
                throw new IOException("the file ended while it was read (it shrank since it was opened)");
            }
            at += r;
        }
    }
}
