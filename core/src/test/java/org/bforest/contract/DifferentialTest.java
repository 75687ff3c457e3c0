package org.bforest.contract;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Collections;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.bforest.LongCursor;
import org.bforest.LongEntryVisitor;
import org.bforest.LongIndex;
import org.bforest.testing.Implementations.Impl;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.opentest4j.AssertionFailedError;

/**
 * A randomized differential test: every implementation in
 * {@link org.bforest.testing.Implementations#all()} runs long random sequences of operations side
 * by side with a plain {@code TreeMap<Long, Long>}, and every answer is compared. One run per
 * implementation and key distribution ({@link Mode}); the operations mix puts of new and existing
 * keys, get, containsKey, removes of present and missing keys, the four neighbour look-ups,
 * firstKey/lastKey, rangeCount and rangeVisit over short, empty, inverted and long ranges, cursor
 * walks both ways, removes through cursors, stale-cursor checks, size and (rarely) clear, and the
 * batched calls (getAll, ceilingKeyAll, rangeCountAll, putAll and removeAll of up to
 * {@value #BATCH_MAX} keys, now and then a few thousand: {@value #BATCH_SHARE} operations in a
 * thousand). Trees grow and shrink in phases, down to empty now and then, and every run ends by
 * removing every key and reusing the index. The contents are compared in full through cursor walks every
 * {@value #FULL_COMPARE_EVERY} operations, and {@link LongIndex#checkInvariants()} runs every
 * {@value #INVARIANTS_EVERY} operations and at the end (in soak mode both are spaced out in
 * proportion to the size of the tree, so that they do not dominate the run time).
 *
 * <p>The default run does {@value #DEFAULT_OPS} operations per mode, trees up to
 * {@value #DEFAULT_MAX_SIZE} keys; each run prints its seed, operation count and time.
 *
 * <h2>Reproducing a failure</h2>
 * Each failure message gives the base seed, the operation number, the operation, and the command
 * that reruns exactly that sequence. Maven passes {@code -D} properties given on its command line
 * on to the test JVM, so:
 *
 * <pre>
 * mvn -pl core verify -Dtest=DifferentialTest -Dbforest.seed=1234567 -Dbforest.impl=treemap-model -Dbforest.mode=UNIFORM
 * </pre>
 *
 * <ul>
 *   <li>{@code bforest.seed}: the base seed (decimal, or hex with {@code 0x}); without it the
 *       default run uses the fixed {@link #DEFAULT_SEED} and a soak picks a new random one. Each mode derives its own generator from it, and a seed
 *       gives the same operations to every implementation.</li>
 *   <li>{@code bforest.impl}: comma-separated implementation names to run (default: all).</li>
 *   <li>{@code bforest.mode}: comma-separated {@link Mode} names to run (default: all).</li>
 *   <li>{@code bforest.soak=true}: the long randomized runs ({@value #SOAK_FACTOR} times the
 *       operations, trees up to {@value #SOAK_MAX_SIZE} keys), as {@code ./bforest test --soak}
 *       does. A soak failure reproduces only with {@code -Dbforest.soak=true} as well.</li>
 * </ul>
 */
class DifferentialTest {
    static final String SEED_PROPERTY = "bforest.seed";
    static final String MODE_PROPERTY = "bforest.mode";
    static final String SOAK_PROPERTY = "bforest.soak";

    static final boolean SOAK = Boolean.getBoolean(SOAK_PROPERTY);
    static final int SOAK_FACTOR = 84; // the soak: 42M operations a mode, as before the default went to 500K
    static final int DEFAULT_OPS = 500_000;
    static final int DEFAULT_MAX_SIZE = 60_000;
    static final int SOAK_MAX_SIZE = 1_500_000;
    static final int INVARIANTS_EVERY = 4_096;
    static final int FULL_COMPARE_EVERY = 65_536;
    /** Operations in a thousand that are batched calls (getAll, ceilingKeyAll, rangeCountAll, putAll, removeAll). */
    static final int BATCH_SHARE = 6;
    /** A batch's most keys, and one batch in {@value #BIG_BATCH_EVERY} a large one of a few thousand. */
    static final int BATCH_MAX = 40;
    static final int BIG_BATCH_EVERY = 1_000;
    static final int BIG_BATCH_MIN = 3_000;
    static final int BIG_BATCH_MAX = 5_000;
    /** What an output holds before a batched call: a write past the batch shows. */
    static final long UNTOUCHED = 0x0DD_BA7C4_5E47L;
    /**
     * {@code -Dbforest.diff.scale}: a factor on the operations and the tree sizes (default 1, soak
     * included). core's pom reruns this test at 256 bits and scalar at a fraction of the size; a
     * failure there reproduces with that run's scale and JVM flag as well as the seed.
     */
    static final double SCALE = Double.parseDouble(System.getProperty("bforest.diff.scale", "1"));

    /** The seed of the default run: every plain {@code ./bforest test} replays the same operations. */
    static final long DEFAULT_SEED = 0x5EED_2026_1123L;

    /** The base seed of this build: {@code -Dbforest.seed}, else a random one in soak mode, else {@link #DEFAULT_SEED}. */
    static final long BASE_SEED = baseSeed();

    private static long baseSeed() {
        String s = System.getProperty(SEED_PROPERTY, "").trim();
        if (!s.isEmpty()) {
            return Long.decode(s);
        }
        return Boolean.getBoolean("bforest.soak") ? new SplittableRandom().nextLong() : DEFAULT_SEED;
    }

    /** Where the keys come from. */
    enum Mode {
        /** Uniform over every long: almost every put is new, removes pick present keys. */
        UNIFORM,
        /** Uniform over a few thousand keys around 0: many replacements and removes that hit. */
        SMALL_RANGE,
        /** New keys ascend (mostly by one, crossing 0); removes often take the first or last key. */
        ASCENDING,
        /** New keys descend (mostly by one, crossing 0). */
        DESCENDING,
        /** A few dense clusters of nearly consecutive keys at random places, one around 0. */
        CLUSTERED,
        /** Keys within a few thousand of MIN_VALUE, 0 and MAX_VALUE, those three exactly quite often. */
        EXTREMES,
        /**
         * Keys from a walk whose steps put the spans of 16 to 64 neighbours on both sides of the
         * compressed leaves' 16- and 32-bit limits (steps near 2^16/64, 2^16, 2^32/32, 2^32, and
         * huge ones), from a start near MIN_VALUE, 0 or MAX_VALUE; some bulk-loaded.
         */
        LANE_WIDTHS,
        /**
         * Starts from a bulk-loaded index of sorted random keys (with values or key-only), and now
         * and then replaces the index by a new bulk load of the current content.
         */
        BULK_LOADED
    }

