package org.bforest.opencl.cl;

import java.lang.foreign.MemorySegment;

/**
 * The kernels of {@code kernels/gpu_btree.cl} as one paged tree (the GPU B+-tree, the hybrid
 * tree) runs them: kernel objects of the tree's own scope (a kernel object holds its arguments, so
 * two trees never share one), each behind a typed method that sets the arguments in the kernel's
 * order and enqueues the launch (the queue is in order: the next blocking call sees the result).
 * Apart from the trees so that they hold no kernel handle and set no argument by its index; the
 * FFM API stays in this package. The descents are the subclasses': {@link #descent} (the GPU
 * B+-tree's, through its inner pages) and {@link #leafLookup} (the hybrid's, at the leaves its CPU
 * levels found), each a kernel of one query a work-item or, for a search group, its cooperating
 * variant. The caller holds the scope's {@linkplain ClScope#lock() lock} around a batch's calls.
 */
public final class PageKernels {
    private final ClScope cl;
    private final MemorySegment program;
    private final MemorySegment replace;
    private final MemorySegment merge;
    private final MemorySegment compact;
    private final MemorySegment scatter;
    private final MemorySegment gather;
    private final MemorySegment gatherPath;
    private final MemorySegment visitAll;

    /** The kernels' source, a resource. */
    private static final String SOURCE = "kernels/gpu_btree.cl";

    /** The lanes a CPU device's one-query kernels get by default (the tree's search setting can say otherwise). */
    private static final int CPU_LANES = org.bforest.opencl.DeviceSearch.CPU_LANES;

    /** The program (built once a device) and the kernel objects every paged tree uses. */
    public PageKernels(ClScope cl) {
        this.cl = cl;
        program = cl.program(SOURCE, "");
        replace = cl.kernel(program, "leaf_replace");
        merge = cl.kernel(program, "merge");
        compact = cl.kernel(program, "compact");
        scatter = cl.kernel(program, "scatter");
        gather = cl.kernel(program, "gather");
        gatherPath = cl.kernel(program, "gather_path");
        visitAll = cl.kernel(program, "visit_all");
    }

    /** {@code leaf_replace}: the values of a batch's keys that were found, in place, one work-item a query. */
    public void replace(ClBuffer values, int pageKeys, ClBuffer out, ClBuffer queries, int n) {
        cl.arg(replace, 0, values);
        cl.arg(replace, 1, pageKeys);
        cl.arg(replace, 2, out);
        cl.arg(replace, 3, queries);
        cl.arg(replace, 4, n);
        cl.enqueue(replace, n);
    }

    /**
     * {@code merge}: each job's page entries and its run into scratch, one work-item an entry of
     * the union; {@code inner}: the pages are inner pages (an entry a separator and its right child).
     */
    public void merge(ClBuffer keys, ClBuffer values, ClBuffer kids, boolean inner, int pageKeys, ClBuffer meta,
            int jobAt, int inAt, int outAt, int jobs, int tileAt, ClBuffer runs, int runValuesAt, ClBuffer scratchKeys,
            ClBuffer scratchValues, int items) {
        int a = 0;
        cl.arg(merge, a++, keys);
        cl.arg(merge, a++, values);
        cl.arg(merge, a++, kids);
        cl.arg(merge, a++, inner ? 1 : 0);
        cl.arg(merge, a++, pageKeys);
        cl.arg(merge, a++, meta);
        cl.arg(merge, a++, jobAt);
        cl.arg(merge, a++, inAt);
        cl.arg(merge, a++, outAt);
        cl.arg(merge, a++, jobs);
        cl.arg(merge, a++, tileAt);
        cl.arg(merge, a++, runs);
        cl.arg(merge, a++, runValuesAt);
        cl.arg(merge, a++, scratchKeys);
        cl.arg(merge, a++, scratchValues);
        cl.arg(merge, a, items);
        cl.enqueue(merge, items);
    }

    /** {@code compact}: each job's page entries less its run of removed keys into scratch, one work-item an old entry. */
    public void compact(ClBuffer keys, ClBuffer values, int pageKeys, ClBuffer meta, int jobAt, int inAt, int outAt,
            int jobs, int tileAt, ClBuffer runs, ClBuffer scratchKeys, ClBuffer scratchValues, int items) {
        int a = 0;
        cl.arg(compact, a++, keys);
        cl.arg(compact, a++, values);
        cl.arg(compact, a++, pageKeys);
        cl.arg(compact, a++, meta);
        cl.arg(compact, a++, jobAt);
        cl.arg(compact, a++, inAt);
        cl.arg(compact, a++, outAt);
        cl.arg(compact, a++, jobs);
        cl.arg(compact, a++, tileAt);
        cl.arg(compact, a++, runs);
        cl.arg(compact, a++, scratchKeys);
        cl.arg(compact, a++, scratchValues);
        cl.arg(compact, a, items);
        cl.enqueue(compact, items);
    }

