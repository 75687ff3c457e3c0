package org.bforest.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.bforest.LongCursor;
import org.bforest.LongIndex;
import org.bforest.testing.Capability;
import org.bforest.testing.Implementations.Impl;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The concurrent differential test of every {@link Capability#THREAD_SAFE} structure: threads
 * update the index at once, each checking every answer it can predict as it goes, and the
 * quiescent result is then checked against a sequential account of what the threads did, with
 * the structure's invariant checker.
 *
 * <ul>
 * <li><b>Owned keys</b>: thread {@code t} of {@code T} owns the keys {@code = t (mod T)} of a small
 *     domain, so all threads work in the same leaves (splits under contention) but each knows the
 *     exact state of its own keys: every {@code put}, {@code remove}, {@code get} and
 *     {@code containsKey} answer is checked against the thread's own model, every neighbour answer
 *     against it too where it names an owned key, and the final index must be the union of the
 *     models.</li>
 * <li><b>Shared keys</b>: all threads insert and delete the same keys. For every key, the
 *     successful inserts minus the successful deletes (summed over threads) must be 1 if the key
 *     ends up present and 0 if not; every value read must be one some thread wrote for that key;
 *     reader threads scan with cursors and ranges meanwhile and must see keys in ascending order.</li>
 * <li><b>Growth</b>: threads insert disjoint random keys into an empty index, so that leaves,
 *     inner nodes and the root split while others descend; the result must hold all of them.</li>
 * <li><b>Emptied blocks</b>: each thread owns interleaved blocks of consecutive keys and fills one
 *     block at a time, then empties it, so that whole leaves empty (and a reclaiming structure
 *     unlinks them) while the neighbouring blocks' leaves change under other threads; it does so
 *     through the exact and conditional updates and checks every answer, and its first key through
 *     {@code ceilingKey}.</li>
 * </ul>
 *
 * Interleavings differ from run to run; the operation streams come from the printed seed
 * ({@code -Dbforest.seed}). {@code -Dbforest.soak=true} runs 20 times the operations.
 */
class ConcurrentDifferentialTest {
    private static final int THREADS = 4;
    private static final int SCALE = DifferentialTest.SOAK ? 20 : 1;

    static Stream<Impl> threadSafe() {
        return TestSubjects.implementations().stream().filter(i -> i.has(Capability.THREAD_SAFE));
    }

    /** A value that names its key and its writer, so a misplaced or torn value cannot pass. */
    static long valueOf(long key, int thread, int seq) {
        return key * 0x9E37_79B9_7F4A_7C15L ^ ((long) thread << 40 | seq);
    }

    static int writerOf(long key, long value) {
        return (int) ((value ^ key * 0x9E37_79B9_7F4A_7C15L) >>> 40);
    }

    /** Runs the bodies on their own threads, all released at once; rethrows the first failure. */
    static void runAll(List<ThrowingRunnable> bodies) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (ThrowingRunnable body : bodies) {
            Thread th = new Thread(() -> {
                try {
                    start.await();
                    body.run();
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            th.start();
            threads.add(th);
        }
        start.countDown();
        for (Thread th : threads) {
            th.join();
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get().getMessage(), failure.get());
        }
    }

    interface ThrowingRunnable {
        void run() throws Exception;
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("threadSafe")
    void ownedKeysBehaveAsEachThreadsModel(Impl impl) throws Exception {
        long seed = DifferentialTest.BASE_SEED;
        LongIndex index = impl.empty().get();
        int domain = 3_000;
        int ops = 150_000 * SCALE;
        List<TreeMap<Long, Long>> models = new ArrayList<>();
        List<ThrowingRunnable> bodies = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int t = 0; t < THREADS; t++) {
            int me = t;
            TreeMap<Long, Long> model = new TreeMap<>();
            models.add(model);
            SplittableRandom r = new SplittableRandom(seed + 31L * t);
            bodies.add(() -> {
                for (int op = 0; op < ops; op++) {
                    // Keys spread over the whole long range: the domain index times a large odd step.
                    long slot = (long) r.nextInt(domain / THREADS) * THREADS + me;
                    long key = (slot - domain / 2) * 0x0000_1000_0000_0001L;
                    String at = impl.name() + " seed " + seed + ", thread " + me + ", operation " + op + ": ";
                    int roll = r.nextInt(10);
                    if (roll < 4) {
                        long v = valueOf(key, me, op);
                        Long before = model.put(key, v);
                        long got = index.put(key, v);
                        check(got == (before == null ? index.defaultReturnValue() : before),
                                at + "put(" + key + ") returned " + got + ", expected " + before);
                    } else if (roll < 7) {
                        Long before = model.remove(key);
                        boolean got = index.delete(key);
                        check(got == (before != null), at + "delete(" + key + ") returned " + got);
                    } else if (roll == 7) {
                        // A batch of this thread's keys (getAll: a batched descent where a structure
                        // has one), each answer against the model.
                        long[] batch = new long[1 + r.nextInt(40)];
                        for (int b = 0; b < batch.length; b++) {
                            long s = (long) r.nextInt(domain / THREADS) * THREADS + me;
                            batch[b] = (s - domain / 2) * 0x0000_1000_0000_0001L;
                        }
                        long[] got = new long[batch.length];
                        index.getAll(batch, got, Long.MIN_VALUE + 1);
                        for (int b = 0; b < batch.length; b++) {
                            Long want = model.get(batch[b]);
                            check(want == null ? got[b] == Long.MIN_VALUE + 1 : got[b] == want,
                                    at + "getAll: key " + batch[b] + " = " + got[b] + ", expected " + want);
                        }
                    } else if (roll < 9) {
                        Long want = model.get(key);
                        long got = index.get(key, Long.MIN_VALUE + 1);
                        check(want == null ? got == Long.MIN_VALUE + 1 : got == want,
                                at + "get(" + key + ") = " + got + ", expected " + want);
                        check(index.containsKey(key) == (want != null), at + "containsKey(" + key + ")");
                    } else {
                        // A neighbour answer that names an owned key must agree with the model, and
                        // no owned key may lie strictly between the probe and the answer.
                        boolean above = r.nextBoolean();
                        long probe = key + (r.nextBoolean() ? 1 : -1);
                        long none = 4242;
                        long got = above ? index.ceilingKey(probe, none) : index.floorKey(probe, none);
                        Long mine = above ? model.ceilingKey(probe) : model.floorKey(probe);
                        if (got != none) {
                            check(above ? got >= probe : got <= probe, at + "neighbour " + got + " of " + probe);
                            if (Math.floorMod(Math.floorDiv(got, 0x0000_1000_0000_0001L) + domain / 2, THREADS) == me
                                    && got % 0x0000_1000_0000_0001L == 0) {
                                check(model.containsKey(got), at + "neighbour " + got + " of " + probe + " was removed");
                            }
                        }
                        if (mine != null) {
                            check(got != none && (above ? got <= mine : got >= mine),
                                    at + (above ? "ceiling" : "floor") + "(" + probe + ") = " + got + " skips owned key " + mine);
                        }
                    }
                }
            });
        }
        runAll(bodies);
        TreeMap<Long, Long> all = new TreeMap<>();
        models.forEach(all::putAll);
        IndexAssertions.checkInvariants(index);
        assertEquals(all.size(), index.size(), impl + ": size after the threads finished");
        IndexAssertions.assertMatches(index, all, impl + " seed " + seed + " after the threads finished");
        System.out.printf("ConcurrentDifferentialTest [%s, owned keys]: seed %d, %d threads x %,d operations, %.1f s%n",
                impl.name(), seed, THREADS, ops, (System.nanoTime() - t0) / 1e9);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("threadSafe")
    void sharedKeysAddUpAndReadersSeeOrder(Impl impl) throws Exception {
        long seed = DifferentialTest.BASE_SEED ^ 0x5151;
        LongIndex index = impl.empty().get();
        int domain = 1_000;
        int writers = 3;
        int ops = 150_000 * SCALE;
        int[][] net = new int[writers][domain]; // successful inserts minus successful deletes, per key
        AtomicBoolean done = new AtomicBoolean();
        List<ThrowingRunnable> bodies = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int t = 0; t < writers; t++) {
            int me = t;
            SplittableRandom r = new SplittableRandom(seed + 17L * t);
            bodies.add(() -> {
                try {
                    for (int op = 0; op < ops; op++) {
                        int slot = r.nextInt(domain);
                        long key = keyOf(slot, domain);
                        int roll = r.nextInt(8);
                        if (roll < 4) {
                            if (index.upsert(key, valueOf(key, me, op))) {
                                net[me][slot]++;
                            }
                        } else if (roll < 7) {
                            if (index.delete(key)) {
                                net[me][slot]--;
                            }
                        } else {
                            long v = index.get(key, 0);
                            check(v == 0 || writerOf(key, v) < writers,
                                    impl.name() + ": get(" + key + ") = " + v + ", a value no thread wrote for it");
                        }
                    }
                } finally {
                    done.set(true);
                }
            });
        }
        bodies.add(() -> { // a reader that scans with cursors, both ways
            while (!done.get()) {
                LongCursor c = index.cursor();
                long prev = Long.MIN_VALUE;
                boolean first = true;
                for (boolean ok = c.seekFirst(); ok; ok = c.next()) {
                    long k = c.key();
                    long v = c.value();
                    check(first || k > prev, impl.name() + ": cursor went from " + prev + " to " + k);
                    check(writerOf(k, v) < writers || v == 0, impl.name() + ": cursor read " + v + " for " + k);
                    prev = k;
                    first = false;
                }
                first = true;
                for (boolean ok = c.seekLast(); ok; ok = c.previous()) {
                    long k = c.key();
                    check(first || k < prev, impl.name() + ": cursor went back from " + prev + " to " + k);
                    prev = k;
                    first = false;
                }
            }
        });
        bodies.add(() -> { // a reader that visits ranges and asks for neighbours
            SplittableRandom r = new SplittableRandom(seed);
            while (!done.get()) {
                long from = keyOf(r.nextInt(domain), domain);
                long to = keyOf(r.nextInt(domain), domain);
                long[] last = {Long.MIN_VALUE};
                boolean[] any = {false};
                long n = index.rangeVisit(from, true, to, true, (k, v) -> {
                    check(k >= from && k <= to, impl.name() + ": range [" + from + ", " + to + "] visited " + k);
                    check(!any[0] || k > last[0], impl.name() + ": range visit went from " + last[0] + " to " + k);
                    check(writerOf(k, v) < writers, impl.name() + ": range visit read " + v + " for " + k);
                    last[0] = k;
                    any[0] = true;
                    return true;
                });
                check(n >= 0 && index.rangeCount(from, true, to, true) >= 0, impl.name() + ": negative range count");
                long c = index.ceilingKey(from, 1);
                check(c == 1 || c >= from, impl.name() + ": ceilingKey(" + from + ") = " + c);
                long f = index.floorKey(from, 1);
                check(f == 1 || f <= from, impl.name() + ": floorKey(" + from + ") = " + f);
            }
        });
        runAll(bodies);
        IndexAssertions.checkInvariants(index);
        long present = 0;
        for (int slot = 0; slot < domain; slot++) {
            long key = keyOf(slot, domain);
            int sum = 0;
            for (int t = 0; t < writers; t++) {
                sum += net[t][slot];
            }
            boolean there = index.containsKey(key);
            assertEquals(there ? 1 : 0, sum, impl + " seed " + seed + ": key " + key
                    + ": successful inserts minus deletes over all threads, against its presence at the end");
            present += there ? 1 : 0;
        }
        assertEquals(present, index.size(), impl + ": size at the end");
        assertEquals(present, index.rangeCount(Long.MIN_VALUE, true, Long.MAX_VALUE, true), impl + ": count at the end");
        System.out.printf("ConcurrentDifferentialTest [%s, shared keys]: seed %d, %d writers x %,d operations + 2 readers, %.1f s%n",
                impl.name(), seed, writers, ops, (System.nanoTime() - t0) / 1e9);
    }

    /** Slot {@code s} of a domain of {@code n} keys: spread out, both extremes included. */
    static long keyOf(int s, int n) {
        if (s == 0) {
            return Long.MIN_VALUE;
        }
        if (s == n - 1) {
            return Long.MAX_VALUE;
        }
        return (s - n / 2) * 0x0001_0000_0000_0001L;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("threadSafe")
    void growthFromEmptySplitsEveryLevelUnderContention(Impl impl) throws Exception {
        long seed = DifferentialTest.BASE_SEED ^ 0x6666;
        LongIndex index = impl.empty().get();
        int perThread = 100_000 * SCALE;
        long[][] keys = new long[THREADS][perThread];
        List<ThrowingRunnable> bodies = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int t = 0; t < THREADS; t++) {
            int me = t;
            SplittableRandom r = new SplittableRandom(seed + t);
            for (int i = 0; i < perThread; i++) {
                keys[t][i] = (r.nextLong() & ~3L) | me; // disjoint across threads
            }
            bodies.add(() -> {
                for (int i = 0; i < perThread; i++) {
                    long k = keys[me][i];
                    index.put(k, valueOf(k, me, i));
                    if ((i & 7) == 0) {
                        long probe = keys[me][i / 2];
                        long v = index.get(probe, 0);
                        check(v != 0 && writerOf(probe, v) == me, impl.name() + ": key " + probe + " inserted earlier reads " + v);
                    }
                }
            });
        }
        runAll(bodies);
        IndexAssertions.checkInvariants(index);
        Map<Long, Long> want = new TreeMap<>();
        for (int t = 0; t < THREADS; t++) {
            for (int i = 0; i < perThread; i++) {
                want.put(keys[t][i], valueOf(keys[t][i], t, i));
            }
        }
        assertEquals(want.size(), index.size(), impl + ": size");
        for (Map.Entry<Long, Long> e : want.entrySet()) {
            long got = index.get(e.getKey(), 0);
            assertTrue(got == e.getValue(), impl + " seed " + seed + ": key " + e.getKey() + " reads " + got
                    + ", expected " + e.getValue());
        }
        System.out.printf("ConcurrentDifferentialTest [%s, growth]: seed %d, %d threads x %,d inserts, %.1f s%n",
                impl.name(), seed, THREADS, perThread, (System.nanoTime() - t0) / 1e9);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("threadSafe")
    void blocksFilledAndEmptiedByTheirOwners(Impl impl) throws Exception {
        long seed = DifferentialTest.BASE_SEED ^ 0xB10C;
        LongIndex index = impl.empty().get();
        int block = 40; // several leaves of a 16-slot structure
        int blocks = 64;
        int rounds = 2_500 * SCALE;
        List<TreeMap<Long, Long>> models = new ArrayList<>();
        List<ThrowingRunnable> bodies = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int t = 0; t < THREADS; t++) {
            int me = t;
            TreeMap<Long, Long> model = new TreeMap<>();
            models.add(model);
            SplittableRandom r = new SplittableRandom(seed + 7L * t);
            bodies.add(() -> {
                long[] out = new long[1];
                for (int round = 0; round < rounds; round++) {
                    int b = r.nextInt(blocks / THREADS) * THREADS + me;
                    long low = blockKey(b, 0, block);
                    String at = impl.name() + " seed " + seed + ", thread " + me + ", round " + round + ", block " + b
                            + ": ";
                    // Fill: new keys through putIfAbsent (a key there keeps its value), some replaced.
                    for (int j = 0; j < block; j++) {
                        long k = blockKey(b, j, block);
                        long v = valueOf(k, me, round);
                        Long had = model.putIfAbsent(k, v);
                        out[0] = 4242;
                        check(index.putIfAbsent(k, v, out) == (had != null), at + "putIfAbsent(" + k + ")");
                        check(had == null ? out[0] == 4242 : out[0] == had,
                                at + "putIfAbsent(" + k + ") handed " + out[0]);
                        if (r.nextInt(4) == 0) {
                            long w = valueOf(k, me, round + 1);
                            check(index.replace(k, model.get(k), w), at + "replace(" + k + ", its value, ...)");
                            check(!index.replace(k, model.get(k), v), at + "replace(" + k + ", its old value, ...)");
                            model.put(k, w);
                        }
                    }
                    check(index.ceilingKey(low, 1) == model.ceilingKey(low),
                            at + "ceilingKey(" + low + ") of a full block");
                    // Empty: oldest first, as a queue, each through a conditional or an exact remove.
                    while (true) {
                        Long first = model.ceilingKey(low);
                        if (first == null || first >= blockKey(b + 1, 0, block)) {
                            break;
                        }
                        long got = index.ceilingKey(low, 1);
                        check(got == first,
                                at + "ceilingKey(" + low + ") = " + got + ", the block's first is " + first);
                        long v = model.remove(first);
                        if (r.nextBoolean()) {
                            check(!index.remove(first, v ^ 1), at + "remove(" + first + ", a value it does not hold)");
                            check(index.remove(first, v), at + "remove(" + first + ", its value)");
                        } else {
                            check(index.remove(first, out) && out[0] == v,
                                    at + "remove(" + first + ") handed " + out[0]);
                        }
                        check(!index.containsKey(first), at + first + " still there");
                    }
                    long after = index.ceilingKey(low, 1);
                    check(after == 1 || after >= blockKey(b + 1, 0, block),
                            at + "the emptied block still holds " + after);
                    // Leave a few keys behind now and then, so the index does not stay empty.
                    for (int j = 0; j < block; j += 1 + r.nextInt(block)) {
                        long k = blockKey(b, j, block);
                        long v = valueOf(k, me, round);
                        model.put(k, v);
                        check(!index.put(k, v, out), at + "put(" + k + ") into an emptied block");
                    }
                }
            });
        }
        runAll(bodies);
        TreeMap<Long, Long> all = new TreeMap<>();
        models.forEach(all::putAll);
        IndexAssertions.checkInvariants(index);
        assertEquals(all.size(), index.size(), impl + ": size after the threads finished");
        IndexAssertions.assertMatches(index, all, impl + " seed " + seed + " after the threads finished");
        System.out.printf("ConcurrentDifferentialTest [%s, emptied blocks]: seed %d, %d threads x %,d rounds, %.1f s%n",
                impl.name(), seed, THREADS, rounds, (System.nanoTime() - t0) / 1e9);
    }

    /** Key {@code j} of block {@code b}: consecutive within a block, blocks spread over the long range. */
    static long blockKey(int b, int j, int block) {
        return (b - 32L) * 0x0010_0000_0000_0000L + j;
    }
}
