package org.bforest.opencl.gpubtree;

import org.bforest.opencl.DeviceIndex;
import org.bforest.opencl.DeviceSearch;
import org.bforest.opencl.cl.ClDevice;

/** The GPU B+-tree's entry point for {@code org.bforest.opencl.OpenClIndexes}; internal to the module. */
public final class GpuBTrees {
    /** The paper's page size for large trees. */
    public static final int DEFAULT_PAGE_KEYS = GpuBTree.DEFAULT_PAGE_KEYS;
    /** Keys handed to the device at once. */
    public static final int MAX_BATCH = GpuBTree.MAX_BATCH;

    private GpuBTrees() {
    }

    /** A tree of sorted, distinct {@code keys} ({@code values} null: all 0) in pages of {@code pageKeys}, leaves full. */
    public static DeviceIndex create(ClDevice device, int pageKeys, long[] keys, long[] values) {
        return create(device, pageKeys, DeviceSearch.DEFAULT, keys, values);
    }

    /** The same, searching batches as {@code search} says. */
    public static DeviceIndex create(ClDevice device, int pageKeys, DeviceSearch search, long[] keys, long[] values) {
        return GpuBTree.bulkLoad(device, keys, values, pageKeys, 1.0, search);
    }
}
