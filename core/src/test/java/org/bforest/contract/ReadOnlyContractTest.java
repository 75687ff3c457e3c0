package org.bforest.contract;

import static org.bforest.contract.IndexAssertions.assertNotValid;
import static org.bforest.contract.IndexAssertions.assertWalk;
import static org.bforest.contract.SnapshotContractTest.assertContent;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.SortedMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.bforest.Indexes;
import org.bforest.LongCursor;
import org.bforest.LongEntryVisitor;
import org.bforest.LongIndex;
import org.bforest.NativeLongIndex;
import org.bforest.contract.SnapshotShapes.Built;
import org.bforest.contract.SnapshotShapes.Shape;
import org.bforest.testing.ForwardingIndex;
import org.bforest.testing.Implementations.Impl;
import org.bforest.testing.TreeMapIndex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The kit's read-only part: a read-only index ({@link Indexes#map}: a snapshot mapped in place)
 * answers every read as the {@code TreeMap} it was made from, refuses every write with
 * {@link UnsupportedOperationException} and stays as it was, and after {@code close()} refuses
 * every call with {@link IllegalStateException}.
 *
 * <p>The reads ({@link #assertReads}): size and emptiness, the first and last key
 * ({@link NoSuchElementException} when empty), every entry through {@code forEach}, whole-domain
 * visits and both cursor walks; at sampled probes (present keys, their neighbours, the extremes) the
 * three {@code get}s, {@code getOrDefault}, {@code containsKey}, the four neighbours with every
 * {@code absent} value and every seek; {@code getAll}, {@code ceilingKeyAll} and
 * {@code rangeCountAll} on a batch of them; {@code rangeCount} over every pair of bounds with each
 * bound in or out, the extremes among them; {@code rangeVisit} stopped early; cursors moved off
 * both ends; and the {@code asNavigableMap()} view (its entries both ways, neighbours, sub, head
 * and tail maps). They run on the mapped snapshots of the shapes of {@link SnapshotShapes} (all of
 * them for core's BS-tree and its key-only form, some for every other implementation: see
 * {@link #cases()}), and on every implementation itself, bulk-loaded (the checks accept what a correct
 * index answers); a test of broken indexes shows they refuse wrong answers. Two threads read one
 * mapped snapshot at once.
 */
@ExtendWith(NameImplementationOnFailure.class)
class ReadOnlyContractTest {
    private static final long MIN = Long.MIN_VALUE;
    private static final long MAX = Long.MAX_VALUE;
    /** What an out array holds before a call: a write where none belongs shows. */
    private static final long UNTOUCHED = 0x0DD_BA7C4_5E47L;
    /** The default return value the single-argument get is checked with. */
    private static final long DEFAULT = -0x5EED;
    private static final long[] EXTREMES = {MIN, MIN + 1, -1, 0, 1, MAX - 1, MAX};

    /**
     * The mapped snapshots: every shape of the subjects whose files differ in layout (core's BS-tree,
     * with values, and its key-only form; where they are not subjects, the first subject), and of
     * every other subject its extremes and the shapes its own updates made. A snapshot holds entries, not the
     * structure, so the files of two structures with values and the same entries differ only in
     * the kind their header names.
     */
    static Stream<Arguments> cases() {
        List<Impl> subjects = subjects();
        List<String> layouts = List.of("bstree", "bstree-keyonly");
        boolean core = subjects.stream().anyMatch(i -> layouts.contains(i.name()));
        List<Shape> shapes = SnapshotShapes.shapes();
        return subjects.stream().flatMap(impl -> shapes.stream()
                .filter(s -> (core ? layouts.contains(impl.name()) : impl == subjects.get(0))
                        || s.name().equals("the extremes") || s.name().startsWith("a random half")
                        || s.name().startsWith("random inserts"))
                .map(s -> Arguments.of(impl, s)));
    }

    static List<Impl> subjects() {
        return SnapshotShapes.subjects();
    }

    // ---- the tests ------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void mappedSnapshotsReadAsTheirModel(Impl impl, Shape shape, @TempDir Path dir) throws IOException {
        Built b = shape.build(impl);
        Path file = dir.resolve("index.snapshot");
        try {
            b.index().snapshot(file);
        } finally {
            SnapshotShapes.release(b.index());
        }
        String phase = "the mapped snapshot of " + impl + ", " + shape;
        NativeLongIndex mapped = Indexes.map(file);
        try {
            assertReads(mapped, b.model(), b.model().size(), phase);
            assertRefusesWrites(mapped, b.model(), phase);
        } catch (Throwable t) {
            mapped.close();
            throw t;
        }
        assertRefusesEverythingWhenClosed(mapped, !b.model().isEmpty(), dir, phase);
    }

    /** The same reads on the implementations themselves: the checks accept a correct index. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void everyImplementationPassesTheReadChecks(Impl impl) {
        for (Shape shape : SnapshotShapes.shapes()) {
            String name = shape.name();
            if (!(name.equals("empty") || name.equals("the extremes") || name.startsWith("runs and gaps")
                    || name.startsWith("a random half") || name.equals("random keys, 273"))) {
                continue;
            }
            Built b = shape.build(impl);
            try {
                assertReads(b.index(), b.model(), 17, impl + ", " + shape);
            } finally {
                SnapshotShapes.release(b.index());
            }
        }
    }

    /**
     * {@code get(key, value)} on a mapped snapshot checks its out array as
     * {@link LongIndex#get(long, long[])} says, whether the key is there or not: {@code null}
     * throws {@link NullPointerException}, an empty array {@link IllegalArgumentException} (the
     * implementations are held to it by {@link ExactUpdatesContractTest}).
     */
    @Test
    void mappedExactGetChecksItsOutArray(@TempDir Path dir) throws IOException {
        TreeMap<Long, Long> model = new TreeMap<>(Map.of(-5L, 50L, 7L, 70L, MAX, 1L));
        Path file = dir.resolve("index.snapshot");
        TreeMapIndex.bulkLoad(new long[] {-5, 7, MAX}, new long[] {50, 70, 1}).snapshot(file);
        try (NativeLongIndex mapped = Indexes.map(file)) {
            assertExactGetChecks(mapped, model, "a mapped snapshot");
        }
    }

    /**
     * {@code getAll} on a mapped snapshot with {@code Long.MAX_VALUE} in the batch: the key every
     * inner node's padding slots hold, so a descent that does not set it apart runs past the last
     * child (here, 100 keys: 7 leaves under one inner node, and a descent to leaf 16, past the end
     * of the file).
     */
    @Test
    void mappedGetAllOfLongMaxValue(@TempDir Path dir) throws IOException {
        long[] keys = TestKeys.spaced(100, -500, 10);
        for (boolean withMax : new boolean[] {false, true}) {
            if (withMax) {
                keys[keys.length - 1] = MAX;
            }
            Path file = dir.resolve("index" + withMax + ".snapshot");
            TreeMapIndex.bulkLoad(keys, keys).snapshot(file);
            long[] batch = {MAX, keys[3], MAX - 1, MAX};
            long[] want = {withMax ? MAX : -1, keys[3], -1, withMax ? MAX : -1};
            long[] out = new long[batch.length];
            try (NativeLongIndex mapped = Indexes.map(file)) {
                mapped.getAll(batch, out, -1);
            }
            assertEquals(Arrays.toString(want), Arrays.toString(out),
                    "getAll of " + Arrays.toString(batch) + " on a mapped snapshot of 100 keys"
                            + (withMax ? " with" : " without") + " Long.MAX_VALUE");
        }
    }

    private static void assertExactGetChecks(LongIndex index, NavigableMap<Long, Long> model, String phase) {
        long present = model.firstKey();
        long absent = SnapshotContractTest.absentKey(model);
        StringBuilder wrong = new StringBuilder();
        for (long k : new long[] {present, absent}) {
            String which = k == present ? "a present key" : "an absent key";
            check(wrong, () -> index.get(k, (long[]) null), NullPointerException.class, "get(" + which + ", null)");
            check(wrong, () -> index.get(k, new long[0]), IllegalArgumentException.class,
                    "get(" + which + ", new long[0])");
        }
        if (!wrong.isEmpty()) {
            fail(phase + ": get(key, long[]) does not check its out array:" + wrong);
        }
    }

    private static void check(StringBuilder wrong, Executable call, Class<? extends Throwable> expected, String what) {
        try {
            call.execute();
            wrong.append("\n  ").append(what).append(" returned normally, expected ").append(expected.getSimpleName());
        } catch (Throwable t) {
            if (!expected.isInstance(t)) {
                wrong.append("\n  ").append(what).append(" threw ").append(t).append(", expected ")
                        .append(expected.getSimpleName());
            }
        }
    }

    /** The checks find a wrong answer: each of these broken indexes fails them, a correct one passes. */
    @Test
    void theReadChecksFindWrongAnswers() {
        long[] keys = TestKeys.mixed(400, 0xB0CEL);
        long[] values = new long[keys.length];
        for (int i = 0; i < keys.length; i++) {
            values[i] = TestKeys.valueFor(keys[i], 3);
        }
        TreeMap<Long, Long> model = new TreeMap<>();
        for (int i = 0; i < keys.length; i++) {
            model.put(keys[i], values[i]);
        }
        TreeMapIndex right = TreeMapIndex.bulkLoad(keys, values);
        assertReads(right, model, 1, "the model itself");
        // a key every run of the checks probes, however few keys they sample: 0 (an extreme probe)
        long k = 0;
        assertTrue(model.containsKey(k), "the keys hold 0");

        Map<String, LongIndex> broken = new LinkedHashMap<>();
        broken.put("a wrong value", new ForwardingIndex(right) {
            @Override public long get(long key, long absent) {
                return key == k ? delegate.get(key, absent) + 1 : delegate.get(key, absent);
            }
        });
        broken.put("a key missed by containsKey", new ForwardingIndex(right) {
            @Override public boolean containsKey(long key) { return key != k && delegate.containsKey(key); }
        });
        broken.put("an exact get that writes the out array for an absent key", new ForwardingIndex(right) {
            @Override public boolean get(long key, long[] value) {
                boolean there = delegate.get(key, value);
                value[0] = there ? value[0] : 0;
                return there;
            }
        });
        broken.put("the default return value ignored", new ForwardingIndex(right) {
            @Override public long get(long key) { return delegate.get(key, 0); }
        });
        broken.put("ceilingKey as higherKey", new ForwardingIndex(right) {
            @Override public long ceilingKey(long key, long absent) { return delegate.higherKey(key, absent); }
        });
        broken.put("floorKey as lowerKey", new ForwardingIndex(right) {
            @Override public long floorKey(long key, long absent) { return delegate.lowerKey(key, absent); }
        });
        broken.put("higherKey off at Long.MAX_VALUE - 1", new ForwardingIndex(right) {
            @Override public long higherKey(long key, long absent) {
                return key == MAX - 1 ? absent : delegate.higherKey(key, absent);
            }
        });
        broken.put("lowerKey giving the absent value wrong", new ForwardingIndex(right) {
            @Override public long lowerKey(long key, long absent) {
                long l = delegate.lowerKey(key, absent);
                return delegate.containsKey(l) || l != absent ? l : 0;
            }
        });
        broken.put("an exclusive upper bound counted", new ForwardingIndex(right) {
            @Override public long rangeCount(long from, boolean fromInclusive, long to, boolean toInclusive) {
                return delegate.rangeCount(from, fromInclusive, to, true);
            }
        });
        broken.put("a batch count off by one", new ForwardingIndex(right) {
            @Override public void rangeCountAll(long[] from, long[] to, long[] counts) {
                delegate.rangeCountAll(from, to, counts);
                counts[from.length / 2]++;
            }
        });
        broken.put("getAll writing past its batch", new ForwardingIndex(right) {
            @Override public void getAll(long[] keys, long[] values, long absent) {
                delegate.getAll(keys, values, absent);
                if (values.length > keys.length) {
                    values[keys.length] = 0;
                }
            }
        });
        broken.put("ceilingKeyAll as floors", new ForwardingIndex(right) {
            @Override public void ceilingKeyAll(long[] keys, long[] ceilings, long absent) {
                for (int i = 0; i < keys.length; i++) {
                    ceilings[i] = delegate.floorKey(keys[i], absent);
                }
            }
        });
        broken.put("a visit that does not stop", new ForwardingIndex(right) {
            @Override public long rangeVisit(long from, boolean fi, long to, boolean ti, LongEntryVisitor visitor) {
                return delegate.rangeVisit(from, fi, to, ti, (key, value) -> {
                    visitor.visit(key, value);
                    return true;
                });
            }
        });
        broken.put("forEach missing the last entry", new ForwardingIndex(right) {
            @Override public void forEach(org.bforest.LongEntryConsumer action) {
                delegate.forEach((key, value) -> {
                    if (key != keys[keys.length - 1]) {
                        action.accept(key, value);
                    }
                });
            }
        });
        broken.put("a cursor whose previous() skips an entry", new ForwardingIndex(right) {
            @Override public LongCursor cursor() {
                return new SkippingCursor(delegate.cursor(), k);
            }
        });
        broken.put("a size one too many", new ForwardingIndex(right) {
            @Override public long size() { return delegate.size() + 1; }
        });
        broken.put("a view missing an entry", new ForwardingIndex(right) {
            @Override public NavigableMap<Long, Long> asNavigableMap() {
                TreeMap<Long, Long> less = new TreeMap<>(model);
                less.remove(k);
                return less;
            }
        });
        for (Map.Entry<String, LongIndex> e : broken.entrySet()) {
            assertThrows(AssertionError.class, () -> assertReads(e.getValue(), model, 1, e.getKey()),
                    () -> "the read checks passed an index with " + e.getKey());
        }
        TreeMapIndex empty = new TreeMapIndex();
        LongIndex firstOfNothing = new ForwardingIndex(empty) {
            @Override public long firstKey() { return 0; }
        };
        assertThrows(AssertionError.class, () -> assertReads(firstOfNothing, new TreeMap<>(), 1, "empty"),
                "the read checks passed an empty index whose firstKey() returns");
        // an index that takes a write
        assertThrows(AssertionError.class, () -> assertRefusesWrites(right, model, "a writable index"),
                "the write checks passed an index that takes writes");
    }

    /** A cursor that skips {@code skip} when it moves backwards onto it. */
    private static final class SkippingCursor implements LongCursor {
        private final LongCursor c;
        private final long skip;

        SkippingCursor(LongCursor c, long skip) {
            this.c = c;
            this.skip = skip;
        }

        @Override public boolean seekCeiling(long key) { return c.seekCeiling(key); }
        @Override public boolean seekFloor(long key) { return c.seekFloor(key); }
        @Override public boolean seekHigher(long key) { return c.seekHigher(key); }
        @Override public boolean seekLower(long key) { return c.seekLower(key); }
        @Override public boolean seekFirst() { return c.seekFirst(); }
        @Override public boolean seekLast() { return c.seekLast(); }
        @Override public boolean next() { return c.next(); }
        @Override public boolean previous() {
            return c.previous() && (c.key() != skip || c.previous());
        }
        @Override public boolean isValid() { return c.isValid(); }
        @Override public long key() { return c.key(); }
        @Override public long value() { return c.value(); }
        @Override public void remove() { c.remove(); }
    }

    /** Two threads read one mapped snapshot at once, every answer checked. */
    @Test
    void twoThreadsReadOneMappedSnapshot(@TempDir Path dir) throws Exception {
        Impl impl = subjects().stream().filter(i -> i.name().equals("bstree")).findFirst().orElse(subjects().get(0));
        long[] keys = TestKeys.mixed(SnapshotShapes.capped(50_000), 0x2L);
        long[] values = new long[keys.length];
        for (int i = 0; i < keys.length; i++) {
            values[i] = TestKeys.valueFor(keys[i], 5);
        }
        Path file = dir.resolve("index.snapshot");
        LongIndex source = impl.bulk().apply(keys.clone(), values.clone());
        try {
            source.snapshot(file);
        } finally {
            SnapshotShapes.release(source);
        }
        int rounds = TestSubjects.scaled(40_000, 2_000);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (NativeLongIndex mapped = Indexes.map(file)) {
            CyclicBarrier start = new CyclicBarrier(2);
            List<Future<Long>> readers = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                long seed = 0x7EAD + t;
                readers.add(pool.submit(() -> {
                    start.await();
                    return readConcurrently(mapped, keys, values, rounds, seed);
                }));
            }
            for (Future<Long> f : readers) {
                assertEquals(rounds, f.get(2, TimeUnit.MINUTES), "reads checked by a thread");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** {@code rounds} random reads of {@code index}, each checked against the sorted arrays; returns the rounds done. */
    static long readConcurrently(LongIndex index, long[] keys, long[] values, int rounds, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        long[] batch = new long[16];
        long[] out = new long[16];
        for (int i = 0; i < rounds; i++) {
            int at = r.nextInt(keys.length);
            long probe = switch (r.nextInt(4)) {
                case 0 -> keys[at];
                case 1 -> keys[at] + 1;
                case 2 -> keys[at] - 1;
                default -> r.nextLong();
            };
            int below = below(keys, probe);
            boolean there = below < keys.length && keys[below] == probe;
            switch (r.nextInt(5)) {
                case 0 -> check(index.get(probe, UNTOUCHED), there ? values[below] : UNTOUCHED, "get", probe, seed);
                case 1 -> check(index.ceilingKey(probe, UNTOUCHED), below < keys.length ? keys[below] : UNTOUCHED,
                        "ceilingKey", probe, seed);
                case 2 -> {
                    int to = Math.min(keys.length - 1, at + r.nextInt(3000));
                    check(index.rangeCount(probe, true, keys[to], true), Math.max(0, to + 1 - below),
                            "rangeCount to " + keys[to] + " from", probe, seed);
                }
                case 3 -> {
                    LongCursor c = index.cursor(probe);
                    for (int j = below; j < Math.min(keys.length, below + 20); j++) {
                        check(c.isValid() ? c.key() : UNTOUCHED, keys[j], "cursor step " + (j - below) + " from", probe,
                                seed);
                        check(c.value(), values[j], "cursor value at", keys[j], seed);
                        c.next();
                    }
                }
                default -> {
                    for (int j = 0; j < batch.length; j++) {
                        batch[j] = keys[r.nextInt(keys.length)] + (j % 3 == 0 ? 1 : 0);
                    }
                    index.getAll(batch, out, UNTOUCHED);
                    for (int j = 0; j < batch.length; j++) {
                        int p = below(keys, batch[j]);
                        check(out[j], p < keys.length && keys[p] == batch[j] ? values[p] : UNTOUCHED, "getAll of",
                                batch[j], seed);
                    }
                }
            }
        }
        return rounds;
    }

    private static void check(long got, long expected, String what, long probe, long seed) {
        if (got != expected) {
            throw new AssertionError("thread of seed " + seed + ": " + what + " " + probe + " expected " + expected
                    + " but was " + got);
        }
    }

    // ---- the reads ------------------------------------------------------------------------------

    /**
     * Every read of {@code index} against {@code model} (see the class comment); {@code seed} picks
     * the sampled probes. The index is only read ({@code defaultReturnValue} is set and restored).
     * Every message names {@code phase}.
     */
    static void assertReads(LongIndex index, NavigableMap<Long, Long> model, long seed, String phase) {
        long[] keys = model.keySet().stream().mapToLong(Long::longValue).toArray();
        long[] values = model.values().stream().mapToLong(Long::longValue).toArray();
        int n = keys.length;
        assertEquals(n, index.size(), () -> phase + ": size()");
        assertEquals(n == 0, index.isEmpty(), () -> phase + ": isEmpty()");
        if (n == 0) {
            assertThrows(NoSuchElementException.class, index::firstKey, () -> phase + ": firstKey() when empty");
            assertThrows(NoSuchElementException.class, index::lastKey, () -> phase + ": lastKey() when empty");
        } else {
            assertEquals(keys[0], index.firstKey(), () -> phase + ": firstKey()");
            assertEquals(keys[n - 1], index.lastKey(), () -> phase + ": lastKey()");
        }
        assertContent(index, model, phase + ": forEach");
        assertWholeVisits(index, model, keys, phase);
        assertCursorEnds(index, model, phase);

        long[] probes = probes(model, seed);
        assertPointReads(index, model, probes, phase);
        assertBatches(index, keys, values, probes, seed, phase);
        long[] bounds = bounds(probes, seed);
        assertRangeCounts(index, keys, bounds, phase);
        assertVisitsThatStop(index, model, keys, bounds, phase);
        assertView(index.asNavigableMap(), model, bounds, phase + ": asNavigableMap()");
    }

    /** The sampled probes: present keys, their neighbours, the extremes (as {@link IndexAssertions#probes}). */
    private static long[] probes(NavigableMap<Long, Long> model, long seed) {
        return IndexAssertions.probes(model, 250, seed);
    }

    /** Up to 32 of the probes, spread over their range, and the extremes; sorted, distinct. */
    private static long[] bounds(long[] probes, long seed) {
        long[] sorted = probes.clone();
        Arrays.sort(sorted);
        long[] b = new long[32 + EXTREMES.length];
        int n = 0;
        for (int i = 0; i < 32; i++) {
            b[n++] = sorted[(int) ((long) i * (sorted.length - 1) / 31)];
        }
        for (long e : EXTREMES) {
            b[n++] = e;
        }
        return Arrays.stream(b, 0, n).sorted().distinct().toArray();
    }

    /** Visits of the whole domain, each extreme in or out, and the half-open one. */
    private static void assertWholeVisits(LongIndex index, NavigableMap<Long, Long> model, long[] keys, String phase) {
        for (int combo = 0; combo < 4; combo++) {
            boolean fi = (combo & 1) != 0;
            boolean ti = (combo & 2) != 0;
            assertVisit(index, model, keys, MIN, fi, MAX, ti, Integer.MAX_VALUE, phase);
        }
        IndexAssertions.assertRangeVisit(index, model, MIN, MAX, phase + ": rangeVisit(from, to)");
    }

    /** New cursors, walks both ways, and moves off both ends. */
    private static void assertCursorEnds(LongIndex index, NavigableMap<Long, Long> model, String phase) {
        LongCursor c = index.cursor();
        assertNotValid(c, phase + ": a new cursor()");
        assertFalse(c.next(), () -> phase + ": next() on a cursor never positioned");
        assertFalse(c.previous(), () -> phase + ": previous() on a cursor never positioned");
        assertNotValid(c, phase + ": a cursor never positioned, after next() and previous()");
        assertWalk(c, c.seekFirst(), model.entrySet().iterator(), true, phase + ": walk from seekFirst()");
        assertFalse(c.next(), () -> phase + ": next() after the walk fell off the end");
        assertFalse(c.previous(), () -> phase + ": previous() after the walk fell off the end");
        assertNotValid(c, phase + ": after moving a cursor that fell off the end");
        assertWalk(c, c.seekLast(), model.descendingMap().entrySet().iterator(), false,
                phase + ": walk back from seekLast()");
        assertFalse(c.previous(), () -> phase + ": previous() after the walk fell off the start");
        assertFalse(c.next(), () -> phase + ": next() after the walk fell off the start");
        assertNotValid(c, phase + ": after moving a cursor that fell off the start");
        if (!model.isEmpty()) {
            assertTrue(c.seekLast(), () -> phase + ": seekLast()");
            assertFalse(c.next(), () -> phase + ": next() from the last key");
            assertNotValid(c, phase + ": next() from the last key");
            assertTrue(c.seekFirst(), () -> phase + ": seekFirst()");
            assertFalse(c.previous(), () -> phase + ": previous() from the first key");
            assertNotValid(c, phase + ": previous() from the first key");
        }
        for (long e : EXTREMES) {
            IndexAssertions.assertSeeks(index, model, e, phase);
        }
    }

    /** The gets, containsKey, the neighbours with every absent value, and every seek, at each probe. */
    private static void assertPointReads(LongIndex index, NavigableMap<Long, Long> model, long[] probes, String phase) {
        long saved = index.defaultReturnValue();
        index.defaultReturnValue(DEFAULT);
        try {
            assertEquals(DEFAULT, index.defaultReturnValue(), () -> phase + ": defaultReturnValue() after it was set");
            long[] out = new long[1];
            for (long p : probes) {
                IndexAssertions.assertNeighbours(index, model, p, phase);
                Long v = model.get(p);
                long want = v == null ? DEFAULT : v;
                if (index.get(p) != want) {
                    fail(phase + ": get(" + p + ") with defaultReturnValue " + DEFAULT + " expected " + want + " but was "
                            + index.get(p));
                }
                long orElse = v == null ? 77 : v;
                if (index.getOrDefault(p, 77) != orElse) {
                    fail(phase + ": getOrDefault(" + p + ", 77) expected " + orElse + " but was " + index.getOrDefault(p, 77));
                }
                out[0] = UNTOUCHED;
                boolean there = index.get(p, out);
                if (there != (v != null) || out[0] != (v == null ? UNTOUCHED : v)) {
                    fail(phase + ": get(" + p + ", out) expected " + (v != null) + " with out " + (v == null ? "untouched" : v)
                            + " but was " + there + " with " + out[0]);
                }
                IndexAssertions.assertSeeks(index, model, p, phase);
            }
        } finally {
            index.defaultReturnValue(saved);
        }
    }

    /** getAll, ceilingKeyAll and rangeCountAll on a shuffled batch of the probes with repeats. */
    private static void assertBatches(LongIndex index, long[] keys, long[] values, long[] probes, long seed,
            String phase) {
        long[] batch = Arrays.copyOf(probes, probes.length + probes.length / 3);
        System.arraycopy(probes, 0, batch, probes.length, probes.length / 3);
        TestKeys.shuffle(batch, new SplittableRandom(seed));
        long[] out = new long[batch.length + 1];
        for (long absent : new long[] {MIN, -3, MAX}) {
            Arrays.fill(out, UNTOUCHED);
            index.getAll(batch, out, absent);
            for (int i = 0; i < batch.length; i++) {
                int p = below(keys, batch[i]);
                long want = p < keys.length && keys[p] == batch[i] ? values[p] : absent;
                if (out[i] != want) {
                    fail(phase + ": getAll(..., " + absent + ") at " + i + " (key " + batch[i] + ") expected " + want
                            + " but was " + out[i]);
                }
            }
            assertEquals(UNTOUCHED, out[batch.length], () -> phase + ": getAll wrote past the batch");
            Arrays.fill(out, UNTOUCHED);
            index.ceilingKeyAll(batch, out, absent);
            for (int i = 0; i < batch.length; i++) {
                int p = below(keys, batch[i]);
                long want = p < keys.length ? keys[p] : absent;
                if (out[i] != want) {
                    fail(phase + ": ceilingKeyAll(..., " + absent + ") at " + i + " (key " + batch[i] + ") expected "
                            + want + " but was " + out[i]);
                }
            }
            assertEquals(UNTOUCHED, out[batch.length], () -> phase + ": ceilingKeyAll wrote past the batch");
        }
        long[] to = batch.clone();
        TestKeys.shuffle(to, new SplittableRandom(seed + 1));
        Arrays.fill(out, UNTOUCHED);
        index.rangeCountAll(batch, to, out);
        for (int i = 0; i < batch.length; i++) {
            long want = count(keys, batch[i], true, to[i], false);
            if (out[i] != want) {
                fail(phase + ": rangeCountAll at " + i + " [" + batch[i] + ", " + to[i] + ") expected " + want
                        + " but was " + out[i]);
            }
        }
        assertEquals(UNTOUCHED, out[batch.length], () -> phase + ": rangeCountAll wrote past the batch");
    }

    /** rangeCount over every pair of bounds, each bound in or out, and the half-open form. */
    private static void assertRangeCounts(LongIndex index, long[] keys, long[] bounds, String phase) {
        for (long from : bounds) {
            for (long to : bounds) {
                for (int combo = 0; combo < 4; combo++) {
                    boolean fi = (combo & 1) != 0;
                    boolean ti = (combo & 2) != 0;
                    long want = count(keys, from, fi, to, ti);
                    long got = index.rangeCount(from, fi, to, ti);
                    if (want != got) {
                        fail(phase + ": rangeCount(" + from + ", " + fi + ", " + to + ", " + ti + ") expected " + want
                                + " but was " + got);
                    }
                }
                long want = count(keys, from, true, to, false);
                long got = index.rangeCount(from, to);
                if (want != got) {
                    fail(phase + ": rangeCount(" + from + ", " + to + ") expected " + want + " but was " + got);
                }
            }
        }
    }

    /** rangeVisit between pairs of bounds, each bound in or out, the visitor stopping after 1 to 5 entries. */
    private static void assertVisitsThatStop(LongIndex index, NavigableMap<Long, Long> model, long[] keys,
            long[] bounds, String phase) {
        int pair = 0;
        for (int i = 0; i < bounds.length; i += 2) {
            for (int j = i; j < bounds.length; j += 3) {
                pair++;
                int combo = pair & 3;
                long count = count(keys, bounds[i], (combo & 1) != 0, bounds[j], (combo & 2) != 0);
                int stopAt = count <= 40 && pair % 4 == 0 ? Integer.MAX_VALUE : 1 + pair % 5;
                assertVisit(index, model, keys, bounds[i], (combo & 1) != 0, bounds[j], (combo & 2) != 0, stopAt, phase);
                // and backwards: an empty range
                if (i != j) {
                    assertVisit(index, model, keys, bounds[j], true, bounds[i], true, stopAt, phase);
                }
            }
        }
    }

    /** One visit that stops after {@code stopAt} entries: the entries and the count it returns. */
    private static void assertVisit(LongIndex index, NavigableMap<Long, Long> model, long[] keys, long from,
            boolean fi, long to, boolean ti, int stopAt, String phase) {
        List<long[]> seen = new ArrayList<>();
        long returned = index.rangeVisit(from, fi, to, ti, (k, v) -> {
            seen.add(new long[] {k, v});
            return seen.size() < stopAt;
        });
        String what = phase + ": rangeVisit(" + from + ", " + fi + ", " + to + ", " + ti + ") stopped after "
                + (stopAt == Integer.MAX_VALUE ? "none" : stopAt);
        long count = count(keys, from, fi, to, ti);
        long want = Math.min(count, stopAt);
        if (returned != want || seen.size() != want) {
            fail(what + ": expected " + want + " entries, visited " + seen.size() + " and returned " + returned);
        }
        if (want > 0) {
            long lo = fi ? from : from + 1;
            Iterator<Map.Entry<Long, Long>> it = model.tailMap(lo, true).entrySet().iterator();
            for (int i = 0; i < want; i++) {
                Map.Entry<Long, Long> e = it.next();
                if (seen.get(i)[0] != e.getKey() || seen.get(i)[1] != e.getValue()) {
                    fail(what + ": visit #" + i + " expected " + e + " but was " + seen.get(i)[0] + "=" + seen.get(i)[1]);
                }
            }
        }
    }

    /** The java.util view: content both ways, neighbours at the bounds, and sub, head and tail maps. */
    private static void assertView(NavigableMap<Long, Long> view, NavigableMap<Long, Long> model, long[] bounds,
            String phase) {
        assertEquals(model.size(), view.size(), () -> phase + ": size()");
        assertEquals(model.isEmpty(), view.isEmpty(), () -> phase + ": isEmpty()");
        assertEquals(model, view, () -> phase + ": equals the model");
        assertEquals(view, model, () -> phase + ": the model equals it");
        assertEquals(model.hashCode(), view.hashCode(), () -> phase + ": hashCode()");
        assertSameEntries(model, view, phase);
        assertSameEntries(model.descendingMap(), view.descendingMap(), phase + ".descendingMap()");
        assertEquals(new ArrayList<>(model.descendingKeySet()), new ArrayList<>(view.descendingKeySet()),
                () -> phase + ".descendingKeySet()");
        assertEquals(new ArrayList<>(model.values()), new ArrayList<>(view.values()), () -> phase + ".values()");
        assertEquals(model.firstEntry(), view.firstEntry(), () -> phase + ".firstEntry()");
        assertEquals(model.lastEntry(), view.lastEntry(), () -> phase + ".lastEntry()");
        if (model.isEmpty()) {
            assertThrows(NoSuchElementException.class, view::firstKey, () -> phase + ".firstKey() when empty");
            assertThrows(NoSuchElementException.class, view::lastKey, () -> phase + ".lastKey() when empty");
        } else {
            assertEquals(model.firstKey(), view.firstKey(), () -> phase + ".firstKey()");
            assertEquals(model.lastKey(), view.lastKey(), () -> phase + ".lastKey()");
        }
        for (long b : bounds) {
            assertEquals(model.get(b), view.get(b), () -> phase + ".get(" + b + ")");
            assertEquals(model.containsKey(b), view.containsKey(b), () -> phase + ".containsKey(" + b + ")");
            assertEquals(model.ceilingEntry(b), view.ceilingEntry(b), () -> phase + ".ceilingEntry(" + b + ")");
            assertEquals(model.floorEntry(b), view.floorEntry(b), () -> phase + ".floorEntry(" + b + ")");
            assertEquals(model.higherEntry(b), view.higherEntry(b), () -> phase + ".higherEntry(" + b + ")");
            assertEquals(model.lowerEntry(b), view.lowerEntry(b), () -> phase + ".lowerEntry(" + b + ")");
            assertEquals(model.ceilingKey(b), view.ceilingKey(b), () -> phase + ".ceilingKey(" + b + ")");
            assertEquals(model.lowerKey(b), view.lowerKey(b), () -> phase + ".lowerKey(" + b + ")");
        }
        // a few sub, head and tail maps: bounds a quarter and three quarters in, and the extremes
        long a = bounds[bounds.length / 4];
        long z = bounds[bounds.length * 3 / 4];
        for (boolean li : new boolean[] {true, false}) {
            boolean hi = !li;
            assertSameEntries(model.subMap(a, li, z, hi), view.subMap(a, li, z, hi),
                    phase + ".subMap(" + a + ", " + li + ", " + z + ", " + hi + ")");
            assertSameEntries(model.subMap(MIN, li, z, li), view.subMap(MIN, li, z, li),
                    phase + ".subMap(MIN_VALUE, " + li + ", " + z + ", " + li + ")");
            assertSameEntries(model.headMap(z, li), view.headMap(z, li), phase + ".headMap(" + z + ", " + li + ")");
            assertSameEntries(model.tailMap(a, li), view.tailMap(a, li), phase + ".tailMap(" + a + ", " + li + ")");
            assertSameEntries(model.tailMap(MAX, li), view.tailMap(MAX, li), phase + ".tailMap(MAX_VALUE, " + li + ")");
            assertSameEntries(model.descendingMap().headMap(a, li), view.descendingMap().headMap(a, li),
                    phase + ".descendingMap().headMap(" + a + ", " + li + ")");
        }
        assertSameEntries(model.subMap(a, z), view.subMap(a, z), phase + ".subMap(" + a + ", " + z + ")");
        NavigableMap<Long, Long> sub = view.subMap(a, true, z, true);
        NavigableMap<Long, Long> modelSub = model.subMap(a, true, z, true);
        assertEquals(modelSub.firstEntry(), sub.firstEntry(), () -> phase + ".subMap(...).firstEntry()");
        assertEquals(modelSub.lastEntry(), sub.lastEntry(), () -> phase + ".subMap(...).lastEntry()");
        assertEquals(modelSub.size(), sub.size(), () -> phase + ".subMap(...).size()");
    }

    private static void assertSameEntries(SortedMap<Long, Long> expected, SortedMap<Long, Long> view,
            String phase) {
        assertEquals(expected.size(), view.size(), () -> phase + ": size()");
        Iterator<Map.Entry<Long, Long>> e = expected.entrySet().iterator();
        Iterator<Map.Entry<Long, Long>> v = view.entrySet().iterator();
        int i = 0;
        while (e.hasNext()) {
            if (!v.hasNext()) {
                fail(phase + ": the entries end after " + i + ", expected " + expected.size());
            }
            Map.Entry<Long, Long> want = e.next();
            Map.Entry<Long, Long> got = v.next();
            if (!want.getKey().equals(got.getKey()) || !want.getValue().equals(got.getValue())) {
                fail(phase + ": entry #" + i + " expected " + want + " but was " + got);
            }
            i++;
        }
        assertFalse(v.hasNext(), () -> phase + ": more entries than the " + expected.size() + " expected");
    }

    // ---- writes and close -----------------------------------------------------------------------

    /**
     * Every write that would change the index throws {@link UnsupportedOperationException}, through
     * the index, a cursor and the view; the writes that would change nothing throw it or give the
     * answer of no change. Afterwards the index holds what it held.
     */
    static void assertRefusesWrites(LongIndex index, NavigableMap<Long, Long> model, String phase) {
        long absent = SnapshotContractTest.absentKey(model);
        Map<String, Executable> writes = new LinkedHashMap<>();
        NavigableMap<Long, Long> view = index.asNavigableMap();
        writes.put("put(absent, 1)", () -> index.put(absent, 1));
        writes.put("put(absent, 0)", () -> index.put(absent, 0));
        writes.put("put(absent, 1, previous)", () -> index.put(absent, 1, new long[1]));
        writes.put("upsert(absent, 0)", () -> index.upsert(absent, 0));
        writes.put("putIfAbsent(absent, 0, present)", () -> index.putIfAbsent(absent, 0, new long[1]));
        writes.put("putAll of one entry", () -> index.putAll(new long[] {absent}, new long[] {0}));
        writes.put("clear()", index::clear);
        writes.put("view.put(absent, 0)", () -> view.put(absent, 0L));
        writes.put("view.putIfAbsent(absent, 0)", () -> view.putIfAbsent(absent, 0L));
        writes.put("view.putAll of one entry", () -> view.putAll(Map.of(absent, 0L)));
        writes.put("view.merge(absent, 0, sum)", () -> view.merge(absent, 0L, Long::sum));
        writes.put("view.computeIfAbsent(absent)", () -> view.computeIfAbsent(absent, k -> 0L));
        if (!model.isEmpty()) {
            long first = model.firstKey();
            long last = model.lastKey();
            long v = model.get(first);
            writes.put("put(first, its value)", () -> index.put(first, v));
            writes.put("put(first, another value)", () -> index.put(first, v + 1));
            writes.put("put(last, 0, previous)", () -> index.put(last, 0, new long[1]));
            writes.put("upsert(last, 0)", () -> index.upsert(last, 0));
            writes.put("replace(first, another value, previous)", () -> index.replace(first, v + 1, new long[1]));
            writes.put("replace(first, its value, another)", () -> index.replace(first, v, v + 1));
            writes.put("remove(first)", () -> index.remove(first));
            writes.put("remove(last)", () -> index.remove(last));
            writes.put("remove(first, previous)", () -> index.remove(first, new long[1]));
            writes.put("remove(first, its value)", () -> index.remove(first, v));
            writes.put("delete(last)", () -> index.delete(last));
            writes.put("removeAll of the first key", () -> index.removeAll(new long[] {first}));
            writes.put("removeAll of an absent and the last key", () -> index.removeAll(new long[] {absent, last}));
            writes.put("putAll of the first key", () -> index.putAll(new long[] {first}, new long[] {v + 1}));
            writes.put("cursor remove() at the first key", () -> index.cursor(first).remove());
            writes.put("cursor remove() at the last key", () -> {
                LongCursor c = index.cursor();
                c.seekLast();
                c.remove();
            });
            writes.put("view.put(first, another value)", () -> view.put(first, v + 1));
            writes.put("view.remove(first)", () -> view.remove(first));
            writes.put("view.remove(first, its value)", () -> view.remove(first, v));
            writes.put("view.replace(first, another value)", () -> view.replace(first, v + 1));
            writes.put("view.replace(first, its value, another)", () -> view.replace(first, v, v + 1));
            writes.put("view.clear()", view::clear);
            writes.put("view.pollFirstEntry()", view::pollFirstEntry);
            writes.put("view.pollLastEntry()", view::pollLastEntry);
            writes.put("view.descendingMap().pollFirstEntry()", () -> view.descendingMap().pollFirstEntry());
            writes.put("view.navigableKeySet().pollFirst()", () -> view.navigableKeySet().pollFirst());
            writes.put("view.keySet().remove(first)", () -> view.keySet().remove(first));
            writes.put("view.entrySet() iterator remove()", () -> {
                Iterator<Map.Entry<Long, Long>> it = view.entrySet().iterator();
                it.next();
                it.remove();
            });
            writes.put("view.entrySet() entry setValue()", () -> view.entrySet().iterator().next().setValue(v + 1));
            writes.put("view.headMap(last, true).clear()", () -> view.headMap(last, true).clear());
            writes.put("view.tailMap(first, true).remove(first)", () -> view.tailMap(first, true).remove(first));
            writes.put("view.merge(first, 1, sum)", () -> view.merge(first, 1L, Long::sum));
            writes.put("view.replaceAll(+1)", () -> view.replaceAll((k, x) -> x + 1));
        }
        for (Map.Entry<String, Executable> w : writes.entrySet()) {
            assertThrows(UnsupportedOperationException.class, w.getValue(),
                    () -> phase + ": " + w.getKey() + " on a read-only index");
            assertEquals(model.size(), index.size(), () -> phase + ": size() after " + w.getKey() + " was refused");
        }
        // what would change nothing: refused as well, or answered as no change
        long firstOrAbsent = model.isEmpty() ? absent : model.firstKey();
        long wrongValue = model.isEmpty() ? 0 : model.get(firstOrAbsent) + 1;
        Map<String, java.util.concurrent.Callable<Object>> noChange = new LinkedHashMap<>();
        noChange.put("remove(absent, previous) -> false", () -> index.remove(absent, new long[1]));
        noChange.put("replace(absent, 1, previous) -> false", () -> index.replace(absent, 1, new long[1]));
        noChange.put("replace(absent, 0, 1) -> false", () -> index.replace(absent, 0, 1));
        noChange.put("remove(absent, 0) -> false", () -> index.remove(absent, 0));
        noChange.put("delete(absent) -> false", () -> index.delete(absent));
        noChange.put("removeAll(absent) -> 0", () -> index.removeAll(new long[] {absent}));
        noChange.put("removeAll(none) -> 0", () -> index.removeAll(new long[0]));
        noChange.put("putAll(none) -> null", () -> {
            index.putAll(new long[0], new long[0]);
            return null;
        });
        noChange.put("view.remove(absent) -> null", () -> view.remove(absent));
        if (!model.isEmpty()) {
            noChange.put("remove(first, a wrong value) -> false", () -> index.remove(firstOrAbsent, wrongValue));
            noChange.put("replace(first, a wrong value, 0) -> false", () -> index.replace(firstOrAbsent, wrongValue, 0));
            noChange.put("putIfAbsent(first, 0, present) -> true", () -> index.putIfAbsent(firstOrAbsent, 0, new long[1]));
        }
        for (Map.Entry<String, java.util.concurrent.Callable<Object>> w : noChange.entrySet()) {
            Object got;
            try {
                got = w.getValue().call();
            } catch (UnsupportedOperationException refused) {
                continue;
            } catch (Exception e) {
                throw new AssertionError(phase + ": " + w.getKey() + " threw " + e, e);
            }
            String answer = w.getKey().substring(w.getKey().indexOf("-> ") + 3);
            assertEquals(answer, String.valueOf(got), () -> phase + ": " + w.getKey() + " on a read-only index");
        }
        assertContent(index, model, phase + ": after every write was refused");
    }

    /**
     * After {@code close()}: {@code isClosed()}, a second {@code close()} that does nothing, and
     * {@link IllegalStateException} from every read and write, through the index, a cursor made
     * before and the view; a snapshot of it throws the same and leaves no file.
     */
    static void assertRefusesEverythingWhenClosed(NativeLongIndex index, boolean nonEmpty, Path dir, String phase) {
        LongCursor before = index.cursor();
        before.seekFirst();
        NavigableMap<Long, Long> view = index.asNavigableMap();
        assertFalse(index.isClosed(), () -> phase + ": isClosed() before close()");
        index.close();
        assertTrue(index.isClosed(), () -> phase + ": isClosed() after close()");
        index.close();
        assertTrue(index.isClosed(), () -> phase + ": isClosed() after a second close()");
        Path file = dir.resolve("closed.snapshot");
        Map<String, Executable> calls = new LinkedHashMap<>();
        calls.put("get(1, 0)", () -> index.get(1, 0));
        calls.put("get(1)", () -> index.get(1));
        calls.put("get(1, value)", () -> index.get(1, new long[1]));
        calls.put("getOrDefault(1, 0)", () -> index.getOrDefault(1, 0));
        calls.put("containsKey(1)", () -> index.containsKey(1));
        calls.put("size()", index::size);
        calls.put("isEmpty()", index::isEmpty);
        calls.put("firstKey()", index::firstKey);
        calls.put("lastKey()", index::lastKey);
        calls.put("ceilingKey(1, 0)", () -> index.ceilingKey(1, 0));
        calls.put("floorKey(1, 0)", () -> index.floorKey(1, 0));
        calls.put("higherKey(1, 0)", () -> index.higherKey(1, 0));
        calls.put("lowerKey(1, 0)", () -> index.lowerKey(1, 0));
        calls.put("getAll", () -> index.getAll(new long[1], new long[1], 0));
        calls.put("ceilingKeyAll", () -> index.ceilingKeyAll(new long[1], new long[1], 0));
        calls.put("rangeCountAll", () -> index.rangeCountAll(new long[1], new long[1], new long[1]));
        calls.put("rangeCount(0, 10)", () -> index.rangeCount(0, 10));
        calls.put("rangeCount(MIN, true, MAX, true)", () -> index.rangeCount(MIN, true, MAX, true));
        calls.put("rangeVisit(0, 10)", () -> index.rangeVisit(0, 10, (k, v) -> true));
        calls.put("rangeVisit(MIN, true, MAX, true)", () -> index.rangeVisit(MIN, true, MAX, true, (k, v) -> true));
        calls.put("forEach", () -> index.forEach((k, v) -> { }));
        calls.put("cursor()", index::cursor);
        calls.put("cursor(0)", () -> index.cursor(0));
        calls.put("memoryBytes()", index::memoryBytes);
        calls.put("put(1, 2)", () -> index.put(1, 2));
        calls.put("remove(1)", () -> index.remove(1));
        calls.put("clear()", index::clear);
        calls.put("upsert(1, 0)", () -> index.upsert(1, 0));
        calls.put("delete(1)", () -> index.delete(1));
        calls.put("putAll of one entry", () -> index.putAll(new long[1], new long[1]));
        calls.put("removeAll of one key", () -> index.removeAll(new long[1]));
        calls.put("snapshot(file)", () -> index.snapshot(file));
        calls.put("a cursor's seekFirst()", before::seekFirst);
        calls.put("a cursor's seekCeiling(0)", () -> before.seekCeiling(0));
        calls.put("a cursor's isValid()", before::isValid);
        calls.put("a cursor's key()", before::key);
        calls.put("a cursor's value()", before::value);
        calls.put("a cursor's remove()", before::remove);
        if (nonEmpty) {
            calls.put("a valid cursor's next()", before::next);
            calls.put("a valid cursor's previous()", before::previous);
        }
        calls.put("view.size()", view::size);
        calls.put("view.get(1)", () -> view.get(1L));
        calls.put("view.containsKey(1)", () -> view.containsKey(1L));
        calls.put("view.firstEntry()", view::firstEntry);
        calls.put("view.ceilingKey(0)", () -> view.ceilingKey(0L));
        calls.put("view.entrySet().iterator().hasNext()", () -> view.entrySet().iterator().hasNext());
        calls.put("view.put(1, 2)", () -> view.put(1L, 2L));
        for (Map.Entry<String, Executable> c : calls.entrySet()) {
            assertThrows(IllegalStateException.class, c.getValue(), () -> phase + ": " + c.getKey() + " after close()");
        }
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(List.of(), s.filter(p -> !p.getFileName().toString().equals("index.snapshot")).toList(),
                    () -> phase + ": files left by a snapshot of a closed index");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ---- the expected answers, from the sorted keys ---------------------------------------------

    /** The number of keys {@code < x}. */
    static int below(long[] keys, long x) {
        int i = Arrays.binarySearch(keys, x);
        return i >= 0 ? i : -i - 1;
    }

    /** The number of keys between the bounds, each in or out, as {@link LongIndex#rangeCount} defines it. */
    static long count(long[] keys, long from, boolean fi, long to, boolean ti) {
        if (!fi && from == MAX || !ti && to == MIN) {
            return 0;
        }
        long lo = fi ? from : from + 1;
        long hi = ti ? to : to - 1;
        if (lo > hi) {
            return 0;
        }
        int atMostHi = hi == MAX ? keys.length : below(keys, hi + 1);
        return atMostHi - below(keys, lo);
    }
}
