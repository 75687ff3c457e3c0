package org.bforest;

import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.collect.testing.NavigableMapTestSuiteBuilder;
import com.google.common.collect.testing.features.CollectionFeature;
import com.google.common.collect.testing.features.Feature;
import com.google.common.collect.testing.features.CollectionSize;
import com.google.common.collect.testing.features.MapFeature;
import java.util.AbstractMap.SimpleImmutableEntry;
import java.util.ArrayList;
import java.util.Collections;
import java.util.ConcurrentModificationException;
import java.util.Enumeration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import junit.framework.TestCase;
import junit.framework.TestFailure;
import junit.framework.TestResult;
import junit.framework.TestSuite;
import org.bforest.testing.Capability;
import org.bforest.testing.Implementations;
import org.bforest.testing.Implementations.Impl;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@link LongIndex#asNavigableMap()} view of every implementation in
 * {@link Implementations#all()}: Guava testlib's whole {@code NavigableMap} suite (with its derived
 * sub-map, descending, key-set, values and entry-set suites), then targeted tests for what the
 * suite does not reach: the extreme keys as bounds, liveness under changes made through the
 * index, iterator removal on descending views, sizes by {@code rangeCount}, and a randomised
 * comparison against {@link TreeMap} over chains of derived views.
 */
class NavigableMapViewTest {

    static List<Impl> impls() {
        return Implementations.all();
    }

    // ---- Guava testlib ---------------------------------------------------------------------

    /**
     * Guava's JUnit 3 suites, run as JUnit 5 dynamic tests so that they run on the Jupiter
     * engine, are counted one by one in the reports and are named by implementation. The
     * features are those of Guava's own {@code TreeMap, natural} suite except
     * {@code ALLOWS_NULL_VALUES} (the view rejects null values) and {@code SERIALIZABLE}; nothing
     * is suppressed. About 32,000 tests per implementation; the maps are small, so bulk-loaded
     * and multi-level structures are left to {@link #largeViewsAgreeWithTreeMap}.
     */
    @TestFactory
    Stream<DynamicNode> guavaNavigableMapSuite() {
        List<DynamicNode> nodes = new ArrayList<>();
        for (Impl impl : impls()) {
            List<Feature<?>> features = new ArrayList<>(List.of(
                    MapFeature.GENERAL_PURPOSE,
                    CollectionFeature.SUPPORTS_ITERATOR_REMOVE,
                    CollectionFeature.KNOWN_ORDER,
                    CollectionSize.ANY));
            if (impl.has(Capability.FAIL_FAST_CURSORS)) {
                features.add(MapFeature.FAILS_FAST_ON_CONCURRENT_MODIFICATION);
            }
            TestSuite suite = NavigableMapTestSuiteBuilder
                    .using(new LongViewMapGenerator(impl))
                    .named(impl.name() + " view")
                    .withFeatures(features)
                    .createTestSuite();
            nodes.add(dynamic(suite, new int[1]));
        }
        return nodes.stream();
    }

    /**
     * One test in {@code every} of Guava's, for a scaled kit ({@code -Dbforest.kit.scale} below 1:
     * device structures, whose every call is a round trip); all of them otherwise.
     */
    private static final int EVERY = (int) Math.max(1, Math.round(1 / Math.min(1, org.bforest.contract.TestSubjects.KIT_SCALE)));

    private static DynamicNode dynamic(junit.framework.Test test, int[] seen) {
        if (test instanceof TestSuite suite) {
            List<DynamicNode> children = new ArrayList<>(suite.testCount());
            for (int i = 0; i < suite.testCount(); i++) {
                junit.framework.Test t = suite.testAt(i);
                if (t instanceof TestSuite || seen[0]++ % EVERY == 0) {
                    children.add(dynamic(t, seen));
                }
            }
            return DynamicContainer.dynamicContainer(String.valueOf(suite.getName()), children);
        }
        String name = test instanceof TestCase tc ? tc.getName() : test.toString();
        return DynamicTest.dynamicTest(name, () -> runJUnit3(test));
    }

    private static void runJUnit3(junit.framework.Test test) throws Throwable {
        TestResult result = new TestResult();
        test.run(result);
        for (Enumeration<TestFailure> e : List.of(result.errors(), result.failures())) {
            if (e.hasMoreElements()) {
                throw e.nextElement().thrownException();
            }
        }
        if (result.runCount() == 0) {
            throw new AssertionError("JUnit 3 test did not run: " + test);
        }
    }

    // ---- helpers ---------------------------------------------------------------------------

    private static final long MIN = Long.MIN_VALUE;
    private static final long MAX = Long.MAX_VALUE;
    private static final long[] EDGE_KEYS = {MIN, MIN + 1, MIN + 2, -2, -1, 0, 1, 2, MAX - 2, MAX - 1, MAX};

    /** An index of {@code keys}, each mapped to {@link #value}. */
    private static LongIndex indexOf(Impl impl, long... keys) {
        LongIndex index = impl.empty().get();
        for (long k : keys) {
            index.put(k, value(k));
        }
        return index;
    }

