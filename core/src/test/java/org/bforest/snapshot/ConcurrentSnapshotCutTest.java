package org.bforest.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.bforest.ConcurrentLongIndex;
import org.bforest.IndexKind;
import org.bforest.Indexes;
import org.bforest.LongIndex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The concurrent BS-tree ({@link Indexes#concurrentBsTree}) snapshotted while writers run: the
 * loaded snapshot must be a weakly consistent cut, as {@link ConcurrentLongIndex} promises.
 *
 * <p>Three writers each own a disjoint range of 100,000 keys and run a seeded sequence of puts and
 * removes on it (half each, so about half the keys are present): the first at full speed, so that
 * most of its keys change while a snapshot runs, the others in short bursts, so that most of
 * theirs do not; op {@code i} of writer {@code w}
 * is a pure function of the seed, {@code w} and {@code i}, and a put writes the value
 * {@code i << 2 | w}, so every value in a snapshot names the op that wrote it. After each op a
 * writer publishes how many it has completed. The snapshot thread reads those counts, {@code c[w]}
 * before the snapshot call and {@code e[w]} after it returns. Ops {@code 0 .. c[w]-1} completed
 * before the call; an op from {@code c[w]} on may have been running at the call; op {@code e[w]}
 * may have been running at the return, and no later op had started. So, for every key, its value
 * in the snapshot, or its absence, must be
 * <ul>
 *   <li>its state at the call: the initial state replayed through ops {@code 0 .. c[w]-1}, or</li>
 *   <li>a state that one of ops {@code c[w] .. e[w]} (completed during the call, or in flight)
 *       gave it: the value of a put of that key, or absence after a remove of it.</li>
 * </ul>
 * A key that none of those ops touches is therefore exactly as it was. Each snapshot is checked
 * this way; a last one, taken with the writers stopped, must equal the replayed state exactly.
 * About two seconds of rounds by default, a minute under {@code -Dbforest.soak=true}; the seed
 * ({@code -Dbforest.seed}) is in every failure message.
 */
class ConcurrentSnapshotCutTest {
    private static final long SEED = SnapshotFiles.seed(0xC07_2026L);
    private static final int WRITERS = 3;
    private static final int RANGE = 100_000;
    private static final int KEYS = WRITERS * RANGE;
    private static final long ABSENT = Long.MAX_VALUE;
    private static final long RUN_NANOS = TimeUnit.SECONDS.toNanos(SnapshotFiles.soak() ? 60 : 2);
    /** Each writer's completed-op count, 16 longs apart so that writers do not share a cache line. */
    private static final int STRIDE = 16;

    @TempDir
    Path dir;

    private static long key(int idx) {
        return 7L * idx - 1_000_000;
    }

    /** The key's index in {@code 0 .. KEYS-1}, or -1 for a key no writer writes. */
    private static int idx(long key) {
        long d = key + 1_000_000;
        return d % 7 == 0 && d >= 0 && d / 7 < KEYS ? (int) (d / 7) : -1;
    }

    private static long initial(int idx) {
        return Long.MIN_VALUE + idx;
    }

    /** Op {@code i} of writer {@code w}: the key's index, negative ({@code ~idx}) for a remove. */
    private static int op(int w, long i) {
        long z = SEED + (w + 1) * 0x9E3779B97F4A7C15L + i * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z ^= z >>> 31;
        int idx = w * RANGE + (int) ((z & 0xFFFF_FFFFL) % RANGE);
        return z < 0 ? ~idx : idx;
    }

    private static long value(int w, long i) {
        return i << 2 | w;
    }

    @Test
    void snapshotIsAWeaklyConsistentCut() throws Exception {
        long[] k = new long[KEYS / 2];
        long[] v = new long[KEYS / 2];
        long[] state = new long[KEYS];
        for (int idx = 0; idx < KEYS; idx++) {
            state[idx] = idx % 2 == 0 ? initial(idx) : ABSENT;
            if (idx % 2 == 0) {
                k[idx / 2] = key(idx);
                v[idx / 2] = initial(idx);
            }
        }
        ConcurrentLongIndex index = Indexes.concurrentBsTree(k, v);
        AtomicLongArray done = new AtomicLongArray(WRITERS * STRIDE);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> writers = new ArrayList<>();
        AtomicBoolean stop = new AtomicBoolean();
        for (int w = 0; w < WRITERS; w++) {
            int me = w;
            writers.add(Thread.ofPlatform().name("writer-" + w).start(() -> {
                try {
                    for (long i = 0; !stop.get(); i++) {
                        int op = op(me, i);
                        if (op < 0) {
                            index.remove(key(~op));
                        } else {
                            index.put(key(op), value(me, i));
                        }
                        done.set(me * STRIDE, i + 1);
                        if (me > 0 && (i & 15) == 15) {
                            LockSupport.parkNanos(100_000);
                        }
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            }));
        }
        Path file = dir.resolve("concurrent.snap");
        long[] replayed = new long[WRITERS];
        long start = System.nanoTime();
        int rounds = 0;
        long windowOps = 0;
        long changedInWindow = 0;
        try {
            while (rounds < 3 || System.nanoTime() - start < RUN_NANOS) {
                long[] c = counts(done);
                index.snapshot(file);
                long[] e = counts(done);
                LongIndex back = Indexes.load(file);
                replay(state, replayed, c);
                String what = "seed " + SEED + " round " + rounds;
                changedInWindow += check(back, state, c, e, what);
                for (int w = 0; w < WRITERS; w++) {
                    windowOps += e[w] - c[w];
                }
                rounds++;
                if (failure.get() != null) {
                    break;
                }
            }
        } finally {
            stop.set(true);
            for (Thread t : writers) {
                t.join();
            }
        }
        if (failure.get() != null) {
            throw new AssertionError("a writer failed", failure.get());
        }
        assertEquals(IndexKind.Family.CONCURRENT_BS_TREE, Indexes.snapshotInfo(file).kind().family());
        // quiescent: the snapshot is exactly the replayed state
        long[] all = counts(done);
        index.snapshot(file);
        replay(state, replayed, all);
        check(Indexes.load(file), state, all, all, "seed " + SEED + " with the writers stopped");
        LongIndex last = Indexes.load(file);
        long present = 0;
        for (long s : state) {
            present += s == ABSENT ? 0 : 1;
        }
        assertEquals(present, last.size(), "seed " + SEED + ": the stopped tree's snapshot holds every present key");
        System.out.printf("concurrent snapshots (seed %d): %d rounds in %d ms, %d ops while snapshots ran, %d keys caught"
                + " changed, %d ops in all%n", SEED, rounds, (System.nanoTime() - start) / 1_000_000, windowOps,
                changedInWindow, all[0] + all[1] + all[2]);
        assertTrue(windowOps > 0, "the writers ran during the snapshots");
    }

    private static long[] counts(AtomicLongArray done) {
        long[] c = new long[WRITERS];
        for (int w = 0; w < WRITERS; w++) {
            c[w] = done.get(w * STRIDE);
        }
        return c;
    }

    /** Applies ops {@code replayed[w] .. upTo[w]-1} of every writer to {@code state}. */
    private static void replay(long[] state, long[] replayed, long[] upTo) {
        for (int w = 0; w < WRITERS; w++) {
            for (long i = replayed[w]; i < upTo[w]; i++) {
                int op = op(w, i);
                if (op < 0) {
                    state[~op] = ABSENT;
                } else {
                    state[op] = value(w, i);
                }
            }
            replayed[w] = upTo[w];
        }
    }

    /**
     * Checks the cut described in the class comment; {@code state} is the state at the call (ops
     * before {@code c}). Returns how many keys the snapshot holds in a state other than that one.
     */
    private static long check(LongIndex back, long[] state, long[] c, long[] e, String what) throws IOException {
        BitSet removedInWindow = new BitSet(KEYS);
        for (int w = 0; w < WRITERS; w++) {
            for (long i = c[w]; i <= e[w]; i++) {
                int op = op(w, i);
                if (op < 0) {
                    removedInWindow.set(~op);
                }
            }
        }
        BitSet seen = new BitSet(KEYS);
        long[] changed = {0};
        back.forEach((key, val) -> {
            int idx = idx(key);
            if (idx < 0) {
                throw new AssertionError(what + ": the snapshot holds key " + key + ", which no writer writes");
            }
            seen.set(idx);
            if (val == state[idx]) {
                return;
            }
            changed[0]++;
            int w = idx / RANGE;
            long i = val >>> 2;
            if (val < 0 || (val & 3) != w || i < c[w] || i > e[w] || op(w, i) != idx) {
                throw new AssertionError(what + ": key " + key + " has value " + val + ", which it did not have during"
                        + " the snapshot (at its start: " + state[idx] + "; writer " + w + " ran ops " + c[w] + " to "
                        + e[w] + ")");
            }
        });
        for (int idx = seen.nextClearBit(0); idx < KEYS; idx = seen.nextClearBit(idx + 1)) {
            if (state[idx] != ABSENT) {
                changed[0]++;
                if (!removedInWindow.get(idx)) {
                    throw new AssertionError(what + ": key " + key(idx) + " is missing, but it was present (value "
                            + state[idx] + ") from the snapshot's start and no write removed it meanwhile");
                }
            }
        }
        return changed[0];
    }
}
