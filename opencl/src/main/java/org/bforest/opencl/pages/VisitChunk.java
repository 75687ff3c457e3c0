package org.bforest.opencl.pages;

import static org.bforest.spi.LeafChainIndex.NONE;

import java.util.Arrays;
import org.bforest.LongEntryConsumer;
import org.bforest.opencl.cl.ClBuffer;
import org.bforest.opencl.cl.PageKernels;
import org.bforest.opencl.pages.PageStore.Scratch;

/**
 * One launch of visit-all ({@link PagedTree#forEach}): the leaf pages from a given one on, in
 * chain order, until the chunk holds the launch bound's entries (a page larger than that goes
 * alone; empty pages are skipped), packed on the device in that order by {@code visit_all} (into
 * the merge's scratch) and brought back in two transfers. Apart from the tree as the launch's
 * plan, planned on the host from the pages' counts, as {@link LevelMerge}'s groups are.
 */
final class VisitChunk {
    private int[] pages = new int[64];
    private int[] starts = new int[65];
    private int jobs;
    /** Entries the chunk packs. */
    final int items;
    /** The page after the chunk in chain order ({@code NONE}: the chain is done). */
    final int next;

    /** The chunk from {@code page} on, of at most {@code limit} entries unless its first page has more. */
    VisitChunk(int page, int[] leafCount, int[] nextPage, int limit) {
        int n = 0;
        while (page != NONE && (jobs == 0 || n + leafCount[page] <= limit)) {
            if (leafCount[page] > 0) {
                if (jobs == pages.length) {
                    pages = Arrays.copyOf(pages, jobs * 2);
                    starts = Arrays.copyOf(starts, jobs * 2 + 1);
                }
                pages[jobs] = page;
                starts[jobs] = n;
                n += leafCount[page];
                jobs++;
            }
            page = nextPage[page];
        }
        items = n;
        next = page;
    }

    /**
     * Visit-all of the leaves ({@link PagedTree#forEach}): the leaf pages' entries packed on the
     * device in chain order, a chunk of up to {@code limit} entries a launch, and brought back in
     * two transfers, instead of two a 64-entry window; each entry to {@code action}, then
     * {@code check} (which throws if the visitor changed the tree). Takes the device lock a chunk.
     */
    static void visit(LeafChain chain, int limit, PageStore store, PageKernels kernels, Object lock,
            LongEntryConsumer action, Runnable check) {
        int page = chain.first;
        while (page != NONE) {
            // Pages in chain order until the chunk is full (a page larger than a chunk goes alone).
            VisitChunk chunk = new VisitChunk(page, chain.count, chain.next, limit);
            page = chunk.next;
            int items = chunk.items;
            if (items == 0) {
                continue;
            }
            long[] keys = new long[items];
            long[] values = new long[items];
            synchronized (lock) {
                chunk.pack(store, kernels, keys, values);
            }
            for (int i = 0; i < items; i++) {
                action.accept(keys[i], values[i]);
                check.run();
            }
        }
    }

    /** Packs the chunk on the device and reads it into {@code keys} and {@code values}; under the device lock. */
    void pack(PageStore store, PageKernels kernels, long[] keys, long[] values) {
        int[] meta = new int[2 * jobs];
        System.arraycopy(pages, 0, meta, 0, jobs);
        System.arraycopy(starts, 0, meta, jobs, jobs);
        ClBuffer dMeta = store.scratch(Scratch.JOBS, 4L * meta.length);
        ClBuffer dKeys = store.scratch(Scratch.MERGED_KEYS, 8L * items);
        ClBuffer dValues = store.scratch(Scratch.MERGED_VALUES, 8L * items);
        store.writeInts(dMeta, meta, meta.length);
        kernels.visitAll(store.leafKeys, store.leafValues, store.pageKeys, dMeta, 0, jobs, jobs, dKeys, dValues, items);
        store.readLongs(dKeys, 0, keys, 0, items);
        store.readLongs(dValues, 0, values, 0, items);
    }
}
