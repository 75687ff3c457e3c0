package org.bforest.opencl.pages;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.bforest.opencl.cl.ClBuffer;
import org.bforest.opencl.cl.ClScope;

/**
 * The GPU B+-tree's device memory: the leaf pages (keys and values), the inner pages (separators
 * and child ids) and per-batch scratch, each one flat buffer indexed by page id, as the paper lays
 * the tree out as one two-dimensional array. Pages are never moved within a buffer: a buffer grows
 * by allocating a larger one and copying the old into it on the device, so that if the device is
 * out of memory the old buffer, and the tree in it, is untouched. Which ids are in use is kept in
 * {@link #leafIds} and {@link #innerIds}: freed pages are handed out again, lowest first, and a
 * buffer whose used ids have fallen well below its capacity is cut down ({@link #trim}).
 *
 * <p>Not thread-safe: the tree calls it under its device lock.
 */
public final class PageStore {
    /** Scratch buffers, by role: reused from batch to batch and grown when a batch needs more. */
    public enum Scratch { QUERIES, PATH, OUT, JOBS, RUN_KEYS, MERGED_KEYS, MERGED_VALUES, GATHERED, RAW, COUNTS }

    public final ClScope cl;
    /**
     * The tree's own lock: every call that uses its buffers, and its scratch above all, holds it
     * (the device's queue has a monitor of its own, held a call at a time, so that while this tree
     * plans a batch on the host another tree's commands reach the device).
     */
    public final Object lock = new Object();
    public final int pageKeys;
    public ClBuffer leafKeys;
    public ClBuffer leafValues;
    public ClBuffer innerKeys;
    public ClBuffer innerKids;
    /** Pages the leaf and inner buffers hold (both buffers of a kind at least this many). */
    public int leafCapacity;
    public int innerCapacity;
    /**
     * The pages the first buffer of each kind (keys) holds, more than its kind's capacity when a
     * growth enlarged it and then found no room for the second ({@link #ensure}).
     */
    private int leafKeysCapacity;
    private int innerKeysCapacity;
    /** The leaf pages in use and the free ones. */
    public final PageIds leafIds = new PageIds();
    /** The inner pages in use and the free ones (none used by a tree whose inner levels are on the host). */
    public final PageIds innerIds = new PageIds();
    /** The scratch by role, then the other query slot's QUERIES, PATH and OUT (see {@link #useQuerySlot}). */
    private final ClBuffer[] scratch = new ClBuffer[Scratch.values().length + 3];
    private final long[] scratchBytes = new long[Scratch.values().length + 3];
    private int querySlot;
    /** Tests only: the device bytes beyond which an allocation fails (see {@link #limitBytes}). */
    private long limit = Long.MAX_VALUE;

    public PageStore(ClScope cl, int pageKeys) {
        this.cl = cl;
        this.pageKeys = pageKeys;
    }

    /** Allocates room for this many pages and copies the host image in (inner arrays may be empty). */
    public void upload(long[] lk, long[] lv, int leaves, long[] ik, int[] ic, int inners) {
        leafIds.reset(leaves);
        innerIds.reset(inners);
        leafCapacity = leafKeysCapacity = Math.max(1, leaves);
        innerCapacity = innerKeysCapacity = Math.max(1, inners);
        leafKeys = cl.buffer(8L * pageKeys * leafCapacity);
        leafValues = cl.buffer(8L * pageKeys * leafCapacity);
        innerKeys = cl.buffer(8L * pageKeys * innerCapacity);
        innerKids = cl.buffer(4L * (pageKeys + 1) * innerCapacity);
        // Every byte written or touched (see ClScope#touch): a split may use a page no upload wrote.
        if (lk.length > 0) {
            cl.upload(leafKeys, lk);
            cl.upload(leafValues, lv);
        }
        cl.touch(leafKeys, 8L * lk.length, 8L * pageKeys * leafCapacity - 8L * lk.length);
        cl.touch(leafValues, 8L * lv.length, 8L * pageKeys * leafCapacity - 8L * lv.length);
        if (ik.length > 0) {
            cl.upload(innerKeys, ik);
            cl.upload(innerKids, ic);
        }
        cl.touch(innerKeys, 8L * ik.length, 8L * pageKeys * innerCapacity - 8L * ik.length);
        cl.touch(innerKids, 4L * ic.length, 4L * (pageKeys + 1) * innerCapacity - 4L * ic.length);
        cl.settle();
    }

