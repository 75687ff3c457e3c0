package org.bforest.fastutil;

import it.unimi.dsi.fastutil.longs.AbstractLong2LongSortedMap;
import it.unimi.dsi.fastutil.longs.Long2LongFunction;
import it.unimi.dsi.fastutil.longs.Long2LongMap;
import it.unimi.dsi.fastutil.longs.Long2LongSortedMap;
import it.unimi.dsi.fastutil.longs.LongCollection;
import it.unimi.dsi.fastutil.longs.LongComparator;
import it.unimi.dsi.fastutil.longs.LongSortedSet;
import it.unimi.dsi.fastutil.objects.ObjectSortedSet;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.util.ConcurrentModificationException;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.LongBinaryOperator;
import java.util.function.LongFunction;
import java.util.function.LongUnaryOperator;
import org.bforest.LongCursor;
import org.bforest.LongIndex;

/**
 * A live fastutil {@link Long2LongSortedMap} over a {@link LongIndex}, or over the keys of one in
 * a range (a sub-map): made by {@link FastutilViews#asLong2LongSortedMap}. It holds nothing but the
 * index and its bounds; every call goes to the index, through its primitive API, and the
 * primitive methods box nothing.
 *
 * <h2>What a call costs, against the index's own methods</h2>
 * <ul>
 *   <li>{@code get}, {@code getOrDefault}, {@code containsKey}, {@code put}, {@code remove}: the
 *       index's call of the same name, after two comparisons of the key with the view's range
 *       (always true for the whole map). One descent.</li>
 *   <li>{@code putIfAbsent}, {@code replace(k, v)}, {@code computeIfAbsent} (every overload),
 *       {@code computeIfPresent}, {@code compute}, {@code merge}, {@code mergeLong}: one cursor
 *       seek (one descent and one small cursor object) to learn whether the key is there and its
 *       value, then one {@code put} or {@code remove} when they change something: two descents
 *       where one map operation could do with one (the index has no "insert if absent" or
 *       "update in place" call). {@code compute}, {@code computeIfPresent} and {@code merge} box
 *       the values their {@code BiFunction} sees, as fastutil's own do.</li>
 *   <li>{@code addTo}, {@code remove(k, v)}, {@code replace(k, old, new)}: a {@code get}, then a
 *       {@code put} or {@code remove}: two descents.</li>
 *   <li>{@code size()}: the index's {@code size()} (constant time) for the whole map; a
 *       {@code rangeCount} for a sub-map, which reads every leaf the range spans (a
 *       {@code TreeMap} or fastutil sub-map walks every entry). {@code isEmpty()},
 *       {@code firstLongKey()}, {@code lastLongKey()}: one neighbour query.</li>
 *   <li>Iteration (keys, values, entries, both directions): a {@link LongCursor} walk, constant
 *       time a step and no allocation but the entries that {@code long2LongEntrySet().iterator()}
 *       returns (one a step; {@code fastIterator()}, which {@code Long2LongSortedMaps.fastIterator}
 *       uses, reuses one). {@code iterator(from)}: one descent. Turning around at an end of the
 *       range and the first {@code previous()} after a {@code remove()} cost a descent; an
 *       iterator's {@code remove()} removes through the cursor (one removal).</li>
 *   <li>{@code containsValue}, {@code hashCode}, {@code toString}, {@code forEach}: one
 *       {@code rangeVisit}. {@code replaceAll}: a cursor walk and one {@code put} an entry.
 *       {@code equals}: the two sizes, then one look-up here per entry of the other map.</li>
 *   <li>{@code clear()}: the index's {@code clear()} for the whole map; for a sub-map, one removal
 *       a key, through a cursor.</li>
 *   <li>An entry's {@code setValue}: {@code containsKey} and {@code put} (it does not put back a key
 *       removed since the entry was returned).</li>
 *   <li>The boxed {@code Map} methods ({@code get(Object)}, {@code put(Long, Long)}, ...):
 *       fastutil's defaults over the primitive ones, with boxing; some take a second descent
 *       ({@code get(Object)} when the value equals the default return value).</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * No more thread-safe than the index: reads of an index that nobody modifies are safe from any
 * number of threads; otherwise writes need the caller's lock. Over
 * {@code Indexes.concurrentBsTree()} each single index call is thread-safe, but the methods that
 * make two calls ({@code putIfAbsent}, {@code addTo}, the {@code compute} and {@code merge}
 * families, {@code remove(k, v)}, {@code replace}, a sub-map's {@code clear()}) are not atomic,
 * and iterators are weakly consistent, as the index's cursors.
 *
 * <h2>Where it differs from fastutil's tree maps</h2>
 * <ul>
 *   <li>Sub-maps follow {@link java.util.SortedMap}'s rules as {@code TreeMap} applies them:
 *       {@code put} of a key outside the range throws {@link IllegalArgumentException}, and so
 *       does a sub-map of a sub-map whose bounds lie outside it (fastutil's
 *       {@code Long2LongRBTreeMap} narrows such bounds to its own instead).</li>
 *   <li>The default return value is the index's, shared by every view (fastutil's sub-maps copy
 *       their map's when they are made).</li>
 *   <li>{@code toString()} is {@code java.util}'s form, {@code {1=2, 3=4}}, and its key set's,
 *       values' and entry set's {@code [1, 3]} (fastutil writes {@code {1=>2, 3=>4}} and
 *       {@code {1, 3}}); {@code equals} and {@code hashCode} are {@link Map}'s.</li>
 *   <li>Iterators are fail-fast where the index's cursors are: a change made other than through
 *       the iterator makes its next call throw {@link ConcurrentModificationException}.</li>
 *   <li>It is not serializable: copy it ({@code new Long2LongRBTreeMap(view)}) to serialize.</li>
 * </ul>
 * Every {@code long} is a key, {@link Long#MIN_VALUE} and {@link Long#MAX_VALUE} included; the
 * bounds of sub-maps are those of {@link Long2LongSortedMap}: {@code headMap(to)} holds the keys
 * below {@code to}, {@code tailMap(from)} those from {@code from} up, {@code subMap(from, to)} those
 * in {@code [from, to)}.
 */
