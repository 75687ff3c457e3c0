package org.bforest;

/** Receives every entry of a {@link LongIndex#forEach(LongEntryConsumer) forEach}, in ascending key order. */
@FunctionalInterface
public interface LongEntryConsumer {
    /**
     * Takes one entry.
     *
     * @param key   the entry's key
     * @param value the entry's value
     */
    void accept(long key, long value);
}
