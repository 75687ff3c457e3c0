package org.bforest.opencl.cl;

import java.lang.foreign.MemorySegment;

/**
 * The kernels of {@code kernels/query_order.cl} as one paged tree runs them: a look-up batch put
 * in its partial order on the device (a counting sort by bucket: count, scan, scatter), so that the
 * host only copies the keys in as the caller gave them. Kernel objects of the tree's own scope, as
 * {@link PageKernels}'; the caller holds the scope's {@linkplain ClScope#lock() lock} around a
 * batch's calls. The buckets: the leading bits of each key above the batch's smallest, or the
 * leaf page the host's descent found for it (see the kernel source).
 */
public final class OrderKernels {
    /** The largest work-group of the scan ({@code ORDER_GROUP} in the kernel source: its local memory). */
    private static final int MAX_GROUP = 256;

    private final ClScope cl;
    private final MemorySegment count;
    private final MemorySegment scan;
    private final MemorySegment scatter;
    private final int group;

    public OrderKernels(ClScope cl) {
        this.cl = cl;
        MemorySegment program = cl.program("kernels/query_order.cl", "");
        count = cl.kernel(program, "order_count");
        scan = cl.kernel(program, "order_scan");
        scatter = cl.kernel(program, "order_scatter");
        group = Integer.highestOneBit((int) Math.max(1, Math.min(MAX_GROUP, cl.device().maxWorkGroupSize())));
    }

    /**
     * Enqueues the order of {@code n} queries: {@code raw} holds their keys from byte 0 and, with
     * {@code leavesAt >= 0}, their leaf pages from int index {@code leavesAt} (the buckets, shifted
     * right by {@code shift}); else the bucket of key k is {@code (k - base) >>> shift}; at most
     * {@code buckets} buckets. The ordered keys go to {@code queries} from long 0, each one's index
     * in the caller's order to int index {@code toAt} of it, and with leaves, each one's leaf to
     * {@code pages} from int 0. {@code counts}: room for {@code buckets} ints.
     */
    public void order(ClBuffer raw, int leavesAt, long base, int shift, int n, int buckets, ClBuffer counts,
            ClBuffer queries, int toAt, ClBuffer pages) {
        cl.touch(counts, 0, 4L * buckets);   // a fill with zeros
        buckets(count, raw, leavesAt, base, shift, n, counts);
        cl.enqueue(count, n);
        cl.arg(scan, 0, counts);
        cl.arg(scan, 1, buckets);
        cl.enqueueLocal(scan, group, group);
        buckets(scatter, raw, leavesAt, base, shift, n, counts);
        cl.arg(scatter, 7, queries);
        cl.arg(scatter, 8, queries);
        cl.arg(scatter, 9, toAt);
        cl.arg(scatter, 10, leavesAt >= 0 ? pages : raw);
        cl.enqueue(scatter, n);
    }

    /** The arguments {@code order_count} and {@code order_scatter} start with: the queries, their buckets, the counts. */
    private void buckets(MemorySegment k, ClBuffer raw, int leavesAt, long base, int shift, int n, ClBuffer counts) {
        cl.arg(k, 0, raw);
        cl.arg(k, 1, raw);   // the leaves, if any, from int leavesAt of the same buffer
        cl.arg(k, 2, leavesAt);
        cl.arg(k, 3, base);
        cl.arg(k, 4, shift);
        cl.arg(k, 5, n);
        cl.arg(k, 6, counts);
    }
}
