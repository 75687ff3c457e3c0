package org.bforest.bench.runner;

import it.unimi.dsi.fastutil.io.BinIO;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntConsumer;
import org.bforest.LongIndex;
import org.bforest.NativeLongIndex;
import org.bforest.SnapshotException;
import org.bforest.bench.BenchException;
import org.bforest.bench.cli.Counts;
import org.bforest.bench.cli.Options;
import org.bforest.bench.datasets.Dataset;
import org.bforest.bench.datasets.SplitMix64;
import org.bforest.bench.runner.SnapshotFigures.Row;
import org.bforest.bench.structures.IndexAdapter;
import org.bforest.bench.structures.SortedArrayMap;
import org.bforest.bench.structures.Structure;
import org.bforest.bench.structures.Values;

/**
 * {@code --snapshot DIR}, on one dataset at one size, after its usual cells: every bforest
 * structure of the run built as its cells build it, then per repetition its snapshot saved into
 * DIR, loaded back (from the page cache, the file read once first, and again cold, its pages dropped
 * first where {@link PageCache} can), and mapped, workload A's lookups run on the mapped index, and
 * the file deleted; beside them, on the same entries, a {@code TreeMap<Long, Long>} through Java
 * serialization and the key and value arrays through fastutil's {@code BinIO}; then the disk's own
 * sequential write and read (warm, then cold) of a file the size of the largest snapshot.
 *
 * <p>The repetitions are interleaved across the rows ({@link RoundRobin}), as the cells' are,
 * and one built index is alive at a time: the original is dropped before its snapshot is loaded,
 * the loaded one before the file is mapped. A full GC runs before every timed step. What a
 * snapshot gives back must be what was saved: the loaded and the mapped index hold as many entries
 * as the original, with the same {@link EntryChecksum}, and the lookups on the mapped index sum to
 * what they sum to on the original; anything else is a {@link SnapshotMismatchException}, which
 * fails the run. The serializations are checked the same way.
 */
final class SnapshotBench {
    /** The most entries the Java serialization row writes (a round trip needs about 250 heap bytes an entry). */
    static final int MAX_SERIALIZED = 10_000_000;
    /** Heap a round trip through Java serialization needs an entry, roughly: the map, the stream's handles, the map read back. */
    static final int SERIALIZED_HEAP_PER_ENTRY = 250;
    /** The disk row's buffers: 4 MiB, direct. */
    static final int BUFFER = 4 << 20;

    private final Options options;
    private final Progress progress;
    private final Notes notes;
    private final SnapshotIo io;
    private final IntConsumer advance;
    private final Path dir;

    // The dataset running
    private Dataset d;
    private String on;
    private long[] values;
    private long[] lookups;
    private StabilizedBuild stabilized;

    SnapshotBench(Options options, Progress progress, Notes notes, SnapshotIo io, IntConsumer advance) {
        this.options = options;
        this.progress = progress;
        this.notes = notes;
        this.io = io;
        this.advance = advance;
        this.dir = options.snapshotDir();
    }

    /** Progress steps a dataset at a size adds: a repetition of each structure that snapshots, the serializations and the disk. */
    static int steps(Options o) {
        int rows = 3;
        for (Structure s : o.structures()) {
            rows += s.snapshots() ? 1 : 0;
        }
        return rows * (o.warmups() + o.reps());
    }

