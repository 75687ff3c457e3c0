package org.bforest.opencl.hybrid;

import org.bforest.opencl.DeviceIndex;
import org.bforest.opencl.DeviceSearch;
import org.bforest.opencl.cl.ClDevice;

/** The hybrid tree's entry point for {@code org.bforest.opencl.OpenClIndexes}; internal to the module. */
public final class HybridTrees {
    private HybridTrees() {
    }

    /** A tree of sorted, distinct {@code keys} ({@code values} null: all 0), leaf pages of {@code pageKeys}, full. */
    public static DeviceIndex create(ClDevice device, int pageKeys, long[] keys, long[] values) {
        return create(device, pageKeys, DeviceSearch.DEFAULT, keys, values);
    }

    /** The same, searching batches as {@code search} says. */
    public static DeviceIndex create(ClDevice device, int pageKeys, DeviceSearch search, long[] keys, long[] values) {
        return HybridTree.bulkLoad(device, keys, values, pageKeys, 1.0, search);
    }
}
