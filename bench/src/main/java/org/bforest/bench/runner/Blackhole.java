package org.bforest.bench.runner;

/**
 * Where the checksums of the timed loops end up. Each timed loop returns the sum of its results
 * and the runner stores it here, in a volatile field the JIT cannot see through, so no
 * operation's work can be optimised away. It also compares the sums (see {@link Result#checksum}).
 */
public final class Blackhole {
    private static volatile long sink;

    private Blackhole() {
    }

    public static void consume(long v) {
        sink += v;
    }

    public static long value() {
        return sink;
    }
}
