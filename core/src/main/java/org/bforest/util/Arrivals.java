package org.bforest.util;

import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How much of a bulk load's input is in its arrays yet. Every bulk load takes one: {@link #ALL}
 * when the arrays are given whole (it checks them itself, then builds), or a {@link #stream()}
 * that another thread fills in key order while the structure is built from the part already
 * there, so that a snapshot's load reads the disk and builds at once. A bulk load calls
 * {@link #await} before it reads a leaf's entries; on {@code ALL} that is one compare of a field.
 *
 * <p>The thread that fills a stream promises what a bulk load would otherwise check: the keys it
 * marks as arrived ascend strictly and are below {@code Long.MAX_VALUE}, and when the input holds
 * {@code Long.MAX_VALUE} it is in the arrays' last slot (with its value) before the stream is
 * handed over, as a bulk load reads it first.
 */
public final class Arrivals {
    /** Arrays given whole: everything has arrived, the bulk load checks the keys' order itself. */
    public static final Arrivals ALL = new Arrivals(Integer.MAX_VALUE);

    /** How long a waiting builder sleeps before it looks again, if no wake-up comes first. */
    private static final long PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /** What the building thread last saw arrive: plain, as only that thread reads or writes it. */
    private int known;
    private volatile int arrived;
    private volatile Throwable failure;
    private volatile Thread waiter;

    private Arrivals(int known) {
        this.known = known;
        this.arrived = known;
    }

    /** A stream with nothing arrived yet, for one bulk load on one thread. */
    public static Arrivals stream() {
        return new Arrivals(0);
    }

    /** Whether the arrays were given whole ({@link #ALL}): then the bulk load checks their order. */
    public boolean whole() {
        return this == ALL;
    }

    /**
     * Returns once the entries before {@code end} are in the arrays (all of them, if there are
     * fewer); the arrays' writes before that are visible to the caller.
     *
     * @throws CancellationException if the thread filling them stopped (it has the reason)
     */
    public void await(int end) {
        if (end > known) {
            waitFor(end);
        }
    }

    private void waitFor(int end) {
        waiter = Thread.currentThread();
        int a;
        while ((a = arrived) < end) {
            Throwable f = failure;
            if (f != null) {
                throw new CancellationException("the bulk load's input stopped arriving after " + a + " entries: " + f);
            }
            LockSupport.parkNanos(this, PARK_NANOS);
        }
        known = a;
    }

    /**
     * The filling thread: the entries before {@code upTo} are in the arrays (it only grows);
     * {@link Integer#MAX_VALUE} when all are.
     */
    public void arrived(int upTo) {
        arrived = upTo;
        LockSupport.unpark(waiter);
    }

    /** The filling thread: no more will arrive, because of {@code why}; a waiting builder gives up. */
    public void fail(Throwable why) {
        failure = why;
        LockSupport.unpark(waiter);
    }
}
