package org.bforest.storage;

import java.util.Arrays;

/**
 * Node ids of one kind (leaves or inner nodes) handed out from a high-water mark and a free list,
 * as the paper's static pre-allocation does: a freed id is reused before a new one is taken. The
 * storage behind the ids is the caller's; {@link #needed()} says how many ids it must hold before
 * {@link #next()}. Failure atomicity: {@link #reserveReleases} makes room on the free list before
 * an operation that frees ids starts, so {@link #release} never allocates.
 */
public final class NodeIds {
    /** High-water mark: ids {@code [0, count)} have been handed out at least once. */
    private int count;
    private int[] free = new int[8];
    private int top;

    /** Forgets every id. */
    public void reset() {
        count = 0;
        top = 0;
    }

    /** Ids the storage must hold for the next {@link #next()}. */
    public long needed() {
        return top > 0 ? count : count + 1L;
    }

    /** Ids the storage must hold for {@code n} more calls of {@link #next()}. */
    public long needed(int n) {
        return count + (long) Math.max(0, n - top);
    }

    /** A free id, else a new one. */
    public int next() {
        return top > 0 ? free[--top] : count++;
    }

    /** Puts {@code id} on the free list; {@link #reserveReleases} made room. */
    public void release(int id) {
        free[top++] = id;
    }

    /** Room on the free list for {@code n} more releases. */
    public void reserveReleases(int n) {
        if (top + n > free.length) {
            free = Arrays.copyOf(free, Math.max(2 * free.length, top + n));
        }
    }

    /** Ids handed out at least once (live or free). */
    public int count() {
        return count;
    }

    /** Ids in use. */
    public long inUse() {
        return (long) count - top;
    }

    /** The free ids, for checkers. */
    public int[] freeIds() {
        return Arrays.copyOf(free, top);
    }

    public long bytes() {
        return 16 + 8 + 16 + 4L * free.length;
    }
}
