package org.bforest.olc;

import java.util.Map;
import java.util.TreeMap;
import org.bforest.Indexes;
import org.bforest.LongIndex;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * Lincheck on the concurrent BS-tree where removes empty leaves: the exact and conditional updates
 * ({@code put}/{@code remove} with the previous value, {@code putIfAbsent}, {@code replace}, the
 * value-conditional {@code replace} and {@code remove}), {@code get}, {@code firstKey} and the
 * neighbours, checked for linearizability against a {@code TreeMap}, by model checking and by
 * stress (see {@link OlcLincheckTest} for what each mode catches).
 *
 * <p>Every scenario starts from a tree whose first three leaves hold one or two keys each:
 * {@code {4}}, {@code {12, 20}}, {@code {28}} (ranges {@code [MIN, 12)}, {@code [12, 24)},
 * {@code [24, 36)}), then a leaf {@code [36, 47]} that no operation touches, so the root keeps
 * children. The operations' keys are the multiples of 4 in {@code [0, 28]}: a remove empties a leaf
 * (the first one, whose range goes to the leaf after it; another, whose range goes to the leaf
 * before it), two removes empty neighbours, an insert refills a range whose leaf is gone, and the
 * neighbour queries cross leaves while that happens. Values are 0 to 2, so that the conditional
 * updates' expected values match often.
 */
@Param(name = "key", gen = IntGen.class, conf = "0:7")
@Param(name = "value", gen = IntGen.class, conf = "0:2")
public class OlcReclaimLincheckTest {
    private static final boolean SOAK = Boolean.getBoolean("bforest.soak");
    private static final long ABSENT = -1;
    /** The keys the scenarios start with, each with value 0. */
    private static final long[] START = {4, 12, 20, 28, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47};

    private final LongIndex index;

    public OlcReclaimLincheckTest() {
        // Bulk-loaded 0..47, twelve keys a leaf, then thinned to START: no leaf is emptied here.
        long[] all = new long[48];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        index = Indexes.concurrentBsTree(all, null);
        for (long k = 0; k < 36; k++) {
            if (java.util.Arrays.binarySearch(START, k) < 0) {
                index.remove(k);
            }
        }
    }

    private static long key(int k) {
        return 4L * k;
    }

    /** The answer of an exact update: the value it handed out, or ABSENT. */
    private static long found(boolean there, long[] out) {
        return there ? out[0] : ABSENT;
    }

    @Operation
    public long get(@Param(name = "key") int k) {
        long[] out = new long[1];
        return found(index.get(key(k), out), out);
    }

    @Operation
    public long put(@Param(name = "key") int k, @Param(name = "value") int v) {
        long[] out = new long[1];
        return found(index.put(key(k), v, out), out);
    }

    @Operation
    public long remove(@Param(name = "key") int k) {
        long[] out = new long[1];
        return found(index.remove(key(k), out), out);
    }

    @Operation
    public long putIfAbsent(@Param(name = "key") int k, @Param(name = "value") int v) {
        long[] out = new long[1];
        return found(index.putIfAbsent(key(k), v, out), out);
    }

    @Operation
    public long replace(@Param(name = "key") int k, @Param(name = "value") int v) {
        long[] out = new long[1];
        return found(index.replace(key(k), v, out), out);
    }

    @Operation
    public boolean replaceIf(@Param(name = "key") int k, @Param(name = "value") int expected,
            @Param(name = "value") int v) {
        return index.replace(key(k), expected, v);
    }

    @Operation
    public boolean removeIf(@Param(name = "key") int k, @Param(name = "value") int expected) {
        return index.remove(key(k), expected);
    }

    @Operation
    public long firstKey() {
        return index.firstKey();
    }

    @Operation
    public long ceiling(@Param(name = "key") int k) {
        return index.ceilingKey(key(k) + 1, ABSENT);
    }

    @Operation
    public long floor(@Param(name = "key") int k) {
        return index.floorKey(key(k) - 1, ABSENT);
    }

    @Test
    void modelChecking() {
        new ModelCheckingOptions()
                .iterations(SOAK ? 300 : 30)
                .invocationsPerIteration(SOAK ? 5_000 : 500)
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(3)
                .sequentialSpecification(Sequential.class)
                .check(OlcReclaimLincheckTest.class);
    }

    @Test
    void stress() {
        new StressOptions()
                .iterations(SOAK ? 500 : 40)
                .invocationsPerIteration(SOAK ? 10_000 : 1_000)
                .threads(3)
                .actorsPerThread(4)
                .actorsBefore(3)
                .sequentialSpecification(Sequential.class)
                .check(OlcReclaimLincheckTest.class);
    }

    /** The sequential specification: the same operations on a {@code TreeMap}. */
    public static class Sequential {
        private final TreeMap<Long, Long> map = new TreeMap<>();

        public Sequential() {
            for (long k : START) {
                map.put(k, 0L);
            }
        }

        private static long or(Long v) {
            return v == null ? ABSENT : v;
        }

        public long get(int k) {
            return or(map.get(key(k)));
        }

        public long put(int k, int v) {
            return or(map.put(key(k), (long) v));
        }

        public long remove(int k) {
            return or(map.remove(key(k)));
        }

        public long putIfAbsent(int k, int v) {
            return or(map.putIfAbsent(key(k), (long) v));
        }

        public long replace(int k, int v) {
            return or(map.replace(key(k), (long) v));
        }

        public boolean replaceIf(int k, int expected, int v) {
            return map.replace(key(k), (long) expected, (long) v);
        }

        public boolean removeIf(int k, int expected) {
            return map.remove(key(k), (long) expected);
        }

        public long firstKey() {
            return map.firstKey();
        }

        public long ceiling(int k) {
            Map.Entry<Long, Long> e = map.ceilingEntry(key(k) + 1);
            return e == null ? ABSENT : e.getKey();
        }

        public long floor(int k) {
            Map.Entry<Long, Long> e = map.floorEntry(key(k) - 1);
            return e == null ? ABSENT : e.getKey();
        }
    }
}
