package org.bforest.spi;

import java.util.ConcurrentModificationException;
import java.util.NoSuchElementException;
import org.bforest.LongCursor;

import static org.bforest.spi.LeafChainIndex.POS_NONE;

/**
 * {@link LeafChainIndex}'s cursor: a (leaf, slot) position walking the chain both ways, through the
 * index's position methods. Fail-fast: stale when the index's {@code modCount} moves after the
 * cursor was positioned (a {@link ConcurrentModificationException}), except through its own
 * {@link #remove()}.
 */
final class ChainCursor implements LongCursor {
    private final LeafChainIndex index;

    private long pos = POS_NONE;
    private int expected;

    ChainCursor(LeafChainIndex index) {
        this.index = index;
        this.expected = index.modCount;
    }

    private boolean at(long p) {
        pos = p;
        expected = index.modCount;
        return p != POS_NONE;
    }

    private void checkFresh() {
        if (expected != index.modCount) {
            throw new ConcurrentModificationException("the index was changed after this cursor was positioned");
        }
    }

    private long current() {
        checkFresh();
        if (pos == POS_NONE) {
            throw new NoSuchElementException("the cursor is not on an entry");
        }
        return pos;
    }

    @Override
    public boolean seekCeiling(long key) {
        return at(index.nearPos(key, true, true));
    }

    @Override
    public boolean seekFloor(long key) {
        return at(index.nearPos(key, false, true));
    }

    @Override
    public boolean seekHigher(long key) {
        return at(index.nearPos(key, true, false));
    }

    @Override
    public boolean seekLower(long key) {
        return at(index.nearPos(key, false, false));
    }

    @Override
    public boolean seekFirst() {
        return at(index.firstPos());
    }

    @Override
    public boolean seekLast() {
        return at(index.lastPos());
    }

    @Override
    public boolean next() {
        checkFresh();
        return pos != POS_NONE && at(index.nextPos(pos));
    }

    @Override
    public boolean previous() {
        checkFresh();
        return pos != POS_NONE && at(index.prevPos(pos));
    }

    @Override
    public boolean isValid() {
        checkFresh();
        return pos != POS_NONE;
    }

    @Override
    public long key() {
        return index.keyAt(current());
    }

    @Override
    public long value() {
        return index.valueAt(current());
    }

    @Override
    public void remove() {
        long key = index.keyAt(current());
        index.remove(key);
        at(index.nearPos(key, true, false));
    }
}
