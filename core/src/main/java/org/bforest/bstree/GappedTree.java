package org.bforest.bstree;

import java.util.ConcurrentModificationException;
import java.util.NoSuchElementException;
import org.bforest.LongCursor;
import org.bforest.LongEntryVisitor;
import org.bforest.util.SortedInput;
import org.bforest.BSTreeIndex;

/**
 * What the BS-tree and the CBS-tree have in common above their leaf formats: the shared inner
 * levels ({@link InnerLevels}), the chain of leaves, the out-of-band largest key, and everything
 * that walks leaves through positions: the neighbour look-ups, the cursor and both range-scan
 * strategies of section 3.3. A subclass owns its leaves and exposes them through a handful of
 * accessors; the hot paths ({@code get}, {@code put}, {@code remove}) stay in the subclass.
 *
 * <h2>The largest key</h2>
 * {@link Slots#MAXKEY} ({@code Long.MAX_VALUE}) pads the nodes, so it cannot also be stored in
 * them. That one key, when present, lives out of band ({@link #hasMax}, {@link #maxValue}) and
 * every operation checks for it first, the way jctools' {@code NonBlockingHashMapLong} keeps its
 * {@code NO_KEY}. Every other {@code long} lives in the tree.
 *
 * <h2>Positions</h2>
 * A position is a (leaf, slot) pair packed in a {@code long} ({@code leaf << 6 | slot}, room for
 * leaves of up to 64 slots), or {@link #POS_NONE} / {@link #POS_MAX}. Leaf bitmaps are handled as
 * {@code long}s here, whatever a leaf keeps.
 */
abstract class GappedTree implements BSTreeIndex {
    static final long MAXKEY = Slots.MAXKEY;
    static final int NONE = Slots.NONE;
    /** Slots of the widest leaf; positions keep this many slot bits. */
    static final int MAX_LANES = 64;
    private static final int SLOT_BITS = 6;

    /** Cursor positions that are not (leaf, slot) pairs. */
    static final long POS_NONE = -1;
    static final long POS_MAX = -2;

    /**
     * With {@code -Dbforest.verify=true} (the tests set it) every structural change (split, root
     * growth, leaf removal) of a tree of at most {@link #VERIFY_LIMIT} keys runs the full
     * {@link #checkInvariants()}. A {@code static final} flag: free when off.
     */
    static final boolean VERIFY = Boolean.getBoolean("bforest.verify");
    static final long VERIFY_LIMIT = 5_000;

    final InnerLevels inner;
    int headLeaf;
    int tailLeaf;
    long size;
    /** Bumped when a key is added or removed; cursors compare it to detect staleness. */
    int modCount;
    boolean hasMax;
    long maxValue;

    GappedTree(String name) {
        inner = new InnerLevels(name);
    }

    // ---- what a leaf format provides ------------------------------------------------------------

    /** The used slots of a leaf, bit s for slot s. */
    abstract long leafBitmap(int leaf);

    abstract int leafNext(int leaf);

    abstract int leafPrev(int leaf);

    /** {@code succ>=}: slots of the leaf (used or gap) whose key is {@code < key}; 0 to the leaf's slot count. */
    abstract int leafSuccGE(int leaf, long key);

    /** {@code succ>}: slots of the leaf whose key is {@code <= key}. */
    abstract int leafSuccGT(int leaf, long key);

    abstract long leafKey(int leaf, int slot);

    abstract long leafValue(int leaf, int slot);

    /**
     * Hands the entries of the used slots in {@code bits} of a leaf to the visitor in key order;
     * throws {@link ConcurrentModificationException} if the visitor changes the tree.
     */
    abstract void visitLeaf(int leaf, long bits, LongEntryVisitor visitor, int expectedModCount);

    abstract void setLeafNext(int leaf, int next);

    abstract void setLeafPrev(int leaf, int prev);

    /** Puts the new leaf {@code right} into the chain right after {@code leaf} (a split). */
    final void linkAfter(int leaf, int right) {
        int next = leafNext(leaf);
        setLeafNext(right, next);
        setLeafPrev(right, leaf);
        setLeafNext(leaf, right);
        if (next != NONE) {
            setLeafPrev(next, right);
        } else {
            tailLeaf = right;
        }
    }

