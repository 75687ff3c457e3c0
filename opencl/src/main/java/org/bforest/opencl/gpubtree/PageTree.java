package org.bforest.opencl.gpubtree;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.bforest.opencl.OpenClException;
import org.bforest.opencl.cl.ClContext;
import org.bforest.opencl.cl.ClDevice;
import org.bforest.spi.BatchArguments;
import org.bforest.util.SortedInput;

/**
 * The GPU B+-tree's pages on a device and its read path (issue 17, part 2; Kaczmarek's paper,
 * section 2): leaf pages of {@code pageKeys} keys and values, inner pages of {@code pageKeys}
 * separators and {@code pageKeys + 1} child page ids, built on the host from sorted keys and
 * copied to the device once. A batch of look-ups is a host-driven descent: one kernel launch a
 * level moves every query of the batch one page down ({@code descend}), one more answers them in
 * their leaves ({@code leaf_get}); the host reads the answers back. Inserts, splits and deletes
 * come next; until then this class is internal and no factory returns it.
 *
 * <p>Unused key slots hold {@code Long.MAX_VALUE}, so a page's search needs no count; the key
 * {@code Long.MAX_VALUE} itself is kept on the host, out of band, as every bforest tree keeps it.
 * Unused child slots repeat the page's last child, so that no query can leave the tree.
 */
final class PageTree implements AutoCloseable {
    static final long MAXKEY = Long.MAX_VALUE;
    /** Queries handed to the device at once: bounds the per-call device buffers (24 bytes a query). */
    static final int MAX_BATCH = 1 << 20;

    private final ClContext cl;
    private final int pageKeys;
    /** Inner levels above the leaves (0: the root is a leaf). */
    private final int height;
    private final int root;
    private final int leafPages;
    private final int innerPages;
    private final long size;
    private final boolean hasMax;
    private final long maxValue;
    private final MemorySegment leafKeys;
    private final MemorySegment leafValues;
    private final MemorySegment innerKeys;
    private final MemorySegment innerKids;
    private final MemorySegment start;
    private final MemorySegment descend;
    private final MemorySegment leafGet;

    private PageTree(ClContext cl, int pageKeys, Built b) {
        this.cl = cl;
        this.pageKeys = pageKeys;
        this.height = b.height;
        this.root = b.root;
        this.leafPages = b.leafPages;
        this.innerPages = b.innerPages;
        this.size = b.size;
        this.hasMax = b.hasMax;
        this.maxValue = b.maxValue;
        try (Arena a = Arena.ofConfined()) {
            leafKeys = upload(a, b.leafKeys);
            leafValues = upload(a, b.leafValues);
            // An empty inner array still gets a buffer (OpenCL has no zero-byte buffers): one page.
            innerKeys = upload(a, b.innerKeys.length == 0 ? filled(pageKeys, MAXKEY) : b.innerKeys);
            innerKids = upload(a, b.innerKids.length == 0 ? new int[pageKeys + 1] : b.innerKids);
        }
        MemorySegment program = cl.program(ClContext.resource("kernels/gpu_btree.cl"), "");
        start = cl.kernel(program, "start");
        descend = cl.kernel(program, "descend");
        leafGet = cl.kernel(program, "leaf_get");
    }

    /**
     * A tree of {@code keys} (sorted, distinct) and their {@code values} ({@code null}: all 0) on
     * {@code device}, leaves filled to {@code fill} of {@code pageKeys}.
     *
     * @throws IllegalArgumentException on unsorted or duplicate keys, arrays of different lengths,
     *                                  a page size below 2 or a fill outside (0, 1]
     * @throws OpenClException          when the device refuses (no memory, a kernel that does not build)
     */
    static PageTree bulkLoad(ClDevice device, long[] keys, long[] values, int pageKeys, double fill) {
        if (pageKeys < 2) {
            throw new IllegalArgumentException("pages hold at least 2 keys, got " + pageKeys);
        }
        if (!(fill > 0 && fill <= 1)) {
            throw new IllegalArgumentException("the leaves' fill must be in (0, 1], got " + fill);
        }
        SortedInput.check(keys, values);
        Built b = build(keys, values, pageKeys, fill);
        ClContext cl = new ClContext(device);
        try {
            return new PageTree(cl, pageKeys, b);
        } catch (RuntimeException e) {
            cl.close();
            throw e;
        }
    }

    /** The host-side image of a tree, before it goes to the device. */
    private static final class Built {
        long[] leafKeys;
        long[] leafValues;
        long[] innerKeys;
        int[] innerKids;
        int leafPages;
        int innerPages;
        int height;
        int root;
        long size;
        boolean hasMax;
        long maxValue;
    }

