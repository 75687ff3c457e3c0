package org.bforest.bench.runner;

/**
 * Where a device structure's batches spent their time in one cell, per batch, from its
 * {@link org.bforest.opencl.DeviceTimes} (medians over the timed repetitions, each repetition's
 * figure its sums over its batches divided by its batch count), and its device memory.
 *
 * @param batches           batch calls a repetition (the median)
 * @param batchMs           wall time a batch call, milliseconds
 * @param hostMs            the part of it the calling thread worked on the host (sorting, planning,
 *                          copying), milliseconds
 * @param transferMs        device time in transfers a batch, milliseconds (the driver's profiling)
 * @param kernelMs          device time in kernels a batch, milliseconds
 * @param hostShare         host time over wall time, 0 to 1
 * @param deviceBytesPerKey {@code deviceBytes()} over the keys, after the build
 * @param heapKbBatch       heap memory allocated a batch call, by every thread of the JVM (the tree's
 *                          host workers too), in KiB; NaN where the JVM does not count it
 * @param driverMs          the part of {@code hostMs} inside the driver's calls that do not wait
 *                          (enqueues, creations and releases, the events' queries), milliseconds
 * @param callsBatch        device calls a batch call (buffer creations, transfers, fills, launches, waits)
 */
public record DeviceFigures(double batches, double batchMs, double hostMs, double transferMs, double kernelMs,
                            double hostShare, double deviceBytesPerKey, double heapKbBatch, double driverMs,
                            double callsBatch) {
}
