package org.bforest.contract;

import static org.bforest.contract.IndexAssertions.assertMatches;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.bforest.LongCursor;
import org.bforest.LongIndex;
import org.bforest.NativeLongIndex;
import org.bforest.testing.Capability;
import org.bforest.testing.Implementations.Impl;

/**
 * The 1.0 API on every registered structure: fastutil's meaning of {@code put},
 * {@code remove} and the default return value, the boolean {@code upsert}/{@code delete}, ranges
 * with inclusive and exclusive bounds on both ends, {@code forEach} and visitors that stop,
 * {@code getAll}/{@code putAll} against {@code get}/{@code put}, bad arguments that leave the index
 * unchanged, reads from many threads at once, and, for native structures, use after close.
 */
class ApiContractTest {
    private static final long MIN = Long.MIN_VALUE;
    private static final long MAX = Long.MAX_VALUE;

    /** A loaded index and its model: keys from every region of the key space, extremes included. */
    private record Loaded(LongIndex index, TreeMap<Long, Long> model) { }

    private static Loaded load(Impl impl, int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        TreeMap<Long, Long> model = new TreeMap<>();
        for (long k : new long[] {MIN, MIN + 1, -1, 0, 1, MAX - 1, MAX}) {
            model.put(k, k ^ 0x5555);
        }
        while (model.size() < n) {
            long k = switch (r.nextInt(3)) {
                case 0 -> r.nextLong();
                case 1 -> r.nextLong(-5_000, 5_000) * 3;
                default -> (1L << 40) + r.nextLong(0, 100_000);
            };
            model.put(k, r.nextLong());
        }
        long[] keys = model.keySet().stream().mapToLong(Long::longValue).toArray();
        long[] values = model.values().stream().mapToLong(Long::longValue).toArray();
        return new Loaded(impl.bulk().apply(keys, values), model);
    }

    private static long[] probes(TreeMap<Long, Long> model, int n, SplittableRandom r) {
        long[] keys = model.keySet().stream().mapToLong(Long::longValue).toArray();
        long[] p = new long[n];
        for (int i = 0; i < n; i++) {
            p[i] = switch (r.nextInt(4)) {
                case 0 -> keys[r.nextInt(keys.length)];
                case 1 -> keys[r.nextInt(keys.length)] + (r.nextBoolean() ? 1 : -1);
                case 2 -> new long[] {MIN, MAX, MIN + 1, MAX - 1, 0, -1}[r.nextInt(6)];
                default -> r.nextLong();
            };
        }
        return p;
    }

    @ForEachImplementation
    void putAndRemoveReturnThePreviousValueOrTheDefault(Impl impl) {
        LongIndex index = impl.empty().get();
        assertEquals(0, index.defaultReturnValue(), "the default return value starts at 0");
        index.defaultReturnValue(-7);
        assertEquals(-7, index.defaultReturnValue());
        for (long k : new long[] {MIN, -1, 0, 42, MAX}) {
            assertEquals(-7, index.get(k), "get(" + k + ") of an absent key");
            assertEquals(-7, index.put(k, k + 1), "put(" + k + ") of a new key");
            assertEquals(k + 1, index.get(k), "get(" + k + ")");
            assertEquals(k + 1, index.put(k, k + 2), "put(" + k + ") of an existing key returns its value");
            assertEquals(k + 2, index.get(k, 99));
            assertFalse(index.upsert(k, k + 3), "upsert(" + k + ") of an existing key");
            assertEquals(k + 3, index.remove(k), "remove(" + k + ") returns the value");
            assertEquals(-7, index.remove(k), "remove(" + k + ") of an absent key");
            assertFalse(index.delete(k), "delete(" + k + ") of an absent key");
            assertTrue(index.upsert(k, 5), "upsert(" + k + ") of a new key");
            assertTrue(index.delete(k), "delete(" + k + ") of a present key");
        }
        assertEquals(0, index.size());
        index.put(3, -7);   // a real value equal to the default: get says -7 either way, containsKey tells
        assertTrue(index.containsKey(3));
        assertEquals(-7, index.remove(3));
        IndexAssertions.checkInvariants(index);
    }

