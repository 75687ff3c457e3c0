package org.bforest;

import java.util.ConcurrentModificationException;
import java.util.NoSuchElementException;

/**
 * A position in a {@link LongIndex} that walks forwards and backwards in key order.
 *
 * <p>A cursor is either <em>valid</em> (on an entry) or not (before the first or past the last
 * entry, or never positioned). The {@code seek…} methods and the moves return whether the cursor
 * is valid afterwards, so a scan reads:
 *
 * <pre>{@code
 * for (boolean ok = c.seekCeiling(from); ok && c.key() < to; ok = c.next()) { ... }
 * }</pre>
 *
 * Moving past either end leaves the cursor not valid, and {@link #next()} or {@link #previous()}
 * on a cursor that is not valid returns {@code false} and leaves it so (seek to start again).
 * If a key is added to or removed from the index other than through {@link #remove()}, the
 * cursor is stale: any call but a {@code seek…} throws {@link ConcurrentModificationException},
 * and a seek makes it usable again. Replacing the value of a key that is there does not make it
 * stale, and {@link #value()} then returns the new value. A cursor allocates nothing as it moves.
 */
public interface LongCursor {

    /** Moves to the least key {@code >= key}. */
    boolean seekCeiling(long key);

    /** Moves to the greatest key {@code <= key}. */
    boolean seekFloor(long key);

    /** Moves to the least key {@code > key}. */
    boolean seekHigher(long key);

    /** Moves to the greatest key {@code < key}. */
    boolean seekLower(long key);

    /** Moves to the least key. */
    boolean seekFirst();

    /** Moves to the greatest key. */
    boolean seekLast();

    /** Moves to the next greater key; not valid afterwards if there is none. */
    boolean next();

    /** Moves to the next smaller key; not valid afterwards if there is none. */
    boolean previous();

    /** Whether the cursor is on an entry. */
    boolean isValid();

    /**
     * The key under the cursor.
     *
     * @throws NoSuchElementException if the cursor is not valid
     */
    long key();

    /**
     * The value under the cursor.
     *
     * @throws NoSuchElementException if the cursor is not valid
     */
    long value();

    /**
     * Removes the entry under the cursor and moves to the next greater key (not valid if there is
     * none). The cursor stays usable; other cursors on the same index become stale.
     *
     * @throws NoSuchElementException if the cursor is not valid
     */
    void remove();
}
