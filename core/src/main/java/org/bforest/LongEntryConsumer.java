package org.bforest;

/** Receives every entry of a {@link LongIndex#forEach(LongEntryConsumer) forEach}, in ascending key order. */
@FunctionalInterface
public interface LongEntryConsumer {
    void accept(long key, long value);
}
