package org.bforest.opencl.cl;

import java.lang.foreign.MemorySegment;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The kernels of {@code kernels/device_visit.cl} as one paged tree runs them: a caller's function
 * ({@code bforest_map}, the body of an {@link org.bforest.opencl.DeviceFunction}) compiled in front
 * of the visit kernels, one program a distinct body for the device's life
 * ({@link ClContext#cachedProgram}), and this tree's own kernel objects for the last few bodies it
 * ran (a kernel object holds its arguments, so two trees never share one; the ones dropped are
 * released). Each launch is one work-group a leaf page: see the kernel source. As
 * {@link PageKernels}, it keeps the FFM API in this package; the caller holds the scope's
 * {@linkplain ClScope#lock() lock} around a call's launches.
 */
public final class VisitKernels {
    /** The largest work-group of a launch ({@code VISIT_GROUP} in the kernel source: its local memory). */
    public static final int MAX_GROUP = 256;
    /** Bodies whose kernel objects a tree keeps. */
    private static final int KEPT = 8;
    private static volatile String kernelsText;

    private final ClScope cl;
    /** The kernel objects (reduce, transform) by body, least recently used first. */
    private final LinkedHashMap<String, MemorySegment[]> byBody = new LinkedHashMap<>(16, 0.75f, true);

    public VisitKernels(ClScope cl) {
        this.cl = cl;
    }

    /**
     * The program text for {@code body}: the function first, its lines numbered from 1 in the
     * compiler's log, then the visit kernels.
     */
    static String source(String body) {
        String kernels = kernelsText;
        if (kernels == null) {
            kernels = ClContext.resource("kernels/device_visit.cl");
            kernelsText = kernels;
        }
        return "static inline long bforest_map(long key, long value, long p0, long p1)\n{\n#line 1 \"bforest_map\"\n"
                + body + "\n}\n#line 1 \"device_visit.cl\"\n" + kernels;
    }

    /** The work-group size for pages of {@code pageKeys}: a power of two, at most {@link #MAX_GROUP} and the device's. */
    public int group(int pageKeys) {
        int device = Integer.highestOneBit((int) Math.min(Integer.MAX_VALUE, Math.max(1, cl.device().maxWorkGroupSize())));
        int page = pageKeys <= 1 ? 1 : Integer.highestOneBit(pageKeys - 1) << 1;
        return Math.max(1, Math.min(MAX_GROUP, Math.min(device, page)));
    }

    /** This tree's kernel objects for {@code body}, compiling it first if the device has not yet. */
    private MemorySegment[] kernels(String body) {
        MemorySegment[] k = byBody.get(body);
        if (k != null) {
            return k;
        }
        MemorySegment program = cl.programOf(source(body));   // a body that does not build throws here
        MemorySegment reduce = cl.kernel(program, "visit_reduce");
        MemorySegment transform;
        try {
            transform = cl.kernel(program, "visit_transform");
        } catch (RuntimeException e) {
            cl.releaseKernel(reduce);
            throw e;
        }
        k = new MemorySegment[] {reduce, transform};
        byBody.put(body, k);
        if (byBody.size() > KEPT) {
            Iterator<Map.Entry<String, MemorySegment[]>> eldest = byBody.entrySet().iterator();
            MemorySegment[] old = eldest.next().getValue();
            eldest.remove();
            for (MemorySegment o : old) {
                cl.releaseKernel(o);
            }
        }
        return k;
    }

    /**
     * Makes sure {@code body} is compiled and this tree has its kernels, before anything is sent:
     * a body that does not build throws {@link org.bforest.opencl.OpenClException} here.
     */
    public void prepare(String body) {
        kernels(body);
    }

    /**
     * {@code visit_reduce}: {@code partials[g]} = the sum of {@code bforest_map} (or, with
     * {@code countOnly}, how many are not 0) over the used slots of page {@code meta[g]}, for
     * {@code g < jobs}; work-groups of {@code group} work-items (see {@link #group}).
     */
    public void reduce(String body, long p0, long p1, boolean countOnly, ClBuffer keys, ClBuffer values,
            int pageKeys, ClBuffer meta, int jobs, ClBuffer partials, int group) {
        MemorySegment k = kernels(body)[0];
        int a = pages(k, keys, values, pageKeys, meta, jobs);
        cl.arg(k, a++, countOnly ? 1 : 0);
        cl.arg(k, a++, p0);
        cl.arg(k, a++, p1);
        cl.arg(k, a, partials);
        cl.enqueueLocal(k, (long) jobs * group, group);
    }

    /** {@code visit_transform}: every used slot's value of pages {@code meta[0, jobs)} becomes {@code bforest_map(key, value)}. */
    public void transform(String body, long p0, long p1, ClBuffer keys, ClBuffer values, int pageKeys, ClBuffer meta,
            int jobs, int group) {
        MemorySegment k = kernels(body)[1];
        int a = pages(k, keys, values, pageKeys, meta, jobs);
        cl.arg(k, a++, p0);
        cl.arg(k, a, p1);
        cl.enqueueLocal(k, (long) jobs * group, group);
    }

    /** The arguments both kernels start with, the leaves and the launch's pages; returns the next argument's index. */
    private int pages(MemorySegment k, ClBuffer keys, ClBuffer values, int pageKeys, ClBuffer meta, int jobs) {
        cl.arg(k, 0, keys);
        cl.arg(k, 1, values);
        cl.arg(k, 2, pageKeys);
        cl.arg(k, 3, meta);
        cl.arg(k, 4, jobs);
        return 5;
    }
}