    static Stream<Arguments> runs() {
        String only = System.getProperty(MODE_PROPERTY, "").trim();
        Stream<Mode> modes = Stream.of(Mode.values());
        if (!only.isEmpty()) {
            Set<String> names = Set.copyOf(Arrays.asList(only.toUpperCase(Locale.ROOT).split("\\s*,\\s*")));
            modes = modes.filter(m -> names.contains(m.name()));
        }
        List<Mode> chosen = modes.toList();
        if (chosen.isEmpty()) {
            throw new IllegalArgumentException("-D" + MODE_PROPERTY + "=" + only + " names no mode; known: "
                    + Arrays.toString(Mode.values()));
        }
        return TestSubjects.implementations().stream().flatMap(impl -> chosen.stream().map(m -> Arguments.of(impl, m)));
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("runs")
    void behavesLikeTreeMap(Impl impl, Mode mode) {
        Run run = new Run(impl, mode, BASE_SEED);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long started = System.nanoTime();
        long cpu = threads.getCurrentThreadCpuTime();
        run.run();
        System.out.printf("DifferentialTest [%s, %s]: seed %d%s, %,d operations, up to %,d keys, %.1f s (%.1f s CPU)%n",
                impl.name(), mode, BASE_SEED, SOAK ? " (soak)" : "", run.opNo, run.maxSeen,
                (System.nanoTime() - started) / 1e9, (threads.getCurrentThreadCpuTime() - cpu) / 1e9);
    }

    /** One randomized run: the index under test, the model, and what the current operation is. */
    static final class Run implements LongEntryVisitor {
        final Impl impl;
        final Mode mode;
        final long baseSeed;
        final SplittableRandom random;
        final long ops;
        final int maxSize;
        LongIndex index;
        final TreeMap<Long, Long> model = new TreeMap<>();

        // key distribution
        long domainLow;
        long domainSize; // for the bounded modes
        long counter; // ascending and descending
        long[] clusterBases;
        int clusterWidth;
        long[] universe;

        // phases
        long phaseLeft;
        boolean keyLikeValues; // see value(key)
        int target;

        // the current operation, for failure messages
        long opNo;
        String op = "setup";
        long a;
        long b;
        long c;
        int step;
        int maxSeen;

        // the cursor the last seek() made
        LongCursor cursor;

        // the keys of the batched call under way, for failure messages
        long[] batchKeys;

        // a rangeVisit's visitor says stop after this many entries
        int stopAfter = Integer.MAX_VALUE;
        // the entries a rangeVisit reported
        long[] visitedKeys = new long[64];
        long[] visitedValues = new long[64];
        int visited;

        Run(Impl impl, Mode mode, long baseSeed) {
            this.impl = impl;
            this.mode = mode;
            this.baseSeed = baseSeed;
            this.random = new SplittableRandom(baseSeed ^ (0x9E3779B97F4A7C15L * (mode.ordinal() + 1)));
            this.ops = (long) (SCALE * DEFAULT_OPS * (SOAK ? SOAK_FACTOR : 1));
            this.maxSize = Math.max(64, (int) (SCALE * (SOAK ? SOAK_MAX_SIZE : DEFAULT_MAX_SIZE)));
        }

        // ---- running -------------------------------------------------------------------------

        void run() {
            try {
                setUp();
                long nextInvariants = INVARIANTS_EVERY;
                long nextCompare = FULL_COMPARE_EVERY;
                long nextReport = ops / 10;
                for (opNo = 1; opNo <= ops; opNo++) {
                    if (--phaseLeft <= 0) {
                        newPhase();
                    }
                    step();
                    int size = model.size();
                    if (size > maxSeen) {
                        maxSeen = size;
                    }
                    // checks are linear in the size: in soak mode, space them out as the tree grows
                    if (opNo >= nextInvariants) {
                        checkInvariants();
                        nextInvariants = opNo + (SOAK ? Math.max(INVARIANTS_EVERY, size / 4) : INVARIANTS_EVERY);
                    }
                    if (opNo >= nextCompare) {
                        compareAll();
                        nextCompare = opNo + (SOAK ? Math.max(FULL_COMPARE_EVERY, 8L * size) : FULL_COMPARE_EVERY);
                    }
                    if (SOAK && opNo >= nextReport) {
                        System.out.printf("DifferentialTest [%s, %s] soak: %d%% (%,d operations, %,d keys)%n",
                                impl.name(), mode, opNo * 100 / ops, opNo, size);
                        nextReport += ops / 10;
                    }
                }
                opNo = ops;
                checkInvariants();
                compareAll();
                drain();
            } catch (AssertionFailedError e) {
                throw e;
            } catch (Throwable e) {
                throw failure("threw " + e, e);
            }
        }

        void setUp() {
            SplittableRandom r = random;
            keyLikeValues = r.nextBoolean();
            switch (mode) {
                case UNIFORM -> {
                }
                case SMALL_RANGE -> {
                    domainSize = SOAK ? 50_000 : 4_000;
                    domainLow = -domainSize / 2 + r.nextInt(100);
                }
                case ASCENDING -> counter = -r.nextInt(1_000) - 1;
                case DESCENDING -> counter = r.nextInt(1_000) + 1;
                case CLUSTERED -> {
                    clusterBases = new long[2 + r.nextInt(5)];
                    clusterWidth = Math.max(64, (int) (maxSize * 1.4 / clusterBases.length));
                    for (int i = 0; i < clusterBases.length; i++) {
                        clusterBases[i] = r.nextLong(Long.MIN_VALUE, Long.MAX_VALUE - clusterWidth);
                    }
                    clusterBases[0] = -clusterWidth / 2;
                }
                case EXTREMES -> domainSize = Math.max(64, maxSize * 2L / 3);
                case LANE_WIDTHS -> {
                    universe = laneWidthKeys(r, Math.max(64, maxSize * 3 / 2));
                    if (r.nextBoolean()) {
                        int n = 1 + r.nextInt(Math.min(universe.length, maxSize));
                        long[] keys = new long[n];
                        int from = r.nextInt(universe.length - n + 1);
                        System.arraycopy(universe, from, keys, 0, n);
                        long[] values = new long[n];
                        for (int i = 0; i < n; i++) {
                            values[i] = value(keys[i]);
                            model.put(keys[i], values[i]);
                        }
                        op = "bulk load of %d sorted lane-width keys";
                        a = n;
                        index = impl.bulk().apply(keys, values);
                        checkInvariants();
                        compareAll();
                        return;
                    }
                }
                case BULK_LOADED -> {
                    int n = maxSize / 2 + r.nextInt(maxSize / 2);
                    domainSize = 3L * n;
                    domainLow = r.nextLong(Long.MIN_VALUE / 2, Long.MAX_VALUE / 2);
                    long[] keys = new long[n];
                    long k = domainLow;
                    for (int i = 0; i < n; i++) {
                        k += 1 + r.nextInt(5);
                        keys[i] = k;
                    }
                    boolean withValues = r.nextBoolean();
                    long[] values = withValues ? new long[n] : null;
                    for (int i = 0; i < n; i++) {
                        long v = withValues ? value(keys[i]) : 0;
                        if (withValues) {
                            values[i] = v;
                        }
                        model.put(keys[i], v);
                    }
                    op = "bulk load of %d sorted keys " + (withValues ? "with values" : "without values");
                    a = n;
                    index = impl.bulk().apply(keys, values);
                    checkInvariants();
                    compareAll();
                    phaseLeft = 5_000 + r.nextInt(20_000);
                    target = n; // first phase: mutate around the loaded size
                    return;
                }
            }
            op = "new empty index";
            index = impl.empty().get();
            checkInvariants();
            compareAll();
        }

        void newPhase() {
            SplittableRandom r = random;
            keyLikeValues = r.nextBoolean();
            phaseLeft = 2_000 + r.nextInt(SOAK ? 200_000 : 40_000);
            int cap = maxSize;
            if (mode == Mode.SMALL_RANGE) {
                cap = (int) (domainSize * 9 / 10);
            }
            target = switch (r.nextInt(10)) {
                case 0 -> 0;
                case 1, 2 -> r.nextInt(40);
                case 3, 4, 5 -> 100 + r.nextInt(Math.max(1, Math.min(cap, 5_000) - 100));
                default -> cap / 2 + r.nextInt(Math.max(1, cap / 2));
            };
            // long enough to get there, about half the operations being puts or removes
            phaseLeft = Math.max(phaseLeft, 3L * Math.abs(target - model.size()));
        }

        /** Replaces the index by a bulk load of the model's content, with values or key-only. */
        void reload() {
            long[] keys = new long[model.size()];
            long[] values = random.nextBoolean() ? new long[keys.length] : null;
            int i = 0;
            for (Map.Entry<Long, Long> e : model.entrySet()) {
                keys[i] = e.getKey();
                if (values != null) {
                    values[i] = e.getValue();
                } else {
                    e.setValue(0L);
                }
                i++;
            }
            describe("bulk load of the %d keys in the model " + (values == null ? "without values" : "with values"),
                    keys.length, 0);
            index = impl.bulk().apply(keys, values);
            checkInvariants();
            compareAll();
        }

        // ---- keys and values -----------------------------------------------------------------

        /** A key to put: likely new. */
        long freshKey() {
            SplittableRandom r = random;
            return switch (mode) {
                case UNIFORM -> r.nextLong();
                case SMALL_RANGE -> domainLow + r.nextLong(domainSize);
                case ASCENDING -> counter += r.nextInt(8) == 0 ? 2 + r.nextInt(100) : 1;
                case DESCENDING -> counter -= r.nextInt(8) == 0 ? 2 + r.nextInt(100) : 1;
                case CLUSTERED -> clusterBases[r.nextInt(clusterBases.length)] + r.nextInt(clusterWidth);
                case EXTREMES -> {
                    long off = r.nextInt(10) == 0 ? 0 : r.nextLong(domainSize);
                    yield switch (r.nextInt(3)) {
                        case 0 -> Long.MIN_VALUE + off;
                        case 1 -> Long.MAX_VALUE - off;
                        default -> r.nextBoolean() ? off : -off - 1;
                    };
                }
                case BULK_LOADED -> r.nextInt(20) == 0 ? r.nextLong() : domainLow + r.nextLong(domainSize);
                case LANE_WIDTHS -> r.nextInt(50) == 0 ? r.nextLong() : universe[r.nextInt(universe.length)];
            };
        }

        /** The sorted keys of {@link Mode#LANE_WIDTHS}: runs of one kind of step, then another. */
        static long[] laneWidthKeys(SplittableRandom r, int n) {
            long[] steps = {1, 2, 1_000, 1_040, 1_100, 65_534, 65_535, 65_536, 134_217_727L, 134_217_728L,
                (1L << 32) - 1, 1L << 32, (1L << 32) + 1, 1L << 40};
            long[] offsets = new long[n];
            long step = 1;
            int count = 1;
            for (; count < n; count++) {
                if (r.nextInt(40) == 0) {
                    step = steps[r.nextInt(steps.length)];
                }
                long next = offsets[count - 1] + step + (r.nextInt(4) == 0 ? r.nextInt(3) - 1 : 0);
                if (next >= 1L << 62) {
                    break;
                }
                offsets[count] = Math.max(next, offsets[count - 1] + 1);
            }
            long span = offsets[count - 1];
            // Start at MIN_VALUE, straddle 0, or end at MAX_VALUE - 1 (MAX_VALUE itself is a key too).
            long base = switch (r.nextInt(3)) {
                case 0 -> Long.MIN_VALUE + r.nextInt(3);
                case 1 -> -span / 2 - r.nextInt(1 << 20);
                default -> Long.MAX_VALUE - 1 - r.nextInt(3) - span;
            };
            long[] keys = java.util.Arrays.copyOf(offsets, count);
            for (int i = 0; i < count; i++) {
                keys[i] += base;
            }
            return keys;
        }

        /** A key from the same domain as the puts, present or not. */
        long probeKey() {
            SplittableRandom r = random;
            return switch (mode) {
                case ASCENDING -> r.nextLong(counter - 2000 - Math.max(model.size(), 1) * 2L, counter + 100);
                case DESCENDING -> r.nextLong(counter - 100, counter + 2000 + Math.max(model.size(), 1) * 2L);
                case CLUSTERED -> r.nextInt(20) == 0 ? r.nextLong()
                        : clusterBases[r.nextInt(clusterBases.length)] + r.nextInt(clusterWidth + 20) - 10;
                default -> freshKey();
            };
        }

        /** A present key if there is one (the first, the last, or near a probe), else a probe. */
        long existingKey() {
            if (model.isEmpty()) {
                return probeKey();
            }
            switch (random.nextInt(8)) {
                case 0:
                    return model.firstKey();
                case 1:
                    return model.lastKey();
                default:
                    long p = probeKey();
                    Long k = model.ceilingKey(p);
                    return k != null ? k : model.floorKey(p);
            }
        }

        /** A key to look up: a probe, a present key, or one next to a present key. */
        long lookupKey() {
            return switch (random.nextInt(10)) {
                case 0, 1, 2, 3 -> probeKey();
                case 4, 5, 6 -> existingKey();
                case 7 -> existingKey() + 1;
                case 8 -> existingKey() - 1;
                default -> switch (random.nextInt(5)) {
                    case 0 -> Long.MIN_VALUE;
                    case 1 -> Long.MAX_VALUE;
                    case 2 -> 0;
                    case 3 -> -1;
                    default -> random.nextLong();
                };
            };
        }

        /** MIN_VALUE, MAX_VALUE, 0 or -1, or a key next to them: every mode puts these now and then. */
        long extremeKey() {
            return switch (random.nextInt(7)) {
                case 0 -> Long.MIN_VALUE;
                case 1 -> Long.MAX_VALUE;
                case 2 -> 0;
                case 3 -> -1;
                case 4 -> Long.MIN_VALUE + 1;
                case 5 -> Long.MAX_VALUE - 1;
                default -> 1;
            };
        }

        /**
         * A value for {@code key}: in half of the runs mostly one that grows with the key (as row
         * ids do), so the compressed tree keeps its values as lanes, now and then a wild one that
         * forces a leaf out of them; otherwise {@link #value()}.
         */
        long value(long key) {
            if (keyLikeValues && random.nextInt(256) != 0) {
                return ~key + random.nextInt(4);
            }
            return value();
        }

        long value() {
            return switch (random.nextInt(16)) {
                case 0 -> Long.MIN_VALUE;
                case 1 -> Long.MAX_VALUE;
                case 2 -> 0;
                case 3 -> -1;
                default -> random.nextLong();
            };
        }

        long absent() {
            return switch (random.nextInt(8)) {
                case 0 -> Long.MIN_VALUE;
                case 1 -> Long.MAX_VALUE;
                case 2 -> 0;
                case 3 -> -1;
                case 4 -> model.isEmpty() ? 7 : existingKey(); // an absent that is also a real key
                default -> random.nextLong();
            };
        }

        // ---- one operation -------------------------------------------------------------------

        void step() {
            if (mode == Mode.BULK_LOADED && random.nextInt(40_000) == 0) {
                reload();
                return;
            }
            int size = model.size();
            int roll = random.nextInt(1000);
            boolean grow = size < target;
            if (roll < BATCH_SHARE) {
                batch();
                return;
            }
            // mutations first: their share depends on whether the phase grows or shrinks the tree
            int putNew = BATCH_SHARE + (grow ? 500 : 40);
            int putOld = putNew + 50;
            int removeOld = putOld + (grow ? 40 : 280);
            int removeAny = removeOld + 40;
            int cursorRemove = removeAny + (grow ? 5 : 30);
            if (roll < putNew) {
                put(random.nextInt(500) == 0 ? extremeKey() : freshKey());
            } else if (roll < putOld) {
                put(existingKey());
            } else if (roll < removeOld) {
                remove(existingKey());
            } else if (roll < removeAny) {
                remove(lookupKey());
            } else if (roll < cursorRemove) {
                cursorRemove();
            } else {
                read(random.nextInt(100));
            }
        }

        void read(int roll) {
            if (roll < 12) {
                get();
            } else if (roll < 18) {
                containsKey();
            } else if (roll < 48) {
                neighbour(roll % 4);
            } else if (roll < 52) {
                firstOrLast(roll % 2 == 0);
            } else if (roll < 64) {
                rangeCount();
            } else if (roll < 74) {
                rangeVisit();
            } else if (roll < 92) {
                cursorWalk();
            } else if (roll < 96) {
                staleCursor();
            } else if (roll < 99) {
                sizeCheck();
            } else if (random.nextInt(5000) == 0) {
                clear();
            } else {
                sizeCheck();
            }
        }

        void put(long key) {
            long v = value(key);
            describe("put(%d, %d)", key, v);
            Long previous = model.put(key, v);
            if (random.nextInt(4) == 0) {
                expect(previous == null, index.upsert(key, v), previous == null
                        ? "upsert of a new key returns true" : "upsert of an existing key returns false");
            } else {
                expect(previous == null ? index.defaultReturnValue() : previous, index.put(key, v), previous == null
                        ? "put of a new key returns the default return value" : "put of an existing key returns its value");
            }
            checkSize();
        }

        void remove(long key) {
            describe("remove(%d)", key, 0);
            Long previous = model.remove(key);
            if (random.nextInt(4) == 0) {
                expect(previous != null, index.delete(key), previous != null
                        ? "delete of a present key returns true" : "delete of a missing key returns false");
            } else {
                expect(previous == null ? index.defaultReturnValue() : previous, index.remove(key), previous != null
                        ? "remove of a present key returns its value" : "remove of a missing key returns the default return value");
            }
            checkSize();
        }

        void get() {
            long key = lookupKey();
            long absent = absent();
            describe("get(%d, %d)", key, absent);
            Long v = model.get(key);
            expect(v == null ? absent : v, index.get(key, absent), "value");
        }

        void containsKey() {
            long key = lookupKey();
            describe("containsKey(%d)", key, 0);
            expect(model.containsKey(key), index.containsKey(key), "containsKey");
        }

        void neighbour(int which) {
            long key = lookupKey();
            long absent = absent();
            Long want;
            long got;
            switch (which) {
                case 0 -> {
                    describe("ceilingKey(%d, %d)", key, absent);
                    want = model.ceilingKey(key);
                    got = index.ceilingKey(key, absent);
                }
                case 1 -> {
                    describe("floorKey(%d, %d)", key, absent);
                    want = model.floorKey(key);
                    got = index.floorKey(key, absent);
                }
                case 2 -> {
                    describe("higherKey(%d, %d)", key, absent);
                    want = model.higherKey(key);
                    got = index.higherKey(key, absent);
                }
                default -> {
                    describe("lowerKey(%d, %d)", key, absent);
                    want = model.lowerKey(key);
                    got = index.lowerKey(key, absent);
                }
            }
            expect(want == null ? absent : want, got, "neighbour key");
        }

        void firstOrLast(boolean first) {
            describe(first ? "firstKey()" : "lastKey()", 0, 0);
            if (model.isEmpty()) {
                try {
                    long k = first ? index.firstKey() : index.lastKey();
                    throw failure("expected NoSuchElementException from an empty index but got " + k, null);
                } catch (NoSuchElementException expected) {
                    // as documented
                }
            } else {
                expect(first ? model.firstKey() : model.lastKey(), first ? index.firstKey() : index.lastKey(), "key");
            }
        }

        /** A range [from, to): mostly short ones near present keys, sometimes empty, inverted or long. */
        void pickRange() {
            pickRange(true);
        }

        /** {@link #pickRange()}, without the long ranges (anywhere to anywhere) when {@code anyLength} is false. */
        void pickRange(boolean anyLength) {
            SplittableRandom r = random;
            int kind = r.nextInt(anyLength ? 100 : 98);
            if (kind < 70) { // short: from near a key, to a few keys further
                a = r.nextBoolean() ? existingKey() + r.nextInt(3) - 1 : lookupKey();
                int keys = r.nextInt(4) == 0 ? r.nextInt(200) : r.nextInt(20);
                Iterator<Long> it = model.tailMap(a, true).keySet().iterator();
                long end = a;
                for (int i = 0; i < keys && it.hasNext(); i++) {
                    end = it.next();
                }
                int d = r.nextInt(3) - 1;
                b = d > 0 && end == Long.MAX_VALUE ? end : d < 0 && end == Long.MIN_VALUE ? end : end + d;
            } else if (kind < 78) { // empty: from == to
                a = b = r.nextBoolean() ? existingKey() : lookupKey();
            } else if (kind < 88) { // inverted: from > to
                a = lookupKey();
                b = r.nextBoolean() ? lookupKey() : a - 1 - r.nextInt(1000);
                if (a < b) {
                    long t = a;
                    a = b;
                    b = t;
                }
            } else if (kind < 98) { // ending or starting at the extremes, short side near a key
                if (r.nextBoolean()) {
                    a = Long.MIN_VALUE;
                    b = model.isEmpty() ? lookupKey() : model.firstKey() + r.nextInt(3) - 1 + (r.nextBoolean() ? 0 : 1);
                    if (b < a) {
                        b = a;
                    }
                } else {
                    a = model.isEmpty() ? lookupKey() : model.lastKey() - r.nextInt(3);
                    b = Long.MAX_VALUE;
                }
            } else { // long: anywhere to anywhere, or the whole domain (rarer in big trees, for time)
                if (model.size() > 20_000 && r.nextInt(model.size()) >= 20_000) {
                    a = b = lookupKey();
                } else if (r.nextInt(4) == 0) {
                    a = Long.MIN_VALUE;
                    b = Long.MAX_VALUE;
                } else {
                    a = lookupKey();
                    b = lookupKey();
                    if (a > b) {
                        long t = a;
                        a = b;
                        b = t;
                    }
                }
            }
        }

        /** The model's entries between a and b with the bound flavours given (empty when the range is). */
        NavigableMap<Long, Long> modelRange(boolean ai, boolean bi) {
            if (a > b || a == b && !(ai && bi)) {
                return Collections.emptyNavigableMap();
            }
            return model.subMap(a, ai, b, bi);
        }

        void rangeCount() {
            pickRange();
            // half the time [a, b) through the two-argument form, else random bound flavours
            boolean plain = random.nextBoolean();
            boolean ai = plain || random.nextBoolean();
            boolean bi = !plain && random.nextBoolean();
            describe("rangeCount(%d, " + ai + ", %d, " + bi + ")", a, b);
            long want = modelRange(ai, bi).size();
            expect(want, plain ? index.rangeCount(a, b) : index.rangeCount(a, ai, b, bi), "count");
        }

        // ---- batched operations ----------------------------------------------------------------

        /**
         * One of the five batched calls on 0 to {@value #BATCH_MAX} keys drawn as the single
         * operations draw theirs (now and then {@value #BIG_BATCH_MIN} to {@value #BIG_BATCH_MAX}
         * keys, past the sizes where a structure sorts a batch first): every answer in the caller's
         * order, outputs written no further than the batch, inputs left as they were.
         */
        void batch() {
            SplittableRandom r = random;
            int n = r.nextInt(BIG_BATCH_EVERY) == 0 ? r.nextInt(BIG_BATCH_MIN, BIG_BATCH_MAX + 1)
                    : r.nextInt(BATCH_MAX + 1);
            switch (r.nextInt(5)) {
                case 0 -> getAll(n, false);
                case 1 -> getAll(n, true);
                case 2 -> rangeCountAll(n);
                case 3 -> putAll(n);
                default -> removeAll(n);
            }
            batchKeys = null;
            if (n > BATCH_MAX) {
                checkInvariants();
            }
        }

        /** getAll, or ceilingKeyAll, of {@code n} look-up keys. */
        void getAll(int n, boolean ceiling) {
            long[] keys = new long[n];
            for (int i = 0; i < n; i++) {
                keys[i] = lookupKey();
            }
            long absent = absent();
            long[] out = batchOutput(n);
            long[] before = keys.clone();
            describe((ceiling ? "ceilingKeyAll" : "getAll") + " of %d keys, absent %d", n, absent);
            batchKeys = keys;
            if (ceiling) {
                index.ceilingKeyAll(keys, out, absent);
            } else {
                index.getAll(keys, out, absent);
            }
            for (int i = 0; i < n; i++) {
                Long v = ceiling ? model.ceilingKey(keys[i]) : model.get(keys[i]);
                long want = v == null ? absent : v;
                if (out[i] != want) {
                    expect(want, out[i], (ceiling ? "ceiling" : "value") + " #" + i + " (of " + keys[i] + ")");
                }
            }
            expectBatchUnchanged(out, n, before, keys, "keys");
        }

        /**
         * rangeCountAll of {@code n} ranges [a, b) picked as rangeCount's are, but for the long ones
         * (rangeCount has them; the model counts a range key by key).
         */
        void rangeCountAll(int n) {
            long[] from = new long[n];
            long[] to = new long[n];
            long[] want = new long[n];
            for (int i = 0; i < n; i++) {
                pickRange(false);
                from[i] = a;
                to[i] = b;
                want[i] = modelRange(true, false).size();
            }
            long[] counts = batchOutput(n);
            long[] fromBefore = from.clone();
            long[] toBefore = to.clone();
            describe("rangeCountAll of %d ranges", n, 0);
            batchKeys = from;
            index.rangeCountAll(from, to, counts);
            for (int i = 0; i < n; i++) {
                if (counts[i] != want[i]) {
                    expect(want[i], counts[i], "count #" + i + " (of [" + from[i] + ", " + to[i] + "))");
                }
            }
            expectBatchUnchanged(counts, n, fromBefore, from, "from");
            expectBatchUnchanged(counts, n, toBefore, to, "to");
        }

        /**
         * putAll of {@code n} keys, mostly new ones while the phase grows the tree and present ones
         * while it shrinks it, some given twice (the later value must win).
         */
        void putAll(int n) {
            SplittableRandom r = random;
            boolean grow = model.size() < target;
            long[] keys = new long[n];
            long[] values = new long[n];
            for (int i = 0; i < n; i++) {
                int roll = r.nextInt(20);
                keys[i] = i > 0 && roll == 0 ? keys[r.nextInt(i)]
                        : roll < (grow ? 18 : 5) ? (r.nextInt(500) == 0 ? extremeKey() : freshKey()) : existingKey();
                values[i] = value(keys[i]);
            }
            long[] keysBefore = keys.clone();
            long[] valuesBefore = values.clone();
            describe("putAll of %d keys", n, 0);
            batchKeys = keys;
            index.putAll(keys, values);
            for (int i = 0; i < n; i++) {
                model.put(keys[i], values[i]);
            }
            checkSize();
            for (int i = 0; i < n; i++) {
                long want = model.get(keys[i]);
                long got = index.get(keys[i], ~want);
                if (got != want) {
                    expect(want, got, "value of " + keys[i] + " (#" + i + ") after the putAll: a key given twice"
                            + " ends with its last value");
                }
            }
            expectBatchUnchanged(null, n, keysBefore, keys, "keys");
            expectBatchUnchanged(null, n, valuesBefore, values, "values");
        }

        /** removeAll of {@code n} keys, mostly present ones while the phase shrinks the tree, some repeated. */
        void removeAll(int n) {
            SplittableRandom r = random;
            boolean grow = model.size() < target;
            long[] keys = new long[n];
            for (int i = 0; i < n; i++) {
                int roll = r.nextInt(20);
                keys[i] = i > 0 && roll == 0 ? keys[r.nextInt(i)] : roll < (grow ? 10 : 17) ? existingKey() : lookupKey();
            }
            long[] before = keys.clone();
            describe("removeAll of %d keys", n, 0);
            batchKeys = keys;
            long want = 0;
            for (long k : keys) {
                want += model.remove(k) != null ? 1 : 0;
            }
            expect(want, index.removeAll(keys), "removeAll's count (a repeat counts once)");
            checkSize();
            for (int i = 0; i < n; i++) {
                if (index.containsKey(keys[i])) {
                    throw failure("key " + keys[i] + " (#" + i + ") is still there after the removeAll", null);
                }
            }
            expectBatchUnchanged(null, n, before, keys, "keys");
        }

        /** An output of {@code n} answers and 0 to 2 more, every entry {@link #UNTOUCHED}. */
        long[] batchOutput(int n) {
            long[] out = new long[n + random.nextInt(3)];
            Arrays.fill(out, UNTOUCHED);
            return out;
        }

        /** Nothing written to {@code out} past {@code n} (when given), and the input {@code name} as it was. */
        void expectBatchUnchanged(long[] out, int n, long[] before, long[] after, String name) {
            for (int i = n; out != null && i < out.length; i++) {
                if (out[i] != UNTOUCHED) {
                    throw failure("wrote " + out[i] + " to the output's #" + i + ", past the " + n + " of the batch",
                            null);
                }
            }
            if (!Arrays.equals(before, after)) {
                int i = Arrays.mismatch(before, after);
                throw failure("the call changed its input " + name + ": #" + i + " was " + before[i] + ", is "
                        + after[i], null);
            }
        }

        void rangeVisit() {
            pickRange();
            boolean plain = random.nextBoolean();
            boolean ai = plain || random.nextBoolean();
            boolean bi = !plain && random.nextBoolean();
            // now and then the visitor stops early, after stopAfter entries
            stopAfter = random.nextInt(4) == 0 ? 1 + random.nextInt(40) : Integer.MAX_VALUE;
            describe("rangeVisit(%d, " + ai + ", %d, " + bi + ")" + (stopAfter < Integer.MAX_VALUE ? ", stopping after " + stopAfter : ""), a, b);
            visited = 0;
            long returned = plain ? index.rangeVisit(a, b, this) : index.rangeVisit(a, ai, b, bi, this);
            int i = 0;
            for (Map.Entry<Long, Long> e : modelRange(ai, bi).entrySet()) {
                if (i == stopAfter) {
                    break;
                }
                if (i >= visited) {
                    throw failure("visited " + visited + " entries, but the range holds more: missed " + e.getKey(), null);
                }
                step = i;
                expect(e.getKey(), visitedKeys[i], "key of visit #" + i);
                expect(e.getValue(), visitedValues[i], "value of visit #" + i);
                i++;
            }
            step = 0;
            expect(i, visited, "number of entries visited");
            expect(i, returned, "number rangeVisit returned");
        }

        @Override
        public boolean visit(long key, long value) {
            if (visited == visitedKeys.length) {
                visitedKeys = Arrays.copyOf(visitedKeys, visited * 2);
                visitedValues = Arrays.copyOf(visitedValues, visited * 2);
            }
            visitedKeys[visited] = key;
            visitedValues[visited++] = value;
            return visited < stopAfter;
        }

        /**
         * Makes a new cursor (in {@link #cursor}) and positions it with a random seek, or with
         * {@code index.cursor(key)}; returns the model's entry there, or null.
         */
        Map.Entry<Long, Long> seek() {
            long key = lookupKey();
            Map.Entry<Long, Long> want;
            boolean ok;
            int how = random.nextInt(7);
            // a fresh cursor, or one that was positioned somewhere else first
            LongCursor cur = how < 6 && random.nextBoolean() ? index.cursor(lookupKey()) : index.cursor();
            switch (how) {
                case 0 -> {
                    describe("cursor.seekCeiling(%d), then %d moves", key, c);
                    want = model.ceilingEntry(key);
                    ok = cur.seekCeiling(key);
                }
                case 1 -> {
                    describe("cursor.seekFloor(%d), then %d moves", key, c);
                    want = model.floorEntry(key);
                    ok = cur.seekFloor(key);
                }
                case 2 -> {
                    describe("cursor.seekHigher(%d), then %d moves", key, c);
                    want = model.higherEntry(key);
                    ok = cur.seekHigher(key);
                }
                case 3 -> {
                    describe("cursor.seekLower(%d), then %d moves", key, c);
                    want = model.lowerEntry(key);
                    ok = cur.seekLower(key);
                }
                case 4 -> {
                    describe("cursor.seekFirst(), then %2$d moves", key, c);
                    want = model.firstEntry();
                    ok = cur.seekFirst();
                }
                case 5 -> {
                    describe("cursor.seekLast(), then %2$d moves", key, c);
                    want = model.lastEntry();
                    ok = cur.seekLast();
                }
                default -> {
                    describe("index.cursor(%d), then %d moves", key, c);
                    want = model.ceilingEntry(key);
                    cur = index.cursor(key);
                    ok = cur.isValid();
                }
            }
            step = 0;
            cursor = cur;
            expectAt(cur, ok, want);
            return want;
        }

        void expectAt(LongCursor cur, boolean ok, Map.Entry<Long, Long> want) {
            expect(want != null, ok, "whether the cursor found an entry");
            expect(ok, cur.isValid(), "isValid() agrees with what the cursor move returned");
            if (want != null) {
                expect(want.getKey(), cur.key(), "cursor key");
                expect(want.getValue(), cur.value(), "cursor value");
            }
        }

        void cursorWalk() {
            SplittableRandom r = random;
            c = r.nextInt(8) == 0 ? r.nextInt(400) : r.nextInt(20);
            int style = r.nextInt(3); // forward, backward, zig-zag
            Map.Entry<Long, Long> at = seek();
            LongCursor cur = cursor;
            op = op + (style == 0 ? " forward" : style == 1 ? " backward" : " either way");
            for (step = 1; step <= c && at != null; step++) {
                boolean forward = style == 0 || (style == 2 && r.nextBoolean());
                at = forward ? model.higherEntry(at.getKey()) : model.lowerEntry(at.getKey());
                expectAt(cur, forward ? cur.next() : cur.previous(), at);
            }
            step = 0;
        }

        void cursorRemove() {
            SplittableRandom r = random;
            c = r.nextInt(10) == 0 ? r.nextInt(300) : 1 + r.nextInt(4);
            Map.Entry<Long, Long> at = seek();
            LongCursor cur = cursor;
            op = op + " (remove, or next or previous now and then)";
            LongCursor other = null;
            if (r.nextInt(4) == 0) {
                other = index.cursor();
                other.seekCeiling(lookupKey());
            }
            boolean removed = false;
            for (step = 1; step <= c && at != null; step++) {
                long k = at.getKey();
                int what = r.nextInt(10);
                if (what < 7) {
                    cur.remove();
                    model.remove(k);
                    removed = true;
                    at = model.higherEntry(k);
                    expectAt(cur, at != null, at);
                    checkSize();
                } else {
                    at = what < 9 ? model.higherEntry(k) : model.lowerEntry(k);
                    expectAt(cur, what < 9 ? cur.next() : cur.previous(), at);
                }
            }
            step = 0;
            if (other != null && removed && impl.has(org.bforest.testing.Capability.FAIL_FAST_CURSORS)) {
                expectStale(other, "a cursor after another cursor removed keys");
            }
        }

        /** A cursor survives a replaced value and goes stale when a key is added or removed. */
        void staleCursor() {
            if (model.isEmpty()) {
                sizeCheck();
                return;
            }
            long key = existingKey();
            long v = value(key);
            describe("cursor at %d, then put(%1$d, %2$d) replacing the value, then a key added or removed", key, v);
            LongCursor cur = index.cursor(key);
            expect(key, cur.key(), "cursor key");
            model.put(key, v);
            expect(false, index.upsert(key, v), "upsert of an existing key returns false");
            expect(true, cur.isValid(), "cursor still valid after a value was replaced");
            expect(key, cur.key(), "cursor key after a value was replaced");
            expect(v, cur.value(), "cursor value after its value was replaced");
            if (random.nextBoolean()) {
                long fresh = freshKey();
                if (model.containsKey(fresh)) {
                    return;
                }
                describe("cursor at %d, then put(%d) of a new key", key, fresh);
                model.put(fresh, 1L);
                expect(true, index.upsert(fresh, 1), "upsert of a new key returns true");
            } else {
                long gone = existingKey();
                describe("cursor at %d, then remove(%d) through the index", key, gone);
                model.remove(gone);
                expect(true, index.delete(gone), "delete of a present key returns true");
            }
            checkSize();
            if (impl.has(org.bforest.testing.Capability.FAIL_FAST_CURSORS)) {
                expectStale(cur, "the cursor");
            }
            // a seek makes it usable again
            Map.Entry<Long, Long> want = model.ceilingEntry(key);
            expectAt(cur, cur.seekCeiling(key), want);
        }

        void expectStale(LongCursor cur, String what) {
            try {
                switch (random.nextInt(5)) {
                    case 0 -> cur.next();
                    case 1 -> cur.previous();
                    case 2 -> cur.value();
                    case 3 -> cur.isValid();
                    default -> cur.key();
                }
            } catch (ConcurrentModificationException expected) {
                return;
            } catch (RuntimeException e) {
                throw failure(what + " should be stale and throw ConcurrentModificationException, but threw " + e, e);
            }
            throw failure(what + " should be stale and throw ConcurrentModificationException", null);
        }

        void sizeCheck() {
            describe("size()", 0, 0);
            checkSize();
        }

        void clear() {
            describe("clear() of %d keys", model.size(), 0);
            model.clear();
            index.clear();
            checkSize();
            checkInvariants();
        }

        // ---- whole-index checks --------------------------------------------------------------

        void checkSize() {
            if (index.size() != model.size()) {
                expect(model.size(), index.size(), "size()");
            }
            if (index.isEmpty() != model.isEmpty()) {
                expect(model.isEmpty(), index.isEmpty(), "isEmpty()");
            }
        }

        void checkInvariants() {
            try {
                IndexAssertions.checkInvariants(index);
            } catch (RuntimeException e) {
                throw failure("checkInvariants() after this operation threw " + e, e);
            }
        }

        /** The whole content through a cursor walk, forward (and sometimes backward too). */
        void compareAll() {
            String was = op;
            long wasA = a;
            long wasB = b;
            describe("full comparison of %d entries after " + operation().replace("%", "%%"), model.size(), 0);
            checkSize();
            LongCursor cur = index.cursor();
            boolean ok = cur.seekFirst();
            step = 0;
            for (Map.Entry<Long, Long> e : model.entrySet()) {
                expect(true, ok, "cursor valid at entry #" + step + " of the forward walk");
                expect(e.getKey(), cur.key(), "key of the forward walk");
                expect(e.getValue(), cur.value(), "value of the forward walk");
                ok = cur.next();
                step++;
            }
            expect(false, ok, "cursor valid after the last entry");
            if (random.nextBoolean()) {
                ok = cur.seekLast();
                step = 0;
                for (Map.Entry<Long, Long> e : model.descendingMap().entrySet()) {
                    expect(true, ok, "cursor valid at entry #" + step + " of the backward walk");
                    expect(e.getKey(), cur.key(), "key of the backward walk");
                    ok = cur.previous();
                    step++;
                }
                expect(false, ok, "cursor valid before the first entry");
            }
            step = 0;
            describe(was, wasA, wasB);
        }

        /** Removes every key, in random order or through cursors, then reuses the index. */
        void drain() {
            long[] keys = model.keySet().stream().mapToLong(Long::longValue).toArray();
            TestKeys.shuffle(keys, random);
            boolean throughCursor = random.nextInt(3) == 0;
            int every = SOAK ? Math.max(INVARIANTS_EVERY, keys.length / 16) : INVARIANTS_EVERY;
            for (long k : keys) {
                opNo++;
                if (throughCursor) {
                    describe("draining: index.cursor(%d).remove()", k, 0);
                    LongCursor cur = index.cursor(k);
                    expect(k, cur.key(), "cursor key");
                    cur.remove();
                    model.remove(k);
                    Map.Entry<Long, Long> next = model.higherEntry(k);
                    expectAt(cur, next != null, next);
                } else {
                    describe("draining: remove(%d)", k, 0);
                    long had = model.remove(k);
                    expect(had, index.remove(k), "remove of a present key returns its value");
                }
                checkSize();
                if (opNo % every == 0) {
                    checkInvariants();
                }
            }
            describe("after draining every key", 0, 0);
            checkInvariants();
            expect(true, index.isEmpty(), "isEmpty()");
            expect(0, index.rangeCount(Long.MIN_VALUE, Long.MAX_VALUE), "rangeCount(MIN_VALUE, MAX_VALUE) of nothing");
            for (int i = 0; i < 1000; i++) {
                opNo++;
                put(freshKey());
            }
            describe("after draining every key and putting some back", 0, 0);
            checkInvariants();
            compareAll();
        }

        // ---- reporting -----------------------------------------------------------------------

        void describe(String format, long x, long y) {
            op = format;
            a = x;
            b = y;
        }

        void expect(long want, long got, String what) {
            if (want != got) {
                throw failure(what + ": expected " + want + " but was " + got, null, want, got);
            }
        }

        void expect(boolean want, boolean got, String what) {
            if (want != got) {
                throw failure(what + ": expected " + want + " but was " + got, null, want, got);
            }
        }

        AssertionFailedError failure(String what, Throwable cause) {
            return new AssertionFailedError(message(what), cause);
        }

        AssertionFailedError failure(String what, Throwable cause, Object want, Object got) {
            return new AssertionFailedError(message(what), want, got, cause);
        }

        String operation() {
            try {
                return String.format(op, a, b, c);
            } catch (RuntimeException e) {
                return op + " [" + a + ", " + b + ", " + c + "]";
            }
        }

        String message(String what) {
            String operation = operation();
            String batch = "";
            if (batchKeys != null) {
                int show = Math.min(batchKeys.length, BATCH_MAX);
                batch = "; the batch's keys" + (show < batchKeys.length ? " (the first " + show + ")" : "") + ": "
                        + Arrays.toString(Arrays.copyOf(batchKeys, show));
            }
            return "[" + impl.name() + ", " + mode + "] seed " + baseSeed + (SOAK ? " (soak)" : "") + ", operation #"
                    + opNo + ": " + operation + (step > 0 ? ", step " + step : "") + " (index size " + model.size()
                    + "): " + what + batch + "\n  rerun: mvn -pl core verify -Dtest=DifferentialTest -D" + SEED_PROPERTY + "="
                    + baseSeed + " -D" + TestSubjects.IMPL_PROPERTY + "=" + impl.name() + " -D" + MODE_PROPERTY + "="
                    + mode + (SOAK ? " -D" + SOAK_PROPERTY + "=true" : "");
        }
    }
}