    private static long value(long key) {
        return key * 3 + 1;
    }

    private static TreeMap<Long, Long> modelOf(long... keys) {
        TreeMap<Long, Long> m = new TreeMap<>();
        for (long k : keys) {
            m.put(k, value(k));
        }
        return m;
    }

    /** Asserts that the two maps agree on contents, order, size and emptiness, both ways. */
    private static void assertSameMap(NavigableMap<Long, Long> expected, NavigableMap<Long, Long> actual) {
        assertEquals(new ArrayList<>(expected.entrySet()), new ArrayList<>(actual.entrySet()));
        assertEquals(new ArrayList<>(expected.keySet()), new ArrayList<>(actual.keySet()));
        assertEquals(new ArrayList<>(expected.values()), new ArrayList<>(actual.values()));
        assertEquals(new ArrayList<>(expected.descendingMap().entrySet()),
                new ArrayList<>(actual.descendingMap().entrySet()));
        assertEquals(expected.size(), actual.size());
        assertEquals(expected.isEmpty(), actual.isEmpty());
        assertEquals(expected, actual);
        assertEquals(actual, expected);
        assertEquals(expected.hashCode(), actual.hashCode());
        assertEquals(expected.toString(), actual.toString());
        assertEquals(expected.firstEntry(), actual.firstEntry());
        assertEquals(expected.lastEntry(), actual.lastEntry());
    }

    /** The result of a call, or the class of what it threw, for comparing with the model. */
    private static Object outcome(Supplier<?> call) {
        try {
            Object r = call.get();
            if (r instanceof Map.Entry<?, ?> e) {
                return new SimpleImmutableEntry<>(e.getKey(), e.getValue());   // compare as plain entries
            }
            return r;
        } catch (RuntimeException e) {
            return e.getClass();
        }
    }

    // ---- extreme keys ----------------------------------------------------------------------

    @ParameterizedTest
    @MethodSource("impls")
    void extremeKeyBounds(Impl impl) {
        LongIndex index = indexOf(impl, EDGE_KEYS);
        NavigableMap<Long, Long> view = index.asNavigableMap();
        TreeMap<Long, Long> model = modelOf(EDGE_KEYS);
        assertSameMap(model, view);

        assertEquals(11, view.headMap(MAX, true).size());
        assertEquals(10, view.headMap(MAX, false).size());
        assertEquals(10, view.tailMap(MIN, false).size());
        assertEquals(11, view.tailMap(MIN, true).size());
        assertEquals(MAX, view.headMap(MAX, true).lastKey());
        assertEquals(MAX - 1, view.headMap(MAX, false).lastKey());
        assertEquals(MIN + 1, view.tailMap(MIN, false).firstKey());
        assertEquals(MIN, view.tailMap(MIN, true).firstKey());
        assertEquals(5, view.subMap(1L, true, MAX, true).size());
        assertEquals(List.of(1L, 2L, MAX - 2, MAX - 1, MAX), List.copyOf(view.subMap(0L, false, MAX, true).keySet()));
        assertEquals(List.of(MAX, MAX - 1, MAX - 2, 2L), List.copyOf(view.subMap(1L, false, MAX, true).descendingKeySet()));
        assertEquals(9, view.subMap(MIN, false, MAX, false).size());
        assertEquals(11, view.subMap(MIN, true, MAX, true).size());

        // Exclusive bounds at the extremes: empty views whose own bounds still work.
        NavigableMap<Long, Long> none = view.tailMap(MAX, false);
        assertTrue(none.isEmpty());
        assertEquals(0, none.size());
        assertNull(none.firstEntry());
        assertNull(none.ceilingKey(MIN));
        assertNull(none.floorKey(MAX));
        assertThrows(NoSuchElementException.class, none::firstKey);
        assertThrows(IllegalArgumentException.class, () -> none.put(MAX, 1L));
        assertThrows(IllegalArgumentException.class, () -> none.headMap(MAX, true));
        assertTrue(none.headMap(MAX, false).isEmpty());
        assertFalse(none.keySet().iterator().hasNext());
        assertFalse(none.containsKey(MAX));
        assertNull(none.remove(MAX));
        none.clear();
        assertEquals(11, view.size());
        NavigableMap<Long, Long> none2 = view.headMap(MIN, false);
        assertTrue(none2.isEmpty());
        assertThrows(IllegalArgumentException.class, () -> none2.put(MIN, 1L));
        assertTrue(none2.descendingMap().tailMap(MIN, false).isEmpty());
        assertEquals(Map.of(MAX, value(MAX)), view.tailMap(MAX, true));
        assertEquals(Map.of(MIN, value(MIN)), view.headMap(MIN, true));
        assertEquals(1, view.headMap(MIN, true).size());
        assertEquals(1, view.tailMap(MAX, true).size());

        // Navigation at the extremes, both directions.
        assertNull(view.higherKey(MAX));
        assertNull(view.lowerKey(MIN));
        assertEquals(MAX, view.ceilingKey(MAX));
        assertEquals(MIN, view.floorKey(MIN));
        assertEquals(MIN, view.ceilingKey(MIN));
        assertEquals(MAX, view.floorKey(MAX));
        assertEquals(MAX - 1, view.lowerKey(MAX));
        assertEquals(MIN + 1, view.higherKey(MIN));
        NavigableMap<Long, Long> desc = view.descendingMap();
        assertNull(desc.lowerKey(MAX));
        assertNull(desc.higherKey(MIN));
        assertEquals(MAX, desc.firstKey());
        assertEquals(MIN, desc.lastKey());
        assertEquals(Map.entry(MAX - 1, value(MAX - 1)), desc.higherEntry(MAX));
        assertEquals(Map.entry(MAX, value(MAX)), desc.ceilingEntry(MAX));
        assertEquals(Map.entry(MIN, value(MIN)), desc.floorEntry(MIN));
        assertNull(desc.lowerEntry(MAX));
        assertEquals(MAX, desc.headMap(MAX, true).firstKey());
        assertTrue(desc.headMap(MAX, false).isEmpty());
        assertEquals(List.of(MIN + 1, MIN), List.copyOf(desc.tailMap(MIN + 1, true).keySet()));
        assertEquals(1, desc.tailMap(MIN, true).size());
        assertEquals(0, desc.tailMap(MIN, false).size());
        assertEquals(MAX, view.descendingMap().subMap(MAX, true, MAX, true).firstKey());

        // Values at the extremes, and the value the view probes with, round-trip exactly.
        for (long v : new long[] {MIN, MAX, -1, 0, ExactUpdates.PROBE}) {
            for (long k : new long[] {MIN, MAX, 0}) {
                Long before = view.get(k);
                assertEquals(before, view.put(k, v));
                assertEquals(v, view.get(k));
                assertEquals(Map.entry(k, v), view.ceilingEntry(k));
                assertEquals(Map.entry(k, v), view.descendingMap().ceilingEntry(k));
            }
        }
        assertEquals(ExactUpdates.PROBE, view.remove(MAX));
        assertNull(view.remove(MAX));
        assertNull(view.get(MAX));
        assertFalse(view.containsKey(MAX));
        assertNull(view.put(MAX, ExactUpdates.PROBE));
        assertEquals(ExactUpdates.PROBE, view.pollLastEntry().getValue());
        assertEquals(MIN, view.pollFirstEntry().getKey());
        assertEquals(MAX - 1, view.headMap(MAX, true).lastKey());
        assertEquals(MIN + 1, view.tailMap(MIN, false).firstKey());
        assertEquals(9, view.size());
    }

