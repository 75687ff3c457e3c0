package org.bforest.contract;

import static org.bforest.contract.IndexAssertions.assertEmpty;
import static org.bforest.contract.IndexAssertions.assertLookups;
import static org.bforest.contract.IndexAssertions.assertMatches;
import static org.bforest.contract.IndexAssertions.assertNeighbours;
import static org.bforest.contract.IndexAssertions.assertNotValid;
import static org.bforest.contract.IndexAssertions.assertRange;
import static org.bforest.contract.IndexAssertions.assertSeeks;
import static org.bforest.contract.IndexAssertions.checkInvariants;
import static org.bforest.contract.IndexAssertions.probes;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.bforest.LongCursor;
import org.bforest.LongIndex;
import org.bforest.contract.TestKeys.Order;
import org.bforest.testing.Capability;
import org.bforest.testing.Implementations.Impl;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@link LongIndex} and {@link org.bforest.LongCursor} contract, written once and run on every
 * implementation in {@link org.bforest.testing.Implementations#all()} (narrow it with
 * {@code -Dbforest.impl=name}). Each test builds its expected content in a plain {@link TreeMap}
 * and compares; {@link LongIndex#checkInvariants()} runs after every phase.
 *
 * <p>The {@code asNavigableMap()} view has its own tests and is not covered here.
 */
@ExtendWith(NameImplementationOnFailure.class)
class LongIndexContractTest {
    private static final long MIN = Long.MIN_VALUE;
    private static final long MAX = Long.MAX_VALUE;

    /** Sizes for the grow-and-shrink test: one key, one node, one split, two and three levels, and more. */
    private static final int[] SIZES = {1, 2, 16, 17, 256, 4097, 70_000, 300_000};

    /**
     * Bulk-load sizes around the node-size boundaries of a 16-key tree filled to 75% (12 keys a
     * leaf): one leaf, one parent, two and three levels, each with its neighbours.
     */
    private static final int[] BULK_SIZES = {0, 1, 2, 11, 12, 13, 15, 16, 17, 191, 192, 193, 203, 204, 205, 2303, 2304,
        2305, 3263, 3264, 3265, 27647, 27648, 27649, 36863, 36864, 36865};

    /**
     * The largest grow-and-shrink and bulk-load size to run ({@code -Dbforest.kit.maxSize}, default
     * all): core's reruns at other vector widths and the OpenCL module's kit stop at 5,000 keys;
     * core's default run covers the larger sizes.
     */
    private static final int MAX_SIZE = Integer.getInteger("bforest.kit.maxSize", Integer.MAX_VALUE);

    static Stream<Arguments> implementationsAndSizes() {
        return TestSubjects.implementations().stream()
                .flatMap(impl -> Arrays.stream(SIZES).filter(n -> n <= MAX_SIZE).mapToObj(n -> Arguments.of(impl, n)));
    }

    static Stream<Arguments> implementationsAndBulkSizes() {
        return TestSubjects.implementations().stream()
                .flatMap(impl -> Arrays.stream(BULK_SIZES).filter(n -> n <= MAX_SIZE)
                        // a scaled kit takes each boundary's size just above it (and 0, 1, 2)
                        .filter(n -> TestSubjects.KIT_SCALE >= 1 || n <= 2 || n % 2 == 1 && n % 3 != 0)
                        .mapToObj(n -> Arguments.of(impl, n)));
    }

    // ---- helpers ---------------------------------------------------------------------------------

    /** Puts every key (values from {@link TestKeys#valueFor}) into both, asserting each put says "new". */
    private static void putAll(LongIndex index, NavigableMap<Long, Long> expected, long[] keys, int generation,
            String phase) {
        for (long k : keys) {
            long v = TestKeys.valueFor(k, generation);
            Long previous = expected.put(k, v);
            long want = previous == null ? index.defaultReturnValue() : previous;
            long got = index.put(k, v);
            if (got != want) {
                fail(phase + ": put(" + k + ", " + v + ") returned " + got + ", not " + want + " ("
                        + (previous == null ? "new key: the default return value" : "replaced: the previous value") + ")");
            }
        }
    }

    private static NavigableMap<Long, Long> mapOf(long... keysAndValues) {
        TreeMap<Long, Long> m = new TreeMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return m;
    }

    private static LongIndex indexOf(Impl impl, NavigableMap<Long, Long> content) {
        LongIndex index = impl.empty().get();
        content.forEach(index::put);
        return index;
    }

    /** Neighbours with every absent value, seeks and ranges over every pair of probes. */
    private static void assertEverythingAt(LongIndex index, NavigableMap<Long, Long> expected, long[] probes,
            String phase) {
        assertMatches(index, expected, phase);
        for (long p : probes) {
            assertNeighbours(index, expected, p, phase);
            assertSeeks(index, expected, p, phase);
            for (long q : probes) {
                assertRange(index, expected, p, q, phase);
            }
        }
    }

    /** A key set with runs of consecutive keys, small gaps and the extremes. */
    private static final long[] GAPPY = {MIN, MIN + 1, MIN + 3, -1000, -3, -2, -1, 0, 1, 2, 5, 1000, 1001, 1002, 1003,
        MAX - 3, MAX - 1, MAX};

    private static long[] probesAround(long[] keys) {
        long[] probes = new long[keys.length * 5 + 5];
        int n = 0;
        for (long k : keys) {
            probes[n++] = k - 2;
            probes[n++] = k - 1;
            probes[n++] = k;
            probes[n++] = k + 1;
            probes[n++] = k + 2;
        }
        for (long p : new long[] {MIN, -1, 0, 1, MAX}) {
            probes[n++] = p;
        }
        return Arrays.stream(probes, 0, n).distinct().sorted().toArray();
    }

    // ---- the empty index -------------------------------------------------------------------------

    @ForEachImplementation
    void newIndexIsEmpty(Impl impl) {
        LongIndex index = impl.empty().get();
        assertEmpty(index, "new index");
        assertEmpty(index, "new index, asked twice");
    }

    @ForEachImplementation
    void indexesDoNotShareState(Impl impl) {
        LongIndex a = impl.empty().get();
        LongIndex b = impl.empty().get();
        a.put(1, 10);
        a.put(MIN, 11);
        assertEmpty(b, "a second index after putting into the first");
        b.put(1, 20);
        assertEquals(10, a.get(1, -1), "the first index after putting the same key into the second");
        assertEquals(2, a.size());
        assertEquals(1, b.size());
    }

    // ---- put, get, containsKey, remove, size ------------------------------------------------------

    @ForEachImplementation
    void putSaysWhetherTheKeyWasNew(Impl impl) {
        LongIndex index = impl.empty().get();
        assertTrue(index.upsert(5, 50), "put of a new key");
        assertEquals(1, index.size());
        assertFalse(index.isEmpty());
        assertFalse(index.upsert(5, 51), "put of an existing key replaces");
        assertEquals(1, index.size(), "size after replacing");
        assertEquals(51, index.get(5, -1), "value after replacing");
        assertFalse(index.upsert(5, 51), "put of an existing key with the same value");
        assertEquals(51, index.get(5, -1));
        assertTrue(index.upsert(4, 40), "put of a second new key");
        assertTrue(index.upsert(6, 60), "put of a third new key");
        assertEquals(3, index.size());
        assertFalse(index.upsert(4, 41));
        assertFalse(index.upsert(6, 61));
        assertEquals(3, index.size());
        assertMatches(index, mapOf(4, 41, 5, 51, 6, 61), "after puts and replacements");
    }

    @ForEachImplementation
    void getReturnsTheValueOrAbsent(Impl impl) {
        LongIndex index = impl.empty().get();
        index.put(10, 100);
        index.put(-10, -100);
        assertEquals(100, index.get(10, -1));
        assertEquals(-100, index.get(-10, -1));
        for (long absent : new long[] {MIN, MAX, 0, -1, 100, 10}) {
            assertEquals(absent, index.get(11, absent), "get of a missing key returns absent " + absent);
            assertEquals(absent, index.get(9, absent), "get of a missing key returns absent " + absent);
            assertEquals(absent, index.get(-11, absent));
            assertEquals(absent, index.get(MIN, absent));
            assertEquals(absent, index.get(MAX, absent));
            assertEquals(absent, index.get(0, absent));
            assertEquals(100, index.get(10, absent), "get of a present key ignores absent " + absent);
            assertEquals(-100, index.get(-10, absent));
        }
    }

    @ForEachImplementation
    void extremeKeysAndValuesAreStoredExactly(Impl impl) {
        long[] specials = {MIN, MIN + 1, -1, 0, 1, MAX - 1, MAX};
        LongIndex index = impl.empty().get();
        NavigableMap<Long, Long> expected = new TreeMap<>();
        for (int i = 0; i < specials.length; i++) {
            long k = specials[i];
            long v = specials[specials.length - 1 - i];
            assertTrue(index.upsert(k, v), "put(" + k + ", " + v + ") of a new key");
            expected.put(k, v);
        }
        for (long k : specials) {
            for (long absent : specials) {
                assertEquals(expected.get(k), index.get(k, absent), "get(" + k + ", " + absent + ")");
            }
            assertTrue(index.containsKey(k), "containsKey(" + k + ")");
        }
        assertEquals(MIN, index.firstKey());
        assertEquals(MAX, index.lastKey());
        assertEverythingAt(index, expected, probesAround(specials), "extreme keys and values");
        for (long k : specials) {
            assertFalse(index.upsert(k, k), "replacing the value of " + k);
            expected.put(k, k);
        }
        assertMatches(index, expected, "extreme keys mapped to themselves");
    }

    @ForEachImplementation
    void containsKeySeesOnlyPresentKeys(Impl impl) {
        LongIndex index = impl.empty().get();
        for (long k = -50; k <= 50; k += 2) {
            index.put(k, 0);
        }
        for (long k = -60; k <= 60; k++) {
            boolean present = k >= -50 && k <= 50 && (k & 1) == 0;
            assertEquals(present, index.containsKey(k), "containsKey(" + k + ")");
        }
        assertFalse(index.containsKey(MIN));
        assertFalse(index.containsKey(MAX));
        index.put(MAX, 0);
        assertTrue(index.containsKey(MAX));
        assertFalse(index.containsKey(MIN), "containsKey(MIN) with MAX present (no wrap-around)");
    }

    @ForEachImplementation
    void removeSaysWhetherTheKeyWasThere(Impl impl) {
        LongIndex index = impl.empty().get();
        NavigableMap<Long, Long> expected = mapOf(MIN, 1, -1, 2, 0, 3, 1, 4, 7, 5, MAX, 6);
        expected.forEach(index::put);
        assertFalse(index.delete(2), "remove of a missing key");
        assertFalse(index.delete(-2), "remove of a missing key");
        assertFalse(index.delete(MIN + 1), "remove of a missing key");
        assertFalse(index.delete(MAX - 1), "remove of a missing key");
        assertEquals(6, index.size(), "size after removing missing keys");
        for (long k : new long[] {0, MAX, MIN, 7}) {
            assertTrue(index.delete(k), "remove(" + k + ") of a present key");
            expected.remove(k);
            assertFalse(index.containsKey(k), "containsKey after remove(" + k + ")");
            assertEquals(42, index.get(k, 42), "get after remove(" + k + ")");
            assertFalse(index.delete(k), "second remove(" + k + ")");
            assertMatches(index, expected, "after remove(" + k + ")");
        }
        assertTrue(index.delete(-1));
        assertTrue(index.delete(1));
        assertEmpty(index, "after removing every key");
        assertTrue(index.upsert(0, 9), "put into an index emptied by removes");
        assertMatches(index, mapOf(0, 9), "reused after removing every key");
    }

    @ForEachImplementation
    void clearEmptiesTheIndexWhichKeepsWorking(Impl impl) {
        LongIndex index = impl.empty().get();
        index.clear();
        assertEmpty(index, "clear() of a new index");
        NavigableMap<Long, Long> expected = new TreeMap<>();
        putAll(index, expected, TestKeys.mixed(5000, 1), 0, "filling");
        assertMatches(index, expected, "5000 keys before clear()");
        index.clear();
        assertEmpty(index, "after clear() of 5000 keys");
        index.clear();
        assertEmpty(index, "after a second clear()");
        expected.clear();
        putAll(index, expected, TestKeys.inOrder(TestKeys.mixed(3000, 2), Order.RANDOM, 3), 1, "refilling");
        assertMatches(index, expected, "3000 keys put after clear()");
        assertLookups(index, expected, probes(expected, 500, 4), "3000 keys put after clear()");
        LongIndex bulk = impl.bulk().apply(TestKeys.dense(1000, 0), null);
        bulk.clear();
        assertEmpty(bulk, "clear() of a bulk-loaded index");
        bulk.put(3, 4);
        assertMatches(bulk, mapOf(3, 4), "bulk-loaded index reused after clear()");
    }

    @ForEachImplementation
    void oneKey(Impl impl) {
        for (long k : new long[] {MIN, MIN + 1, -1, 0, 1, 12345, MAX - 1, MAX}) {
            for (long v : new long[] {MIN, 0, -1, MAX}) {
                LongIndex index = impl.empty().get();
                assertTrue(index.upsert(k, v));
                NavigableMap<Long, Long> expected = mapOf(k, v);
                String phase = "the single key " + k + "=" + v;
                assertEquals(k, index.firstKey(), phase);
                assertEquals(k, index.lastKey(), phase);
                assertEverythingAt(index, expected, probesAround(new long[] {k}), phase);
                assertTrue(index.delete(k), phase);
                assertEmpty(index, "after removing " + phase);
            }
        }
    }

    // ---- neighbours and first/last ---------------------------------------------------------------

    @ForEachImplementation
    void neighboursOnGappyKeysIncludingTheExtremes(Impl impl) {
        NavigableMap<Long, Long> expected = new TreeMap<>();
        for (long k : GAPPY) {
            expected.put(k, ~k);
        }
        LongIndex index = indexOf(impl, expected);
        assertEverythingAt(index, expected, probesAround(GAPPY), "gappy keys");
        // the same without the extremes, so that look-ups must run off both ends
        expected.remove(MIN);
        expected.remove(MAX);
        index.remove(MIN);
        index.remove(MAX);
        assertEverythingAt(index, expected, probesAround(GAPPY), "gappy keys without MIN_VALUE and MAX_VALUE");
    }

    @ForEachImplementation
    void neighboursDoNotWrapAroundTheKeySpace(Impl impl) {
        LongIndex index = indexOf(impl, mapOf(MIN, 1, MAX, 2));
        assertEquals(7, index.higherKey(MAX, 7), "higherKey(MAX_VALUE) must not wrap to MIN_VALUE");
        assertEquals(7, index.lowerKey(MIN, 7), "lowerKey(MIN_VALUE) must not wrap to MAX_VALUE");
        assertEquals(MAX, index.higherKey(MIN, 7));
        assertEquals(MIN, index.lowerKey(MAX, 7));
        assertEquals(MAX, index.ceilingKey(MIN + 1, 7));
        assertEquals(MIN, index.floorKey(MAX - 1, 7));
        assertEquals(MAX, index.ceilingKey(MAX, 7));
        assertEquals(MIN, index.floorKey(MIN, 7));
        assertEquals(MAX, index.higherKey(0, 7));
        assertEquals(MIN, index.lowerKey(0, 7));
        index.remove(MAX);
        assertEquals(7, index.ceilingKey(MIN + 1, 7), "ceilingKey above the only key MIN_VALUE");
        assertEquals(7, index.higherKey(MIN, 7));
        assertEquals(MIN, index.floorKey(MAX, 7));
        index.remove(MIN);
        index.put(MAX, 0);
        assertEquals(7, index.floorKey(MAX - 1, 7), "floorKey below the only key MAX_VALUE");
        assertEquals(7, index.lowerKey(MAX, 7));
        assertEquals(MAX, index.ceilingKey(MIN, 7));
    }

    @ForEachImplementation
    void keysAreInSignedOrder(Impl impl) {
        LongIndex index = indexOf(impl, mapOf(-1, 0, 0, 0, 1, 0, MIN, 0, MAX, 0, 1L << 63 >>> 1, 0));
        assertEquals(MIN, index.firstKey(), "MIN_VALUE is the least key");
        assertEquals(MAX, index.lastKey(), "MAX_VALUE is the greatest key");
        assertEquals(0, index.higherKey(-1, 7), "0 follows -1");
        assertEquals(-1, index.lowerKey(0, 7), "-1 precedes 0");
        assertEquals(-1, index.higherKey(MIN, 7));
        assertEquals(4, index.rangeCount(-1, MAX), "[-1, MAX_VALUE): -1, 0, 1 and 2^62");
        assertEquals(2, index.rangeCount(MIN, 0), "[MIN_VALUE, 0)");
    }

    @ForEachImplementation
    void neighboursOnRunsOfConsecutiveKeys(Impl impl) {
        NavigableMap<Long, Long> expected = new TreeMap<>();
        for (long k = -300; k < 300; k++) {
            if (k % 50 != 7) {
                expected.put(k, k * 3);
            }
        }
        for (long k = MAX - 100; k != MIN; k++) {
            expected.put(k, 1L);
        }
        LongIndex index = indexOf(impl, expected);
        long[] probes = probesAround(expected.keySet().stream().mapToLong(Long::longValue).toArray());
        for (long p : probes) {
            assertNeighbours(index, expected, p, "runs of consecutive keys");
            assertSeeks(index, expected, p, "runs of consecutive keys");
        }
        assertMatches(index, expected, "runs of consecutive keys");
    }

    @ForEachImplementation
    void firstAndLastKeyFollowChanges(Impl impl) {
        LongIndex index = impl.empty().get();
        assertThrows(NoSuchElementException.class, index::firstKey);
        assertThrows(NoSuchElementException.class, index::lastKey);
        index.put(5, 0);
        assertEquals(5, index.firstKey());
        assertEquals(5, index.lastKey());
        index.put(3, 0);
        index.put(9, 0);
        assertEquals(3, index.firstKey());
        assertEquals(9, index.lastKey());
        index.put(MIN, 0);
        index.put(MAX, 0);
        assertEquals(MIN, index.firstKey());
        assertEquals(MAX, index.lastKey());
        index.remove(MIN);
        index.remove(MAX);
        assertEquals(3, index.firstKey());
        assertEquals(9, index.lastKey());
        index.remove(3);
        index.remove(9);
        assertEquals(5, index.firstKey());
        assertEquals(5, index.lastKey());
        index.remove(5);
        assertThrows(NoSuchElementException.class, index::firstKey, "firstKey() after removing every key");
        assertThrows(NoSuchElementException.class, index::lastKey, "lastKey() after removing every key");
        // across many leaves
        NavigableMap<Long, Long> expected = new TreeMap<>();
        putAll(index, expected, TestKeys.inOrder(TestKeys.mixed(2000, 5), Order.RANDOM, 6), 0, "filling");
        while (!expected.isEmpty()) {
            assertEquals(expected.firstKey(), index.firstKey());
            assertEquals(expected.lastKey(), index.lastKey());
            long k = expected.size() % 2 == 0 ? expected.pollFirstEntry().getKey() : expected.pollLastEntry().getKey();
            assertTrue(index.delete(k));
        }
        assertEmpty(index, "after removing from both ends");
    }

    // ---- cursors ---------------------------------------------------------------------------------

    @ForEachImplementation
    void newCursorIsNotPositioned(Impl impl) {
        LongIndex index = indexOf(impl, mapOf(1, 10, 2, 20));
        LongCursor c = index.cursor();
        assertNotValid(c, "cursor()");
        assertThrows(NoSuchElementException.class, c::remove, "remove() on an unpositioned cursor");
        assertEquals(2, index.size(), "remove() on an unpositioned cursor removed something");
        assertTrue(c.seekFirst());
        assertEquals(1, c.key());
    }

    @ForEachImplementation
    void cursorAtKeyStartsAtTheCeiling(Impl impl) {
        LongIndex index = indexOf(impl, mapOf(-5, 1, 0, 2, 5, 3, MAX, 4));
        LongCursor c = index.cursor(-5);
        assertTrue(c.isValid());
        assertEquals(-5, c.key());
        assertEquals(1, c.value());
        c = index.cursor(-4);
        assertEquals(0, c.key());
        c = index.cursor(MIN);
        assertEquals(-5, c.key());
        c = index.cursor(6);
        assertEquals(MAX, c.key());
        assertEquals(4, c.value());
        assertFalse(c.next(), "next() from MAX_VALUE");
        index.remove(MAX);
        assertNotValid(index.cursor(6), "cursor(6) past the last key");
        assertNotValid(index.cursor(MAX), "cursor(MAX_VALUE) past the last key");
    }

    @ForEachImplementation
    void seeksLandWhereTheDocsSay(Impl impl) {
        NavigableMap<Long, Long> expected = new TreeMap<>();
        for (long k : GAPPY) {
            expected.put(k, k ^ 0x5555);
        }
        LongIndex index = indexOf(impl, expected);
        LongCursor c = index.cursor();
        for (long p : probesAround(GAPPY)) {
            checkSeek(c, c.seekCeiling(p), expected.ceilingEntry(p), "seekCeiling(" + p + ")");
            checkSeek(c, c.seekFloor(p), expected.floorEntry(p), "seekFloor(" + p + ")");
            checkSeek(c, c.seekHigher(p), expected.higherEntry(p), "seekHigher(" + p + ")");
            checkSeek(c, c.seekLower(p), expected.lowerEntry(p), "seekLower(" + p + ")");
            checkSeek(c, c.seekFirst(), expected.firstEntry(), "seekFirst()");
            checkSeek(c, c.seekLast(), expected.lastEntry(), "seekLast()");
        }
        index.remove(MIN);
        index.remove(MAX);
        expected.remove(MIN);
        expected.remove(MAX);
        c = index.cursor();
        assertFalse(c.seekLower(MIN + 1), "seekLower(MIN + 1) without MIN_VALUE");
        assertNotValid(c, "seekLower(MIN + 1) without MIN_VALUE");
        assertFalse(c.seekHigher(MAX - 1), "seekHigher(MAX - 1) without MAX_VALUE");
        assertNotValid(c, "seekHigher(MAX - 1) without MAX_VALUE");
        assertFalse(c.seekFloor(MIN), "seekFloor(MIN_VALUE) without MIN_VALUE");
        assertFalse(c.seekCeiling(MAX), "seekCeiling(MAX_VALUE) without MAX_VALUE");
        assertFalse(c.seekLower(MIN), "seekLower(MIN_VALUE)");
        assertFalse(c.seekHigher(MAX), "seekHigher(MAX_VALUE)");
        for (long p : probesAround(GAPPY)) {
            assertSeeks(index, expected, p, "gappy keys without the extremes");
        }
    }

    private static void checkSeek(LongCursor c, boolean ok, Map.Entry<Long, Long> e, String what) {
        assertEquals(e != null, ok, () -> what + " returned " + ok);
        assertEquals(ok, c.isValid(), () -> what + ": isValid() disagrees with what the seek returned");
        if (e == null) {
            assertNotValid(c, what);
        } else {
            assertEquals(e.getKey(), c.key(), () -> what + ": key()");
            assertEquals(e.getValue(), c.value(), () -> what + ": value()");
        }
    }

    @ForEachImplementation
    void cursorWalksTheWholeIndexBothWaysAndOffBothEnds(Impl impl) {
        for (int n : new int[] {1, 2, 12, 13, 16, 17, 100, 1000, 5000}) {
            NavigableMap<Long, Long> expected = new TreeMap<>();
            LongIndex index = impl.empty().get();
            putAll(index, expected, TestKeys.inOrder(TestKeys.mixed(n, n), Order.RANDOM, n), 0, "filling");
            String phase = n + " keys";
            LongCursor c = index.cursor();
            IndexAssertions.assertWalk(c, c.seekFirst(), expected.entrySet().iterator(), true,
                    phase + ": forward from seekFirst()");
            assertTrue(c.seekFirst(), "seekFirst() after falling off the end");
            assertEquals(expected.firstKey(), c.key());
            IndexAssertions.assertWalk(c, c.seekLast(), expected.descendingMap().entrySet().iterator(), false,
                    phase + ": backward from seekLast()");
            assertTrue(c.seekLast(), "seekLast() after falling off the start");
            assertEquals(expected.lastKey(), c.key());
            assertFalse(c.next(), "next() from the last key");
            assertNotValid(c, phase + ": next() from the last key");
            assertTrue(c.seekFirst());
            assertFalse(c.previous(), "previous() from the first key");
            assertNotValid(c, phase + ": previous() from the first key");
            // from the middle, both ways
            long mid = expected.keySet().stream().skip(n / 2).findFirst().orElseThrow();
            IndexAssertions.assertWalk(c, c.seekCeiling(mid), expected.tailMap(mid, true).entrySet().iterator(), true,
                    phase + ": forward from the middle");
            IndexAssertions.assertWalk(c, c.seekFloor(mid), expected.headMap(mid, true).descendingMap().entrySet()
                    .iterator(), false, phase + ": backward from the middle");
            // zig-zag: next then previous comes back, over every leaf boundary
            assertTrue(c.seekFirst());
            for (Map.Entry<Long, Long> e : expected.entrySet()) {
                assertEquals(e.getKey(), c.key(), "zig-zag walk");
                if (c.next()) {
                    long ahead = c.key();
                    assertTrue(c.previous(), "previous() after next()");
                    assertEquals(e.getKey(), c.key(), "previous() after next() from " + e.getKey());
                    assertTrue(c.next());
                    assertEquals(ahead, c.key());
                } else {
                    assertEquals(expected.lastKey(), e.getKey(), "next() returned false before the last key");
                }
            }
        }
    }

    @ForEachImplementation
    void cursorsAreIndependent(Impl impl) {
        LongIndex index = indexOf(impl, mapOf(1, 1, 2, 2, 3, 3));
        LongCursor a = index.cursor();
        LongCursor b = index.cursor();
        assertTrue(a.seekFirst());
        assertTrue(b.seekLast());
        assertTrue(a.next());
        assertEquals(2, a.key());
        assertEquals(3, b.key());
        assertTrue(b.previous());
        assertTrue(b.previous());
        assertEquals(1, b.key());
        assertEquals(2, a.key());
    }

    @ForEachImplementation
    void cursorRemoveRemovesAndMovesToTheNextKey(Impl impl) {
        NavigableMap<Long, Long> expected = new TreeMap<>();
        LongIndex index = impl.empty().get();
        putAll(index, expected, TestKeys.mixed(500, 7), 0, "filling");
        LongCursor c = index.cursor();
        long k = expected.keySet().stream().skip(200).findFirst().orElseThrow();
        assertTrue(c.seekCeiling(k));
        c.remove();
        expected.remove(k);
        assertFalse(index.containsKey(k), "the removed key is gone");
        assertTrue(c.isValid(), "cursor after remove() in the middle");
        assertEquals(expected.higherKey(k), c.key(), "cursor after remove() is at the next key");
        assertEquals(expected.higherEntry(k).getValue(), c.value());
        assertTrue(c.previous(), "previous() after remove()");
        assertEquals(expected.lowerKey(k), c.key(), "previous() after remove() is at the key before the removed one");
        assertMatches(index, expected, "after one cursor remove()");
        // remove the last key: the cursor is then not valid
        assertTrue(c.seekLast());
        long last = c.key();
        c.remove();
        expected.remove(last);
        assertNotValid(c, "after removing the last key through the cursor");
        assertThrows(NoSuchElementException.class, c::remove, "remove() again after removing the last key");
        assertEquals(expected.lastKey(), index.lastKey());
        // remove every other key walking forwards, across leaves
        assertTrue(c.seekFirst());
        while (c.isValid()) {
            long at = c.key();
            c.remove();
            expected.remove(at);
            Long next = expected.higherKey(at);
            assertEquals(next != null, c.isValid(), "cursor validity after remove()");
            if (next != null) {
                assertEquals(next, c.key());
                c.next();
            }
        }
        assertMatches(index, expected, "after removing every other key through a cursor");
        // remove everything from the first key on
        assertTrue(c.seekFirst());
        while (c.isValid()) {
            c.remove();
        }
        assertEmpty(index, "after removing every key through a cursor");
        assertTrue(index.upsert(1, 2), "put after removing everything through a cursor");
        assertMatches(index, mapOf(1, 2), "reused after removing everything through a cursor");
    }

    @ForEachImplementation
    void cursorRemoveOfAWholeRangeAndFromTheEnd(Impl impl) {
        NavigableMap<Long, Long> expected = new TreeMap<>();
        LongIndex index = impl.empty().get();
        putAll(index, expected, TestKeys.dense(3000, -1500), 0, "filling");
        LongCursor c = index.cursor(-100);
        for (int i = 0; i < 1000; i++) {
            assertEquals(-100 + i, c.key());
            c.remove();
            expected.remove(-100L + i);
        }
        assertEquals(900, c.key(), "cursor after removing [-100, 900)");
        assertTrue(c.previous());
        assertEquals(-101, c.key());
        assertMatches(index, expected, "after removing a range through a cursor");
        assertEquals(0, index.rangeCount(-100, 900));
        // from the end backwards: remove the last, then seekLast again
        for (int i = 0; i < 1500; i++) {
            assertTrue(c.seekLast());
            c.remove();
            assertNotValid(c, "after removing the last key");
            expected.pollLastEntry();
        }
        assertMatches(index, expected, "after removing from the end through a cursor");
    }

    @ForEachImplementation
    void cursorRemoveOnANotValidCursorThrows(Impl impl) {
        LongIndex index = indexOf(impl, mapOf(1, 1, 2, 2));
        LongCursor c = index.cursor();
        assertThrows(NoSuchElementException.class, c::remove, "remove() on an unpositioned cursor");
        assertFalse(c.seekCeiling(3));
        assertThrows(NoSuchElementException.class, c::remove, "remove() after a seek that found nothing");
        assertTrue(c.seekLast());
        assertFalse(c.next());
        assertThrows(NoSuchElementException.class, c::remove, "remove() after moving past the end");
        assertMatches(index, mapOf(1, 1, 2, 2), "after failed cursor removes");
    }

    /** Every call on a cursor that is not a seek; each must throw once the cursor is stale. */
    private static List<Map.Entry<String, Executable>> nonSeekCalls(LongCursor c) {
        List<Map.Entry<String, Executable>> calls = new ArrayList<>();
        calls.add(Map.entry("isValid()", c::isValid));
        calls.add(Map.entry("key()", c::key));
        calls.add(Map.entry("value()", c::value));
        calls.add(Map.entry("next()", c::next));
        calls.add(Map.entry("previous()", c::previous));
        calls.add(Map.entry("remove()", c::remove));
        return calls;
    }

    /** What makes a cursor stale, as {@code (name, change)}; each changes the index's key set. */
    private interface Change {
        void apply(LongIndex index);
    }

    private static final List<Map.Entry<String, Change>> STALING_CHANGES = List.of(
            Map.entry("put of a new key", i -> assertTrue(i.upsert(1505, 0))),
            Map.entry("put of a new key before every other", i -> assertTrue(i.upsert(MIN, 0))),
            Map.entry("remove through the index", i -> assertTrue(i.delete(1000))),
            Map.entry("remove through the index of the key under the cursor", i -> assertTrue(i.delete(500))),
            Map.entry("clear()", LongIndex::clear),
            Map.entry("remove through another cursor", i -> {
                LongCursor other = i.cursor(2000);
                other.remove();
            }));

    @ForEachImplementation
    void cursorsGoStaleWhenKeysAreAddedOrRemovedElsewhere(Impl impl) {
        assumeTrue(impl.has(Capability.FAIL_FAST_CURSORS), impl + "'s cursors are weakly consistent, not fail-fast");
        for (Map.Entry<String, Change> change : STALING_CHANGES) {
            for (String position : new String[] {"on a key", "unpositioned", "past the end"}) {
                int calls = nonSeekCalls(impl.empty().get().cursor()).size();
                for (int call = 0; call < calls; call++) {
                    LongIndex index = impl.bulk().apply(TestKeys.spaced(1000, 0, 10), null);
                    LongCursor c = index.cursor();
                    switch (position) {
                        case "on a key" -> assertTrue(c.seekCeiling(500));
                        case "past the end" -> {
                            assertTrue(c.seekLast());
                            assertFalse(c.next());
                        }
                        default -> {
                        }
                    }
                    change.getValue().apply(index);
                    Map.Entry<String, Executable> e = nonSeekCalls(c).get(call);
                    assertThrows(ConcurrentModificationException.class, e.getValue(),
                            "cursor " + position + ", then " + change.getKey() + ", then " + e.getKey());
                }
            }
        }
    }

    @ForEachImplementation
    void aSeekMakesAStaleCursorUsableAgain(Impl impl) {
        LongIndex index = impl.bulk().apply(TestKeys.spaced(1000, 0, 10), null);
        LongCursor c = index.cursor(500);
        index.put(505, 7);
        if (impl.has(Capability.FAIL_FAST_CURSORS)) {
            assertThrows(ConcurrentModificationException.class, c::key);
        }
        assertTrue(c.seekCeiling(501), "seekCeiling on a stale cursor");
        assertEquals(505, c.key());
        assertEquals(7, c.value());
        assertTrue(c.next());
        assertEquals(510, c.key());
        index.remove(510);
        if (impl.has(Capability.FAIL_FAST_CURSORS)) {
            assertThrows(ConcurrentModificationException.class, c::next);
        }
        assertTrue(c.seekFirst(), "seekFirst on a stale cursor");
        assertEquals(0, c.key());
        index.remove(0);
        assertTrue(c.seekLast(), "seekLast on a stale cursor");
        assertEquals(9990, c.key());
        index.put(-1, 0);
        assertTrue(c.seekFloor(0));
        assertEquals(-1, c.key());
        index.put(-2, 0);
        assertTrue(c.seekHigher(-2));
        assertEquals(-1, c.key());
        index.put(-3, 0);
        assertTrue(c.seekLower(-2));
        assertEquals(-3, c.key());
        assertFalse(c.previous(), "previous() from the least key");
        assertTrue(c.seekFirst());
        assertEquals(-3, c.key());
    }

    @ForEachImplementation
    void replacingAValueDoesNotMakeCursorsStale(Impl impl) {
        LongIndex index = impl.bulk().apply(TestKeys.spaced(1000, 0, 10), null);
        LongCursor c = index.cursor(500);
        LongCursor unpositioned = index.cursor();
        LongCursor pastEnd = index.cursor();
        assertTrue(pastEnd.seekLast());
        assertFalse(pastEnd.next());
        assertFalse(index.upsert(500, 77), "put of an existing key");
        assertFalse(index.upsert(9990, 78), "put of an existing key");
        assertFalse(index.upsert(0, 0), "put of an existing key with its own value");
        assertTrue(c.isValid(), "cursor after a value was replaced");
        assertEquals(500, c.key());
        assertEquals(77, c.value(), "the cursor sees the replaced value");
        assertTrue(c.next());
        assertEquals(510, c.key());
        assertTrue(c.previous());
        assertEquals(77, c.value());
        assertFalse(unpositioned.isValid(), "unpositioned cursor after a value was replaced");
        assertFalse(pastEnd.isValid(), "cursor past the end after a value was replaced");
        c.remove();
        assertEquals(510, c.key(), "cursor.remove() after a value was replaced");
    }

    @ForEachImplementation
    void removingAMissingKeyDoesNotMakeCursorsStale(Impl impl) {
        LongIndex index = impl.bulk().apply(TestKeys.spaced(1000, 0, 10), null);
        LongCursor c = index.cursor(500);
        assertFalse(index.delete(501), "remove of a missing key");
        assertFalse(index.delete(MAX));
        assertTrue(c.isValid(), "cursor after removing a missing key (the index did not change)");
        assertEquals(500, c.key());
        assertTrue(c.next());
    }

    @ForEachImplementation
    void cursorRemoveKeepsThatCursorButStalesTheOthers(Impl impl) {
        assumeTrue(impl.has(Capability.FAIL_FAST_CURSORS), impl + "'s cursors are weakly consistent, not fail-fast");
        LongIndex index = impl.bulk().apply(TestKeys.spaced(1000, 0, 10), null);
        LongCursor a = index.cursor(500);
        LongCursor b = index.cursor(500);
        LongCursor elsewhere = index.cursor(9000);
        a.remove();
        assertEquals(510, a.key(), "the removing cursor moved to the next key");
        for (Map.Entry<String, Executable> e : nonSeekCalls(b)) {
            assertThrows(ConcurrentModificationException.class, e.getValue(),
                    "a cursor on the removed key after another cursor removed it, then " + e.getKey());
        }
        assertThrows(ConcurrentModificationException.class, elsewhere::key,
                "a cursor elsewhere after another cursor removed a key");
        a.remove();
        assertEquals(520, a.key(), "a second remove() through the same cursor");
        assertTrue(a.next());
        assertEquals(530, a.key());
        assertTrue(b.seekCeiling(500), "seek on the stale cursor");
        assertEquals(520, b.key());
        assertEquals(998, index.size());
        checkInvariants(index, "after two cursor removes");
    }

    // ---- ranges ----------------------------------------------------------------------------------

    @ForEachImplementation
    void rangesOverEveryPairOfBounds(Impl impl) {
        NavigableMap<Long, Long> expected = new TreeMap<>();
        for (long k : GAPPY) {
            expected.put(k, k * 7);
        }
        LongIndex index = indexOf(impl, expected);
        long[] bounds = probesAround(GAPPY);
        for (long from : bounds) {
            for (long to : bounds) {
                assertRange(index, expected, from, to, "gappy keys");
            }
        }
    }

    @ForEachImplementation
    void emptyAndInvertedRangesVisitNothing(Impl impl) {
        LongIndex index = impl.bulk().apply(TestKeys.dense(100, 0), TestKeys.dense(100, 1000));
        long[][] ranges = {{5, 5}, {0, 0}, {99, 99}, {6, 5}, {99, 0}, {MAX, MIN}, {MAX, MAX}, {MIN, MIN}, {100, 200},
            {-50, 0}, {MIN, 0}, {100, MAX}, {50, 49}, {MAX, 0}, {0, MIN}};
        for (long[] r : ranges) {
            assertEquals(0, index.rangeCount(r[0], r[1]), "rangeCount(" + r[0] + ", " + r[1] + ")");
            assertEquals(0, index.rangeVisit(r[0], r[1], (k, v) -> fail("rangeVisit(" + r[0] + ", " + r[1]
                    + ") visited " + k)), "rangeVisit(" + r[0] + ", " + r[1] + ")");
        }
        assertEquals(1, index.rangeCount(5, 6), "[5, 6)");
        assertEquals(1, index.rangeCount(99, MAX), "[99, MAX_VALUE)");
        assertEquals(1, index.rangeCount(MIN, 1), "[MIN_VALUE, 1)");
        assertEquals(100, index.rangeCount(MIN, MAX), "[MIN_VALUE, MAX_VALUE)");
        assertEquals(100, index.rangeCount(0, 100), "[0, 100)");
        assertEquals(99, index.rangeCount(0, 99), "[0, 99)");
        assertEquals(99, index.rangeCount(1, 100), "[1, 100)");
    }

    @ForEachImplementation
    void wholeDomainRangesNeverIncludeMaxValue(Impl impl) {
        NavigableMap<Long, Long> expected = mapOf(MIN, MAX, -1, 1, 0, 0, MAX, MIN);
        LongIndex index = indexOf(impl, expected);
        assertEquals(3, index.rangeCount(MIN, MAX), "[MIN_VALUE, MAX_VALUE) leaves out MAX_VALUE");
        assertEquals(1, index.rangeCount(MIN, MIN + 1), "[MIN_VALUE, MIN_VALUE + 1)");
        assertEquals(0, index.rangeCount(MAX, MAX), "[MAX_VALUE, MAX_VALUE)");
        assertEquals(0, index.rangeCount(MAX - 1, MAX), "[MAX_VALUE - 1, MAX_VALUE) without MAX_VALUE - 1");
        assertEquals(2, index.rangeCount(-1, MAX), "[-1, MAX_VALUE)");
        for (long from : new long[] {MIN, MIN + 1, -1, 0, MAX - 1, MAX}) {
            for (long to : new long[] {MIN, MIN + 1, -1, 0, 1, MAX - 1, MAX}) {
                assertRange(index, expected, from, to, "the extremes");
            }
        }
        index.put(MAX - 1, 5);
        expected.put(MAX - 1, 5L);
        assertEquals(1, index.rangeCount(MAX - 1, MAX), "[MAX_VALUE - 1, MAX_VALUE)");
        assertRange(index, expected, MIN, MAX, "the extremes and MAX_VALUE - 1");
    }

    @ForEachImplementation
    void rangeVisitReportsEntriesInOrderWithTheirValues(Impl impl) {
        NavigableMap<Long, Long> expected = new TreeMap<>();
        LongIndex index = impl.empty().get();
        putAll(index, expected, TestKeys.inOrder(TestKeys.mixed(TestSubjects.scaled(20_000, 2_000), 8), Order.RANDOM, 9), 3,
                "filling");
        long[] count = {0};
        long[] last = {MIN};
        boolean[] first = {true};
        long returned = index.rangeVisit(MIN, MAX, (k, v) -> {
            if (!first[0] && k <= last[0]) {
                fail("rangeVisit out of order: " + k + " after " + last[0]);
            }
            assertEquals(expected.get(k), v, "value visited for key " + k);
            first[0] = false;
            last[0] = k;
            count[0]++;
            return true;
        });
        assertEquals(expected.size() - 1, count[0], "entries visited in [MIN_VALUE, MAX_VALUE) (MAX_VALUE is a key)");
        assertEquals(count[0], returned, "rangeVisit returns the number visited");
        SplittableRandom random = new SplittableRandom(10);
        long[] keys = expected.keySet().stream().mapToLong(Long::longValue).toArray();
        for (int i = 0; i < TestSubjects.scaled(3000, 300); i++) {
            int a = random.nextInt(keys.length);
            int span = random.nextInt(10) == 0 ? random.nextInt(keys.length) : random.nextInt(40);
            long from = keys[a] + random.nextInt(3) - 1;
            long to = keys[Math.min(keys.length - 1, a + span)] + random.nextInt(3) - 1;
            if (random.nextInt(10) == 0) {
                long t = from;
                from = to;
                to = t;
            }
            assertRange(index, expected, from, to, keys.length + " keys");
        }
    }

    // ---- memory accounting -----------------------------------------------------------------------

    @ForEachImplementation
    void memoryBytesIsPositiveAndGrowsWithTheContent(Impl impl) {
        LongIndex index = impl.empty().get();
        assertTrue(index.memoryBytes() >= 0, "memoryBytes() of an empty index is not negative");
        index.put(1, 1);
        long one = index.memoryBytes();
        assertTrue(one > 0, "memoryBytes() of an index holding one key: " + one);
        long[] keys = TestKeys.inOrder(TestKeys.mixed(100_000, 11), Order.RANDOM, 12);
        long previous = one;
        int done = 0;
        for (int target : new int[] {TestSubjects.scaled(1_000, 100), TestSubjects.scaled(10_000, 1_000),
                TestSubjects.scaled(100_000, 10_000)}) {
            for (; done < target; done++) {
                index.put(keys[done], done);
            }
            long bytes = index.memoryBytes();
            assertTrue(bytes > previous, "memoryBytes() grows from " + previous + " as keys are added, but with "
                    + target + " keys it is " + bytes);
            assertTrue(bytes >= 16L * index.size(), "memoryBytes() with " + index.size() + " keys and values is "
                    + bytes + ", less than the 16 bytes a key and value take");
            assertTrue(bytes <= 1024L * index.size() + (1 << 20), "memoryBytes() with " + index.size()
                    + " keys is " + bytes + ", more than 1 KiB a key");
            previous = bytes;
        }
        LongIndex bulk = impl.bulk().apply(TestKeys.dense(100_000, 0), null);
        long bulkBytes = bulk.memoryBytes();
        // Dense keys with zero values compress (16-bit key and value lanes in the CBS-tree): the
        // floor is the narrowest lane any structure here stores a key in.
        assertTrue(bulkBytes >= 2L * 100_000, "memoryBytes() of 100000 bulk-loaded keys is " + bulkBytes
                + ", less than the 2 bytes a key takes even as a 16-bit difference");
        assertTrue(bulkBytes <= 1024L * 100_000 + (1 << 20), "memoryBytes() of 100000 bulk-loaded keys is " + bulkBytes);
    }

    // ---- bulk load -------------------------------------------------------------------------------

    @ForEachImplementation
    void bulkLoadWithAndWithoutValues(Impl impl) {
        long[] keys = {MIN, -7, -1, 0, 3, 4, 5, MAX};
        long[] values = {1, MAX, MIN, -1, 0, 9, 8, 7};
        LongIndex index = impl.bulk().apply(keys.clone(), values.clone());
        NavigableMap<Long, Long> expected = new TreeMap<>();
        for (int i = 0; i < keys.length; i++) {
            expected.put(keys[i], values[i]);
        }
        assertEverythingAt(index, expected, probesAround(keys), "bulk-loaded with values");
        LongIndex keyOnly = impl.bulk().apply(keys.clone(), null);
        expected.replaceAll((k, v) -> 0L);
        assertEverythingAt(keyOnly, expected, probesAround(keys), "bulk-loaded key-only (values read as 0)");
        for (long k : keys) {
            assertEquals(0, keyOnly.get(k, 5), "value of a key-only index");
        }
        assertFalse(keyOnly.upsert(3, 33), "put of a bulk-loaded key replaces its value");
        assertTrue(keyOnly.upsert(2, 22), "put of a new key into a key-only index");
        expected.put(3L, 33L);
        expected.put(2L, 22L);
        assertMatches(keyOnly, expected, "key-only index after puts with values");
    }

    @ForEachImplementation
    void bulkLoadOfNothing(Impl impl) {
        for (long[] values : new long[][] {null, new long[0]}) {
            String phase = "bulk load of no keys with values " + (values == null ? "null" : "long[0]");
            LongIndex index = impl.bulk().apply(new long[0], values);
            assertEmpty(index, phase);
            assertTrue(index.upsert(5, 6), phase + ": put");
            assertTrue(index.upsert(4, 7), phase + ": put");
            assertMatches(index, mapOf(4, 7, 5, 6), phase + ", then two puts");
        }
    }

    @ForEachImplementation
    void bulkLoadRejectsBadInputNamingTheOffendingIndex(Impl impl) {
        assertBulkRejected(impl, new long[] {0, 1, 2, 3, 4, 3, 6}, null, "keys[5]", "unsorted keys");
        assertBulkRejected(impl, new long[] {0, 1, 2, 3, 4, 4, 6}, null, "keys[5]", "a duplicate key");
        assertBulkRejected(impl, new long[] {0, 1, 2, 3, 4, 4, 6}, new long[7], "keys[5]", "a duplicate key, with values");
        assertBulkRejected(impl, new long[] {5, 1}, null, "keys[1]", "unsorted keys");
        assertBulkRejected(impl, new long[] {1, 1}, new long[2], "keys[1]", "a duplicate key");
        assertBulkRejected(impl, new long[] {0, -1}, null, "keys[1]", "-1 after 0 (keys are signed)");
        assertBulkRejected(impl, new long[] {-5, 0, MAX, MIN}, null, "keys[3]", "MIN_VALUE after MAX_VALUE");
        long[] longRun = TestKeys.dense(5000, 0);
        longRun[4321] = longRun[4320];
        assertBulkRejected(impl, longRun, null, "keys[4321]", "a duplicate deep in a long run");
        assertBulkRejected(impl, new long[] {1, 2, 3}, new long[2], null, "values shorter than keys");
        assertBulkRejected(impl, new long[] {1, 2, 3}, new long[4], null, "values longer than keys");
        assertBulkRejected(impl, new long[0], new long[1], null, "values for no keys");
        assertThrows(NullPointerException.class, () -> impl.bulk().apply(null, null), "bulk load of null keys");
        assertThrows(NullPointerException.class, () -> impl.bulk().apply(null, new long[0]),
                "bulk load of null keys with values");
        // signed order accepted
        LongIndex ok = impl.bulk().apply(new long[] {MIN, -1, 0, MAX}, null);
        assertEquals(4, ok.size(), "bulk load of MIN_VALUE, -1, 0, MAX_VALUE");
    }

    private static void assertBulkRejected(Impl impl, long[] keys, long[] values, String offending, String what) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> impl.bulk().apply(keys, values), "bulk load of " + what);
        String message = e.getMessage();
        assertTrue(message != null && !message.isBlank(), "bulk load of " + what + ": the exception has no message");
        if (offending != null) {
            assertTrue(message.contains(offending), "bulk load of " + what + ": the message should name " + offending
                    + " but is: " + message);
        } else {
            assertTrue(message.contains(String.valueOf(keys.length)) && message.contains(String.valueOf(values.length)),
                    "bulk load of " + what + ": the message should give both lengths (" + keys.length + " and "
                            + values.length + ") but is: " + message);
        }
    }

    @ParameterizedTest(name = "{0}, {1} keys")
    @MethodSource("implementationsAndBulkSizes")
    void bulkLoadThenInsertAndDelete(Impl impl, int n) {
        for (int variant = 0; variant < 4; variant++) {
            boolean withValues = variant % 2 == 0;
            boolean spaced = variant < 2;
            // spaced keys leave two free keys after each one, and cross zero; mixed keys hold the extremes
            long[] keys = spaced ? TestKeys.spaced(n, -3L * (n / 2), 3) : TestKeys.mixed(n, 100 + n);
            long[] values = withValues ? Arrays.stream(keys).map(k -> TestKeys.valueFor(k, 0)).toArray() : null;
            String phase = n + (spaced ? " spaced" : " mixed") + " keys bulk-loaded " + (withValues ? "with values"
                    : "key-only");
            LongIndex index = impl.bulk().apply(keys.clone(), values == null ? null : values.clone());
            NavigableMap<Long, Long> expected = new TreeMap<>();
            for (int i = 0; i < n; i++) {
                expected.put(keys[i], values == null ? 0 : values[i]);
            }
            assertMatches(index, expected, phase);
            assertLookups(index, expected, probes(expected, 3000, n), phase);
            if (n > 2000 && variant > 0) {
                continue; // the big sizes run the interleavings once
            }
            SplittableRandom random = new SplittableRandom(n * 31L + variant);

            // insert into the gaps (splitting the bulk-loaded leaves), in random order
            long[] gaps = new long[n];
            int g = 0;
            for (long k : keys) {
                if (k != MAX && !expected.containsKey(k + 1) && random.nextBoolean()) {
                    gaps[g++] = k + 1;
                }
            }
            long[] fresh = Arrays.copyOf(gaps, g);
            TestKeys.shuffle(fresh, random);
            putAll(index, expected, fresh, 1, phase);
            assertMatches(index, expected, phase + ", then " + g + " keys put into the gaps");

            // append after the last key and prepend before the first
            if (spaced) {
                long top = n == 0 ? 0 : expected.lastKey();
                long bottom = n == 0 ? 0 : expected.firstKey();
                int more = Math.min(n, 400) + 20;
                for (int i = 1; i <= more; i++) {
                    assertTrue(index.upsert(top + i, i), phase + ": appending " + (top + i));
                    assertTrue(index.upsert(bottom - i, -i), phase + ": prepending " + (bottom - i));
                    expected.put(top + i, (long) i);
                    expected.put(bottom - i, (long) -i);
                }
                assertMatches(index, expected, phase + ", then appended and prepended " + more + " keys each");
            }

            // replace every value
            for (Map.Entry<Long, Long> e : expected.entrySet()) {
                long v = ~e.getValue();
                assertFalse(index.upsert(e.getKey(), v), phase + ": replacing the value of " + e.getKey());
                e.setValue(v);
            }
            assertMatches(index, expected, phase + ", then every value replaced");

            // delete two thirds in random order, with some missing keys
            long[] present = expected.keySet().stream().mapToLong(Long::longValue).toArray();
            TestKeys.shuffle(present, random);
            for (int i = 0; i < present.length * 2 / 3; i++) {
                for (long k : new long[] {present[i], present[i] ^ 1}) { // the second is often missing
                    boolean had = expected.remove(k) != null;
                    assertEquals(had, index.delete(k), phase + ": remove(" + k + ")");
                }
            }
            assertMatches(index, expected, phase + ", then two thirds removed");
            assertLookups(index, expected, probes(expected, 2000, n + 1), phase + ", then two thirds removed");

            // delete the rest in ascending order, then reuse
            while (!expected.isEmpty()) {
                long k = expected.pollFirstEntry().getKey();
                assertTrue(index.delete(k), phase + ": remove(" + k + ") of the rest");
            }
            assertEmpty(index, phase + ", then every key removed");
            putAll(index, expected, TestKeys.dense(50, -25), 2, phase + ": reuse");
            assertMatches(index, expected, phase + ", then emptied and reused");
        }
    }

    // ---- growing and shrinking through every level ----------------------------------------------

    @ParameterizedTest(name = "{0}, {1} keys")
    @MethodSource("implementationsAndSizes")
    void growAndShrinkInEveryOrder(Impl impl, int n) {
        // Every pair of insert and delete order on mixed keys, and each insert order once on
        // consecutive keys; the largest size pairs each insert order with one delete order only.
        // A scaled kit (-Dbforest.kit.scale < 1: device structures) pairs each order with one other.
        boolean huge = n > 100_000 || TestSubjects.KIT_SCALE < 1;
        for (boolean dense : new boolean[] {false, true}) {
            long[] sorted = dense ? TestKeys.dense(n, -(n / 2)) : TestKeys.mixed(n, n);
            for (Order insertOrder : Order.values()) {
                Order rotated = Order.values()[(insertOrder.ordinal() + 1) % 3];
                if (huge && dense && insertOrder != Order.RANDOM) {
                    continue;
                }
                for (Order deleteOrder : dense || huge ? new Order[] {rotated} : Order.values()) {
                    String phase = n + (dense ? " consecutive" : " mixed") + " keys put " + insertOrder;
                    boolean fullCheck = dense || huge || deleteOrder == insertOrder;
                    growAndShrink(impl, sorted, insertOrder, deleteOrder, phase, fullCheck);
                }
            }
        }
    }

    private static void growAndShrink(Impl impl, long[] sorted, Order insertOrder, Order deleteOrder, String phase,
            boolean fullCheck) {
        int n = sorted.length;
        int every = Math.max(1, n / 8);
        boolean small = n <= 256;
        LongIndex index = impl.empty().get();
        NavigableMap<Long, Long> expected = new TreeMap<>();
        long[] keys = TestKeys.inOrder(sorted, insertOrder, n * 7L + insertOrder.ordinal());
        for (int i = 0; i < n; i++) {
            long k = keys[i];
            long v = TestKeys.valueFor(k, 0);
            if (!index.upsert(k, v)) {
                fail(phase + ": upsert(" + k + ") of a new key returned false");
            }
            expected.put(k, v);
            if (index.size() != i + 1) {
                assertEquals(i + 1, index.size(), phase + ": size() after " + (i + 1) + " puts");
            }
            if (small || (i + 1) % every == 0) {
                checkInvariants(index, phase + ": after " + (i + 1) + " puts");
            }
        }
        if (fullCheck) {
            assertMatches(index, expected, phase);
            assertLookups(index, expected, probes(expected, 10_000, n), phase);
            // putting every key again replaces and changes nothing else
            for (long k : keys) {
                long old = index.put(k, TestKeys.valueFor(k, 1));
                if (old != expected.get(k)) {
                    fail(phase + ": put(" + k + ") of an existing key returned " + old + ", not its value " + expected.get(k));
                }
                expected.put(k, TestKeys.valueFor(k, 1));
            }
            assertMatches(index, expected, phase + ", then every value replaced");
        } else {
            checkInvariants(index, phase);
            assertEquals(n, index.size(), phase + ": size()");
        }

        phase += ", removed " + deleteOrder;
        long[] doomed = TestKeys.inOrder(sorted, deleteOrder, n * 13L + deleteOrder.ordinal());
        for (int i = 0; i < n; i++) {
            long k = doomed[i];
            long old = index.remove(k);
            if (old != expected.get(k)) {
                fail(phase + ": remove(" + k + ") of a present key returned " + old + ", not its value " + expected.get(k)
                        + ", after " + i + " removes");
            }
            expected.remove(k);
            if (index.size() != n - i - 1) {
                assertEquals(n - i - 1, index.size(), phase + ": size() after " + (i + 1) + " removes");
            }
            if (small || (i + 1) % every == 0) {
                checkInvariants(index, phase + ": after " + (i + 1) + " removes");
                if (index.delete(k)) {
                    fail(phase + ": delete(" + k + ") returned true for a key already removed");
                }
            }
            if (fullCheck && i == n / 2) {
                assertMatches(index, expected, phase + ": half way");
                assertLookups(index, expected, probes(expected, 2_000, n), phase + ": half way");
            }
        }
        assertEmpty(index, phase + " down to empty");

        // the emptied index keeps working
        int again = Math.min(n, 3000);
        long[] reuse = TestKeys.inOrder(Arrays.copyOf(sorted, again), Order.RANDOM, n);
        putAll(index, expected, reuse, 2, phase + ", then reused");
        assertMatches(index, expected, phase + ", then reused");
        for (int i = 0; i < again / 2; i++) {
            assertTrue(index.delete(reuse[i]), phase + ", then reused: remove(" + reuse[i] + ")");
            expected.remove(reuse[i]);
        }
        assertMatches(index, expected, phase + ", then reused and half removed");
    }
}
