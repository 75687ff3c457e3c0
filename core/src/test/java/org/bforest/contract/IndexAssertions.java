package org.bforest.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import org.bforest.LongCursor;
import org.bforest.LongEntryVisitor;
import org.bforest.LongIndex;
import org.bforest.spi.InvariantCheckable;

/**
 * Assertions that compare a {@link LongIndex} with an expected {@link NavigableMap} (a plain
 * {@code TreeMap} built by the test). Every message names the phase of the test it was called in.
 */
public final class IndexAssertions {
    /** The {@code absent} arguments the look-ups are tried with: the extremes, 0, -1 and a plain one. */
    static final long[] ABSENTS = {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1, 4242};

    private IndexAssertions() {
    }

    /**
     * Runs the structure's invariant checker, which is internal ({@link InvariantCheckable}, off
     * the user-facing {@link LongIndex}); throws what it throws. A structure without a checker
     * fails: every structure must have a real one.
     */
    public static void checkInvariants(LongIndex index) {
        if (!(index instanceof InvariantCheckable checkable)) {
            throw new AssertionError(index.getClass().getName() + " has no invariant checker: every structure"
                    + " implements " + InvariantCheckable.class.getName());
        }
        checkable.checkInvariants();
    }

    /** {@link #checkInvariants(LongIndex)}, naming the phase if it throws. */
    public static void checkInvariants(LongIndex index, String phase) {
        try {
            checkInvariants(index);
        } catch (RuntimeException e) {
            throw new AssertionError(phase + ": checkInvariants() failed: " + e, e);
        }
    }

    /**
     * The whole content: invariants, size, first and last key, a cursor walk each way, every
     * key's value through {@code get} and {@code containsKey}, and a visit of the whole domain.
     */
    public static void assertMatches(LongIndex index, NavigableMap<Long, Long> expected, String phase) {
        checkInvariants(index, phase);
        int n = expected.size();
        assertEquals(n, index.size(), () -> phase + ": size()");
        assertEquals(n == 0, index.isEmpty(), () -> phase + ": isEmpty()");
        if (n == 0) {
            assertEmpty(index, phase);
            return;
        }
        assertEquals(expected.firstKey(), index.firstKey(), () -> phase + ": firstKey()");
        assertEquals(expected.lastKey(), index.lastKey(), () -> phase + ": lastKey()");

        LongCursor c = index.cursor();
        assertWalk(c, c.seekFirst(), expected.entrySet().iterator(), true, phase + ": forward walk from seekFirst()");
        assertWalk(c, c.seekLast(), expected.descendingMap().entrySet().iterator(), false,
                phase + ": backward walk from seekLast()");

        for (Map.Entry<Long, Long> e : expected.entrySet()) {
            long k = e.getKey();
            long v = e.getValue();
            if (index.get(k, ~v) != v) {
                assertEquals(v, index.get(k, ~v), () -> phase + ": get(" + k + ", " + ~v + ")");
            }
            if (!index.containsKey(k)) {
                fail(phase + ": containsKey(" + k + ") is false for a key that is there");
            }
        }

        boolean hasMax = expected.containsKey(Long.MAX_VALUE);
        assertEquals(n - (hasMax ? 1 : 0), index.rangeCount(Long.MIN_VALUE, Long.MAX_VALUE),
                () -> phase + ": rangeCount(MIN_VALUE, MAX_VALUE) (MAX_VALUE itself is never in a half-open range)");
        assertRangeVisit(index, expected, Long.MIN_VALUE, Long.MAX_VALUE, phase);
    }

    /**
     * Walks {@code c} (already positioned, {@code ok} being what the positioning returned) with
     * next() or previous() and compares every step, then checks that it falls off the end.
     */
    static void assertWalk(LongCursor c, boolean ok, Iterator<Map.Entry<Long, Long>> expected, boolean forward,
            String phase) {
        long steps = 0;
        while (expected.hasNext()) {
            Map.Entry<Long, Long> e = expected.next();
            if (!ok) {
                fail(phase + ": cursor not valid after " + steps + " steps, expected key " + e.getKey());
            }
            if (c.key() != e.getKey() || c.value() != e.getValue()) {
                fail(phase + ": after " + steps + " steps expected " + e.getKey() + "=" + e.getValue() + " but was "
                        + c.key() + "=" + c.value());
            }
            ok = forward ? c.next() : c.previous();
            if (ok != c.isValid()) {
                fail(phase + ": " + (forward ? "next()" : "previous()") + " returned " + ok + " but isValid() is "
                        + c.isValid());
            }
            steps++;
        }
        if (ok) {
            fail(phase + ": cursor still valid after the last of " + steps + " entries, at key " + c.key());
        }
        assertNotValid(c, phase + ": cursor moved past the " + (forward ? "last" : "first") + " entry");
    }

