package org.bforest.contract;

import static org.bforest.contract.IndexAssertions.assertMatches;
import static org.bforest.contract.IndexAssertions.checkInvariants;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.bforest.BSTreeIndex;
import org.bforest.Indexes;
import org.bforest.LongIndex;
import org.bforest.NativeLongIndex;
import org.bforest.contract.TestKeys.Order;
import org.bforest.testing.Capability;
import org.bforest.testing.Implementations.Impl;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The batched operations of {@link LongIndex} ({@code getAll}, {@code putAll}, {@code removeAll},
 * {@code ceilingKeyAll}, {@code rangeCountAll}) on every implementation of the kit, against a
 * {@link TreeMap} model, whatever path a structure takes for a batch (a loop, lock-step descents,
 * a sort first for large batches, runs per leaf):
 *
 * <ul>
 *   <li>batches of 0, 1, 2, 15, 16, 17, 100, 1,000 and 5,000 keys in ascending, descending and
 *       random order, and one of {@value #HUGE_DEFAULT} (larger than the tree), on an empty index,
 *       a one-key index and a tree of {@value #LARGE_DEFAULT} keys (several levels); present and
 *       absent keys, repeats, {@link Long#MIN_VALUE} and {@link Long#MAX_VALUE} (repeated too);</li>
 *   <li>every answer in the caller's order, exactly the model's; {@code putAll}: a key given twice
 *       ends with its last value; {@code removeAll}: how many were there, a repeat counted once;
 *       the outputs written no further than the batch; the input arrays never changed; the
 *       content, the size and the invariant checker after every batch;</li>
 *   <li>bad batches (a null array, lengths that do not match) throw the documented exception and
 *       leave the index, the outputs and the inputs as they were;</li>
 *   <li>a key-only index ({@link BSTreeIndex#isKeyOnly()}) refuses a {@code putAll} with a value
 *       other than 0 anywhere in it as a whole: {@link IllegalArgumentException}, nothing put.</li>
 * </ul>
 *
 * Core's key-only BS-tree ({@code bstree-keyonly}) runs here beside the registered structures
 * whenever core's {@code bstree} does (so {@code -Dbforest.impl=bstree} selects both). The batches
 * come from {@code -Dbforest.seed} as {@link DifferentialTest}'s operations do; a failure names
 * the seed and the command that reruns it. The sizes follow {@code -Dbforest.kit.maxSize} (the
 * tree) and {@code -Dbforest.kit.scale} (the largest batch).
 */
@ExtendWith(NameImplementationOnFailure.class)
class BatchContractTest {
    private static final long MIN = Long.MIN_VALUE;
    private static final long MAX = Long.MAX_VALUE;
    private static final long[] EXTREMES = {MIN, MIN + 1, -1, 0, 1, MAX - 1, MAX};
    /** What an output holds before a call: a write past the batch, or by a rejected call, shows. */
    private static final long UNTOUCHED = 0x0DD_BA7C4_5E47L;
    private static final long[] NO_KEYS = {};

    /** The batch sizes: none, one, two, around a 16-key node, and many leaves' worth. */
    static final int[] SIZES = {0, 1, 2, 15, 16, 17, 100, 1_000, 5_000};
    static final int HUGE_DEFAULT = 70_000;
    static final int LARGE_DEFAULT = 50_000;
    /** The one batch larger than the tree (a device structure's kit runs a smaller one). */
    static final int HUGE = TestSubjects.scaled(HUGE_DEFAULT, 6_000);
    /** The large tree: several levels of every structure; {@code -Dbforest.kit.maxSize} caps it. */
    static final int LARGE = Math.min(LARGE_DEFAULT, Integer.getInteger("bforest.kit.maxSize", Integer.MAX_VALUE));

    /** Core's key-only BS-tree: the structure whose putAll must refuse values other than 0. */
    static final Impl KEY_ONLY_BSTREE = new Impl("bstree-keyonly", Indexes::bsTreeKeyOnly,
            (keys, values) -> Indexes.bsTreeKeyOnly(keys), EnumSet.of(Capability.FAIL_FAST_CURSORS,
                    Capability.NODE_SEARCH));

    /** The kit's implementations, and core's key-only BS-tree when core's BS-tree is among them. */
    static List<Impl> subjects() {
        List<Impl> all = new ArrayList<>(TestSubjects.implementations());
        if (all.stream().anyMatch(i -> i.name().equals("bstree"))) {
            all.add(KEY_ONLY_BSTREE);
        }
        return all;
    }

    /** The subjects that store keys only; a placeholder (skipped) when there is none. */
    static Stream<Arguments> keyOnlySubjects() {
        List<Impl> keyOnly = subjects().stream().filter(BatchContractTest::isKeyOnly).toList();
        return keyOnly.isEmpty() ? Stream.of(Arguments.of((Impl) null)) : keyOnly.stream().map(Arguments::of);
    }

    private static boolean isKeyOnly(Impl impl) {
        LongIndex probe = impl.empty().get();
        boolean keyOnly = probe instanceof BSTreeIndex b && b.isKeyOnly();
        release(probe);
        return keyOnly;
    }

    private static void release(LongIndex index) {
        if (index instanceof NativeLongIndex n) {
            n.close();
        }
    }

    /** The five calls. */
    enum Call {
        PUT_ALL, GET_ALL, CEILING_KEY_ALL, RANGE_COUNT_ALL, REMOVE_ALL
    }

    // ---- the tests -------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void batchesOnAnEmptyIndex(Impl impl) {
        Run run = new Run(impl, "an empty index", 0xE3B7_7L);
        run.checked(() -> {
            LongIndex shared = impl.empty().get();
            for (Call call : Call.values()) {
                for (int n : SIZES) {
                    for (Order order : Order.values()) {
                        boolean writes = call == Call.PUT_ALL || call == Call.REMOVE_ALL;
                        run.start(writes ? impl.empty().get() : shared, new TreeMap<>());
                        run.batch(call, n, order);
                        if (writes) {
                            release(run.index);
                        }
                    }
                }
            }
            release(shared);
            // a batch much larger than the tree it makes: most keys new, repeats, the extremes
            run.start(impl.empty().get(), new TreeMap<>());
            run.batch(Call.PUT_ALL, HUGE, Order.RANDOM);
            run.batch(Call.GET_ALL, HUGE, Order.RANDOM);
            assertMatches(run.index, run.model, run.where);
            run.batch(Call.REMOVE_ALL, HUGE, Order.DESCENDING);
            assertMatches(run.index, run.model, run.where);
            release(run.index);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void batchesOnAOneKeyIndex(Impl impl) {
        Run run = new Run(impl, "a one-key index", 0x0E_4E7L);
        run.checked(() -> {
            int i = 0;
            for (Call call : Call.values()) {
                for (int n : SIZES) {
                    for (Order order : Order.values()) {
                        // the one key: an extreme, 0, or anywhere
                        long key = i % 4 == 3 ? run.random.nextLong() : new long[] {MIN, MAX, 0}[i % 4];
                        i++;
                        LongIndex index = impl.empty().get();
                        TreeMap<Long, Long> model = new TreeMap<>();
                        long value = run.keyOnly ? 0 : run.value();
                        index.put(key, value);
                        model.put(key, value);
                        run.start(index, model);
                        run.batch(call, n, order);
                        release(index);
                    }
                }
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void batchesOnALargeIndex(Impl impl) {
        Run run = new Run(impl, "a tree of " + LARGE + " keys", 0x1A_96E7L);
        run.checked(() -> {
            run.fresh(LARGE);
            // each round reads, removes, puts and reads again, which keeps the size near LARGE; up
            // to 17 keys one order a size (the orders differ little there), from 100 keys all three
            int round = 0;
            for (int n : SIZES) {
                for (Order order : Order.values()) {
                    if (n <= 17 && order.ordinal() != round % 3) {
                        continue;
                    }
                    Order other = Order.values()[(order.ordinal() + 1 + round++ % 2) % 3];
                    run.batch(Call.GET_ALL, n, order);
                    run.batch(Call.REMOVE_ALL, n, order);
                    run.batch(Call.PUT_ALL, n, order);
                    run.batch(Call.CEILING_KEY_ALL, n, other);
                    run.batch(Call.RANGE_COUNT_ALL, n, round % 2 == 0 ? order : other);
                }
            }
            for (Call call : Call.values()) { // puts first, removes last
                run.batch(call, HUGE, Order.RANDOM);
            }
            assertMatches(run.index, run.model, run.where);
            release(run.index);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void badBatchesAreRejectedAndChangeNothing(Impl impl) {
        Run run = new Run(impl, "bad batches", 0xBAD_BA7CL);
        run.checked(() -> {
            for (int size : new int[] {0, Math.min(5_000, LARGE)}) {
                run.fresh(size);
                for (int n : new int[] {0, 1, 17, 5_000}) {
                    run.rejections(n);
                }
                assertMatches(run.index, run.model, run.where);
                release(run.index);
            }
        });
    }

    /**
     * A key-only index refuses a putAll with any value other than 0 as a whole, wherever the value
     * is: first, in the middle, last, on a key that is there, on the second occurrence of a key
     * whose first had 0; nothing of the batch is put. (A putAll that loops over put has put the
     * keys before the bad value by the time put refuses it.)
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("keyOnlySubjects")
    void keyOnlyPutAllRefusesTheWholeBatchOfAnyValueButZero(Impl impl) {
        assumeTrue(impl != null, "no structure of this run stores keys only");
        Run run = new Run(impl, "key-only putAll", 0x0_4E7_0E1L);
        run.checked(() -> {
            long[] bad = {1, -1, MIN, MAX, 0x7E57L};
            for (int size : new int[] {0, 100, LARGE}) {
                run.fresh(size);
                int i = 0;
                for (int n : new int[] {1, 2, 17, 1_000, 5_000}) {
                    for (Run.Bad where : Run.Bad.values()) {
                        Order order = Order.values()[i % 3];
                        run.refusedKeyOnly(n, order, where, bad[i++ % bad.length]);
                    }
                    // a batch with 0 everywhere goes in (and the index grows for the next size)
                    run.batch(Call.PUT_ALL, n, Order.RANDOM);
                }
                assertMatches(run.index, run.model, run.where);
                release(run.index);
            }
        });
    }

    // ---- one test's state: the index, the model, the random batches ------------------------------

    /** The index under test, its model, the random source of the batches, and where the test is. */
    static final class Run {
        /** Where a key-only putAll's bad value goes. */
        enum Bad {
            FIRST, MIDDLE, LAST, ON_A_PRESENT_KEY, ON_A_REPEAT
        }

        /** The most far-reaching ranges a batch has. */
        static final int WIDE_RANGES = 16;

        final Impl impl;
        final String test;
        final long seed;
        final SplittableRandom random;
        final boolean keyOnly;
        LongIndex index;
        TreeMap<Long, Long> model;
        /** The model's keys, ascending: the present keys batches draw from and the ranks counts come from. */
        long[] sorted = new long[0];
        String where;
        long[] batch;
        /** Batches run, for the report. */
        int batches;
        /** How many more far-reaching ranges this batch may have. */
        int wideLeft;

        Run(Impl impl, String test, long salt) {
            this.impl = impl;
            this.test = test;
            this.seed = DifferentialTest.BASE_SEED;
            this.random = new SplittableRandom(seed ^ salt * 0x9E3779B97F4A7C15L);
            this.keyOnly = isKeyOnly(impl);
        }

        /** Runs {@code body}; a failure gets the seed and the command that reruns it. */
        void checked(Runnable body) {
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long started = System.nanoTime();
            long cpu = threads.getCurrentThreadCpuTime();
            try {
                body.run();
                System.out.printf(Locale.ROOT, "BatchContractTest [%s, %s]: seed %d, %,d batches, %.1f s (%.1f s"
                        + " CPU)%n", impl.name(), test, seed, batches, (System.nanoTime() - started) / 1e9,
                        (threads.getCurrentThreadCpuTime() - cpu) / 1e9);
            } catch (AssertionError | RuntimeException e) {
                String rerun = "seed " + seed + " (rerun: mvn -pl core surefire:test@default-test -Dtest="
                        + "BatchContractTest -D" + DifferentialTest.SEED_PROPERTY + "=" + seed + " -D"
                        + TestSubjects.IMPL_PROPERTY + "=" + (impl == KEY_ONLY_BSTREE ? "bstree" : impl.name()) + ")";
                throw new AssertionError(test + ": " + e.getMessage() + "; " + rerun + sample(), e);
            }
        }

        String sample() {
            if (batch == null) {
                return "";
            }
            int show = Math.min(batch.length, 24);
            String keys = Arrays.toString(Arrays.copyOf(batch, show));
            return "; the batch's keys" + (show < batch.length ? " (the first " + show + " of " + batch.length + ")"
                    : "") + ": " + keys;
        }

        /** An empty index, or one bulk-loaded with {@code size} keys ({@link #load}), and its model. */
        void fresh(int size) {
            if (size == 0) {
                start(impl.empty().get(), new TreeMap<>());
            } else {
                LongIndex loaded = load(size);
                start(loaded, model);
            }
        }

        void start(LongIndex index, TreeMap<Long, Long> model) {
            this.index = index;
            this.model = model;
            where = "start";
            batch = null;
            snapshot();
        }

        /** A bulk-loaded index of {@code n} keys (the extremes, random, spaced and dense ones); the model with it. */
        LongIndex load(int n) {
            TreeMap<Long, Long> m = new TreeMap<>();
            for (long k : EXTREMES) {
                if (m.size() < n) {
                    m.put(k, keyOnly ? 0 : value());
                }
            }
            while (m.size() < n) {
                long k = switch (random.nextInt(3)) {
                    case 0 -> random.nextLong();
                    case 1 -> random.nextLong(-3L * n, 3L * n) * 3;
                    default -> (1L << 40) + random.nextLong(2L * n);
                };
                m.put(k, keyOnly ? 0 : value());
            }
            long[] keys = m.keySet().stream().mapToLong(Long::longValue).toArray();
            long[] values = keyOnly ? null : m.values().stream().mapToLong(Long::longValue).toArray();
            model = m;
            return impl.bulk().apply(keys, values);
        }

        void snapshot() {
            sorted = new long[model.size()];
            int i = 0;
            for (long k : model.keySet()) {
                sorted[i++] = k;
            }
        }

        // ---- keys, values, batches ---------------------------------------------------------------

        long value() {
            return switch (random.nextInt(8)) {
                case 0 -> 0;
                case 1 -> -1;
                case 2 -> MIN;
                case 3 -> MAX;
                default -> random.nextLong();
            };
        }

        /** What a look-up answers for "none": a real key now and then. */
        long absent() {
            return switch (random.nextInt(6)) {
                case 0 -> 0;
                case 1 -> -1;
                case 2 -> MIN;
                case 3 -> MAX;
                case 4 -> sorted.length > 0 ? sorted[random.nextInt(sorted.length)] : 7;
                default -> random.nextLong();
            };
        }

        /** A key for position {@code i} of {@code keys}: present, next to one, a repeat, an extreme, or absent. */
        long key(long[] keys, int i) {
            int roll = random.nextInt(100);
            int n = sorted.length;
            if (roll < 40 && n > 0) {
                return sorted[random.nextInt(n)];
            } else if (roll < 55 && n > 0) {
                return sorted[random.nextInt(n)] + (random.nextBoolean() ? 1 : -1);
            } else if (roll < 70 && i > 0) {
                return keys[random.nextInt(i)];
            } else if (roll < 78) {
                return EXTREMES[random.nextInt(EXTREMES.length)];
            } else if (roll < 92) {
                int span = Math.max(LARGE, 1_000);
                return random.nextBoolean() ? random.nextLong(-3L * span, 3L * span) * 3
                        : (1L << 40) + random.nextLong(2L * span);
            }
            return random.nextLong();
        }

        /** {@code n} keys in {@code order}; from 4 keys on, MIN_VALUE and MAX_VALUE twice each. */
        long[] keys(int n, Order order) {
            long[] keys = new long[n];
            for (int i = 0; i < n; i++) {
                keys[i] = key(keys, i);
            }
            if (n >= 4) { // the order comes after: the first four positions are as good as any
                keys[0] = MIN;
                keys[1] = MAX;
                keys[2] = MIN;
                keys[3] = MAX;
            } else if (n > 0 && random.nextInt(3) == 0) {
                keys[random.nextInt(n)] = random.nextBoolean() ? MIN : MAX;
            }
            return TestKeys.inOrder(sortedCopy(keys), order, random.nextLong());
        }

        private static long[] sortedCopy(long[] keys) {
            long[] s = keys.clone();
            Arrays.sort(s);
            return s;
        }

        /**
         * The end of a range from {@code from}: a few keys on, empty, inverted, or (at most
         * {@value #WIDE_RANGES} a batch: treemap-model counts a range key by key) far or at
         * MAX_VALUE.
         */
        long rangeEnd(long from) {
            if (wideLeft > 0 && random.nextInt(3) == 0) {
                wideLeft--;
                return random.nextBoolean() ? MAX : key(NO_KEYS, 0);
            }
            return switch (random.nextInt(5)) {
                case 0, 1 -> from < MAX - 64 ? from + random.nextLong(1, 64) : MAX;
                case 2 -> from > MIN + 64 ? from - random.nextLong(1, 64) : MIN;
                case 3 -> from;
                default -> MIN;
            };
        }

        /** How many keys of the model are below {@code key}. */
        long rank(long key) {
            int at = Arrays.binarySearch(sorted, key);
            return at >= 0 ? at : -at - 1;
        }

        // ---- one batch ---------------------------------------------------------------------------

        /** A batch of {@code call} with {@code n} keys in {@code order}, checked against the model. */
        void batch(Call call, int n, Order order) {
            batches++;
            where = call + " of " + n + " keys in " + order + " order on " + index.size() + " keys";
            long[] keys = keys(n, order);
            batch = keys;
            long[] keysBefore = keys.clone();
            long size = index.size();
            int spare = random.nextBoolean() ? 0 : 1 + random.nextInt(8);
            switch (call) {
                case GET_ALL, CEILING_KEY_ALL -> {
                    long absent = absent();
                    where += ", absent " + absent;
                    long[] out = untouched(n + spare);
                    if (call == Call.GET_ALL) {
                        index.getAll(keys, out, absent);
                    } else {
                        index.ceilingKeyAll(keys, out, absent);
                    }
                    expectUnchanged(keysBefore, keys, "keys");
                    for (int i = 0; i < n; i++) {
                        Long want = call == Call.GET_ALL ? model.get(keys[i]) : model.ceilingKey(keys[i]);
                        long expected = want == null ? absent : want;
                        if (expected != out[i]) {
                            expectAt(expected, out[i], i, "answer", "for " + keys[i]);
                        }
                    }
                    expectUntouchedFrom(out, n);
                }
                case RANGE_COUNT_ALL -> {
                    wideLeft = WIDE_RANGES;
                    long[] to = new long[n];
                    for (int i = 0; i < n; i++) {
                        to[i] = rangeEnd(keys[i]);
                    }
                    long[] toBefore = to.clone();
                    long[] counts = untouched(n + spare);
                    index.rangeCountAll(keys, to, counts);
                    expectUnchanged(keysBefore, keys, "from");
                    expectUnchanged(toBefore, to, "to");
                    for (int i = 0; i < n; i++) {
                        long want = keys[i] < to[i] ? rank(to[i]) - rank(keys[i]) : 0;
                        if (want != counts[i]) {
                            expectAt(want, counts[i], i, "count", "of [" + keys[i] + ", " + to[i] + ")");
                        }
                    }
                    expectUntouchedFrom(counts, n);
                }
                case PUT_ALL -> {
                    long[] values = new long[n];
                    for (int i = 0; i < n; i++) {
                        values[i] = keyOnly ? 0 : value();
                    }
                    long[] valuesBefore = values.clone();
                    index.putAll(keys, values);
                    expectUnchanged(keysBefore, keys, "keys");
                    expectUnchanged(valuesBefore, values, "values");
                    for (int i = 0; i < n; i++) {
                        model.put(keys[i], values[i]); // a repeated key ends with its last value
                    }
                }
                default -> {
                    long want = 0;
                    for (long k : keys) {
                        want += model.remove(k) != null ? 1 : 0;
                    }
                    long got = index.removeAll(keys);
                    expectUnchanged(keysBefore, keys, "keys");
                    expect(want, got, "removeAll's count (a repeat counts once)");
                }
            }
            if (call == Call.PUT_ALL || call == Call.REMOVE_ALL) {
                expectContent();
            } else {
                expect(size, index.size(), "size() after a read");
                checkInvariants(index, where);
            }
            batch = null;
        }

        // ---- bad batches -------------------------------------------------------------------------

        /** Every bad form of every call with {@code n} keys: each rejected, nothing written, nothing changed. */
        void rejections(int n) {
            long[] keys = keys(n, Order.RANDOM);
            long[] values = new long[n];
            for (int i = 0; i < n; i++) {
                values[i] = keyOnly ? 0 : value();
            }
            long[] to = new long[n];
            wideLeft = WIDE_RANGES;
            for (int i = 0; i < n; i++) {
                to[i] = rangeEnd(keys[i]);
            }
            long[] shortOut = untouched(Math.max(0, n - 1));
            long[] out = untouched(n);
            long[] shorter = Arrays.copyOf(values, Math.max(0, n - 1));
            long[] longer = Arrays.copyOf(values, n + 1);
            Class<NullPointerException> npe = NullPointerException.class;
            Class<IllegalArgumentException> iae = IllegalArgumentException.class;
            String of = " with " + n + " keys";
            batch = keys;
            rejects(npe, "getAll(null, values)" + of, () -> index.getAll(null, out, 0), out);
            rejects(npe, "getAll(keys, null)" + of, () -> index.getAll(keys, null, 0), keys);
            rejects(npe, "ceilingKeyAll(null, ceilings)" + of, () -> index.ceilingKeyAll(null, out, 0), out);
            rejects(npe, "ceilingKeyAll(keys, null)" + of, () -> index.ceilingKeyAll(keys, null, 0), keys);
            rejects(npe, "rangeCountAll(null, to, counts)" + of, () -> index.rangeCountAll(null, to, out), to, out);
            rejects(npe, "rangeCountAll(from, null, counts)" + of, () -> index.rangeCountAll(keys, null, out), keys,
                    out);
            rejects(npe, "rangeCountAll(from, to, null)" + of, () -> index.rangeCountAll(keys, to, null), keys, to);
            rejects(npe, "putAll(null, values)" + of, () -> index.putAll(null, values), values);
            rejects(npe, "putAll(keys, null)" + of, () -> index.putAll(keys, null), keys);
            rejects(npe, "removeAll(null)", () -> index.removeAll(null));
            if (n > 0) {
                rejects(iae, "getAll with an output one shorter" + of, () -> index.getAll(keys, shortOut, 0), keys,
                        shortOut);
                rejects(iae, "ceilingKeyAll with an output one shorter" + of,
                        () -> index.ceilingKeyAll(keys, shortOut, 0), keys, shortOut);
                rejects(iae, "rangeCountAll with counts one shorter" + of,
                        () -> index.rangeCountAll(keys, to, shortOut), keys, to, shortOut);
                rejects(iae, "rangeCountAll with one upper bound less" + of,
                        () -> index.rangeCountAll(keys, Arrays.copyOf(to, n - 1), out), keys, out);
                rejects(iae, "putAll with one value less" + of, () -> index.putAll(keys, shorter), keys, shorter);
            }
            rejects(iae, "rangeCountAll with one upper bound more" + of,
                    () -> index.rangeCountAll(keys, Arrays.copyOf(to, n + 1), out), keys, out);
            rejects(iae, "putAll with one value more" + of, () -> index.putAll(keys, longer), keys, longer);
            batch = null;
        }

        /**
         * {@code call} must throw {@code type}; the arrays given must hold what they held before,
         * and the index its content (and size) and its invariants.
         */
        void rejects(Class<? extends RuntimeException> type, String what, Runnable call, long[]... untouched) {
            where = what + " on " + index.size() + " keys";
            batches++;
            String rejected = where;
            long[][] before = new long[untouched.length][];
            for (int i = 0; i < untouched.length; i++) {
                before[i] = untouched[i].clone();
            }
            try {
                call.run();
                throw new AssertionError(where + ": expected " + type.getSimpleName() + ", but nothing was thrown");
            } catch (RuntimeException e) {
                if (!type.isInstance(e)) {
                    throw new AssertionError(where + ": expected " + type.getSimpleName() + " but got " + e, e);
                }
            }
            for (int i = 0; i < untouched.length; i++) {
                expectUnchanged(before[i], untouched[i], "argument #" + (i + 1) + " of the rejected call");
            }
            where = rejected + ", rejected, must leave the index as it was";
            expectContent();
        }

        /** A putAll on a key-only index with {@code bad} (not 0) as one value, placed as {@code at} says. */
        void refusedKeyOnly(int n, Order order, Bad at, long bad) {
            long[] keys = keys(n, order);
            long[] values = new long[n];
            int i = switch (at) {
                case FIRST -> 0;
                case MIDDLE -> n / 2;
                case LAST -> n - 1;
                case ON_A_PRESENT_KEY -> {
                    if (sorted.length == 0) {
                        yield n - 1;
                    }
                    int j = n / 3;
                    keys[j] = sorted[random.nextInt(sorted.length)];
                    yield j;
                }
                case ON_A_REPEAT -> {
                    if (n < 2) {
                        yield 0;
                    }
                    int j = n - 1 - random.nextInt(Math.max(1, n / 4)); // late in the batch, after its first
                    keys[j] = keys[random.nextInt(j)];
                    yield j;
                }
            };
            values[i] = bad;
            batch = keys;
            rejects(IllegalArgumentException.class, "key-only putAll of " + n + " keys in " + order + " order, value "
                    + bad + " at #" + i + " (" + at + ", key " + (n > 0 ? keys[i] : 0) + "), every other value 0",
                    () -> index.putAll(keys, values), keys, values);
            batch = null;
        }

        // ---- checks ------------------------------------------------------------------------------

        /**
         * The whole content through forEach (one pass, any structure), the size and the
         * invariants; takes the model's keys for {@link #sorted} on the way.
         */
        void expectContent() {
            checkInvariants(index, where);
            expect(model.size(), index.size(), "size()");
            int n = model.size();
            long[] keys = new long[n + 1];
            long[] values = new long[n + 1];
            int[] seen = {0};
            index.forEach((k, v) -> {
                int at = Math.min(seen[0]++, n);
                keys[at] = k;
                values[at] = v;
            });
            expect(n, seen[0], "entries forEach visited");
            long[] modelKeys = new long[n];
            int i = 0;
            for (Map.Entry<Long, Long> e : model.entrySet()) {
                long k = e.getKey();
                long v = e.getValue();
                if (keys[i] != k || values[i] != v) {
                    throw new AssertionError(where + ": entry #" + i + " is " + keys[i] + " -> " + values[i]
                            + ", expected " + k + " -> " + v);
                }
                modelKeys[i++] = k;
            }
            sorted = modelKeys;
        }

        /** {@link #expect} for answer #{@code i} of a batch; builds no message unless it fails. */
        void expectAt(long want, long got, int i, String what, String about) {
            if (want != got) {
                expect(want, got, what + " #" + i + " (" + about + ")");
            }
        }

        void expect(long want, long got, String what) {
            if (want != got) {
                throw new AssertionError(where + ": " + what + ": expected " + want + " but was " + got);
            }
        }

        static long[] untouched(int n) {
            long[] a = new long[n];
            Arrays.fill(a, UNTOUCHED);
            return a;
        }

        void expectUntouchedFrom(long[] out, int from) {
            for (int i = from; i < out.length; i++) {
                if (out[i] != UNTOUCHED) {
                    throw new AssertionError(where + ": wrote " + out[i] + " to the output's #" + i + ", past the "
                            + from + " of the batch");
                }
            }
        }

        void expectUnchanged(long[] before, long[] after, String name) {
            if (!Arrays.equals(before, after)) {
                int i = Arrays.mismatch(before, after);
                throw new AssertionError(where + ": the call changed its input " + name + ": #" + i + " was "
                        + before[i] + ", is " + after[i]);
            }
        }
    }
}
