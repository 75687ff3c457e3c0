package org.bforest.olc;

import static org.bforest.kernel.GapSlots.N;

/**
 * A flat copy of the concurrent BS-tree's inner levels, which {@link OlcReader#lookup} descends
 * instead of the nodes themselves: routing hints, never trusted. Look-ups answer only from a leaf
 * they validate, and a leaf's fences say whether it is the leaf for the key, so a hint that is
 * stale, torn or not yet written costs a retry, never a wrong answer.
 *
 * <p>Why a copy: the inner nodes live in chunks that never move ({@link Pinned}), so reaching a
 * node takes a load from the chunk directory before the node's own loads, on every level. That
 * one dependent load a level halved the look-up throughput at 10M keys (docs/BENCHMARKS.md, the
 * single-thread gap): it lengthens each look-up enough that the core overlaps fewer of them. The
 * copy is one array for the keys and one for the child ids, with the plain BS-tree's layout, so
 * the descent is the plain tree's. The nodes themselves still never move: writers lock and
 * validate only them; a full copy is replaced by a larger one (never written again, and left to
 * the collector once no look-up holds it), which is harmless here because nothing is validated
 * against it.
 *
 * <p>Slot {@code n} holds the {@code n}-th inner node allocated ({@link Pinned#denseOf}): its 16
 * keys (two cache lines), and its 17 children, as slots for an inner child and as leaf ids for a
 * leaf: the first 16 in one cache line, the 17th (the child right of the last slot, which only a
 * full node uses) in a region of its own after every slot's line. A level then touches three
 * lines instead of four, which measured 20% more look-ups a second at 10M keys (and the plain
 * tree's 17-int stride, two lines a node, no better than four).
 */
final class InnerMirror {
    /** Longs before slot 0's keys: slots on cache lines, as {@link PinnedLongs#PAD}. */
    static final int PAD = PinnedLongs.PAD;
    /** Ints before slot 0's children. */
    static final int KPAD = PinnedInts.PAD;
    /** Children a slot's line holds: all but the last. */
    static final int LINE = N;

    final long[] keys;
    final int[] kids;
    final int capacity;

    InnerMirror(int capacity) {
        this.capacity = capacity;
        this.keys = new long[PAD + capacity * N];
        this.kids = new int[KPAD + capacity * (LINE + 1)];
    }

    /** Where slot {@code n}'s keys start (constant stride: a shift). */
    static int keyOffset(int n) {
        return PAD + n * N;
    }

    /** Where slot {@code n}'s first 16 children start (constant stride: a shift). */
    static int kidOffset(int n) {
        return KPAD + n * LINE;
    }

    /** Where slot {@code n}'s 17th child is. */
    int lastKid(int n) {
        return KPAD + capacity * LINE + n;
    }

    /** Where child {@code c} (0 to 16) of slot {@code n} is. */
    int kid(int n, int c) {
        return c < LINE ? kidOffset(n) + c : lastKid(n);
    }

    long bytes() {
        return 16 + 16 + 8L * keys.length + 16 + 4L * kids.length + 16;
    }
}