    /** Points {@code leaf}'s neighbours at each other (or moves head or tail), dropping it from the chain. */
    final void unlinkLeaf(int leaf) {
        int prev = leafPrev(leaf);
        int next = leafNext(leaf);
        if (prev != NONE) {
            setLeafNext(prev, next);
        } else {
            headLeaf = next;
        }
        if (next != NONE) {
            setLeafPrev(next, prev);
        } else {
            tailLeaf = prev;
        }
    }

    // ---- the out-of-band largest key, and bulk-load input ---------------------------------------

    /** {@code put(Long.MAX_VALUE, value)}. */
    final boolean putMax(long value) {
        boolean fresh = !hasMax;
        hasMax = true;
        maxValue = value;
        if (fresh) {
            size++;
            modCount++;
        }
        return fresh;
    }

    /** {@code remove(Long.MAX_VALUE)}. */
    final boolean removeMax() {
        if (!hasMax) {
            return false;
        }
        hasMax = false;
        maxValue = 0;
        size--;
        modCount++;
        return true;
    }

    /**
     * Checks bulk-load input, takes {@code Long.MAX_VALUE} out of band and sets the size; returns
     * how many keys go into leaves.
     *
     * @throws IllegalArgumentException on unsorted or duplicate keys, arrays of different
     *                                  lengths or a fill outside [0.5, 1]; nothing is built
     */
    final int acceptBulk(long[] keys, long[] values, double leafFill) {
        SortedInput.check(keys, values);
        if (!(leafFill >= 0.5 && leafFill <= 1.0)) {
            throw new IllegalArgumentException("leafFill must be in [0.5, 1], got " + leafFill);
        }
        int n = keys.length;
        if (n > 0 && keys[n - 1] == MAXKEY) {
            hasMax = true;
            maxValue = values == null ? 0 : values[n - 1];
            n--;
        }
        size = keys.length;
        return n;
    }

    /** The largest number of leaves {@code n} keys can need at {@code perLeaf} keys a leaf. */
    static int leavesFor(int n, int perLeaf) {
        long leaves = ((long) n + perLeaf - 1) / perLeaf;
        if (leaves > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(n + " keys need more than 2^31 leaves");
        }
        return (int) leaves;
    }

    // ---- bit helpers ----------------------------------------------------------------------------

    /** Used slots at or above {@code s} (0 <= s <= 64). */
    static long bitsFrom(long bm, int s) {
        return s >= MAX_LANES ? 0 : bm & (-1L << s);
    }

    /** Used slots below {@code s} (0 <= s <= 64). */
    static long bitsBelow(long bm, int s) {
        return s >= MAX_LANES ? bm : bm & ((1L << s) - 1);
    }

    static int highestBit(long bits) {
        return 63 - Long.numberOfLeadingZeros(bits);
    }

    static void modified(int expected, int actual) {
        if (expected != actual) {
            throw new ConcurrentModificationException("the index was changed during rangeVisit");
        }
    }

    // ---- common queries -------------------------------------------------------------------------

    @Override
    public long size() {
        return size;
    }

    @Override
    public int height() {
        return inner.height;
    }

