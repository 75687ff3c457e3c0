package org.bforest.opencl;

/**
 * How an OpenCL tree searches a batch of look-ups on its device: the two techniques of the GPU
 * trees that came after Kaczmarek's paper, each measurable on its own (docs/BENCHMARKS.md, "The
 * later GPU trees' techniques").
 *
 * <ul>
 *   <li>{@link #order()}: the order the queries reach the device in. Harmonia (Yan et al.,
 *       PPoPP'19) sorts them only partially, by their leading bits, so that neighbouring work-items
 *       follow nearly the same path through the tree and read the same pages; the answers are
 *       put back in the caller's order on the host.</li>
 *   <li>{@link #group()}: work-items that search one query's page together (Awad et al., PPoPP'19:
 *       a warp cooperating on a node; Harmonia: thread groups narrowed to the node's fanout), a
 *       {@code group}-ary search in place of a binary one; 1 is one work-item a query.</li>
 *   <li>{@link #lanes()}: with a group of 1, the queries one work-item
 *       searches together, in lock-step. A GPU hides one work-item's memory latency behind
 *       thousands of others (1 there); a CPU device runs a work-item's searches one after another,
 *       each step a load the next waits for, and lanes give its out-of-order core that many
 *       independent loads to overlap. {@link #DEVICE_LANES}, the default, leaves it to the device:
 *       {@value #CPU_LANES} on a CPU device, 1 on any other.</li>
 * </ul>
 *
 * <p>Only look-ups are concerned ({@code get}, {@code getAll}, {@code rangeCountAll}, and the
 * descent of every update batch, whose keys are sorted anyway). The answers are the same in every
 * setting; only the speed differs, and differs by device.
 *
 * @param order the queries' order on the device
 * @param group work-items a query: 1, 2, 4, 8, 16, 32 or 64
 * @param lanes queries a work-item when {@code group} is 1: 1 to 256, or {@link #DEVICE_LANES}
 */
public record DeviceSearch(QueryOrder order, int group, int lanes) {
    /** The queries' order on the device. */
    public enum QueryOrder {
        /** As the caller gave them. */
        AS_GIVEN,
        /**
         * Bucketed by their leading bits (a counting sort, about two buckets a leaf page; the
         * hybrid tree's by the leaf page its CPU descent found), made by the device
         * ({@code -Dbforest.opencl.orderOn=host}: by the host, as the caller's thread and the
         * common pool's).
         */
        PARTIAL,
        /** Fully sorted on the host. */
        SORTED
    }

    /** {@link #lanes()}: the device's choice, {@value #CPU_LANES} on a CPU device and 1 on any other. */
    public static final int DEVICE_LANES = 0;

    /** The lanes a CPU device gets by default (what measured fastest on PoCL, see docs/BENCHMARKS.md). */
    public static final int CPU_LANES = 64;

    /** The most queries a work-item can take ({@link #lanes()}). */
    public static final int MAX_LANES = 256;

    /**
     * What measured fastest on the CPU device the project is tested on (PoCL, see
     * docs/BENCHMARKS.md): queries bucketed, whole queries a work-item, as many as the device
     * suits. Measure on a GPU.
     */
    public static final DeviceSearch DEFAULT = new DeviceSearch(QueryOrder.PARTIAL, 1, DEVICE_LANES);

    /**
     * A search setting, checked at once.
     *
     * @param order the queries' order on the device
     * @param group work-items that search one query's page together: 1, 2, 4, 8, 16, 32 or 64
     * @param lanes queries a work-item searches together: 1 to {@value #MAX_LANES}, or
     *              {@link #DEVICE_LANES}; more than 1 only with a group of 1
     * @throws NullPointerException     if {@code order} is null
     * @throws IllegalArgumentException if {@code group} is not a power of two from 1 to 64, or
     *                                  {@code lanes} is out of range or above 1 with a group
     */
    public DeviceSearch {
        java.util.Objects.requireNonNull(order, "order");
        if (group < 1 || group > 64 || Integer.bitCount(group) != 1) {
            throw new IllegalArgumentException("a search group is 1, 2, 4, 8, 16, 32 or 64 work-items, got " + group);
        }
        if (lanes < 0 || lanes > MAX_LANES) {
            throw new IllegalArgumentException("lanes are 1 to " + MAX_LANES + " queries a work-item, or "
                    + DEVICE_LANES + " for the device's choice, got " + lanes);
        }
        if (group > 1 && lanes > 1) {
            throw new IllegalArgumentException("a search group of " + group + " work-items takes one query, not "
                    + lanes + " lanes: give lanes 1 or " + DEVICE_LANES + " with a group");
        }
    }

    /**
     * A search setting with the device's choice of lanes ({@link #DEVICE_LANES}).
     *
     * @param order the queries' order on the device
     * @param group work-items that search one query's page together: 1, 2, 4, 8, 16, 32 or 64
     * @throws NullPointerException     if {@code order} is null
     * @throws IllegalArgumentException if {@code group} is not a power of two from 1 to 64
     */
    public DeviceSearch(QueryOrder order, int group) {
        this(order, group, DEVICE_LANES);
    }
}
