package org.bforest.contract;

import static org.bforest.contract.IndexAssertions.assertEmpty;
import static org.bforest.contract.IndexAssertions.assertMatches;
import static org.bforest.contract.IndexAssertions.checkInvariants;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Locale;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.bforest.LongIndex;
import org.bforest.testing.Capability;
import org.bforest.testing.Implementations.Impl;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Deletes that give memory back, on every implementation of the kit: the shapes where a tree that
 * never reuses its emptied nodes grows without bound while its content stays small.
 *
 * <ul>
 *   <li><b>Sliding window</b>: a window of W time-ordered keys slid over many more: each put of
 *       the next ascending key is followed by the remove of the oldest. The content is compared
 *       with a model at checkpoints, firstKey()/lastKey() after every step, and memoryBytes() at
 *       every checkpoint must stay within {@value #FACTOR} times the most it reported while the
 *       first W keys went in, plus {@value #SMALL_TREE_BYTES} bytes (a tiny tree's fixed part).</li>
 *   <li><b>Queue and stack drains</b>: N ascending keys, then firstKey() + remove() (a queue) or
 *       lastKey() + remove() (a stack) until empty, every key checked against the model; three
 *       rounds, each refilling with the next N keys of the sequence (a queue's keys keep
 *       ascending). A structure that reuses what it freed holds about as much in every round:
 *       memoryBytes() must stay within {@value #REUSE_FACTOR} times the first full tree's, plus
 *       the small constant, throughout. A structure with {@link Capability#SHRINKS} must also come
 *       back, once empty, to within {@value #FACTOR} times a one-key tree's memory plus the
 *       constant; the others may keep their drained capacity for reuse
 *       ({@link LongIndex#memoryBytes()} counts arrays as allocated).</li>
 *   <li><b>Random inserts interleaved with drains</b>: rounds of inserts at random keys ahead of
 *       a moving base and drains of random length from either end (sometimes to empty), seeded by
 *       the kit's {@code -Dbforest.seed} as {@link DifferentialTest} is; memoryBytes() after the
 *       first tenth of the rounds must stay within {@value #FACTOR} times the most it reported
 *       during that tenth, plus the constant. A failure names the seed and the command that
 *       reruns it.</li>
 * </ul>
 *
 * Every run prints its figures (memory at the first fill and the most seen afterwards). The
 * bounds hold no timing; the loop counts follow {@code -Dbforest.kit.scale}. Core's default test
 * run takes it (a module that scans the kit from core's test-jar names it in its includes, as it
 * does the contract suite).
 */
@ExtendWith(NameImplementationOnFailure.class)
class ReclaimContractTest {
    /** The factor a tree's memory may grow by over the figure it had at the same number of keys. */
    static final int FACTOR = 3;
    /** The factor a drained and refilled tree may grow by over its first full one (reuse, not growth). */
    static final double REUSE_FACTOR = 1.5;
    /** What a tiny tree may hold beyond the factor: its fixed part (root, headers, first chunk). */
    static final long SMALL_TREE_BYTES = 8 << 10;

    /** Keys slid through each window. */
    static final int SLIDES = TestSubjects.scaled(200_000, 4_000);
    /** Content and memory checks a window run makes, evenly spaced. */
    static final int CHECKPOINTS = 20;
    /** The windows: a thousand keys, and 128 (a few leaves of every structure: 2 to 8 times a node's keys). */
    static final int[] WINDOWS = {1000, 128};
    /** Keys a drain round fills the tree with. */
    static final int DRAIN_KEYS = TestSubjects.scaled(50_000, 2_000);
    static final int DRAIN_ROUNDS = 3;
    /** The mixed test: rounds, and the most keys it holds. */
    static final int MIXED_ROUNDS = TestSubjects.scaled(400, 40);
    static final int MIXED_CAP = TestSubjects.scaled(4000, 400);

    /** The i-th key of the time-ordered sequence: ascending by 7 (gaps of 6), crossing 0 at i = 100,000. */
    static long key(long i) {
        return -700_001 + 7 * i;
    }

    static Stream<Arguments> windows() {
        return TestSubjects.implementations().stream()
                .flatMap(impl -> IntStream.of(WINDOWS).mapToObj(w -> Arguments.of(impl, w)));
    }

    // ---- sliding window --------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}, window {1}")
    @MethodSource("windows")
    void slidingWindowKeepsItsContentAndItsMemory(Impl impl, int window) {
        LongIndex index = impl.empty().get();
        TreeMap<Long, Long> model = new TreeMap<>();
        long peak = 0;
        for (int i = 0; i < window; i++) {
            put(index, model, key(i), "first fill, key #" + i);
            peak = Math.max(peak, index.memoryBytes());
        }
        assertMatches(index, model, "after the first fill of " + window + " keys");
        long bound = FACTOR * peak + SMALL_TREE_BYTES;
        long most = 0;
        int every = Math.max(1, SLIDES / CHECKPOINTS);
        for (int s = 0; s < SLIDES; s++) {
            long in = key(window + s);
            long out = key(s);
            String phase = "window " + window + ", step " + s + " (put " + in + ", remove " + out + ")";
            put(index, model, in, phase);
            remove(index, model, out, phase);
            if (index.firstKey() != key(s + 1) || index.lastKey() != in || index.size() != window) {
                assertEquals(key(s + 1), index.firstKey(), phase + ": firstKey()");
                assertEquals(in, index.lastKey(), phase + ": lastKey()");
                assertEquals(window, index.size(), phase + ": size()");
            }
            if ((s + 1) % every == 0 || s == SLIDES - 1) {
                assertMatches(index, model, phase);
                long bytes = index.memoryBytes();
                most = Math.max(most, bytes);
                if (bytes > bound) {
                    fail(String.format(Locale.ROOT, "%s: memoryBytes() is %,d after sliding %,d keys through a window"
                            + " of %d, more than %d x %,d (the most during the first fill) + %,d = %,d: %.1f bytes a live"
                            + " key against %.1f at the first fill; emptied nodes are not reused", phase, bytes, s + 1L,
                            window, FACTOR, peak, SMALL_TREE_BYTES, bound, bytes / (double) window,
                            peak / (double) window));
                }
            }
        }
        System.out.printf(Locale.ROOT, "ReclaimContractTest [%s, window %d]: %,d keys slid; memoryBytes %,d at the"
                + " first fill, at most %,d after (%.2fx)%n", impl.name(), window, SLIDES, peak, most,
                most / (double) peak);
    }

    // ---- queue and stack drains ------------------------------------------------------------------

    @ForEachImplementation
    void queueDrainsFromTheFrontAndReusesWhatItFreed(Impl impl) {
        drainRounds(impl, true);
    }

    @ForEachImplementation
    void stackDrainsFromTheBackAndReusesWhatItFreed(Impl impl) {
        drainRounds(impl, false);
    }

    private static void drainRounds(Impl impl, boolean front) {
        String how = front ? "queue drain (firstKey + remove)" : "stack drain (lastKey + remove)";
        LongIndex one = impl.empty().get();
        one.put(key(0), 0);
        long small = one.memoryBytes();
        LongIndex index = impl.empty().get();
        TreeMap<Long, Long> model = new TreeMap<>();
        long next = 0;
        long firstFull = 0;
        long most = 0;
        long[] drained = new long[DRAIN_ROUNDS];
        int every = Math.max(1, DRAIN_KEYS / 10);
        for (int round = 1; round <= DRAIN_ROUNDS; round++) {
            String phase = how + ", round " + round;
            for (int i = 0; i < DRAIN_KEYS; i++) {
                put(index, model, key(next++), phase + ", filling");
            }
            assertMatches(index, model, phase + ", full");
            long full = index.memoryBytes();
            firstFull = round == 1 ? full : firstFull;
            long bound = (long) (REUSE_FACTOR * firstFull) + SMALL_TREE_BYTES;
            most = Math.max(most, full);
            checkReuse(full, bound, firstFull, phase + ", full again with " + DRAIN_KEYS + " new keys");
            int removed = 0;
            while (!model.isEmpty()) {
                long want = front ? model.firstKey() : model.lastKey();
                long got = front ? index.firstKey() : index.lastKey();
                if (got != want) {
                    assertEquals(want, got, phase + ", after " + removed + " removes: " + (front ? "firstKey()"
                            : "lastKey()"));
                }
                remove(index, model, got, phase + ", remove #" + removed);
                removed++;
                if (removed % every == 0 && !model.isEmpty()) {
                    String at = phase + ", " + removed + " removed";
                    checkInvariants(index, at);
                    assertEquals(model.firstKey(), index.firstKey(), at + ": firstKey()");
                    assertEquals(model.lastKey(), index.lastKey(), at + ": lastKey()");
                    assertEquals(model.size(), index.size(), at + ": size()");
                    long bytes = index.memoryBytes();
                    most = Math.max(most, bytes);
                    checkReuse(bytes, bound, firstFull, at);
                }
            }
            assertEmpty(index, phase + ", drained");
            drained[round - 1] = index.memoryBytes();
            checkReuse(drained[round - 1], bound, firstFull, phase + ", drained");
            if (impl.has(Capability.SHRINKS)) {
                long back = FACTOR * small + SMALL_TREE_BYTES;
                if (drained[round - 1] > back) {
                    fail(String.format(Locale.ROOT, "%s: memoryBytes() of the drained tree is %,d, more than %d x"
                            + " %,d (a one-key tree) + %,d = %,d, but the structure has the capability SHRINKS", phase,
                            drained[round - 1], FACTOR, small, SMALL_TREE_BYTES, back));
                }
            }
        }
        System.out.printf(Locale.ROOT, "ReclaimContractTest [%s, %s]: %d rounds of %,d keys; memoryBytes %,d full"
                + " (first round), at most %,d, drained %,d / %,d / %,d (a one-key tree: %,d)%n", impl.name(), how,
                DRAIN_ROUNDS, DRAIN_KEYS, firstFull, most, drained[0], drained[1], drained[2], small);
    }

    private static void checkReuse(long bytes, long bound, long firstFull, String phase) {
        if (bytes > bound) {
            fail(String.format(Locale.ROOT, "%s: memoryBytes() is %,d, more than %.1f x %,d (the first round's full"
                    + " tree of %,d keys) + %,d = %,d: what the earlier drains emptied is not reused", phase, bytes,
                    REUSE_FACTOR, firstFull, DRAIN_KEYS, SMALL_TREE_BYTES, bound));
        }
    }

    // ---- random inserts interleaved with drains --------------------------------------------------

    @ForEachImplementation
    void randomInsertsInterleavedWithDrainsKeepTheMemoryBounded(Impl impl) {
        long seed = DifferentialTest.BASE_SEED;
        String rerun = "seed " + seed + " (rerun: mvn -pl core surefire:test@default-test -Dtest=ReclaimContractTest -D"
                + DifferentialTest.SEED_PROPERTY + "=" + seed + " -D" + TestSubjects.IMPL_PROPERTY + "=" + impl.name()
                + ")";
        SplittableRandom random = new SplittableRandom(seed ^ 0x5EC1A1_3D7A1EL);
        LongIndex index = impl.empty().get();
        TreeMap<Long, Long> model = new TreeMap<>();
        long span = 64L * MIXED_CAP;
        long base = -span;
        long[] memory = new long[2]; // the most in the first tenth of the rounds, the most after it
        int warmRounds = Math.max(1, MIXED_ROUNDS / 10);
        long inserted = 0;
        try {
            for (int round = 0; round < MIXED_ROUNDS; round++) {
                String phase = "round " + round;
                // inserts: the first round fills to the cap, later ones add up to a quarter of it
                int inserts = round == 0 ? MIXED_CAP : random.nextInt(1, MIXED_CAP / 4);
                for (int i = 0; i < inserts && model.size() < MIXED_CAP; i++) {
                    long k = base + random.nextLong(span);
                    put(index, model, k, phase + ", insert #" + i);
                    inserted++;
                }
                base += random.nextLong(span / 8);
                // memory is checked with the tree at its fullest in the round, and again after the drain
                checkMixedMemory(index, round, warmRounds, memory, phase + ", after the inserts",
                        model.size(), inserted);
                // a drain: most often from the front (the oldest), sometimes the back, now and then everything
                boolean front = random.nextInt(4) != 0;
                int drain = random.nextInt(10) == 0 ? model.size() : random.nextInt(model.size() + 1);
                for (int i = 0; i < drain; i++) {
                    long want = front ? model.firstKey() : model.lastKey();
                    long got = front ? index.firstKey() : index.lastKey();
                    if (got != want) {
                        assertEquals(want, got, phase + ", drain step " + i + ": " + (front ? "firstKey()"
                                : "lastKey()"));
                    }
                    remove(index, model, got, phase + ", drain step " + i);
                }
                assertEquals(model.size(), index.size(), phase + ": size()");
                if (!model.isEmpty()) {
                    assertEquals(model.firstKey(), index.firstKey(), phase + ": firstKey()");
                    assertEquals(model.lastKey(), index.lastKey(), phase + ": lastKey()");
                }
                if (round % 10 == 9 || round == MIXED_ROUNDS - 1) {
                    assertMatches(index, model, phase);
                } else if (model.isEmpty()) {
                    assertEmpty(index, phase + ", drained");
                }
                checkMixedMemory(index, round, warmRounds, memory, phase + ", after the drain", model.size(),
                        inserted);
            }
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; " + rerun, e);
        }
        System.out.printf(Locale.ROOT, "ReclaimContractTest [%s, mixed]: %s, %d rounds, %,d inserts; memoryBytes at"
                + " most %,d in the first tenth, %,d after (%.2fx)%n", impl.name(), rerun, MIXED_ROUNDS, inserted,
                memory[0], memory[1], memory[1] / (double) Math.max(1, memory[0]));
    }

    /**
     * Records memoryBytes() in {@code memory} (the most during the first {@code warmRounds}
     * rounds, then the most after them) and, after those rounds, fails when it is above
     * {@value #FACTOR} times the first figure plus {@value #SMALL_TREE_BYTES}.
     */
    private static void checkMixedMemory(LongIndex index, int round, int warmRounds, long[] memory, String phase,
            int keys, long inserted) {
        long bytes = index.memoryBytes();
        if (round < warmRounds) {
            memory[0] = Math.max(memory[0], bytes);
            return;
        }
        memory[1] = Math.max(memory[1], bytes);
        long bound = FACTOR * memory[0] + SMALL_TREE_BYTES;
        if (bytes > bound) {
            fail(String.format(Locale.ROOT, "%s: memoryBytes() is %,d with %,d keys after %,d inserts, more than %d x"
                    + " %,d (the most in the first %d rounds, up to %,d keys) + %,d = %,d", phase, bytes, keys,
                    inserted, FACTOR, memory[0], warmRounds, MIXED_CAP, SMALL_TREE_BYTES, bound));
        }
    }

    // ---- helpers ---------------------------------------------------------------------------------

    /** Puts {@code k} (a value from {@link TestKeys#valueFor}) into both; put's return value is checked. */
    private static void put(LongIndex index, TreeMap<Long, Long> model, long k, String phase) {
        long v = TestKeys.valueFor(k, 1);
        Long previous = model.put(k, v);
        long want = previous == null ? index.defaultReturnValue() : previous;
        long got = index.put(k, v);
        if (got != want) {
            fail(phase + ": put(" + k + ", " + v + ") returned " + got + ", expected " + want);
        }
    }

    /** Removes present {@code k} from both; remove's return value is checked. */
    private static void remove(LongIndex index, TreeMap<Long, Long> model, long k, String phase) {
        long want = model.remove(k);
        long got = index.remove(k);
        if (got != want) {
            fail(phase + ": remove(" + k + ") returned " + got + ", expected its value " + want);
        }
    }
}