    @ParameterizedTest
    @MethodSource("impls")
    void subMapArgumentChecksFollowTreeMap(Impl impl) {
        NavigableMap<Long, Long> view = indexOf(impl, EDGE_KEYS).asNavigableMap();
        NavigableMap<Long, Long> model = modelOf(EDGE_KEYS);
        List<Function<NavigableMap<Long, Long>, Object>> calls = List.of(
                m -> m.subMap(5L, 4L),
                m -> m.subMap(5L, false, 5L, false).size(),
                m -> m.descendingMap().subMap(4L, 5L),
                m -> m.descendingMap().subMap(5L, 4L).size(),
                m -> m.subMap(0L, false, 2L, false).headMap(0L, true),
                m -> m.subMap(0L, false, 2L, false).headMap(0L, false).size(),
                m -> m.subMap(0L, false, 2L, false).tailMap(2L, true),
                m -> m.subMap(0L, false, 2L, false).tailMap(2L, false).size(),
                m -> m.subMap(0L, false, 2L, false).descendingMap().headMap(2L, false).size(),
                m -> m.subMap(0L, false, 2L, false).descendingMap().headMap(2L, true),
                m -> m.subMap(0L, false, 2L, false).descendingMap().subMap(2L, false, 0L, false).size(),
                m -> m.subMap(0L, false, 2L, false).descendingMap().subMap(2L, true, 0L, false),
                m -> m.subMap(0L, false, 2L, false).put(0L, 1L),
                m -> m.subMap(0L, false, 2L, false).put(2L, 1L),
                m -> m.subMap(0L, false, 2L, false).put(1L, 1L),
                m -> m.headMap(0L).put(0L, 1L),
                m -> m.tailMap(0L).put(-1L, 1L),
                m -> m.subMap(null, 0L),
                m -> m.headMap(null),
                m -> m.tailMap(null, false),
                m -> m.put(null, 1L),
                m -> m.get(null),
                m -> m.containsKey(null),
                m -> m.remove(null),
                m -> m.ceilingKey(null),
                m -> m.higherEntry(null),
                m -> m.keySet().remove(null),
                m -> m.keySet().contains("x"),
                m -> m.values().contains(null),
                m -> m.values().contains("x"),
                m -> m.containsValue(null),
                m -> m.entrySet().contains(Map.entry(1L, "x")),
                m -> m.entrySet().contains("x"),
                m -> m.comparator(),
                m -> m.descendingMap().comparator().compare(1L, 2L),
                m -> m.descendingMap().descendingMap().comparator(),
                m -> m.keySet().add(3L),
                m -> m.firstEntry().setValue(3L));
        for (int i = 0; i < calls.size(); i++) {
            Function<NavigableMap<Long, Long>, Object> call = calls.get(i);
            assertEquals(outcome(() -> call.apply(model)), outcome(() -> call.apply(view)), "call #" + i);
        }
        assertSameMap(model, view);
        // The one deliberate difference from TreeMap: null values are rejected.
        assertThrows(NullPointerException.class, () -> view.put(1L, null));
        assertThrows(NullPointerException.class, () -> view.subMap(0L, 5L).put(1L, null));
        assertThrows(NullPointerException.class, () -> view.entrySet().iterator().next().setValue(null));
        assertSameMap(model, view);
    }

