package org.bforest.spi;

import java.util.BitSet;
import java.util.ConcurrentModificationException;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.Objects;
import org.bforest.LongCursor;
import org.bforest.LongEntryVisitor;
import org.bforest.LongIndex;
import org.bforest.LongIndexViews;
import org.bforest.util.Arrivals;
import org.bforest.util.BatchArguments;
import org.bforest.util.Bounds;
import org.bforest.util.SortedInput;

/**
 * What every bforest index needs, written once: an ordered index whose entries sit in the slots
 * of leaves, the leaves chained in key order. A structure supplies the position SPI (find the leaf
 * of a key, walk the chain, read a leaf's bitmap, keys and values, {@code succ} in a leaf) and its
 * own hot paths ({@code get}, {@code put}, {@code remove}); this class gives it the rest of
 * {@link LongIndex}:
 * <ul>
 * <li>the out-of-band largest key ({@link #putMax}, {@link #removeMax}, {@link #getMax});</li>
 * <li>bulk-input validation ({@link #acceptBulk});</li>
 * <li>the neighbour queries as one search ({@link #nearPos}) and four thin wrappers, plus
 *     {@code firstKey}/{@code lastKey};</li>
 * <li>a fail-fast cursor that walks both ways;</li>
 * <li>range count and visit with inclusive or exclusive bounds over the chained leaves, with both
 *     strategies of the BS-tree paper's section 3.3;</li>
 * <li>the default return value, {@code toString}, and the invariant hook: {@link #checkInvariants()}
 *     checks the chain and the SPI's answers ({@link #checkLeafChain()}), then the structure's own
 *     invariants ({@link #checkStructure()}), which every structure must supply.</li>
 * </ul>
 *
 * <h2>The position SPI</h2>
 * A leaf is an {@code int} id ({@link #NONE}, -1, is none) with up to {@value #MAX_SLOTS} slots;
 * its <em>bitmap</em> has bit {@code s} set when slot {@code s} holds an entry. The used slots of
 * a leaf are in ascending key order, and every key of a leaf is below every key of the next leaf.
 * How a leaf lays out its slots (gapped like the BS-tree's, packed like the B− tree's, a window of
 * a larger page like the GPU tree's host side) is the structure's business: it answers
 * {@link #leafSuccGE}/{@link #leafSuccGT} with a slot boundary, and reads one used slot at a time.
 * A <em>position</em> is a (leaf, slot) pair packed in a {@code long} ({@link #pos}), or
 * {@link #POS_NONE}, or {@link #POS_MAX} for the out-of-band largest key.
 *
 * <h2>The largest key</h2>
 * Structures pad their nodes with {@link #MAXKEY} ({@code Long.MAX_VALUE}), so that one key is
 * kept out of band ({@link #hasMax}, {@link #maxValue}) and is never in a leaf; every operation
 * checks it first, the way jctools' {@code NonBlockingHashMapLong} keeps its {@code NO_KEY}.
 *
 * <h2>Threads</h2>
 * Nothing here keeps per-call scratch in a field: reads of an index nobody modifies are safe from
 * any number of threads (as {@link LongIndex} promises), provided the structure's own read paths
 * keep none either. Writes are the structure's and single-threaded; {@link #modCount} makes
 * cursors fail fast when the index changes under them.
 */
public abstract class LeafChainIndex implements LongIndex, InvariantCheckable {
    /** {@code Long.MAX_VALUE}: pads nodes, so it is stored out of band. */
    public static final long MAXKEY = Long.MAX_VALUE;
    /** No leaf. */
    public static final int NONE = -1;
    /** Slots of the widest leaf; positions keep this many slot bits. */
    public static final int MAX_SLOTS = 64;
    private static final int SLOT_BITS = 6;

    /** Positions that are not (leaf, slot) pairs. */
    public static final long POS_NONE = -1;
    public static final long POS_MAX = -2;

