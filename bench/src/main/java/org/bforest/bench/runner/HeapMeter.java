package org.bforest.bench.runner;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * Heap in use after full collections: {@link System#gc()} (a full, synchronous collection with
 * the default collectors) repeated until the figure settles, read from the {@link MemoryMXBean}.
 * The difference across a build is what the built structure keeps alive.
 */
public final class HeapMeter {
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    private HeapMeter() {
    }

    /** Heap bytes in use after GCs that free nothing more (at most five). */
    public static long usedAfterGc() {
        long prev = Long.MAX_VALUE;
        long used = 0;
        for (int i = 0; i < 5; i++) {
            System.gc();
            used = MEMORY.getHeapMemoryUsage().getUsed();
            if (Math.abs(prev - used) < Math.max(64 * 1024, used / 1000)) {
                break;
            }
            prev = used;
        }
        return used;
    }

    /** One collection, so the garbage of the last repetition is not collected on the clock. */
    public static void collect() {
        System.gc();
    }

    /** Whether -XX:+DisableExplicitGC makes System.gc() do nothing (then heap figures are rough). */
    public static boolean explicitGcDisabled() {
        try {
            return Boolean.parseBoolean(ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                    .getVMOption("DisableExplicitGC").getValue());
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Bytes the heap can still grow by: max heap minus what is in use now (no GC). */
    public static long headroom() {
        Runtime rt = Runtime.getRuntime();
        return rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
    }
}
