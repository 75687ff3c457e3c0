package org.bforest.opencl.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.bforest.NativeLongIndex;
import org.bforest.opencl.DeviceSearch;
import org.bforest.opencl.OpenClException;
import org.bforest.opencl.OpenClTesting;
import org.bforest.opencl.cl.ClDevice;
import org.bforest.opencl.gpubtree.GpuBTrees;
import org.bforest.opencl.hybrid.HybridTrees;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A device call that fails at any point of a batch: at every call of each kind of batch in turn
 * (buffer creations, transfers, fills, launches, waits), a failure is injected as the driver's
 * own would come, and the tree must then be either exactly as it was before the batch (the
 * failure came before the batch changed anything) or failed (every later call throws
 * {@link IllegalStateException} naming the cause) — never a tree that answers wrongly. A driver
 * that allocates lazily reports "out of memory" at first use, which is a failure of a fill, a
 * launch or a read: covered by the same sweep, once with the call failing and once with the call
 * succeeding and its command's event reporting the failure.
 */
class DeviceFailureTest {
    private static final int OUT_OF_RESOURCES = -5;

    /** One kind of batch: what it does to the tree, and to the model. */
    private record Batch(String name, Consumer<NativeLongIndex> onTree, Consumer<TreeMap<Long, Long>> onModel) {
    }

    private static List<Batch> batches(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        long[] fresh = r.longs(600, -40_000, 40_000).toArray();   // splits at every level of 8-key pages
        long[] freshValues = r.longs(fresh.length).toArray();
        long[] some = new long[200];
        for (int i = 0; i < some.length; i++) {
            some[i] = 2L * r.nextInt(400);   // keys the tree holds: a delete that empties pages
        }
        long[] replaced = {0, 2, 4, 6, Long.MAX_VALUE};
        long[] everything = new long[400];
        for (int i = 0; i < everything.length; i++) {
            everything[i] = 2L * i;
        }
        List<Batch> list = new ArrayList<>();
        list.add(new Batch("putAll with splits", t -> t.putAll(fresh, freshValues), m -> {
            for (int i = 0; i < fresh.length; i++) {
                m.put(fresh[i], freshValues[i]);
            }
        }));
        list.add(new Batch("putAll of present keys", t -> t.putAll(replaced, new long[] {7, 7, 7, 7, 7}), m -> {
            for (long k : replaced) {
                m.put(k, 7L);
            }
        }));
        list.add(new Batch("removeAll emptying pages", t -> t.removeAll(some), m -> {
            for (long k : some) {
                m.remove(k);
            }
        }));
        list.add(new Batch("removeAll of every key", t -> t.removeAll(everything), m -> {
            for (long k : everything) {
                m.remove(k);
            }
        }));
        list.add(new Batch("getAll", t -> t.getAll(fresh, new long[fresh.length], -1), m -> { }));
        list.add(new Batch("getAll ordered on the host", t -> {
            ((PagedTree) t).lookUps().deviceOrders = false;
            t.getAll(fresh, new long[fresh.length], -1);
        }, m -> { }));
        list.add(new Batch("clear", NativeLongIndex::clear, Map::clear));
        return list;
    }