    /** Keys in the index, the out-of-band one included. */
    protected long size;
    /** Bumped when a key is added or removed (not when a value is replaced); cursors watch it. */
    protected int modCount;
    /** Whether {@link #MAXKEY} is in the index, and its value. */
    protected boolean hasMax;
    protected long maxValue;
    private long defaultReturnValue;
    private final String name;

    /** @param name the structure's name, for {@code toString} and messages */
    protected LeafChainIndex(String name) {
        this.name = Objects.requireNonNull(name, "name");
    }

    // ---- the position SPI: what a structure supplies --------------------------------------------

    /** The leaf whose key range holds {@code key} ({@code key < MAXKEY}). */
    protected abstract int findLeaf(long key);

    /**
     * The leaf with the least keys (never {@link #NONE}: an empty index has one empty leaf). Leaves
     * may be empty anywhere in the chain; every walk here skips them.
     */
    protected abstract int firstLeaf();

    /** The leaf with the greatest keys. */
    protected abstract int lastLeaf();

    /** The next leaf in key order, or {@link #NONE}. */
    protected abstract int leafNext(int leaf);

    /** The previous leaf in key order, or {@link #NONE}. */
    protected abstract int leafPrev(int leaf);

    /** The used slots of a leaf, bit {@code s} for slot {@code s}. */
    protected abstract long leafBitmap(int leaf);

    /**
     * {@code succ>=}: a slot boundary {@code s} (0 to {@value #MAX_SLOTS}) such that the used
     * slots below {@code s} hold keys {@code < key} and those at or above it keys {@code >= key}.
     * Any {@code key} may be asked, {@link #MAXKEY} included (the range code asks it for ranges
     * that reach the top).
     */
    protected abstract int leafSuccGE(int leaf, long key);

    /** {@code succ>}: as {@link #leafSuccGE}, splitting at {@code <= key} / {@code > key}. */
    protected abstract int leafSuccGT(int leaf, long key);

    // ---- batches: the two steps a structure gives the batched calls (LeafBatches runs them) ------

    /**
     * The leaves of {@code keys[from, from + n)} ({@code n <=} {@value LeafBatches#GROUP}), in
     * {@code leaves[0, n)}: what {@link #findLeaf} gives each key, a key of {@link #MAXKEY}
     * descending as {@code MAXKEY - 1}. A structure overrides it to descend the keys in lock-step,
     * level by level, starting every node's line loads before it searches any (see
     * {@code kernel.Prefetch}), so that the misses of independent descents overlap instead of
     * adding up, and to start the loads of each leaf's lines too, so that what reads the leaves
     * next finds them arriving. The default finds one leaf after another.
     */
    protected void findLeaves(long[] keys, int from, int n, int[] leaves) {
        for (int i = 0; i < n; i++) {
            leaves[i] = findLeaf(Math.min(keys[from + i], MAXKEY - 1));
        }
    }

    /**
     * The value of {@code key} ({@code < MAXKEY}) in {@code leaf}, the leaf {@link #findLeaf} gives
     * it, or {@code absent}: a look-up's last step, for the batched look-up. The default reads the
     * leaf through the position SPI; a structure overrides it with its own leaf search.
     */
    protected long leafGet(int leaf, long key, long absent) {
        long p = firstFrom(leaf, leafSuccGE(leaf, key));
        return p >= 0 && keyAt(p) == key ? valueAt(p) : absent;
    }

    /**
     * Puts {@code key} ({@code < MAXKEY}) into {@code leaf}, the leaf {@link #findLeaf} gives it, if
     * that leaves the tree's shape as it is (the key is there, or the leaf has room), and says
     * whether it did; {@code false} sends the key through {@link #put}, which splits. The batched
     * put calls it only while {@link #shapeVersion} is what it was when {@link #findLeaves} found
     * the leaf, so a structure need not check that the leaf is still the key's. The default puts
     * nothing here.
     */
    protected boolean leafPut(int leaf, long key, long value) {
        return false;
    }

