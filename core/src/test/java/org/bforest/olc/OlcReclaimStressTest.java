package org.bforest.olc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.bforest.LongCursor;
import org.junit.jupiter.api.Test;

/**
 * Deletes that give memory back, under threads: queues drained by several threads at once
 * ({@code firstKey()} then the exact {@code remove(key, previous)}: each key taken exactly once,
 * with its value), a queue fed by one thread and drained by two, and windows slid by two threads
 * at once while a third walks the tree (neighbours, first and last key, cursors both ways), and
 * neighbour queries that cross from one leaf to the next while a writer moves their answer
 * between the two leaves (an answer that mixes two instants shows). After
 * each: the checker (the chain, fences, free lists, mirror, no empty leaf but those whose unlink
 * was put off), the exact contents, and bounded storage. {@code -Dbforest.soak=true} runs ten times
 * the keys.
 */
class OlcReclaimStressTest {
    private static final int SCALE = Boolean.getBoolean("bforest.soak") ? 10 : 1;

    interface Body {
        void run() throws Exception;
    }

    /** Runs the bodies on their own threads, released at once; rethrows the first failure. */
    static void runAll(List<Body> bodies) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (Body body : bodies) {
            Thread th = new Thread(() -> {
                try {
                    start.await();
                    body.run();
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            th.start();
            threads.add(th);
        }
        start.countDown();
        for (Thread th : threads) {
            th.join();
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get().toString(), failure.get());
        }
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    /** Takes the least key with firstKey() and the exact remove; returns it, or Long.MIN_VALUE when empty. */
    private static long pollFirst(OlcBSTree t, long[] prev, AtomicIntegerArray taken, int offset) {
        for (;;) {
            long k;
            try {
                k = t.firstKey();
            } catch (NoSuchElementException e) {
                return Long.MIN_VALUE;
            }
            if (t.remove(k, prev)) {
                check(prev[0] == ~k, "removed " + k + " with value " + prev[0]);
                int was = taken.getAndIncrement((int) (k - offset));
                check(was == 0, "key " + k + " taken twice");
                return k;
            }
            // Another thread took it between the two calls: ask again.
        }
    }

    @Test
    void threadsDrainingOneQueueTakeEachKeyOnce() throws Exception {
        int n = 400_000 * SCALE;
        long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = i;
        }
        long[] values = new long[n];
        for (int i = 0; i < n; i++) {
            values[i] = ~keys[i];
        }
        OlcBSTree t = (OlcBSTree) OlcTrees.bulkLoad(keys, values);
        long bytes = t.memoryBytes();
        AtomicIntegerArray taken = new AtomicIntegerArray(n);
        List<Body> bodies = new ArrayList<>();
        for (int th = 0; th < 3; th++) {
            bodies.add(() -> {
                long[] prev = new long[1];
                long last = Long.MIN_VALUE;
                for (long k; (k = pollFirst(t, prev, taken, 0)) != Long.MIN_VALUE;) {
                    check(k > last, "a thread took " + k + " after " + last + ": firstKey went back");
                    last = k;
                }
            });
        }
        runAll(bodies);
        t.checkInvariants();
        for (int i = 0; i < n; i++) {
            assertEquals(1, taken.get(i), "key " + i + " taken");
        }
        assertEquals(0, t.size());
        long ids = t.leafCount.get() + (long) t.innerCount.get();
        assertTrue(t.memoryBytes() <= bytes + 8 * ids + 1024, "draining took " + (t.memoryBytes() - bytes) + " bytes");
    }

    @Test
    void aQueueFedByOneThreadAndDrainedByTwo() throws Exception {
        int n = 600_000 * SCALE;
        OlcBSTree t = new OlcBSTree();
        AtomicIntegerArray taken = new AtomicIntegerArray(n);
        AtomicBoolean fed = new AtomicBoolean();
        List<Body> bodies = new ArrayList<>();
        bodies.add(() -> {
            for (int i = 0; i < n; i++) {
                t.put(i, ~(long) i);
                if ((i & 1023) == 0) {
                    // Keep the queue short, so that the storage the test bounds is the slide's.
                    while (t.size() > 4_000) {
                        Thread.onSpinWait();
                    }
                }
            }
            fed.set(true);
        });
        for (int th = 0; th < 2; th++) {
            bodies.add(() -> {
                long[] prev = new long[1];
                for (;;) {
                    boolean done = fed.get();
                    if (pollFirst(t, prev, taken, 0) == Long.MIN_VALUE && done) {
                        return;
                    }
                }
            });
        }
        runAll(bodies);
        t.checkInvariants();
        for (int i = 0; i < n; i++) {
            assertEquals(1, taken.get(i), "key " + i + " taken");
        }
        assertEquals(0, t.size());
        // The queue never held more than about 5,000 keys: 5,000 / 8 leaves, with slack for the
        // free list and put-off unlinks, not the 600,000 / 9 an unreclaimed tree needs.
        assertTrue(t.leafCount.get() < 4_000, "leaf ids handed out: " + t.leafCount.get());
    }

    @Test
    void windowsSlidByTwoThreadsWhileAThirdWalks() throws Exception {
        int window = 1_000;
        int slide = 500_000 * SCALE;
        OlcBSTree t = new OlcBSTree();
        AtomicBoolean done = new AtomicBoolean();
        // How many writers have put their first key: until both have, the least key may still go
        // down (key 1 can be in before key 0); from then on each writer's least key only grows.
        AtomicInteger started = new AtomicInteger();
        List<Body> bodies = new ArrayList<>();
        for (int th = 0; th < 2; th++) {
            int me = th;
            bodies.add(() -> {
                try {
                    long[] prev = new long[1];
                    for (long i = 0; i < slide; i++) {
                        long k = 2 * i + me;
                        check(!t.put(k, ~k, prev), "thread " + me + ": " + k + " was there");
                        if (i == 0) {
                            started.incrementAndGet();
                        }
                        if (i >= window) {
                            long old = k - 2L * window;
                            check(t.remove(old, prev) && prev[0] == ~old, "thread " + me + ": remove " + old);
                        }
                    }
                } finally {
                    done.set(true);
                }
            });
        }
        bodies.add(() -> {
            long seen = 0;
            while (!done.get()) {
                long first;
                long last;
                boolean bothStarted = started.get() == 2; // read before the keys
                try {
                    first = t.firstKey();
                    last = t.lastKey();
                } catch (NoSuchElementException e) {
                    continue;
                }
                check(first <= last, "firstKey " + first + " above lastKey " + last);
                if (bothStarted) {
                    check(first >= seen, "firstKey went back from " + seen + " to " + first);
                    seen = Math.max(seen, first);
                }
                long c = t.ceilingKey(first + 500, -1);
                check(c == -1 || c >= first + 500, "ceiling " + c);
                long f = t.floorKey(last - 500, Long.MIN_VALUE);
                check(f == Long.MIN_VALUE || f <= last - 500, "floor " + f);
                LongCursor cur = t.cursor();
                long prevKey = Long.MIN_VALUE;
                int steps = 0;
                for (boolean ok = cur.seekFirst(); ok && steps < 3_000; ok = cur.next(), steps++) {
                    check(cur.key() > prevKey, "cursor went from " + prevKey + " to " + cur.key());
                    prevKey = cur.key();
                }
                prevKey = Long.MAX_VALUE;
                steps = 0;
                for (boolean ok = cur.seekLast(); ok && steps < 3_000; ok = cur.previous(), steps++) {
                    check(cur.key() < prevKey, "cursor went back from " + prevKey + " to " + cur.key());
                    prevKey = cur.key();
                }
            }
        });
        runAll(bodies);
        t.checkInvariants();
        assertEquals(2L * window, t.size());
        for (int me = 0; me < 2; me++) {
            for (long i = slide - window; i < slide; i++) {
                long k = 2 * i + me;
                assertEquals(~k, t.get(k, 0), "key " + k);
            }
        }
        assertEquals(2L * (slide - window), t.firstKey());
        assertTrue(t.leafCount.get() < 2_000, "leaf ids handed out: " + t.leafCount.get());
        assertTrue(t.memoryBytes() < 2 << 20, "memoryBytes " + t.memoryBytes());
    }

    /**
     * A ceiling that crosses from leaf A to leaf B, and a floor that crosses from D to C, while a
     * writer cycles: put a key into the crossed leaf where the query would find it, remove the
     * answer from the other leaf, put it back, remove the first key. At every instant one of the
     * two keys is there and is the answer; a walk that read the first leaf before the put and the
     * second after the remove (and did not validate the first again at the end) answers a third
     * key, which never was the answer.
     */
    @Test
    void neighbourAnswersAcrossTwoLeavesHoldAtOneInstant() throws Exception {
        long[] keys = new long[48];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = 10L * i; // four leaves: A 0..110, B 120..230, C 240..350, D 360..470
        }
        OlcBSTree t = (OlcBSTree) OlcTrees.bulkLoad(keys, null);
        t.delete(360); // so that floor(365) crosses from D to C
        int rounds = 300_000 * SCALE;
        AtomicBoolean done = new AtomicBoolean();
        List<Body> bodies = new ArrayList<>();
        bodies.add(() -> {
            try {
                for (int i = 0; i < rounds; i++) {
                    t.put(116, 1); // ceiling(115): 120 in B, or 116 in A
                    t.put(364, 1); // floor(365): 350 in C, or 364 in D
                    t.delete(120);
                    t.delete(350);
                    t.put(120, 1);
                    t.put(350, 1);
                    t.delete(116);
                    t.delete(364);
                }
            } finally {
                done.set(true);
            }
        });
        bodies.add(() -> {
            while (!done.get()) {
                long c = t.ceilingKey(115, -1);
                check(c == 116 || c == 120, "ceilingKey(115) = " + c + ": 116 and 120 were never both missing");
                long f = t.floorKey(365, -1);
                check(f == 350 || f == 364, "floorKey(365) = " + f + ": 350 and 364 were never both missing");
            }
        });
        runAll(bodies);
        t.checkInvariants();
        assertEquals(47, t.size());
    }
}
