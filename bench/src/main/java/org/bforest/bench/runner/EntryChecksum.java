package org.bforest.bench.runner;

import java.util.Map;
import org.bforest.LongEntryConsumer;
import org.bforest.LongIndex;
import org.bforest.bench.datasets.SplitMix64;

/**
 * A checksum of entries in key order, for {@code --snapshot}'s check that what a snapshot gives
 * back is the index it was taken of: every key and value mixed in, in order, so a lost, added,
 * moved or changed entry changes it (and the count is compared apart).
 */
final class EntryChecksum implements LongEntryConsumer {
    private long hash = 0x6A09E667F3BCC908L;
    private long count;

    @Override
    public void accept(long key, long value) {
        hash = Long.rotateLeft(hash, 17) ^ SplitMix64.mix(key + SplitMix64.mix(value ^ count));
        count++;
    }

    long value() {
        return hash;
    }

    long count() {
        return count;
    }

    /** Of every entry of {@code index}, ascending. */
    static long of(LongIndex index) {
        EntryChecksum c = new EntryChecksum();
        index.forEach(c);
        return c.hash;
    }

    /** Of the first {@code n} sorted keys and their values. */
    static long of(long[] keys, long[] values, int n) {
        EntryChecksum c = new EntryChecksum();
        for (int i = 0; i < n; i++) {
            c.accept(keys[i], values[i]);
        }
        return c.hash;
    }

    /** Of a sorted map's entries, in its order. */
    static long of(Map<Long, Long> sorted) {
        EntryChecksum c = new EntryChecksum();
        for (Map.Entry<Long, Long> e : sorted.entrySet()) {
            c.accept(e.getKey(), e.getValue());
        }
        return c.hash;
    }
}