    @ForEachImplementation
    void getOrDefaultIsGetWithTheGivenAbsentValue(Impl impl) {
        Loaded l = load(impl, 2_000, 71);
        LongIndex index = l.index();
        index.defaultReturnValue(-7);   // getOrDefault ignores the default return value
        SplittableRandom r = new SplittableRandom(72);
        for (long p : probes(l.model(), TestSubjects.scaled(1_000, 50), r)) {
            for (long absent : new long[] {MIN, MAX, 0, -1, -7, l.model().getOrDefault(p, 5L)}) {
                assertEquals(l.model().getOrDefault(p, absent), index.getOrDefault(p, absent),
                        "getOrDefault(" + p + ", " + absent + ")");
                assertEquals(index.get(p, absent), index.getOrDefault(p, absent), "getOrDefault is get(key, absent)");
            }
        }
        LongIndex empty = impl.empty().get();
        assertEquals(42, empty.getOrDefault(MAX, 42), "an empty index");
        empty.put(MAX, 9);
        assertEquals(9, empty.getOrDefault(MAX, 42), "Long.MAX_VALUE, kept out of band by the trees");
    }

    @ForEachImplementation
    void rangesWithEveryBoundFlavourAgreeWithTreeMap(Impl impl) {
        Loaded l = load(impl, 3_000, 11);
        SplittableRandom r = new SplittableRandom(12);
        long[] p = probes(l.model(), TestSubjects.scaled(4_000, 400), r);
        for (int i = 0; i + 1 < p.length; i += 2) {
            long from = p[i];
            long to = r.nextInt(3) == 0 ? p[i + 1] : from + r.nextLong(0, 1L << 20);
            if (to < from && r.nextBoolean()) {
                to = MAX;
            }
            for (int flags = 0; flags < 4; flags++) {
                boolean fi = (flags & 1) != 0;
                boolean ti = (flags & 2) != 0;
                NavigableMap<Long, Long> sub = from > to || (from == to && !(fi && ti)) ? new TreeMap<>()
                        : l.model().subMap(from, fi, to, ti);
                String what = (fi ? "[" : "(") + from + ", " + to + (ti ? "]" : ")");
                assertEquals(sub.size(), l.index().rangeCount(from, fi, to, ti), "rangeCount " + what);
                List<long[]> seen = new ArrayList<>();
                long n = l.index().rangeVisit(from, fi, to, ti, (k, v) -> seen.add(new long[] {k, v}));
                assertEquals(sub.size(), n, "rangeVisit's count " + what);
                int j = 0;
                for (Map.Entry<Long, Long> e : sub.entrySet()) {
                    assertArrayEquals(new long[] {e.getKey(), e.getValue()}, seen.get(j++), "entry of " + what);
                }
            }
        }
        assertEquals(l.model().size(), l.index().rangeCount(MIN, true, MAX, true), "[MIN, MAX] holds every key");
        assertEquals(1, l.index().rangeCount(MAX, true, MAX, true), "[MAX, MAX]");
        assertEquals(0, l.index().rangeCount(MAX, false, MAX, true), "(MAX, MAX]");
        assertEquals(0, l.index().rangeCount(MIN, true, MIN, false), "[MIN, MIN)");
        assertEquals(l.model().size() - 2, l.index().rangeCount(MIN, false, MAX, false), "(MIN, MAX)");
    }

    @ForEachImplementation
    void visitorsStopWhenTheySayAndForEachSeesEverything(Impl impl) {
        Loaded l = load(impl, 2_000, 21);
        List<Long> keys = new ArrayList<>(l.model().keySet());
        for (int stopAfter : new int[] {1, 2, 17, 100, keys.size() - 1, keys.size()}) {
            int[] calls = {0};
            long n = l.index().rangeVisit(MIN, true, MAX, true, (k, v) -> {
                assertEquals(keys.get(calls[0]), k);
                return ++calls[0] < stopAfter;
            });
            assertEquals(stopAfter, n, "visited until the visitor said stop");
            assertEquals(stopAfter, calls[0], "no call after the visitor said stop");
        }
        List<Long> all = new ArrayList<>();
        long[] sum = {0};
        l.index().forEach((k, v) -> {
            all.add(k);
            sum[0] += v;
        });
        assertEquals(keys, all, "forEach visits every key in order");
        assertEquals(l.model().values().stream().mapToLong(Long::longValue).sum(), sum[0]);
        if (impl.has(Capability.FAIL_FAST_CURSORS)) {
            assertThrows(ConcurrentModificationException.class,
                    () -> l.index().forEach((k, v) -> l.index().put(k ^ 1, 0)), "a forEach that adds keys");
        }
        assertThrows(NullPointerException.class, () -> l.index().forEach(null));
        assertThrows(NullPointerException.class, () -> l.index().rangeVisit(0, true, 1, true, null));
    }

