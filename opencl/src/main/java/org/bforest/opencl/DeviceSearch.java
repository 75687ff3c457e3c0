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
 * </ul>
 *
 * <p>Only look-ups are concerned ({@code get}, {@code getAll}, {@code rangeCountAll}, and the
 * descent of every update batch, whose keys are sorted anyway). The answers are the same in every
 * setting; only the speed differs, and differs by device.
 *
 * @param order the queries' order on the device
 * @param group work-items a query: 1, 2, 4, 8, 16, 32 or 64
 */
public record DeviceSearch(QueryOrder order, int group) {
    /** The queries' order on the device. */
    public enum QueryOrder {
        /** As the caller gave them. */
        AS_GIVEN,
        /** Bucketed by their leading bits (one counting-sort pass on the host, about two buckets a leaf page). */
        PARTIAL,
        /** Fully sorted on the host. */
        SORTED
    }

    /**
     * What measured fastest on the CPU device the project is tested on (PoCL, see
     * docs/BENCHMARKS.md): queries bucketed, one work-item a query. Measure both on a GPU.
     */
    public static final DeviceSearch DEFAULT = new DeviceSearch(QueryOrder.PARTIAL, 1);

    /**
     * A search setting, checked at once.
     *
     * @param order the queries' order on the device
     * @param group work-items that search one query's page together: 1, 2, 4, 8, 16, 32 or 64
     * @throws NullPointerException     if {@code order} is null
     * @throws IllegalArgumentException if {@code group} is not a power of two from 1 to 64
     */
    public DeviceSearch {
        java.util.Objects.requireNonNull(order, "order");
        if (group < 1 || group > 64 || Integer.bitCount(group) != 1) {
            throw new IllegalArgumentException("a search group is 1, 2, 4, 8, 16, 32 or 64 work-items, got " + group);
        }
    }
}