    /** {@code scatter}: the scratch's results over each job's pages (the page, then its new pages), one work-item a slot. */
    public void scatter(ClBuffer keys, ClBuffer values, ClBuffer kids, boolean inner, int pageKeys, ClBuffer meta,
            int jobAt, int slotAt, int outAt, int jobs, int destAt, int tileAt, ClBuffer scratchKeys,
            ClBuffer scratchValues, int slots) {
        int a = 0;
        cl.arg(scatter, a++, keys);
        cl.arg(scatter, a++, values);
        cl.arg(scatter, a++, kids);
        cl.arg(scatter, a++, inner ? 1 : 0);
        cl.arg(scatter, a++, pageKeys);
        cl.arg(scatter, a++, meta);
        cl.arg(scatter, a++, jobAt);
        cl.arg(scatter, a++, slotAt);
        cl.arg(scatter, a++, outAt);
        cl.arg(scatter, a++, jobs);
        cl.arg(scatter, a++, destAt);
        cl.arg(scatter, a++, tileAt);
        cl.arg(scatter, a++, scratchKeys);
        cl.arg(scatter, a++, scratchValues);
        cl.arg(scatter, a, slots);
        cl.enqueue(scatter, slots);
    }

    /** {@code gather}: {@code out[i] = src[meta[at + i]]} for i below n (the separators of new pages). */
    public void gather(ClBuffer src, ClBuffer meta, int at, ClBuffer out, int n) {
        cl.arg(gather, 0, src);
        cl.arg(gather, 1, meta);
        cl.arg(gather, 2, at);
        cl.arg(gather, 3, out);
        cl.arg(gather, 4, n);
        cl.enqueue(gather, n);
    }

    /**
     * {@code gather_path}: {@code out[outAt + d * k + j] = path[d * n + reps[j]]} for the rows
     * {@code d} below {@code height} and {@code j} below {@code k} (the descent's path of the
     * queries reps).
     */
    public void gatherPath(ClBuffer path, int n, ClBuffer reps, int k, int height, ClBuffer out, int outAt) {
        cl.arg(gatherPath, 0, path);
        cl.arg(gatherPath, 1, n);
        cl.arg(gatherPath, 2, reps);
        cl.arg(gatherPath, 3, k);
        cl.arg(gatherPath, 4, height);
        cl.arg(gatherPath, 5, out);
        cl.arg(gatherPath, 6, outAt);
        cl.enqueue(gatherPath, (long) k * height);
    }

    /** {@code visit_all}: the entries of {@code jobs} pages packed in the order given, one work-item an entry. */
    public void visitAll(ClBuffer keys, ClBuffer values, int pageKeys, ClBuffer meta, int pagesAt, int startsAt,
            int jobs, ClBuffer outKeys, ClBuffer outValues, int items) {
        int a = 0;
        cl.arg(visitAll, a++, keys);
        cl.arg(visitAll, a++, values);
        cl.arg(visitAll, a++, pageKeys);
        cl.arg(visitAll, a++, meta);
        cl.arg(visitAll, a++, pagesAt);
        cl.arg(visitAll, a++, startsAt);
        cl.arg(visitAll, a++, jobs);
        cl.arg(visitAll, a++, outKeys);
        cl.arg(visitAll, a++, outValues);
        cl.arg(visitAll, a, items);
        cl.enqueue(visitAll, items);
    }

    /**
     * The GPU B+-tree's descent, searching its pages {@code group} work-items a query (1: one each)
     * or, with a group of 1, {@code lanes} queries a work-item (see {@link #lanes}).
     */
    public Descent descent(int group, int lanes, int pageKeys) {
        return new Descent(this, group, lanes(group, lanes), pageKeys);
    }

    /** The hybrid's leaf search, searching its pages as {@link #descent} does. */
    public LeafLookup leafLookup(int group, int lanes, int pageKeys) {
        return new LeafLookup(this, group, lanes(group, lanes), pageKeys);
    }

    /**
     * The queries a work-item of the one-query kernels: {@code lanes} as the tree's search setting
     * gives it (1 with a search group), or for 0 (the device's choice) {@link #CPU_LANES} on a CPU
     * device and 1 on any other.
     */
    private int lanes(int group, int lanes) {
        if (group > 1) {
            return 1;
        }
        return lanes > 0 ? lanes : cl.device().isCpu() ? CPU_LANES : 1;
    }

