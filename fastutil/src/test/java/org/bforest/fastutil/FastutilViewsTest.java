package org.bforest.fastutil;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import it.unimi.dsi.fastutil.longs.AbstractLong2LongMap;
import it.unimi.dsi.fastutil.longs.Long2LongMap;
import it.unimi.dsi.fastutil.longs.Long2LongRBTreeMap;
import it.unimi.dsi.fastutil.longs.Long2LongSortedMap;
import it.unimi.dsi.fastutil.longs.Long2LongSortedMaps;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.longs.LongBidirectionalIterator;
import it.unimi.dsi.fastutil.longs.LongList;
import it.unimi.dsi.fastutil.objects.ObjectBidirectionalIterator;
import java.io.ByteArrayOutputStream;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeMap;
import org.bforest.LongIndex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bridge's edge cases on every structure: the empty map, {@link Long#MIN_VALUE} and
 * {@link Long#MAX_VALUE} as keys and as sub-map bounds, the default return value (the index's,
 * shared by every view), {@code SortedMap}'s rules for keys and bounds outside a sub-map,
 * liveness in both directions, fail-fast iterators, {@code addTo}, fastutil's fast iteration and
 * the {@code java.util} forms of {@code toString}, {@code equals} and {@code hashCode}.
 */
class FastutilViewsTest {
    private static final long MIN = Long.MIN_VALUE;
    private static final long MAX = Long.MAX_VALUE;
    private static final long[] EDGE_KEYS = {MIN, MIN + 1, -1, 0, 1, MAX - 1, MAX};

    static List<Structures.Structure> structures() {
        return Structures.all();
    }

    private static LongIndexSortedMap viewOf(Structures.Structure s, long... keys) {
        LongIndexSortedMap map = FastutilViews.asLong2LongSortedMap(s.empty().get());
        for (long k : keys) {
            map.put(k, value(k));
        }
        return map;
    }

    private static long value(long key) {
        return key * 3 + 1;
    }

    private static LongList keys(Long2LongSortedMap m) {
        return new LongArrayList(m.keySet().iterator());
    }

    private static LongList keysBackwards(Long2LongSortedMap m) {
        LongList out = new LongArrayList();
        LongBidirectionalIterator it = m.keySet().iterator(MAX);
        while (it.hasPrevious()) {
            out.add(it.previousLong());
        }
        return out;
    }

    @Test
    void nullIndexIsRejectedByName() {
        NullPointerException e = assertThrows(NullPointerException.class, () -> FastutilViews.asLong2LongSortedMap(null));
        assertEquals("index", e.getMessage());
    }

    @ParameterizedTest
    @MethodSource("structures")
    void emptyMap(Structures.Structure s) {
        LongIndexSortedMap map = viewOf(s);
        assertEquals(0, map.size());
        assertTrue(map.isEmpty());
        assertNull(map.comparator());
        assertThrows(NoSuchElementException.class, map::firstLongKey);
        assertThrows(NoSuchElementException.class, map::lastLongKey);
        assertThrows(NoSuchElementException.class, () -> map.keySet().firstLong());
        assertThrows(NoSuchElementException.class, () -> map.long2LongEntrySet().first());
        assertThrows(NoSuchElementException.class, () -> map.long2LongEntrySet().last());
        assertEquals(0, map.get(5));
        assertEquals(0, map.remove(5));
        assertFalse(map.containsKey(5));
        assertFalse(map.containsValue(0));
        LongBidirectionalIterator it = map.keySet().iterator();
        assertFalse(it.hasNext());
        assertFalse(it.hasPrevious());
        assertThrows(NoSuchElementException.class, it::nextLong);
        assertThrows(NoSuchElementException.class, it::previousLong);
        assertThrows(IllegalStateException.class, it::remove);
        assertFalse(map.keySet().iterator(0).hasPrevious());
        assertEquals("{}", map.toString());
        assertEquals("[]", map.keySet().toString());
        assertEquals(0, map.hashCode());
        assertEquals(map, new HashMap<Long, Long>());
        assertEquals(map, new Long2LongRBTreeMap());
        assertTrue(map.headMap(0).isEmpty());
        assertTrue(map.tailMap(MIN).isEmpty());
        map.clear();
        map.subMap(-5, 5).clear();
        assertTrue(map.isEmpty());
    }

