package org.bforest.contract;

import static org.bforest.contract.IndexAssertions.assertMatches;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.TreeMap;
import org.bforest.LongIndex;
import org.bforest.testing.Implementations.Impl;

/**
 * The exact and conditional updates of {@link LongIndex} on every registered structure:
 * {@code get/put/remove} with an out value, {@code putIfAbsent}, both {@code replace}s and the
 * conditional {@code remove}, differentially against {@link TreeMap}, with values that collide
 * with the default return value and with every "absent" value a caller could guess, keys at the
 * extremes, and out arrays that are null or empty (rejected before anything changes).
 */
class ExactUpdatesContractTest {
    private static final long MIN = Long.MIN_VALUE;
    private static final long MAX = Long.MAX_VALUE;
    /** Values that an inference from a returned value could mistake for "absent". */
    private static final long[] TRICKY = {0, -1, MIN, MAX, 0x9E37_79B9_7F4A_7C15L};

    @ForEachImplementation
    void exactUpdatesMatchTreeMap(Impl impl) {
        long seed = 0x5EED_E4AC7L;
        SplittableRandom r = new SplittableRandom(seed);
        LongIndex index = impl.empty().get();
        TreeMap<Long, Long> model = new TreeMap<>();
        long[] out = new long[1];
        for (int step = 0; step < 40_000; step++) {
            long k = switch (r.nextInt(4)) {
                case 0 -> new long[] {MIN, MIN + 1, -1, 0, 1, MAX - 1, MAX}[r.nextInt(7)];
                case 1 -> r.nextLong();
                default -> r.nextLong(0, 600) * 7;
            };
            long v = r.nextInt(3) == 0 ? TRICKY[r.nextInt(TRICKY.length)] : r.nextLong();
            index.defaultReturnValue(TRICKY[r.nextInt(TRICKY.length)]);
            Long had = model.get(k);
            out[0] = 12345;
            String what = "step " + step + " key " + k + " (seed " + seed + ")";
            switch (r.nextInt(7)) {
                case 0 -> {
                    assertEquals(had != null, index.get(k, out), "get " + what);
                }
                case 1 -> {
                    assertEquals(had != null, index.put(k, v, out), "put " + what);
                    model.put(k, v);
                }
                case 2 -> {
                    assertEquals(had != null, index.remove(k, out), "remove " + what);
                    model.remove(k);
                }
                case 3 -> {
                    assertEquals(had != null, index.putIfAbsent(k, v, out), "putIfAbsent " + what);
                    model.putIfAbsent(k, v);
                }
                case 4 -> {
                    assertEquals(had != null, index.replace(k, v, out), "replace " + what);
                    model.replace(k, v);
                }
                case 5 -> {
                    long expected = had != null && r.nextBoolean() ? had : v;
                    long to = r.nextLong();
                    assertEquals(model.replace(k, expected, to), index.replace(k, expected, to),
                            "replace(k, expected, value) " + what);
                    out[0] = had == null ? 12345 : had;
                }
                default -> {
                    long expected = had != null && r.nextBoolean() ? had : v;
                    assertEquals(model.remove(k, expected), index.remove(k, expected), "remove(k, expected) " + what);
                    out[0] = had == null ? 12345 : had;
                }
            }
            // The out value is the key's value before the call when it was there, untouched when not.
            assertEquals(had == null ? 12345 : had, out[0], "out value of " + what);
            if (step % 5_000 == 0) {
                assertMatches(index, model, "exact updates");
            }
        }
        assertMatches(index, model, "exact updates");
    }

    @ForEachImplementation
    void badOutArraysAreRejectedAndChangeNothing(Impl impl) {
        LongIndex index = impl.empty().get();
        index.put(5, 50);
        TreeMap<Long, Long> model = new TreeMap<>();
        model.put(5L, 50L);
        for (long[] bad : new long[][] {null, new long[0]}) {
            Class<? extends RuntimeException> expected = bad == null ? NullPointerException.class
                    : IllegalArgumentException.class;
            assertThrows(expected, () -> index.get(5, bad));
            assertThrows(expected, () -> index.put(6, 60, bad));
            assertThrows(expected, () -> index.put(5, 51, bad));
            assertThrows(expected, () -> index.remove(5, bad));
            assertThrows(expected, () -> index.putIfAbsent(7, 70, bad));
            assertThrows(expected, () -> index.replace(5, 52, bad));
            assertMatches(index, model, "exact updates");
        }
    }

    @ForEachImplementation
    void conditionalUpdatesAtTheExtremes(Impl impl) {
        LongIndex index = impl.empty().get();
        long[] out = new long[1];
        for (long k : new long[] {MIN, MAX}) {
            out[0] = 1;
            assertFalse(index.remove(k, 0), "conditional remove of an absent key");
            assertFalse(index.replace(k, 0, 1), "conditional replace of an absent key");
            assertFalse(index.putIfAbsent(k, 0, out), "putIfAbsent of an absent key puts");
            assertEquals(1, out[0], "out untouched when absent");
            assertTrue(index.putIfAbsent(k, 9, out), "putIfAbsent of a present key");
            assertEquals(0, out[0]);
            assertFalse(index.replace(k, 1, 2), "wrong expected value");
            assertTrue(index.replace(k, 0, MAX));
            assertFalse(index.remove(k, 0), "wrong expected value");
            assertTrue(index.remove(k, MAX));
            assertFalse(index.containsKey(k));
        }
        assertEquals(0, index.size());
    }
}
