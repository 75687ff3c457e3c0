package org.bforest.util;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.SplittableRandom;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/** The batch order: a stable permutation whose keys ascend in every bit it claims to sort. */
class BatchOrderTest {
    private static final long SEED = 0x5eed_0bad_cafeL;
    /**
     * Kept from check to check, as a structure keeps them from batch to batch: every sort into
     * them finds the last one's keys there (and grows them, or, over 80,000 keys, uses its own).
     */
    private static final BatchOrder.Buffers BUFFERS = new BatchOrder.Buffers(80_000);

    /** Checks everything {@link BatchOrder} promises about {@code batch}. */
    private static void check(long[] batch, String what) {
        check(batch, BatchOrder.of(batch), what);
        BatchOrder exact = BatchOrder.ascending(batch);
        assertEquals(0, exact.sortedFromBit, what + ": ascending() sorts every bit");
        check(batch, exact, what + ", ascending()");
        // In parts: run backwards on one thread (no part may rely on another's order), and on
        // the common pool's threads; the same keys and positions as the one-thread sort.
        BatchOrder.Parts backwards = (parts, part) -> {
            for (int i = parts - 1; i >= 0; i--) {
                part.accept(i);
            }
        };
        BatchOrder.Parts pool = (parts, part) -> java.util.stream.IntStream.range(0, parts).parallel().forEach(part);
        for (BatchOrder o : new BatchOrder[] {BatchOrder.ascending(batch, 3, backwards),
                BatchOrder.ascending(batch, 7, pool), BatchOrder.ascending(batch, 1, pool)}) {
            assertEquals(0, o.sortedFromBit, what + ": ascending() in parts sorts every bit");
            check(batch, o, what + ", ascending() in parts");
            assertArrayEquals(exact.keys, o.keys, what + ": in parts, other keys");
            assertArrayEquals(exact.from, o.from, what + ": in parts, other positions");
        }
        for (int parts : new int[] {1, 3}) {
            BatchOrder o = BatchOrder.ascending(batch, parts, backwards, BUFFERS);
            int n = batch.length;
            assertEquals(0, o.sortedFromBit, what + ": ascending() into buffers sorts every bit");
            check(batch, o, what + ", ascending() into buffers, " + parts + " parts");
            assertArrayEquals(exact.keys, java.util.Arrays.copyOf(o.keys, n), what + ": into buffers, other keys");
            assertArrayEquals(exact.from, java.util.Arrays.copyOf(o.from, n), what + ": into buffers, other positions");
        }
    }

    @Test
    void buffersAreKeptUpToTheirSize() {
        SplittableRandom r = new SplittableRandom(SEED + 2);
        BatchOrder.Parts one = (parts, part) -> {
            for (int i = 0; i < parts; i++) {
                part.accept(i);
            }
        };
        BatchOrder.Buffers b = new BatchOrder.Buffers(100_000);
        assertEquals(0, b.bytes());
        BatchOrder.ascending(batch(70_000, r::nextLong), 2, one, b);
        assertEquals(24L * 70_000, b.bytes(), "arrays for the batch");
        // A smaller batch: the same arrays; one key more: grown by half (here to the size kept).
        BatchOrder small = BatchOrder.ascending(batch(50, r::nextLong), 2, one, b);
        assertEquals(50, small.size());
        assertEquals(70_000, small.keys.length);
        BatchOrder.ascending(batch(70_001, r::nextLong), 2, one, b);
        long kept = b.bytes();
        assertEquals(24L * 100_000, kept);
        BatchOrder again = BatchOrder.ascending(batch(90_000, r::nextLong), 2, one, b);
        assertEquals(100_000, again.keys.length, "the kept arrays, not its own");
        assertEquals(kept, b.bytes());
        // Over the size kept: arrays of its own, exactly its size; the kept ones stay.
        BatchOrder big = BatchOrder.ascending(batch(100_001, r::nextLong), 2, one, b);
        assertEquals(100_001, big.keys.length);
        assertEquals(kept, b.bytes());
        b.release();
        assertEquals(0, b.bytes());
        assertThrows(IllegalArgumentException.class, () -> new BatchOrder.Buffers(-1));
    }