    @Override
    public long innerNodes() {
        return inner.nodes();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[size=" + size + ", height=" + inner.height + ", leaves=" + leafNodes()
                + ", inner=" + innerNodes() + ", compressed=" + isCompressed() + ", search="
                + org.bforest.kernel.NodeSearch.describe() + "]";
    }

    // ---- positions ------------------------------------------------------------------------------

    static long pos(int leaf, int slot) {
        return (long) leaf << SLOT_BITS | slot;
    }

    static int posLeaf(long pos) {
        return (int) (pos >>> SLOT_BITS);
    }

    static int posSlot(long pos) {
        return (int) pos & (MAX_LANES - 1);
    }

    long keyAt(long pos) {
        return pos == POS_MAX ? MAXKEY : leafKey(posLeaf(pos), posSlot(pos));
    }

    long valueAt(long pos) {
        return pos == POS_MAX ? maxValue : leafValue(posLeaf(pos), posSlot(pos));
    }

    /** The first used slot at or after slot {@code s} of {@code leaf}, else further right. */
    long firstFrom(int leaf, int s) {
        long bits = bitsFrom(leafBitmap(leaf), s);
        while (bits == 0) {
            leaf = leafNext(leaf);
            if (leaf == NONE) {
                return hasMax ? POS_MAX : POS_NONE;
            }
            bits = leafBitmap(leaf);
        }
        return pos(leaf, Long.numberOfTrailingZeros(bits));
    }

    /** The last used slot below slot {@code s} of {@code leaf}, else further left. */
    long lastBelow(int leaf, int s) {
        long bits = bitsBelow(leafBitmap(leaf), s);
        while (bits == 0) {
            leaf = leafPrev(leaf);
            if (leaf == NONE) {
                return POS_NONE;
            }
            bits = leafBitmap(leaf);
        }
        return pos(leaf, highestBit(bits));
    }

    long ceilingPos(long key) {
        if (key == MAXKEY) {
            return hasMax ? POS_MAX : POS_NONE;
        }
        int leaf = inner.findLeaf(key);
        // The least key >= key is in this leaf at or after slot succ>=(key), or further right:
        // every key of later leaves is >= this leaf's upper separator > key.
        return firstFrom(leaf, leafSuccGE(leaf, key));
    }

    long floorPos(long key) {
        if (key == MAXKEY) {
            return hasMax ? POS_MAX : lastBelow(tailLeaf, MAX_LANES);
        }
        int leaf = inner.findLeaf(key);
        return lastBelow(leaf, leafSuccGT(leaf, key));
    }

    long higherPos(long key) {
        return key == MAXKEY ? POS_NONE : ceilingPos(key + 1);
    }

    long lowerPos(long key) {
        return key == Long.MIN_VALUE ? POS_NONE : floorPos(key - 1);
    }

    long firstPos() {
        return firstFrom(headLeaf, 0);
    }

    long lastPos() {
        return hasMax ? POS_MAX : lastBelow(tailLeaf, MAX_LANES);
    }

    /** The position after {@code pos} in key order. */
    long nextPos(long pos) {
        return pos == POS_MAX ? POS_NONE : firstFrom(posLeaf(pos), posSlot(pos) + 1);
    }

    /** The position before {@code pos} in key order. */
    long prevPos(long pos) {
        return pos == POS_MAX ? lastBelow(tailLeaf, MAX_LANES) : lastBelow(posLeaf(pos), posSlot(pos));
    }

    private long keyOr(long pos, long absent) {
        return pos == POS_NONE ? absent : keyAt(pos);
    }

    @Override
    public long ceilingKey(long key, long absent) {
        return keyOr(ceilingPos(key), absent);
    }

    @Override
    public long floorKey(long key, long absent) {
        return keyOr(floorPos(key), absent);
    }

    @Override
    public long higherKey(long key, long absent) {
        return keyOr(higherPos(key), absent);
    }

    @Override
    public long lowerKey(long key, long absent) {
        return keyOr(lowerPos(key), absent);
    }

    @Override
    public long firstKey() {
        long p = firstPos();
        if (p == POS_NONE) {
            throw new NoSuchElementException("the index is empty");
        }
        return keyAt(p);
    }

    @Override
    public long lastKey() {
        long p = lastPos();
        if (p == POS_NONE) {
            throw new NoSuchElementException("the index is empty");
        }
        return keyAt(p);
    }

    @Override
    public LongCursor cursor() {
        return new Cursor();
    }

    // ---- ranges -------------------------------------------------------------------------------

    @Override
    public long rangeCount(long from, long to) {
        return rangeCount(from, to, inner.height + 1);
    }

    @Override
    public long rangeVisit(long from, long to, LongEntryVisitor visitor) {
        return rangeVisit(from, to, visitor, inner.height + 1);
    }

    /**
     * Counts keys in {@code [from, to)} with both strategies of section 3.3, chosen as the scan
     * goes. It descends for {@code from} and scans leaves comparing their keys with {@code to}
     * (Algorithm 4); a range that has not ended after {@code scanLeaves + 1} leaves is long, so it then
     * descends for {@code to} as well, and counts the leaves in between from their bitmaps alone,
     * without reading their keys. {@code scanLeaves} = 0 is the pure two-descent strategy,
     * {@code Integer.MAX_VALUE} the pure scan (both exposed for tests).
     */
    long rangeCount(long from, long to, int scanLeaves) {
        if (from >= to) {
            return 0;
        }
        int leaf = inner.findLeaf(from);
        int s = leafSuccGE(leaf, from);
        long n = 0;
        for (int scanned = 0; ; scanned++) {
            long bm = leafBitmap(leaf);
            int e = leafSuccGE(leaf, to);
            n += Long.bitCount(bitsFrom(bm, s) & bitsBelow(bm, e));
            if (bitsFrom(bm, e) != 0) {
                return n; // a used key >= to: the range ends in this leaf
            }
            if (scanned >= scanLeaves) {
                return n + countAfter(leaf, to);
            }
            leaf = leafNext(leaf);
            if (leaf == NONE) {
                return n;
            }
            s = 0;
        }
    }

    /**
     * Keys {@code < to} in the leaves after {@code leaf}, by a second descent (strategy 2): the
     * leaves strictly between contribute their bitmaps' population counts.
     */
    private long countAfter(int leaf, long to) {
        int endLeaf = endLeaf(to);
        if (endLeaf == leaf) {
            return 0;
        }
        int endSlot = endSlot(endLeaf, to);
        long n = 0;
        for (leaf = leafNext(leaf); leaf != endLeaf; leaf = leafNext(leaf)) {
            n += Long.bitCount(leafBitmap(leaf));
        }
        return n + Long.bitCount(bitsBelow(leafBitmap(endLeaf), endSlot));
    }

    /** The leaf that holds the first position {@code >= to} (the tail when {@code to} is MAXKEY). */
    private int endLeaf(long to) {
        return to == MAXKEY ? tailLeaf : inner.findLeaf(to);
    }

    /** The slot in {@link #endLeaf(long)} below which the keys are {@code < to}. */
    private int endSlot(int endLeaf, long to) {
        return to == MAXKEY ? MAX_LANES : leafSuccGE(endLeaf, to);
    }

    /** {@link #rangeVisit(long, long, LongEntryVisitor)} with the strategy switch of rangeCount. */
    long rangeVisit(long from, long to, LongEntryVisitor visitor, int scanLeaves) {
        if (from >= to) {
            return 0;
        }
        int expected = modCount;
        int leaf = inner.findLeaf(from);
        int s = leafSuccGE(leaf, from);
        int endLeaf = NONE;
        int endSlot = MAX_LANES;
        long n = 0;
        for (int scanned = 0; ; scanned++) {
            long bm = leafBitmap(leaf);
            boolean last;
            int e;
            if (endLeaf == NONE) {
                e = leafSuccGE(leaf, to);
                last = bitsFrom(bm, e) != 0;
            } else {
                last = leaf == endLeaf;
                e = last ? endSlot : MAX_LANES;
            }
            long bits = bitsFrom(bm, s) & bitsBelow(bm, e);
            if (bits != 0) {
                visitLeaf(leaf, bits, visitor, expected);
                n += Long.bitCount(bits);
            }
            if (last) {
                return n;
            }
            if (endLeaf == NONE && scanned >= scanLeaves) {
                endLeaf = endLeaf(to);
                endSlot = endSlot(endLeaf, to);
                if (endLeaf == leaf) {
                    return n;
                }
            }
            leaf = leafNext(leaf);
            if (leaf == NONE) {
                return n;
            }
            s = 0;
        }
    }

    // ---- cursor -------------------------------------------------------------------------------

    /** A (leaf, slot) position, walking the leaf chain; stale when {@link #modCount} moves. */
    private final class Cursor implements LongCursor {
        private long pos = POS_NONE;
        private int expected = modCount;

        private boolean at(long p) {
            pos = p;
            expected = modCount;
            return p != POS_NONE;
        }

        private void checkFresh() {
            if (expected != modCount) {
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
            return at(ceilingPos(key));
        }

        @Override
        public boolean seekFloor(long key) {
            return at(floorPos(key));
        }

        @Override
        public boolean seekHigher(long key) {
            return at(higherPos(key));
        }

        @Override
        public boolean seekLower(long key) {
            return at(lowerPos(key));
        }

        @Override
        public boolean seekFirst() {
            return at(firstPos());
        }

        @Override
        public boolean seekLast() {
            return at(lastPos());
        }

        @Override
        public boolean next() {
            checkFresh();
            return pos != POS_NONE && at(nextPos(pos));
        }

        @Override
        public boolean previous() {
            checkFresh();
            return pos != POS_NONE && at(prevPos(pos));
        }

        @Override
        public boolean isValid() {
            checkFresh();
            return pos != POS_NONE;
        }

        @Override
        public long key() {
            return keyAt(current());
        }

        @Override
        public long value() {
            return valueAt(current());
        }

        @Override
        public void remove() {
            long key = keyAt(current());
            GappedTree.this.remove(key);
            at(higherPos(key));
        }
    }
}