    /**
     * A number that changes whenever leaves split, are re-encoded or are removed, or the inner
     * levels change: while it stays, a leaf {@link #findLeaves} gave a key is still that key's.
     * Only {@link #leafPut} relies on it; the default never changes (it is never consulted while
     * {@code leafPut} puts nothing).
     */
    protected int shapeVersion() {
        return 0;
    }

    /**
     * Whether a put may give a key any value: {@code false} for a key-only index, whose batched
     * put then refuses a batch with a value other than 0 before it changes anything.
     */
    protected boolean storesValues() {
        return true;
    }

    // ---- the leaf chain: head, tail, link and unlink, written once ------------------------------

    /**
     * The first and last leaf of the chain, for structures that keep the chain with
     * {@link #linkAfter}, {@link #unlinkLeaf} and {@link #chainLeaves}; a structure's
     * {@link #firstLeaf}/{@link #lastLeaf} usually return them.
     */
    protected int headLeaf = NONE;
    protected int tailLeaf = NONE;

    /**
     * Sets the next leaf of {@code leaf} in the structure's own link storage. Structures that keep
     * no links (and walk their tree instead) throw {@link UnsupportedOperationException} and never
     * call the chain methods below.
     */
    protected abstract void setLeafNext(int leaf, int next);

    /** Sets the previous leaf of {@code leaf}; see {@link #setLeafNext}. */
    protected abstract void setLeafPrev(int leaf, int prev);

