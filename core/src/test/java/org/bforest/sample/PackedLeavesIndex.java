package org.bforest.sample;

import java.util.Arrays;
import org.bforest.spi.LeafChainIndex;

/**
 * A structure written only against the shared layer's SPI ({@link LeafChainIndex}), from a
 * package outside every one of {@code core}'s: the proof that a new structure gets the whole
 * {@link org.bforest.LongIndex} contract (neighbours, cursors, ranges with every bound flavour,
 * the {@code java.util} view, the invariant hook) without copying a line of the BS-tree. It runs
 * the whole conformance kit like the real trees. Not a product structure: two levels, a sorted
 * directory of leaves searched by binary search.
 *
 * <p>Leaves are packed sorted runs of up to {@value #SLOTS} entries ({@code keys[leaf * 64 + s]},
 * no gaps, so the bitmap is {@code count} low bits). The directory lists the leaves in key order
 * ({@code order}) with each one's separator ({@code seps}: every key of the leaf is at or above
 * it, and below the next leaf's), and {@code rankOf} maps a leaf id back to its place, so the
 * chain is the directory. A full leaf splits 32 / 32; an emptied leaf leaves the directory (but
 * the last one stays, empty) and its id is reused. {@code Long.MAX_VALUE} is the base class's,
 * out of band. Writes are single-threaded; reads keep no state in fields.
 */
public final class PackedLeavesIndex extends LeafChainIndex {
    static final int SLOTS = 64;
    private static final int BULK_FILL = 48;

    private long[] keys;
    private long[] vals;
    private int[] count;
    /** Leaf ids in key order, their separators, and each id's place in {@code order}. */
    private int[] order;
    private long[] seps;
    private int[] rankOf;
    private int leaves;
    /** Leaf ids never used yet start at {@code nextId}; freed ones wait in {@code free}. */
    private int nextId;
    private int[] free;
    private int freeCount;

    /** An empty index. */
    public PackedLeavesIndex() {
        super("packed-leaves sample");
        init(4);
    }

    private void init(int capacity) {
        keys = new long[capacity * SLOTS];
        vals = new long[capacity * SLOTS];
        count = new int[capacity];
        order = new int[capacity];
        seps = new long[capacity];
        rankOf = new int[capacity];
        free = new int[capacity];
        freeCount = 0;
        nextId = 0;
        int first = newLeaf();
        order[0] = first;
        seps[0] = Long.MIN_VALUE;
        rankOf[first] = 0;
        leaves = 1;
    }

    /**
     * An index of {@code sortedKeys} (strictly ascending; {@code values} may be null for zeros),
     * {@value #BULK_FILL} entries a leaf.
     *
     * @throws IllegalArgumentException on unsorted or duplicate keys or arrays of different lengths
     */
    public static PackedLeavesIndex bulkLoad(long[] sortedKeys, long[] values) {
        PackedLeavesIndex t = new PackedLeavesIndex();
        int n = t.acceptBulk(sortedKeys, values);
        int need = Math.max(1, (n + BULK_FILL - 1) / BULK_FILL);
        t.init(need + 1);
        for (int i = 0, leaf = t.order[0]; i < n; i += BULK_FILL) {
            if (i > 0) {
                leaf = t.newLeaf();
                t.order[t.leaves] = leaf;
                t.seps[t.leaves] = sortedKeys[i];
                t.rankOf[leaf] = t.leaves++;
            }
            int m = Math.min(BULK_FILL, n - i);
            System.arraycopy(sortedKeys, i, t.keys, leaf * SLOTS, m);
            if (values != null) {
                System.arraycopy(values, i, t.vals, leaf * SLOTS, m);
            }
            t.count[leaf] = m;
        }
        return t;
    }

    private int newLeaf() {
        if (freeCount > 0) {
            return free[--freeCount];
        }
        if (nextId == count.length) {
            int cap = count.length * 2;
            keys = Arrays.copyOf(keys, cap * SLOTS);
            vals = Arrays.copyOf(vals, cap * SLOTS);
            count = Arrays.copyOf(count, cap);
            order = Arrays.copyOf(order, cap);
            seps = Arrays.copyOf(seps, cap);
            rankOf = Arrays.copyOf(rankOf, cap);
            free = Arrays.copyOf(free, cap);
        }
        count[nextId] = 0;
        return nextId++;
    }