    /**
     * The program with its one-query kernels built for {@code lanes} queries a work-item (the
     * kernels' {@code LANES}): the tree's own program at 1, another build for more (kept by the
     * context, one a device and setting).
     */
    private MemorySegment program(int lanes) {
        return lanes == 1 ? program : cl.program(SOURCE, "-D LANES=" + lanes);
    }

    /**
     * For a group search: the least power of the group's width that covers a page (the kernels'
     * {@code span}: every query takes the same steps, so every work-item reaches every barrier).
     */
    private static int span(int group, int pageKeys) {
        int span = 1;
        while (span < pageKeys) {
            span *= group;
        }
        return span;
    }

    /**
     * {@code descend_lookup} (or {@code descend_lookup_group}): every query through all the inner
     * levels in one launch, its path kept a row a level (0 the root, {@code height} the leaves),
     * then looked up in its leaf. Unless {@code full}, the values alone: value i at {@code out[i]},
     * or with {@code toAt >= 0} at {@code out[to[i]]}, {@code to} the ints from int index
     * {@code toAt} of {@code queries}.
     */
    public static final class Descent {
        private final ClScope cl;
        private final MemorySegment single;
        private final MemorySegment grouped;
        private final int group;
        private final int lanes;
        private final int span;

        private Descent(PageKernels k, int group, int lanes, int pageKeys) {
            cl = k.cl;
            single = cl.kernel(k.program(lanes), "descend_lookup");
            grouped = group > 1 ? cl.kernel(k.program, "descend_lookup_group") : null;
            this.group = group;
            this.lanes = lanes;
            span = group > 1 ? span(group, pageKeys) : 1;
        }

        public void enqueue(ClBuffer innerKeys, ClBuffer kids, ClBuffer keys, ClBuffer values, int pageKeys,
                int height, int root, int rootKeys, ClBuffer path, ClBuffer queries, ClBuffer out, long absent, int n,
                boolean full, int toAt) {
            MemorySegment k = group > 1 ? grouped : single;
            int a = 0;
            cl.arg(k, a++, innerKeys);
            cl.arg(k, a++, kids);
            cl.arg(k, a++, keys);
            cl.arg(k, a++, values);
            cl.arg(k, a++, pageKeys);
            cl.arg(k, a++, height);
            cl.arg(k, a++, root);
            if (group == 1) {
                cl.arg(k, a++, rootKeys);   // the single kernel's: the group search takes whole pages
            }
            cl.arg(k, a++, path);
            cl.arg(k, a++, queries);
            cl.arg(k, a++, out);
            cl.arg(k, a++, absent);
            cl.arg(k, a++, n);
            cl.arg(k, a++, full ? 1 : 0);
            cl.arg(k, a++, queries);   // the answers' positions, if any, follow the queries
            cl.arg(k, a++, toAt);
            if (group == 1) {
                cl.enqueue(k, (n + lanes - 1) / lanes);
                return;
            }
            cl.arg(k, a++, group);
            cl.arg(k, a++, span);
            cl.enqueueGroups(k, (long) n * group, group, a);
        }
    }

    /**
     * {@code lookup_at} (or {@code lookup_at_group}): every query looked up in the leaf page given
     * with it, the answers as {@link Descent} leaves them.
     */
    public static final class LeafLookup {
        private final ClScope cl;
        private final MemorySegment kernel;
        private final int group;
        private final int lanes;
        private final int span;

        private LeafLookup(PageKernels k, int group, int lanes, int pageKeys) {
            cl = k.cl;
            kernel = group > 1 ? cl.kernel(k.program, "lookup_at_group") : cl.kernel(k.program(lanes), "lookup_at");
            this.group = group;
            this.lanes = lanes;
            span = group > 1 ? span(group, pageKeys) : 1;
        }

        public void enqueue(ClBuffer keys, ClBuffer values, int pageKeys, ClBuffer pages, ClBuffer queries,
                ClBuffer out, long absent, int n, boolean full, int toAt) {
            int a = 0;
            cl.arg(kernel, a++, keys);
            cl.arg(kernel, a++, values);
            cl.arg(kernel, a++, pageKeys);
            cl.arg(kernel, a++, pages);
            cl.arg(kernel, a++, queries);
            cl.arg(kernel, a++, out);
            cl.arg(kernel, a++, absent);
            cl.arg(kernel, a++, n);
            cl.arg(kernel, a++, full ? 1 : 0);
            cl.arg(kernel, a++, queries);
            cl.arg(kernel, a++, toAt);
            if (group == 1) {
                cl.enqueue(kernel, (n + lanes - 1) / lanes);
                return;
            }
            cl.arg(kernel, a++, group);
            cl.arg(kernel, a++, span);
            cl.enqueueGroups(kernel, (long) n * group, group, a);
        }
    }
}