    private static Built build(long[] keys, long[] values, int pageKeys, double fill) {
        Built b = new Built();
        int n = keys.length;
        if (n > 0 && keys[n - 1] == MAXKEY) {
            b.hasMax = true;
            b.maxValue = values == null ? 0 : values[n - 1];
            n--;
        }
        b.size = keys.length;
        int perLeaf = Math.max(1, (int) Math.floor(pageKeys * fill));
        int leaves = Math.max(1, (n + perLeaf - 1) / perLeaf);
        b.leafPages = leaves;
        b.leafKeys = filled(Math.multiplyExact(leaves, pageKeys), MAXKEY);
        b.leafValues = new long[leaves * pageKeys];
        long[] mins = new long[leaves];
        int at = 0;
        for (int l = 0; l < leaves; l++) {
            // The keys spread evenly over the leaves, as every bforest bulk load does.
            int end = (int) ((long) n * (l + 1) / leaves);
            System.arraycopy(keys, at, b.leafKeys, l * pageKeys, end - at);
            if (values != null) {
                System.arraycopy(values, at, b.leafValues, l * pageKeys, end - at);
            }
            mins[l] = at < end ? keys[at] : MAXKEY;
            at = end;
        }
        // Inner levels bottom-up: children spread evenly, at most pageKeys + 1 a page.
        int fan = pageKeys + 1;
        int count = leaves;
        int[] ids = new int[leaves];
        for (int i = 0; i < leaves; i++) {
            ids[i] = i;
        }
        int pages = 0;
        int levelPages = count;
        int total = 0;
        while (levelPages > 1) {
            levelPages = (levelPages + fan - 1) / fan;
            total += levelPages;
        }
        b.innerPages = total;
        b.innerKeys = filled(Math.multiplyExact(total, pageKeys), MAXKEY);
        b.innerKids = new int[Math.multiplyExact(total, fan)];
        int h = 0;
        while (count > 1) {
            int parents = (count + fan - 1) / fan;
            int first = 0;
            for (int p = 0; p < parents; p++) {
                int end = (int) ((long) count * (p + 1) / parents);
                int page = pages++;
                int kids = end - first;
                for (int c = 0; c < fan; c++) {
                    // Unused child slots repeat the last child: a query past the last separator
                    // (only Long.MAX_VALUE, which the host answers) stays inside the tree.
                    b.innerKids[page * fan + c] = ids[first + Math.min(c, kids - 1)];
                }
                for (int c = 1; c < kids; c++) {
                    b.innerKeys[page * pageKeys + c - 1] = mins[first + c];
                }
                ids[p] = page;
                mins[p] = mins[first];
                first = end;
            }
            count = parents;
            h++;
        }
        b.height = h;
        b.root = ids[0];
        return b;
    }

    private static long[] filled(int n, long v) {
        long[] a = new long[n];
        Arrays.fill(a, v);
        return a;
    }

    private MemorySegment upload(Arena a, long[] host) {
        MemorySegment d = cl.buffer(8L * host.length);
        cl.write(d, 0, a.allocateFrom(JAVA_LONG, host));
        return d;
    }

    private MemorySegment upload(Arena a, int[] host) {
        MemorySegment d = cl.buffer(4L * host.length);
        cl.write(d, 0, a.allocateFrom(JAVA_INT, host));
        return d;
    }

    // ---- reads ----------------------------------------------------------------------------------

    /** The value of {@code key}, or {@code absent}: a batch of one. */
    long get(long key, long absent) {
        long[] out = new long[1];
        getAll(new long[] {key}, out, absent);
        return out[0];
    }

    /**
     * The values of {@code keys} into {@code values}, {@code absent} where a key is not there:
     * batches of up to {@value #MAX_BATCH} queries, each a host-driven descent on the device.
     */
    void getAll(long[] keys, long[] values, long absent) {
        BatchArguments.checkGetAll(keys, values);
        int total = keys.length;
        if (total == 0) {
            return;
        }
        int cap = Math.min(total, MAX_BATCH);
        MemorySegment dQueries = cl.buffer(8L * cap);
        MemorySegment dPages = null;
        MemorySegment dOut = null;
        try (Arena a = Arena.ofConfined()) {
            dPages = cl.buffer(4L * cap);
            dOut = cl.buffer(8L * cap);
            MemorySegment hostQueries = a.allocate(JAVA_LONG, cap);
            MemorySegment hostOut = a.allocate(JAVA_LONG, cap);
            for (int from = 0; from < total; from += cap) {
                int n = Math.min(cap, total - from);
                MemorySegment.copy(keys, from, hostQueries, JAVA_LONG, 0, n);
                cl.write(dQueries, 0, hostQueries.asSlice(0, 8L * n));
                cl.arg(start, 0, dPages);
                cl.arg(start, 1, root);
                cl.arg(start, 2, n);
                cl.run(start, n, 0);
                for (int h = height; h > 0; h--) {
                    cl.arg(descend, 0, innerKeys);
                    cl.arg(descend, 1, innerKids);
                    cl.arg(descend, 2, pageKeys);
                    cl.arg(descend, 3, dPages);
                    cl.arg(descend, 4, dQueries);
                    cl.arg(descend, 5, n);
                    cl.run(descend, n, 0);
                }
                cl.arg(leafGet, 0, leafKeys);
                cl.arg(leafGet, 1, leafValues);
                cl.arg(leafGet, 2, pageKeys);
                cl.arg(leafGet, 3, dPages);
                cl.arg(leafGet, 4, dQueries);
                cl.arg(leafGet, 5, dOut);
                cl.arg(leafGet, 6, absent);
                cl.arg(leafGet, 7, n);
                cl.run(leafGet, n, 0);
                cl.read(dOut, 0, hostOut.asSlice(0, 8L * n));
                MemorySegment.copy(hostOut, JAVA_LONG, 0, values, from, n);
                for (int i = from; i < from + n; i++) {
                    if (keys[i] == MAXKEY) {
                        values[i] = hasMax ? maxValue : absent;
                    }
                }
            }
        } finally {
            cl.release(dQueries);
            if (dPages != null) {
                cl.release(dPages);
            }
            if (dOut != null) {
                cl.release(dOut);
            }
        }
    }

    long size() {
        return size;
    }

    /** Inner levels above the leaves. */
    int height() {
        return height;
    }

    int leafPages() {
        return leafPages;
    }

    int innerPages() {
        return innerPages;
    }

    /** Device buffers held now (a leak check's figure). */
    int deviceBuffers() {
        return cl.liveBuffers();
    }

    @Override
    public void close() {
        cl.close();
    }
}