    // ---- the SPI --------------------------------------------------------------------------------

    @Override
    protected int findLeaf(long key) {
        int lo = 1;
        int hi = leaves - 1;
        int at = 0;
        while (lo <= hi) { // the last place whose separator is <= key (place 0 takes everything below)
            int mid = (lo + hi) >>> 1;
            if (seps[mid] <= key) {
                at = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return order[at];
    }

    @Override
    protected int firstLeaf() {
        return order[0];
    }

    @Override
    protected int lastLeaf() {
        return order[leaves - 1];
    }

    @Override
    protected int leafNext(int leaf) {
        int r = rankOf[leaf] + 1;
        return r < leaves ? order[r] : NONE;
    }

    @Override
    protected int leafPrev(int leaf) {
        int r = rankOf[leaf] - 1;
        return r >= 0 ? order[r] : NONE;
    }

    @Override
    protected void setLeafNext(int leaf, int next) {
        throw new UnsupportedOperationException("the chain is the fixed order");
    }

    @Override
    protected void setLeafPrev(int leaf, int prev) {
        throw new UnsupportedOperationException("the chain is the fixed order");
    }

    @Override
    protected long leafBitmap(int leaf) {
        int c = count[leaf];
        return c == SLOTS ? -1L : (1L << c) - 1;
    }

    @Override
    protected int leafSuccGE(int leaf, long key) {
        return succ(leaf, key, false);
    }

    @Override
    protected int leafSuccGT(int leaf, long key) {
        return succ(leaf, key, true);
    }

    /** Binary search: the used slots whose keys are {@code < key} ({@code <= key} if {@code orEqual}). */
    private int succ(int leaf, long key, boolean orEqual) {
        int base = leaf * SLOTS;
        int lo = 0;
        int hi = count[leaf];
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            long k = keys[base + mid];
            if (k < key || orEqual && k == key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    @Override
    protected long leafKey(int leaf, int slot) {
        return keys[leaf * SLOTS + slot];
    }

    @Override
    protected long leafValue(int leaf, int slot) {
        return vals[leaf * SLOTS + slot];
    }

    @Override
    protected int descentLevels() {
        return 1;
    }

    // ---- look-ups and updates -------------------------------------------------------------------

    /** The slot of {@code key} in {@code leaf}, or {@code -(insertion slot) - 1}. */
    private int slotOf(int leaf, long key) {
        int s = leafSuccGE(leaf, key);
        return s < count[leaf] && keys[leaf * SLOTS + s] == key ? s : -s - 1;
    }

    @Override
    public long get(long key, long absent) {
        if (key == MAXKEY) {
            return getMax(absent);
        }
        int leaf = findLeaf(key);
        int s = slotOf(leaf, key);
        return s >= 0 ? vals[leaf * SLOTS + s] : absent;
    }

    @Override
    public boolean containsKey(long key) {
        return key == MAXKEY ? hasMax : slotOf(findLeaf(key), key) >= 0;
    }

    @Override
    public long put(long key, long value) {
        if (key == MAXKEY) {
            return putMax(value);
        }
        int leaf = findLeaf(key);
        int s = slotOf(leaf, key);
        if (s >= 0) {
            long previous = vals[leaf * SLOTS + s];
            vals[leaf * SLOTS + s] = value;
            return previous;
        }
        s = -s - 1;
        if (count[leaf] == SLOTS) {
            int right = split(leaf); // may grow the arrays; the key goes to one of the halves
            if (s > SLOTS / 2 || s == SLOTS / 2 && key >= keys[right * SLOTS]) {
                leaf = right;
                s -= SLOTS / 2;
            }
        }
        int base = leaf * SLOTS;
        System.arraycopy(keys, base + s, keys, base + s + 1, count[leaf] - s);
        System.arraycopy(vals, base + s, vals, base + s + 1, count[leaf] - s);
        keys[base + s] = key;
        vals[base + s] = value;
        count[leaf]++;
        size++;
        modCount++;
        return defaultReturnValue();
    }

    /** Moves the upper half of a full leaf to a new leaf right after it; returns the new leaf. */
    private int split(int leaf) {
        int right = newLeaf();
        int half = SLOTS / 2;
        System.arraycopy(keys, leaf * SLOTS + half, keys, right * SLOTS, half);
        System.arraycopy(vals, leaf * SLOTS + half, vals, right * SLOTS, half);
        count[leaf] = half;
        count[right] = half;
        int r = rankOf[leaf] + 1;
        System.arraycopy(order, r, order, r + 1, leaves - r);
        System.arraycopy(seps, r, seps, r + 1, leaves - r);
        order[r] = right;
        seps[r] = keys[right * SLOTS];
        leaves++;
        for (int i = r; i < leaves; i++) {
            rankOf[order[i]] = i;
        }
        return right;
    }

    @Override
    public long remove(long key) {
        if (key == MAXKEY) {
            return removeMax();
        }
        int leaf = findLeaf(key);
        int s = slotOf(leaf, key);
        if (s < 0) {
            return defaultReturnValue();
        }
        int base = leaf * SLOTS;
        long previous = vals[base + s];
        System.arraycopy(keys, base + s + 1, keys, base + s, count[leaf] - s - 1);
        System.arraycopy(vals, base + s + 1, vals, base + s, count[leaf] - s - 1);
        count[leaf]--;
        size--;
        modCount++;
        if (count[leaf] == 0 && leaves > 1) {
            dropLeaf(leaf);
        }
        return previous;
    }

    /** Takes an empty leaf out of the directory and frees its id. */
    private void dropLeaf(int leaf) {
        int r = rankOf[leaf];
        System.arraycopy(order, r + 1, order, r, leaves - r - 1);
        System.arraycopy(seps, r + 1, seps, r, leaves - r - 1);
        leaves--;
        if (r == 0) {
            seps[0] = Long.MIN_VALUE; // the first leaf takes every key below the next separator
        }
        for (int i = r; i < leaves; i++) {
            rankOf[order[i]] = i;
        }
        free[freeCount++] = leaf;
    }

    @Override
    public void clear() {
        init(4);
        resetCommon();
    }

    @Override
    public long memoryBytes() {
        return 64 + 16L * 7 + 8L * (keys.length + vals.length + seps.length)
                + 4L * (count.length + order.length + rankOf.length + free.length);
    }

    @Override
    protected String describeShape() {
        return "leaves=" + leaves;
    }

    @Override
    protected void checkStructure() {
        if (leaves < 1 || leaves > nextId) {
            fail(leaves + " leaves in the directory, " + nextId + " ids ever used");
        }
        if (seps[0] != Long.MIN_VALUE) {
            fail("the first separator is " + seps[0] + ", not Long.MIN_VALUE");
        }
        boolean[] listed = new boolean[nextId];
        for (int i = 0; i < leaves; i++) {
            int leaf = order[i];
            if (leaf < 0 || leaf >= nextId || listed[leaf]) {
                fail("directory place " + i + " holds leaf " + leaf + ", unknown or listed twice");
            }
            listed[leaf] = true;
            if (rankOf[leaf] != i) {
                fail("leaf " + leaf + " is at place " + i + " but rankOf says " + rankOf[leaf]);
            }
            int c = count[leaf];
            if (c < (leaves == 1 ? 0 : 1) || c > SLOTS) {
                fail("leaf " + leaf + " holds " + c + " entries");
            }
            if (i > 0 && seps[i] <= seps[i - 1]) {
                fail("separators not ascending at place " + i);
            }
            for (int s = 0; s < c; s++) {
                long k = keys[leaf * SLOTS + s];
                if (k < seps[i] || i + 1 < leaves && k >= seps[i + 1]) {
                    fail("key " + k + " of leaf " + leaf + " is outside its separators");
                }
            }
        }
        for (int f = 0; f < freeCount; f++) {
            if (free[f] >= nextId || listed[free[f]]) {
                fail("free leaf id " + free[f] + " is in the directory or was never used");
            }
            listed[free[f]] = true;
        }
        for (int id = 0; id < nextId; id++) {
            if (!listed[id]) {
                fail("leaf id " + id + " is neither in the directory nor free");
            }
        }
    }
}
