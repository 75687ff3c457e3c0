package org.bforest;

import static org.bforest.SnapshotFormat.FANOUT;
import static org.bforest.SnapshotFormat.HEADER_BYTES;
import static org.bforest.SnapshotFormat.NODE;
import static org.bforest.kernel.ScalarSearch.LE_LONG;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.Objects;
import org.bforest.kernel.NodeSearch;
import org.bforest.kernel.Prefetch;
import org.bforest.util.BatchArguments;
import org.bforest.util.Bounds;

/**
 * A read-only index over a snapshot file mapped into memory ({@link Indexes#map}): the file's
 * static inner levels and leaves ({@link SnapshotFormat}) searched in place with the node search
 * every tree uses, no load step. Every query is a rank: the number of keys below a bound, one
 * descent of the inner levels and one leaf; neighbours, counts and cursors are positions around
 * it. {@code Long.MAX_VALUE} is held in the header, out of the data, so no probe ever equals the
 * padding.
 *
 * <p>Opening reads and checks the header and the block table only; the data blocks are trusted
 * (check them with {@link Indexes#verifySnapshot}). The mapping is of a shared arena, so any
 * number of threads may read at once; {@link #close()} unmaps it, after which every call throws.
 * The file must not be truncated while it is mapped (the JVM then fails the read with an
 * {@code InternalError}); a new snapshot written over it is a new file, and the mapping keeps the
 * old bytes.
 */
final class MappedIndex implements NativeLongIndex {
    /** Keys a lock-step group of {@link #getAll}: as many misses as the memory serves at once. */
    private static final int GROUP = 16;
    private final Path file;
    private final Arena arena;
    private final MemorySegment seg;
    private final SnapshotFormat.Header header;
    private final long stored;
    private final long size;
    private final int leafShift;
    private final boolean values;
    private final boolean hasMax;
    private final long maxValue;
    private final long[] levelAt;
    private long defaultReturnValue;
    private volatile boolean closed;

    private MappedIndex(Path file, Arena arena, MemorySegment seg, SnapshotFormat.Header h) {
        this.file = file;
        this.arena = arena;
        this.seg = seg;
        this.header = h;
        this.stored = h.stored();
        this.size = h.keys();
        this.leafShift = Integer.numberOfTrailingZeros(h.leafBytes());
        this.values = h.values();
        this.hasMax = h.hasMax();
        this.maxValue = h.maxValue();
        this.levelAt = new long[h.levelNodes().length];
        long at = h.innerOffset();
        for (int l = 0; l < levelAt.length; l++) {
            levelAt[l] = at;
            at += h.levelNodes()[l] * NODE * 8;
        }
    }

    /** Maps {@code file} after checking its header and block table. */
    static MappedIndex map(Path file) throws IOException {
        SnapshotReader.Opened o = SnapshotReader.open(file);
        try (FileChannel ch = o.channel()) {
            Arena arena = Arena.ofShared();
            try {
                MemorySegment seg = ch.map(FileChannel.MapMode.READ_ONLY, 0, o.header().fileBytes(), arena);
                return new MappedIndex(file, arena, seg, o.header());
            } catch (IOException | RuntimeException e) {
                arena.close();
                throw e;
            }
        }
    }

    // ---- the search -------------------------------------------------------------------------

    /** Where leaf {@code j} starts: its 16 keys, then (unless key-only) their 16 values. */
    private long leafAt(long j) {
        return HEADER_BYTES + (j << leafShift);
    }

    /** Where the key of entry {@code p} of the key order is. */
    private long keyAt(long p) {
        return leafAt(p >>> 4) + 8 * (p & (NODE - 1));
    }

    private long key(long p) {
        return p == stored ? Long.MAX_VALUE : seg.get(LE_LONG, keyAt(p));
    }

    private long value(long p) {
        if (p == stored) {
            return maxValue;
        }
        return values ? seg.get(LE_LONG, keyAt(p) + NODE * 8) : 0;
    }

    /** The leaf a key below {@code Long.MAX_VALUE} belongs in: one node a level, root first. */
    private long leafOf(long key) {
        long j = 0;
        for (long at : levelAt) {
            j = j * FANOUT + NodeSearch.succGT(seg, at + j * NODE * 8, key);
        }
        return j;
    }

