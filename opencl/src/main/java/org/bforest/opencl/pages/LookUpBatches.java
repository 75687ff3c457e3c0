package org.bforest.opencl.pages;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.bforest.opencl.DeviceSearch;
import org.bforest.opencl.cl.ClScope;
import org.bforest.opencl.pages.PageStore.Scratch;

/**
 * A tree's look-up batches ({@code getAll}): the queries ordered on the host ({@link QueryOrders}),
 * split over the host's threads ({@link HostWork}), and sent with each one's place in the caller's
 * order; the device searches them and writes each answer to its place, so that the host copies
 * the answers out of the pinned memory they arrive in, in one sequential pass, where it scattered
 * them before (a random write a key). On a GPU a large batch goes as two chunks in flight: while
 * the device searches one, the host orders the next (the hybrid: descends it too) and then copies
 * the answers of the one before, each chunk in a query slot of its own ({@link PageStore#useQuerySlot})
 * with a read that does not wait ({@link ClScope#readLater}). Not on a CPU device, whose cores are
 * the host's: overlapping only takes them from the kernels (measured slower on PoCL). The host's
 * scratch is kept from batch to batch, so a stream of batches allocates nothing per key. Apart
 * from {@link PagedTree} because it is a batch's orchestration, not the tree's state; the tree
 * calls it under its lock.
 */
final class LookUpBatches {
    /** Batches at least this large go to the device as two chunks in flight (when {@link #pipelined}). */
    static final int PIPELINED = 1 << 17;

    /**
     * Sends {@code q[0, n)} to the device and enqueues their look-up, the values alone, value i to
     * go to {@code to[i]} of the answers (null: to i), the tree's.
     */
    interface Sender {
        void send(long[] q, int[] to, int n, long absent);
    }

    private final ClScope cl;
    private final PageStore store;
    private final DeviceSearch search;
    /**
     * Whether batches overlap host and device work: on a GPU (the default,
     * {@code -Dbforest.opencl.pipeline=auto}), not on a CPU device; {@code on} or {@code off} to
     * choose. Tests set it.
     */
    boolean pipelined;
    /** The ordered queries of a chunk (copied to the device's staging memory by the sender: free again after it). */
    private long[] ordered = new long[0];
    /**
     * A chunk's order: {@code ordered[i]} is the caller's key {@code from + perm[i]} (copied to the
     * device's staging memory by the sender with the keys: free again after it).
     */
    private int[] perm = new int[0];
    /** The partial order's counts, a row a part ({@link QueryOrders#ordered}), kept from batch to batch. */
    private int[][] counts = new int[0][];

    LookUpBatches(ClScope cl, PageStore store, DeviceSearch search) {
        this.cl = cl;
        this.store = store;
        this.search = search;
        this.pipelined = switch (System.getProperty("bforest.opencl.pipeline", "auto")) {
            case "on" -> true;
            case "off" -> false;
            default -> cl.device().isGpu();
        };
    }

    /**
     * The values of {@code keys} into {@code values} ({@code absent} where a key is not there;
     * {@code Long.MAX_VALUE}'s is the tree's to fill), in chunks of at most
     * {@link PagedTree#MAX_BATCH}; {@code pages}: the tree's leaf pages (the order's buckets).
     */
    void run(long[] keys, long[] values, long absent, int pages, Sender sender) {
        int total = keys.length;
        int chunk = total < PIPELINED || !pipelined ? Math.min(total, PagedTree.MAX_BATCH)
                : Math.min(PagedTree.MAX_BATCH, (total + 1) / 2);
        int[] chunkFrom = new int[2];
        int[] chunkN = new int[2];
        try {
            int c = 0;
            for (int from = 0; from < total; from += chunk, c++) {
                int n = Math.min(chunk, total - from);
                int slot = c & 1;
                if (perm.length < n) {
                    perm = new int[n];
                }
                if (ordered.length < n) {
                    ordered = new long[n];
                }
                counts = QueryOrders.ordered(keys, from, n, search.order(), 2 * pages, ordered, perm, counts);
                store.useQuerySlot(slot);
                // The caller's order as given: the answers need no moving.
                sender.send(ordered, search.order() == DeviceSearch.QueryOrder.AS_GIVEN ? null : perm, n, absent);
                cl.readLater(store.scratch(Scratch.OUT, 24L * n), 0, 8L * n, slot);
                chunkFrom[slot] = from;
                chunkN[slot] = n;
                if (c > 0) {   // the chunk before, while the device searches this one
                    answers(values, chunkFrom[slot ^ 1], chunkN[slot ^ 1], slot ^ 1, false);
                }
            }
            int last = (c - 1) & 1;
            answers(values, chunkFrom[last], chunkN[last], last, true);
        } finally {
            store.useQuerySlot(0);
        }
    }

    /**
     * A chunk's answers, in the caller's order in its slot's pinned memory once read, copied out;
     * the last chunk's after every command of the batch is known to have run (a failed one throws
     * before the caller's array is written).
     */
    private void answers(long[] values, int from, int n, int slot, boolean last) {
        MemorySegment out = cl.awaitRead(slot);
        if (last) {
            cl.afterReads();
        }
        HostWork.split(n, (part, lo, hi) -> MemorySegment.copy(out, ValueLayout.JAVA_LONG, 8L * lo, values, from + lo,
                hi - lo));
    }

    /** Host bytes of the scratch kept between batches. */
    long hostBytes() {
        long countBytes = counts.length == 0 ? 0 : 4L * counts.length * counts[0].length;
        return countBytes + 8L * ordered.length + 4L * perm.length;
    }
}