    @ParameterizedTest
    @MethodSource("structures")
    void extremeKeys(Structures.Structure s) {
        LongIndexSortedMap map = viewOf(s, EDGE_KEYS);
        assertEquals(7, map.size());
        assertEquals(MIN, map.firstLongKey());
        assertEquals(MAX, map.lastLongKey());
        assertEquals(value(MIN), map.get(MIN));
        assertEquals(value(MAX), map.get(MAX));
        assertEquals(LongList.of(EDGE_KEYS), keys(map));
        assertEquals(LongList.of(MAX, MAX - 1, 1, 0, -1, MIN + 1, MIN), keysBackwards(map));

        // Sub-maps at the extremes: headMap(to) excludes to, tailMap(from) includes from.
        assertTrue(map.headMap(MIN).isEmpty());
        assertEquals(0, map.headMap(MIN).size());
        assertThrows(NoSuchElementException.class, () -> map.headMap(MIN).firstLongKey());
        assertThrows(NoSuchElementException.class, () -> map.headMap(MIN).lastLongKey());
        assertThrows(IllegalArgumentException.class, () -> map.headMap(MIN).put(MIN, 1));
        assertEquals(0, map.headMap(MIN).get(MIN));
        assertFalse(map.headMap(MIN).containsKey(MIN));
        assertEquals(LongList.of(MIN), keys(map.headMap(MIN + 1)));
        assertEquals(LongList.of(MAX), keys(map.tailMap(MAX)));
        assertEquals(MAX, map.tailMap(MAX).firstLongKey());
        assertEquals(MAX, map.tailMap(MAX).lastLongKey());
        assertEquals(6, map.headMap(MAX).size());
        assertEquals(MAX - 1, map.headMap(MAX).lastLongKey());
        assertEquals(7, map.tailMap(MIN).size());
        assertEquals(6, map.subMap(MIN, MAX).size());
        assertEquals(LongList.of(MIN + 1, -1, 0, 1, MAX - 1), keys(map.subMap(MIN + 1, MAX)));
        assertEquals(LongList.of(MAX - 1, 1, 0, -1, MIN + 1), keysBackwards(map.subMap(MIN + 1, MAX)));
        assertTrue(map.subMap(MAX, MAX).isEmpty());
        assertTrue(map.subMap(MIN, MIN).isEmpty());
        assertThrows(IllegalArgumentException.class, () -> map.subMap(MAX, MAX).put(MAX, 1));

        // Iterators from the extremes: positioned just after the given key.
        LongBidirectionalIterator fromMax = map.keySet().iterator(MAX);
        assertFalse(fromMax.hasNext());
        assertEquals(MAX, fromMax.previousLong());
        assertEquals(MAX, fromMax.nextLong());
        LongBidirectionalIterator fromMin = map.keySet().iterator(MIN);
        assertEquals(MIN + 1, fromMin.nextLong());
        assertEquals(MIN + 1, fromMin.previousLong());
        assertEquals(MIN, fromMin.previousLong());
        assertFalse(fromMin.hasPrevious());
        fromMin.remove();   // removes MIN, the key previous() returned
        assertFalse(map.containsKey(MIN));
        assertFalse(fromMin.hasPrevious());
        assertEquals(MIN + 1, fromMin.nextLong());
        assertEquals(MIN + 1, map.firstLongKey());

        // Removing MAX through an entry iterator walking down from it.
        ObjectBidirectionalIterator<Long2LongMap.Entry> down =
                map.long2LongEntrySet().iterator(new AbstractLong2LongMap.BasicEntry(MAX, 0));
        Long2LongMap.Entry e = down.previous();
        assertEquals(MAX, e.getLongKey());
        assertEquals(value(MAX), e.setValue(42));
        assertEquals(42, map.get(MAX));
        down.remove();
        assertFalse(down.hasNext());
        assertEquals(MAX - 1, down.previous().getLongKey());
        assertEquals(MAX - 1, map.lastLongKey());
        assertEquals(42, e.setValue(43));   // the key is gone: nothing is put back
        assertFalse(map.containsKey(MAX));

        // Values at the extremes round-trip.
        for (long v : new long[] {MIN, MAX, -1, 0}) {
            map.put(MAX, v);
            map.put(MIN, v);
            assertEquals(v, map.get(MAX));
            assertEquals(v, map.get(MIN));
            assertTrue(map.containsValue(v));
        }
    }

