package org.bforest.ignite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apache.ignite.Ignite;
import org.apache.ignite.Ignition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distributed index against {@code TreeMap}: three server nodes and a client node in this
 * JVM, random mixed operations through the {@link IgniteLongIndex} API, on a server's handle or
 * the client's (point operations and their batches,
 * neighbours, first and last, range counts and visits with every kind of bound, early stops,
 * clears), every answer compared, and at the end every node's trees compared with its cache
 * copies. The keys crowd a few partitions and leave most empty, so ranges cross partition
 * boundaries and neighbour queries cross empty partitions; the extremes are among them.
 *
 * <p>Seeded: a failure prints the seed; {@code -Dbforest.ignite.seed=S} replays it, and
 * {@code -Dbforest.ignite.ops=N} sets the number of operations ({@code --soak} runs 15 times as many).
 */
class IgniteLongIndexDifferentialTest {
    private static final int PARTITIONS = 64;
    /** 4,000 operations; 60,000 under {@code ./bforest test --soak}. */
    private static final int OPS = Integer.getInteger("bforest.ignite.ops",
            Boolean.getBoolean("bforest.soak") ? 60_000 : 4_000);
    private static final java.util.concurrent.atomic.AtomicLong SEED = new java.util.concurrent.atomic.AtomicLong();

    @AfterAll
    static void stopEverything() {
        Ignition.stopAll(true);
    }

