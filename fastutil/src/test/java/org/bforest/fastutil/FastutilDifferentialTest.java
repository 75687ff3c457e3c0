package org.bforest.fastutil;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import it.unimi.dsi.fastutil.longs.AbstractLong2LongMap;
import it.unimi.dsi.fastutil.longs.Long2LongFunction;
import it.unimi.dsi.fastutil.longs.Long2LongMap;
import it.unimi.dsi.fastutil.longs.Long2LongRBTreeMap;
import it.unimi.dsi.fastutil.longs.Long2LongSortedMap;
import it.unimi.dsi.fastutil.longs.Long2LongSortedMaps;
import it.unimi.dsi.fastutil.longs.LongBidirectionalIterator;
import it.unimi.dsi.fastutil.longs.LongIterator;
import it.unimi.dsi.fastutil.objects.ObjectBidirectionalIterator;
import it.unimi.dsi.fastutil.objects.ObjectIterator;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.bforest.LongIndex;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bridge against fastutil's own {@link Long2LongRBTreeMap}, operation by operation: a seeded
 * random stream of the primitive {@code Long2LongSortedMap} methods (look-ups, updates, the
 * {@code compute}/{@code merge} family, {@code addTo}, the key-set, values and entry-set views,
 * bidirectional iterators from a key with removal and {@code setValue}, default return value
 * changes), applied to the whole map and to live sub-maps (head, tail and sub maps, nested up to
 * three deep, made again now and then), each compared with what the same call on the model's
 * matching view answers or throws. Every 1,000 operations, and at the end, every view is compared
 * whole: entries in both directions, size, first and last keys, {@code equals} both ways,
 * {@code hashCode}, {@code toString}.
 *
 * <p>Keys: 3,000 values spread over about ±1.5·10<sup>9</sup> (a bulk-loaded start holds 2,000 of
 * them, so the trees have several levels), and one time in 25 an extreme ({@code MIN_VALUE},
 * {@code MAX_VALUE} and their neighbours, -1, 0, 1). Sub-map bounds always lie within the map they
 * are made from: there fastutil narrows bounds while {@code SortedMap} (and the bridge) throws,
 * which {@code FastutilViewsTest} checks.
 *
 * <p>Seeded: {@code -Dbforest.seed=...} (decimal, or hex with {@code 0x}), else a fixed seed, so
 * every run replays the same operations; {@code -Dbforest.diff.scale} multiplies the operation
 * count. A failure names the seed, the operation and its number, and the command that replays it.
 */
class FastutilDifferentialTest {
    static final long DEFAULT_SEED = 0x5EED_FA57_2026L;
    static final long BASE_SEED = Long.decode(System.getProperty("bforest.seed", Long.toString(DEFAULT_SEED)).trim());
    static final double SCALE = Double.parseDouble(System.getProperty("bforest.diff.scale", "1"));
    static final int OPS = (int) Math.max(1_000, 60_000 * SCALE);
    static final int DOMAIN = 3_000;
    static final int BULK_KEYS = 2_000;
    static final int FULL_COMPARE_EVERY = 1_000;
    static final long[] EXTREMES = {Long.MIN_VALUE, Long.MIN_VALUE + 1, Long.MIN_VALUE + 2, -1, 0, 1,
        Long.MAX_VALUE - 2, Long.MAX_VALUE - 1, Long.MAX_VALUE};

    static Stream<Arguments> cases() {
        return Structures.all().stream()
                .flatMap(s -> Stream.of(Arguments.of(s, false), Arguments.of(s, true)));
    }

    @ParameterizedTest(name = "{0}, bulk-loaded start: {1}")
    @MethodSource("cases")
    void agreesWithLong2LongRBTreeMap(Structures.Structure structure, boolean bulk) {
        long seed = BASE_SEED ^ (structure.name().hashCode() * 0x9E3779B97F4A7C15L) ^ (bulk ? 1 : 0);
        long start = System.nanoTime();
        Run run = new Run(structure, bulk, seed);
        run.all();
        System.out.printf("FastutilDifferentialTest [%s, %s]: seed %d (base %d), %,d operations, %,d keys at the end (at most %,d), %.1f s%n",
                structure.name(), bulk ? "bulk-loaded" : "empty", seed, BASE_SEED, OPS, run.model.size(), run.maxSize,
                (System.nanoTime() - start) / 1e9);
    }

