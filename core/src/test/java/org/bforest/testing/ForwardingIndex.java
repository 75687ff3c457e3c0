package org.bforest.testing;

import java.util.NavigableMap;
import org.bforest.IndexKind;
import org.bforest.LongCursor;
import org.bforest.LongEntryVisitor;
import org.bforest.LongIndex;
import org.bforest.LongIndexViews;

/**
 * A {@link LongIndex} that passes every call to another, for tests that break one call by
 * overriding it: an index that answers one query wrong (the read-only kit checks that it is
 * caught), or one whose walk throws midway, gives keys out of order or misstates its size (what a
 * snapshot reads). The defaults ({@code forEach}, the snapshot, the batches) are the interface's,
 * so they read this index, not the one behind it; so does the view, which is over this index.
 */
public class ForwardingIndex implements LongIndex {
    protected final LongIndex delegate;

    public ForwardingIndex(LongIndex delegate) {
        this.delegate = delegate;
    }

    @Override
    public long size() {
        return delegate.size();
    }

    @Override
    public IndexKind kind() {
        return delegate.kind();
    }

    @Override
    public long get(long key, long absent) {
        return delegate.get(key, absent);
    }

    @Override
    public boolean containsKey(long key) {
        return delegate.containsKey(key);
    }

    @Override
    public long defaultReturnValue() {
        return delegate.defaultReturnValue();
    }

    @Override
    public void defaultReturnValue(long value) {
        delegate.defaultReturnValue(value);
    }

    @Override
    public long put(long key, long value) {
        return delegate.put(key, value);
    }

    @Override
    public long remove(long key) {
        return delegate.remove(key);
    }

    @Override
    public void clear() {
        delegate.clear();
    }

    @Override
    public long ceilingKey(long key, long absent) {
        return delegate.ceilingKey(key, absent);
    }

    @Override
    public long floorKey(long key, long absent) {
        return delegate.floorKey(key, absent);
    }

    @Override
    public long higherKey(long key, long absent) {
        return delegate.higherKey(key, absent);
    }

    @Override
    public long lowerKey(long key, long absent) {
        return delegate.lowerKey(key, absent);
    }

    @Override
    public long firstKey() {
        return delegate.firstKey();
    }

    @Override
    public long lastKey() {
        return delegate.lastKey();
    }

    @Override
    public LongCursor cursor() {
        return delegate.cursor();
    }

    @Override
    public long rangeCount(long from, boolean fromInclusive, long to, boolean toInclusive) {
        return delegate.rangeCount(from, fromInclusive, to, toInclusive);
    }

    @Override
    public long rangeVisit(long from, boolean fromInclusive, long to, boolean toInclusive, LongEntryVisitor visitor) {
        return delegate.rangeVisit(from, fromInclusive, to, toInclusive, visitor);
    }

    @Override
    public long memoryBytes() {
        return delegate.memoryBytes();
    }

    @Override
    public NavigableMap<Long, Long> asNavigableMap() {
        return LongIndexViews.asNavigableMap(this);
    }
}
