package org.bforest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.BiFunction;
import org.bforest.contract.IndexAssertions;
import org.bforest.contract.TestKeys;
import org.junit.jupiter.api.function.Executable;

/**
 * What every builder test checks of what a builder built: its content after the bulk load and
 * after inserts and removes, and how a bad setting is refused. Shared by the {@code *BuilderTest}s.
 */
final class BuiltContent {
    private BuiltContent() {
    }

    /**
     * Bulk-loads {@code n} keys through {@code build}, checks the content against a TreeMap, then
     * puts and removes keys and checks again; returns the index.
     */
    static LongIndex assertBuildsAWorkingIndex(BiFunction<long[], long[], LongIndex> build, int n, String what) {
        long[] keys = TestKeys.mixed(n, 7);
        long[] values = new long[keys.length];
        TreeMap<Long, Long> model = new TreeMap<>();
        for (int i = 0; i < keys.length; i++) {
            values[i] = keys[i] * 31 + 1;
            model.put(keys[i], values[i]);
        }
        LongIndex index = build.apply(keys, values);
        IndexAssertions.assertMatches(index, model, what + ", bulk-loaded");
        SplittableRandom r = new SplittableRandom(8);
        for (int i = 0; i < n; i++) {
            long k = r.nextLong(-1_000_000, 1_000_000);
            if (r.nextInt(3) == 0) {
                assertEquals(model.containsKey(k), index.delete(k), what + ": delete(" + k + ")");
                model.remove(k);
            } else {
                index.put(k, i);
                model.put(k, (long) i);
            }
        }
        IndexAssertions.assertMatches(index, model, what + ", after puts and removes");
        return index;
    }

    /** An empty index from {@code build}: empty, then it takes keys. */
    static LongIndex assertBuildsAnEmptyIndex(LongIndex index, String what) {
        IndexAssertions.assertEmpty(index, what);
        TreeMap<Long, Long> model = new TreeMap<>();
        for (long k = -3_000; k < 3_000; k += 3) {
            index.put(k, -k);
            model.put(k, -k);
        }
        IndexAssertions.assertMatches(index, model, what + ", after puts");
        return index;
    }

    /** {@code setter} throws IllegalArgumentException whose message contains every one of {@code words}. */
    static void assertRefused(Executable setter, String... words) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, setter);
        for (String w : words) {
            assertTrue(e.getMessage().contains(w), "the message \"" + e.getMessage() + "\" says " + w);
        }
    }
}