    /** One view of the bridge and the model's view of the same keys: [lo, hi), null where unbounded. */
    record Pair(Long2LongSortedMap model, LongIndexSortedMap bridge, Long lo, Long hi) {
        String path() {
            return lo == null && hi == null ? "map" : lo == null ? "headMap(" + hi + ")"
                    : hi == null ? "tailMap(" + lo + ")" : "subMap(" + lo + ", " + hi + ")";
        }
    }

    private static final class Run {
        final Structures.Structure structure;
        final boolean bulk;
        final long seed;
        final SplittableRandom rnd;
        final Long2LongRBTreeMap model = new Long2LongRBTreeMap();
        final LongIndexSortedMap bridge;
        final List<Pair> views = new ArrayList<>();
        int opNumber;
        int maxSize;

        Run(Structures.Structure structure, boolean bulk, long seed) {
            this.structure = structure;
            this.bulk = bulk;
            this.seed = seed;
            this.rnd = new SplittableRandom(seed);
            LongIndex index;
            if (bulk) {
                TreeSet<Long> keys = new TreeSet<>();
                while (keys.size() < BULK_KEYS) {
                    keys.add(key());
                }
                long[] k = keys.stream().mapToLong(Long::longValue).toArray();
                long[] v = new long[k.length];
                for (int i = 0; i < k.length; i++) {
                    v[i] = value();
                    model.put(k[i], v[i]);
                }
                index = structure.bulk().apply(k, v);
            } else {
                index = structure.empty().get();
            }
            bridge = FastutilViews.asLong2LongSortedMap(index);
            views.add(new Pair(model, bridge, null, null));
            for (int i = 0; i < 5; i++) {
                views.add(subOf(views.get(rnd.nextInt(views.size()))));
            }
        }

        long key() {
            return rnd.nextInt(25) == 0 ? EXTREMES[rnd.nextInt(EXTREMES.length)]
                    : (rnd.nextInt(DOMAIN) - DOMAIN / 2) * 1_000_003L;
        }

        long value() {
            int r = rnd.nextInt(10);
            if (r < 5) {
                return rnd.nextInt(7) - 3;
            }
            if (r == 5) {
                return rnd.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE;
            }
            return rnd.nextLong();
        }

        /** A key in [a, b] (a <= b): one of key()'s, moved into the interval. */
        long within(long a, long b) {
            long k = key();
            return k < a ? a : Math.min(k, b);
        }

        /** A sub-map of p whose bounds lie within p's range (SortedMap's rule). */
        Pair subOf(Pair p) {
            long minFrom = p.lo() == null ? Long.MIN_VALUE : p.lo();
            long maxTo = p.hi() == null ? Long.MAX_VALUE : p.hi();
            // An inclusive lower bound must lie in [lo, hi), which is empty when lo == hi or hi == MIN.
            boolean canFrom = p.hi() == null || (p.hi() != Long.MIN_VALUE && minFrom < p.hi());
            long maxFrom = p.hi() == null ? Long.MAX_VALUE : p.hi() - 1;
            int kind = canFrom ? rnd.nextInt(3) : 0;
            if (kind == 0) {
                long t = within(minFrom, maxTo);
                return new Pair(p.model().headMap(t), p.bridge().headMap(t), p.lo(), t);
            }
            long f = within(minFrom, maxFrom);
            if (kind == 1) {
                return new Pair(p.model().tailMap(f), p.bridge().tailMap(f), f, p.hi());
            }
            long t = within(f, maxTo);
            Pair sub = new Pair(p.model().subMap(f, t), p.bridge().subMap(f, t), f, t);
            return rnd.nextInt(3) == 0 ? subOf(sub) : sub;
        }

        /** The model's view of [lo, hi), made again from the root (after a default return value change). */
        Long2LongSortedMap modelView(Long lo, Long hi) {
            if (lo == null) {
                return hi == null ? model : model.headMap(hi.longValue());
            }
            return hi == null ? model.tailMap(lo.longValue()) : model.subMap(lo.longValue(), hi.longValue());
        }