    /**
     * The figures on dataset {@code d} ({@code on}: its name for a note): its loaded keys with
     * {@code values}, built as {@code stabilized} says (null: a bulk load); {@code lookupKeys} are
     * workload A's; the structures in {@code unavailable} are skipped with the reason given there.
     */
    List<SnapshotFigures> run(Dataset dataset, String datasetLabel, long[] datasetValues, long[] lookupKeys,
                              StabilizedBuild build, Map<Structure, String> unavailable) {
        d = dataset;
        on = datasetLabel;
        values = datasetValues;
        lookups = lookupKeys;
        stabilized = build;
        int steps = options.warmups() + options.reps();
        List<RowRun> rows = new ArrayList<>();
        for (Structure s : options.structures()) {
            if (!s.snapshots()) {
                continue;
            }
            if (unavailable.containsKey(s)) {
                notes.add(s.cliName() + ": no snapshot on " + on + ": " + unavailable.get(s));
                advance.accept(steps);
            } else {
                rows.add(new StructureRun(s));
            }
        }
        rows.add(new SerializationRun());
        rows.add(new BinIoRun());
        if (!PageCache.supported()) {
            notes.add("--snapshot: no cold loads: dropping a file's pages from the page cache needs Linux and native"
                    + " access (--enable-native-access=ALL-UNNAMED, which ./bforest passes)");
        }
        for (int r = 0; r < steps; r++) {
            for (int j : RoundRobin.round(r, rows.size())) {
                RowRun row = rows.get(j);
                if (!row.failed) {
                    step(row, r);
                }
            }
        }
        long largest = 0;
        for (RowRun row : rows) {
            if (!row.failed && row instanceof StructureRun) {
                largest = Math.max(largest, row.bytes);
            }
        }
        for (RowRun row : rows) {
            if (largest == 0 && !row.failed && row instanceof BinIoRun) {
                largest = row.bytes; // no snapshot was written: the disk writes what BinIO wrote
            }
        }
        List<SnapshotFigures> out = new ArrayList<>();
        if (largest > 0) {
            DiskRun disk = new DiskRun(largest);
            for (int r = 0; r < steps && !disk.failed; r++) {
                step(disk, r);
            }
            rows.add(disk);
        } else {
            notes.add("--snapshot on " + on + ": no file was written, so the disk's own speed was not measured");
            advance.accept(steps);
        }
        for (RowRun row : rows) {
            if (!row.failed) {
                out.add(row.figures());
            }
        }
        return out;
    }

    /**
     * Creates the {@code --snapshot} folder if needed and checks that a file can be written there;
     * the runner calls it before anything runs: a folder that cannot take the files should not
     * cost a whole run first.
     */
    static void prepare(Path dir) {
        try {
            Files.createDirectories(dir);
            Path probe = Files.createTempFile(dir, "bforest-bench-", ".probe");
            Files.delete(probe);
        } catch (IOException | RuntimeException e) {
            throw new BenchException("--snapshot " + dir + ": cannot write there (" + e + ")");
        }
    }

    /** One repetition of one row, timed after the warm-ups; a failure that is not a mismatch is a note. */
    private void step(RowRun row, int r) {
        int steps = options.warmups() + options.reps();
        boolean timed = r >= options.warmups();
        progress.step(row.name() + " " + d.name() + (options.sweep() ? " " + Counts.format(d.keyCount()) + " keys" : "")
                + " snapshot" + (timed ? " rep " + (r - options.warmups() + 1) + "/" + options.reps()
                : " warm-up " + (r + 1) + "/" + options.warmups()));
        try {
            row.repetition(r, timed ? r - options.warmups() : -1);
            advance.accept(1);
        } catch (SnapshotException e) {
            // A file it has just written that core cannot read back: the snapshot code is wrong.
            throw mismatch(row.name(), "its snapshot could not be read back: " + what(e));
        } catch (IOException | UncheckedIOException e) {
            row.failed = true;
            notes.add(row.name() + ": no snapshot figures on " + on + ": reading or writing in " + dir + " failed ("
                    + e + ")");
            advance.accept(steps - r);
        } catch (UnsupportedOperationException e) {
            row.failed = true;
            notes.add(row.name() + ": no snapshot figures on " + on + ": " + what(e));
            advance.accept(steps - r);
        } catch (OutOfMemoryError e) {
            row.failed = true;
            notes.add(row.name() + " ran out of heap on " + on + " under --snapshot (max heap "
                    + BenchmarkRunner.gb(Runtime.getRuntime().maxMemory()) + "); give the JVM more, e.g."
                    + " BFOREST_JVM_OPTS=-Xmx24g");
            advance.accept(steps - r);
        } catch (SnapshotMismatchException e) {
            throw e;
        } catch (RuntimeException e) {
            row.failed = true;
            StackTraceElement[] trace = e.getStackTrace();
            notes.add(row.name() + " failed on " + on + " under --snapshot: " + what(e)
                    + (trace.length > 0 ? " at " + trace[0] : ""));
            advance.accept(steps - r);
        } finally {
            row.cleanUp();
        }
    }