    @ForEachImplementation
    void getAllAgreesWithGet(Impl impl) {
        Loaded l = load(impl, 5_000, 31);
        SplittableRandom r = new SplittableRandom(32);
        for (int batch : new int[] {0, 1, 15, 16, 17, 100, 1_000}) {
            long[] keys = probes(l.model(), batch, r);
            long[] out = new long[batch + 3];
            Arrays.fill(out, 77);
            l.index().getAll(keys, out, -3);
            for (int i = 0; i < batch; i++) {
                assertEquals(l.index().get(keys[i], -3), out[i], "getAll of " + keys[i]);
                assertEquals(l.model().getOrDefault(keys[i], -3L), out[i], "getAll of " + keys[i]);
            }
            assertEquals(77, out[batch], "getAll writes no further than the keys");
        }
        long[] out = {5, 5};
        assertThrows(IllegalArgumentException.class, () -> l.index().getAll(new long[3], out, 0), "output too short");
        assertArrayEquals(new long[] {5, 5}, out, "a rejected getAll writes nothing");
        assertThrows(NullPointerException.class, () -> l.index().getAll(null, out, 0));
        assertThrows(NullPointerException.class, () -> l.index().getAll(new long[1], null, 0));
    }

    @ForEachImplementation
    void rangeCountAllAgreesWithRangeCount(Impl impl) {
        Loaded l = load(impl, 5_000, 33);
        SplittableRandom r = new SplittableRandom(34);
        for (int batch : new int[] {0, 1, 2, 17, 300}) {
            long[] a = probes(l.model(), batch, r);
            long[] b = probes(l.model(), batch, r);
            if (batch > 1) {   // the extremes, an empty and an inverted range among them
                a[0] = MIN;
                b[0] = MAX;
                a[1] = b[1];
            }
            long[] counts = new long[batch + 2];
            Arrays.fill(counts, 77);
            l.index().rangeCountAll(a, b, counts);
            for (int i = 0; i < batch; i++) {
                long want = a[i] < b[i] ? l.model().subMap(a[i], true, b[i], false).size() : 0;
                assertEquals(want, counts[i], "rangeCountAll of [" + a[i] + ", " + b[i] + ")");
                assertEquals(l.index().rangeCount(a[i], b[i]), counts[i], "rangeCount of [" + a[i] + ", " + b[i] + ")");
            }
            assertEquals(77, counts[batch], "rangeCountAll writes no further than the bounds");
        }
        long[] counts = {5, 5};
        assertThrows(IllegalArgumentException.class, () -> l.index().rangeCountAll(new long[3], new long[3], counts),
                "output too short");
        assertThrows(IllegalArgumentException.class, () -> l.index().rangeCountAll(new long[2], new long[1], counts),
                "bounds of different lengths");
        assertArrayEquals(new long[] {5, 5}, counts, "a rejected rangeCountAll writes nothing");
        assertThrows(NullPointerException.class, () -> l.index().rangeCountAll(null, new long[1], counts));
        assertThrows(NullPointerException.class, () -> l.index().rangeCountAll(new long[1], null, counts));
        assertThrows(NullPointerException.class, () -> l.index().rangeCountAll(new long[1], new long[1], null));
    }

    @ForEachImplementation
    void putAllAgreesWithPutAndRejectsBadArgumentsUnchanged(Impl impl) {
        Loaded l = load(impl, 3_000, 41);
        SplittableRandom r = new SplittableRandom(42);
        for (int batch : new int[] {0, 1, 16, 500, 4_000}) {
            long[] keys = probes(l.model(), batch, r);    // unsorted, with repeats
            long[] values = r.longs(batch).toArray();
            for (int i = 0; i < batch; i++) {
                l.model().put(keys[i], values[i]);        // later values of a repeated key win
            }
            l.index().putAll(keys, values);
            assertMatches(l.index(), l.model(), "after putAll of " + batch);
        }
        long size = l.index().size();
        assertThrows(IllegalArgumentException.class, () -> l.index().putAll(new long[] {1, 2}, new long[] {1}));
        assertThrows(NullPointerException.class, () -> l.index().putAll(null, new long[0]));
        assertThrows(NullPointerException.class, () -> l.index().putAll(new long[] {123_456_789}, null));
        assertEquals(size, l.index().size(), "a rejected putAll puts nothing");
        assertMatches(l.index(), l.model(), "after rejected putAlls");
    }

