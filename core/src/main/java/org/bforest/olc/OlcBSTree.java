package org.bforest.olc;

import static org.bforest.kernel.GapSlots.MAXKEY;

import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.concurrent.ConcurrentNavigableMap;
import org.bforest.ConcurrentLongIndex;
import org.bforest.IndexKind;
import org.bforest.LongCursor;
import org.bforest.LongEntryVisitor;
import org.bforest.LongIndexViews;
import org.bforest.kernel.NodeSearch;
import org.bforest.spi.InvariantCheckable;
import org.bforest.util.BatchArguments;
import org.bforest.util.BatchOrder;

/**
 * The concurrent BS-tree: the gapped, data-parallel B+-tree of Tsitsigkos, Lampropoulos, Bouros,
 * Mamoulis and Terrovitis ("BS-tree: A gapped data-parallel B-tree") made safe for any number of
 * threads with optimistic lock coupling, as the paper's section 7 does. This class is the index's
 * face: each operation hands the tree to the code that does it, a static method of a final class.
 * <ul>
 * <li>{@link OlcNodes} (which this class extends): the state and the node layout (16-slot gapped
 *     nodes in flat arrays in chunks that never move, a version-and-lock word per node, leaves
 *     with fences, the inner levels' mirror, {@code Long.MAX_VALUE} out of band).</li>
 * <li>{@link OlcReader}: {@code get}, {@code containsKey}, {@code getAll}, the lock-coupled
 *     descent, the neighbour queries, the range walk; and why reads are safe without locks.</li>
 * <li>{@link OlcWriter}: put and delete, splits, the mirror's upkeep; and why the writers'
 *     locking cannot deadlock and keeps the mirror exact.</li>
 * <li>{@link OlcUnlinker}: unlinking emptied leaves and childless inner nodes; {@link NodeRecycler}:
 *     the free lists, and why reusing a node at once is safe.</li>
 * <li>{@link OlcNeighbours}: the neighbour queries along the leaf chain.</li>
 * <li>{@link OlcBulkLoad}, {@link OlcCursor}, {@link OlcChecker}.</li>
 * </ul>
 *
 * <h2>Synchronization, in short</h2>
 * Readers take no lock: they read a node's version, read the node, read the child's version, then
 * check that the node's version has not moved (lock coupling), and restart from the root if it
 * has; a leaf's answer counts only once its version is validated. Look-ups, updates, inserts that
 * need no split and deletes first try a shorter way: the mirror's inner levels without any
 * validation, then the leaf validated (or locked from the version read) and its fences checked,
 * which makes the leaf the key's leaf however it was reached; they fall back to lock coupling
 * after a few failed tries. Writers lock only the nodes they change, by a compare-and-set from the
 * version they read. Inserts split a full inner node when they pass it, so the parent of a leaf
 * always has a free slot; deletes clear their slot, and a leaf they empty is unlinked and its id
 * reused ({@link OlcUnlinker}, {@link NodeRecycler}), as are inner nodes left without a child.
 *
 * <p>{@code get}, {@code put}, {@code remove}, {@code containsKey}, the exact and conditional
 * updates ({@code putIfAbsent}, {@code replace}, {@code remove(key, expected)}, each one step under
 * the leaf's lock or one validated read) and the neighbour queries are linearizable: a neighbour
 * query that crosses leaves validates every leaf it read at the end, so its answer held at one
 * instant. Cursors, {@code rangeCount}, {@code rangeVisit} and {@code forEach} are weakly
 * consistent, as {@code ConcurrentSkipListMap}'s iterators: each leaf is read at one instant, a key
 * present for the whole walk is seen exactly once, a key added or removed meanwhile may or may not
 * be; they never throw {@code ConcurrentModificationException}. {@code size()} is exact when no
 * update is running and an estimate while one is. {@code clear()} removes the keys one by one (not
 * atomic, as {@code ConcurrentSkipListMap}'s).
 */
final class OlcBSTree extends OlcNodes implements ConcurrentLongIndex, InvariantCheckable {
    private volatile long defaultReturnValue;

    /** An empty tree: one empty leaf. */
    OlcBSTree() {
    }

    /** See {@link OlcBulkLoad#load}. */
    static OlcBSTree bulkLoad(long[] keys, long[] values) {
        return OlcBulkLoad.load(keys, values);
    }

    // ---- look-ups -------------------------------------------------------------------------------

    @Override
    public long get(long key, long absent) {
        long r = OlcReader.lookup(this, key);
        return r == ABSENT_MARK ? absent : previous(r);
    }