    // ---- liveness --------------------------------------------------------------------------

    @ParameterizedTest
    @MethodSource("impls")
    void viewsStayLiveUnderIndexChanges(Impl impl) {
        LongIndex index = impl.empty().get();
        NavigableMap<Long, Long> view = index.asNavigableMap();
        NavigableMap<Long, Long> sub = view.subMap(-10L, true, 10L, false);
        NavigableMap<Long, Long> head = view.headMap(MAX, true).descendingMap();
        NavigableSet<Long> keys = sub.navigableKeySet();
        var values = sub.values();
        var entries = view.entrySet();
        assertTrue(view.isEmpty());
        assertTrue(sub.isEmpty());

        TreeMap<Long, Long> model = new TreeMap<>();
        SplittableRandom rnd = new SplittableRandom(7);
        for (int i = 0; i < 2000; i++) {
            long k = rnd.nextInt(8) == 0 ? EDGE_KEYS[rnd.nextInt(EDGE_KEYS.length)] : rnd.nextLong(-20, 20);
            if (rnd.nextInt(3) == 0) {
                assertEquals(model.remove(k) != null, index.delete(k));
            } else {
                long v = rnd.nextLong();
                assertEquals(model.put(k, v) == null, index.upsert(k, v));
            }
            if (i % 50 == 0) {
                assertSameMap(model, view);
                assertSameMap(model.subMap(-10L, true, 10L, false), sub);
                assertSameMap(model.headMap(MAX, true).descendingMap(), head);
                assertEquals(List.copyOf(model.subMap(-10L, 10L).keySet()), List.copyOf(keys));
                assertEquals(List.copyOf(model.subMap(-10L, 10L).values()), List.copyOf(values));
                assertEquals(model.entrySet(), entries);
            }
        }
        index.clear();
        assertTrue(view.isEmpty());
        assertTrue(sub.isEmpty());
        assertEquals(0, keys.size());
        assertFalse(entries.iterator().hasNext());
        index.put(3, 4);
        assertEquals(Map.of(3L, 4L), sub);
        assertEquals(4L, head.get(3L));
    }

    @ParameterizedTest
    @MethodSource("impls")
    void iteratorsFailFast(Impl impl) {
        assumeTrue(impl.has(Capability.FAIL_FAST_CURSORS), impl + "'s cursors are weakly consistent, not fail-fast");
        LongIndex index = indexOf(impl, 1, 2, 3, 4, 5);
        NavigableMap<Long, Long> view = index.asNavigableMap();

        Iterator<Long> it = view.descendingMap().keySet().iterator();
        assertEquals(5L, it.next());
        index.put(6, 0);                                   // new key through the index
        assertThrows(ConcurrentModificationException.class, it::next);

        Iterator<Map.Entry<Long, Long>> entries = view.subMap(1L, 5L).entrySet().iterator();
        entries.next();
        index.put(2, 99);                                  // value replacement is not structural
        assertEquals(Map.entry(2L, 99L), entries.next());
        index.remove(5);
        assertThrows(ConcurrentModificationException.class, entries::remove);

        Iterator<Long> values = view.values().iterator();
        view.pollFirstEntry();
        assertThrows(ConcurrentModificationException.class, values::next);

        Iterator<Long> last = view.subMap(4L, true, 5L, true).keySet().iterator();
        assertEquals(4L, last.next());
        assertFalse(last.hasNext());
        index.remove(2);
        assertThrows(ConcurrentModificationException.class, last::remove);  // stale although at the end
        assertThrows(NoSuchElementException.class, last::next);

        Iterator<Long> own = view.keySet().iterator();
        own.next();
        own.remove();
        assertThrows(IllegalStateException.class, own::remove);
        assertEquals(List.of(4L, 6L), List.copyOf(view.keySet()));
        assertEquals(4L, own.next());                      // own removals keep it usable
        view.put(100L, 1L);
        assertThrows(ConcurrentModificationException.class, own::next);
    }