        void all() {
            for (opNumber = 1; opNumber <= OPS; opNumber++) {
                Pair p = rnd.nextBoolean() ? views.get(0) : views.get(1 + rnd.nextInt(views.size() - 1));
                step(p);
                maxSize = Math.max(maxSize, model.size());
                if (opNumber % 300 == 0) {
                    views.set(1 + rnd.nextInt(views.size() - 1), subOf(views.get(rnd.nextInt(views.size()))));
                }
                if (opNumber % FULL_COMPARE_EVERY == 0) {
                    for (Pair v : views) {
                        compareWhole(v);
                    }
                }
            }
            for (Pair v : views) {
                compareWhole(v);
            }
        }

        String where(String op, Pair p) {
            return "[" + structure.name() + ", " + (bulk ? "bulk-loaded" : "empty") + "] seed " + seed
                    + ", operation #" + opNumber + ": " + op + " on " + p.path()
                    + " (replay: mvn -pl fastutil test -Dtest=FastutilDifferentialTest -Dbforest.seed=" + BASE_SEED + ")";
        }

        void same(String op, Pair p, Object expected, Object actual) {
            if (!java.util.Objects.equals(expected, actual)) {
                fail(where(op, p) + ": fastutil's Long2LongRBTreeMap gave " + expected + ", the bridge " + actual);
            }
        }

        /** The same call on both views, answers (or exceptions) compared. */
        void both(String op, Pair p, Call call) {
            Object expected = outcome(() -> call.on(p.model(), true));
            Object actual = outcome(() -> call.on(p.bridge(), false));
            same(op, p, expected, actual);
        }

        @FunctionalInterface
        interface Call {
            Object on(Long2LongSortedMap m, boolean isModel);
        }