    /**
     * Makes room for {@code leaves} leaf and {@code inners} inner pages, growing by half again
     * at least. One buffer at a time: each new one is allocated, the pages copied into it (a
     * blocking copy) and the old one released before the next is allocated, so that at the peak
     * the device holds one kind's buffers and one new one (twice that kind's bytes for a growth by
     * half, where allocating both new buffers first needed 2.5 times). A device out of memory
     * ({@link org.bforest.opencl.OpenClException}) leaves every buffer holding the tree: a buffer
     * grown before the failure stays larger, and the next call grows only its partner.
     */
    public void ensure(int leaves, int inners) {
        if (leaves > leafCapacity) {
            int capacity = grown(leafCapacity, leaves);
            long pageBytes = 8L * pageKeys;
            if (leafKeysCapacity < capacity) {
                leafKeys = regrow(leafKeys, pageBytes, leafCapacity, capacity);
                leafKeysCapacity = capacity;
            }
            leafValues = regrow(leafValues, pageBytes, leafCapacity, capacity);
            leafCapacity = capacity;
        }
        if (inners > innerCapacity) {
            int capacity = grown(innerCapacity, inners);
            if (innerKeysCapacity < capacity) {
                innerKeys = regrow(innerKeys, 8L * pageKeys, innerCapacity, capacity);
                innerKeysCapacity = capacity;
            }
            innerKids = regrow(innerKids, 4L * (pageKeys + 1), innerCapacity, capacity);
            innerCapacity = capacity;
        }
    }

    /**
     * A buffer of {@code capacity} pages of {@code pageBytes} holding the first {@code pages} of
     * {@code old}, which is released; every byte of it touched (the copy the old pages, a fill the
     * rest: see {@link ClScope#touch}). If the device refuses, the new one goes back and
     * {@code old} stays as it was.
     */
    private ClBuffer regrow(ClBuffer old, long pageBytes, int pages, int capacity) {
        ClBuffer b = allocate(pageBytes * capacity);
        try {
            cl.copy(old, 0, b, 0, pageBytes * pages);   // blocking: the old one is free once released
            cl.touch(b, pageBytes * pages, pageBytes * (capacity - pages));
        } catch (RuntimeException e) {
            try {
                cl.release(b);
            } catch (RuntimeException again) {
                e.addSuppressed(again);
            }
            throw e;
        }
        cl.release(old);
        return b;
    }

    /**
     * For tests: from now on, an allocation that would take the device bytes held past
     * {@code bytes} fails as a device out of memory does, so that tests can check that a batch
     * that cannot get its memory leaves the tree as it was.
     */
    void limitBytes(long bytes) {
        limit = bytes;
    }

    /** A device buffer, or the failure a device out of memory gives (the test limit of {@link #limitBytes}). */
    private ClBuffer allocate(long bytes) {
        if (limit != Long.MAX_VALUE && bytes() + bytes > limit) {
            throw new org.bforest.opencl.OpenClException("clCreateBuffer failed: CL_MEM_OBJECT_ALLOCATION_FAILURE (-4)"
                    + " (the test limit of " + limit + " device bytes)", -4);
        }
        return cl.buffer(bytes);
    }

