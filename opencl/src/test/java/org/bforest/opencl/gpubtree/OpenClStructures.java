package org.bforest.opencl.gpubtree;

import static org.bforest.testing.Capability.FAIL_FAST_CURSORS;
import static org.bforest.testing.Capability.NATIVE;

import java.util.EnumSet;
import java.util.List;
import org.bforest.opencl.OpenClDevice;
import org.bforest.opencl.OpenClException;
import org.bforest.opencl.OpenClTesting;
import org.bforest.opencl.hybrid.HybridTrees;
import org.bforest.testing.Implementations.Impl;
import org.bforest.testing.StructureRegistry;

/**
 * The OpenCL structures the conformance kit runs on, on the device the OpenCL tests use (PoCL
 * here): the GPU B+-tree and the hybrid tree with pages of 8 keys, so that the kit's trees split
 * pages at every level and its leaves are whole pages. With {@code -Dbforest.opencl.kit.all=true}
 * (as {@code ./bforest test --soak} sets) also with the default 2048-key pages, whose leaves are
 * 64-slot windows of a page; {@code BatchesTest} runs both trees at 200 keys a page (four windows)
 * in the default run.
 */
public final class OpenClStructures implements StructureRegistry {
    private String unavailable;

    @Override
    public List<Impl> structures() {
        OpenClDevice device;
        try {
            if (OpenClDevice.all().isEmpty()) {
                throw new OpenClException("the OpenCL loader found no platform");
            }
            device = OpenClDevice.choose();
        } catch (OpenClException e) {
            if (OpenClTesting.required()) {
                throw e;
            }
            unavailable = "no OpenCL (" + e.getMessage() + "); ./bforest test installs PoCL when run as root";
            return List.of();
        }
        org.bforest.opencl.cl.ClDevice handle = OpenClTesting.handle(device);
        EnumSet<org.bforest.testing.Capability> caps = EnumSet.of(FAIL_FAST_CURSORS, NATIVE);
        List<Impl> small = List.of(
                new Impl("gpu-btree-8", () -> GpuBTree.bulkLoad(handle, new long[0], null, 8, 1.0),
                        (k, v) -> GpuBTree.bulkLoad(handle, k, v, 8, 1.0), caps),
                new Impl("hybrid-8", () -> HybridTrees.create(handle, 8, new long[0], null),
                        (k, v) -> HybridTrees.create(handle, 8, k, v), caps));
        if (!Boolean.getBoolean("bforest.opencl.kit.all") && !Boolean.getBoolean("bforest.soak")) {
            return small;
        }
        return List.of(small.get(0), small.get(1),
                new Impl("gpu-btree", () -> GpuBTree.bulkLoad(handle, new long[0], null, 2048, 1.0),
                        (k, v) -> GpuBTree.bulkLoad(handle, k, v, 2048, 1.0), caps),
                new Impl("hybrid", () -> HybridTrees.create(handle, 2048, new long[0], null),
                        (k, v) -> HybridTrees.create(handle, 2048, k, v), caps));
    }

    @Override
    public String unavailable() {
        return unavailable;
    }
}