    /** The cursor is not valid: isValid() is false, key(), value() and remove() throw NoSuchElementException. */
    static void assertNotValid(LongCursor c, String phase) {
        assertFalse(c.isValid(), () -> phase + ": isValid()");
        assertThrows(NoSuchElementException.class, c::key, () -> phase + ": key() on a cursor that is not valid");
        assertThrows(NoSuchElementException.class, c::value, () -> phase + ": value() on a cursor that is not valid");
    }

    /** Everything an empty index must answer. */
    public static void assertEmpty(LongIndex index, String phase) {
        checkInvariants(index, phase);
        assertEquals(0, index.size(), () -> phase + ": size() of an empty index");
        assertTrue(index.isEmpty(), () -> phase + ": isEmpty() of an empty index");
        assertThrows(NoSuchElementException.class, index::firstKey, () -> phase + ": firstKey() of an empty index");
        assertThrows(NoSuchElementException.class, index::lastKey, () -> phase + ": lastKey() of an empty index");
        long[] probes = {Long.MIN_VALUE, Long.MIN_VALUE + 1, -1, 0, 1, Long.MAX_VALUE - 1, Long.MAX_VALUE};
        for (long p : probes) {
            assertFalse(index.containsKey(p), () -> phase + ": containsKey(" + p + ") of an empty index");
            for (long absent : ABSENTS) {
                assertEquals(absent, index.get(p, absent), () -> phase + ": get(" + p + ", " + absent + ")");
                assertEquals(absent, index.ceilingKey(p, absent), () -> phase + ": ceilingKey(" + p + ", " + absent + ")");
                assertEquals(absent, index.floorKey(p, absent), () -> phase + ": floorKey(" + p + ", " + absent + ")");
                assertEquals(absent, index.higherKey(p, absent), () -> phase + ": higherKey(" + p + ", " + absent + ")");
                assertEquals(absent, index.lowerKey(p, absent), () -> phase + ": lowerKey(" + p + ", " + absent + ")");
            }
            assertNotValid(index.cursor(p), phase + ": cursor(" + p + ") of an empty index");
            LongCursor c = index.cursor();
            assertFalse(c.seekCeiling(p), () -> phase + ": seekCeiling(" + p + ") on an empty index");
            assertNotValid(c, phase + ": after seekCeiling(" + p + ") on an empty index");
            assertFalse(c.seekFloor(p), () -> phase + ": seekFloor(" + p + ") on an empty index");
            assertNotValid(c, phase + ": after seekFloor(" + p + ") on an empty index");
            assertFalse(c.seekHigher(p), () -> phase + ": seekHigher(" + p + ") on an empty index");
            assertNotValid(c, phase + ": after seekHigher(" + p + ") on an empty index");
            assertFalse(c.seekLower(p), () -> phase + ": seekLower(" + p + ") on an empty index");
            assertNotValid(c, phase + ": after seekLower(" + p + ") on an empty index");
            for (long q : probes) {
                assertEquals(0, index.rangeCount(p, q), () -> phase + ": rangeCount(" + p + ", " + q + ") of an empty index");
                assertEquals(0, index.rangeVisit(p, q, (k, v) -> fail(phase + ": visited " + k + " in an empty index")),
                        () -> phase + ": rangeVisit(" + p + ", " + q + ") of an empty index");
            }
        }
        LongCursor c = index.cursor();
        assertNotValid(c, phase + ": new cursor() on an empty index");
        assertFalse(c.seekFirst(), () -> phase + ": seekFirst() on an empty index");
        assertNotValid(c, phase + ": after seekFirst() on an empty index");
        assertFalse(c.seekLast(), () -> phase + ": seekLast() on an empty index");
        assertNotValid(c, phase + ": after seekLast() on an empty index");
        assertThrows(NoSuchElementException.class, c::remove, () -> phase + ": cursor remove() on an empty index");
        assertFalse(index.delete(0), () -> phase + ": remove(0) on an empty index");
        assertFalse(index.delete(Long.MIN_VALUE), () -> phase + ": remove(MIN_VALUE) on an empty index");
        assertFalse(index.delete(Long.MAX_VALUE), () -> phase + ": remove(MAX_VALUE) on an empty index");
        assertEquals(0, index.size(), () -> phase + ": size() after failed removes on an empty index");
    }