    /**
     * Gives back device memory that the pages in use no longer need: a page buffer whose ids in use
     * end at a quarter of its capacity or below is copied into one of twice that (the growth's
     * factor of 1.5 and this one leave room between them, so a tree that grows and shrinks around
     * one size does not copy back and forth). The ids in use stay where they are. Nothing depends
     * on it: if the device cannot give the smaller buffer, the larger one stays.
     */
    public void trim() {
        int leaves = leafIds.top();
        if (leafCapacity > 4 && leaves <= leafCapacity / 4) {
            ClBuffer[] moved = moved(leaves, 8L * pageKeys, 8L * pageKeys, leafKeys, leafValues);
            if (moved != null) {
                leafKeys = moved[0];
                leafValues = moved[1];
                leafCapacity = leafKeysCapacity = Math.max(1, 2 * leaves);
            }
        }
        int inners = innerIds.top();
        if (innerCapacity > 4 && inners <= innerCapacity / 4) {
            ClBuffer[] moved = moved(inners, 8L * pageKeys, 4L * (pageKeys + 1), innerKeys, innerKids);
            if (moved != null) {
                innerKeys = moved[0];
                innerKids = moved[1];
                innerCapacity = innerKeysCapacity = Math.max(1, 2 * inners);
            }
        }
    }

    /**
     * Two buffers of {@code max(1, 2 * used)} pages of the given page sizes holding the first
     * {@code used} pages of {@code a} and {@code b}, which are released; null (and nothing
     * changed) if the device refuses.
     */
    private ClBuffer[] moved(int used, long aPage, long bPage, ClBuffer a, ClBuffer b) {
        int pages = Math.max(1, 2 * used);
        ClBuffer na = null;
        ClBuffer nb;
        try {
            na = allocate(aPage * pages);
            nb = allocate(bPage * pages);
        } catch (org.bforest.opencl.OpenClException e) {
            // Keeping the larger buffers loses nothing: the tree in them is whole.
            if (na != null) {
                cl.release(na);
            }
            return null;
        }
        try {
            if (used > 0) {
                cl.copy(a, 0, na, 0, aPage * used);
                cl.copy(b, 0, nb, 0, bPage * used);
            }
            // The rest touched too: later splits write there after their batch's commit point.
            cl.touch(na, aPage * used, aPage * (pages - used));
            cl.touch(nb, bPage * used, bPage * (pages - used));
        } catch (org.bforest.opencl.OpenClException e) {
            cl.release(na);
            cl.release(nb);
            return null;
        }
        cl.release(a);
        cl.release(b);
        return new ClBuffer[] {na, nb};
    }

    private static int grown(int capacity, int need) {
        long g = Math.max(need, capacity + (capacity >> 1) + 1L);
        return (int) Math.min(g, Integer.MAX_VALUE - 8);
    }

    /**
     * A scratch buffer of at least {@code bytes} bytes for {@code role}; its content is undefined.
     * A new one is touched ({@link ClScope#touch}): the batch that grew it settles before it
     * changes anything.
     */
    public ClBuffer scratch(Scratch role, long bytes) {
        int r = role.ordinal();
        bytes = Math.max(bytes, 64);
        if (scratchBytes[r] < bytes) {
            long want = Math.max(bytes, scratchBytes[r] + (scratchBytes[r] >> 1));
            ClBuffer fresh = allocate(want);
            try {
                cl.touch(fresh, 0, want);
            } catch (RuntimeException e) {
                cl.release(fresh);
                throw e;
            }
            if (scratch[r] != null) {
                cl.release(scratch[r]);
            }
            scratch[r] = fresh;
            scratchBytes[r] = want;
        }
        return scratch[r];
    }

    /**
     * Makes {@code slot} (0 or 1) the query slot: the QUERIES, PATH and OUT scratch from now on
     * are that slot's, so that a batch can have two look-ups in flight, each with its own (the
     * descent code names the roles, not the slots).
     */
    public void useQuerySlot(int slot) {
        if (slot != querySlot) {
            int extra = Scratch.values().length;
            for (Scratch role : new Scratch[] {Scratch.QUERIES, Scratch.PATH, Scratch.OUT}) {
                int r = role.ordinal();
                int o = extra++;
                ClBuffer b = scratch[r];
                scratch[r] = scratch[o];
                scratch[o] = b;
                long bytes = scratchBytes[r];
                scratchBytes[r] = scratchBytes[o];
                scratchBytes[o] = bytes;
            }
            querySlot = slot;
        }
    }