    /** Puts the new leaf {@code right} into the chain right after {@code leaf} (a split). */
    protected final void linkAfter(int leaf, int right) {
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
    protected final void unlinkLeaf(int leaf) {
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

    /**
     * Makes {@code leaves[0, n)} the whole chain, in that order (a bulk load, or a new tree's one
     * leaf); {@code n >= 1}.
     */
    protected final void chainLeaves(int[] leaves, int n) {
        int prev = NONE;
        for (int i = 0; i < n; i++) {
            int leaf = leaves[i];
            setLeafPrev(leaf, prev);
            if (prev != NONE) {
                setLeafNext(prev, leaf);
            }
            prev = leaf;
        }
        setLeafNext(prev, NONE);
        headLeaf = leaves[0];
        tailLeaf = prev;
    }

    /** Makes {@code leaf} the whole chain (an empty tree's one leaf). */
    protected final void chainOne(int leaf) {
        setLeafNext(leaf, NONE);
        setLeafPrev(leaf, NONE);
        headLeaf = leaf;
        tailLeaf = leaf;
    }

    /** The key in a used slot. */
    protected abstract long leafKey(int leaf, int slot);

    /** The value in a used slot. */
    protected abstract long leafValue(int leaf, int slot);

    /**
     * Levels above the leaves: what one descent costs, in leaves a scan could read instead (the
     * range strategies switch on it).
     */
    protected abstract int descentLevels();

    /** The structure's own invariants; throws {@link IllegalStateException} naming the first broken. */
    protected abstract void checkStructure();

    /**
     * Gives the entries of the used slots in {@code bits} of a leaf to the visitor in key order
     * until it returns false, checking after each that it did not change the index. Returns how
     * many it gave, negated if the visitor stopped. Structures override it to read a leaf once.
     */
    protected int visitLeaf(int leaf, long bits, LongEntryVisitor visitor, int expectedModCount) {
        int n = 0;
        for (; bits != 0; bits &= bits - 1) {
            int slot = Long.numberOfTrailingZeros(bits);
            n++;
            boolean go = visitor.visit(leafKey(leaf, slot), leafValue(leaf, slot));
            checkUnchanged(expectedModCount);
            if (!go) {
                return -n;
            }
        }
        return n;
    }

    /** A few words on the shape (height, nodes) for {@code toString}; empty by default. */
    protected String describeShape() {
        return "";
    }

    /** Throws {@link ConcurrentModificationException} if the index changed since {@code expected}. */
    protected final void checkUnchanged(int expected) {
        if (expected != modCount) {
            throw new ConcurrentModificationException("the index was changed during a visit (by the visitor?)");
        }
    }

    // ---- default return value, size, toString ---------------------------------------------------

    @Override
    public final long defaultReturnValue() {
        return defaultReturnValue;
    }

    @Override
    public final void defaultReturnValue(long value) {
        defaultReturnValue = value;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public String toString() {
        String shape = describeShape();
        return name + "[size=" + size + (shape.isEmpty() ? "" : ", " + shape) + "]";
    }

    // ---- the out-of-band largest key, and bulk-load input ---------------------------------------

    /** {@code get(Long.MAX_VALUE, absent)}. */
    protected final long getMax(long absent) {
        return hasMax ? maxValue : absent;
    }

    /** {@code put(Long.MAX_VALUE, value)}: the previous value, or the default return value. */
    protected final long putMax(long value) {
        long previous = hasMax ? maxValue : defaultReturnValue;
        if (!hasMax) {
            hasMax = true;
            size++;
            modCount++;
        }
        maxValue = value;
        return previous;
    }

    /** {@code remove(Long.MAX_VALUE)}: the value it had, or the default return value. */
    protected final long removeMax() {
        if (!hasMax) {
            return defaultReturnValue;
        }
        long previous = maxValue;
        hasMax = false;
        maxValue = 0;
        size--;
        modCount++;
        return previous;
    }

    /**
     * Checks bulk-load input ({@link SortedInput}), takes {@code Long.MAX_VALUE} out of band and
     * sets the size; returns how many keys, from the start of {@code keys}, go into leaves. Call it
     * on a new, empty index, before building anything.
     *
     * @throws IllegalArgumentException on unsorted or duplicate keys or arrays of different
     *                                  lengths; nothing is changed
     */
    protected final int acceptBulk(long[] keys, long[] values) {
        return acceptBulk(keys, values, Arrivals.ALL);
    }

    /** {@link #acceptBulk(long[], long[])} of input that may still be arriving ({@link Arrivals}). */
    protected final int acceptBulk(long[] keys, long[] values, Arrivals in) {
        SortedInput.check(keys, values, in);
        int n = keys.length;
        if (n > 0 && keys[n - 1] == MAXKEY) {
            hasMax = true;
            maxValue = values == null ? 0 : values[n - 1];
            n--;
        }
        size = keys.length;
        return n;
    }

    /** Forgets the out-of-band key and the size (for {@code clear}); bumps {@link #modCount}. */
    protected final void resetCommon() {
        hasMax = false;
        maxValue = 0;
        size = 0;
        modCount++;
    }

    // ---- positions ------------------------------------------------------------------------------

    protected static long pos(int leaf, int slot) {
        return (long) leaf << SLOT_BITS | slot;
    }

    protected static int posLeaf(long pos) {
        return (int) (pos >>> SLOT_BITS);
    }

    protected static int posSlot(long pos) {
        return (int) pos & (MAX_SLOTS - 1);
    }

    /** Used slots at or above {@code s} ({@code 0 <= s <= 64}). */
    protected static long bitsFrom(long bm, int s) {
        return s >= MAX_SLOTS ? 0 : bm & (-1L << s);
    }

    /** Used slots below {@code s} ({@code 0 <= s <= 64}). */
    protected static long bitsBelow(long bm, int s) {
        return s >= MAX_SLOTS ? bm : bm & ((1L << s) - 1);
    }

    protected static int highestBit(long bits) {
        return 63 - Long.numberOfLeadingZeros(bits);
    }

    final long keyAt(long pos) {
        return pos == POS_MAX ? MAXKEY : leafKey(posLeaf(pos), posSlot(pos));
    }

    final long valueAt(long pos) {
        return pos == POS_MAX ? maxValue : leafValue(posLeaf(pos), posSlot(pos));
    }

    /** The first used slot at or after slot {@code s} of {@code leaf}, else further right. */
    final long firstFrom(int leaf, int s) {
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
    final long lastBelow(int leaf, int s) {
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

    /**
     * The one neighbour search: the position of the least key {@code >= key} ({@code above},
     * inclusive), {@code > key} ({@code above}, exclusive), the greatest {@code <= key} or
     * {@code < key}; {@link #POS_NONE} if there is none. Like {@code ConcurrentSkipListMap.findNear}:
     * the four neighbour queries, the cursor's seeks and the views are thin wrappers.
     */
    protected final long nearPos(long key, boolean above, boolean inclusive) {
        if (!inclusive) {
            if (key == (above ? MAXKEY : Long.MIN_VALUE)) {
                return POS_NONE;
            }
            key = above ? key + 1 : key - 1; // keys are integers: > k is >= k + 1
        }
        if (above) {
            if (key == MAXKEY) {
                return hasMax ? POS_MAX : POS_NONE;
            }
            int leaf = findLeaf(key);
            // The least key >= key is in this leaf at or after slot succ>=(key), or further right:
            // every key of later leaves is above this leaf's range, which holds key.
            return firstFrom(leaf, leafSuccGE(leaf, key));
        }
        if (key == MAXKEY) {
            return hasMax ? POS_MAX : lastBelow(lastLeaf(), MAX_SLOTS);
        }
        int leaf = findLeaf(key);
        return lastBelow(leaf, leafSuccGT(leaf, key));
    }

    final long firstPos() {
        return firstFrom(firstLeaf(), 0);
    }

    final long lastPos() {
        return hasMax ? POS_MAX : lastBelow(lastLeaf(), MAX_SLOTS);
    }

    /** The position after {@code pos} in key order. */
    final long nextPos(long pos) {
        return pos == POS_MAX ? POS_NONE : firstFrom(posLeaf(pos), posSlot(pos) + 1);
    }

    /** The position before {@code pos} in key order. */
    final long prevPos(long pos) {
        return pos == POS_MAX ? lastBelow(lastLeaf(), MAX_SLOTS) : lastBelow(posLeaf(pos), posSlot(pos));
    }

    private long keyOr(long pos, long absent) {
        return pos == POS_NONE ? absent : keyAt(pos);
    }

    @Override
    public final long ceilingKey(long key, long absent) {
        return keyOr(nearPos(key, true, true), absent);
    }

    @Override
    public final long higherKey(long key, long absent) {
        return keyOr(nearPos(key, true, false), absent);
    }

    @Override
    public final long floorKey(long key, long absent) {
        return keyOr(nearPos(key, false, true), absent);
    }

    @Override
    public final long lowerKey(long key, long absent) {
        return keyOr(nearPos(key, false, false), absent);
    }

    @Override
    public final long firstKey() {
        long p = firstPos();
        if (p == POS_NONE) {
            throw new NoSuchElementException("the index is empty");
        }
        return keyAt(p);
    }

    @Override
    public final long lastKey() {
        long p = lastPos();
        if (p == POS_NONE) {
            throw new NoSuchElementException("the index is empty");
        }
        return keyAt(p);
    }

    @Override
    public LongCursor cursor() {
        return new ChainCursor(this);
    }

    // ---- ranges -------------------------------------------------------------------------------

    @Override
    public final long rangeCount(long from, boolean fromInclusive, long to, boolean toInclusive) {
        return rangeCount(from, fromInclusive, to, toInclusive, -1);
    }

    /**
     * The keys in the leaves in {@code [from, to)} ({@code from < to}): the shared strategies of
     * {@link #rangeCount(long, boolean, long, boolean, int)} with the levels of a descent as the
     * switch. A structure that can count a range faster (the device trees: both bounds searched in
     * one launch, the pages between counted from the host's occupancy) overrides it.
     */
    protected long countInLeaves(long from, long to) {
        return LeafRanges.countBelow(this, from, to, descentLevels() + 1);
    }

    @Override
    public final long rangeVisit(long from, boolean fromInclusive, long to, boolean toInclusive,
                                 LongEntryVisitor visitor) {
        return rangeVisit(from, fromInclusive, to, toInclusive, visitor, descentLevels() + 1);
    }

    /**
     * {@link #rangeCount(long, boolean, long, boolean)} with the strategy switch given:
     * {@code scanLeaves} = 0 is the pure two-descent strategy, {@code Integer.MAX_VALUE} the pure
     * scan (for tests); -1 is the index's own choice ({@link #countInLeaves}).
     */
    public final long rangeCount(long from, boolean fromInclusive, long to, boolean toInclusive, int scanLeaves) {
        if (Bounds.isEmpty(from, fromInclusive, to, toInclusive)) {
            return 0;
        }
        long lo = Bounds.lowest(from, fromInclusive);
        long hi = Bounds.highest(to, toInclusive);
        // Leaves never hold MAXKEY: [lo, hi] is [lo, hi + 1) in the leaves, or [lo, MAXKEY) and the
        // out-of-band key.
        if (hi == MAXKEY) {
            return leafCount(lo, MAXKEY, scanLeaves) + (hasMax ? 1 : 0);
        }
        return leafCount(lo, hi + 1, scanLeaves);
    }

    private long leafCount(long from, long to, int scanLeaves) {
        if (from >= to) {
            return 0;
        }
        return scanLeaves < 0 ? countInLeaves(from, to) : LeafRanges.countBelow(this, from, to, scanLeaves);
    }

    /** The range visit with the strategy switch given (see {@link #rangeCount(long, boolean, long, boolean, int)}). */
    public final long rangeVisit(long from, boolean fromInclusive, long to, boolean toInclusive,
                                 LongEntryVisitor visitor, int scanLeaves) {
        Objects.requireNonNull(visitor, "visitor");
        if (Bounds.isEmpty(from, fromInclusive, to, toInclusive)) {
            return 0;
        }
        long lo = Bounds.lowest(from, fromInclusive);
        long hi = Bounds.highest(to, toInclusive);
        int expected = modCount;
        long n = LeafRanges.visitBelow(this, lo, hi == MAXKEY ? MAXKEY : hi + 1, visitor, scanLeaves, expected);
        if (n < 0) {
            return -n; // the visitor stopped
        }
        if (hi == MAXKEY && hasMax) {
            n++;
            visitor.visit(MAXKEY, maxValue);
            checkUnchanged(expected);
        }
        return n;
    }

    // ---- batched calls: sorted when large, descended in lock-step (LeafBatches) ---------------

    @Override
    public void getAll(long[] keys, long[] values, long absent) {
        LeafBatches.getAll(this, keys, values, absent);
    }

    @Override
    public void ceilingKeyAll(long[] keys, long[] ceilings, long absent) {
        LeafBatches.ceilingKeyAll(this, keys, ceilings, absent);
    }

    @Override
    public void rangeCountAll(long[] from, long[] to, long[] counts) {
        LeafBatches.rangeCountAll(this, from, to, counts);
    }

    @Override
    public void putAll(long[] keys, long[] values) {
        LeafBatches.putAll(this, keys, values);
    }

    @Override
    public long removeAll(long[] keys) {
        return LeafBatches.removeAll(this, keys);
    }

    // ---- invariants -----------------------------------------------------------------------------

    /**
     * The chain checks, then {@link #checkStructure()}. Final: no structure can skip the common
     * part, and none can pass by having no checker.
     */
    @Override
    public final void checkInvariants() {
        checkLeafChain();
        checkStructure();
    }

    /**
     * Checks what the SPI promises, for every structure: the chain runs from {@link #firstLeaf()}
     * to {@link #lastLeaf()} with matching back links and no cycle; keys ascend strictly across
     * every used slot of every leaf, and none is {@link #MAXKEY}; {@code succ>=} and {@code succ>}
     * of each key bracket its slot; {@link #findLeaf} finds the first and last key of each leaf in
     * it; and the keys, with the out-of-band one, add up to {@link #size}.
     */
    protected final void checkLeafChain() {
        BitSet seen = new BitSet();
        int prev = NONE;
        long count = 0;
        boolean any = false;
        long last = 0;
        for (int leaf = firstLeaf(); leaf != NONE; leaf = leafNext(leaf)) {
            if (leaf < 0 || seen.get(leaf)) {
                fail("leaf " + leaf + " appears twice in the chain (or is negative)");
            }
            seen.set(leaf);
            if (leafPrev(leaf) != prev) {
                fail("leaf " + leaf + " links back to " + leafPrev(leaf) + ", not " + prev);
            }
            long bm = leafBitmap(leaf);
            for (long bits = bm; bits != 0; bits &= bits - 1) {
                int s = Long.numberOfTrailingZeros(bits);
                long k = leafKey(leaf, s);
                if (k == MAXKEY) {
                    fail("leaf " + leaf + " slot " + s + " holds Long.MAX_VALUE, which lives out of band");
                }
                if (any && k <= last) {
                    fail("key " + k + " (leaf " + leaf + " slot " + s + ") is not above the key before it, " + last);
                }
                int ge = leafSuccGE(leaf, k);
                int gt = leafSuccGT(leaf, k);
                long before = bitsBelow(bm, s);
                long after = bitsFrom(bm, s + 1);
                int lowGE = before == 0 ? 0 : highestBit(before) + 1;
                int highGT = after == 0 ? MAX_SLOTS : Long.numberOfTrailingZeros(after);
                if (ge < lowGE || ge > s || gt <= s || gt > highGT) {
                    fail("leaf " + leaf + ": succ>=(" + k + ") = " + ge + " and succ>(" + k + ") = " + gt
                            + " do not bracket its slot " + s);
                }
                any = true;
                last = k;
                count++;
            }
            if (bm != 0) {
                long lo = leafKey(leaf, Long.numberOfTrailingZeros(bm));
                long hi = leafKey(leaf, highestBit(bm));
                if (findLeaf(lo) != leaf || findLeaf(hi) != leaf) {
                    fail("findLeaf does not lead to leaf " + leaf + " for its keys " + lo + " and " + hi);
                }
            }
            prev = leaf;
        }
        if (prev != lastLeaf()) {
            fail("the chain ends at leaf " + prev + ", but the last leaf is " + lastLeaf());
        }
        if (count + (hasMax ? 1 : 0) != size) {
            fail("the leaves hold " + count + " keys" + (hasMax ? " and Long.MAX_VALUE one more" : "")
                    + ", but size is " + size);
        }
    }

    /** Throws the {@link IllegalStateException} of a broken invariant, naming the structure. */
    protected final void fail(String what) {
        throw new IllegalStateException(name + " invariant broken: " + what);
    }

    /**
     * One descent, exact: whether the key was there is whether the tree's own entry count moved,
     * which only the one writer this single-threaded tree allows can change in between.
     */
    @Override
    public final boolean put(long key, long value, long[] previous) {
        BatchArguments.checkOut(previous, "previous");
        long before = size;
        long old = put(key, value);
        if (size != before) {
            return false;
        }
        previous[0] = old;
        return true;
    }

    /** One descent, exact, as {@link #put(long, long, long[])}. */
    @Override
    public final boolean remove(long key, long[] previous) {
        BatchArguments.checkOut(previous, "previous");
        long before = size;
        long old = remove(key);
        if (size == before) {
            return false;
        }
        previous[0] = old;
        return true;
    }

    @Override
    public final NavigableMap<Long, Long> asNavigableMap() {
        return LongIndexViews.asNavigableMap(this);
    }
}