    /** Checks that {@code o}, a sort of {@code batch}, keeps every promise of {@link BatchOrder}. */
    private static void check(long[] batch, BatchOrder o, String what) {
        long[] copy = batch.clone();
        assertEquals(copy.length, o.size(), what);
        for (int i = 0; i < batch.length; i++) {
            assertEquals(copy[i], batch[i], what + ": the batch was changed");
        }
        boolean[] seen = new boolean[batch.length];
        int bit = o.sortedFromBit;
        assertTrue(bit >= 0 && bit < 64, what + ": sortedFromBit " + bit);
        for (int i = 0; i < o.size(); i++) {
            int f = o.from[i];
            if (seen[f]) {
                fail(what + ": position " + f + " twice");
            }
            seen[f] = true;
            assertEquals(batch[f], o.keys[i], what + ": keys[" + i + "] is not batch[from[" + i + "]]");
            if (i > 0) {
                long a = (o.keys[i - 1] ^ Long.MIN_VALUE) >>> bit;
                long b = (o.keys[i] ^ Long.MIN_VALUE) >>> bit;
                if (Long.compareUnsigned(a, b) > 0) {
                    fail(what + ": keys[" + (i - 1) + "] = " + o.keys[i - 1] + " before keys[" + i + "] = " + o.keys[i]
                            + " in the bits from " + bit);
                }
                if (o.keys[i - 1] == o.keys[i] && o.from[i - 1] > o.from[i]) {
                    fail(what + ": equal keys out of their batch order at " + i + " (not stable)");
                }
            }
        }
    }

    private static long[] batch(int n, LongSupplier key) {
        long[] b = new long[n];
        for (int i = 0; i < n; i++) {
            b[i] = key.getAsLong();
        }
        return b;
    }

    @Test
    void everySizeAndDistribution() {
        SplittableRandom r = new SplittableRandom(SEED);
        for (int n : new int[] {0, 1, 2, 3, 17, 255, 256, 257, 4096, 70_000, 1 << 20}) {
            check(batch(n, r::nextLong), "uniform n=" + n);
            check(batch(n, () -> r.nextLong(-1000, 1000)), "narrow n=" + n);
            check(batch(n, () -> r.nextInt(8)), "few distinct n=" + n);
            long[] edges = {Long.MIN_VALUE, Long.MAX_VALUE, -1, 0, 1, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1};
            check(batch(n, () -> edges[r.nextInt(edges.length)]), "edges n=" + n);
            check(batch(n, () -> r.nextLong() >>> r.nextInt(64)), "skewed n=" + n);
            // Runs that agree in the leading bits the partial order sorts, of about 2, 40 and
            // 1000 keys, which ascending() finishes by insertion or by radix passes.
            for (int run : new int[] {2, 40, 1000}) {
                long[] bases = batch(Math.max(1, n / run), r::nextLong);
                check(batch(n, () -> (bases[r.nextInt(bases.length)] & -(1L << 24)) | r.nextInt(1 << 24)),
                        "runs of " + run + " n=" + n);
                check(batch(n, () -> (bases[r.nextInt(bases.length)] & -(1L << 24)) | r.nextInt(4)),
                        "runs of " + run + " with repeats n=" + n);
            }
            long[] asc = batch(n, r::nextLong);
            java.util.Arrays.sort(asc);
            check(asc, "ascending n=" + n);
            long[] desc = new long[n];
            for (int i = 0; i < n; i++) {
                desc[i] = asc[n - 1 - i];
            }
            check(desc, "descending n=" + n);
        }
    }

    @Test
    void smallBatchesAreExact() {
        SplittableRandom r = new SplittableRandom(SEED + 1);
        // A batch from a range narrower than its bits-plus-8 is sorted exactly.
        BatchOrder o = BatchOrder.of(batch(5000, () -> r.nextLong(0, 1 << 20)));
        assertEquals(0, o.sortedFromBit);
        for (int i = 1; i < o.size(); i++) {
            assertTrue(o.keys[i - 1] <= o.keys[i]);
        }
        // A uniform one sorts its leading bits only: about 8 below what separates its keys.
        BatchOrder u = BatchOrder.of(batch(1 << 20, r::nextLong));
        assertTrue(u.sortedFromBit > 0 && u.sortedFromBit <= 64 - 29, "sorted from bit " + u.sortedFromBit);
    }

    @Test
    void partsBelowOneAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BatchOrder.ascending(new long[] {3, 1}, 0, (parts, part) -> { }));
        assertTrue(e.getMessage().contains("parts must be at least 1"), e.getMessage());
    }
}
