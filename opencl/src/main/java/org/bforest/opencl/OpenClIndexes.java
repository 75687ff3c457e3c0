package org.bforest.opencl;

import java.util.Objects;
import org.bforest.opencl.gpubtree.GpuBTrees;
import org.bforest.opencl.hybrid.HybridTrees;

/**
 * The OpenCL structures' factories. Each returns a {@link DeviceIndex}, a
 * {@link org.bforest.NativeLongIndex} with passes over every entry on the device: its pages live in
 * device memory, released by {@link DeviceIndex#close()} (use try-with-resources; a
 * {@link java.lang.ref.Cleaner} releases a forgotten one when it is collected), and every call
 * after {@code close()} throws {@link IllegalStateException}.
 *
 * <p>The device is the one {@code -Dbforest.opencl.device} names, else the first GPU, else the
 * first device ({@link OpenClDevice#choose()}); the overloads taking an {@link OpenClDevice} pick it
 * themselves. Without an OpenCL platform the factories throw {@link OpenClException} saying what
 * to install; the CPU structures of {@code org.bforest.Indexes} never need one.
 *
 * <pre>{@code
 * try (DeviceIndex gpu = OpenClIndexes.gpuBTree(sortedKeys, values)) {
 *     gpu.putAll(newKeys, newValues);          // one batch: a descent, a merge launch a level
 *     gpu.getAll(queries, results, -1);       // one batch of look-ups
 *     long gone = gpu.removeAll(oldKeys);
 *     long total = gpu.sumValues();           // one pass over every entry on the device
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

    /**
     * An empty GPU B+-tree (Kaczmarek's paper) on the default device, pages of
     * {@value #DEFAULT_PAGE_KEYS} keys.
     *
     * @return a new, empty GPU B+-tree; close it to free its device memory
     * @throws OpenClException when OpenCL is not installed, there is no device, or the device refuses
     */
    public static DeviceIndex gpuBTree() {
        return gpuBTree(OpenClDevice.choose());
    }

    /**
     * An empty GPU B+-tree on {@code device}, pages of {@value #DEFAULT_PAGE_KEYS} keys.
     *
     * @param device the device that holds the pages (see {@link OpenClDevice#all()})
     * @return a new, empty GPU B+-tree; close it to free its device memory
     * @throws NullPointerException if {@code device} is null
     * @throws OpenClException      when the device refuses (out of memory, a kernel that does not build)
     */
    public static DeviceIndex gpuBTree(OpenClDevice device) {
        return gpuBTree(device, DEFAULT_PAGE_KEYS, new long[0], null);
    }

    /**
     * A GPU B+-tree of {@code sortedKeys} (ascending, distinct) and their {@code values}
     * ({@code null}: all 0) on the default device, its leaves full, pages of
     * {@value #DEFAULT_PAGE_KEYS} keys.
     *
     * @param sortedKeys keys in strictly ascending signed order; copied to the device
     * @param values     the value of each key, or {@code null} for all 0
     * @return a new GPU B+-tree holding those entries; close it to free its device memory
     * @throws NullPointerException     if {@code sortedKeys} is null
     * @throws IllegalArgumentException on unsorted or repeated keys, or arrays of different lengths
     * @throws OpenClException          when there is no OpenCL device, or it is out of memory
     */
    public static DeviceIndex gpuBTree(long[] sortedKeys, long[] values) {
        return gpuBTree(OpenClDevice.choose(), DEFAULT_PAGE_KEYS, sortedKeys, values);
    }

    /**
     * A GPU B+-tree of {@code sortedKeys} and their {@code values} on {@code device}, in pages of
     * {@code pageKeys} keys (2 to 2^20; the paper found 2048-4096 best, 16384 for tens of millions
     * of keys). Its leaves are full.
     *
     * @param device     the device that holds the pages (see {@link OpenClDevice#all()})
     * @param pageKeys   keys a page holds, inner and leaf pages alike: 2 to 2^20
     * @param sortedKeys keys in strictly ascending signed order; copied to the device
     * @param values     the value of each key, or {@code null} for all 0
     * @return a new GPU B+-tree holding those entries; close it to free its device memory
     * @throws NullPointerException     if {@code device} or {@code sortedKeys} is null
     * @throws IllegalArgumentException on bad keys or a page size out of range; nothing reaches the device
     * @throws OpenClException          when the device refuses (out of memory, a kernel that does not build)
     */
    public static DeviceIndex gpuBTree(OpenClDevice device, int pageKeys, long[] sortedKeys, long[] values) {
        Objects.requireNonNull(device, "device");
        return GpuBTrees.create(device.handle(), pageKeys, sortedKeys, values);
    }

    /**
     * {@link #gpuBTree(OpenClDevice, int, long[], long[])} whose look-up batches are ordered and
     * searched on the device as {@code search} says (the default: {@link DeviceSearch#DEFAULT}).
     *
     * @param device     the device that holds the pages (see {@link OpenClDevice#all()})
     * @param pageKeys   keys a page holds, inner and leaf pages alike: 2 to 2^20
     * @param search     how look-up batches are ordered and searched; the answers do not depend on it
     * @param sortedKeys keys in strictly ascending signed order; copied to the device
     * @param values     the value of each key, or {@code null} for all 0
     * @return a new GPU B+-tree holding those entries; close it to free its device memory
     * @throws NullPointerException     if {@code device}, {@code search} or {@code sortedKeys} is null
     * @throws IllegalArgumentException on bad keys or a page size out of range; nothing reaches the device
     * @throws OpenClException          when the device refuses (out of memory, a kernel that does not build)
     */
    public static DeviceIndex gpuBTree(OpenClDevice device, int pageKeys, DeviceSearch search, long[] sortedKeys,
                                           long[] values) {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(search, "search");
        return GpuBTrees.create(device.handle(), pageKeys, search, sortedKeys, values);
    }

    /**
     * An empty hybrid tree on the default device: the BS-tree's inner levels on the CPU, leaf
     * pages of {@value #DEFAULT_PAGE_KEYS} keys on the device (the paper's proposal for future
     * work). The CPU descends a whole batch and hands the leaf ids to the device.
     *
     * @return a new, empty hybrid tree; close it to free its device memory
     * @throws OpenClException when OpenCL is not installed, there is no device, or the device refuses
     */
    public static DeviceIndex hybridTree() {
        return hybridTree(OpenClDevice.choose());
    }

    /**
     * An empty hybrid tree on {@code device}, leaf pages of {@value #DEFAULT_PAGE_KEYS} keys.
     *
     * @param device the device that holds the leaf pages (see {@link OpenClDevice#all()})
     * @return a new, empty hybrid tree; close it to free its device memory
     * @throws NullPointerException if {@code device} is null
     * @throws OpenClException      when the device refuses (out of memory, a kernel that does not build)
     */
    public static DeviceIndex hybridTree(OpenClDevice device) {
        return hybridTree(device, DEFAULT_PAGE_KEYS, new long[0], null);
    }

    /**
     * A hybrid tree of {@code sortedKeys} (ascending, distinct) and their {@code values}
     * ({@code null}: all 0) on the default device, its leaves full, leaf pages of
     * {@value #DEFAULT_PAGE_KEYS} keys.
     *
     * @param sortedKeys keys in strictly ascending signed order; copied to the device
     * @param values     the value of each key, or {@code null} for all 0
     * @return a new hybrid tree holding those entries; close it to free its device memory
     * @throws NullPointerException     if {@code sortedKeys} is null
     * @throws IllegalArgumentException on unsorted or repeated keys, or arrays of different lengths
     * @throws OpenClException          when there is no OpenCL device, or it is out of memory
     */
    public static DeviceIndex hybridTree(long[] sortedKeys, long[] values) {
        return hybridTree(OpenClDevice.choose(), DEFAULT_PAGE_KEYS, sortedKeys, values);
    }

    /**
     * A hybrid tree of {@code sortedKeys} and their {@code values} on {@code device}, in leaf
     * pages of {@code pageKeys} keys (2 to 2^20), full.
     *
     * @param device     the device that holds the leaf pages (see {@link OpenClDevice#all()})
     * @param pageKeys   keys a leaf page holds: 2 to 2^20
     * @param sortedKeys keys in strictly ascending signed order; copied to the device
     * @param values     the value of each key, or {@code null} for all 0
     * @return a new hybrid tree holding those entries; close it to free its device memory
     * @throws NullPointerException     if {@code device} or {@code sortedKeys} is null
     * @throws IllegalArgumentException on bad keys or a page size out of range; nothing reaches the device
     * @throws OpenClException          when the device refuses (out of memory, a kernel that does not build)
     */
    public static DeviceIndex hybridTree(OpenClDevice device, int pageKeys, long[] sortedKeys, long[] values) {
        Objects.requireNonNull(device, "device");
        return HybridTrees.create(device.handle(), pageKeys, sortedKeys, values);
    }

    /**
     * {@link #hybridTree(OpenClDevice, int, long[], long[])} whose look-up batches are ordered
     * and searched on the device as {@code search} says (the default: {@link DeviceSearch#DEFAULT}).
     *
     * @param device     the device that holds the leaf pages (see {@link OpenClDevice#all()})
     * @param pageKeys   keys a leaf page holds: 2 to 2^20
     * @param search     how look-up batches are ordered and searched; the answers do not depend on it
     * @param sortedKeys keys in strictly ascending signed order; copied to the device
     * @param values     the value of each key, or {@code null} for all 0
     * @return a new hybrid tree holding those entries; close it to free its device memory
     * @throws NullPointerException     if {@code device}, {@code search} or {@code sortedKeys} is null
     * @throws IllegalArgumentException on bad keys or a page size out of range; nothing reaches the device
     * @throws OpenClException          when the device refuses (out of memory, a kernel that does not build)
     */
    public static DeviceIndex hybridTree(OpenClDevice device, int pageKeys, DeviceSearch search, long[] sortedKeys,
                                             long[] values) {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(search, "search");
        return HybridTrees.create(device.handle(), pageKeys, search, sortedKeys, values);
    }
}
