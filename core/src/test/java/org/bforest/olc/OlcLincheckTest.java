package org.bforest.olc;

import java.util.TreeMap;
import org.bforest.Indexes;
import org.bforest.LongIndex;
import org.jetbrains.kotlinx.lincheck.paramgen.LongGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * Lincheck on the concurrent BS-tree: concurrent scenarios of put, get, remove, putIfAbsent, the
 * value-conditional replace, ceiling, floor and rangeCount, checked for linearizability against a
 * {@code TreeMap} run sequentially, in both of Lincheck's modes. Model checking explores the thread
 * interleavings of small scenarios under sequential consistency (it would pass a reader that skips
 * validation); stress runs them on real threads, where the Java memory model applies.
 *
 * <p>Every scenario starts from a tree bulk-loaded with the even keys 0..88 (four leaves of about
 * 11 keys under an inner root); the operations' keys lie in [0, 24], so inserts of odd keys fill
 * the first leaves and split them while other threads read. {@code rangeCount} stays inside one
 * or two leaves, as the structure promises linearizable ranges only per leaf.
 * {@code -Dbforest.soak=true} runs 15 (model checking) and about 17 (stress) times the iterations,
 * each with ten times the invocations: the stress soak took 9 minutes on 2 vCPUs (2026-11-25),
 * model checking over half an hour. {@link OlcReclaimLincheckTest} starts from leaves of one or two
 * keys, so that its removes empty them.
 */
@Param(name = "key", gen = LongGen.class, conf = "0:24")
public class OlcLincheckTest {
    private static final boolean SOAK = Boolean.getBoolean("bforest.soak");
    private static final long ABSENT = -1;
    private static final long[] START = new long[45];

    static {
        for (int i = 0; i < START.length; i++) {
            START[i] = 2L * i;
        }
    }

    private final LongIndex index = Indexes.concurrentBsTree(START, START);

    @Operation
    public long put(@Param(name = "key") long key, @Param(name = "key") long value) {
        return index.put(key, value);
    }

    @Operation
    public long get(@Param(name = "key") long key) {
        return index.get(key, ABSENT);
    }

    /** The batched look-up of one key: its routed, validated leaf read must be as linearizable as get. */
    @Operation
    public long getAllOne(@Param(name = "key") long key) {
        long[] out = new long[1];
        index.getAll(new long[] {key}, out, ABSENT);
        return out[0];
    }

    @Operation
    public long remove(@Param(name = "key") long key) {
        return index.remove(key);
    }

    /** An insert that may split (the coupled insert's conditional mode); the present value, or ABSENT. */
    @Operation
    public long putIfAbsent(@Param(name = "key") long key, @Param(name = "key") long value) {
        long[] out = new long[1];
        return index.putIfAbsent(key, value, out) ? out[0] : ABSENT;
    }

    @Operation
    public boolean replaceIf(@Param(name = "key") long key, @Param(name = "key") long expected,
            @Param(name = "key") long value) {
        return index.replace(key, expected, value);
    }

    @Operation
    public long ceiling(@Param(name = "key") long key) {
        return index.ceilingKey(key, ABSENT);
    }

    @Operation
    public long floor(@Param(name = "key") long key) {
        return index.floorKey(key, ABSENT);
    }

    @Operation
    public long rangeCount(@Param(name = "key") long from, @Param(name = "key") long to) {
        return index.rangeCount(from, true, to, true);
    }

    @Test
    void modelChecking() {
        new ModelCheckingOptions()
                .iterations(SOAK ? 300 : 20)
                .invocationsPerIteration(SOAK ? 5_000 : 500)
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(3)
                .sequentialSpecification(Sequential.class)
                .check(OlcLincheckTest.class);
    }

    @Test
    void stress() {
        new StressOptions()
                .iterations(SOAK ? 500 : 30)
                .invocationsPerIteration(SOAK ? 10_000 : 1_000)
                .threads(3)
                .actorsPerThread(4)
                .actorsBefore(3)
                .sequentialSpecification(Sequential.class)
                .check(OlcLincheckTest.class);
    }

    /** The sequential specification: the same operations on a {@code TreeMap}. */
    public static class Sequential {
        private final TreeMap<Long, Long> map = new TreeMap<>();

        public Sequential() {
            for (long k : START) {
                map.put(k, k);
            }
        }

        public long put(long key, long value) {
            Long before = map.put(key, value);
            return before == null ? 0 : before;
        }

        public long get(long key) {
            return map.getOrDefault(key, ABSENT);
        }

        public long getAllOne(long key) {
            return get(key);
        }

        public long remove(long key) {
            Long before = map.remove(key);
            return before == null ? 0 : before;
        }

        public long putIfAbsent(long key, long value) {
            Long had = map.putIfAbsent(key, value);
            return had == null ? ABSENT : had;
        }

        public boolean replaceIf(long key, long expected, long value) {
            return map.replace(key, expected, value);
        }

        public long ceiling(long key) {
            Long k = map.ceilingKey(key);
            return k == null ? ABSENT : k;
        }

        public long floor(long key) {
            Long k = map.floorKey(key);
            return k == null ? ABSENT : k;
        }

        public long rangeCount(long from, long to) {
            return from > to ? 0 : map.subMap(from, true, to, true).size();
        }
    }
}