    // ---- iterator removal, descending ------------------------------------------------------

    @ParameterizedTest
    @MethodSource("impls")
    void iteratorRemoveOnDescendingViews(Impl impl) {
        List<Function<NavigableMap<Long, Long>, Iterator<?>>> iterators = List.of(
                m -> m.descendingMap().entrySet().iterator(),
                m -> m.descendingMap().keySet().iterator(),
                m -> m.descendingMap().values().iterator(),
                m -> m.descendingKeySet().iterator(),
                m -> m.navigableKeySet().descendingIterator(),
                m -> m.descendingMap().navigableKeySet().descendingIterator(),
                m -> m.subMap(MIN + 1, true, MAX, true).descendingMap().entrySet().iterator(),
                m -> m.headMap(MAX, true).descendingKeySet().iterator(),
                m -> m.tailMap(MIN, false).descendingMap().values().iterator(),
                m -> m.descendingMap().subMap(MAX - 1, false, -1L, true).keySet().iterator(),
                m -> m.descendingMap().headMap(0L, true).descendingMap().descendingMap().entrySet().iterator());
        for (int pattern = 0; pattern < 3; pattern++) {
            for (Function<NavigableMap<Long, Long>, Iterator<?>> make : iterators) {
                TreeMap<Long, Long> model = modelOf(EDGE_KEYS);
                LongIndex index = indexOf(impl, EDGE_KEYS);
                NavigableMap<Long, Long> view = index.asNavigableMap();
                Iterator<?> expected = make.apply(model);
                Iterator<?> actual = make.apply(view);
                int i = 0;
                while (expected.hasNext()) {
                    assertTrue(actual.hasNext());
                    assertEquals(expected.next(), actual.next());
                    boolean remove = switch (pattern) {
                        case 0 -> true;
                        case 1 -> i % 2 == 0;
                        default -> i % 3 == 2;
                    };
                    if (remove) {
                        expected.remove();
                        actual.remove();
                        assertThrows(IllegalStateException.class, actual::remove);
                    }
                    i++;
                }
                assertFalse(actual.hasNext());
                assertThrows(NoSuchElementException.class, actual::next);
                assertSameMap(model, view);
                assertEquals(model.size(), index.size());
            }
        }
    }

    @ParameterizedTest
    @MethodSource("impls")
    void entrySetValueWritesThrough(Impl impl) {
        LongIndex index = indexOf(impl, EDGE_KEYS);
        NavigableMap<Long, Long> view = index.asNavigableMap();
        for (Map.Entry<Long, Long> e : view.subMap(MIN, false, MAX, true).descendingMap().entrySet()) {
            assertEquals(value(e.getKey()), e.setValue(-e.getKey()));
            assertEquals(-e.getKey(), e.getValue());
        }
        assertEquals(value(MIN), index.get(MIN, 0));
        for (long k : EDGE_KEYS) {
            if (k != MIN) {
                assertEquals(-k, index.get(k, 0));
            }
        }
        Map.Entry<Long, Long> first = view.entrySet().iterator().next();
        assertThrows(NullPointerException.class, () -> first.setValue(null));
        view.remove(MIN);
        assertEquals(value(MIN), first.setValue(5L));    // removed meanwhile: not re-inserted
        assertFalse(index.containsKey(MIN));
        assertThrows(UnsupportedOperationException.class, () -> view.firstEntry().setValue(1L));
        assertThrows(UnsupportedOperationException.class, () -> view.ceilingEntry(0L).setValue(1L));
        assertThrows(UnsupportedOperationException.class, () -> view.pollLastEntry().setValue(1L));

        view.descendingMap().replaceAll((k, v) -> k + 1);
        assertEquals(MAX - 1, view.get(MAX - 2));
        assertEquals(MAX, view.get(MAX - 1));
        assertThrows(NullPointerException.class, () -> view.replaceAll((k, v) -> null));
    }

    // ---- size by rangeCount ----------------------------------------------------------------

    @ParameterizedTest
    @MethodSource("impls")
    void sizeOfBoundedViewsUsesRangeCount(Impl impl) {
        CountingIndex index = new CountingIndex(indexOf(impl, EDGE_KEYS));
        NavigableMap<Long, Long> view = index.asNavigableMap();
        record Case(NavigableMap<Long, Long> map, int size) { }
        List<Case> cases = List.of(
                new Case(view.subMap(-2L, true, 2L, true), 5),
                new Case(view.subMap(-2L, false, 2L, false), 3),
                new Case(view.headMap(MAX, true), 11),
                new Case(view.headMap(MAX, false), 10),
                new Case(view.tailMap(MIN, false), 10),
                new Case(view.tailMap(MAX - 1, true), 2),
                new Case(view.descendingMap().headMap(0L, false), 5),
                new Case(view.descendingMap().subMap(MAX, true, MIN, true), 11),
                new Case(view.subMap(0L, false, 1L, false), 0),
                new Case(view.tailMap(MAX, false), 0));
        for (Case c : cases) {
            index.rangeCounts = 0;
            index.cursors = 0;
            assertEquals(c.size(), c.map().size(), () -> c.map().toString());
            assertEquals(0, index.cursors, "size() must not iterate");
            assertTrue(index.rangeCounts <= 1);
            assertEquals(c.size(), c.map().keySet().size());
            assertEquals(c.size(), c.map().entrySet().size());
            assertEquals(c.size(), c.map().values().size());
        }
        index.rangeCounts = 0;
        assertEquals(5, view.subMap(-2L, true, 2L, true).size());
        assertEquals(1, index.rangeCounts);
        assertEquals(11, view.size());                         // the whole map asks size()
        assertEquals(1, index.rangeCounts);
    }

