package org.bforest.opencl.pages;

import org.bforest.opencl.DeviceTimes;
import org.bforest.opencl.cl.ClScope;

/**
 * Times a tree's batch calls for {@link DeviceTimes}: the wall time of each, and the host's share
 * of it (the wall time less what the calling thread spent blocked in device calls, which the
 * {@link ClScope} counts), with the part of that inside the driver's other calls and the device
 * calls made; the device's own kernel and transfer times come from the scope's profiling events.
 * Batches of one thread at a time: the tree's writes need the caller's synchronisation, and
 * concurrent readers' figures only add up (their waits may overlap).
 */
final class BatchClock {
    private final ClScope cl;
    private final long[] scope = new long[ClScope.TIMES];
    /** The scope's figures at the last {@link #reset}. */
    private final long[] base = new long[ClScope.TIMES];
    /** The scope's figures when the running batch started. */
    private final long[] atStart = new long[ClScope.TIMES];
    private long batches;
    private long wall;
    private long host;
    private long driver;
    private long calls;

    BatchClock(ClScope cl) {
        this.cl = cl;
    }

    /** A batch starts: returns its start time for {@link #stop}. */
    synchronized long start() {
        java.util.Arrays.fill(atStart, 0);
        cl.times(atStart);
        return System.nanoTime();
    }

    /** The batch that {@link #start} returned {@code t0} for has ended. */
    synchronized void stop(long t0) {
        long w = System.nanoTime() - t0;
        java.util.Arrays.fill(scope, 0);
        cl.times(scope);
        batches++;
        wall += w;
        host += Math.max(0, w - (scope[2] - atStart[2]));
        driver += scope[3] - atStart[3];
        calls += scope[4] - atStart[4];
    }

    synchronized DeviceTimes times() {
        java.util.Arrays.fill(scope, 0);
        cl.times(scope);
        return new DeviceTimes(batches, wall, host, scope[1] - base[1], scope[0] - base[0], driver, calls);
    }

    synchronized void reset() {
        java.util.Arrays.fill(base, 0);
        cl.times(base);
        batches = wall = host = driver = calls = 0;
    }
}
