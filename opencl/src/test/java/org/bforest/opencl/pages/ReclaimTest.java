package org.bforest.opencl.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.bforest.NativeLongIndex;
import org.bforest.contract.IndexAssertions;
import org.bforest.opencl.OpenClTesting;
import org.bforest.opencl.cl.ClDevice;
import org.bforest.opencl.gpubtree.GpuBTrees;
import org.bforest.opencl.hybrid.HybridTrees;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Deletes give memory back, on both paged trees (the GPU B+-tree, the hybrid) at page sizes 2, 3,
 * 4 and 2048, on PoCL here: a window of keys slid forward (a batch of higher keys in, as many of
 * the oldest out) keeps its pages, memory and height within bounds of a fresh tree of its size;
 * a queue drained from its smallest keys and random deletes down to an empty tree give the pages
 * back and take new keys again; a single batch of 1,000 and of 20,000 keys at two keys a page (a
 * tree of height n before inner pages kept a key) stays within the height bound. After every
 * batch: the invariant checker (which rejects an emptied leaf still in the tree, an inner page
 * without a key and a page that is neither free nor reached), the height bound
 * {@code ceil(log2 n) + 2}, and the contents against {@code TreeMap}.
 */
class ReclaimTest {
    private static long seed() {
        return Long.getLong("bforest.seed", Boolean.getBoolean("bforest.soak") ? System.nanoTime() : 0x511DEL);
    }

    private static PagedTree make(String structure, int pageKeys, long[] keys, long[] values) {
        ClDevice device = OpenClTesting.handle();
        NativeLongIndex t = structure.equals("hybrid") ? HybridTrees.create(device, pageKeys, keys, values)
                : GpuBTrees.create(device, pageKeys, keys, values);
        return (PagedTree) t;
    }