    @ParameterizedTest
    @MethodSource("structures")
    @SuppressWarnings("deprecation") // get(Object): the boxed face on purpose
    void defaultReturnValueIsTheIndexs(Structures.Structure s) {
        LongIndex index = s.empty().get();
        LongIndexSortedMap map = FastutilViews.asLong2LongSortedMap(index);
        Long2LongSortedMap sub = map.subMap(0, 100);
        assertSame(index, map.index());
        assertEquals(0, map.defaultReturnValue());
        index.defaultReturnValue(-7);
        assertEquals(-7, map.defaultReturnValue());
        assertEquals(-7, sub.defaultReturnValue());
        assertEquals(-7, map.get(5));
        assertEquals(-7, sub.get(500));       // outside the sub-map: the default too
        assertEquals(-7, sub.remove(500));
        assertEquals(-7, map.put(5, 50));
        assertEquals(-7, map.remove(6));
        assertEquals(-7, map.putIfAbsent(6, 60));
        assertEquals(60, map.putIfAbsent(6, 61));
        assertEquals(-7, map.replace(7, 70));
        assertFalse(map.containsKey(7));
        assertEquals(-7, map.computeIfPresent(7, (k, v) -> v + 1));
        assertEquals(-7, map.computeIfAbsentNullable(7, k -> null));
        assertEquals(-7, map.compute(7, (k, v) -> null));
        assertEquals(-7, map.addTo(8, 3));
        assertEquals(-4, map.get(8));        // absent: the default plus the increment, as fastutil's addTo
        assertEquals(-4, map.addTo(8, 10));
        assertEquals(6, map.get(8));
        sub.defaultReturnValue(99);             // through a sub-map: the index's, for every view
        assertEquals(99, index.defaultReturnValue());
        assertEquals(99, map.get(1000));
        // A stored value equal to the default: the boxed face still tells it from absence.
        map.put(9, 99);
        assertEquals(99L, map.get((Object) 9L));
        assertNull(map.get((Object) 10L));
        assertEquals(99, map.getOrDefault(10, 99));
        assertEquals(-1, map.getOrDefault(10, -1));
        assertEquals(99, map.getOrDefault(9, -1));
    }

