package org.bforest.contract;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.bforest.LongIndex;
import org.bforest.NativeLongIndex;
import org.bforest.testing.Implementations.Impl;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The indexes the snapshot suites ({@link SnapshotContractTest}, {@link ReadOnlyContractTest}) take
 * snapshots of, built through each implementation of the kit: bulk loads of the shapes a snapshot's
 * layout has edges at (empty, one key, {@code Long.MIN_VALUE} and {@code Long.MAX_VALUE} with values
 * at the extremes, runs of consecutive keys, random 64-bit keys, key counts around a 16-key leaf, a
 * full inner node of 17 leaves, two full levels of 289 leaves, an 8192-entry checksum block, and
 * 100,000 keys), and indexes shaped by the implementation's own updates (a random half removed,
 * everything removed, random inserts). {@code -Dbforest.kit.maxSize} caps the sizes (a device
 * structure's kit runs at 300 keys): a shape that only exists for its size is left out above it,
 * the others shrink to it.
 *
 * <p>A key-only structure stores no values: its shapes give every key the value 0, what the
 * structure itself answers.
 */
final class SnapshotShapes {
    /** The most keys a shape holds ({@code -Dbforest.kit.maxSize}, as the other suites read it). */
    static final int MAX_SIZE = Integer.getInteger("bforest.kit.maxSize", Integer.MAX_VALUE);
    static final long MIN = Long.MIN_VALUE;
    static final long MAX = Long.MAX_VALUE;

    private static final Map<String, Boolean> KEY_ONLY = new ConcurrentHashMap<>();

    private SnapshotShapes() {
    }

    /** An index a shape built, and the entries it must hold. */
    record Built(LongIndex index, TreeMap<Long, Long> model) {
    }

    /** Builds an index through {@code impl}; {@code keyOnly} says whether it stores values. */
    interface Builder {
        Built build(Impl impl, boolean keyOnly);
    }

    /** One shape: its name (the test's display name) and how to build it. */
    record Shape(String name, Builder builder) {
        Built build(Impl impl) {
            return builder.build(impl, keyOnly(impl));
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** The kit's implementations, with core's key-only BS-tree beside its BS-tree ({@link BatchContractTest#subjects()}). */
    static List<Impl> subjects() {
        return BatchContractTest.subjects();
    }

    /** Every subject with every shape: the arguments of the per-shape tests. */
    static Stream<Arguments> cases() {
        List<Shape> shapes = shapes();
        return subjects().stream().flatMap(impl -> shapes.stream().map(s -> Arguments.of(impl, s)));
    }

    /** Whether {@code impl}'s indexes store keys only (their kind says so). */
    static boolean keyOnly(Impl impl) {
        return KEY_ONLY.computeIfAbsent(impl.name(), n -> {
            LongIndex probe = impl.empty().get();
            try {
                return !probe.kind().storesValues();
            } finally {
                release(probe);
            }
        });
    }

    static void release(LongIndex index) {
        if (index instanceof NativeLongIndex n) {
            n.close();
        }
    }

    /** The shapes, in the order the tests run them. */
    static List<Shape> shapes() {
        List<Shape> s = new ArrayList<>();
        s.add(bulk("empty", new long[0]));
        s.add(bulk("one key", new long[] {42}));
        s.add(bulk("Long.MIN_VALUE only", new long[] {MIN}, new long[] {MAX}));
        s.add(bulk("Long.MAX_VALUE only", new long[] {MAX}, new long[] {MIN}));
        s.add(bulk("the extremes", new long[] {MIN, MIN + 1, -1, 0, 1, MAX - 1, MAX},
                new long[] {MAX, MIN, MIN + 1, -1, MAX - 1, 0, MIN}));
        s.add(bulk("runs and gaps, " + capped(1000), TestKeys.mixed(capped(1000), 0x5A17L)));
        s.add(bulk("consecutive keys, " + capped(5000), TestKeys.dense(capped(5000), -2500)));
        s.add(bulk("consecutive keys ending at Long.MAX_VALUE, " + capped(40),
                TestKeys.dense(capped(40), MAX - capped(40) + 1)));
        s.add(bulk("random 64-bit keys, " + capped(3000), random(capped(3000), 0x64L, false)));
        // a leaf is 16 entries, an inner node 17 children, a checksum block 8192 entries
        for (int n : new int[] {15, 16, 17, 272, 273, 4624, 4625, 8191, 8192, 8193, 100_000}) {
            if (n <= MAX_SIZE) {
                s.add(bulk("random keys, " + n, random(n, n, false)));
            }
        }
        // Long.MAX_VALUE lives in the header: n keys with it fill n - 1 slots of the data
        for (int n : new int[] {16, 17, 8193}) {
            if (n <= MAX_SIZE) {
                s.add(bulk(n + " random keys with Long.MAX_VALUE", random(n, 31L * n, true)));
            }
        }
        s.add(removed("a random half of " + capped(4000) + " removed", capped(4000), false));
        s.add(removed("all of " + capped(1000) + " removed one by one", capped(1000), true));
        s.add(inserted("random inserts, " + capped(3000), capped(3000)));
        return s;
    }

    static int capped(int n) {
        return Math.min(n, MAX_SIZE);
    }

    /** {@code n} distinct random keys in ascending order, {@code Long.MAX_VALUE} among them only if {@code withMax}. */
    static long[] random(int n, long seed, boolean withMax) {
        SplittableRandom random = new SplittableRandom(seed);
        Set<Long> set = new HashSet<>();
        if (withMax && n > 0) {
            set.add(MAX);
        }
        while (set.size() < n) {
            long k = random.nextLong();
            if (k != MAX) {
                set.add(k);
            }
        }
        long[] keys = set.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(keys);
        return keys;
    }

    /** The value the shapes give {@code key}: 0 in a key-only structure. */
    static long value(long key, int generation, boolean keyOnly) {
        return keyOnly ? 0 : TestKeys.valueFor(key, generation);
    }

    static Shape bulk(String name, long[] keys) {
        return new Shape(name, (impl, keyOnly) -> {
            long[] values = new long[keys.length];
            for (int i = 0; i < keys.length; i++) {
                values[i] = value(keys[i], 1, keyOnly);
            }
            return load(impl, keys, values);
        });
    }

    static Shape bulk(String name, long[] keys, long[] values) {
        return new Shape(name, (impl, keyOnly) -> load(impl, keys, keyOnly ? new long[keys.length] : values));
    }

    static Built load(Impl impl, long[] keys, long[] values) {
        TreeMap<Long, Long> model = new TreeMap<>();
        for (int i = 0; i < keys.length; i++) {
            model.put(keys[i], values[i]);
        }
        return new Built(impl.bulk().apply(keys.clone(), values.clone()), model);
    }

    /** Bulk-loads {@code n} keys (runs, gaps and the extremes), then removes half or all of them in random order. */
    static Shape removed(String name, int n, boolean all) {
        return new Shape(name, (impl, keyOnly) -> {
            long[] keys = TestKeys.mixed(n, 0xDE1L + n);
            long[] values = new long[n];
            for (int i = 0; i < n; i++) {
                values[i] = value(keys[i], 2, keyOnly);
            }
            Built b = load(impl, keys, values);
            long[] order = TestKeys.inOrder(keys, TestKeys.Order.RANDOM, 0xDE2L + n);
            for (int i = 0; i < (all ? n : n / 2); i++) {
                b.index().remove(order[i]);
                b.model().remove(order[i]);
            }
            return b;
        });
    }

    /**
     * {@code n} puts into an empty index: random 64-bit keys, keys of a narrow range (many of them
     * put twice, the second value replacing the first) and now and then an extreme.
     */
    static Shape inserted(String name, int n) {
        return new Shape(name, (impl, keyOnly) -> {
            Built b = new Built(impl.empty().get(), new TreeMap<>());
            SplittableRandom random = new SplittableRandom(0x1A5L + n);
            long[] extremes = {MIN, MIN + 1, MAX - 1, MAX, 0, -1};
            for (int i = 0; i < n; i++) {
                int pick = random.nextInt(20);
                long k = pick == 0 ? extremes[random.nextInt(extremes.length)]
                        : pick < 8 ? random.nextLong(-n, n) : random.nextLong();
                long v = value(k, i, keyOnly);
                b.index().put(k, v);
                b.model().put(k, v);
            }
            return b;
        });
    }
}
