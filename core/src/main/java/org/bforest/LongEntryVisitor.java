package org.bforest;

/**
 * Receives the entries of a range visit, in ascending key order, and says whether to go on:
 * {@code (k, v) -> { sum += v; return true; }} visits all, {@code (k, v) -> v != target} stops at
 * the first entry whose value is {@code target}. For a walk that never stops, see
 * {@link LongIndex#forEach(LongEntryConsumer)}.
 */
@FunctionalInterface
public interface LongEntryVisitor {
    /**
     * Takes one entry; returns {@code false} to end the visit after it.
     *
     * @param key   the entry's key
     * @param value the entry's value
     * @return {@code true} to go on to the next entry, {@code false} to end the visit here (this
     *         entry still counts in the visit's result)
     */
    boolean visit(long key, long value);
}