    /**
     * A window of {@code w} keys slid forward by {@code b} keys a round, 40 rounds (ten windows'
     * worth: a tree that kept its emptied pages would hold ten times the pages). Pages and memory
     * are held against a tree bulk-loaded with the same keys (full pages, inner pages full): the
     * leaves within twice its pages (split pages are three quarters full, two-key pages one key)
     * plus two, the memory beside the batches' scratch within five times its memory (at two keys
     * a page, split inner pages have two children, not three, and buffers grow by half again), the
     * scratch no larger than twice what it was after the second round (it is kept for the next
     * batch, sized by the batch).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"gpu-btree 2", "gpu-btree 3", "gpu-btree 4", "gpu-btree 2048", "hybrid 2", "hybrid 3",
        "hybrid 4", "hybrid 2048"})
    void aSlidingWindowKeepsItsSize(String variant) {
        String structure = variant.split(" ")[0];
        int pageKeys = Integer.parseInt(variant.split(" ")[1]);
        long seed = seed();
        SplittableRandom r = new SplittableRandom(seed);
        int w = pageKeys == 2048 ? 8_000 : 400;
        int b = w / 4;
        TreeMap<Long, Long> model = new TreeMap<>();
        long next = -1_000_000;
        for (int i = 0; i < w; i++) {
            next += 1 + r.nextInt(5);
            model.put(next, r.nextLong());
        }
        try (PagedTree t = make(structure, pageKeys, new long[0], null)) {
            t.putAll(keys(model), values(model));
            long scratchAfter2 = 0;
            for (int round = 0; round < 40; round++) {
                String at = variant + ", seed " + seed + " (-Dbforest.seed), round " + round;
                long[] in = new long[b];
                long[] vals = r.longs(b).toArray();
                for (int i = 0; i < b; i++) {
                    next += 1 + r.nextInt(5);
                    in[i] = next;
                    model.put(next, vals[i]);
                }
                t.putAll(in, vals);
                long[] out = new long[b];
                for (int i = 0; i < b; i++) {
                    out[i] = model.pollFirstEntry().getKey();
                }
                assertEquals(b, t.removeAll(out), at + ": removeAll's count");
                checkAll(t, model, at);
                long scratch = t.deviceBytes() - t.pageBytes();
                if (round == 2) {
                    scratchAfter2 = scratch;
                }
                try (PagedTree fresh = make(structure, pageKeys, keys(model), values(model))) {
                    String shape = at + ": " + t.describeShape() + " against a fresh tree's " + fresh.describeShape();
                    assertTrue(t.leafPages() <= 2 * fresh.leafPages() + 2, shape);
                    assertTrue(t.store.leafIds.top() <= 2 * t.leafPages() + 2, shape + ": leaf ids up to "
                            + t.store.leafIds.top() + " in use, the freed ones are not reused");
                    long held = held(t);
                    assertTrue(held <= 5 * held(fresh), shape + ": " + held + " bytes beside the scratch, "
                            + fresh.memoryBytes() + " fresh");
                }
                if (round > 2) {
                    assertTrue(scratch <= 2 * scratchAfter2, at + ": scratch " + scratch + " bytes, " + scratchAfter2
                            + " after round 2");
                }
            }
        }
    }

    /**
     * A priority queue's use: keys in ascending, then the smallest out in batches until none is
     * left (the leftmost pages empty one after the other; the height drops as the tree shrinks),
     * then refilled and drained again.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"gpu-btree 2", "gpu-btree 3", "gpu-btree 4", "gpu-btree 2048", "hybrid 2", "hybrid 3",
        "hybrid 4", "hybrid 2048"})
    void aDrainedQueueGivesItsPagesBack(String variant) {
        String structure = variant.split(" ")[0];
        int pageKeys = Integer.parseInt(variant.split(" ")[1]);
        long seed = seed();
        SplittableRandom r = new SplittableRandom(seed);
        int n = pageKeys == 2048 ? 6_000 : 300;
        TreeMap<Long, Long> model = new TreeMap<>();
        try (PagedTree t = make(structure, pageKeys, new long[0], null)) {
            long emptyBytes = held(t);
            for (int fill = 0; fill < 2; fill++) {
                String at = variant + ", seed " + seed + " (-Dbforest.seed), fill " + fill;
                long key = r.nextLong(1_000);
                for (int done = 0; done < n; ) {
                    int m = Math.min(n - done, 1 + r.nextInt(n / 5));
                    long[] keys = new long[m];
                    long[] vals = r.longs(m).toArray();
                    for (int i = 0; i < m; i++) {
                        key += 1 + r.nextInt(3);
                        keys[i] = key;
                        model.put(key, vals[i]);
                    }
                    t.putAll(keys, vals);
                    done += m;
                }
                checkAll(t, model, at + ", filled");
                for (int round = 0; !model.isEmpty(); round++) {
                    int m = Math.min(model.size(), 1 + r.nextInt(n / 6));
                    long[] out = new long[m];
                    for (int i = 0; i < m; i++) {
                        out[i] = model.pollFirstEntry().getKey();
                    }
                    if (m == 1 && r.nextBoolean()) {
                        t.remove(out[0]);
                    } else {
                        assertEquals(m, t.removeAll(out), at + ", round " + round + ": removeAll's count");
                    }
                    checkAll(t, model, at + ", round " + round);
                }
                assertEquals(1, t.leafPages(), at + ": drained");
                assertEquals(0, t.height(), at + ": drained");
                assertTrue(held(t) <= emptyBytes + 8L * 16 * pageKeys + 4096,
                        at + ": drained, " + t.describeShape() + " holds " + held(t) + " bytes, " + emptyBytes + " empty");
            }
        }
    }

    /**
     * Random keys in, then random deletes (batches of present and absent keys, single removes)
     * until the tree is empty, and new keys in again; then a batch that takes every key at once.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"gpu-btree 2", "gpu-btree 3", "gpu-btree 4", "gpu-btree 2048", "hybrid 2", "hybrid 3",
        "hybrid 4", "hybrid 2048"})
    void randomDeletesDownToEmptyThenRefill(String variant) {
        String structure = variant.split(" ")[0];
        int pageKeys = Integer.parseInt(variant.split(" ")[1]);
        long seed = seed();
        SplittableRandom r = new SplittableRandom(seed);
        int n = pageKeys == 2048 ? 6_000 : 400;
        long span = 4L * n;
        TreeMap<Long, Long> model = new TreeMap<>();
        try (PagedTree t = make(structure, pageKeys, new long[0], null)) {
            for (int fill = 0; fill < 2; fill++) {
                String at = variant + ", seed " + seed + " (-Dbforest.seed), fill " + fill;
                long[] keys = r.longs(n, 0, span).toArray();
                long[] vals = r.longs(n).toArray();
                t.putAll(keys, vals);
                for (int i = 0; i < n; i++) {
                    model.put(keys[i], vals[i]);
                }
                checkAll(t, model, at + ", filled");
                for (int round = 0; !model.isEmpty(); round++) {
                    String now = at + ", round " + round;
                    if (r.nextInt(8) == 0) {
                        long k = r.nextBoolean() ? model.firstKey() : r.nextLong(span);
                        Long old = model.remove(k);
                        assertEquals(old == null ? t.defaultReturnValue() : old, t.remove(k), now + ": remove " + k);
                    } else {
                        List<Long> present = new ArrayList<>(model.keySet());
                        int m = 1 + r.nextInt(Math.max(1, n / 8));
                        long[] out = new long[m];
                        long want = 0;
                        for (int i = 0; i < m; i++) {
                            out[i] = r.nextInt(4) == 0 ? r.nextLong(span) : present.get(r.nextInt(present.size()));
                        }
                        for (long k : out) {
                            want += model.remove(k) != null ? 1 : 0;
                        }
                        assertEquals(want, t.removeAll(out), now + ": removeAll's count");
                    }
                    checkAll(t, model, now);
                }
                assertEquals(1, t.leafPages(), at + ": emptied");
            }
            // Every key at once: the tree becomes one empty leaf.
            long[] keys = r.longs(n, 0, span).toArray();
            t.putAll(keys, keys);
            for (long k : keys) {
                model.put(k, k);
            }
            t.removeAll(keys);
            model.clear();
            checkAll(t, model, variant + ": every key in one batch");
            assertEquals(1, t.leafPages());
        }
    }

    /**
     * One large batch into an empty tree of two-key pages: every leaf split at once, every level
     * above planned in the same batch (a tree of height n - 2 and n^2 / 2 inner pages when an inner
     * piece of one entry kept no key). Then half the keys out in one batch.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"gpu-btree", "hybrid"})
    void oneLargeBatchAtTwoKeysAPage(String structure) {
        SplittableRandom r = new SplittableRandom(seed());
        for (int n : new int[] {1_000, 20_000}) {
            String at = structure + ", " + n + " keys in one batch";
            long[] keys = r.longs(n).toArray();
            TreeMap<Long, Long> model = new TreeMap<>();
            for (long k : keys) {
                model.put(k, ~k);
            }
            long[] values = new long[n];
            for (int i = 0; i < n; i++) {
                values[i] = ~keys[i];
            }
            try (PagedTree t = make(structure, 2, new long[0], null)) {
                t.putAll(keys, values);
                checkAll(t, model, at);
                long[] half = new long[n / 2];
                System.arraycopy(keys, 0, half, 0, half.length);
                for (long k : half) {
                    model.remove(k);
                }
                t.removeAll(half);
                checkAll(t, model, at + ", half out");
            }
        }
    }

    /**
     * Bytes a tree holds for its keys: its memory figure less the batches' device scratch and the
     * host's transfer buffers and batch plans (all kept for the next batch, sized by the batches, not the tree).
     */
    private static long held(PagedTree t) {
        return t.memoryBytes() - (t.deviceBytes() - t.pageBytes()) - t.hostScratchBytes();
    }

