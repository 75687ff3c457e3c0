package org.bforest.opencl;

import org.bforest.NativeLongIndex;

/**
 * An index whose entries live in an OpenCL device's memory (the GPU B+-tree, the hybrid tree):
 * a {@link NativeLongIndex} that also says how much device memory it holds and where its batches'
 * time goes.
 */
public interface DeviceIndex extends NativeLongIndex {
    /**
     * Device bytes held now: the pages at their buffers' capacity and the per-batch scratch
     * ({@link #memoryBytes()} counts them too, with the host's share).
     */
    long deviceBytes();

    /** Where the batches' time went since the index was built or {@link #resetDeviceTimes()}. */
    DeviceTimes deviceTimes();

    /** Starts {@link #deviceTimes()} from zero. */
    void resetDeviceTimes();
}