    /** The view's put and remove cost one descent each: no look-up before the change. */
    @ParameterizedTest
    @MethodSource("impls")
    void putAndRemoveThroughTheViewDescendOnce(Impl impl) {
        CountingIndex index = new CountingIndex(indexOf(impl, EDGE_KEYS));
        NavigableMap<Long, Long> view = index.asNavigableMap();
        index.defaultReturnValue(-5);   // a default that is also a real value below must not confuse it
        long[][] cases = {{12345, -5}, {12345, 7}, {MAX, -5}, {MIN, 3}};
        for (long[] c : cases) {
            long k = c[0];
            boolean had = index.containsKey(k);
            Long expected = had ? index.get(k, 0) : null;
            index.descents = 0;
            assertEquals(expected, view.put(k, c[1]), "put(" + k + ")");
            assertEquals(1, index.descents, "view.put must descend once");
        }
        for (long k : new long[] {12345, 12345, MAX, 99}) {
            boolean had = index.containsKey(k);
            Long expected = had ? index.get(k, 0) : null;
            index.descents = 0;
            assertEquals(expected, view.remove(k), "remove(" + k + ")");
            assertEquals(1, index.descents, "view.remove must descend once");
        }
    }

    // ---- differential ----------------------------------------------------------------------

    /**
     * Random chains of derived views (sub, head, tail, descending, with both bound flavours and
     * the extreme keys) and random operations on them, against the same on a {@link TreeMap}:
     * every result, every exception type, and the whole map after every step.
     */
    @ParameterizedTest
    @MethodSource("impls")
    @SuppressWarnings("unchecked")
    void randomViewsAgreeWithTreeMap(Impl impl) {
        SplittableRandom rnd = new SplittableRandom(20240601);
        for (int round = 0; round < 300; round++) {
            TreeMap<Long, Long> modelRoot = new TreeMap<>();
            for (int i = 0; i < 12; i++) {
                modelRoot.put(randomKey(rnd), rnd.nextLong(-3, 3));
            }
            LongIndex index = round % 2 == 0 ? bulkLoad(impl, modelRoot) : impl.empty().get();
            modelRoot.forEach(index::put);
            NavigableMap<Long, Long> model = modelRoot;
            NavigableMap<Long, Long> view = index.asNavigableMap();
            int depth = rnd.nextInt(4);
            for (int d = 0; d < depth; d++) {
                long a = randomKey(rnd);
                long b = randomKey(rnd);
                boolean ai = rnd.nextBoolean();
                boolean bi = rnd.nextBoolean();
                Function<NavigableMap<Long, Long>, NavigableMap<Long, Long>> derive = switch (rnd.nextInt(7)) {
                    case 0 -> NavigableMap::descendingMap;
                    case 1 -> m -> m.headMap(a, ai);
                    case 2 -> m -> m.tailMap(a, ai);
                    case 3 -> m -> m.subMap(Math.min(a, b), ai, Math.max(a, b), bi);
                    case 4 -> m -> m.subMap(a, ai, b, bi);
                    case 5 -> m -> (NavigableMap<Long, Long>) m.headMap(a);
                    default -> m -> (NavigableMap<Long, Long>) m.tailMap(a);
                };
                final NavigableMap<Long, Long> m = model;
                final NavigableMap<Long, Long> w = view;
                Object expected = outcome(() -> derive.apply(m));
                Object actual = outcome(() -> derive.apply(w));
                if (expected instanceof Class<?>) {
                    assertEquals(expected, actual);
                } else {
                    model = (NavigableMap<Long, Long>) expected;
                    view = (NavigableMap<Long, Long>) actual;
                }
            }
            for (int op = 0; op < 40; op++) {
                long k = randomKey(rnd);
                long v = rnd.nextLong(-3, 3);
                Function<NavigableMap<Long, Long>, Object> call = randomOp(rnd, k, v);
                final NavigableMap<Long, Long> m = model;
                final NavigableMap<Long, Long> w = view;
                assertEquals(outcome(() -> call.apply(m)), outcome(() -> call.apply(w)),
                        "round " + round + " op " + op + " on " + model);
                assertSameMap(model, view);
                assertSameMap(modelRoot, index.asNavigableMap());
            }
        }
    }