    /**
     * One exception for a {@code null} argument everywhere: {@link NullPointerException} whose
     * message names the argument, and the index left as it was. The bulk load, the batches, the
     * visits and the {@code java.util} view.
     */
    @ForEachImplementation
    void nullArgumentsThrowNullPointerExceptionNamingThem(Impl impl) {
        Loaded l = load(impl, 500, 81);
        LongIndex index = l.index();
        assertNullNamed("keys", () -> impl.bulk().apply(null, null));
        assertNullNamed("keys", () -> impl.bulk().apply(null, new long[0]));
        assertNullNamed("keys", () -> index.getAll(null, new long[1], 0));
        assertNullNamed("values", () -> index.getAll(new long[1], null, 0));
        assertNullNamed("keys", () -> index.putAll(null, new long[0]));
        assertNullNamed("values", () -> index.putAll(new long[] {123_456_789}, null));
        assertNullNamed("keys", () -> index.removeAll(null));
        assertNullNamed("from", () -> index.rangeCountAll(null, new long[1], new long[1]));
        assertNullNamed("to", () -> index.rangeCountAll(new long[1], null, new long[1]));
        assertNullNamed("counts", () -> index.rangeCountAll(new long[1], new long[1], null));
        assertNullNamed("visitor", () -> index.rangeVisit(MIN, true, MAX, true, null));
        assertNullNamed("visitor", () -> index.rangeVisit(0, 10, null));
        assertNullNamed("action", () -> index.forEach(null));
        NavigableMap<Long, Long> view = index.asNavigableMap();
        assertNullNamed("key", () -> view.get(null));
        assertNullNamed("key", () -> view.containsKey(null));
        assertNullNamed("key", () -> view.put(null, 1L));
        assertNullNamed("value", () -> view.put(123_456_789L, null));
        assertNullNamed("key", () -> view.remove(null));
        assertNullNamed("key", () -> view.ceilingKey(null));
        assertNullNamed("key", () -> view.subMap(null, 5L));
        assertNullNamed("action", () -> view.forEach(null));
        assertNullNamed("function", () -> view.replaceAll(null));
        assertMatches(index, l.model(), "after the calls with null arguments");
    }

    private static void assertNullNamed(String argument, org.junit.jupiter.api.function.Executable call) {
        NullPointerException e = assertThrows(NullPointerException.class, call, "null " + argument);
        assertTrue(e.getMessage() != null && e.getMessage().contains(argument),
                "the message of a null " + argument + " names it: " + e.getMessage());
    }