public final class LongIndexSortedMap extends AbstractLong2LongSortedMap {
    private static final long serialVersionUID = 1L;

    final LongIndex index;

    // The bounds as given (for TreeMap's argument checks of further sub-maps): the keys from
    // `from` (inclusive) below `to` (exclusive); an unbounded side ignores its key.
    private final boolean fromStart;
    private final long from;
    private final boolean toEnd;
    private final long to;

    /** The keys of the view are exactly those in [low, high]; low > high when there are none. */
    final long low;
    final long high;
    /** No bound: the whole index. */
    final boolean whole;

    private KeyView keys;
    private ValueView values;
    private EntryView entries;

    /** The whole index. */
    LongIndexSortedMap(LongIndex index) {
        this(index, true, 0, true, 0);
    }

    private LongIndexSortedMap(LongIndex index, boolean fromStart, long from, boolean toEnd, long to) {
        this.index = index;
        this.fromStart = fromStart;
        this.from = fromStart ? 0 : from;
        this.toEnd = toEnd;
        this.to = toEnd ? 0 : to;
        long l = fromStart ? Long.MIN_VALUE : from;
        long h;
        if (toEnd) {
            h = Long.MAX_VALUE;
        } else if (to == Long.MIN_VALUE) {
            l = 1;          // nothing lies below Long.MIN_VALUE
            h = 0;
        } else {
            h = to - 1;
        }
        this.low = l;
        this.high = h;
        this.whole = fromStart && toEnd;
    }

    /** The index this map is a view of. */
    public LongIndex index() {
        return index;
    }

    // ---- range tests and errors -----------------------------------------------------------------

    boolean inRange(long key) {
        return key >= low && key <= high;
    }

    String rangeText() {
        return "[" + (fromStart ? "Long.MIN_VALUE" : Long.toString(from)) + ", "
                + (toEnd ? "Long.MAX_VALUE]" : to + ")");
    }

    private IllegalArgumentException outside(long key) {
        return new IllegalArgumentException("key " + key + " is outside this sub-map's range " + rangeText()
                + ": put it through the map this sub-map was made from");
    }

    private IllegalArgumentException outsideBound(String name, long key) {
        return new IllegalArgumentException(name + " " + key + " is outside this sub-map's range " + rangeText()
                + ": a sub-map of a sub-map must lie within it (SortedMap's rule); make it from the whole map");
    }

    private void checkPut(long key) {
        if (!inRange(key)) {
            throw outside(key);
        }
    }

    /** TreeMap's test for an inclusive bound of a sub-map made from this one: within [from, to). */
    private boolean inBounds(long key) {
        return (fromStart || key >= from) && (toEnd || key < to);
    }