    @Test
    @Timeout(value = 1_800, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void agreesWithTreeMap(@TempDir Path work) throws Exception {
        long seed = Long.getLong("bforest.ignite.seed", System.nanoTime());
        SEED.set(seed);
        try (TestCluster cluster = TestCluster.start(work, "diff", 3);
             Ignite client = Ignition.start(LoopbackNodes.configuration("diff-client", work, cluster.discoveryPort,
                     cluster.communicationPort).setClientMode(true));
             IgniteLongIndex onServer = IgniteLongIndex.bulkLoad(cluster.node(0),
                     IgniteLongIndex.cacheConfiguration("diff", RangePartitions.even(PARTITIONS)), firstKeys(seed),
                     firstValues(seed));
             IgniteLongIndex onClient = IgniteLongIndex.open(client, "diff")) {
            try {
                assertEquals(List.of(), onClient.verify(), "every node's trees equal its cache copies after the bulk load");
                run(new Handles(onServer, onClient), new SplittableRandom(seed));
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("IgniteLongIndex differs from TreeMap; replay with -Dbforest.ignite.seed="
                        + seed + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * Two handles on one index: on a server node, which reads the partitions it holds from its own
     * trees, and on a client node, which holds none and asks the cluster for everything. Each
     * operation goes through one of them at random, so every answer also checks that a write
     * through one is seen through the other.
     */
    private record Handles(IgniteLongIndex onServer, IgniteLongIndex onClient) {
        IgniteLongIndex any(SplittableRandom rnd) {
            return rnd.nextBoolean() ? onServer : onClient;
        }
    }

    /**
     * Batches that span every partition: each of {@code putAll}, {@code getAll} and
     * {@code removeAll} gets keys in all 64 partitions (each partition's bounds among them), and
     * a walk of the whole range then finds them in order.
     */
    @Test
    @Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void batchesSpanningEveryPartition(@TempDir Path work) throws Exception {
        RangePartitions ranges = RangePartitions.even(PARTITIONS);
        try (TestCluster cluster = TestCluster.start(work, "span", 3);
             IgniteLongIndex index = IgniteLongIndex.create(cluster.node(1), "span", ranges)) {
            TreeMap<Long, Long> model = new TreeMap<>();
            SplittableRandom rnd = new SplittableRandom(7);
            List<Long> keys = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                keys.add(ranges.lowest(p));
                keys.add(ranges.highest(p));
                keys.add(ranges.lowest(p) + 1 + rnd.nextLong(Math.max(1, ranges.highest(p) - ranges.lowest(p) - 1)));
            }
            long[] k = keys.stream().mapToLong(Long::longValue).toArray();
            long[] v = new long[k.length];
            for (int i = 0; i < k.length; i++) {
                v[i] = rnd.nextLong();
                model.put(k[i], v[i]);
            }
            index.putAll(k, v);
            assertEquals(model.size(), index.size(), "size after a putAll over every partition");
            long[] got = new long[k.length];
            index.getAll(k, got, ABSENT);
            for (int i = 0; i < k.length; i++) {
                assertEquals(model.get(k[i]), got[i], "getAll of " + k[i]);
            }
            List<Long> walked = new ArrayList<>();
            index.forEach((key, value) -> walked.add(key));
            assertEquals(new ArrayList<>(model.keySet()), walked, "a walk over every partition, in key order");
            assertEquals(model.size(), index.rangeCount(Long.MIN_VALUE, true, Long.MAX_VALUE, true));
            long[] every3rd = new long[k.length / 3];
            for (int i = 0; i < every3rd.length; i++) {
                every3rd[i] = k[3 * i];
                model.remove(k[3 * i]);
            }
            assertEquals(every3rd.length, index.removeAll(every3rd), "removeAll over every partition");
            assertEquals(model.firstKey(), index.firstKey());
            assertEquals(model.lastKey(), index.lastKey());
            assertEquals(model.size(), index.size());
            assertEquals(List.of(), index.verify());
        }
    }

    /** What the bulk load puts: half the key pool, with values from the seed. */
    private static long[] firstKeys(long seed) {
        long[] pool = keyPool(new SplittableRandom(seed));
        long[] half = new long[pool.length / 2];
        for (int i = 0; i < half.length; i++) {
            half[i] = pool[2 * i];
        }
        return half;
    }

    private static long[] firstValues(long seed) {
        long[] v = firstKeys(seed);
        for (int i = 0; i < v.length; i++) {
            v[i] = ~v[i] * 31;
        }
        return v;
    }

    private static void run(Handles handles, SplittableRandom rnd) {
        TreeMap<Long, Long> model = new TreeMap<>();
        long[] pool = keyPool(rnd);
        long[] loadedKeys = firstKeys(SEED.get());
        long[] loadedValues = firstValues(SEED.get());
        for (int i = 0; i < loadedKeys.length; i++) {
            model.put(loadedKeys[i], loadedValues[i]);
        }
        for (int op = 0; op < OPS; op++) {
            IgniteLongIndex index = handles.any(rnd);
            int roll = rnd.nextInt(100);
            long k = pool[rnd.nextInt(pool.length)];
            String what = "op " + op + ": ";
            if (roll < 20) {
                long v = rnd.nextLong();
                Long prev = model.put(k, v);
                assertEquals(prev == null ? index.defaultReturnValue() : prev, index.put(k, v), what + "put " + k);
            } else if (roll < 28) {
                Long prev = model.remove(k);
                assertEquals(prev != null, index.delete(k), what + "delete " + k);
            } else if (roll < 36) {
                assertEquals(model.getOrDefault(k, -7L), index.get(k, -7), what + "get " + k);
                assertEquals(model.containsKey(k), index.containsKey(k), what + "containsKey " + k);
            } else if (roll < 40) {
                batchPut(index, model, pool, rnd, what);
            } else if (roll < 43) {
                long[] keys = pick(pool, rnd, 1 + rnd.nextInt(40));
                long removed = 0;
                for (long key : keys) {
                    removed += model.remove(key) != null ? 1 : 0;
                }
                assertEquals(removed, index.removeAll(keys), what + "removeAll");
            } else if (roll < 47) {
                long[] keys = pick(pool, rnd, 1 + rnd.nextInt(40));
                long[] values = new long[keys.length];
                index.getAll(keys, values, -3);
                for (int i = 0; i < keys.length; i++) {
                    assertEquals(model.getOrDefault(keys[i], -3L), values[i], what + "getAll key " + keys[i]);
                }
            } else if (roll < 67) {
                long q = rnd.nextBoolean() ? k : rnd.nextLong();
                assertEquals(orAbsent(model.ceilingKey(q)), index.ceilingKey(q, ABSENT), what + "ceilingKey " + q);
                assertEquals(orAbsent(model.higherKey(q)), index.higherKey(q, ABSENT), what + "higherKey " + q);
                assertEquals(orAbsent(model.floorKey(q)), index.floorKey(q, ABSENT), what + "floorKey " + q);
                assertEquals(orAbsent(model.lowerKey(q)), index.lowerKey(q, ABSENT), what + "lowerKey " + q);
            } else if (roll < 70) {
                if (model.isEmpty()) {
                    expectNoSuchElement(index::firstKey, what + "firstKey of an empty index");
                    expectNoSuchElement(index::lastKey, what + "lastKey of an empty index");
                } else {
                    assertEquals(model.firstKey(), index.firstKey(), what + "firstKey");
                    assertEquals(model.lastKey(), index.lastKey(), what + "lastKey");
                }
            } else if (roll < 95) {
                range(index, model, pool, rnd, what);
            } else if (roll < 99) {
                assertEquals(model.size(), index.size(), what + "size");
            } else if (rnd.nextInt(4) == 0) {
                model.clear();
                index.clear();
                assertEquals(0, index.size(), what + "size after clear");
            }
        }
        IgniteLongIndex index = handles.onClient();
        assertEquals(List.of(), index.verify(), "every node's trees equal its cache copies");
        List<Long> all = new ArrayList<>();
        index.forEach((key, value) -> {
            assertEquals(model.get(key), value, "forEach value of " + key);
            all.add(key);
        });
        assertEquals(new ArrayList<>(model.keySet()), all, "forEach walks every key in order");
    }

    private static final long ABSENT = 0x5EED;

    private static long orAbsent(Long k) {
        return k == null ? ABSENT : k;
    }

    private static void expectNoSuchElement(Runnable r, String what) {
        try {
            r.run();
            fail(what + " did not throw");
        } catch (NoSuchElementException expected) {
            // right
        }
    }

    private static void batchPut(IgniteLongIndex index, TreeMap<Long, Long> model, long[] pool, SplittableRandom rnd,
                                 String what) {
        long[] keys = pick(pool, rnd, 1 + rnd.nextInt(rnd.nextInt(10) == 0 ? 600 : 40));
        long[] values = new long[keys.length];
        for (int i = 0; i < keys.length; i++) {
            values[i] = rnd.nextLong();
            model.put(keys[i], values[i]);
        }
        index.putAll(keys, values);
        for (int i = 0; i < Math.min(5, keys.length); i++) {
            assertEquals(model.get(keys[i]), index.get(keys[i], 0), what + "get after putAll " + keys[i]);
        }
    }

    private static void range(IgniteLongIndex index, TreeMap<Long, Long> model, long[] pool, SplittableRandom rnd,
                              String what) {
        long a = rnd.nextInt(8) == 0 ? rnd.nextLong() : pool[rnd.nextInt(pool.length)];
        long b = rnd.nextInt(8) == 0 ? rnd.nextLong() : pool[rnd.nextInt(pool.length)];
        if (rnd.nextInt(6) != 0 && a > b) {
            long t = a;
            a = b;
            b = t;
        }
        boolean ai = rnd.nextBoolean();
        boolean bi = rnd.nextBoolean();
        Map<Long, Long> want = a > b || (a == b && !(ai && bi)) ? Map.of() : model.subMap(a, ai, b, bi);
        String r = (ai ? "[" : "(") + a + ", " + b + (bi ? "]" : ")");
        assertEquals(want.size(), index.rangeCount(a, ai, b, bi), what + "rangeCount " + r);
        int stopAfter = rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(Math.max(1, want.size())) : Integer.MAX_VALUE;
        List<long[]> got = new ArrayList<>();
        long visited = index.rangeVisit(a, ai, b, bi, (key, value) -> {
            got.add(new long[] {key, value});
            return got.size() < stopAfter;
        });
        int expect = Math.min(want.size(), stopAfter);
        assertEquals(expect, visited, what + "rangeVisit count " + r);
        int i = 0;
        for (Map.Entry<Long, Long> e : want.entrySet()) {
            if (i == expect) {
                break;
            }
            assertEquals(e.getKey(), got.get(i)[0], what + "rangeVisit key #" + i + " of " + r);
            assertEquals(e.getValue(), got.get(i)[1], what + "rangeVisit value #" + i + " of " + r);
            i++;
        }
    }

    private static long[] pick(long[] pool, SplittableRandom rnd, int n) {
        long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = pool[rnd.nextInt(pool.length)];
        }
        return keys;
    }

    /**
     * Keys that fill a handful of the 64 partitions and leave the rest empty: runs of neighbours
     * around 0, around a split point, near both extremes (the extremes too), and a few lone
     * random keys.
     */
    private static long[] keyPool(SplittableRandom rnd) {
        RangePartitions ranges = RangePartitions.even(PARTITIONS);
        List<Long> keys = new ArrayList<>();
        for (long k = -300; k < 300; k++) {
            keys.add(k);
        }
        long split = ranges.lowest(40);
        for (long k = split - 200; k < split + 200; k++) {
            keys.add(k);
        }
        for (int i = 0; i < 100; i++) {
            keys.add(Long.MIN_VALUE + i);
            keys.add(Long.MAX_VALUE - i);
        }
        for (int i = 0; i < 20; i++) {
            keys.add(rnd.nextLong());
        }
        return keys.stream().mapToLong(Long::longValue).toArray();
    }
}
