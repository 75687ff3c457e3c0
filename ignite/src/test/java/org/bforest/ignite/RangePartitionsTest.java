package org.bforest.ignite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.apache.ignite.cache.affinity.AffinityFunction;
import org.junit.jupiter.api.Test;

/**
 * The partitions' arithmetic against its definition: edges ({@link Long#MIN_VALUE},
 * {@link Long#MAX_VALUE}, one partition, Ignite's 65000), every split point, random keys against
 * a linear scan, ranges with every kind of bound, bad input and serialization.
 */
class RangePartitionsTest {
    private static final long MIN = Long.MIN_VALUE;
    private static final long MAX = Long.MAX_VALUE;

    /** The definition: the partition is the number of split points at or below the key. */
    private static int linear(long[] splits, long key) {
        int p = 0;
        while (p < splits.length && splits[p] <= key) {
            p++;
        }
        return p;
    }

    /** Every partition's bounds meet the next one's, cover the whole range, and map back. */
    private static void checkTiling(RangePartitions r) {
        int n = r.partitions();
        assertEquals(MIN, r.lowest(0));
        assertEquals(MAX, r.highest(n - 1));
        for (int p = 0; p < n; p++) {
            assertTrue(r.lowest(p) <= r.highest(p), "partition " + p + " is empty");
            assertEquals(p, r.partition(r.lowest(p)));
            assertEquals(p, r.partition(r.highest(p)));
            if (p > 0) {
                assertEquals(r.highest(p - 1) + 1, r.lowest(p));
            }
        }
    }

    @Test
    void onePartitionHoldsEverything() {
        RangePartitions r = RangePartitions.even(1);
        assertEquals(1, r.partitions());
        assertArrayEquals(new long[0], r.splits());
        for (long k : new long[] {MIN, -1, 0, 1, MAX}) {
            assertEquals(0, r.partition(k));
        }
        assertEquals(MIN, r.lowest(0));
        assertEquals(MAX, r.highest(0));
        assertEquals(r, RangePartitions.of());
        assertEquals(new RangePartitions.Span(0, 0), r.partitionsCovering(MIN, true, MAX, true));
    }

    @Test
    void evenHalvesAtZero() {
        RangePartitions r = RangePartitions.even(2);
        assertArrayEquals(new long[] {0}, r.splits());
        assertEquals(0, r.partition(MIN));
        assertEquals(0, r.partition(-1));
        assertEquals(1, r.partition(0));
        assertEquals(1, r.partition(MAX));
        assertEquals(-1, r.highest(0));
    }

    @Test
    void evenWidthsDifferByAtMostOne() {
        for (int n : new int[] {3, 7, 64, 1000, 1024, 65_000}) {
            RangePartitions r = RangePartitions.even(n);
            assertEquals(n, r.partitions());
            checkTiling(r);
            long least = -1;
            long most = 0;
            for (int p = 0; p < n; p++) {
                long width = r.highest(p) - r.lowest(p); // one less than the width: fits a long
                least = least < 0 ? width : Math.min(least, width);
                most = Math.max(most, width);
            }
            assertTrue(most - least <= 1, n + " partitions: widths " + least + ".." + most);
        }
        assertEquals(RangePartitions.MAX_PARTITIONS, RangePartitions.even(65_000).partitions());
    }

    @Test
    void everySplitPointOpensItsPartition() {
        RangePartitions r = RangePartitions.of(MIN + 1, -5, -4, 0, 1, 100, MAX - 1, MAX);
        checkTiling(r);
        long[] s = r.splits();
        for (int i = 0; i < s.length; i++) {
            assertEquals(i + 1, r.partition(s[i]), "split " + i);
            assertEquals(i, r.partition(s[i] - 1), "below split " + i);
        }
        assertEquals(0, r.partition(MIN));
        assertEquals(MIN, r.highest(0));
        assertEquals(8, r.partition(MAX));
        assertEquals(MAX, r.lowest(8));
        assertEquals(MAX, r.highest(8));
        assertEquals(MAX - 1, r.highest(7));
    }