    @Override
    public boolean containsKey(long key) {
        return OlcReader.lookup(this, key) != ABSENT_MARK;
    }

    /**
     * See {@link OlcReader#getAll}: 16 keys descended in lock-step, each answer linearizable by
     * itself; a batch of {@value BatchOrder#WORTH_SORTING} keys or more and at least an eighth of
     * the tree's is put in key order first ({@link BatchOrder}), as the single-threaded trees'
     * batches are, and the answers go back to the caller's order.
     */
    @Override
    public void getAll(long[] keys, long[] values, long absent) {
        BatchArguments.checkGetAll(keys, values);
        if (keys.length < BatchOrder.WORTH_SORTING || keys.length < size() >> 3) {
            OlcReader.getAll(this, keys, values, absent);
            return;
        }
        BatchOrder o = BatchOrder.of(keys);
        long[] sorted = new long[keys.length];
        OlcReader.getAll(this, o.keys, sorted, absent);
        int[] at = o.from;
        for (int i = 0; i < sorted.length; i++) {
            values[at[i]] = sorted[i];
        }
    }

    /**
     * Each key put as {@link #put} does (each linearizable by itself; the batch is not one atomic
     * step), 16 at a time after a lock-step descent that brings their paths and leaves into the
     * cache; a large batch in key order ({@link BatchOrder}, stable: a key given twice ends with its
     * last value).
     */
    @Override
    public void putAll(long[] keys, long[] values) {
        BatchArguments.checkPutAll(keys, values);
        applyAll(keys, values);
    }

    /** As {@link #putAll}: each key removed as {@link #remove} does, after the warming descent. */
    @Override
    public long removeAll(long[] keys) {
        java.util.Objects.requireNonNull(keys, "keys");
        return applyAll(keys, null);
    }

    /** Puts ({@code values} given) or removes every key; returns how many keys were removed. */
    private long applyAll(long[] keys, long[] values) {
        long[] k = keys;
        int[] at = null;
        if (keys.length >= BatchOrder.WORTH_SORTING) {
            BatchOrder o = BatchOrder.of(keys);
            k = o.keys;
            at = o.from;
        }
        int[] nodes = new int[OlcReader.BATCH];
        long[] versions = new long[OlcReader.BATCH];
        long[] group = new long[OlcReader.BATCH];
        long[] scratch = new long[OlcReader.BATCH];
        long removed = 0;
        for (int base = 0; base < k.length; base += OlcReader.BATCH) {
            int n = Math.min(OlcReader.BATCH, k.length - base);
            OlcReader.warm(this, k, base, n, nodes, versions, group, scratch);
            for (int i = base; i < base + n; i++) {
                if (values == null) {
                    removed += OlcWriter.delete(this, k[i]) != ABSENT_MARK ? 1 : 0;
                } else {
                    OlcWriter.insert(this, k[i], values[at == null ? i : at[i]]);
                }
            }
        }
        return removed;
    }

    @Override
    public long defaultReturnValue() {
        return defaultReturnValue;
    }

    @Override
    public void defaultReturnValue(long value) {
        defaultReturnValue = value;
    }

    // ---- updates --------------------------------------------------------------------------------

    @Override
    public long put(long key, long value) {
        long r = OlcWriter.insert(this, key, value);
        return r == ABSENT_MARK ? defaultReturnValue : previous(r);
    }

    @Override
    public boolean upsert(long key, long value) {
        return OlcWriter.insert(this, key, value) == ABSENT_MARK;
    }

    @Override
    public long remove(long key) {
        long r = OlcWriter.delete(this, key);
        return r == ABSENT_MARK ? defaultReturnValue : previous(r);
    }

    @Override
    public boolean delete(long key) {
        return OlcWriter.delete(this, key) != ABSENT_MARK;
    }

    // ---- exact and conditional updates: each one step under the leaf's lock ---------------------

    @Override
    public boolean get(long key, long[] value) {
        BatchArguments.checkOut(value, "value");
        long r = OlcReader.lookup(this, key);
        if (r == ABSENT_MARK) {
            return false;
        }
        value[0] = previous(r);
        return true;
    }

    @Override
    public boolean put(long key, long value, long[] previous) {
        BatchArguments.checkOut(previous, "previous");
        return answer(OlcWriter.insert(this, key, value), previous);
    }

    @Override
    public boolean remove(long key, long[] previous) {
        BatchArguments.checkOut(previous, "previous");
        return answer(OlcWriter.delete(this, key), previous);
    }

