package org.bforest.opencl.pages;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A batch's host work split over several threads: the calling thread and the common fork-join
 * pool's. A device answers a batch of a million keys in milliseconds, and a single host thread
 * that orders the batch, descends it (the hybrid) and puts the answers back in the caller's order
 * is what bounds throughput. Each pass over a batch is cut into parts of consecutive indices that
 * the caller and pool threads claim; the pass is done when {@link #split} returns (an exception of
 * any part is thrown there). Below two parts' worth of keys nothing is handed out and nothing is
 * allocated; a split allocates a few small objects per pass, not per key.
 *
 * <p>Threads: {@code -Dbforest.opencl.hostThreads=N} (1: all on the calling thread); by default
 * the common pool's parallelism plus the caller, at most 16. Parts never take the tree's lock and
 * write disjoint ranges only. Public for the trees' packages; the module does not export it.
 */
public final class HostWork {
    /** A pass over {@code [from, to)}, part {@code part} of a split. */
    public interface Part {
        void run(int part, int from, int to);
    }

    /** Fewer keys than this a part are not worth a fork. */
    static final int MIN_PART = 1 << 15;
    static final int THREADS = threads(System.getProperty("bforest.opencl.hostThreads"));

    private HostWork() {
    }

    static int threads(String setting) {
        if (setting == null || setting.isBlank()) {
            return Math.min(16, ForkJoinPool.getCommonPoolParallelism() + 1);
        }
        int t;
        try {
            t = Integer.parseInt(setting.trim());
        } catch (NumberFormatException e) {
            t = 0;
        }
        if (t < 1 || t > 256) {
            throw new IllegalArgumentException("-Dbforest.opencl.hostThreads is a thread count from 1 to 256, got \""
                    + setting + "\"");
        }
        return t;
    }

    /** How many parts a pass over {@code n} keys takes: at most {@link #THREADS}, each at least {@link #MIN_PART}. */
    static int parts(int n) {
        return Math.max(1, Math.min(THREADS, n / MIN_PART));
    }

    /** Runs {@code body} over {@code [0, n)} in {@link #parts} parts of nearly equal size; returns when all have. */
    public static void split(int n, Part body) {
        split(n, parts(n), body);
    }

    /** The same in exactly {@code parts} parts (from {@link #parts}, so that passes of one batch agree). */
    static void split(int n, int parts, Part body) {
        if (parts <= 1) {
            body.run(0, 0, n);
            return;
        }
        // Parts are claimed, not assigned: the caller claims too, and runs every part that no pool
        // thread has started. So a busy pool (or one whose threads wait for this tree's lock,
        // which the caller may hold) only slows the pass down; it never stalls it.
        AtomicInteger next = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(parts);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Runnable claim = () -> {
            for (int p = next.getAndIncrement(); p < parts; p = next.getAndIncrement()) {
                try {
                    body.run(p, start(n, parts, p), start(n, parts, p + 1));
                } catch (RuntimeException | Error e) {
                    Throwable first = failed.compareAndExchange(null, e);
                    if (first != null && first != e) {   // one object thrown twice (a shared Error) is not its own suppressed
                        first.addSuppressed(e);
                    }
                } finally {
                    done.countDown();
                }
            }
        };
        ForkJoinPool pool = ForkJoinPool.commonPool();
        try {
            for (int p = 1; p < parts; p++) {
                pool.execute(claim);
            }
        } catch (RejectedExecutionException e) {
            // A pool that takes no more: the caller claims what the helpers would have.
        }
        claim.run();
        // Every part has been claimed; wait for those still running elsewhere (they take no lock).
        boolean interrupted = false;
        while (true) {
            try {
                done.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        Throwable t = failed.get();
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
    }

    /** Where part {@code p} of {@code parts} over {@code [0, n)} starts. */
    static int start(int n, int parts, int p) {
        return (int) ((long) n * p / parts);
    }
}
