package org.bforest.olc;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The version-and-lock word of optimistic lock coupling (Leis, Haubenschild and Neumann,
 * "Optimistic Lock Coupling", IEEE Data Eng. Bull. 42(1), 2019), one {@code long} per node kept
 * in a {@code long[]} and reached through a {@link VarHandle}.
 *
 * <p>Bit 1 ({@link #LOCKED}) is the write lock; the rest is a version that every write section
 * advances by {@link #STEP}: locking adds 2 and unlocking adds 2 again, so an unlocked word is a
 * multiple of 4 and no two write sections leave the same word behind (64 bits: no wrap-around
 * within any reader's lifetime).
 *
 * <p>Bit 0 ({@link #OBSOLETE}) marks a freed node: the writer that unlinks a node keeps it locked
 * and adds 1 ({@link #retire}), so the word stays locked for every reader and writer (they restart,
 * or fail their compare-and-set) until the node is reused, when {@link #publish} moves it on to the
 * next multiple of 4. The word only ever grows, through every life of a node: a version read in
 * one life never validates in a later one (see {@link NodeRecycler}).
 *
 * <p>The Java memory model, step by step, as {@code java.util.concurrent.locks.StampedLock}'s
 * optimistic reads do it:
 * <ul>
 * <li>a reader {@link #read}s the word with acquire semantics (a plain read could be hoisted out
 *     of a retry loop by the JIT and would order nothing), reads the node into locals with plain
 *     reads, then {@link #valid} issues {@link VarHandle#acquireFence()} so those reads complete
 *     before the word is read again, and compares; a reader never acts on what it read before
 *     that comparison succeeds;</li>
 * <li>a writer {@link #tryLock}s with a compare-and-set from the version it read (so the lock is
 *     taken only if the node did not change since), then {@link VarHandle#storeStoreFence()}, so
 *     that none of its plain writes to the node can become visible before the locked word; it
 *     {@link #unlock}s with a release store, which publishes the node's new contents (and any new
 *     node it links) to the reader that acquires the new version.</li>
 * </ul>
 */
final class VersionLock {
    static final long LOCKED = 2;
    static final long STEP = 4;
    /** Added to a locked word to mark the node freed: {@code word & 3 == 3}, locked for good until reused. */
    static final long OBSOLETE = 1;

    private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);
    /** 32-bit words, for nodes written so rarely that 2^30 write sections cannot wrap (inner nodes). */
    private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);

    private VersionLock() {
    }

    /** The word at {@code at}, read with acquire semantics; a reader restarts if it is {@link #isLocked}. */
    static long read(long[] words, int at) {
        return (long) WORDS.getAcquire(words, at);
    }

    static boolean isLocked(long version) {
        return (version & LOCKED) != 0;
    }

    /** Whether the word still is {@code version}: the reads made since it was read saw one state. */
    static boolean valid(long[] words, int at, long version) {
        VarHandle.acquireFence();
        return (long) WORDS.getOpaque(words, at) == version;
    }

    /** Locks the word if it still is the unlocked {@code version}; false if anything changed. */
    static boolean tryLock(long[] words, int at, long version) {
        if (WORDS.compareAndSet(words, at, version, version + LOCKED)) {
            VarHandle.storeStoreFence();
            return true;
        }
        return false;
    }

    /**
     * Publishes a node no reader could validate yet (its word 0, fresh, or {@link #isObsolete},
     * taken from a free list): the next multiple of 4 above the word, with a release store, so
     * every plain write made to the node before it is seen by a reader that acquires that version.
     */
    static void publish(long[] words, int at) {
        WORDS.setRelease(words, at, ((long) WORDS.getOpaque(words, at) | 3) + 1);
    }

    /** Whether a version read from a node published with {@link #publish} may be validated: published, unlocked. */
    static boolean isReadable(long version) {
        return version != 0 && (version & LOCKED) == 0;
    }

    static boolean isObsolete(long version) {
        return (version & 3) == 3;
    }

    /** Marks a node this thread holds locked as freed; it stays locked until {@link #publish}. */
    static void retire(long[] words, int at) {
        WORDS.setRelease(words, at, (long) WORDS.getOpaque(words, at) + OBSOLETE);
    }

    /** Releases a lock this thread holds, advancing the version. */
    static void unlock(long[] words, int at) {
        WORDS.setRelease(words, at, (long) WORDS.getOpaque(words, at) + LOCKED);
    }

    /**
     * Releases a lock this thread took from {@code version} and wrote nothing under: the word goes
     * back to {@code version}, so a reader that read the node at that version still validates (the
     * node is as it read it) and a writer that read it may still lock it from there. Only a holder
     * that made no write at all may do this, or a reader could validate a changed node.
     */
    static void unlockUnchanged(long[] words, int at, long version) {
        WORDS.setRelease(words, at, version);
    }

    // ---- the same on a 32-bit word, widened to long for the callers -------------------------

    static long read(int[] words, int at) {
        return (int) INTS.getAcquire(words, at);
    }

    static boolean valid(int[] words, int at, long version) {
        VarHandle.acquireFence();
        return (int) INTS.getOpaque(words, at) == version;
    }

    static boolean tryLock(int[] words, int at, long version) {
        if (INTS.compareAndSet(words, at, (int) version, (int) (version + LOCKED))) {
            VarHandle.storeStoreFence();
            return true;
        }
        return false;
    }

    static void unlock(int[] words, int at) {
        INTS.setRelease(words, at, (int) INTS.getOpaque(words, at) + (int) LOCKED);
    }

    static void publish(int[] words, int at) {
        INTS.setRelease(words, at, ((int) INTS.getOpaque(words, at) | 3) + 1);
    }

    static void retire(int[] words, int at) {
        INTS.setRelease(words, at, (int) INTS.getOpaque(words, at) + (int) OBSOLETE);
    }
}
