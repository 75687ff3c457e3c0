package org.bforest.opencl.pages;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.bforest.opencl.DeviceSearch;
import org.bforest.opencl.cl.ClBuffer;
import org.bforest.opencl.cl.ClScope;
import org.bforest.opencl.cl.OrderKernels;
import org.bforest.opencl.pages.PageStore.Scratch;

/**
 * A tree's look-up batches ({@code getAll}): the queries put in their partial order by the device
 * ({@link OrderKernels}; the host only copies them in as given, in parts over its threads, and
 * the hybrid descends them there), or, if asked, by the host ({@link QueryOrders}, in parts over
 * its threads by {@link HostWork}); each query goes with its place in the caller's order, and the
 * device writes each answer to its place, so that the host copies the answers out of the pinned
 * memory they arrive in, in parts, where it scattered them before (a random write a key). The
 * device's order is the default on every device: on a GPU it takes the host's sort off the
 * critical path, and on PoCL, whose cores are the host's, it measured as fast for the GPU tree and
 * 0.87x for the hybrid, whose descent then meets its keys unordered (docs/BENCHMARKS.md, "Look-ups
 * ordered on the device"). On a GPU a large batch goes as two chunks in flight: while the device
 * searches one, the host copies in (the hybrid: descends) the next and then copies out the
 * answers of the one before, each chunk in a query slot of its own
 * ({@link PageStore#useQuerySlot}) with a read that does not wait ({@link ClScope#readLater}). Not
 * on a CPU device, whose cores are the host's: overlapping only takes them from the kernels
 * (measured slower on PoCL). The host's scratch is kept from batch to batch, so a stream of
 * batches allocates nothing per key. Apart from {@link PagedTree} because it is a batch's
 * orchestration, not the tree's state; the tree calls it under its lock.
 */
final class LookUpBatches {
    /** Batches at least this large go to the device as two chunks in flight (when {@link #pipelined}). */
    static final int PIPELINED = 1 << 17;
    /** Keys a part copies to the device's staging memory before it reads them for their range. */
    private static final int COPY_RUN = 4096;

    private final PagedTree tree;
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
    /**
     * Whether the device puts a {@link DeviceSearch.QueryOrder#PARTIAL} batch in order
     * ({@link OrderKernels}) instead of the host ({@link QueryOrders}):
     * {@code -Dbforest.opencl.orderOn=device} (the default) or {@code host}. Tests set it.
     */
    boolean deviceOrders;
    /** The smallest batch ordered ({@link #reorders}). */
    final int orderFrom;
    /** The most buckets of a device's order, as bits (tests: fewer, for coarse buckets and leaf ids shifted). */
    int bucketBits = 16;
    /** The device's ordering kernels (made at the first batch it orders). */
    private OrderKernels orderKernels;
    /** Each part's smallest and largest key of the chunk being copied in. */
    private final long[] mins = new long[64];
    private final long[] maxs = new long[64];

    LookUpBatches(PagedTree tree, ClScope cl, PageStore store, DeviceSearch search) {
        this.tree = tree;
        this.cl = cl;
        this.store = store;
        this.search = search;
        this.pipelined = switch (System.getProperty("bforest.opencl.pipeline", "auto")) {
            case "on" -> true;
            case "off" -> false;
            default -> cl.device().isGpu();
        };
        this.orderFrom = orderFrom(System.getProperty("bforest.opencl.orderFrom"));
        this.deviceOrders = switch (System.getProperty("bforest.opencl.orderOn", "device")) {
            case "device" -> true;
            case "host" -> false;
            default -> throw new IllegalArgumentException("-Dbforest.opencl.orderOn is \"device\" (the default) or"
                    + " \"host\", got \"" + System.getProperty("bforest.opencl.orderOn") + "\"");
        };
    }

    /**
     * Whether a look-up batch of n is reordered before it goes to the device: from
     * {@link #orderFrom} keys. Below that the order costs more than it saves (on PoCL, batches
     * of 64 and 1,024 keys 0.72x and 0.82x ordered, parity at 4,096; docs/BENCHMARKS.md, "The
     * driver's part of the host's time"): its launches (a fill and three kernels) are a small
     * batch's latency on a GPU too, and a few keys share no page to gain from.
     */
    boolean reorders(int n) {
        return search.order() != DeviceSearch.QueryOrder.AS_GIVEN && n >= orderFrom;
    }

