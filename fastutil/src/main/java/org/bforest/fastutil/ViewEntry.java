package org.bforest.fastutil;

import it.unimi.dsi.fastutil.longs.Long2LongMap;
import java.util.Map;
import org.bforest.LongIndex;

/**
 * An entry from an entry-set iterator of a {@link LongIndexSortedMap} ({@link EntryView}): the
 * key and the value read when it was returned; {@code setValue} writes through to the index, and
 * does not put back a key removed in the meantime. The fast iterator reuses one.
 */
final class ViewEntry implements Long2LongMap.Entry {
    private final LongIndex index;
    long key;
    long value;

    ViewEntry(LongIndex index, long key, long value) {
        this.index = index;
        this.key = key;
        this.value = value;
    }

    @Override
    public long getLongKey() {
        return key;
    }

    @Override
    public long getLongValue() {
        return value;
    }

    @Override
    public long setValue(long v) {
        long previous = value;
        if (index.containsKey(key)) {
            previous = index.put(key, v);   // putting an existing key leaves cursors fresh
        }
        value = v;
        return previous;
    }

    @Override
    public boolean equals(Object o) {
        if (o instanceof Long2LongMap.Entry e) {
            return key == e.getLongKey() && value == e.getLongValue();
        }
        return o instanceof Map.Entry<?, ?> e && e.getKey() instanceof Long k && e.getValue() instanceof Long v
                && key == k && value == v;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(key) ^ Long.hashCode(value);
    }

    @Override
    public String toString() {
        return key + "=" + value;
    }
}
