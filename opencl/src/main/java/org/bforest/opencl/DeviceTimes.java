package org.bforest.opencl;

/**
 * Where an OpenCL index's batches spent their time, summed since it was built or since
 * {@link DeviceIndex#resetDeviceTimes()}: so that on any device one can see whether the host, the
 * transfers or the kernels bound a workload.
 *
 * <p>{@code batchNanos} is the wall time of the batch calls ({@code getAll}, {@code putAll},
 * {@code removeAll}, {@code rangeCountAll}); {@code hostNanos} the part of it the calling thread
 * spent working on the host (sorting, planning, copying, and calling the driver), that is the wall
 * time less the time it waited in blocking device calls; {@code driverNanos} the part of
 * {@code hostNanos} spent inside the driver's calls that do not wait (enqueues of launches and
 * transfers, buffer creations and releases, the events' queries), and {@code deviceCalls} the
 * device calls the batches made (buffer creations, transfers, fills, launches, waits): on a GPU's
 * driver these say whether the host's time is the library's work or the driver's.
 * {@code transferNanos} and {@code kernelNanos} are device time from the driver's profiling
 * events, of every command the index enqueued (batches and single operations alike): transfers
 * between host and device (fills and device-side copies counted with them) and kernel runs.
 * Device time can overlap host work, so the parts need not add up to the wall time.
 *
 * @param batches       batch calls timed
 * @param batchNanos    their wall time
 * @param hostNanos     the host's share of it
 * @param transferNanos device time in transfers
 * @param kernelNanos   device time in kernels
 * @param driverNanos   the part of {@code hostNanos} inside the driver's calls that do not wait
 * @param deviceCalls   device calls made by the batches
 */
public record DeviceTimes(long batches, long batchNanos, long hostNanos, long transferNanos, long kernelNanos,
                          long driverNanos, long deviceCalls) {
    /** The host's share of the batches' wall time, 0 to 1 (0 when no batch was timed). */
    public double hostShare() {
        return batchNanos == 0 ? 0 : (double) hostNanos / batchNanos;
    }

    /** These times less {@code earlier} ones of the same index: what happened in between. */
    public DeviceTimes minus(DeviceTimes earlier) {
        return new DeviceTimes(batches - earlier.batches, batchNanos - earlier.batchNanos,
                hostNanos - earlier.hostNanos, transferNanos - earlier.transferNanos, kernelNanos - earlier.kernelNanos,
                driverNanos - earlier.driverNanos, deviceCalls - earlier.deviceCalls);
    }
}
