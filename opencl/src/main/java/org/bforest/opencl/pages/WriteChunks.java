package org.bforest.opencl.pages;

import java.util.function.BooleanSupplier;
import org.bforest.opencl.OpenClException;

/**
 * A write call's distinct sorted keys in chunks of at most a batch each ({@link PagedTree#MAX_BATCH}
 * keys: the per-batch device buffers are sized for a batch). Each chunk is all or nothing (it
 * commits its buffers before it changes anything), the call is not: when the device fails in a
 * later chunk and the tree is whole, the chunks before it stay done, and the exception says so
 * (how many keys, up to which key) instead of letting the caller take the call for undone. A
 * {@code putAll} or {@code removeAll} may simply be repeated: the keys done already come out the
 * same. A failure that left the tree failed is thrown as it is (the tree names it from then on).
 */
final class WriteChunks {
    /** One chunk: {@code sorted[from, from + n)}; returns what it counts (keys removed, or 0). */
    interface Chunk {
        long run(int from, int n);
    }

    private WriteChunks() {
    }

    /**
     * Runs {@code chunk} over {@code sorted[0, count)} in chunks of at most {@code max}; returns the
     * sum of what they return. {@code call} ("putAll") and {@code done} ("in the tree") word the
     * exception of a failed later chunk; {@code total}: the call's distinct keys, {@code count}
     * those below {@code Long.MAX_VALUE}.
     */
    static long run(String call, String done, long[] sorted, int count, int total, int max, BooleanSupplier failed,
                    Chunk chunk) {
        long sum = 0;
        for (int from = 0; from < count; from += max) {
            try {
                sum += chunk.run(from, Math.min(max, count - from));
            } catch (OpenClException e) {
                if (from == 0 || failed.getAsBoolean()) {
                    throw e;
                }
                throw new OpenClException(call + " stopped after " + from + " of its " + total
                        + " distinct keys: those below " + sorted[from] + " are " + done
                        + ", the others untouched (the call may be repeated): " + e.getMessage(), e.status(), e);
            }
        }
        return sum;
    }
}
