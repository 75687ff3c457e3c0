package org.bforest.opencl.pages;

import java.util.function.BooleanSupplier;
import org.bforest.opencl.OpenClException;
import org.bforest.opencl.cl.DeviceMemory;

/**
 * A write call's distinct sorted keys in chunks of at most a batch each ({@link PagedTree#MAX_BATCH}
 * keys: the per-batch device buffers are sized for a batch). Each chunk is all or nothing (it
 * commits its buffers before it changes anything), the call is not: when the device fails in a
 * later chunk and the tree is whole, the chunks before it stay done, and the exception says so
 * (how many keys, up to which key) instead of letting the caller take the call for undone. A
 * {@code putAll} or {@code removeAll} may simply be repeated: the keys done already come out the
 * same. A host failure in a later chunk keeps its type and carries the same words as a suppressed
 * exception. A failure that left the tree failed is thrown as it is (the tree names it from then on).
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
                int at = from;
                // A full device: the chunk once more if indexes nobody closed gave memory back
                // (a failure before its commit leaves the tree whole).
                sum += DeviceMemory.retryOnce(() -> chunk.run(at, Math.min(max, count - at)), () -> !failed.getAsBoolean());
            } catch (RuntimeException | Error e) {
                if (from == 0 || failed.getAsBoolean()) {
                    throw e;
                }
                String howFar = call + " stopped after " + from + " of its " + total + " distinct keys: those below "
                        + sorted[from] + " are " + done + ", the others untouched (the call may be repeated)";
                if (e instanceof OpenClException o) {
                    throw new OpenClException(howFar + ": " + o.getMessage(), o.status(), o);
                }
                // A host failure (an Error, a bad state) keeps its type; how far the call got rides along.
                e.addSuppressed(new IllegalStateException(howFar));
                throw e;
            }
        }
        return sum;
    }
}
