package org.bforest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The concurrent BS-tree's {@link ConcurrentNavigableMap} view under real concurrency: two threads
 * (the machine has two cores) racing on the same keys, each race bounded in count and time. What
 * each test checks could not hold if the view inferred an answer from the size or read a key
 * twice: a poll that hands an entry to both threads, a put of a new key that answers a value, a
 * neighbour query that throws while a key is present.
 */
class ConcurrentViewTest {
    private static final int THREADS = 2;
    private ExecutorService pool;

    @BeforeEach
    void start() {
        pool = Executors.newFixedThreadPool(THREADS);
    }

    @AfterEach
    void stop() throws InterruptedException {
        pool.shutdownNow();
        assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS), "workers did not stop");
    }

    /** Runs {@code work(t)} on each of the threads at once and returns their results. */
    private <T> List<T> race(IntFunction<T> work) throws Exception {
        CyclicBarrier go = new CyclicBarrier(THREADS);
        List<Future<T>> futures = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int id = t;
            Callable<T> task = () -> {
                go.await(30, TimeUnit.SECONDS);
                return work.apply(id);
            };
            futures.add(pool.submit(task));
        }
        List<T> results = new ArrayList<>();
        for (Future<T> f : futures) {
            results.add(f.get(120, TimeUnit.SECONDS));
        }
        return results;
    }

    @FunctionalInterface
    private interface IntFunction<T> {
        T apply(int t) throws Exception;
    }

    @Test
    void theViewAndItsSubViewsAreConcurrentNavigableMaps() {
        ConcurrentLongIndex index = Indexes.concurrentBsTree();
        ConcurrentNavigableMap<Long, Long> view = index.asNavigableMap();
        assertInstanceOf(ConcurrentNavigableMap.class, view.subMap(1L, 5L));
        assertInstanceOf(ConcurrentNavigableMap.class, view.headMap(5L, true));
        assertInstanceOf(ConcurrentNavigableMap.class, view.tailMap(5L));
        assertInstanceOf(ConcurrentNavigableMap.class, view.descendingMap().tailMap(3L, false));
    }

    @Test
    void twoThreadsPollingAQueueTakeEveryEntryExactlyOnce() throws Exception {
        int n = 200_000;
        for (int round = 0; round < 3; round++) {
            ConcurrentLongIndex index = Indexes.concurrentBsTree();
            for (long k = 0; k < n; k++) {
                index.put(k, k * 3 + 1);
            }
            ConcurrentNavigableMap<Long, Long> queue = index.asNavigableMap();
            boolean last = round == 1;
            List<long[]> taken = race(t -> {
                long[] got = new long[n];
                int m = 0;
                for (Map.Entry<Long, Long> e; (e = last ? queue.pollLastEntry() : queue.pollFirstEntry()) != null; ) {
                    assertEquals(e.getKey() * 3 + 1, e.getValue(), "the value polled with the key");
                    got[m++] = e.getKey();
                }
                return java.util.Arrays.copyOf(got, m);
            });
            boolean[] seen = new boolean[n];
            int total = 0;
            for (long[] got : taken) {
                for (long k : got) {
                    assertTrue(!seen[(int) k], "key " + k + " handed to two pollers (round " + round + ")");
                    seen[(int) k] = true;
                    total++;
                }
            }
            assertEquals(n, total, "every entry taken (round " + round + ")");
            assertTrue(queue.isEmpty());
            assertEquals(0, index.size());
            ((org.bforest.spi.InvariantCheckable) index).checkInvariants();
        }
    }

    @Test
    void putAndRemoveAnswerTheTruePreviousValue() throws Exception {
        ConcurrentLongIndex index = Indexes.concurrentBsTree();
        ConcurrentNavigableMap<Long, Long> view = index.asNavigableMap();
        int keys = 64;
        int steps = 400_000;
        // Per thread and key: how many of its puts found the key absent and how many of its removes found it present.
        List<long[]> counts = race(t -> {
            long[] net = new long[keys];
            java.util.SplittableRandom r = new java.util.SplittableRandom(t * 7919L + 1);
            for (int i = 0; i < steps; i++) {
                int k = r.nextInt(keys);
                if (r.nextBoolean()) {
                    Long old = view.put((long) k, (long) (k * 1000 + t));
                    if (old == null) {
                        net[k]++;
                    } else {
                        assertEquals(k, old / 1000, "a put answered another key's value");
                    }
                } else {
                    Long old = view.remove((long) k);
                    if (old != null) {
                        assertEquals(k, old / 1000, "a remove answered another key's value");
                        net[k]--;
                    }
                }
            }
            return net;
        });
        for (int k = 0; k < keys; k++) {
            long net = counts.get(0)[k] + counts.get(1)[k];
            assertEquals(view.containsKey((long) k) ? 1 : 0, net,
                    "inserts minus removes of key " + k + " must be its presence at the end");
        }
        ((org.bforest.spi.InvariantCheckable) index).checkInvariants();
    }

    @Test
    void neighbourQueriesNeverMissAKeyThatStaysPresent() throws Exception {
        ConcurrentLongIndex index = Indexes.concurrentBsTree();
        ConcurrentNavigableMap<Long, Long> view = index.asNavigableMap();
        view.put(10L, 1L);
        AtomicBoolean done = new AtomicBoolean();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        race(t -> {
            if (t == 0) {
                // The toggler: keys at both ends come and go around the key that stays.
                for (int i = 0; i < 2_000_000 && System.nanoTime() < deadline; i++) {
                    long k = (i & 1) == 0 ? 5 : Long.MAX_VALUE;
                    view.put(k, 2L);
                    view.remove(k);
                }
                done.set(true);
                return null;
            }
            for (int i = 0; !done.get() && i < 5_000_000; i++) {
                assertNotNull(view.ceilingKey(Long.MIN_VALUE), "ceilingKey(MIN) while 10 is present");
                assertNotNull(view.floorKey(Long.MAX_VALUE), "floorKey(MAX) while 10 is present");
                assertTrue(view.firstKey() <= 10, "firstKey while 10 is present");
                assertTrue(view.lastKey() >= 10, "lastKey while 10 is present");
                assertNotNull(view.firstEntry(), "firstEntry while 10 is present");
                assertNotNull(view.lastEntry(), "lastEntry while 10 is present");
                assertTrue(!view.isEmpty(), "isEmpty while 10 is present");
            }
            return null;
        });
    }

    @Test
    void conditionalUpdatesAreAtomic() throws Exception {
        ConcurrentLongIndex index = Indexes.concurrentBsTree();
        ConcurrentNavigableMap<Long, Long> view = index.asNavigableMap();
        int keys = 2_000;
        // putIfAbsent: exactly one thread wins each key, and the loser sees the winner's value.
        List<long[]> won = race(t -> {
            long[] mine = new long[keys];
            for (int k = 0; k < keys; k++) {
                Long old = view.putIfAbsent((long) k, (long) t);
                mine[k] = old == null ? 1 : 0;
                if (old != null) {
                    assertEquals(1 - t, old, "the loser sees the winner's value");
                }
            }
            return mine;
        });
        for (int k = 0; k < keys; k++) {
            assertEquals(1, won.get(0)[k] + won.get(1)[k], "one winner for key " + k);
        }
        // merge (ConcurrentMap's loop over replace(key, old, new)): no increment is lost.
        int adds = 100_000;
        race(t -> {
            for (int i = 0; i < adds; i++) {
                view.merge((long) (i % 8), 1L, Long::sum);
            }
            return null;
        });
        long sum = 0;
        for (int k = 0; k < 8; k++) {
            long start = won.get(0)[k] == 1 ? 0 : 1;   // the putIfAbsent winner's own value
            sum += view.get((long) k) - start;
        }
        assertEquals(2L * adds, sum, "every merge counted once");
        // remove(key, value): of two threads removing the same entries, each entry goes once.
        List<Long> removed = race(t -> {
            long n = 0;
            for (long k = 8; k < keys; k++) {
                n += view.remove(k, view.getOrDefault(k, -1L)) ? 1 : 0;
            }
            return n;
        });
        assertEquals(keys - 8, removed.get(0) + removed.get(1), "each entry removed once");
        ((org.bforest.spi.InvariantCheckable) index).checkInvariants();
    }
}
