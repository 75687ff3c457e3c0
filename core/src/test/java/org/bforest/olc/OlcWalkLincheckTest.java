package org.bforest.olc;

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
 * Lincheck on neighbour queries that cross from one leaf to the next while their answer moves
 * between the two: a tree of two leaves, A {@code 0, 10, .., 110} and B {@code 120, .., 230};
 * {@code ceilingKey(115)} finds nothing in A and walks to B, {@code floorKey(125)} finds nothing in
 * B once 120 is gone and walks to A; the updates put and delete 110, 116 (A), 120 and 124 (B). A
 * walk that read A before an insert of 116 and B after a delete of 120, and did not validate A
 * again at the end, answers 130, which never was the ceiling: few operations, so that model
 * checking meets such a pair of updates inside one walk often.
 */
@Param(name = "key", gen = IntGen.class, conf = "0:3")
public class OlcWalkLincheckTest {
    private static final boolean SOAK = Boolean.getBoolean("bforest.soak");
    private static final long ABSENT = -1;
    private static final long[] MOVED = {110, 116, 120, 124};

    private final LongIndex index;

    public OlcWalkLincheckTest() {
        index = Indexes.concurrentBsTree(start(), null);
    }

    private static long[] start() {
        long[] keys = new long[24];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = 10L * i;
        }
        return keys;
    }

    @Operation
    public boolean put(@Param(name = "key") int k) {
        return index.upsert(MOVED[k], 0);
    }

    @Operation
    public boolean delete(@Param(name = "key") int k) {
        return index.delete(MOVED[k]);
    }

    @Operation
    public long ceiling() {
        return index.ceilingKey(115, ABSENT);
    }

    @Operation
    public long floor() {
        return index.floorKey(125, ABSENT);
    }

    @Test
    void modelChecking() {
        new ModelCheckingOptions()
                .iterations(SOAK ? 500 : 60)
                .invocationsPerIteration(SOAK ? 5_000 : 500)
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(1)
                .sequentialSpecification(Sequential.class)
                .check(OlcWalkLincheckTest.class);
    }

    @Test
    void stress() {
        new StressOptions()
                .iterations(SOAK ? 500 : 6)
                .invocationsPerIteration(SOAK ? 10_000 : 500)
                .threads(2)
                .actorsPerThread(4)
                .actorsBefore(1)
                .sequentialSpecification(Sequential.class)
                .check(OlcWalkLincheckTest.class);
    }

    /** The sequential specification: the same operations on a {@code TreeMap}. */
    public static class Sequential {
        private final TreeMap<Long, Long> map = new TreeMap<>();

        public Sequential() {
            for (long k : start()) {
                map.put(k, 0L);
            }
        }

        public boolean put(int k) {
            return map.put(MOVED[k], 0L) == null;
        }

        public boolean delete(int k) {
            return map.remove(MOVED[k]) != null;
        }

        public long ceiling() {
            Long k = map.ceilingKey(115L);
            return k == null ? ABSENT : k;
        }

        public long floor() {
            Long k = map.floorKey(125L);
            return k == null ? ABSENT : k;
        }
    }
}