    /** The number of keys {@code < key}, {@code Long.MAX_VALUE}'s entry included. */
    private long below(long key) {
        if (key == Long.MAX_VALUE || stored == 0) {
            return key == Long.MAX_VALUE ? stored : 0;
        }
        long j = leafOf(key);
        return j * NODE + NodeSearch.succGE(seg, leafAt(j), key);
    }

    /** The number of keys {@code <= key}. */
    private long atMost(long key) {
        return key == Long.MAX_VALUE ? size : below(key + 1);
    }

    private void live() {
        if (closed) {
            throw new IllegalStateException("the mapped snapshot " + file + " is closed");
        }
    }

    private UnsupportedOperationException readOnly() {
        live();
        return new UnsupportedOperationException("a mapped snapshot is read-only (" + file
                + "): load it with Indexes.load to change it");
    }

    // ---- reads ------------------------------------------------------------------------------

    /**
     * Where {@code key}'s entry is, as the byte offset of its key, or -1 when it is absent; one
     * descent. {@code key} is below {@code Long.MAX_VALUE}; with {@code touchValues} the leaf's
     * value lines are requested with its key lines (see {@link Prefetch}), for a caller that reads
     * the value next.
     */
    private long slot(long key, boolean touchValues) {
        if (stored == 0) {
            return -1;
        }
        long leaf = leafAt(leafOf(key));
        int z = touchValues ? (int) ((seg.get(LE_LONG, leaf + NODE * 8) | seg.get(LE_LONG, leaf + NODE * 16 - 8))
                & Prefetch.zero()) : 0;
        int r = NodeSearch.succGE(seg, leaf, key) + z;
        // a key past this leaf's keys is not in the index: the next leaf starts above it
        return r == NODE || seg.get(LE_LONG, leaf + 8L * r) != key ? -1 : leaf + 8L * r;
    }

    @Override
    public long get(long key, long absent) {
        live();
        if (key == Long.MAX_VALUE) {
            return hasMax ? maxValue : absent;
        }
        long at = slot(key, values);
        return at < 0 ? absent : values ? seg.get(LE_LONG, at + NODE * 8) : 0;
    }

    @Override
    public long get(long key) {
        return get(key, defaultReturnValue);
    }

    @Override
    public boolean containsKey(long key) {
        live();
        return key == Long.MAX_VALUE ? hasMax : slot(key, false) >= 0;
    }

    @Override
    public boolean get(long key, long[] value) {
        live();
        BatchArguments.checkOut(value, "value");
        if (key == Long.MAX_VALUE) {
            if (hasMax) {
                value[0] = maxValue;
            }
            return hasMax;
        }
        long at = slot(key, values);
        if (at >= 0) {
            value[0] = values ? seg.get(LE_LONG, at + NODE * 8) : 0;
        }
        return at >= 0;
    }

    @Override
    public long defaultReturnValue() {
        live();
        return defaultReturnValue;
    }

    @Override
    public void defaultReturnValue(long value) {
        live();
        defaultReturnValue = value;
    }

    @Override
    public long size() {
        live();
        return size;
    }

    @Override
    public long ceilingKey(long key, long absent) {
        live();
        long p = below(key);
        return p < size ? key(p) : absent;
    }

    @Override
    public long floorKey(long key, long absent) {
        live();
        long p = atMost(key);
        return p > 0 ? key(p - 1) : absent;
    }

    @Override
    public long higherKey(long key, long absent) {
        live();
        long p = atMost(key);
        return p < size ? key(p) : absent;
    }

    @Override
    public long lowerKey(long key, long absent) {
        live();
        long p = below(key);
        return p > 0 ? key(p - 1) : absent;
    }

    @Override
    public long firstKey() {
        live();
        if (size == 0) {
            throw new NoSuchElementException("the index is empty");
        }
        return key(0);
    }

    @Override
    public long lastKey() {
        live();
        if (size == 0) {
            throw new NoSuchElementException("the index is empty");
        }
        return key(size - 1);
    }

    @Override
    public long rangeCount(long from, boolean fromInclusive, long to, boolean toInclusive) {
        live();
        if (Bounds.isEmpty(from, fromInclusive, to, toInclusive)) {
            return 0;
        }
        return atMost(Bounds.highest(to, toInclusive)) - below(Bounds.lowest(from, fromInclusive));
    }

