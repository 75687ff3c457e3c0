package org.bforest.opencl.pages;

import org.bforest.opencl.DeviceTimes;
import org.bforest.opencl.cl.ClScope;

/**
 * Times a tree's batch calls for {@link DeviceTimes}: the wall time of each, and the host's share
 * of it (the wall time less what the calling thread spent blocked in device calls, which the
 * {@link ClScope} counts); the device's own kernel and transfer times come from the scope's
 * profiling events. Batches of one thread at a time: the tree's writes need the caller's
 * synchronisation, and concurrent readers' figures only add up (their waits may overlap).
 */
final class BatchClock {
    private final ClScope cl;
    private final long[] scope = new long[3];
    /** The scope's figures at the last {@link #reset}. */
    private final long[] base = new long[3];
    private long batches;
    private long wall;
    private long host;
    /** The scope's blocked nanoseconds when the running batch started. */
    private long blockedAtStart;

    BatchClock(ClScope cl) {
        this.cl = cl;
    }

    /** A batch starts: returns its start time for {@link #stop}. */
    synchronized long start() {
        blockedAtStart = blocked();
        return System.nanoTime();
    }

    /** The batch that {@link #start} returned {@code t0} for has ended. */
    synchronized void stop(long t0) {
        long w = System.nanoTime() - t0;
        batches++;
        wall += w;
        host += Math.max(0, w - (blocked() - blockedAtStart));
    }

    private long blocked() {
        java.util.Arrays.fill(scope, 0);
        cl.times(scope);
        return scope[2];
    }

    synchronized DeviceTimes times() {
        java.util.Arrays.fill(scope, 0);
        cl.times(scope);
        return new DeviceTimes(batches, wall, host, scope[1] - base[1], scope[0] - base[0]);
    }

    synchronized void reset() {
        java.util.Arrays.fill(base, 0);
        cl.times(base);
        batches = wall = host = 0;
    }
}
