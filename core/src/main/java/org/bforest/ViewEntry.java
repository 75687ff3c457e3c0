package org.bforest;

import java.util.Map;

/**
 * An entry of a {@link LongNavigableMap} view over primitives: an immutable snapshot (what
 * {@code firstEntry()}, {@code ceilingEntry()}, {@code pollFirstEntry()} and the like return),
 * equal to any entry of the same {@code Long}s. The entry-set iterators return a subclass whose
 * {@code setValue} writes through ({@link ViewIterator}). Apart so that the range and the iterators
 * both make entries without depending on each other.
 */
class ViewEntry implements Map.Entry<Long, Long> {
    final long key;
    long value;

    ViewEntry(long key, long value) {
        this.key = key;
        this.value = value;
    }

    @Override public final Long getKey() { return key; }
    @Override public final Long getValue() { return value; }

    @Override
    public Long setValue(Long value) {
        throw new UnsupportedOperationException();
    }

    @Override
    public final boolean equals(Object o) {
        return o instanceof Map.Entry<?, ?> e
                && e.getKey() instanceof Long k && k == key
                && e.getValue() instanceof Long v && v == value;
    }

    @Override
    public final int hashCode() {
        return Long.hashCode(key) ^ Long.hashCode(value);
    }

    @Override
    public final String toString() {
        return key + "=" + value;
    }
}