    @ParameterizedTest
    @MethodSource("structures")
    void keysOutsideASubMap(Structures.Structure s) {
        LongIndexSortedMap map = viewOf(s, -20, -10, 0, 10, 20);
        LongIndexSortedMap sub = map.subMap(-10, 10);
        assertEquals(LongList.of(-10, 0), keys(sub));
        assertEquals(2, sub.size());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> sub.put(10, 1));
        assertTrue(e.getMessage().contains("10") && e.getMessage().contains("[-10, 10)"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> sub.put(-11, 1));
        assertThrows(IllegalArgumentException.class, () -> sub.addTo(20, 1));
        assertThrows(IllegalArgumentException.class, () -> sub.putIfAbsent(20, 1));
        assertThrows(IllegalArgumentException.class, () -> sub.computeIfAbsent(30, (java.util.function.LongUnaryOperator) k -> 1));
        assertThrows(IllegalArgumentException.class, () -> sub.merge(30, 1, (a, b) -> a));
        // Look-ups and removals outside answer "absent" and change nothing.
        assertFalse(sub.containsKey(20));
        assertEquals(0, sub.get(20));
        assertEquals(0, sub.remove(20));
        assertFalse(sub.remove(20, value(20)));
        assertFalse(sub.replace(20, value(20), 5));
        assertEquals(0, sub.replace(20, 5));
        assertFalse(sub.keySet().remove(20));
        assertFalse(sub.long2LongEntrySet().remove(new AbstractLong2LongMap.BasicEntry(20, value(20))));
        assertEquals(0, sub.computeIfPresent(20, (k, v) -> 0L));
        assertEquals(0, sub.compute(20, (k, v) -> null));
        assertEquals(LongList.of(-20, -10, 0, 10, 20), keys(map));
        assertEquals(value(20), map.get(20));
        // Sub-maps of a sub-map: TreeMap's rules (a lower bound in [from, to), an upper one in [from, to]).
        assertThrows(IllegalArgumentException.class, () -> map.subMap(5, 4));
        assertThrows(IllegalArgumentException.class, () -> sub.headMap(11));
        assertThrows(IllegalArgumentException.class, () -> sub.tailMap(-11));
        assertThrows(IllegalArgumentException.class, () -> sub.tailMap(10));
        assertThrows(IllegalArgumentException.class, () -> sub.subMap(-11, 0));
        assertThrows(IllegalArgumentException.class, () -> sub.subMap(0, 11));
        assertThrows(IllegalArgumentException.class, () -> sub.keySet().headSet(11));
        assertEquals(LongList.of(-10, 0), keys(sub.headMap(10)));
        assertEquals(LongList.of(0), keys(sub.tailMap(0)));
        assertEquals(LongList.of(-10), keys(sub.subMap(-10, 0)));
        assertTrue(sub.subMap(9, 10).isEmpty());
        // Iterators from keys outside the sub-map stay inside it.
        assertEquals(LongList.of(-10, 0), new LongArrayList(sub.keySet().iterator(-100)));
        assertFalse(sub.keySet().iterator(-100).hasPrevious());
        assertFalse(sub.keySet().iterator(100).hasNext());
        assertEquals(0, sub.keySet().iterator(100).previousLong());
        // clear() of a sub-map removes its keys only.
        sub.clear();
        assertEquals(LongList.of(-20, 10, 20), keys(map));
        assertTrue(sub.isEmpty());
    }

    @ParameterizedTest
    @MethodSource("structures")
    void viewsAreLive(Structures.Structure s) {
        LongIndex index = s.empty().get();
        LongIndexSortedMap map = FastutilViews.asLong2LongSortedMap(index);
        Long2LongSortedMap tail = map.tailMap(100);
        var keySet = tail.keySet();
        var values = tail.values();
        index.put(50, 1);
        index.put(150, 2);
        assertEquals(2, map.size());
        assertEquals(1, tail.size());
        assertTrue(keySet.contains(150));
        assertFalse(keySet.contains(50));
        assertTrue(values.contains(2));
        assertFalse(values.contains(1));
        tail.put(200, 3);
        assertEquals(3, index.get(200, -1));
        keySet.remove(150);
        assertFalse(index.containsKey(150));
        values.rem(3);
        assertFalse(index.containsKey(200));
        assertEquals(1, index.size());
        map.clear();
        assertTrue(index.isEmpty());
    }

    @ParameterizedTest
    @MethodSource("structures")
    void iteratorsFailFastWhereTheIndexsCursorsDo(Structures.Structure s) {
        assumeTrue(s.failFast(), "weakly consistent cursors (the concurrent BS-tree): no fail-fast promise");
        LongIndexSortedMap map = viewOf(s, 1, 2, 3);
        LongBidirectionalIterator it = map.keySet().iterator();
        assertEquals(1, it.nextLong());
        map.index().put(10, 0);                 // a new key through the index
        assertThrows(ConcurrentModificationException.class, it::nextLong);
        ObjectBidirectionalIterator<Long2LongMap.Entry> entries = map.long2LongEntrySet().iterator();
        entries.next();
        map.remove(2);
        assertThrows(ConcurrentModificationException.class, entries::remove);
        // Replacing a value is not a structural change.
        LongBidirectionalIterator values = (LongBidirectionalIterator) map.values().iterator();
        assertEquals(value(1), values.nextLong());
        map.put(3, 33);                         // 2 was removed above: 3 comes next
        assertEquals(33, values.nextLong());
        assertEquals(33, values.previousLong());
    }