    private static LongIndex bulkLoad(Impl impl, TreeMap<Long, Long> contents) {
        long[] keys = contents.keySet().stream().mapToLong(Long::longValue).toArray();
        long[] values = contents.values().stream().mapToLong(Long::longValue).toArray();
        return impl.bulk().apply(keys, values);
    }

    /**
     * Views of a bulk-loaded index large enough to span many leaves of a real tree: sizes,
     * navigation at and next to the bounds, iteration from both ends and removal through
     * iterators, against {@link TreeMap}.
     */
    @ParameterizedTest
    @MethodSource("impls")
    void largeViewsAgreeWithTreeMap(Impl impl) {
        SplittableRandom rnd = new SplittableRandom(99);
        TreeMap<Long, Long> model = new TreeMap<>();
        for (long k : EDGE_KEYS) {
            model.put(k, value(k));
        }
        while (model.size() < 20_000) {
            long k = rnd.nextInt(4) == 0 ? rnd.nextLong() : rnd.nextLong(-50_000, 50_000);
            model.put(k, rnd.nextLong());
        }
        LongIndex index = bulkLoad(impl, model);
        NavigableMap<Long, Long> view = index.asNavigableMap();
        List<Long> keys = List.copyOf(model.keySet());
        for (int round = 0; round < 150; round++) {
            long a = boundKey(rnd, keys);
            long b = boundKey(rnd, keys);
            boolean ai = rnd.nextBoolean();
            boolean bi = rnd.nextBoolean();
            NavigableMap<Long, Long> m = model.subMap(Math.min(a, b), ai, Math.max(a, b), bi);
            NavigableMap<Long, Long> w = view.subMap(Math.min(a, b), ai, Math.max(a, b), bi);
            switch (rnd.nextInt(4)) {
                case 0 -> {
                    m = m.descendingMap();
                    w = w.descendingMap();
                }
                case 1 -> {
                    m = model.headMap(a, ai);
                    w = view.headMap(a, ai);
                }
                case 2 -> {
                    m = model.tailMap(a, ai).descendingMap();
                    w = view.tailMap(a, ai).descendingMap();
                }
                default -> { }
            }
            assertEquals(m.size(), w.size());
            assertEquals(m.isEmpty(), w.isEmpty());
            assertEquals(m.firstEntry(), w.firstEntry());
            assertEquals(m.lastEntry(), w.lastEntry());
            for (int probe = 0; probe < 20; probe++) {
                long k = boundKey(rnd, keys);
                assertEquals(m.ceilingEntry(k), w.ceilingEntry(k));
                assertEquals(m.floorKey(k), w.floorKey(k));
                assertEquals(m.higherEntry(k), w.higherEntry(k));
                assertEquals(m.lowerKey(k), w.lowerKey(k));
                assertEquals(m.get(k), w.get(k));
            }
            assertEquals(take(m.entrySet().iterator(), 300), take(w.entrySet().iterator(), 300));
            assertEquals(take(m.descendingKeySet().iterator(), 300), take(w.descendingKeySet().iterator(), 300));
            if (round % 10 == 0) {
                assertEquals(new ArrayList<>(m.entrySet()), new ArrayList<>(w.entrySet()));
                assertEquals(m.hashCode(), w.hashCode());
            }
            if (round % 3 == 0) {    // remove every 7th entry through iterators, from either end
                Iterator<Long> mi = m.keySet().iterator();
                Iterator<Long> wi = w.keySet().iterator();
                for (int i = 0; mi.hasNext() && i < 2_000; i++) {
                    assertEquals(mi.next(), wi.next());
                    if (i % 7 == 3) {
                        mi.remove();
                        wi.remove();
                    }
                }
                assertEquals(m.size(), w.size());
                keys = List.copyOf(model.keySet());
            }
        }
        assertEquals(model.size(), index.size());
        assertSameMap(model, view);
    }

    /** A key for a bound or probe: a stored key, one next to it, or an extreme. */
    private static long boundKey(SplittableRandom rnd, List<Long> keys) {
        long k = keys.get(rnd.nextInt(keys.size()));
        return switch (rnd.nextInt(6)) {
            case 0 -> k == MIN ? k : k - 1;
            case 1 -> k == MAX ? k : k + 1;
            case 2 -> EDGE_KEYS[rnd.nextInt(EDGE_KEYS.length)];
            default -> k;
        };
    }

    private static <T> List<Object> take(Iterator<T> it, int n) {
        List<Object> out = new ArrayList<>();
        while (it.hasNext() && out.size() < n) {
            T t = it.next();
            out.add(t instanceof Map.Entry<?, ?> e ? new SimpleImmutableEntry<>(e) : t);
        }
        return out;
    }

    private static long randomKey(SplittableRandom rnd) {
        return rnd.nextBoolean() ? EDGE_KEYS[rnd.nextInt(EDGE_KEYS.length)] : rnd.nextLong(-6, 6);
    }