    @Test
    void randomKeysMatchALinearScan() {
        SplittableRandom rnd = new SplittableRandom(7);
        for (int round = 0; round < 50; round++) {
            long[] splits = rnd.longs(1 + rnd.nextInt(100)).distinct().filter(k -> k != MIN).sorted().toArray();
            RangePartitions r = RangePartitions.of(splits);
            for (int i = 0; i < 2_000; i++) {
                long k = switch (i % 4) {
                    case 0 -> rnd.nextLong();
                    case 1 -> splits[rnd.nextInt(splits.length)] + rnd.nextInt(3) - 1; // beside a split
                    case 2 -> rnd.nextLong(-1000, 1000);
                    default -> rnd.nextBoolean() ? MIN + rnd.nextInt(2) : MAX - rnd.nextInt(2);
                };
                assertEquals(linear(splits, k), r.partition(k), "key " + k);
            }
        }
    }

    @Test
    void coveringHonoursEachBound() {
        RangePartitions r = RangePartitions.of(-10, 0, 10);   // [MIN,-10) [-10,0) [0,10) [10,MAX]
        assertEquals(new RangePartitions.Span(0, 3), r.partitionsCovering(MIN, true, MAX, true));
        assertEquals(new RangePartitions.Span(0, 3), r.partitionsCovering(MIN, false, MAX, false));
        assertEquals(new RangePartitions.Span(1, 2), r.partitionsCovering(-10, true, 10, false));
        assertEquals(new RangePartitions.Span(1, 3), r.partitionsCovering(-10, true, 10, true));
        assertEquals(new RangePartitions.Span(0, 2), r.partitionsCovering(-11, true, 9, true));
        assertEquals(new RangePartitions.Span(1, 2), r.partitionsCovering(-11, false, 9, true));
        assertEquals(new RangePartitions.Span(2, 2), r.partitionsCovering(0, true, 0, true));
        assertEquals(new RangePartitions.Span(1, 1), r.partitionsCovering(-1, true, 0, false));
        assertEquals(new RangePartitions.Span(3, 3), r.partitionsCovering(MAX, true, MAX, true));
        assertEquals(new RangePartitions.Span(0, 0), r.partitionsCovering(MIN, true, MIN, true));
        assertEquals(2, r.partitionsCovering(-10, true, 10, false).count());
    }

    @Test
    void emptyRangesCoverNothing() {
        RangePartitions r = RangePartitions.even(16);
        RangePartitions.Span[] empty = {
            r.partitionsCovering(5, true, 5, false),
            r.partitionsCovering(5, false, 5, true),
            r.partitionsCovering(5, false, 6, false),
            r.partitionsCovering(6, true, 5, true),
            r.partitionsCovering(MAX, false, MAX, true),
            r.partitionsCovering(MIN, true, MIN, false),
            r.partitionsCovering(MAX, true, MIN, true),
        };
        for (RangePartitions.Span s : empty) {
            assertEquals(RangePartitions.Span.EMPTY, s);
            assertTrue(s.isEmpty());
            assertEquals(0, s.count());
        }
        assertFalse(r.partitionsCovering(5, false, 7, false).isEmpty());
    }

    @Test
    void coveringMatchesTheKeysAtItsEnds() {
        SplittableRandom rnd = new SplittableRandom(11);
        RangePartitions r = RangePartitions.fromSample(rnd.longs(5_000, -1_000_000, 1_000_000).toArray(), 40);
        for (int i = 0; i < 5_000; i++) {
            long a = rnd.nextLong(-1_100_000, 1_100_000);
            long b = a + rnd.nextInt(200_000) - 10;
            boolean ai = rnd.nextBoolean();
            boolean bi = rnd.nextBoolean();
            long lo = ai ? a : a + 1;
            long hi = bi ? b : b - 1;
            RangePartitions.Span s = r.partitionsCovering(a, ai, b, bi);
            if (lo > hi) {
                assertTrue(s.isEmpty());
            } else {
                assertEquals(new RangePartitions.Span(r.partition(lo), r.partition(hi)), s);
            }
        }
    }