    /** Device bytes of the page buffers, at capacity. */
    public long pageBytes() {
        return 8L * pageKeys * (leafKeysCapacity + leafCapacity + innerKeysCapacity)
                + 4L * (pageKeys + 1) * innerCapacity;
    }

    /** Device bytes held: pages at capacity and scratch. */
    public long bytes() {
        long b = pageBytes();
        for (long s : scratchBytes) {
            b += s;
        }
        return b;
    }

    /** Writes host ints to a device buffer (does not wait: see {@link ClScope#writeInts}). */
    public void writeInts(ClBuffer dst, int[] src, int n) {
        write(dst, 0, src, ValueLayout.JAVA_INT, 0, n);
    }

    /** Writes {@code n} ints of {@code src} at int index {@code at} of a device buffer (does not wait). */
    public void writeInts(ClBuffer dst, long at, int[] src, int n) {
        write(dst, 4L * at, src, ValueLayout.JAVA_INT, 0, n);
    }

    /**
     * Writes {@code n} elements of the array {@code src} from {@code from} at byte {@code byteAt}:
     * a large write copied into the staging memory in parts over the host's threads (a batch's
     * keys: a copy on one thread was a good part of a look-up batch's host time), a small one as
     * {@link ClScope#writeLongs}.
     */
    private void write(ClBuffer dst, long byteAt, Object src, ValueLayout layout, int from, int n) {
        if (HostWork.parts(n) <= 1) {
            if (layout == ValueLayout.JAVA_INT) {
                cl.writeInts(dst, byteAt, (int[]) src, from, n);
            } else {
                cl.writeLongs(dst, byteAt, (long[]) src, from, n);
            }
            return;
        }
        MemorySegment staged = cl.stage(layout.byteSize() * n);
        copyIn(src, from, layout, staged, 0, n);
        cl.writeStaged(dst, byteAt, staged);
    }

    /**
     * An emptied tree's pages: leaf page 0 written empty (every key {@code Long.MAX_VALUE}, every
     * value 0; it may have been free), the only page in use, and the buffers cut down.
     */
    public void oneEmptyLeaf() {
        long[] pad = new long[pageKeys];
        cl.writeLongs(leafValues, 0, pad, 0, pageKeys);
        java.util.Arrays.fill(pad, Long.MAX_VALUE);
        cl.writeLongs(leafKeys, 0, pad, 0, pageKeys);
        leafIds.reset(1);
        innerIds.reset(0);
        trim();
    }

    /** Writes one int at int index {@code at} of a device buffer. */
    public void writeInt(ClBuffer dst, long at, int value) {
        cl.writeInts(dst, 4L * at, new int[] {value}, 0, 1);
    }

    /** Releases the pages and the scratch (for a tree that starts over). */
    public void release() {
        for (ClBuffer m : new ClBuffer[] {leafKeys, leafValues, innerKeys, innerKids}) {
            if (m != null) {
                cl.release(m);
            }
        }
        leafKeys = leafValues = innerKeys = innerKids = null;
        leafCapacity = innerCapacity = leafKeysCapacity = innerKeysCapacity = 0;
        for (int r = 0; r < scratch.length; r++) {
            if (scratch[r] != null) {
                cl.release(scratch[r]);
                scratch[r] = null;
                scratchBytes[r] = 0;
            }
        }
    }