    @Override
    public long rangeVisit(long from, boolean fromInclusive, long to, boolean toInclusive, LongEntryVisitor visitor) {
        live();
        Objects.requireNonNull(visitor, "visitor");
        if (Bounds.isEmpty(from, fromInclusive, to, toInclusive)) {
            return 0;
        }
        long end = atMost(Bounds.highest(to, toInclusive));
        long n = 0;
        for (long p = below(Bounds.lowest(from, fromInclusive)); p < end; p++) {
            n++;
            if (!visitor.visit(key(p), value(p))) {
                break;
            }
        }
        return n;
    }

    @Override
    public LongCursor cursor() {
        live();
        return new Cursor();
    }

    @Override
    public long memoryBytes() {
        live();
        return header.fileBytes();
    }

    @Override
    public IndexKind kind() {
        live();
        return header.kind();
    }

    /** {@inheritDoc} The file's record of a CBS-tree's value lanes is kept too. */
    @Override
    public void snapshot(Path file) throws IOException {
        live();
        SnapshotWriter.write(Objects.requireNonNull(file, "file"), header.kind(), header.valueLanes(), size(), this::forEach);
    }

    @Override
    public NavigableMap<Long, Long> asNavigableMap() {
        live();
        return LongIndexViews.asNavigableMap(this);
    }

    // ---- writes: none -----------------------------------------------------------------------

    @Override
    public long put(long key, long value) {
        throw readOnly();
    }

    @Override
    public long remove(long key) {
        throw readOnly();
    }

    // Every write throws, also one that would change nothing (an absent key's remove, an empty
    // batch): a read-only index says so whatever the arguments.

    @Override
    public boolean upsert(long key, long value) {
        throw readOnly();
    }

    @Override
    public boolean delete(long key) {
        throw readOnly();
    }

    @Override
    public void putAll(long[] keys, long[] values) {
        throw readOnly();
    }

    @Override
    public long removeAll(long[] keys) {
        throw readOnly();
    }

    @Override
    public boolean put(long key, long value, long[] previous) {
        throw readOnly();
    }

    @Override
    public boolean remove(long key, long[] previous) {
        throw readOnly();
    }

    @Override
    public boolean putIfAbsent(long key, long value, long[] present) {
        throw readOnly();
    }

    @Override
    public boolean replace(long key, long value, long[] previous) {
        throw readOnly();
    }

    @Override
    public boolean replace(long key, long expected, long value) {
        throw readOnly();
    }

    @Override
    public boolean remove(long key, long expected) {
        throw readOnly();
    }

    @Override
    public void clear() {
        throw readOnly();
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            arena.close();
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public String toString() {
        return "mapped snapshot of a " + header.kind() + " (" + size + " keys, " + file + ")";
    }

    /** A position in the key order; the file never changes, so a cursor is never stale. */
    private final class Cursor implements LongCursor {
        private long p = -1;

        private boolean at(long q) {
            live();
            p = q >= 0 && q < size ? q : -1;
            return p >= 0;
        }

        @Override
        public boolean seekCeiling(long key) {
            return at(below(key));
        }

        @Override
        public boolean seekFloor(long key) {
            return at(atMost(key) - 1);
        }

        @Override
        public boolean seekHigher(long key) {
            return at(atMost(key));
        }

        @Override
        public boolean seekLower(long key) {
            return at(below(key) - 1);
        }

        @Override
        public boolean seekFirst() {
            return at(0);
        }

        @Override
        public boolean seekLast() {
            return at(size - 1);
        }

        @Override
        public boolean next() {
            live();
            return p >= 0 && at(p + 1);
        }

        @Override
        public boolean previous() {
            live();
            return p >= 0 && at(p - 1);
        }

        @Override
        public boolean isValid() {
            live();
            return p >= 0;
        }

        @Override
        public long key() {
            return MappedIndex.this.key(valid());
        }

        @Override
        public long value() {
            return MappedIndex.this.value(valid());
        }

        @Override
        public void remove() {
            throw readOnly();
        }

        private long valid() {
            live();
            if (p < 0) {
                throw new NoSuchElementException("the cursor is not on an entry");
            }
            return p;
        }
    }
}
