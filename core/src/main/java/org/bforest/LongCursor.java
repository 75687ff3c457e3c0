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

    /**
     * Moves to the least key {@code >= key}.
     *
     * @param key where to seek from, any {@code long}
     * @return {@code true} if the cursor is now on an entry, {@code false} (not valid) if there
     *         is no such key
     */
    boolean seekCeiling(long key);

    /**
     * Moves to the greatest key {@code <= key}.
     *
     * @param key where to seek from, any {@code long}
     * @return {@code true} if the cursor is now on an entry, {@code false} (not valid) if there
     *         is no such key
     */
    boolean seekFloor(long key);

    /**
     * Moves to the least key {@code > key}.
     *
     * @param key where to seek from, any {@code long}
     * @return {@code true} if the cursor is now on an entry, {@code false} (not valid) if there
     *         is no such key
     */
    boolean seekHigher(long key);

    /**
     * Moves to the greatest key {@code < key}.
     *
     * @param key where to seek from, any {@code long}
     * @return {@code true} if the cursor is now on an entry, {@code false} (not valid) if there
     *         is no such key
     */
    boolean seekLower(long key);

    /**
     * Moves to the least key.
     *
     * @return {@code true} if the cursor is now on an entry, {@code false} if the index is empty
     */
    boolean seekFirst();

    /**
     * Moves to the greatest key.
     *
     * @return {@code true} if the cursor is now on an entry, {@code false} if the index is empty
     */
    boolean seekLast();

    /**
     * Moves to the next greater key; not valid afterwards if there is none.
     *
     * @return {@code true} if the cursor is now on an entry; {@code false} if it was on the
     *         greatest key or was not valid
     * @throws ConcurrentModificationException if the cursor is stale
     */
    boolean next();

    /**
     * Moves to the next smaller key; not valid afterwards if there is none.
     *
     * @return {@code true} if the cursor is now on an entry; {@code false} if it was on the least
     *         key or was not valid
     * @throws ConcurrentModificationException if the cursor is stale
     */
    boolean previous();

    /**
     * Whether the cursor is on an entry.
     *
     * @return {@code true} if {@link #key()} and {@link #value()} may be read
     * @throws ConcurrentModificationException if the cursor is stale
     */
    boolean isValid();

    /**
     * The key under the cursor.
     *
     * @return the key of the entry the cursor is on
     * @throws NoSuchElementException          if the cursor is not valid
     * @throws ConcurrentModificationException if the cursor is stale
     */
    long key();

    /**
     * The value under the cursor.
     *
     * @return the current value of the entry the cursor is on
     * @throws NoSuchElementException          if the cursor is not valid
     * @throws ConcurrentModificationException if the cursor is stale
     */
    long value();

    /**
     * Removes the entry under the cursor and moves to the next greater key (not valid if there is
     * none). The cursor stays usable; other cursors on the same index become stale.
     *
     * @throws NoSuchElementException          if the cursor is not valid
     * @throws ConcurrentModificationException if the cursor is stale
     */
    void remove();
}
