package org.bforest.opencl.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.LongBinaryOperator;
import org.bforest.contract.IndexAssertions;
import org.bforest.opencl.DeviceFunction;
import org.bforest.opencl.DeviceIndex;
import org.bforest.opencl.OpenClException;
import org.bforest.opencl.OpenClTesting;
import org.bforest.opencl.cl.ClContext;
import org.bforest.opencl.cl.ClDevice;
import org.bforest.opencl.gpubtree.GpuBTrees;
import org.bforest.opencl.hybrid.HybridTrees;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The device passes over every entry ({@link DeviceIndex}: sumValues, mapReduce, countIf,
 * transformValues) of both paged trees against TreeMap, on PoCL here: the empty tree, one key, the
 * extreme keys (Long.MAX_VALUE's entry is the host's), many pages and passes of many launches,
 * pages emptied by deletes, a function that does not compile, a closed tree.
 */
class DeviceVisitTest {
    private static final long ABSENT = 0x7eadbeefL;
    /** A function of both key and value, wrapping, with its parameters: the Java twin below. */
    private static final String MIX = "return (long) ((ulong) key * (ulong) p0 + (ulong) value * 3ul + (ulong) p1);";

    private static DeviceFunction mix(long p0, long p1) {
        return DeviceFunction.of(MIX, p0, p1, (k, v) -> k * p0 + v * 3 + p1);
    }

