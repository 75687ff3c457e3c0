package org.bforest.opencl;

import java.util.Objects;
import org.bforest.NativeLongIndex;
import org.bforest.opencl.gpubtree.GpuBTrees;
import org.bforest.opencl.hybrid.HybridTrees;

/**
 * The OpenCL structures' factories. Each returns a {@link NativeLongIndex}: its pages live in
 * device memory, released by {@link NativeLongIndex#close()} (use try-with-resources; a
 * {@link java.lang.ref.Cleaner} releases a forgotten one when it is collected), and every call
 * after {@code close()} throws {@link IllegalStateException}.
 *
 * <p>The device is the one {@code -Dbforest.opencl.device} names, else the first GPU, else the
 * first device ({@link OpenClDevice#choose()}); the overloads taking an {@link OpenClDevice} pick it
 * themselves. Without an OpenCL platform the factories throw {@link OpenClException} saying what
 * to install; the CPU structures of {@code org.bforest.Indexes} never need one.
 *
 * <pre>{@code
 * try (NativeLongIndex gpu = OpenClIndexes.gpuBTree(sortedKeys, values)) {
 *     gpu.putAll(newKeys, newValues);          // one batch: a descent, a merge launch a level
 *     gpu.getAll(queries, results, -1);       // one batch of look-ups
 *     long gone = gpu.removeAll(oldKeys);
 * }
 * }</pre>
 *
 * <p>Every operation is a batch on the device; a single {@code get} or {@code put} is a batch of
 * one and pays a few transfers' latency, so hand work over in batches ({@code getAll},
 * {@code putAll}, {@code removeAll}) of thousands of keys or more.
 */
public final class OpenClIndexes {
    /** Keys per page of the GPU B+-tree by default: the paper's best for large trees. */
    public static final int DEFAULT_PAGE_KEYS = GpuBTrees.DEFAULT_PAGE_KEYS;

    private OpenClIndexes() {
    }

    /** An empty GPU B+-tree (Kaczmarek's paper) on the default device. */
    public static NativeLongIndex gpuBTree() {
        return gpuBTree(OpenClDevice.choose());
    }

    /** An empty GPU B+-tree on {@code device}. */
    public static NativeLongIndex gpuBTree(OpenClDevice device) {
        return gpuBTree(device, DEFAULT_PAGE_KEYS, new long[0], null);
    }

    /**
     * A GPU B+-tree of {@code sortedKeys} (ascending, distinct) and their {@code values}
     * ({@code null}: all 0) on the default device, its leaves full.
     *
     * @throws IllegalArgumentException on unsorted or repeated keys, or arrays of different lengths
     * @throws OpenClException          when there is no OpenCL device, or it is out of memory
     */
    public static NativeLongIndex gpuBTree(long[] sortedKeys, long[] values) {
        return gpuBTree(OpenClDevice.choose(), DEFAULT_PAGE_KEYS, sortedKeys, values);
    }

    /**
     * A GPU B+-tree of {@code sortedKeys} and their {@code values} on {@code device}, in pages of
     * {@code pageKeys} keys (2 to 2^20; the paper found 2048-4096 best, 16384 for tens of millions
     * of keys).
     *
     * @throws IllegalArgumentException on bad keys or a page size out of range
     * @throws OpenClException          when the device refuses (out of memory, a kernel that does not build)
     */
    public static NativeLongIndex gpuBTree(OpenClDevice device, int pageKeys, long[] sortedKeys, long[] values) {
        Objects.requireNonNull(device, "device");
        return GpuBTrees.create(device.handle(), pageKeys, sortedKeys, values);
    }

    /**
     * {@link #gpuBTree(OpenClDevice, int, long[], long[])} whose look-up batches are ordered and
     * searched on the device as {@code search} says (the default: {@link DeviceSearch#DEFAULT}).
     */
    public static NativeLongIndex gpuBTree(OpenClDevice device, int pageKeys, DeviceSearch search, long[] sortedKeys,
                                           long[] values) {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(search, "search");
        return GpuBTrees.create(device.handle(), pageKeys, search, sortedKeys, values);
    }

    /**
     * An empty hybrid tree on the default device: the BS-tree's inner levels on the CPU, leaf
     * pages of {@value #DEFAULT_PAGE_KEYS} keys on the device (the paper's proposal for future
     * work). The CPU descends a whole batch and hands the leaf ids to the device.
     */
    public static NativeLongIndex hybridTree() {
        return hybridTree(OpenClDevice.choose());
    }

    /** An empty hybrid tree on {@code device}. */
    public static NativeLongIndex hybridTree(OpenClDevice device) {
        return hybridTree(device, DEFAULT_PAGE_KEYS, new long[0], null);
    }

    /**
     * A hybrid tree of {@code sortedKeys} (ascending, distinct) and their {@code values}
     * ({@code null}: all 0) on the default device, its leaves full.
     *
     * @throws IllegalArgumentException on unsorted or repeated keys, or arrays of different lengths
     * @throws OpenClException          when there is no OpenCL device, or it is out of memory
     */
    public static NativeLongIndex hybridTree(long[] sortedKeys, long[] values) {
        return hybridTree(OpenClDevice.choose(), DEFAULT_PAGE_KEYS, sortedKeys, values);
    }

    /**
     * A hybrid tree of {@code sortedKeys} and their {@code values} on {@code device}, in leaf
     * pages of {@code pageKeys} keys (2 to 2^20).
     *
     * @throws IllegalArgumentException on bad keys or a page size out of range
     * @throws OpenClException          when the device refuses
     */
    public static NativeLongIndex hybridTree(OpenClDevice device, int pageKeys, long[] sortedKeys, long[] values) {
        Objects.requireNonNull(device, "device");
        return HybridTrees.create(device.handle(), pageKeys, sortedKeys, values);
    }

    /**
     * {@link #hybridTree(OpenClDevice, int, long[], long[])} whose look-up batches are ordered
     * and searched on the device as {@code search} says (the default: {@link DeviceSearch#DEFAULT}).
     */
    public static NativeLongIndex hybridTree(OpenClDevice device, int pageKeys, DeviceSearch search, long[] sortedKeys,
                                             long[] values) {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(search, "search");
        return HybridTrees.create(device.handle(), pageKeys, search, sortedKeys, values);
    }
}