    /**
     * Reads of an index nobody modifies are safe from any number of threads (the interface says
     * so): four threads run get, getAll, containsKey, neighbours, cursors both ways and ranges on
     * one index at once and check every answer against the model.
     */
    @ForEachImplementation
    void readsFromManyThreadsAtOnce(Impl impl) throws Exception {
        Loaded l = load(impl, TestSubjects.scaled(50_000, 5_000), 51);
        LongIndex index = l.index();
        TreeMap<Long, Long> model = l.model();
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long seed = 100 + t;
                done.add(pool.submit(() -> {
                    SplittableRandom r = new SplittableRandom(seed);
                    long[] out = new long[64];
                    for (int round = 0; round < TestSubjects.scaled(300, 10); round++) {
                        long[] p = probes(model, 64, r);
                        index.getAll(p, out, -9);
                        for (int i = 0; i < p.length; i++) {
                            long want = model.getOrDefault(p[i], -9L);
                            assertEquals(want, out[i], "getAll of " + p[i]);
                            assertEquals(want, index.get(p[i], -9), "get of " + p[i]);
                            assertEquals(model.containsKey(p[i]), index.containsKey(p[i]));
                            Long c = model.ceilingKey(p[i]);
                            assertEquals(c == null ? -9 : c, index.ceilingKey(p[i], -9), "ceilingKey of " + p[i]);
                            Long f = model.lowerKey(p[i]);
                            assertEquals(f == null ? -9 : f, index.lowerKey(p[i], -9), "lowerKey of " + p[i]);
                        }
                        LongCursor c = index.cursor(p[0]);
                        var it = model.tailMap(p[0], true).entrySet().iterator();
                        for (int i = 0; i < 40 && it.hasNext(); i++) {
                            var e = it.next();
                            assertTrue(c.isValid());
                            assertEquals(e.getKey(), c.key());
                            assertEquals(e.getValue(), c.value());
                            c.next();
                        }
                        if (c.seekFloor(p[1])) {
                            assertEquals(model.floorKey(p[1]), c.key());
                            c.previous();
                        }
                        long from = Math.min(p[2], p[3]);
                        long to = Math.max(p[2], p[3]);
                        assertEquals(model.subMap(from, true, to, true).size(), index.rangeCount(from, true, to, true));
                        long[] sum = {0};
                        long hi = Long.compareUnsigned(to - from, 1L << 30) > 0 ? from + (1L << 30) : to;
                        index.rangeVisit(from, false, hi, true, (k, v) -> {
                            sum[0] += v;
                            return true;
                        });
                        long want = 0;
                        for (long v : (from == hi ? new TreeMap<Long, Long>() : model.subMap(from, false, hi, true)).values()) {
                            want += v;
                        }
                        assertEquals(want, sum[0], "rangeVisit sum");
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(5, TimeUnit.MINUTES);   // rethrows the first failure of that thread
            }
        } finally {
            pool.shutdownNow();
        }
        IndexAssertions.checkInvariants(index);
    }

    /**
     * Grows many small trees (two to three levels) in random orders and drains them in random
     * orders, checking every answer: a drain frees nodes on the path and then collapses roots,
     * and all of it must have been reserved before the removal started (a removal that ran out
     * of reserved room threw half-way, the reruns at other vector widths found it).
     */
    @ForEachImplementation
    void manySmallTreesGrowAndDrainInRandomOrders(Impl impl) {
        for (int seed = 0; seed < TestSubjects.scaled(240, 12); seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            LongIndex index = impl.empty().get();
            TreeMap<Long, Long> model = new TreeMap<>();
            int n = TestSubjects.scaled(200 + r.nextInt(3_000), 60);
            long spread = 1L << r.nextInt(1, 40);
            int order = seed % 3; // random, ascending or descending inserts
            for (int i = 0; i < n; i++) {
                long k = order == 0 ? r.nextLong(-spread, spread) : order == 1 ? i * 7L - 5_000 : 5_000 - i * 7L;
                long v = r.nextLong();
                Long previous = model.put(k, v);
                assertEquals(previous == null ? 0 : previous, index.put(k, v), "seed " + seed + ": put(" + k + ")");
            }
            long[] keys = model.keySet().stream().mapToLong(Long::longValue).toArray();
            int drain = seed / 3 % 4; // random, ascending, descending, or from both ends to the middle
            for (int i = keys.length - 1; i > 0 && drain == 0; i--) {
                int j = r.nextInt(i + 1);
                long t = keys[i];
                keys[i] = keys[j];
                keys[j] = t;
            }
            if (drain >= 2) {
                long[] sorted = keys.clone();
                for (int i = 0; i < keys.length; i++) {
                    keys[i] = drain == 2 ? sorted[keys.length - 1 - i]
                            : i % 2 == 0 ? sorted[i / 2] : sorted[keys.length - 1 - i / 2];
                }
            }
            for (int i = 0; i < keys.length; i++) {
                long want = model.remove(keys[i]);
                assertEquals(want, index.remove(keys[i]), "seed " + seed + ": remove(" + keys[i] + ") #" + i);
                if (model.size() < 40 || i % 500 == 0) {
                    assertEquals(model.size(), index.size());
                }
            }
            assertEquals(0, index.size(), "seed " + seed + ": drained");
            IndexAssertions.checkInvariants(index);
        }
    }

    /** A native structure: after close() every call throws IllegalStateException (never a crash). */
    @ForEachImplementation
    void nativeIndexesRefuseUseAfterClose(Impl impl) {
        assumeTrue(impl.has(Capability.NATIVE), impl + " holds no native memory");
        LongIndex index = load(impl, 1_000, 61).index();
        NativeLongIndex n = (NativeLongIndex) index;
        assertFalse(n.isClosed());
        n.close();
        assertTrue(n.isClosed());
        n.close();   // idempotent
        List<Runnable> calls = List.of(() -> n.get(1, 0), () -> n.put(1, 2), () -> n.remove(1), () -> n.size(),
                () -> n.containsKey(0), () -> n.ceilingKey(0, 0), () -> n.firstKey(), () -> n.cursor(0),
                () -> n.rangeCount(0, 10), () -> n.getAll(new long[1], new long[1], 0), () -> n.clear(),
                () -> n.rangeCountAll(new long[1], new long[1], new long[1]),
                () -> n.memoryBytes());
        for (Runnable call : calls) {
            assertThrows(IllegalStateException.class, call::run);
        }
    }
}