    @Test
    void sampleQuantilesBalanceTheSample() {
        SplittableRandom rnd = new SplittableRandom(3);
        long[] sample = rnd.longs(100_000, 0, 1L << 40).toArray();
        RangePartitions r = RangePartitions.fromSample(sample, 100);
        assertEquals(100, r.partitions());
        checkTiling(r);
        int[] counts = new int[r.partitions()];
        for (long k : sample) {
            counts[r.partition(k)]++;
        }
        // Partition 0 also holds every negative key; the sample has none, so its share is the same.
        for (int p = 0; p < counts.length; p++) {
            assertEquals(1000, counts[p], 1, "partition " + p);
        }
        long[] unsorted = sample.clone();
        Arrays.sort(sample);
        assertEquals(r, RangePartitions.fromSample(sample, 100));
        assertEquals(r, RangePartitions.fromSample(unsorted, 100));
    }

    @Test
    void duplicatesInTheSampleGiveFewerPartitions() {
        // Nine copies of 5 and one 9: every quantile is 5 or 9, so two distinct split points.
        long[] sample = {5, 5, 5, 5, 9, 5, 5, 5, 5, 5};
        RangePartitions r = RangePartitions.fromSample(sample, 10);
        assertArrayEquals(new long[] {5, 9}, r.splits());
        assertEquals(3, r.partitions());
        checkTiling(r);
        assertArrayEquals(new long[] {7}, RangePartitions.fromSample(new long[] {7, 7, 7}, 4).splits());
        // MIN_VALUE cannot open a partition: the quantiles on it merge into partition 0.
        assertArrayEquals(new long[] {3}, RangePartitions.fromSample(new long[] {MIN, MIN, MIN, 3}, 4).splits());
        // A sample smaller than the count: each distinct key opens one partition at most.
        assertArrayEquals(new long[] {1, 2, 3}, RangePartitions.fromSample(new long[] {3, 1, 2}, 1000).splits());
        assertEquals(1, RangePartitions.fromSample(new long[] {42}, 1).partitions());
    }