    private SnapshotMismatchException mismatch(String who, String what) {
        return new SnapshotMismatchException("--snapshot: " + who + " on " + on + (options.sweep() ? "" : " at "
                + Counts.format(d.keyCount()) + " keys") + ": " + what);
    }

    private static String what(Throwable e) {
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    private static double since(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }

    /** One row's repetitions and figures so far. */
    private abstract class RowRun {
        final double[] save = new double[options.reps()];
        final double[] load = new double[options.reps()];
        final double[] coldLoad = new double[options.reps()];
        long bytes;
        boolean failed;
        /** Whether its files' pages can be dropped from the page cache, for the cold loads. */
        boolean cold = PageCache.supported();

        abstract String name();

        /** Repetition {@code r} (warm-ups first); its times go to index {@code timed}, none when -1. */
        abstract void repetition(int r, int timed) throws IOException;

        /** The files the row writes. */
        abstract List<Path> files();

        /** Deletes what the row wrote (also after a failure). */
        final void cleanUp() {
            for (Path f : files()) {
                try {
                    Files.deleteIfExists(f);
                } catch (IOException e) {
                    notes.add("--snapshot: could not delete " + f + " (" + e + ")");
                }
            }
        }

        abstract SnapshotFigures figures();

        Path file(String suffix) {
            return dir.resolve("bforest-bench-" + suffix);
        }

        /**
         * Drops {@code files}' pages from the page cache before a cold read: whether it could (where
         * it cannot, the row has no cold figures from then on, and a note says why).
         */
        boolean evict(Path... files) {
            for (Path f : files) {
                if (cold && !PageCache.evict(f)) {
                    cold = false;
                    notes.add("--snapshot: " + name() + " on " + on + ": its file's pages could not be dropped from the"
                            + " page cache, so it has no cold load");
                }
            }
            return cold;
        }

        /**
         * Reads back what the repetition saved, from the page cache, then again cold where the
         * files' pages can be dropped, and records the repetition's save, read and cold read
         * seconds at {@code timed} (nothing when -1).
         */
        final void reads(int timed, double saved, String what, TimedRead read, Path... files) throws IOException {
            progress.phase(what);
            for (Path f : files) {
                PageCache.fill(f); // untimed: the warm read is from the page cache, whatever wrote the file
            }
            double warm = read.seconds();
            double coldSeconds = Double.NaN;
            if (evict(files)) {
                progress.phase("cold " + what);
                coldSeconds = read.seconds();
            }
            if (timed >= 0) {
                save[timed] = saved;
                load[timed] = warm;
                coldLoad[timed] = coldSeconds;
            }
        }

        /** The cold loads' times, or none when they could not all run cold. */
        double[] coldFigures() {
            return cold ? coldLoad : new double[0];
        }
    }

    /** One timed read of what a row wrote. */
    @FunctionalInterface
    private interface TimedRead {
        double seconds() throws IOException;
    }

    /** A bforest structure: build, save, load, map, lookups on the mapped index. */
    private final class StructureRun extends RowRun {
        private final Structure s;
        private final Path file;
        private final double[] map = new double[options.reps()];
        private final double[] mapped = new double[options.reps()];
        private String kind;
        private String loadKind;

        StructureRun(Structure s) {
            this.s = s;
            this.file = file(s.cliName() + ".snapshot");
        }

        @Override
        List<Path> files() {
            return List.of(file);
        }

        @Override
        String name() {
            return s.cliName();
        }

        @Override
        void repetition(int r, int timed) throws IOException {
            Files.deleteIfExists(file);
            long size;
            long sum;
            long expected;
            boolean storesValues;
            double saved;
            IndexAdapter a = s.newAdapter();
            try {
                progress.phase("build");
                HeapMeter.collect();
                if (stabilized != null) {
                    stabilized.build(a);
                } else {
                    a.build(d.loaded(), values);
                }
                LongIndex original = a.longIndex();
                size = original.size();
                sum = EntryChecksum.of(original);
                storesValues = io.storesValues(original);
                expected = expected(original, storesValues);
                if (kind == null) {
                    kind = io.kind(original);
                }
                progress.phase("save");
                HeapMeter.collect();
                long t0 = System.nanoTime();
                io.save(original, file);
                saved = since(t0);
            } finally {
                a.release(); // the original goes before the load: one built index alive at a time
            }
            a = null;
            bytes = Files.size(file);

            long entries = size;
            long entrySum = sum;
            reads(timed, saved, "load", () -> load(entries, entrySum), file);

            progress.phase("map");
            HeapMeter.collect();
            long t0 = System.nanoTime();
            LongIndex m = io.map(file);
            double mapMillis = since(t0) * 1e3;
            double lookupSeconds;
            try {
                progress.phase("lookups on the mapped index");
                t0 = System.nanoTime();
                long got = storesValues ? lookups(m) : contains(m);
                lookupSeconds = since(t0);
                Blackhole.consume(got);
                if (got != expected) {
                    throw mismatch(s.cliName(), "workload A's lookups on the mapped snapshot returned other results"
                            + " than on the index it was taken of (checksum " + got + " vs " + expected + ")");
                }
                check(m, "the mapped snapshot", size, sum);
            } finally {
                if (m instanceof NativeLongIndex n) {
                    n.close();
                }
            }
            Files.delete(file);
            if (timed >= 0) {
                map[timed] = mapMillis;
                mapped[timed] = lookups.length / lookupSeconds / 1e6;
            }
        }

        /** One load of the file, timed, then checked against the original and dropped; its seconds. */
        private double load(long size, long sum) throws IOException {
            HeapMeter.collect();
            long t0 = System.nanoTime();
            LongIndex loaded = io.load(file);
            double seconds = since(t0);
            check(loaded, "the index loaded from its snapshot", size, sum);
            String built = io.kind(loaded);
            if (!built.equals(kind)) {
                loadKind = built;
            }
            if (loaded instanceof NativeLongIndex n) {
                n.close();
            }
            return seconds;
        }

        private void check(LongIndex back, String what, long size, long sum) {
            if (back.size() != size) {
                throw mismatch(s.cliName(), what + " holds " + back.size() + " entries, the original " + size);
            }
            long got = EntryChecksum.of(back);
            if (got != sum) {
                throw mismatch(s.cliName(), what + " holds other entries than the original (checksum "
                        + Long.toHexString(got) + " vs " + Long.toHexString(sum) + ")");
            }
        }

        @Override
        SnapshotFigures figures() {
            return new SnapshotFigures(Row.STRUCTURE, s, d.name(), d.keyCount(), d.keyCount(), bytes, save, load,
                    coldFigures(), map, mapped, lookups.length, kind, loadKind);
        }
    }

    /**
     * The lookups' sum on the original index, untimed: the figure the mapped index must give. A
     * loop of its own, so that the timed one's call site sees the mapped index alone.
     */
    private long expected(LongIndex ix, boolean storesValues) {
        final long[] keys = lookups;
        long sum = 0;
        for (long k : keys) {
            sum += storesValues ? ix.get(k, Values.ABSENT) : ix.containsKey(k) ? Values.of(k) : Values.ABSENT;
        }
        return sum;
    }

    /** Workload A's lookups on the mapped index, timed by the caller; in chunks, so the progress display can follow. */
    private long lookups(LongIndex ix) {
        final long[] keys = lookups;
        long sum = 0;
        for (int i = 0; i < keys.length; i += BenchmarkRunner.CHUNK) {
            int end = Math.min(keys.length, i + BenchmarkRunner.CHUNK);
            for (int j = i; j < end; j++) {
                sum += ix.get(keys[j], Values.ABSENT);
            }
            progress.work(end, keys.length);
        }
        return sum;
    }

    /** The same for a key-only index, whose lookups are {@code containsKey}, as its cells' are. */
    private long contains(LongIndex ix) {
        final long[] keys = lookups;
        long sum = 0;
        for (int i = 0; i < keys.length; i += BenchmarkRunner.CHUNK) {
            int end = Math.min(keys.length, i + BenchmarkRunner.CHUNK);
            for (int j = i; j < end; j++) {
                long k = keys[j];
                sum += ix.containsKey(k) ? Values.of(k) : Values.ABSENT;
            }
            progress.work(end, keys.length);
        }
        return sum;
    }

    /**
     * A {@code TreeMap<Long, Long>} of the entries (the first {@value #MAX_SERIALIZED} at most),
     * built untimed by its {@code (SortedMap)} constructor, written with
     * {@code ObjectOutputStream} (buffered, then the file descriptor synced, as a snapshot is) and
     * read back with {@code ObjectInputStream}.
     */
    private final class SerializationRun extends RowRun {
        private final Path file = file("treemap.ser");
        private final int n = Math.min(d.keyCount(), MAX_SERIALIZED);
        private final long sum = EntryChecksum.of(d.loaded(), values, n);

        SerializationRun() {
            if (n < d.keyCount()) {
                notes.add("--snapshot on " + on + ": the TreeMap serialization ran on the first "
                        + Counts.format(n) + " of the " + Counts.format(d.keyCount()) + " entries (it needs about "
                        + SERIALIZED_HEAP_PER_ENTRY + " bytes of heap an entry); its speeds compare per entry");
            }
            long need = (long) n * SERIALIZED_HEAP_PER_ENTRY + (64 << 20);
            if (need > HeapMeter.headroom()) {
                HeapMeter.usedAfterGc();
                if (need > HeapMeter.headroom()) {
                    failed = true;
                    notes.add("treemap-serialization: skipped on " + on + " under --snapshot: it needs about "
                            + BenchmarkRunner.gb(need) + " of heap, more than the " + BenchmarkRunner.gb(
                            HeapMeter.headroom()) + " free; give the JVM more with BFOREST_JVM_OPTS=-Xmx...");
                    advance.accept(options.warmups() + options.reps());
                }
            }
        }

        @Override
        List<Path> files() {
            return List.of(file);
        }

        @Override
        String name() {
            return Row.TREEMAP_SERIALIZATION.label();
        }

        @Override
        void repetition(int r, int timed) throws IOException {
            Files.deleteIfExists(file);
            progress.phase("build");
            TreeMap<Long, Long> map = new TreeMap<>(new SortedArrayMap(d.loaded(), values, n));
            progress.phase("save");
            HeapMeter.collect();
            long t0 = System.nanoTime();
            try (FileOutputStream fos = new FileOutputStream(file.toFile());
                 ObjectOutputStream out = new ObjectOutputStream(new BufferedOutputStream(fos, 1 << 16))) {
                out.writeObject(map);
                out.flush();
                fos.getFD().sync();
            }
            double saved = since(t0);
            map = null;
            bytes = Files.size(file);
            reads(timed, saved, "load", this::load, file);
            Files.delete(file);
        }

        /** One read of the map, timed, then checked and dropped; its seconds. */
        private double load() throws IOException {
            HeapMeter.collect();
            long t0 = System.nanoTime();
            Object back;
            try (ObjectInputStream in = new ObjectInputStream(new BufferedInputStream(new FileInputStream(
                    file.toFile()), 1 << 16))) {
                back = in.readObject();
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
            double seconds = since(t0);
            if (!(back instanceof TreeMap<?, ?> m) || m.size() != n || EntryChecksum.of(treeMap(m)) != sum) {
                throw mismatch(name(), "the TreeMap read back is not the one written");
            }
            return seconds;
        }

        @SuppressWarnings("unchecked")
        private static Map<Long, Long> treeMap(TreeMap<?, ?> m) {
            return (Map<Long, Long>) m;
        }

        @Override
        SnapshotFigures figures() {
            return new SnapshotFigures(Row.TREEMAP_SERIALIZATION, null, d.name(), d.keyCount(), n, bytes, save, load,
                    coldFigures(), new double[0], new double[0], 0, null, null);
        }
    }

    /**
     * The sorted keys and their values as two files through fastutil's {@code BinIO}: each stored
     * with {@code storeLongs} into a {@code FileChannel} in the machine's byte order, then forced
     * to the disk, as a snapshot is; read back with {@code loadLongs(File, ByteOrder)}, which
     * allocates the arrays.
     */
    private final class BinIoRun extends RowRun {
        private final Path keysFile = file("binio-keys.bin");
        private final Path valuesFile = file("binio-values.bin");

        @Override
        List<Path> files() {
            return List.of(keysFile, valuesFile);
        }

        @Override
        String name() {
            return Row.BINIO.label();
        }

        @Override
        void repetition(int r, int timed) throws IOException {
            cleanUp();
            progress.phase("save");
            HeapMeter.collect();
            long t0 = System.nanoTime();
            store(d.loaded(), keysFile);
            store(values, valuesFile);
            double saved = since(t0);
            bytes = Files.size(keysFile) + Files.size(valuesFile);
            reads(timed, saved, "load", this::load, keysFile, valuesFile);
            cleanUp();
        }

        /** One read of both arrays, timed, then checked and dropped; its seconds. */
        private double load() throws IOException {
            HeapMeter.collect();
            long t0 = System.nanoTime();
            long[] keys = BinIO.loadLongs(keysFile.toFile(), ByteOrder.nativeOrder());
            long[] vals = BinIO.loadLongs(valuesFile.toFile(), ByteOrder.nativeOrder());
            double seconds = since(t0);
            if (!Arrays.equals(keys, d.loaded()) || !Arrays.equals(vals, values)) {
                throw mismatch(name(), "the arrays read back are not the ones written");
            }
            return seconds;
        }

        private static void store(long[] a, Path f) throws IOException {
            try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE)) {
                BinIO.storeLongs(a, ch, ByteOrder.nativeOrder());
                ch.force(true);
            }
        }

        @Override
        SnapshotFigures figures() {
            return new SnapshotFigures(Row.BINIO, null, d.name(), d.keyCount(), d.keyCount(), bytes, save, load,
                    coldFigures(), new double[0], new double[0], 0, null, null);
        }
    }