    private static DeviceIndex tree(String structure, ClDevice device, int pageKeys, long[] keys, long[] values) {
        return structure.equals("hybrid") ? HybridTrees.create(device, pageKeys, keys, values)
                : GpuBTrees.create(device, pageKeys, keys, values);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"gpu-btree", "hybrid"})
    void emptyOneKeyAndTheExtremes(String structure) {
        ClDevice device = OpenClTesting.handle();
        try (DeviceIndex t = tree(structure, device, 4, new long[0], null)) {
            assertEquals(0, t.sumValues());
            assertEquals(0, t.countIf(DeviceFunction.ONE));
            assertEquals(0, t.mapReduce(DeviceFunction.KEY));
            t.transformValues(DeviceFunction.affine(2, 1));   // nothing to do
            assertEquals(0, t.size());

            t.put(42, 7);
            assertEquals(7, t.sumValues());
            assertEquals(42, t.mapReduce(DeviceFunction.KEY));
            assertEquals(1, t.countIf(DeviceFunction.ONE));
            assertEquals(1, t.countIf(DeviceFunction.keyBetween(42, 43)));
            assertEquals(0, t.countIf(DeviceFunction.keyBetween(43, 100)));
            t.transformValues(DeviceFunction.affine(3, 1));
            assertEquals(22, t.get(42, ABSENT));

            // Long.MAX_VALUE alone: the host's entry, no page holds it.
            t.remove(42);
            t.put(Long.MAX_VALUE, 5);
            assertEquals(5, t.sumValues());
            assertEquals(1, t.countIf(DeviceFunction.ONE));
            assertEquals(0, t.countIf(DeviceFunction.keyBetween(0, Long.MAX_VALUE)));   // half-open
            t.transformValues(DeviceFunction.affine(-1, 0));
            assertEquals(-5, t.get(Long.MAX_VALUE, ABSENT));

            // Both extremes and a few between; sums that wrap.
            t.putAll(new long[] {Long.MIN_VALUE, -1, 0, 1}, new long[] {Long.MAX_VALUE, Long.MAX_VALUE, 1, 2});
            TreeMap<Long, Long> model = new TreeMap<>(Map.of(Long.MAX_VALUE, -5L, Long.MIN_VALUE, Long.MAX_VALUE,
                    -1L, Long.MAX_VALUE, 0L, 1L, 1L, 2L));
            check(t, model, "extremes of " + structure);
            assertEquals(1, t.countIf(DeviceFunction.keyBetween(Long.MIN_VALUE, -1)));
            assertEquals(4, t.countIf(DeviceFunction.keyBetween(Long.MIN_VALUE, Long.MAX_VALUE)));
            assertEquals(0, t.countIf(DeviceFunction.valueBetween(Long.MAX_VALUE, Long.MAX_VALUE)));   // an empty range
            transform(t, model, mix(Long.MIN_VALUE + 3, -9));
            check(t, model, "extremes of " + structure + ", transformed");
            IndexAssertions.checkInvariants(t);
        }
    }

    /**
     * Random trees and batches on pages of several sizes, passes of one page a launch among them;
     * after each round every pass against the model, and sometimes a transform, after which
     * look-ups and forEach must agree with the model.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"gpu-btree", "hybrid"})
    void randomTreesMatchTreeMap(String structure) {
        ClDevice device = OpenClTesting.handle();
        long seed = Long.getLong("bforest.seed", System.nanoTime());
        System.out.println("DeviceVisitTest " + structure + ": seed " + seed + " (rerun with -Dbforest.seed=" + seed + ")");
        SplittableRandom r = new SplittableRandom(seed);
        for (int pageKeys : new int[] {2, 7, 64, 512, 2048}) {
            TreeMap<Long, Long> model = new TreeMap<>();
            int n = pageKeys <= 7 ? 300 : 20_000;
            long span = 4L * n;
            while (model.size() < n) {
                long k = switch (r.nextInt(20)) {
                    case 0 -> Long.MIN_VALUE + r.nextInt(3);
                    case 1 -> Long.MAX_VALUE - r.nextInt(3);
                    default -> r.nextLong(span) - span / 2;
                };
                model.put(k, r.nextLong());
            }
            long[] keys = model.keySet().stream().mapToLong(Long::longValue).toArray();
            long[] values = model.values().stream().mapToLong(Long::longValue).toArray();
            try (DeviceIndex t = tree(structure, device, pageKeys, keys, values)) {
                if (pageKeys == 64) {
                    ((PagedTree) t).limitLaunches(64);   // one page a device launch: a pass of hundreds of launches
                }
                for (int round = 0; round < 6; round++) {
                    String at = structure + ", seed " + seed + ", page keys " + pageKeys + ", round " + round;
                    switch (round % 3) {
                        case 0 -> {
                            // A run of keys removed: whole pages empty and leave the chain.
                            long from = r.nextLong(span) - span / 2;
                            List<Long> gone = new ArrayList<>(model.subMap(from, from + span / 4).keySet());
                            long[] batch = gone.stream().mapToLong(Long::longValue).toArray();
                            assertEquals(batch.length, t.removeAll(batch), at);
                            gone.forEach(model::remove);
                        }
                        case 1 -> {
                            int m = 1 + r.nextInt(n / 2);
                            long[] k = new long[m];
                            long[] v = new long[m];
                            for (int i = 0; i < m; i++) {
                                k[i] = r.nextInt(50) == 0 ? Long.MAX_VALUE : r.nextLong(span) - span / 2;
                                v[i] = r.nextLong();
                                model.put(k[i], v[i]);
                            }
                            t.putAll(k, v);
                        }
                        default -> {
                            if (r.nextBoolean()) {
                                t.remove(Long.MAX_VALUE);
                                model.remove(Long.MAX_VALUE);
                            }
                        }
                    }
                    check(t, model, at);
                    long a = r.nextLong(span) - span / 2;
                    long b = a + r.nextLong(span / 2);
                    assertEquals(model.subMap(a, b).size(), t.countIf(DeviceFunction.keyBetween(a, b)), at + ": keys in ["
                            + a + ", " + b + ")");
                    long c = r.nextLong();
                    long d = c + r.nextLong(Long.MAX_VALUE / 4);
                    assertEquals(model.values().stream().filter(v -> v >= c && v < d).count(),
                            t.countIf(DeviceFunction.valueBetween(c, d)), at + ": values in [" + c + ", " + d + ")");
                    long p0 = r.nextLong();
                    long p1 = r.nextLong();
                    assertEquals(hostSum(model, mix(p0, p1)), t.mapReduce(mix(p0, p1)), at + ": mapReduce(mix)");
                    if (r.nextBoolean()) {
                        transform(t, model, r.nextBoolean() ? DeviceFunction.affine(r.nextLong(), r.nextLong()) : mix(p0, p1));
                        check(t, model, at + ", transformed");
                        lookUps(t, model, at + ", transformed");
                    }
                }
                IndexAssertions.checkInvariants(t);
            }
        }
    }

    /**
     * A body that does not compile: the compiler's log in the message (its lines counted from
     * the body's), the tree unchanged and usable; null and blank bodies; a host function that
     * throws changes nothing; a closed tree refuses every pass.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"gpu-btree", "hybrid"})
    void badInputIsRefusedAndTheTreeStaysAsItWas(String structure) {
        ClDevice device = OpenClTesting.handle();
        long[] keys = new long[500];
        long[] values = new long[500];
        TreeMap<Long, Long> model = new TreeMap<>();
        for (int i = 0; i < keys.length; i++) {
            keys[i] = 3L * i - 700;
            values[i] = i * 11L;
            model.put(keys[i], values[i]);
        }
        keys[keys.length - 1] = Long.MAX_VALUE;
        model.remove(3L * (keys.length - 1) - 700);
        model.put(Long.MAX_VALUE, values[keys.length - 1]);
        DeviceIndex t = tree(structure, device, 16, keys, values);
        try {
            DeviceFunction broken = DeviceFunction.of("long x = value +;\nreturn x;", (k, v) -> v);
            for (Runnable call : new Runnable[] {() -> t.mapReduce(broken), () -> t.countIf(broken),
                    () -> t.transformValues(broken)}) {
                OpenClException e = assertThrows(OpenClException.class, call::run);
                assertTrue(e.getMessage().contains("compiler's log") && e.getMessage().contains("bforest_map:1"),
                        e.getMessage());
                check(t, model, structure + " after a body that does not compile");
            }
            assertThrows(NullPointerException.class, () -> t.mapReduce(null));
            assertThrows(NullPointerException.class, () -> t.countIf(null));
            assertThrows(NullPointerException.class, () -> t.transformValues(null));
            assertThrows(NullPointerException.class, () -> DeviceFunction.of(null, (k, v) -> v));
            assertThrows(NullPointerException.class, () -> DeviceFunction.of("return value;", null));
            assertThrows(IllegalArgumentException.class, () -> DeviceFunction.of(" \n", (k, v) -> v));
            LongBinaryOperator fails = (k, v) -> {
                throw new ArithmeticException("the host's twin fails");
            };
            assertThrows(ArithmeticException.class, () -> t.transformValues(DeviceFunction.of("return 0;", fails)));
            check(t, model, structure + " after a host function that throws");
            t.put(1, 1);
            model.put(1L, 1L);
            check(t, model, structure + " used afterwards");
        } finally {
            t.close();
        }
        assertThrows(IllegalStateException.class, t::sumValues);
        assertThrows(IllegalStateException.class, () -> t.mapReduce(DeviceFunction.KEY));
        assertThrows(IllegalStateException.class, () -> t.countIf(DeviceFunction.ONE));
        assertThrows(IllegalStateException.class, () -> t.transformValues(DeviceFunction.VALUE));
    }

    /** One program a body, built once: repeated passes and other parameters build nothing more. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"gpu-btree", "hybrid"})
    void aBodyIsCompiledOnce(String structure) {
        ClDevice device = OpenClTesting.handle();
        ClContext ctx = ClContext.shared(device);
        try (DeviceIndex t = tree(structure, device, 8, new long[] {1, 2, 3}, new long[] {4, 5, 6})) {
            assertEquals(2, t.countIf(DeviceFunction.keyBetween(1, 3)));
            assertEquals(15, t.sumValues());
            int programs = ctx.cachedPrograms();
            for (int i = 0; i < 20; i++) {
                assertEquals(i < 3 ? 1 : 0, t.countIf(DeviceFunction.keyBetween(i + 1, i + 2)));
                assertEquals(15, t.sumValues());
            }
            assertEquals(programs, ctx.cachedPrograms(), "programs built again");
            // More bodies than a tree keeps kernels for (each new to this JVM), then the first again.
            for (int i = 0; i < 12; i++) {
                long c = i;
                String body = "return " + i + "; /* " + structure + " */";
                assertEquals(3 * c, t.mapReduce(DeviceFunction.of(body, (k, v) -> c)));
            }
            assertEquals(2, t.countIf(DeviceFunction.keyBetween(2, 4)));
            assertEquals(3, t.mapReduce(DeviceFunction.of("return 1; /* " + structure + " */", (k, v) -> 1)));
            assertEquals(programs + 12, ctx.cachedPrograms());
        }
    }

    private static void transform(DeviceIndex t, TreeMap<Long, Long> model, DeviceFunction f) {
        t.transformValues(f);
        model.replaceAll((k, v) -> f.applyAsLong(k, v));
    }

    private static long hostSum(TreeMap<Long, Long> model, DeviceFunction f) {
        long s = 0;
        for (Map.Entry<Long, Long> e : model.entrySet()) {
            s += f.applyAsLong(e.getKey(), e.getValue());
        }
        return s;
    }

    /** Every pass against the model, and forEach. */
    private static void check(DeviceIndex t, TreeMap<Long, Long> model, String at) {
        assertEquals(model.size(), t.size(), at + ": size");
        assertEquals(hostSum(model, DeviceFunction.VALUE), t.sumValues(), at + ": sumValues");
        assertEquals(hostSum(model, DeviceFunction.KEY), t.mapReduce(DeviceFunction.KEY), at + ": mapReduce(KEY)");
        assertEquals(model.size(), t.countIf(DeviceFunction.ONE), at + ": countIf(ONE)");
        DeviceMemoryTest.assertSame(model, t, at);   // forEach against the model, and the invariants
    }

    private static void lookUps(DeviceIndex t, TreeMap<Long, Long> model, String at) {
        long[] keys = model.keySet().stream().mapToLong(Long::longValue).toArray();
        long[] got = new long[keys.length];
        t.getAll(keys, got, ABSENT);
        int i = 0;
        for (long v : model.values()) {
            assertEquals(v, got[i], at + ": getAll of " + keys[i]);
            i++;
        }
        if (!model.isEmpty()) {
            assertEquals(model.lastEntry().getValue(), t.get(model.lastKey(), ABSENT), at + ": get of the last key");
        }
    }
}