        @SuppressWarnings("deprecation") // entrySet().contains(Map.entry(...)): the boxed face on purpose
        void step(Pair p) {
            long k = key();
            long v = value();
            long w = value();
            // Values that the key has now, so that remove(k, v) and replace(k, v, w) can hit.
            if (rnd.nextBoolean() && p.model().containsKey(k)) {
                v = p.model().get(k);
            }
            final long vv = v;
            int op = rnd.nextInt(50);
            switch (op) {
                case 0, 1, 2 -> both("get(" + k + ")", p, (m, x) -> m.get(k));
                case 3, 4, 5, 6, 44, 45, 46, 47, 48, 49 -> both("put(" + k + ", " + v + ")", p, (m, x) -> m.put(k, vv));
                case 7, 8 -> both("remove(" + k + ")", p, (m, x) -> m.remove(k));
                case 9 -> both("containsKey(" + k + ")", p, (m, x) -> m.containsKey(k));
                case 10 -> both("getOrDefault(" + k + ", " + w + ")", p, (m, x) -> m.getOrDefault(k, w));
                case 11 -> both("putIfAbsent(" + k + ", " + v + ")", p, (m, x) -> m.putIfAbsent(k, vv));
                case 12 -> both("remove(" + k + ", " + v + ")", p, (m, x) -> m.remove(k, vv));
                case 13 -> both("replace(" + k + ", " + v + ")", p, (m, x) -> m.replace(k, vv));
                case 14 -> both("replace(" + k + ", " + v + ", " + w + ")", p, (m, x) -> m.replace(k, vv, w));
                case 15 -> both("addTo(" + k + ", " + w + ")", p, (m, isModel) -> {
                    if (!isModel) {
                        return ((LongIndexSortedMap) m).addTo(k, w);
                    }
                    if (m instanceof Long2LongRBTreeMap rb) {
                        return rb.addTo(k, w);
                    }
                    long old = m.get(k);        // fastutil's sub-maps have no addTo: its definition
                    m.put(k, old + w);
                    return old;
                });
                case 16 -> both("computeIfAbsent(" + k + ", LongUnaryOperator)", p,
                        (m, x) -> m.computeIfAbsent(k, (java.util.function.LongUnaryOperator) key -> key ^ w));
                case 17 -> both("computeIfAbsentNullable(" + k + ", null for odd keys)", p,
                        (m, x) -> m.computeIfAbsentNullable(k, key -> (key & 1) == 0 ? Long.valueOf(w) : null));
                case 18 -> {
                    Long2LongFunction partial = new Long2LongFunction() {
                        @Override public long get(long key) { return (key & 2) == 0 ? w : -7; }
                        @Override public boolean containsKey(long key) { return (key & 2) == 0; }
                    };
                    both("computeIfAbsent(" + k + ", partial Long2LongFunction)", p, (m, x) -> m.computeIfAbsent(k, partial));
                }
                case 19 -> both("computeIfPresent(" + k + ", null when old is even)", p,
                        (m, x) -> m.computeIfPresent(k, (key, old) -> (old & 1) == 0 ? null : old + key + w));
                case 20 -> both("compute(" + k + ", ...)", p, (m, x) -> m.compute(k,
                        (key, old) -> old == null ? (w % 3 == 0 ? null : Long.valueOf(w)) : (old % 3 == 0 ? null : old * 31 + w)));
                case 21 -> both("merge(" + k + ", " + v + ", ...)", p,
                        (m, x) -> m.merge(k, vv, (old, given) -> (old ^ given) % 4 == 0 ? null : old - given));
                case 22 -> {
                    if (rnd.nextBoolean()) {
                        both("mergeLong(" + k + ", " + v + ", Long::sum)", p,
                                (m, x) -> m.mergeLong(k, vv, (java.util.function.LongBinaryOperator) Long::sum));
                    } else {
                        both("mergeLong(" + k + ", " + v + ", fastutil LongBinaryOperator)", p,
                                (m, x) -> m.mergeLong(k, vv, (it.unimi.dsi.fastutil.longs.LongBinaryOperator) (a, b) -> a * 3 - b));
                    }
                }
                case 23 -> both("firstLongKey()", p, (m, x) -> m.firstLongKey());
                case 24 -> both("lastLongKey()", p, (m, x) -> m.lastLongKey());
                case 25 -> both("size(), isEmpty()", p, (m, x) -> m.size() + "/" + m.isEmpty());
                case 26 -> both("containsValue(" + v + ")", p, (m, x) -> m.containsValue(vv));
                case 27 -> both("keySet().contains(" + k + "), keySet().remove(" + k + ")", p,
                        (m, x) -> m.keySet().contains(k) + "/" + m.keySet().remove(k));
                case 28 -> both("values().contains(" + v + "), values().rem(" + v + ")", p,
                        (m, x) -> m.values().contains(vv) + "/" + m.values().rem(vv));
                case 29 -> both("long2LongEntrySet().contains/remove(" + k + "=" + v + ")", p, (m, isModel) -> {
                    Long2LongMap.Entry e = new AbstractLong2LongMap.BasicEntry(k, vv);
                    boolean contains = m.long2LongEntrySet().contains(e);
                    // fastutil 8.5.15's sub-map entry set removes any entry with the key, whatever its
                    // value and even outside the sub-map, and says true: the model follows Set.remove's
                    // contract instead (remove what contains finds).
                    boolean removed = isModel ? contains && m.remove(k, vv) : m.long2LongEntrySet().remove(e);
                    return contains + "/" + m.entrySet().contains(Map.entry(k, vv)) + "/" + removed;
                });
                case 30 -> both("keySet().firstLong(), lastLong(); entry set first(), last()", p,
                        (m, isModel) -> List.of(outcome(() -> m.keySet().firstLong()), outcome(() -> m.keySet().lastLong()),
                                outcome(() -> sortedSetEnd(m.long2LongEntrySet().first(), isModel)),
                                outcome(() -> sortedSetEnd(m.long2LongEntrySet().last(), isModel))));
                case 31 -> {
                    if (rnd.nextInt(p == views.get(0) ? 200 : 10) == 0) {
                        both("clear()", p, (m, x) -> {
                            m.clear();
                            return m.size();
                        });
                    }
                }
                case 32 -> {
                    if (rnd.nextInt(10) == 0) {
                        long d = switch (rnd.nextInt(4)) {
                            case 0 -> 0;
                            case 1 -> -1;
                            case 2 -> Long.MIN_VALUE;
                            default -> v;
                        };
                        model.defaultReturnValue(d);
                        bridge.defaultReturnValue(d);
                        // fastutil's sub-maps copy the default return value when made; the bridge's share the index's.
                        for (int i = 1; i < views.size(); i++) {
                            Pair old = views.get(i);
                            views.set(i, new Pair(modelView(old.lo(), old.hi()), old.bridge(), old.lo(), old.hi()));
                        }
                        same("defaultReturnValue(" + d + ")", p, model.defaultReturnValue(), p.bridge().defaultReturnValue());
                    }
                }
                case 33, 34, 35 -> walkKeys(p, k);
                case 36, 37 -> walkEntries(p, k, false);
                case 38 -> walkEntries(p, k, true);
                case 39 -> walkValues(p);
                case 40 -> both("forEach, hashCode", p, (m, x) -> {
                    long[] sum = {0};
                    m.forEach((key, val) -> sum[0] = sum[0] * 31 + key * 7 + val);
                    return sum[0] + "/" + m.hashCode();
                });
                case 41 -> both("replaceAll", p, (m, x) -> {
                    m.replaceAll((key, val) -> val + (key & 3));
                    return m.size();
                });
                case 42 -> both("putAll(3 entries)", p, (m, x) -> {
                    Long2LongRBTreeMap add = new Long2LongRBTreeMap();
                    add.put(k, vv);
                    add.put(k + 1, w);
                    add.put(k - 1_000_003L, vv ^ w);
                    m.putAll(add);
                    return m.size();
                });
                default -> both("keySet().iterator(" + k + ") then previous", p, (m, x) -> {
                    LongBidirectionalIterator it = m.keySet().iterator(k);
                    return List.of(outcome(it::hasPrevious), outcome(it::previousLong), outcome(it::hasNext),
                            outcome(it::nextLong), outcome(it::nextLong));
                });
            }
        }

