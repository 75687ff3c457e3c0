package org.bforest.opencl.pages;

import java.util.BitSet;

/**
 * The page ids of one kind of page (leaf or inner) in a {@link PageStore}: which are in use, and
 * the free list that later splits take their pages from. Ids are handed out lowest first, and
 * {@link #top} (one past the highest id in use) drops whenever the highest ids are freed, so that
 * the pages in use stay packed at the low end of the device buffers and the store can give the
 * rest back ({@link PageStore#trim}). Apart from the store because it is plain host bookkeeping,
 * planned ahead of the device like the rest of a batch: a plan takes ids here and, if the device
 * then refuses the memory, gives them back ({@link #release}), which restores the pool exactly.
 *
 * <p>Not thread-safe: the tree calls it under its device lock.
 */
public final class PageIds {
    /** The free ids below {@link #top}. */
    private BitSet free = new BitSet();
    private int freeCount;
    private int top;
    /** No free id lies below it (a hint for {@link #alloc}'s search). */
    private int lowest;

    /** Ids {@code [0, inUse)} in use, none free. */
    public void reset(int inUse) {
        free = new BitSet();   // a cleared BitSet keeps its words
        freeCount = 0;
        top = inUse;
        lowest = inUse;
    }

    /** The lowest free id, or a new one at the top. */
    public int alloc() {
        int f = free.nextSetBit(lowest);
        if (f >= 0) {
            free.clear(f);
            freeCount--;
            lowest = f + 1;
            return f;
        }
        lowest = top + 1;
        return top++;
    }

    /** Gives {@code id} (in use) back; the top drops past every free id it uncovers. */
    public void release(int id) {
        if (id < 0 || id >= top || free.get(id)) {
            throw new IllegalStateException("page " + id + " is not in use (top " + top + ")");
        }
        if (id == top - 1) {
            top--;
            while (top > 0 && free.get(top - 1)) {
                free.clear(top - 1);
                freeCount--;
                top--;
            }
        } else {
            free.set(id);
            freeCount++;
        }
        lowest = Math.min(lowest, id);
    }

    /** One past the highest id in use: the pages a buffer must hold. */
    public int top() {
        return top;
    }

    /** Ids in use. */
    public int inUse() {
        return top - freeCount;
    }

    /** Whether {@code id}, below {@link #top}, is free. */
    public boolean isFree(int id) {
        return free.get(id);
    }

    /** Free ids below the top (the checker's accounting). */
    public int freeCount() {
        return freeCount;
    }

    /** Host bytes of the free list. */
    long bytes() {
        return 48 + (free.size() >>> 3);
    }
}