    private static Function<NavigableMap<Long, Long>, Object> randomOp(SplittableRandom rnd, long k, long v) {
        int skip = rnd.nextInt(3);
        return switch (rnd.nextInt(30)) {
            case 0 -> m -> m.get(k);
            case 1 -> m -> m.put(k, v);
            case 2 -> m -> m.remove(k);
            case 3 -> m -> m.containsKey(k);
            case 4 -> m -> m.containsValue(v);
            case 5 -> m -> m.firstKey();
            case 6 -> m -> m.lastKey();
            case 7 -> m -> m.ceilingKey(k);
            case 8 -> m -> m.floorKey(k);
            case 9 -> m -> m.higherKey(k);
            case 10 -> m -> m.lowerKey(k);
            case 11 -> m -> m.ceilingEntry(k);
            case 12 -> m -> m.floorEntry(k);
            case 13 -> m -> m.higherEntry(k);
            case 14 -> m -> m.lowerEntry(k);
            case 15 -> NavigableMap::pollFirstEntry;
            case 16 -> NavigableMap::pollLastEntry;
            case 17 -> m -> m.size();
            case 18 -> m -> {
                m.clear();
                return m.size();
            };
            case 19 -> m -> m.putIfAbsent(k, v);
            case 20 -> m -> m.merge(k, v, (x, y) -> x + y > 2 ? null : x + y);
            case 21 -> m -> m.keySet().remove(k);
            case 22 -> m -> m.entrySet().remove(Map.entry(k, v));
            case 23 -> m -> m.values().remove(v);
            case 24 -> m -> m.navigableKeySet().pollLast();
            case 25 -> m -> m.descendingKeySet().higher(k);
            case 26 -> m -> {
                // remove through the iterator every entry after the first `skip`
                Iterator<Map.Entry<Long, Long>> it = m.entrySet().iterator();
                List<Object> seen = new ArrayList<>();
                for (int i = 0; it.hasNext(); i++) {
                    seen.add(new SimpleImmutableEntry<>(it.next()));
                    if (i >= skip) {
                        it.remove();
                    }
                }
                return seen;
            };
            case 27 -> m -> {
                m.computeIfPresent(k, (x, y) -> y + 1);
                return m.getOrDefault(k, 77L);
            };
            case 28 -> m -> m.headMap(k, true).size() + 100 * m.tailMap(k, false).size();
            default -> m -> {
                Map<Long, Long> copy = new TreeMap<>(m);
                m.keySet().retainAll(Collections.singleton(k));
                m.putAll(Map.of(k, v));
                return Objects.hash(copy, m.size());
            };
        };
    }

    /** A {@link LongIndex} that counts the calls the view should or should not make. */
    private static final class CountingIndex implements LongIndex {
        private final LongIndex d;
        int rangeCounts;
        int cursors;
        /** Calls that descend for one key: get, containsKey, put, remove. */
        int descents;

        CountingIndex(LongIndex delegate) {
            this.d = delegate;
        }

        @Override public NavigableMap<Long, Long> asNavigableMap() { return LongIndexViews.asNavigableMap(this); }
        @Override public long put(long key, long value) { descents++; return d.put(key, value); }
        @Override public long get(long key, long absent) { descents++; return d.get(key, absent); }
        @Override public boolean containsKey(long key) { descents++; return d.containsKey(key); }
        @Override public long remove(long key) { descents++; return d.remove(key); }
        @Override public boolean put(long key, long value, long[] previous) { descents++; return d.put(key, value, previous); }
        @Override public boolean remove(long key, long[] previous) { descents++; return d.remove(key, previous); }
        @Override public long defaultReturnValue() { return d.defaultReturnValue(); }
        @Override public void defaultReturnValue(long value) { d.defaultReturnValue(value); }
        @Override public long size() { return d.size(); }
        @Override public void clear() { d.clear(); }
        @Override public long ceilingKey(long key, long absent) { return d.ceilingKey(key, absent); }
        @Override public long floorKey(long key, long absent) { return d.floorKey(key, absent); }
        @Override public long higherKey(long key, long absent) { return d.higherKey(key, absent); }
        @Override public long lowerKey(long key, long absent) { return d.lowerKey(key, absent); }
        @Override public long firstKey() { return d.firstKey(); }
        @Override public long lastKey() { return d.lastKey(); }
        @Override public long memoryBytes() { return d.memoryBytes(); }

        @Override
        public LongCursor cursor() {
            cursors++;
            return d.cursor();
        }

        @Override
        public long rangeCount(long from, boolean fromInclusive, long to, boolean toInclusive) {
            rangeCounts++;
            return d.rangeCount(from, fromInclusive, to, toInclusive);
        }

        @Override
        public long rangeVisit(long from, boolean fromInclusive, long to, boolean toInclusive, LongEntryVisitor visitor) {
            return d.rangeVisit(from, fromInclusive, to, toInclusive, visitor);
        }
    }
}