    @Override
    public boolean putIfAbsent(long key, long value, long[] present) {
        BatchArguments.checkOut(present, "present");
        return answer(OlcWriter.write(this, key, value, OlcWriter.PUT_IF_ABSENT, 0), present);
    }

    @Override
    public boolean replace(long key, long value, long[] previous) {
        BatchArguments.checkOut(previous, "previous");
        return answer(OlcWriter.write(this, key, value, OlcWriter.REPLACE, 0), previous);
    }

    @Override
    public boolean replace(long key, long expected, long value) {
        return OlcWriter.write(this, key, value, OlcWriter.REPLACE_IF, expected) != ABSENT_MARK;
    }

    @Override
    public boolean remove(long key, long expected) {
        return OlcWriter.write(this, key, 0, OlcWriter.REMOVE_IF, expected) != ABSENT_MARK;
    }

    /** Whether a write found its key ({@code r} is not ABSENT_MARK), its value then into {@code out[0]}. */
    private static boolean answer(long r, long[] out) {
        if (r == ABSENT_MARK) {
            return false;
        }
        out[0] = previous(r);
        return true;
    }

    @Override
    public void clear() {
        // Key by key, each removal linearizable; not atomic as a whole (see the class comment).
        LongCursor c = cursor();
        for (boolean ok = c.seekFirst(); ok; ok = c.isValid()) {
            c.remove();
        }
    }

    @Override
    public long size() {
        return count();
    }

    // ---- neighbours -----------------------------------------------------------------------------

    private long nearKey(long key, boolean above, boolean inclusive, long absent) {
        Probe p = new Probe();
        OlcNeighbours.near(this, key, above, inclusive, p);
        return p.found ? p.key : absent;
    }

    @Override
    public long ceilingKey(long key, long absent) {
        return nearKey(key, true, true, absent);
    }

    @Override
    public long higherKey(long key, long absent) {
        return nearKey(key, true, false, absent);
    }

    @Override
    public long floorKey(long key, long absent) {
        return nearKey(key, false, true, absent);
    }

    @Override
    public long lowerKey(long key, long absent) {
        return nearKey(key, false, false, absent);
    }

    @Override
    public long firstKey() {
        Probe p = new Probe();
        OlcNeighbours.near(this, Long.MIN_VALUE, true, true, p);
        if (!p.found) {
            throw new NoSuchElementException("firstKey() of an empty index");
        }
        return p.key;
    }

    @Override
    public long lastKey() {
        Probe p = new Probe();
        OlcNeighbours.near(this, MAXKEY, false, true, p);
        if (!p.found) {
            throw new NoSuchElementException("lastKey() of an empty index");
        }
        return p.key;
    }

    // ---- cursors and ranges ---------------------------------------------------------------------

    @Override
    public LongCursor cursor() {
        return new OlcCursor(this);
    }

    @Override
    public long rangeCount(long from, boolean fromInclusive, long to, boolean toInclusive) {
        return OlcReader.walk(this, from, fromInclusive, to, toInclusive, null);
    }

    @Override
    public long rangeVisit(long from, boolean fromInclusive, long to, boolean toInclusive, LongEntryVisitor visitor) {
        Objects.requireNonNull(visitor, "visitor");
        return OlcReader.walk(this, from, fromInclusive, to, toInclusive, visitor);
    }

    // ---- accounting -----------------------------------------------------------------------------

    @Override
    public IndexKind kind() {
        return IndexKind.of(IndexKind.Family.CONCURRENT_BS_TREE);
    }

    @Override
    public long memoryBytes() {
        return 64 + leafKeys.bytes() + leafVals.bytes() + leafHdr.bytes() + leafLinks.bytes() + innerKeys.bytes()
                + innerKids.bytes() + mirror.bytes() + recycler.bytes()
                + 16 + 8L * maxRecord.length + 64;
    }

    /** Inner levels above the leaves. */
    public int height() {
        return rootHeight();
    }

    @Override
    public void checkInvariants() {
        new OlcChecker(this).check();
    }

    @Override
    public String toString() {
        return "concurrent BS-tree[size=" + size() + ", height=" + rootHeight() + ", leaves=" + leafCount.get()
                + ", inner=" + innerCount.get() + ", search=" + NodeSearch.describe() + "]";
    }

    @Override
    public ConcurrentNavigableMap<Long, Long> asNavigableMap() {
        return LongIndexViews.asConcurrentNavigableMap(this);
    }
}