    /** The four neighbour look-ups at {@code probe} with every {@link #ABSENTS} value. */
    public static void assertNeighbours(LongIndex index, NavigableMap<Long, Long> expected, long probe, String phase) {
        for (long absent : ABSENTS) {
            assertNeighbours(index, expected, probe, absent, phase);
        }
    }

    /** The four neighbour look-ups, get and containsKey at {@code probe} with one {@code absent} value. */
    public static void assertNeighbours(LongIndex index, NavigableMap<Long, Long> expected, long probe, long absent,
            String phase) {
        long want = or(expected.ceilingKey(probe), absent);
        long got = index.ceilingKey(probe, absent);
        if (want != got) {
            fail(phase + ": ceilingKey(" + probe + ", " + absent + ") expected " + want + " but was " + got);
        }
        want = or(expected.floorKey(probe), absent);
        got = index.floorKey(probe, absent);
        if (want != got) {
            fail(phase + ": floorKey(" + probe + ", " + absent + ") expected " + want + " but was " + got);
        }
        want = or(expected.higherKey(probe), absent);
        got = index.higherKey(probe, absent);
        if (want != got) {
            fail(phase + ": higherKey(" + probe + ", " + absent + ") expected " + want + " but was " + got);
        }
        want = or(expected.lowerKey(probe), absent);
        got = index.lowerKey(probe, absent);
        if (want != got) {
            fail(phase + ": lowerKey(" + probe + ", " + absent + ") expected " + want + " but was " + got);
        }
        want = or(expected.get(probe), absent);
        got = index.get(probe, absent);
        if (want != got) {
            fail(phase + ": get(" + probe + ", " + absent + ") expected " + want + " but was " + got);
        }
        if (expected.containsKey(probe) != index.containsKey(probe)) {
            fail(phase + ": containsKey(" + probe + ") expected " + expected.containsKey(probe));
        }
    }

    /** Every seek method and {@code cursor(probe)} at {@code probe}, one step either way from where they land. */
    public static void assertSeeks(LongIndex index, NavigableMap<Long, Long> expected, long probe, String phase) {
        LongCursor c = index.cursor();
        assertCursorAt(c, c.seekCeiling(probe), expected.ceilingEntry(probe), expected, phase + ": seekCeiling(" + probe + ")");
        assertCursorAt(c, c.seekFloor(probe), expected.floorEntry(probe), expected, phase + ": seekFloor(" + probe + ")");
        assertCursorAt(c, c.seekHigher(probe), expected.higherEntry(probe), expected, phase + ": seekHigher(" + probe + ")");
        assertCursorAt(c, c.seekLower(probe), expected.lowerEntry(probe), expected, phase + ": seekLower(" + probe + ")");
        LongCursor at = index.cursor(probe);
        Map.Entry<Long, Long> e = expected.ceilingEntry(probe);
        assertCursorAt(at, at.isValid(), e, expected, phase + ": cursor(" + probe + ")");
    }

    /**
     * The cursor (just positioned, the positioning having returned {@code ok}) is on {@code e}, or
     * not valid if {@code e} is null; if it is valid, one next() and, from a fresh seek, one previous()
     * land on the expected neighbours.
     */
    static void assertCursorAt(LongCursor c, boolean ok, Map.Entry<Long, Long> e, NavigableMap<Long, Long> expected,
            String phase) {
        if (e == null) {
            if (ok) {
                fail(phase + ": expected no entry but the cursor is valid at " + c.key());
            }
            assertNotValid(c, phase);
            return;
        }
        if (!ok) {
            fail(phase + ": expected the cursor at " + e.getKey() + " but it returned false");
        }
        assertTrue(c.isValid(), () -> phase + ": isValid() after a seek that returned true");
        if (c.key() != e.getKey() || c.value() != e.getValue()) {
            fail(phase + ": expected the cursor at " + e.getKey() + "=" + e.getValue() + " but it is at " + c.key() + "="
                    + c.value());
        }
        long k = e.getKey();
        Map.Entry<Long, Long> after = expected.higherEntry(k);
        boolean moved = c.next();
        if (after == null ? moved : !moved || c.key() != after.getKey() || c.value() != after.getValue()) {
            fail(phase + ": next() from " + k + " expected " + (after == null ? "no entry" : after) + " but "
                    + (moved ? "is at " + c.key() + "=" + c.value() : "returned false"));
        }
        if (!c.seekCeiling(k) || c.key() != k) {
            fail(phase + ": seekCeiling(" + k + ") did not land on the key " + k);
        }
        Map.Entry<Long, Long> before = expected.lowerEntry(k);
        moved = c.previous();
        if (before == null ? moved : !moved || c.key() != before.getKey() || c.value() != before.getValue()) {
            fail(phase + ": previous() from " + k + " expected " + (before == null ? "no entry" : before) + " but "
                    + (moved ? "is at " + c.key() + "=" + c.value() : "returned false"));
        }
    }

