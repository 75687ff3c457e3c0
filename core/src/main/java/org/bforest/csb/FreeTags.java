package org.bforest.csb;

import java.util.Arrays;

/**
 * Boundary tags of a CSB+-tree's free node groups: two bits an id, one set on the first id of
 * every free group and one on its last, so that freeing a group finds a free neighbour on either
 * side in O(1) and merges with it. A few bits a node of at least 512 bytes (keys and values).
 */
final class FreeTags {
    static final long[] EMPTY = new long[0];

    private FreeTags() {
    }

    /** {@code tags}, or a copy grown to hold ids below {@code ids} (grows by half at least). */
    static long[] ensure(long[] tags, long ids) {
        long words = (2 * ids + 63) >>> 6;
        if (words <= tags.length) {
            return tags;
        }
        long grown = Math.max(words, tags.length + (tags.length >> 1) + 1);
        if (grown > Integer.MAX_VALUE - 8) {
            throw new OutOfMemoryError("free-group tags for " + ids + " ids");
        }
        return Arrays.copyOf(tags, (int) grown);
    }

    static boolean isFirst(long[] tags, int id) {
        return (tags[id >>> 5] & 1L << (2 * id)) != 0;
    }

    static boolean isLast(long[] tags, int id) {
        return (tags[id >>> 5] & 2L << (2 * id)) != 0;
    }

    /** Tags {@code first} and {@code last} (the same id for a group of one) as a free group's ends. */
    static void mark(long[] tags, int first, int last) {
        tags[first >>> 5] |= 1L << (2 * first);
        tags[last >>> 5] |= 2L << (2 * last);
    }

    static void unmark(long[] tags, int first, int last) {
        tags[first >>> 5] &= ~(1L << (2 * first));
        tags[last >>> 5] &= ~(2L << (2 * last));
    }

    /** Ids tagged as a first id (each free group has one). */
    static int countFirsts(long[] tags) {
        int n = 0;
        for (long w : tags) {
            n += Long.bitCount(w & 0x5555_5555_5555_5555L);
        }
        return n;
    }

    /** Ids tagged as a last id. */
    static int countLasts(long[] tags) {
        int n = 0;
        for (long w : tags) {
            n += Long.bitCount(w & 0xAAAA_AAAA_AAAA_AAAAL);
        }
        return n;
    }
}
