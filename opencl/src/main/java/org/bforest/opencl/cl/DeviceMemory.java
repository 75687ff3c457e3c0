package org.bforest.opencl.cl;

import java.lang.ref.Cleaner;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.bforest.opencl.OpenClException;

/**
 * Device memory that indexes nobody closed still hold. An OpenCL index gives its device memory
 * back when it is closed, or, as a safety net, when the garbage collector finds it unreachable
 * and its {@link java.lang.ref.Cleaner} closes its {@link ClScope}; but the collector sees only the
 * Java heap, where such an index is a few small objects, so it may never run while the device is
 * full. A batch or a bulk load that finds the device out of memory therefore asks for one
 * collection ({@link #reclaimUnreachable}) and, if some scope closed meanwhile, tries once more.
 * The indexes' Cleaner is this class's ({@link #whenUnreachable}), so that a reclaim can tell when
 * it has been through what the collection found.
 */
public final class DeviceMemory {
    private static final Cleaner CLEANER = Cleaner.create();
    /** Scopes closed in this process, by their owners or by a Cleaner. */
    private static final AtomicLong CLOSED = new AtomicLong();
    /** How long a reclaim waits for the Cleaner at most, and between looks. */
    private static final long WAIT_NANOS = 100_000_000L;
    private static final long STEP_MILLIS = 5;
    private static final int CL_MEM_OBJECT_ALLOCATION_FAILURE = -4;

    private DeviceMemory() {
    }

    /**
     * Runs {@code close} (which must not refer to {@code owner}) once {@code owner} is unreachable:
     * the safety net of an index nobody closed.
     */
    public static Cleaner.Cleanable whenUnreachable(Object owner, Runnable close) {
        return CLEANER.register(owner, close);
    }

    /** A scope closed (its device memory given back). */
    static void closed() {
        CLOSED.incrementAndGet();
    }

    /** Whether {@code e} is the device running out of memory, which a collection may make room for. */
    public static boolean outOfDeviceMemory(Throwable e) {
        return e instanceof OpenClException o && o.status() == CL_MEM_OBJECT_ALLOCATION_FAILURE;
    }

    /**
     * Runs the garbage collector and waits for the Cleaner to close the scopes of unreachable
     * indexes: until it has been through what the collection found (a sentinel object, unreachable
     * before it, has been cleaned: with nothing to close that takes about 10 ms, not the whole
     * wait) or some scope has closed, and none more for a moment; at most 100 ms. Returns
     * whether any scope closed meanwhile, so that a retry may find room. Call it holding no
     * device's monitor (the Cleaner's close takes it).
     */
    public static boolean reclaimUnreachable() {
        long before = CLOSED.get();
        CountDownLatch swept = sentinel();
        System.gc();
        long deadline = System.nanoTime() + WAIT_NANOS;
        long seen = before;
        boolean sweptSeen = false;
        boolean interrupted = false;
        while (System.nanoTime() < deadline) {
            try {
                Thread.sleep(STEP_MILLIS);
            } catch (InterruptedException e) {
                interrupted = true;
                break;
            }
            long now = CLOSED.get();
            // Done when none closed since the last look and either some have, or the Cleaner was
            // through the collection's finds already then (a close it began just before the
            // sentinel, in no particular order, has had a whole look's time to end).
            if (now == seen && (now != before || sweptSeen)) {
                break;
            }
            sweptSeen = swept.getCount() == 0;
            seen = now;
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return CLOSED.get() != before;
    }

    /** A latch the Cleaner opens once an object made here, unreachable on return, has been collected. */
    private static CountDownLatch sentinel() {
        CountDownLatch swept = new CountDownLatch(1);
        CLEANER.register(new Object(), swept::countDown);
        return swept;
    }

    /**
     * Runs {@code attempt}; if the device ran out of memory, {@code mayRetry} says the attempt left
     * nothing changed, and a collection closed some unreachable index's scope, runs it once more
     * (the first failure then rides along as a suppressed exception if the second fails too).
     */
    public static <T> T retryOnce(Supplier<T> attempt, BooleanSupplier mayRetry) {
        try {
            return attempt.get();
        } catch (RuntimeException e) {
            if (!outOfDeviceMemory(e) || !mayRetry.getAsBoolean() || !reclaimUnreachable()) {
                throw e;
            }
            try {
                return attempt.get();
            } catch (RuntimeException again) {
                if (again != e) {
                    again.addSuppressed(e);
                }
                throw again;
            }
        }
    }
}