    /** rangeCount and rangeVisit over {@code [from, to)}. */
    public static void assertRange(LongIndex index, NavigableMap<Long, Long> expected, long from, long to, String phase) {
        long want = from >= to ? 0 : expected.subMap(from, true, to, false).size();
        long got = index.rangeCount(from, to);
        if (want != got) {
            fail(phase + ": rangeCount(" + from + ", " + to + ") expected " + want + " but was " + got);
        }
        assertRangeVisit(index, expected, from, to, phase);
    }

    /** rangeVisit over {@code [from, to)}: the entries, their order and the count returned. */
    public static void assertRangeVisit(LongIndex index, NavigableMap<Long, Long> expected, long from, long to,
            String phase) {
        Visits visits = new Visits();
        long returned = index.rangeVisit(from, to, visits);
        String what = phase + ": rangeVisit(" + from + ", " + to + ")";
        int i = 0;
        if (from < to) {
            for (Map.Entry<Long, Long> e : expected.subMap(from, true, to, false).entrySet()) {
                if (i >= visits.n) {
                    fail(what + " visited " + visits.n + " entries but the range holds " + (i + 1) + " or more; missed "
                            + e.getKey());
                }
                if (visits.keys[i] != e.getKey() || visits.values[i] != e.getValue()) {
                    fail(what + " visit #" + i + " expected " + e.getKey() + "=" + e.getValue() + " but was "
                            + visits.keys[i] + "=" + visits.values[i]);
                }
                i++;
            }
        }
        if (visits.n != i) {
            fail(what + " visited " + visits.n + " entries, expected " + i + "; visit #" + i + " was " + visits.keys[i]);
        }
        if (returned != i) {
            fail(what + " returned " + returned + " but visited " + i + " entries");
        }
    }

    /** Keys and values seen by a visit, in order. */
    static final class Visits implements LongEntryVisitor {
        long[] keys = new long[16];
        long[] values = new long[16];
        int n;

        @Override
        public boolean visit(long key, long value) {
            if (n == keys.length) {
                keys = Arrays.copyOf(keys, n * 2);
                values = Arrays.copyOf(values, n * 2);
            }
            keys[n] = key;
            values[n++] = value;
            return true;
        }
    }

    /**
     * Probes for look-ups: every key and its two neighbours (or, for large indexes, {@code max}
     * of them picked at random) plus the extremes, -1, 0 and 1.
     */
    public static long[] probes(NavigableMap<Long, Long> expected, int max, long seed) {
        max = TestSubjects.scaled(max, 50);   // a device structure's kit samples fewer keys
        long[] keys = expected.keySet().stream().mapToLong(Long::longValue).toArray();
        if (keys.length > max) {
            SplittableRandom random = new SplittableRandom(seed);
            long[] sample = new long[max];
            for (int i = 0; i < max; i++) {
                sample[i] = keys[random.nextInt(keys.length)];
            }
            keys = sample;
        }
        long[] probes = new long[keys.length * 3 + 7];
        int n = 0;
        for (long k : keys) {
            probes[n++] = k - 1;
            probes[n++] = k;
            probes[n++] = k + 1;
        }
        for (long p : new long[] {Long.MIN_VALUE, Long.MIN_VALUE + 1, -1, 0, 1, Long.MAX_VALUE - 1, Long.MAX_VALUE}) {
            probes[n++] = p;
        }
        return probes;
    }

    /** Neighbours (one absent value each, cycling), seeks and one short range at every probe. */
    public static void assertLookups(LongIndex index, NavigableMap<Long, Long> expected, long[] probes, String phase) {
        int i = 0;
        for (long p : probes) {
            assertNeighbours(index, expected, p, ABSENTS[i++ % ABSENTS.length], phase);
            assertSeeks(index, expected, p, phase);
        }
        long[] sorted = probes.clone();
        Arrays.sort(sorted);
        for (int j = 0; j < sorted.length; j += 3) {
            long from = sorted[j];
            long to = sorted[Math.min(sorted.length - 1, j + 1 + j % 13)];
            assertRange(index, expected, from, to, phase);
            if (j % 5 == 0) {
                assertRange(index, expected, to, from, phase + " (inverted range)");
            }
        }
    }

    private static long or(Long k, long absent) {
        return k == null ? absent : k;
    }
}