        /** A script of moves on a key iterator (from the start, or just after a key): next, previous, remove, hasNext, hasPrevious. */
        void walkKeys(Pair p, long k) {
            boolean fromKey = rnd.nextBoolean();
            int[] script = script(30);
            both("keySet().iterator(" + (fromKey ? Long.toString(k) : "") + ") " + describe(script), p, (m, x) -> {
                LongBidirectionalIterator it = fromKey ? m.keySet().iterator(k) : m.keySet().iterator();
                List<Object> out = new ArrayList<>();
                for (int s : script) {
                    out.add(outcome(() -> switch (s) {
                        case 0, 1, 2 -> it.nextLong();
                        case 3, 4 -> it.previousLong();
                        case 5 -> {
                            it.remove();
                            yield "removed";
                        }
                        case 6 -> it.hasNext();
                        default -> it.hasPrevious();
                    }));
                }
                return out;
            });
        }

        /** The same over the entry set (or the fast iterator), with setValue on the entry returned last. */
        void walkEntries(Pair p, long k, boolean fast) {
            boolean fromKey = rnd.nextBoolean();
            int[] script = script(30);
            long[] values = new long[script.length];
            for (int i = 0; i < values.length; i++) {
                values[i] = value();
            }
            both((fast ? "fastIterator(" : "long2LongEntrySet().iterator(") + (fromKey ? k + "=0" : "") + ") "
                    + describe(script), p, (m, x) -> {
                Long2LongMap.Entry from = new AbstractLong2LongMap.BasicEntry(k, 0);
                ObjectBidirectionalIterator<Long2LongMap.Entry> it;
                if (fast) {
                    it = !fromKey ? Long2LongSortedMaps.fastIterator(m)
                            : m.long2LongEntrySet() instanceof Long2LongSortedMap.FastSortedEntrySet f
                            ? f.fastIterator(from) : m.long2LongEntrySet().iterator(from);
                } else {
                    it = fromKey ? m.long2LongEntrySet().iterator(from) : m.long2LongEntrySet().iterator();
                }
                List<Object> out = new ArrayList<>();
                Long2LongMap.Entry[] last = {null};
                for (int i = 0; i < script.length; i++) {
                    int s = script[i];
                    long nv = values[i];
                    out.add(outcome(() -> switch (s) {
                        case 0, 1, 2 -> text(last[0] = it.next());
                        case 3, 4 -> text(last[0] = it.previous());
                        case 5 -> {
                            it.remove();
                            last[0] = null;
                            yield "removed";
                        }
                        case 6 -> it.hasNext();
                        case 7 -> it.hasPrevious();
                        default -> last[0] == null ? "none" : last[0].setValue(nv) + "->" + text(last[0]);
                    }));
                }
                return out;
            });
        }