    /** TreeMap's test for an exclusive bound: within [from, to] (the bound itself is allowed). */
    private boolean inClosedBounds(long key) {
        return (fromStart || key >= from) && (toEnd || key <= to);
    }

    /** A cursor on {@code key} if the index holds it (one descent), else null. */
    private LongCursor find(long key) {
        LongCursor c = index.cursor();
        return c.seekCeiling(key) && c.key() == key ? c : null;
    }

    // ---- look-ups and updates -------------------------------------------------------------------

    @Override
    public long get(long key) {
        return inRange(key) ? index.get(key) : index.defaultReturnValue();
    }

    @Override
    public long getOrDefault(long key, long defaultValue) {
        return inRange(key) ? index.get(key, defaultValue) : defaultValue;
    }

    @Override
    public boolean containsKey(long key) {
        return inRange(key) && index.containsKey(key);
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException if {@code key} is outside this sub-map's range
     */
    @Override
    public long put(long key, long value) {
        checkPut(key);
        return index.put(key, value);
    }

    @Override
    public long remove(long key) {
        return inRange(key) ? index.remove(key) : index.defaultReturnValue();
    }

    /** The index's default return value (shared by every view of the index). */
    @Override
    public long defaultReturnValue() {
        return index.defaultReturnValue();
    }

    /** Sets the index's default return value: for the index and every view of it. */
    @Override
    public void defaultReturnValue(long rv) {
        index.defaultReturnValue(rv);
    }

    /**
     * Adds {@code increment} to the value of {@code key}, as fastutil's tree and hash maps do: a
     * key that is not there gets the default return value plus {@code increment}.
     *
     * @return the value before, or the default return value if the key was not there
     * @throws IllegalArgumentException if {@code key} is outside this sub-map's range
     */
    public long addTo(long key, long increment) {
        checkPut(key);
        long old = index.get(key);
        index.put(key, old + increment);
        return old;
    }

    @Override
    public long putIfAbsent(long key, long value) {
        checkPut(key);
        LongCursor c = find(key);
        return c != null ? c.value() : index.put(key, value);
    }

    @Override
    public boolean remove(long key, long value) {
        // ~value is never value: a miss cannot pass for a match.
        if (!inRange(key) || index.get(key, ~value) != value) {
            return false;
        }
        index.remove(key);
        return true;
    }

    @Override
    public boolean replace(long key, long oldValue, long newValue) {
        if (!inRange(key) || index.get(key, ~oldValue) != oldValue) {
            return false;
        }
        index.put(key, newValue);
        return true;
    }

    @Override
    public long replace(long key, long value) {
        if (!inRange(key) || find(key) == null) {
            return index.defaultReturnValue();
        }
        return index.put(key, value);
    }

    @Override
    public long computeIfAbsent(long key, LongUnaryOperator mappingFunction) {
        Objects.requireNonNull(mappingFunction, "mappingFunction");
        LongCursor c = inRange(key) ? find(key) : null;
        if (c != null) {
            return c.value();
        }
        long v = mappingFunction.applyAsLong(key);
        put(key, v);
        return v;
    }

    @Override
    public long computeIfAbsentNullable(long key, LongFunction<? extends Long> mappingFunction) {
        Objects.requireNonNull(mappingFunction, "mappingFunction");
        LongCursor c = inRange(key) ? find(key) : null;
        if (c != null) {
            return c.value();
        }
        Long v = mappingFunction.apply(key);
        if (v == null) {
            return index.defaultReturnValue();
        }
        put(key, v.longValue());
        return v.longValue();
    }

    @Override
    public long computeIfAbsent(long key, Long2LongFunction mappingFunction) {
        Objects.requireNonNull(mappingFunction, "mappingFunction");
        LongCursor c = inRange(key) ? find(key) : null;
        if (c != null) {
            return c.value();
        }
        if (!mappingFunction.containsKey(key)) {
            return index.defaultReturnValue();
        }
        long v = mappingFunction.get(key);
        put(key, v);
        return v;
    }

    @Override
    public long computeIfPresent(long key, BiFunction<? super Long, ? super Long, ? extends Long> remappingFunction) {
        Objects.requireNonNull(remappingFunction, "remappingFunction");
        LongCursor c = inRange(key) ? find(key) : null;
        if (c == null) {
            return index.defaultReturnValue();
        }
        Long v = remappingFunction.apply(key, c.value());
        if (v == null) {
            index.remove(key);
            return index.defaultReturnValue();
        }
        index.put(key, v);
        return v;
    }

    @Override
    public long compute(long key, BiFunction<? super Long, ? super Long, ? extends Long> remappingFunction) {
        Objects.requireNonNull(remappingFunction, "remappingFunction");
        LongCursor c = inRange(key) ? find(key) : null;
        Long v = remappingFunction.apply(key, c == null ? null : c.value());
        if (v == null) {
            if (c != null) {
                index.remove(key);
            }
            return index.defaultReturnValue();
        }
        put(key, v.longValue());
        return v.longValue();
    }

    @Override
    public long merge(long key, long value, BiFunction<? super Long, ? super Long, ? extends Long> remappingFunction) {
        Objects.requireNonNull(remappingFunction, "remappingFunction");
        LongCursor c = inRange(key) ? find(key) : null;
        long v = value;
        if (c != null) {
            Long merged = remappingFunction.apply(c.value(), value);
            if (merged == null) {
                index.remove(key);
                return index.defaultReturnValue();
            }
            v = merged;
        }
        put(key, v);
        return v;
    }

    @Override
    public long mergeLong(long key, long value, LongBinaryOperator remappingFunction) {
        Objects.requireNonNull(remappingFunction, "remappingFunction");
        LongCursor c = inRange(key) ? find(key) : null;
        long v = c != null ? remappingFunction.applyAsLong(c.value(), value) : value;
        put(key, v);
        return v;
    }

    @Override
    public boolean containsValue(long value) {
        if (low > high) {
            return false;
        }
        boolean[] found = {false};
        index.rangeVisit(low, true, high, true, (k, v) -> {
            if (v == value) {
                found[0] = true;
                return false;
            }
            return true;
        });
        return found[0];
    }

    /** The number of keys in the range, at most {@link Integer#MAX_VALUE} (the index's {@code size()} is a {@code long}). */
    @Override
    public int size() {
        long n = whole ? index.size() : low > high ? 0 : index.rangeCount(low, true, high, true);
        return (int) Math.min(n, Integer.MAX_VALUE);
    }

    @Override
    public boolean isEmpty() {
        if (whole) {
            return index.isEmpty();
        }
        if (low > high) {
            return true;
        }
        if (low == Long.MIN_VALUE) {
            return index.isEmpty() || index.firstKey() > high;
        }
        long k = index.ceilingKey(low, low - 1);  // low - 1 stands for "none": every answer is >= low
        return k < low || k > high;
    }

    @Override
    public void clear() {
        if (whole) {
            index.clear();
            return;
        }
        LongCursor c = index.cursor();
        boolean on = c.seekCeiling(low) && c.key() <= high;
        while (on) {
            c.remove();     // moves to the next key
            on = c.isValid() && c.key() <= high;
        }
    }

    @Override
    public long firstLongKey() {
        if (whole) {
            return index.firstKey();
        }
        if (low <= high) {
            if (low == Long.MIN_VALUE) {
                if (!index.isEmpty()) {
                    long k = index.firstKey();
                    if (k <= high) {
                        return k;
                    }
                }
            } else {
                long k = index.ceilingKey(low, low - 1);
                if (k >= low && k <= high) {
                    return k;
                }
            }
        }
        throw new NoSuchElementException("the map is empty" + (whole ? "" : " in its range " + rangeText()));
    }

    @Override
    public long lastLongKey() {
        if (whole) {
            return index.lastKey();
        }
        if (low <= high) {
            if (high == Long.MAX_VALUE) {
                if (!index.isEmpty()) {
                    long k = index.lastKey();
                    if (k >= low) {
                        return k;
                    }
                }
            } else {
                long k = index.floorKey(high, high + 1);
                if (k >= low && k <= high) {
                    return k;
                }
            }
        }
        throw new NoSuchElementException("the map is empty in its range " + rangeText());
    }

    /** {@code null}: keys are in natural (signed {@code long}) order. */
    @Override
    public LongComparator comparator() {
        return null;
    }

    // ---- sub-maps -------------------------------------------------------------------------------

    /**
     * The keys in {@code [fromKey, toKey)}, live.
     *
     * @throws IllegalArgumentException if {@code fromKey > toKey}, or if this map is itself a
     *                                  sub-map and a bound lies outside its range
     */
    @Override
    public LongIndexSortedMap subMap(long fromKey, long toKey) {
        if (fromKey > toKey) {
            throw new IllegalArgumentException("fromKey " + fromKey + " > toKey " + toKey
                    + ": a sub-map's lower bound must not be above its upper bound");
        }
        if (!inBounds(fromKey)) {
            throw outsideBound("fromKey", fromKey);
        }
        if (!inClosedBounds(toKey)) {
            throw outsideBound("toKey", toKey);
        }
        return new LongIndexSortedMap(index, false, fromKey, false, toKey);
    }

    /**
     * The keys below {@code toKey}, live.
     *
     * @throws IllegalArgumentException if this map is a sub-map and {@code toKey} lies outside its range
     */
    @Override
    public LongIndexSortedMap headMap(long toKey) {
        if (!inClosedBounds(toKey)) {
            throw outsideBound("toKey", toKey);
        }
        return new LongIndexSortedMap(index, fromStart, from, false, toKey);
    }

    /**
     * The keys from {@code fromKey} up, live.
     *
     * @throws IllegalArgumentException if this map is a sub-map and {@code fromKey} lies outside its range
     */
    @Override
    public LongIndexSortedMap tailMap(long fromKey) {
        if (!inBounds(fromKey)) {
            throw outsideBound("fromKey", fromKey);
        }
        return new LongIndexSortedMap(index, false, fromKey, toEnd, to);
    }

    // ---- views ----------------------------------------------------------------------------------

    @Override
    public LongSortedSet keySet() {
        KeyView k = keys;
        return k != null ? k : (keys = new KeyView(this));
    }

    @Override
    public LongCollection values() {
        ValueView v = values;
        return v != null ? v : (values = new ValueView(this));
    }

    @Override
    public ObjectSortedSet<Long2LongMap.Entry> long2LongEntrySet() {
        EntryView e = entries;
        return e != null ? e : (entries = new EntryView(this));
    }

    // ---- whole-map walks ------------------------------------------------------------------------

    @Override
    public void forEach(BiConsumer<? super Long, ? super Long> action) {
        Objects.requireNonNull(action, "action");
        if (low <= high) {
            index.rangeVisit(low, true, high, true, (k, v) -> {
                action.accept(k, v);
                return true;
            });
        }
    }

    /**
     * Replaces every value with {@code function}'s answer for its entry, in key order.
     *
     * @throws NullPointerException if {@code function} is null or returns null (from the entry it
     *                              returned null for on, nothing is replaced)
     */
    @Override
    public void replaceAll(BiFunction<? super Long, ? super Long, ? extends Long> function) {
        Objects.requireNonNull(function, "function");
        LongCursor c = index.cursor();
        // Putting a new value for a key that is there does not make the cursor stale.
        for (boolean on = c.seekCeiling(low) && c.key() <= high; on; on = c.next() && c.key() <= high) {
            long k = c.key();
            Long v = function.apply(k, c.value());
            if (v == null) {
                throw new NullPointerException("the function returned null for key " + k
                        + ": a map's values cannot be null (use remove to drop a key)");
            }
            index.put(k, v);
        }
    }

    @Override
    public int hashCode() {
        if (low > high) {
            return 0;
        }
        int[] h = {0};
        index.rangeVisit(low, true, high, true, (k, v) -> {
            h[0] += Long.hashCode(k) ^ Long.hashCode(v);
            return true;
        });
        return h[0];
    }

    /** {@code java.util}'s form: {@code {1=2, 3=4}}. */
    @Override
    public String toString() {
        return text('{', '}', true, true);
    }

    /**
     * The entries of the range, in {@code java.util}'s form between {@code open} and {@code close}:
     * keys, values or {@code key=value} (fastutil's own collections print braces and {@code =>}).
     */
    String text(char open, char close, boolean keys, boolean values) {
        StringBuilder s = new StringBuilder().append(open);
        if (low <= high) {
            index.rangeVisit(low, true, high, true, (k, v) -> {
                if (s.length() > 1) {
                    s.append(", ");
                }
                if (keys) {
                    s.append(k);
                }
                if (keys && values) {
                    s.append('=');
                }
                if (values) {
                    s.append(v);
                }
                return true;
            });
        }
        return s.append(close).toString();
    }

    @java.io.Serial
    private void writeObject(ObjectOutputStream out) throws NotSerializableException {
        throw new NotSerializableException("a view of a LongIndex is not serializable: copy it, e.g. "
                + "new Long2LongRBTreeMap(view), and serialize the copy");
    }
}