    @Test
    void badInputSaysWhatIsWrong() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RangePartitions.even(0));
        assertTrue(e.getMessage().contains("[1, 65000]") && e.getMessage().contains("got 0"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RangePartitions.even(-1));
        e = assertThrows(IllegalArgumentException.class, () -> RangePartitions.even(65_001));
        assertTrue(e.getMessage().contains("65001"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RangePartitions.fromSample(new long[] {1}, 0));
        e = assertThrows(IllegalArgumentException.class, () -> RangePartitions.fromSample(new long[0], 4));
        assertTrue(e.getMessage().contains("empty"), e.getMessage());

        e = assertThrows(IllegalArgumentException.class, () -> RangePartitions.of(1, 3, 3));
        assertTrue(e.getMessage().contains("strictly ascending") && e.getMessage().contains("equal to split 1"),
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> RangePartitions.of(1, 0));
        assertTrue(e.getMessage().contains("below split 0"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> RangePartitions.of(MIN, 0));
        assertTrue(e.getMessage().contains("Long.MIN_VALUE"), e.getMessage());
        long[] tooMany = new long[65_000];
        Arrays.setAll(tooMany, i -> i);
        e = assertThrows(IllegalArgumentException.class, () -> RangePartitions.of(tooMany));
        assertTrue(e.getMessage().contains("65001 partitions"), e.getMessage());
        assertEquals(65_000, RangePartitions.of(Arrays.copyOf(tooMany, 64_999)).partitions());

        NullPointerException n = assertThrows(NullPointerException.class, () -> RangePartitions.of((long[]) null));
        assertEquals("splits", n.getMessage());
        n = assertThrows(NullPointerException.class, () -> RangePartitions.fromSample(null, 4));
        assertEquals("sample", n.getMessage());

        RangePartitions r = RangePartitions.even(4);
        IndexOutOfBoundsException o = assertThrows(IndexOutOfBoundsException.class, () -> r.lowest(4));
        assertTrue(o.getMessage().contains("0 to 3"), o.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> r.highest(-1));
    }

    @Test
    void ofCopiesItsInput() {
        long[] splits = {1, 2, 3};
        RangePartitions r = RangePartitions.of(splits);
        splits[0] = 100;
        r.splits()[1] = 100;
        assertArrayEquals(new long[] {1, 2, 3}, r.splits());
    }

    @Test
    void equalsHashCodeAndToString() {
        assertEquals(RangePartitions.even(2), RangePartitions.of(0));
        assertEquals(RangePartitions.even(2).hashCode(), RangePartitions.of(0).hashCode());
        assertNotEquals(RangePartitions.even(2), RangePartitions.of(1));
        assertNotEquals(RangePartitions.even(2), RangePartitions.even(3));
        assertEquals("RangePartitions[partitions=3, splits=[-5, 7]]", RangePartitions.of(-5, 7).toString());
        String big = RangePartitions.even(65_000).toString();
        assertTrue(big.length() < 400 && big.contains("64991 more"), big);
    }

    @Test
    void serializationRoundTrip() throws Exception {
        for (RangePartitions r : new RangePartitions[] {
                RangePartitions.even(1), RangePartitions.even(64), RangePartitions.of(MIN + 1, MAX)}) {
            RangePartitions back = (RangePartitions) read(write(r));
            assertEquals(r, back);
            assertEquals(r.partition(12345), back.partition(12345));
        }
        RangeAffinityFunction f = new RangeAffinityFunction(RangePartitions.even(64));
        RangeAffinityFunction g = (RangeAffinityFunction) read(write(f));
        assertEquals(f.ranges(), g.ranges());
        assertEquals(64, g.partitions());
        assertEquals(f.partition(-1L), g.partition(-1L));
    }

    @Test
    void aForgedStreamIsRefused() throws Exception {
        // Serialize valid partitions, then swap two split points in the bytes: the stream must not load.
        byte[] bytes = write(RangePartitions.of(0x1111111111111111L, 0x2222222222222222L));
        byte[] a = longBytes(0x1111111111111111L);
        byte[] b = longBytes(0x2222222222222222L);
        int i = indexOf(bytes, a);
        int j = indexOf(bytes, b);
        System.arraycopy(b, 0, bytes, i, 8);
        System.arraycopy(a, 0, bytes, j, 8);
        InvalidObjectException e = assertThrows(InvalidObjectException.class, () -> read(bytes));
        assertTrue(e.getMessage().contains("strictly ascending"), e.getMessage());
    }

    @Test
    void affinityFunctionPartitionsLongKeysOnly() {
        AffinityFunction f = new RangeAffinityFunction(RangePartitions.of(0));
        assertEquals(2, f.partitions());
        assertEquals(0, f.partition(-1L));
        assertEquals(1, f.partition(0L));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> f.partition(1));
        assertTrue(e.getMessage().contains("java.lang.Integer"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> f.partition("1"));
        assertThrows(NullPointerException.class, () -> f.partition(null));
        assertThrows(NullPointerException.class, () -> new RangeAffinityFunction(null));
    }

    private static byte[] write(Object o) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        return bytes.toByteArray();
    }

    private static Object read(byte[] bytes) throws IOException, ClassNotFoundException {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
            return in.readObject();
        }
    }

    private static byte[] longBytes(long v) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (v >>> (56 - 8 * i));
        }
        return b;
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("not found");
    }
}
