package org.bforest.opencl.pages;

import static org.bforest.spi.LeafChainIndex.MAXKEY;
import static org.bforest.spi.LeafChainIndex.NONE;

import java.util.Objects;
import org.bforest.opencl.DeviceFunction;
import org.bforest.opencl.cl.ClBuffer;
import org.bforest.opencl.cl.ClScope;
import org.bforest.opencl.cl.VisitKernels;
import org.bforest.opencl.pages.PageStore.Scratch;

/**
 * The {@link org.bforest.opencl.DeviceIndex} passes of a paged tree ({@link PagedTree#mapReduce},
 * {@link PagedTree#countIf}, {@link PagedTree#transformValues}): every entry of the leaf pages
 * visited on the device in one pass, nothing shipped back but a partial result a page. As
 * Kaczmarek's paper has it for "all elements visiting", the host keeps the list of the pages (the
 * chain, with each page's count), sends it to the device once a call, and launches one work-group
 * a page ({@link VisitKernels}); the pages go in launches of at most {@link #launchPages}, so that
 * the list and the partial results a launch needs stay bounded (16 bytes a page). Empty pages are
 * left out. The entry of {@code Long.MAX_VALUE}, which lives on the host, is the host's: the
 * function's Java form gives its part.
 *
 * <p>Not thread-safe: the tree calls it under its device lock.
 */
final class DeviceVisit {
    /** Pages a launch visits at most (a 2048-key page each: 128M entries). */
    static final int LAUNCH_PAGES = 1 << 16;

    private final ClScope cl;
    private final PageStore store;
    private final VisitKernels kernels;
    /** Pages a launch visits at most ({@link #LAUNCH_PAGES}; tests lower it to make a pass take many launches). */
    int launchPages = LAUNCH_PAGES;

    DeviceVisit(ClScope cl, PageStore store) {
        this.cl = cl;
        this.store = store;
        this.kernels = new VisitKernels(cl);
    }

    /**
     * The sum of {@code f} over every entry (with {@code count}: how many it is not 0 for), the
     * leaves' on the device, {@code Long.MAX_VALUE}'s (when {@code hasMax}) on the host.
     */
    long reduce(DeviceFunction f, boolean count, LeafChain chain, boolean hasMax, long maxValue) {
        Objects.requireNonNull(f, count ? "predicate" : "f");
        kernels.prepare(f.body());   // a body that does not build throws here, before anything is sent
        long sum = 0;
        if (hasMax) {
            long r = f.applyAsLong(MAXKEY, maxValue);
            sum = count ? (r != 0 ? 1 : 0) : r;
        }
        int group = kernels.group(store.pageKeys);
        int[] meta = new int[2 * Math.min(launchPages, Math.max(1, chain.pages))];
        long[] partials = new long[meta.length / 2];
        for (int page = chain.first, jobs; (jobs = chunk(page, meta, chain)) > 0; page = chain.next[meta[jobs - 1]]) {
            ClBuffer dMeta = send(meta, jobs, chain);
            ClBuffer dPartials = store.scratch(Scratch.OUT, 8L * jobs);
            kernels.reduce(f.body(), f.p0(), f.p1(), count, store.leafKeys, store.leafValues, store.pageKeys, dMeta,
                    jobs, dPartials, group);
            store.readLongs(dPartials, 0, partials, 0, jobs);
            for (int j = 0; j < jobs; j++) {
                sum += partials[j];
            }
        }
        return sum;
    }

    /**
     * Prepares a transform of every value by {@code f}, changing nothing: compiles its body, and
     * returns what {@code Long.MAX_VALUE}'s value becomes (computed first, on the host: if the
     * function throws there, nothing has changed), or {@code maxValue} when {@code !hasMax}.
     */
    long prepareTransform(DeviceFunction f, LeafChain chain, boolean hasMax, long maxValue) {
        Objects.requireNonNull(f, "f");
        kernels.prepare(f.body());
        long max = hasMax ? f.applyAsLong(MAXKEY, maxValue) : maxValue;
        // The list's scratch at its largest, committed (see ClScope#touch): nothing changes before the launches.
        store.scratch(Scratch.JOBS, 8L * Math.min(launchPages, Math.max(1, chain.pages)));
        cl.settle();
        return max;
    }

    /**
     * The launches of a transform that {@link #prepareTransform} prepared: every value of the
     * leaves becomes {@code f(key, value)}; returns once the device has done it.
     */
    void transform(DeviceFunction f, LeafChain chain) {
        int group = kernels.group(store.pageKeys);
        int[] meta = new int[2 * Math.min(launchPages, Math.max(1, chain.pages))];
        boolean launched = false;
        for (int page = chain.first, jobs; (jobs = chunk(page, meta, chain)) > 0; page = chain.next[meta[jobs - 1]]) {
            // The in-order queue runs this chunk's write of the list after the last chunk's kernel.
            ClBuffer dMeta = send(meta, jobs, chain);
            kernels.transform(f.body(), f.p0(), f.p1(), store.leafKeys, store.leafValues, store.pageKeys, dMeta, jobs,
                    group);
            launched = true;
        }
        if (launched) {
            cl.finish();   // a device failure surfaces in this call
        }
    }

    /**
     * A launch's pages: the pages in use (not empty) in chain order from {@code page} on, at most
     * {@link #launchPages}, into {@code meta[0, jobs)}; returns {@code jobs} (0: none left). The
     * next launch starts after the last of them.
     */
    private int chunk(int page, int[] meta, LeafChain chain) {
        int jobs = 0;
        for (; page != NONE && jobs < launchPages; page = chain.next[page]) {
            if (chain.count[page] > 0) {
                meta[jobs++] = page;
            }
        }
        return jobs;
    }

    /**
     * Sends a launch's list: {@code meta[0, jobs)} holds its page ids; their counts go after them,
     * so that the device gets pages then counts in one write.
     */
    private ClBuffer send(int[] meta, int jobs, LeafChain chain) {
        for (int j = 0; j < jobs; j++) {
            meta[jobs + j] = chain.count[meta[j]];
        }
        ClBuffer dMeta = store.scratch(Scratch.JOBS, 8L * jobs);
        store.writeInts(dMeta, meta, 2 * jobs);
        return dMeta;
    }
}