    @ParameterizedTest
    @MethodSource("structures")
    void removalWhileWalkingBothWays(Structures.Structure s) {
        LongIndexSortedMap map = viewOf(s);
        for (long k = 0; k < 500; k++) {
            map.put(k, k);
        }
        // Remove every odd key walking up, then every key divisible by 4 walking down.
        LongBidirectionalIterator up = map.keySet().iterator();
        while (up.hasNext()) {
            if ((up.nextLong() & 1) == 1) {
                up.remove();
            }
        }
        assertEquals(250, map.size());
        assertFalse(up.hasNext());
        assertEquals(498, up.previousLong());
        LongBidirectionalIterator down = map.keySet().iterator(MAX);
        while (down.hasPrevious()) {
            if (down.previousLong() % 4 == 0) {
                down.remove();
            }
        }
        assertEquals(125, map.size());
        assertEquals(2, map.firstLongKey());
        assertEquals(498, map.lastLongKey());
        assertEquals(2, down.nextLong());
        for (long k = 0; k < 500; k++) {
            assertEquals(k % 4 == 2, map.containsKey(k), "key " + k);
        }
    }

    @ParameterizedTest
    @MethodSource("structures")
    void fastIterationReusesOneEntry(Structures.Structure s) {
        LongIndexSortedMap map = viewOf(s, 1, 2, 3);
        ObjectBidirectionalIterator<Long2LongMap.Entry> fast = Long2LongSortedMaps.fastIterator(map);
        Long2LongMap.Entry first = fast.next();
        assertEquals(1, first.getLongKey());
        assertSame(first, fast.next());
        assertEquals(2, first.getLongKey());
        first.setValue(20);
        assertEquals(20, map.get(2));
        long[] sum = {0};
        ((Long2LongSortedMap.FastSortedEntrySet) map.long2LongEntrySet()).fastForEach(e -> sum[0] += e.getLongValue());
        assertEquals(value(1) + 20 + value(3), sum[0]);
        ObjectBidirectionalIterator<Long2LongMap.Entry> plain = map.long2LongEntrySet().iterator();
        assertNotSame(plain.next(), plain.next());
    }

    @ParameterizedTest
    @MethodSource("structures")
    @SuppressWarnings("deprecation") // entrySet(): the boxed face on purpose
    void javaUtilFormsAndEquality(Structures.Structure s) {
        LongIndexSortedMap map = viewOf(s, MIN, 0, MAX);
        assertEquals("{-9223372036854775808=-9223372036854775807, 0=1, 9223372036854775807=9223372036854775806}",
                map.toString());
        assertEquals("[-9223372036854775808, 0, 9223372036854775807]", map.keySet().toString());
        assertEquals("[0=1]", map.subMap(-1, 1).long2LongEntrySet().toString());
        TreeMap<Long, Long> tree = new TreeMap<>(Map.of(MIN, value(MIN), 0L, value(0), MAX, value(MAX)));
        assertEquals(tree.toString(), map.toString());
        assertEquals(tree, map);
        assertEquals(map, tree);
        assertEquals(tree.hashCode(), map.hashCode());
        Long2LongRBTreeMap rb = new Long2LongRBTreeMap(tree);
        assertEquals(rb, map);
        assertEquals(map, rb);
        assertEquals(rb.hashCode(), map.hashCode());
        assertEquals(tree.keySet(), map.keySet());
        assertEquals(map.keySet(), tree.keySet());
        assertEquals(tree.entrySet(), map.entrySet());
        assertEquals(tree.headMap(0L), map.headMap(0));
        map.put(0, 2);
        assertNotEquals(tree, map);
        assertNotEquals(map, tree);
    }

    @Test
    void notSerializableWithAReason() throws Exception {
        LongIndexSortedMap map = viewOf(Structures.BS_TREE, 1);
        try (ObjectOutputStream out = new ObjectOutputStream(new ByteArrayOutputStream())) {
            NotSerializableException e = assertThrows(NotSerializableException.class, () -> out.writeObject(map));
            assertTrue(e.getMessage().contains("Long2LongRBTreeMap"), e.getMessage());
        }
    }
}