    /** The invariants, the height bound, the size and the entries in order against the model. */
    private static void checkAll(PagedTree t, TreeMap<Long, Long> model, String at) {
        IndexAssertions.checkInvariants(t);
        long n = t.size();
        assertEquals(model.size(), n, at + ": size");
        int bound = n <= 1 ? 2 : 64 - Long.numberOfLeadingZeros(n - 1) + 2;   // ceil(log2 n) + 2
        assertTrue(t.height() <= bound, at + ": height " + t.height() + " for " + n + " keys (" + t.describeShape() + ")");
        List<long[]> seen = new ArrayList<>();
        t.forEach((k, v) -> seen.add(new long[] {k, v}));
        assertEquals(model.size(), seen.size(), at + ": forEach");
        int i = 0;
        for (Map.Entry<Long, Long> e : model.entrySet()) {
            long[] kv = seen.get(i++);
            if (kv[0] != e.getKey() || kv[1] != e.getValue()) {
                fail(at + ": entry " + (i - 1) + " is " + kv[0] + "=" + kv[1] + ", expected " + e);
            }
        }
    }

    private static long[] keys(TreeMap<Long, Long> model) {
        return model.keySet().stream().mapToLong(Long::longValue).toArray();
    }

    private static long[] values(TreeMap<Long, Long> model) {
        return model.values().stream().mapToLong(Long::longValue).toArray();
    }
}