    private static PagedTree build(String structure, ClDevice device) {
        long[] keys = new long[400];
        long[] values = new long[keys.length];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = 2L * i;
            values[i] = i;
        }
        NativeLongIndex t = structure.equals("hybrid")
                ? HybridTrees.create(device, 8, DeviceSearch.DEFAULT, keys, values)
                : GpuBTrees.create(device, 8, DeviceSearch.DEFAULT, keys, values);
        PagedTree tree = (PagedTree) t;
        tree.limitLaunches(64);   // several launches a batch: failures fall between them too
        return tree;
    }

    private static TreeMap<Long, Long> model() {
        TreeMap<Long, Long> m = new TreeMap<>();
        for (int i = 0; i < 400; i++) {
            m.put(2L * i, (long) i);
        }
        return m;
    }

    /**
     * Each variant: the structure, and how the failure comes: "call", the call's own status (as a
     * driver that fails at once), or "command", the call succeeds and its command's event says it
     * failed, found at the next blocking call (as a driver that fails a command later).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"gpu-btree call", "hybrid call", "gpu-btree command", "hybrid command"})
    void aFailureAtAnyDeviceCallOfABatchLeavesTheTreeAsItWasOrFailed(String variant) {
        String structure = variant.split(" ")[0];
        boolean command = variant.endsWith("command");
        ClDevice device = OpenClTesting.handle();
        long seed = Long.getLong("bforest.failure.seed", 0xFA11L);
        int unchanged = 0;
        int failed = 0;
        for (Batch batch : batches(seed)) {
            // How many device calls the batch makes, counted on a tree of its own.
            long calls;
            try (PagedTree counting = build(structure, device)) {
                counting.failAt(Long.MAX_VALUE, OUT_OF_RESOURCES);
                batch.onTree().accept(counting);
                calls = Long.MAX_VALUE - counting.cl.faultIn();
                counting.failAt(0, 0);
            }
            assertTrue(calls > 0, batch.name() + " made no device call");
            TreeMap<Long, Long> before = model();
            TreeMap<Long, Long> after = model();
            batch.onModel().accept(after);
            PagedTree tree = build(structure, device);
            try {
                for (long k = 1; k <= calls; k++) {
                    String at = variant + ", " + batch.name() + ", failure at device call " + k + " of " + calls
                            + " (seed " + seed + ")";
                    if (command) {
                        tree.cl.failCommandAt(k, OUT_OF_RESOURCES);
                    } else {
                        tree.failAt(k, OUT_OF_RESOURCES);
                    }
                    OpenClException thrown = null;
                    try {
                        batch.onTree().accept(tree);
                    } catch (OpenClException e) {
                        thrown = e;
                    }
                    tree.failAt(0, 0);
                    tree.cl.failCommandAt(0, 0);
                    if (tree.hasFailed()) {
                        PagedTree dead = tree;
                        assertNotNull(thrown, at + ": failed without an exception");
                        IllegalStateException later = assertThrows(IllegalStateException.class, dead::size, at);
                        assertSame(thrown, later.getCause(), at + ": the cause");
                        assertTrue(later.getMessage().contains("failed"), later.getMessage());
                        assertThrows(IllegalStateException.class, () -> dead.get(0), at);
                        assertThrows(IllegalStateException.class, () -> dead.putAll(new long[] {1}, new long[] {1}), at);
                        assertThrows(IllegalStateException.class, () -> dead.forEach((a, b) -> { }), at);
                        failed++;
                        tree.close();
                        tree = build(structure, device);
                        continue;
                    }
                    // Not failed: exactly before (it threw) or after (the failure did not matter).
                    matches(thrown != null ? before : after, tree, at + (thrown != null ? ", unchanged" : ", done"));
                    if (thrown != null) {
                        unchanged++;
                    } else {
                        // A failure the batch did not need (a smaller buffer it could not get): it ran.
                        tree.close();
                        tree = build(structure, device);
                    }
                }
            } finally {
                tree.close();
            }
        }
        assertTrue(unchanged > 10 && failed > 10, variant + ": the sweep left " + unchanged + " trees unchanged and "
                + failed + " failed: it does not reach both sides of the point of no return");
    }

    /**
     * A write call of several chunks ({@link WriteChunks}; 100 keys a chunk here): a failure at any
     * device call leaves the tree failed, or unchanged (the first chunk's failure, thrown as it
     * came), or with whole chunks done and the exception saying how many keys, up to which key.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"gpu-btree", "hybrid"})
    void aWriteCallThatStopsBetweenChunksSaysHowFarItGot(String structure) {
        ClDevice device = OpenClTesting.handle();
        long[] odd = new long[300];   // keys the tree does not hold, 3 chunks, splits at every level
        for (int i = 0; i < odd.length; i++) {
            odd[i] = 2L * (odd.length - i) - 1;   // given in descending order: the chunks are the sorted keys'
        }
        long[] even = new long[250];  // keys it holds: a removal of 3 chunks that empties pages
        for (int i = 0; i < even.length; i++) {
            even[i] = 2L * i;
        }
        for (boolean put : new boolean[] {true, false}) {
            long[] keys = put ? odd : even;
            long[] sorted = keys.clone();
            java.util.Arrays.sort(sorted);
            Consumer<PagedTree> call = t -> {
                if (put) {
                    t.putAll(keys, keys);
                } else {
                    t.removeAll(keys);
                }
            };
            long calls;
            try (PagedTree counting = build(structure, device)) {
                counting.limitBatches(100);
                counting.failAt(Long.MAX_VALUE, OUT_OF_RESOURCES);
                call.accept(counting);
                calls = Long.MAX_VALUE - counting.cl.faultIn();
                counting.failAt(0, 0);
            }
            int partly = 0;
            PagedTree tree = build(structure, device);
            tree.limitBatches(100);
            try {
                for (long k = 1; k <= calls; k++) {
                    String at = structure + (put ? ", putAll" : ", removeAll") + ", failure at device call " + k + " of " + calls;
                    tree.failAt(k, OUT_OF_RESOURCES);
                    OpenClException thrown = null;
                    try {
                        call.accept(tree);
                    } catch (OpenClException e) {
                        thrown = e;
                    }
                    tree.failAt(0, 0);
                    boolean fresh = true;
                    if (thrown != null && !tree.hasFailed()) {
                        // Whole chunks done: the model with the first `done` sorted keys applied.
                        int done = (int) Math.abs(tree.size() - 400);
                        assertEquals(0, done % 100, at + ": " + done + " keys done, not whole chunks");
                        TreeMap<Long, Long> m = model();
                        for (int i = 0; i < done; i++) {
                            if (put) {
                                m.put(sorted[i], sorted[i]);
                            } else {
                                m.remove(sorted[i]);
                            }
                        }
                        matches(m, tree, at);
                        if (done == 0) {
                            assertTrue(thrown.getCause() == null, at + ": the first chunk's failure is thrown as it came");
                        } else {
                            partly++;
                            String msg = thrown.getMessage();
                            assertTrue(msg.contains(" stopped after " + done + " of its " + sorted.length + " distinct keys")
                                    && msg.contains("below " + sorted[done] + " are ") && msg.contains("injected"), at + ": " + msg);
                            assertEquals(OUT_OF_RESOURCES, thrown.status(), at);
                            assertNotNull(thrown.getCause(), at);
                        }
                        fresh = done > 0;
                    }
                    if (fresh || thrown == null || tree.hasFailed()) {
                        tree.close();
                        tree = build(structure, device);
                        tree.limitBatches(100);
                    }
                }
            } finally {
                tree.close();
            }
            assertTrue(partly >= 2, structure + (put ? " putAll" : " removeAll") + ": only " + partly
                    + " failures fell after the first chunk");
        }
    }

    @Test
    void aFailedCommandGivesNewTreesAFreshContextWhileOthersGoOn() {
        ClDevice device = OpenClTesting.handle();
        try (PagedTree bystander = build("gpu-btree", device); PagedTree victim = build("gpu-btree", device)) {
            assertNull(victim.cl.broken());
            // Failures at the first calls of a put until one is a command on the queue.
            long[] more = new SplittableRandom(4).longs(300, -40_000, 40_000).toArray();
            for (int k = 1; k < 20 && victim.cl.broken() == null; k++) {
                victim.failAt(k, OUT_OF_RESOURCES);
                try {
                    victim.putAll(more, more);
                } catch (OpenClException expected) {
                    // the injected failure
                }
                victim.failAt(0, 0);
            }
            assertNotNull(victim.cl.broken(), "a failed command marks its context");
            try (PagedTree next = build("gpu-btree", device)) {
                assertNull(next.cl.broken(), "a new tree gets a fresh context");
                next.putAll(more, more);
                assertEquals(400 + java.util.Arrays.stream(more).distinct().filter(k -> k % 2 != 0 || k < 0
                        || k >= 800).count(), next.size());
            }
            // The tree built before goes on in its context (the failure was not its own).
            matches(model(), bystander, "the bystander");
        }
    }

    private static void matches(TreeMap<Long, Long> model, NativeLongIndex t, String at) {
        DeviceMemoryTest.assertSame(model, t, at);
        long[] probe = model.keySet().stream().mapToLong(Long::longValue).limit(50).toArray();
        long[] got = new long[probe.length];
        t.getAll(probe, got, Long.MIN_VALUE);
        for (int j = 0; j < probe.length; j++) {
            assertEquals(model.get(probe[j]), got[j], at + ": getAll of " + probe[j]);
        }
    }
}