        /** Forward over the values, removing some. */
        void walkValues(Pair p) {
            int[] script = script(20);
            both("values().iterator() " + describe(script), p, (m, x) -> {
                LongIterator it = m.values().iterator();
                List<Object> out = new ArrayList<>();
                for (int s : script) {
                    out.add(outcome(() -> switch (s) {
                        case 5 -> {
                            it.remove();
                            yield "removed";
                        }
                        case 6, 7 -> it.hasNext();
                        default -> it.nextLong();
                    }));
                }
                return out;
            });
        }

        /** Codes 0-2 next, 3-4 previous, 5 remove, 6 hasNext, 7 hasPrevious, 8 setValue. */
        int[] script(int max) {
            int[] s = new int[1 + rnd.nextInt(max)];
            boolean backwards = rnd.nextInt(4) == 0;
            for (int i = 0; i < s.length; i++) {
                int c = rnd.nextInt(9);
                s[i] = backwards && c <= 2 ? 3 : c;
            }
            return s;
        }

        static String describe(int[] script) {
            StringBuilder b = new StringBuilder();
            String[] names = {"next", "next", "next", "previous", "previous", "remove", "hasNext", "hasPrevious", "setValue"};
            for (int s : script) {
                b.append(b.length() == 0 ? "" : " ").append(names[s]);
            }
            return b.toString();
        }

        void compareWhole(Pair p) {
            Long2LongSortedMap m = p.model();
            LongIndexSortedMap b = p.bridge();
            List<String> expected = new ArrayList<>();
            for (Long2LongMap.Entry e : m.long2LongEntrySet()) {
                expected.add(text(e));
            }
            List<String> actual = new ArrayList<>();
            ObjectIterator<Long2LongMap.Entry> fast = Long2LongSortedMaps.fastIterator(b);
            while (fast.hasNext()) {
                actual.add(text(fast.next()));
            }
            same("whole comparison: entries", p, expected, actual);
            List<String> backwards = new ArrayList<>();
            ObjectBidirectionalIterator<Long2LongMap.Entry> down =
                    b.long2LongEntrySet().iterator(new AbstractLong2LongMap.BasicEntry(Long.MAX_VALUE, 0));
            while (down.hasPrevious()) {
                backwards.add(text(down.previous()));
            }
            Collections.reverse(backwards);
            same("whole comparison: entries walked backwards from Long.MAX_VALUE", p, expected, backwards);
            same("whole comparison: keys", p, new ArrayList<>(m.keySet()), new ArrayList<>(b.keySet()));
            same("whole comparison: values", p, new ArrayList<>(m.values()), new ArrayList<>(b.values()));
            same("whole comparison: size", p, m.size(), b.size());
            same("whole comparison: isEmpty", p, m.isEmpty(), b.isEmpty());
            same("whole comparison: firstLongKey", p, outcome(m::firstLongKey), outcome(b::firstLongKey));
            same("whole comparison: lastLongKey", p, outcome(m::lastLongKey), outcome(b::lastLongKey));
            same("whole comparison: bridge.equals(model)", p, true, b.equals(m));
            same("whole comparison: model.equals(bridge)", p, true, m.equals(b));
            same("whole comparison: hashCode", p, m.hashCode(), b.hashCode());
            same("whole comparison: toString (java.util's form)", p, "{" + String.join(", ", expected) + "}", b.toString());
            assertEquals(expected.size(), b.long2LongEntrySet().size(), () -> where("entry set size", p));
        }
    }

    /**
     * SortedSet's first() or last(): fastutil 8.5.15's sub-map entry sets return null when empty
     * where the contract (and the bridge) throws NoSuchElementException; the model's null stands
     * for that.
     */
    static Long2LongMap.Entry sortedSetEnd(Long2LongMap.Entry e, boolean isModel) {
        if (e == null && isModel) {
            throw new java.util.NoSuchElementException();
        }
        return e;
    }

    static String text(Long2LongMap.Entry e) {
        return e.getLongKey() + "=" + e.getLongValue();
    }

    /** What a call returned, or the class of what it threw; entries as "key=value". */
    static Object outcome(Supplier<?> call) {
        try {
            Object r = call.get();
            return r instanceof Long2LongMap.Entry e ? text(e) : r;
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName();
        }
    }
}