    /**
     * Writes {@code n} longs of {@code a} and then {@code m} of {@code b} (may be null) to a device
     * buffer at long index {@code at}.
     */
    public void writeLongs(ClBuffer dst, long at, long[] a, int aFrom, int n, long[] b, int bFrom, int m) {
        if (b == null || m == 0) {
            write(dst, 8L * at, a, ValueLayout.JAVA_LONG, aFrom, n);
            return;
        }
        // One write of both (a small batch's latency is its device calls: one call less).
        MemorySegment staged = cl.stage(8L * (n + m));
        copyIn(a, aFrom, ValueLayout.JAVA_LONG, staged, 0, n);
        copyIn(b, bFrom, ValueLayout.JAVA_LONG, staged, n, m);
        cl.writeStaged(dst, 8L * at, staged);
    }

    /**
     * {@code src[from, from + n)}, an array of {@code layout}'s elements, into {@code staged} from
     * element {@code to}: in parts over the host's threads when large.
     */
    private static void copyIn(Object src, int from, ValueLayout layout, MemorySegment staged, int to, int n) {
        long size = layout.byteSize();
        if (HostWork.parts(n) <= 1) {
            MemorySegment.copy(src, from, staged, layout, size * to, n);
        } else {
            HostWork.split(n, (p, lo, hi) -> MemorySegment.copy(src, from + lo, staged, layout, size * (to + lo), hi - lo));
        }
    }

    /** Reads {@code n} ints at int index {@code at} of a device buffer. */
    public int[] readInts(ClBuffer src, long at, int n) {
        int[] out = new int[n];
        if (n > 0) {
            cl.readInts(src, 4L * at, out, 0, n);
        }
        return out;
    }

    /** Reads {@code n} longs at long index {@code at} of a device buffer into {@code out} from {@code to}. */
    public void readLongs(ClBuffer src, long at, long[] out, int to, int n) {
        if (n == 0) {
            return;
        }
        if (HostWork.parts(n) <= 1) {
            cl.readLongs(src, 8L * at, out, to, n);
            return;
        }
        MemorySegment h = cl.readBounced(src, 8L * at, 8L * n);   // a large read copied out in parts
        HostWork.split(n, (p, lo, hi) -> MemorySegment.copy(h, ValueLayout.JAVA_LONG, 8L * lo, out, to + lo, hi - lo));
    }

    /**
     * Bytes of the OUT scratch for a look-up of {@code n} queries: values, slots and pages (longs
     * at [0, n), [n, 2n), [2n, 3n)), then each query's page as an int, {@code ~page} where the key
     * is not there (from long 3n).
     */
    public static long outBytes(int n) {
        return 28L * n;
    }

    /**
     * What an update's plan needs of the tree's last descent (in the OUT scratch): each query's
     * leaf page where its key is there, {@code ~page} (negative) where not, 4 bytes a key; and, if
     * {@code previous} is given, the values found into it. One transfer, copied out in parts over
     * the host's threads into {@code pages[0, n)}, which it returns.
     */
    int[] found(int n, long[] previous, int[] pages) {
        ClBuffer out = scratch(Scratch.OUT, outBytes(n));
        long skip = previous == null ? 24L * n : 0;   // the values too: a single put's (n = 1)
        MemorySegment h = cl.readBounced(out, skip, outBytes(n) - skip);
        long at = 24L * n - skip;
        HostWork.split(n, (p, lo, hi) -> {
            if (previous != null) {
                MemorySegment.copy(h, ValueLayout.JAVA_LONG, 8L * lo, previous, lo, hi - lo);
            }
            MemorySegment.copy(h, ValueLayout.JAVA_INT, at + 4L * lo, pages, lo, hi - lo);
        });
        return pages;
    }

    /**
     * The slot of each query of the tree's last descent ({@code < 0}: not there, -(insertion
     * point) - 1) at [0, n) and its leaf page at [n, 2n), from the OUT scratch: what a rank needs.
     */
    long[] slots(int n) {
        long[] r = new long[2 * n];
        readLongs(scratch(Scratch.OUT, outBytes(n)), n, r, 0, 2 * n);
        return r;
    }
}
