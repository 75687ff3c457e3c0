package org.bforest.bench.runner;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import org.bforest.LongIndex;
import org.bforest.bench.structures.IndexAdapter;
import org.bforest.opencl.DeviceIndex;
import org.bforest.opencl.DeviceTimes;

/**
 * One structure's {@link DeviceTimes} over a cell's timed repetitions: started from zero before
 * each run, read after it (outside the clock both), summarised as {@link DeviceFigures}; and the
 * heap memory the JVM's threads allocated meanwhile (the run's batch arrays are the runner's and
 * the adapter's, made before it, so what is allocated is the tree's). A structure that is not a
 * {@link DeviceIndex} leaves it empty, and its figures are null.
 */
final class DevicePhases {
    private final DeviceTimes[] reps;
    private final double[] heapBytes;
    /** What the JVM had allocated when the run began (-1: it does not count). */
    private long allocatedAtStart = -1;

    DevicePhases(int timedReps) {
        reps = new DeviceTimes[timedReps];
        heapBytes = new double[timedReps];
        Arrays.fill(heapBytes, Double.NaN);
    }

    /** Heap bytes every thread has allocated so far, or -1 where the JVM does not count them. */
    static long allocated() {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean t
                && t.isThreadAllocatedMemorySupported() && t.isThreadAllocatedMemoryEnabled()) {
            return t.getTotalThreadAllocatedBytes();
        }
        return -1;
    }

    /** The device index behind {@code a}, or null. */
    static DeviceIndex of(IndexAdapter a) {
        LongIndex i = a == null ? null : a.longIndex();
        return i instanceof DeviceIndex d ? d : null;
    }

    /** {@code deviceBytes()} a key of the device index behind {@code a}; NaN for any other structure. */
    static double deviceBytesPerKey(IndexAdapter a, long keys) {
        DeviceIndex d = of(a);
        return d == null ? Double.NaN : d.deviceBytes() / (double) Math.max(1, keys);
    }

    /** Before a run: its times from zero, and the heap allocated so far. */
    void start(IndexAdapter a) {
        DeviceIndex d = of(a);
        if (d != null) {
            d.resetDeviceTimes();
            allocatedAtStart = allocated();
        }
    }

    /** After timed repetition {@code rep}'s run: what it spent. */
    void stop(IndexAdapter a, int rep) {
        DeviceIndex d = of(a);
        if (d != null && rep >= 0 && rep < reps.length) {
            reps[rep] = d.deviceTimes();
            long now = allocated();
            heapBytes[rep] = allocatedAtStart < 0 || now < 0 ? Double.NaN : now - allocatedAtStart;
        }
    }

    /** The medians per batch over the repetitions recorded; null when none was (not a device index). */
    DeviceFigures figures(double deviceBytesPerKey) {
        int m = (int) Arrays.stream(reps).filter(t -> t != null).count();
        if (m == 0) {
            return null;
        }
        double[] batches = new double[m];
        double[] batch = new double[m];
        double[] host = new double[m];
        double[] transfer = new double[m];
        double[] kernel = new double[m];
        double[] share = new double[m];
        double[] heapKb = new double[m];
        double[] driver = new double[m];
        double[] calls = new double[m];
        for (int rep = 0, i = 0; rep < reps.length; rep++) {
            DeviceTimes t = reps[rep];
            if (t == null) {
                continue;
            }
            double n = Math.max(1, t.batches());
            heapKb[i] = heapBytes[rep] / n / 1024;
            batches[i] = t.batches();
            batch[i] = t.batchNanos() / n / 1e6;
            host[i] = t.hostNanos() / n / 1e6;
            transfer[i] = t.transferNanos() / n / 1e6;
            kernel[i] = t.kernelNanos() / n / 1e6;
            share[i] = t.batches() == 0 ? Double.NaN : t.hostShare();
            driver[i] = t.driverNanos() / n / 1e6;
            calls[i] = t.deviceCalls() / n;
            i++;
        }
        return new DeviceFigures(median(batches), median(batch), median(host), median(transfer), median(kernel),
                median(share), deviceBytesPerKey, median(heapKb), median(driver), median(calls));
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }
}