    /** {@code -Dbforest.opencl.orderFrom}: the smallest look-up batch ordered (the tests order from 64, to run the order). */
    static int orderFrom(String setting) {
        if (setting == null) {
            return 4096;
        }
        try {
            int n = Integer.parseInt(setting.trim());
            if (n >= 64) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException("-Dbforest.opencl.orderFrom is the smallest look-up batch ordered on the"
                + " device, a whole number of keys from 64 (default 4096), got \"" + setting + "\"");
    }

    /**
     * The tree's {@code getAll}: batches of a few keys, and all of them in the caller's order
     * ({@link DeviceSearch.QueryOrder#AS_GIVEN}), as the tree's plain look-ups; others by
     * {@link #run}. Returns whether a key may be {@code Long.MAX_VALUE} (the tree's to answer).
     */
    boolean getAll(long[] keys, long[] values, long absent, int pages) {
        if (!reorders(keys.length)) {
            for (int from = 0; from < keys.length; from += PagedTree.MAX_BATCH) {
                tree.lookUp(keys, from, Math.min(PagedTree.MAX_BATCH, keys.length - from), values, absent);
            }
            return true;
        }
        synchronized (store.lock) {
            return run(keys, values, absent, pages);
        }
    }

    /**
     * The values of {@code keys} into {@code values} ({@code absent} where a key is not there;
     * {@code Long.MAX_VALUE}'s is the tree's to fill), in chunks of at most
     * {@link PagedTree#MAX_BATCH}; {@code pages}: the tree's leaf pages (the order's buckets).
     */
    private boolean run(long[] keys, long[] values, long absent, int pages) {
        int total = keys.length;
        int chunk = total < PIPELINED || !pipelined ? Math.min(total, PagedTree.MAX_BATCH)
                : Math.min(PagedTree.MAX_BATCH, (total + 1) / 2);
        int[] chunkFrom = new int[2];
        int[] chunkN = new int[2];
        boolean maybeMax = false;
        try {
            int c = 0;
            for (int from = 0; from < total; from += chunk, c++) {
                int n = Math.min(chunk, total - from);
                int slot = c & 1;
                store.useQuerySlot(slot);
                if (deviceOrders && search.order() == DeviceSearch.QueryOrder.PARTIAL) {
                    maybeMax |= orderOnDevice(keys, from, n, absent, 2 * pages);
                } else {
                    if (perm.length < n) {
                        perm = new int[n];
                    }
                    if (ordered.length < n) {
                        ordered = new long[n];
                    }
                    counts = QueryOrders.ordered(keys, from, n, search.order(), 2 * pages, ordered, perm, counts);
                    // The caller's order as given: the answers need no moving.
                    tree.sendQueries(ordered, 0, n, null, search.order() == DeviceSearch.QueryOrder.AS_GIVEN ? null : perm,
                            absent, false, true);
                    maybeMax = true;
                }
                cl.readLater(store.scratch(Scratch.OUT, PageStore.outBytes(n)), 0, 8L * n, slot);
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
        return maybeMax;
    }

    /**
     * Sends {@code keys[from, from + n)} as the caller gave them and enqueues their order on the
     * device, then their look-up; returns whether one of them is {@code Long.MAX_VALUE}. The
     * host's part is one pass, in parts over its threads, that copies the keys into the pinned
     * memory the device reads and finds their range (the buckets are the leading bits above the
     * smallest, about {@code buckets} of them), and where the host descends (the hybrid), that
     * descent, whose leaf pages become the buckets.
     */
    private boolean orderOnDevice(long[] keys, int from, int n, long absent, int buckets) {
        if (orderKernels == null) {
            orderKernels = new OrderKernels(cl);
        }
        store.scratch(Scratch.QUERIES, 16L * n);
        store.scratch(Scratch.OUT, PageStore.outBytes(n));
        tree.prepareDescent(keys, from, n, false);   // sizes PATH; the hybrid's CPU descent
        int[] leaves = tree.descentLeaves();
        int bits = Math.max(1, Math.min(bucketBits, 32 - Integer.numberOfLeadingZeros(Math.min(buckets, n) - 1)));
        ClBuffer raw = store.scratch(Scratch.RAW, 12L * n);
        ClBuffer countsOnDevice = store.scratch(Scratch.COUNTS, 4L << bucketBits);
        // Sized first: no blocking call may come between stage and writeStaged.
        MemorySegment staged = cl.stage((leaves == null ? 8L : 12L) * n);
        int parts = Math.min(mins.length, HostWork.parts(n));
        HostWork.split(n, parts, (p, lo, hi) -> {
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            for (int c = lo; c < hi; c += COPY_RUN) {   // a run copied, then read again while in the cache
                int e = Math.min(hi, c + COPY_RUN);
                MemorySegment.copy(keys, from + c, staged, ValueLayout.JAVA_LONG, 8L * c, e - c);
                for (int i = from + c; i < from + e; i++) {
                    long k = keys[i];
                    min = Math.min(min, k);
                    max = Math.max(max, k);
                }
            }
            mins[p] = min;
            maxs[p] = max;
            if (leaves != null) {
                MemorySegment.copy(leaves, lo, staged, ValueLayout.JAVA_INT, 8L * n + 4L * lo, hi - lo);
            }
        });
        cl.writeStaged(raw, 0, staged);
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int p = 0; p < parts; p++) {
            min = Math.min(min, mins[p]);
            max = Math.max(max, maxs[p]);
        }
        int shift;
        int nb;
        if (leaves != null) {   // page ids below the store's top, at most 2^bucketBits buckets of them
            int top = Math.max(1, store.leafIds.top());
            shift = Math.max(0, 32 - Integer.numberOfLeadingZeros(top - 1) - bucketBits);
            nb = ((top - 1) >>> shift) + 1;
        } else {
            shift = Math.max(0, 64 - Long.numberOfLeadingZeros(max - min) - bits);
            nb = (int) ((max - min) >>> shift) + 1;
        }
        orderKernels.order(raw, leaves == null ? -1 : 2 * n, min, shift, n, nb, countsOnDevice,
                store.scratch(Scratch.QUERIES, 16L * n), 2 * n, store.scratch(Scratch.PATH, 4L * n));
        tree.enqueueLookup(n, absent, false, 2 * n);
        return max == Long.MAX_VALUE;
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