    /**
     * The physical limit: a file of the largest snapshot's size written sequentially with a
     * {@code FileChannel} from a direct 4 MiB buffer of random bytes (nothing a file system could
     * compress), then {@code force(true)}; read back into another; deleted after each repetition.
     */
    private final class DiskRun extends RowRun {
        private final Path file = file("disk.bin");
        private final ByteBuffer out = ByteBuffer.allocateDirect(BUFFER);
        private final ByteBuffer in = ByteBuffer.allocateDirect(BUFFER);

        DiskRun(long size) {
            bytes = size;
            out.order(ByteOrder.LITTLE_ENDIAN);
            long x = 0x5EED;
            while (out.remaining() >= Long.BYTES) {
                out.putLong(SplitMix64.mix(x++));
            }
        }

        @Override
        List<Path> files() {
            return List.of(file);
        }

        @Override
        String name() {
            return Row.DISK.label();
        }

        @Override
        void repetition(int r, int timed) throws IOException {
            Files.deleteIfExists(file);
            progress.phase("write");
            HeapMeter.collect();
            long t0 = System.nanoTime();
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE)) {
                long left = bytes;
                while (left > 0) {
                    out.clear().limit((int) Math.min(BUFFER, left));
                    while (out.hasRemaining()) {
                        left -= ch.write(out);
                    }
                    progress.work(bytes - left, bytes);
                }
                ch.force(true);
            }
            double written = since(t0);
            reads(timed, written, "read", this::read, file);
            Files.delete(file);
        }

        /** One sequential read of the whole file; its seconds. */
        private double read() throws IOException {
            long t0 = System.nanoTime();
            long read = 0;
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                for (int got; (got = ch.read(in.clear())) >= 0; ) {
                    read += got;
                }
            }
            double seconds = since(t0);
            if (read != bytes) {
                throw new IOException("read " + read + " bytes of " + file + " back, wrote " + bytes);
            }
            return seconds;
        }

        @Override
        SnapshotFigures figures() {
            return new SnapshotFigures(Row.DISK, null, d.name(), d.keyCount(), 0, bytes, save, load, coldFigures(),
                    new double[0], new double[0], 0, null, null);
        }
    }
}
