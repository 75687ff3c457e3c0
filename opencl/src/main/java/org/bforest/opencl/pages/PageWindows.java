package org.bforest.opencl.pages;

import java.util.concurrent.atomic.AtomicLong;
import org.bforest.opencl.cl.ClScope;
import org.bforest.spi.LeafChainIndex;

/**
 * The paged trees' state that the shared layer ({@link LeafChainIndex}) reads through, and its
 * SPI over it: the layer's leaves are 64-slot windows of the leaf pages (a page of 2048 keys is 32
 * of them), read from the device a window at a time into a per-thread cache ({@link Window}) that
 * a write invalidates (the {@link #stamp}). Also the tree's lifecycle: closed, or
 * {@linkplain #failed failed} by a device error in the middle of a batch. Apart from
 * {@link PagedTree}, which runs the batches, because this is the read side every cursor, range
 * and neighbour query goes through, and none of it launches a kernel.
 */
abstract class PageWindows extends LeafChainIndex {
    private static final int WINDOW = Window.SLOTS;
    private static final AtomicLong IDS = new AtomicLong();

    private final long id = IDS.incrementAndGet();
    protected final ClScope cl;
    protected final PageStore store;
    protected final int pageKeys;
    /** 64-slot windows a page: the shared layer's leaves. */
    protected final int windows;
    /** The structure's name in messages, e.g. "GPU B+-tree". */
    protected final String what;
    /** The host's control state of the leaves: occupancy and chain. */
    protected final LeafChain chain = new LeafChain();
    /** Bumped by every write (value replacements too): the window caches compare it. */
    protected volatile long stamp;
    protected volatile boolean closed;
    /** Why this tree is unusable: a device call failed after a batch began changing it. */
    private volatile Throwable failure;

    PageWindows(String name, String what, ClScope cl, int pageKeys) {
        super(name);
        this.what = what;
        this.cl = cl;
        this.pageKeys = pageKeys;
        this.windows = (pageKeys + WINDOW - 1) / WINDOW;
        this.store = new PageStore(cl, pageKeys);
    }

    protected final void open() {
        if (closed) {
            throw new IllegalStateException("this " + what + " was closed and its device memory released: build a new one");
        }
        Throwable f = failure;
        if (f != null) {
            throw new IllegalStateException("this " + what + " failed: a device call failed after a batch had begun"
                    + " changing it (" + f.getMessage() + "), so its contents are lost; close it and build a new one", f);
        }
    }

    /**
     * Marks the tree failed by {@code e}, thrown after a batch began changing it (an error on the
     * host too, such as running out of heap there: the device has changed, the host has not).
     */
    protected final void failed(Throwable e) {
        if (failure == null) {
            failure = e;
        }
    }

    /** Whether a device failure in the middle of a batch has left this tree unusable. */
    public boolean hasFailed() {
        return failure != null;
    }

    /** Whether {@code close()} was called ({@link org.bforest.NativeLongIndex#isClosed}). */
    public boolean isClosed() {
        return closed;
    }

    /**
     * The SPI's leaves are 64-slot windows of a page; the chain this tree keeps is of pages
     * ({@link LeafChain}), so the window-level chain methods are not used.
     */
    @Override
    protected void setLeafNext(int leaf, int next) {
        throw new UnsupportedOperationException("the paged trees chain pages, not windows");
    }

    @Override
    protected void setLeafPrev(int leaf, int prev) {
        throw new UnsupportedOperationException("the paged trees chain pages, not windows");
    }

    @Override
    protected int firstLeaf() {
        open();
        return chain.first * windows;
    }

    @Override
    protected int lastLeaf() {
        open();
        return chain.last * windows + windows - 1;
    }

    @Override
    protected int leafNext(int leaf) {
        return chain.nextWindow(leaf, windows);
    }

    @Override
    protected int leafPrev(int leaf) {
        return chain.prevWindow(leaf, windows);
    }

    @Override
    protected long leafBitmap(int leaf) {
        int n = chain.windowCount(leaf, windows);
        return n == WINDOW ? -1L : (1L << n) - 1;
    }

    @Override
    protected int leafSuccGE(int leaf, long key) {
        return window(leaf).succ(key, false);
    }

    @Override
    protected int leafSuccGT(int leaf, long key) {
        return window(leaf).succ(key, true);
    }

    @Override
    protected long leafKey(int leaf, int slot) {
        return window(leaf).keys[slot];
    }

    @Override
    protected long leafValue(int leaf, int slot) {
        return window(leaf).values[slot];
    }

    /** This thread's copy of window {@code leaf}, read from the device unless it holds it as of now. */
    private Window window(int leaf) {
        open();
        Window w = Window.mine();
        long s = stamp;
        if (!w.holds(id, leaf, s)) {
            int n = chain.windowCount(leaf, windows);
            w.read(store, (long) (leaf / windows) * pageKeys + (long) (leaf % windows) * WINDOW, n, id, leaf, s);
        }
        return w;
    }

}
