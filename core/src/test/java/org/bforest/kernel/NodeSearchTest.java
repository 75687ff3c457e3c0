package org.bforest.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The SIMD kernel must give exactly the scalar kernel's answers (Lucene-style equivalence test).
 * The comparison assumes the SIMD kernel is in use: under {@code -Dbforest.simd=false}, or where
 * the vectors hold fewer than 4 longs, it is skipped rather than run as scalar against scalar. The
 * other tests count by themselves and hold on every path. core's pom runs this package at the
 * machine's width, at 256 bits and on the scalar path (each run logs {@link NodeSearch#describe()}).
 */
class NodeSearchTest {
    private static final long[] INTERESTING = {Long.MIN_VALUE, Long.MIN_VALUE + 1, -2, -1, 0, 1, 2,
        Long.MAX_VALUE - 1, Long.MAX_VALUE};

    @Test
    void simdMatchesScalarOnRandomSortedNodesWithGaps() {
        assumeTrue(NodeSearch.SIMD, "the SIMD kernel is not in use: " + NodeSearch.describe());
        SplittableRandom rnd = new SplittableRandom(7);
        long[] a = new long[64];
        for (int round = 0; round < 200_000; round++) {
            int off = rnd.nextInt(0, 48);
            for (int i = 0; i < 16; i++) {
                long k = switch (rnd.nextInt(4)) {
                    case 0 -> rnd.nextLong();
                    case 1 -> rnd.nextLong(-20, 20);
                    case 2 -> INTERESTING[rnd.nextInt(INTERESTING.length)];
                    default -> Long.MAX_VALUE;
                };
                a[off + i] = k;
            }
            Arrays.sort(a, off, off + 16);
            long key = rnd.nextBoolean() ? a[off + rnd.nextInt(16)] + rnd.nextInt(-1, 2)
                    : INTERESTING[rnd.nextInt(INTERESTING.length)];
            assertEquals(ScalarSearch.succGT(a, off, key), NodeSearch.succGT(a, off, key), "succGT");
            assertEquals(ScalarSearch.succGE(a, off, key), NodeSearch.succGE(a, off, key), "succGE");
        }
    }

    /**
     * A node read in place from a little-endian segment (a mapped snapshot's) counts as the same
     * node in an array, wherever in the segment it starts; on every path the kit runs.
     */
    @Test
    void aNodeInASegmentCountsAsInAnArray() {
        SplittableRandom rnd = new SplittableRandom(13);
        long[] a = new long[16];
        MemorySegment seg = MemorySegment.ofArray(new long[16 + 8]);
        for (int round = 0; round < 50_000; round++) {
            for (int i = 0; i < 16; i++) {
                a[i] = rnd.nextInt(3) == 0 ? INTERESTING[rnd.nextInt(INTERESTING.length)] : rnd.nextLong(-30, 30);
            }
            Arrays.sort(a);
            long at = 8L * rnd.nextInt(0, 8);
            for (int i = 0; i < 16; i++) {
                seg.set(ScalarSearch.LE_LONG, at + 8L * i, a[i]);
            }
            long key = rnd.nextBoolean() ? a[rnd.nextInt(16)] + rnd.nextInt(-1, 2)
                    : INTERESTING[rnd.nextInt(INTERESTING.length)];
            assertEquals(ScalarSearch.succGT(a, 0, key), NodeSearch.succGT(seg, at, key), "succGT");
            assertEquals(ScalarSearch.succGE(a, 0, key), NodeSearch.succGE(seg, at, key), "succGE");
        }
    }

    @Test
    void countsAreWhatTheyClaim() {
        long[] a = {1, 3, 3, 3, 5, 7, 9, 11, 13, 15, 17, 19, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE,
            Long.MAX_VALUE};
        assertEquals(0, NodeSearch.succGT(a, 0, 0));
        assertEquals(1, NodeSearch.succGT(a, 0, 1));
        assertEquals(4, NodeSearch.succGT(a, 0, 3));
        assertEquals(1, NodeSearch.succGE(a, 0, 3));
        assertEquals(12, NodeSearch.succGT(a, 0, Long.MAX_VALUE - 1));
        assertEquals(16, NodeSearch.succGT(a, 0, Long.MAX_VALUE));
        assertEquals(0, NodeSearch.succGE(a, 0, Long.MIN_VALUE));
    }

    @Test
    void packedLanesCountRightAtEveryWidth() {
        SplittableRandom rnd = new SplittableRandom(11);
        long[] a = new long[40];
        for (int width : new int[] {16, 32, 64}) {
            int lanes = PackedLanes.lanes(width);
            long max = PackedLanes.maxLane(width);
            long[] vals = new long[lanes];
            for (int round = 0; round < 50_000; round++) {
                int off = rnd.nextInt(0, 24);
                for (int i = 0; i < lanes; i++) {
                    vals[i] = switch (rnd.nextInt(4)) {
                        case 0 -> rnd.nextLong() & max;
                        case 1 -> rnd.nextLong(0, 20);
                        case 2 -> max - rnd.nextLong(0, 3);
                        default -> max;
                    };
                }
                // Unsigned sort: flip the sign bit, sort signed, flip back.
                for (int i = 0; i < lanes; i++) {
                    vals[i] ^= Long.MIN_VALUE;
                }
                Arrays.sort(vals);
                for (int i = 0; i < lanes; i++) {
                    vals[i] ^= Long.MIN_VALUE;
                    PackedLanes.set(a, off, width, i, vals[i]);
                }
                for (int i = 0; i < lanes; i++) {
                    assertEquals(vals[i], PackedLanes.get(a, off, width, i), "lane round trip");
                }
                long[] packed = new long[40];
                PackedLanes.pack(vals, packed, off, width);
                assertEquals(Arrays.toString(Arrays.copyOfRange(a, off, off + 16)),
                        Arrays.toString(Arrays.copyOfRange(packed, off, off + 16)), "pack");
                long[] unpacked = new long[64];
                PackedLanes.unpack(a, off, width, unpacked);
                assertEquals(Arrays.toString(Arrays.copyOf(vals, lanes)), Arrays.toString(Arrays.copyOf(unpacked, lanes)),
                        "unpack");
                long d = switch (rnd.nextInt(3)) {
                    case 0 -> vals[rnd.nextInt(lanes)] + rnd.nextInt(-1, 2);
                    case 1 -> rnd.nextLong() & max;
                    default -> rnd.nextBoolean() ? 0 : max;
                } & max;
                // Both kernels against a plain count, so that this holds on every path: the kernel
                // in use (SIMD or scalar) and the scalar one, which the SIMD one thus matches.
                int expectGT = 0;
                int expectGE = 0;
                for (long v : vals) {
                    expectGT += Long.compareUnsigned(v, d) <= 0 ? 1 : 0;
                    expectGE += Long.compareUnsigned(v, d) < 0 ? 1 : 0;
                }
                assertEquals(expectGT, NodeSearch.succGTPacked(a, off, width, d), "succGT width " + width);
                assertEquals(expectGE, NodeSearch.succGEPacked(a, off, width, d), "succGE width " + width);
                assertEquals(expectGT, PackedLanes.succGT(a, off, width, d), "scalar succGT width " + width);
                assertEquals(expectGE, PackedLanes.succGE(a, off, width, d), "scalar succGE width " + width);
            }
        }
    }

    @Test
    void laneShiftsMatchLaneByLaneMoves() {
        SplittableRandom rnd = new SplittableRandom(5);
        long[] a = new long[20];
        long[] b = new long[20];
        for (int width : new int[] {16, 32, 64}) {
            int lanes = PackedLanes.lanes(width);
            for (int round = 0; round < 20_000; round++) {
                for (int i = 0; i < a.length; i++) {
                    a[i] = rnd.nextLong();
                }
                System.arraycopy(a, 0, b, 0, a.length);
                int off = 2;
                boolean up = rnd.nextBoolean();
                int from = up ? rnd.nextInt(0, lanes) : rnd.nextInt(1, lanes + 1);
                int n = up ? rnd.nextInt(0, lanes - from) : rnd.nextInt(0, lanes - from + 1);
                if (up) {
                    PackedLanes.shiftUp(a, off, width, from, n);
                    for (int i = n - 1; i >= 0; i--) {
                        PackedLanes.set(b, off, width, from + i + 1, PackedLanes.get(b, off, width, from + i));
                    }
                } else {
                    PackedLanes.shiftDown(a, off, width, from, n);
                    for (int i = 0; i < n; i++) {
                        PackedLanes.set(b, off, width, from + i - 1, PackedLanes.get(b, off, width, from + i));
                    }
                }
                if (!Arrays.equals(a, b)) {
                    throw new AssertionError((up ? "shiftUp" : "shiftDown") + " width " + width + " from " + from
                            + " n " + n + ": " + Arrays.toString(a) + " != " + Arrays.toString(b));
                }
            }
        }
    }

    /** B-minus rank: the kernel in use counts exactly the keys below, at every width and key. */
    @Test
    void rankCountsTheKeysBelowAtEveryWidth() {
        java.util.SplittableRandom r = new java.util.SplittableRandom(11);
        for (int width : new int[] {16, 32, 64}) {
            for (int trial = 0; trial < 2000; trial++) {
                int n = r.nextInt(width);
                long[] a = new long[3 + width + 5];
                int off = 3 + (trial & 1);
                long k = r.nextLong(-50, 50);
                for (int i = 0; i < width; i++) {
                    a[off + i] = i < n ? (k += 1 + r.nextInt(3)) - 60 : Long.MAX_VALUE;
                }
                long key = r.nextInt(8) == 0 ? (r.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE) : r.nextLong(-80, 150);
                int expected = 0;
                for (int i = 0; i < width; i++) {
                    expected += a[off + i] < key ? 1 : 0;
                }
                assertEquals(expected, NodeSearch.rank(a, off, width, key), "width " + width);
                assertEquals(expected, ScalarSearch.rank(a, off, width, key), "width " + width);
            }
        }
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> NodeSearch.rank(new long[64], 0, 24, 0));
    }

    /**
     * CSB+ rank: the kernel in use and the scalar one both count exactly the keys below among the
     * first width - skip longs, whatever the pointer lanes after them hold (random longs here).
     */
    @Test
    void rankHeadCountsTheKeysBelowAndIgnoresThePointerLanes() {
        SplittableRandom r = new SplittableRandom(13);
        for (int width : new int[] {8, 16, 32}) {
            for (int skip = 0; skip <= 2; skip++) {
                for (int trial = 0; trial < 3000; trial++) {
                    int keys = width - skip;
                    int n = r.nextInt(keys + 1);
                    long[] a = new long[3 + width + 5];
                    int off = 3 + (trial & 1);
                    long k = r.nextLong(-50, 50);
                    for (int i = 0; i < width; i++) {
                        a[off + i] = i >= keys ? (r.nextBoolean() ? r.nextLong() : r.nextLong(-80, 150))
                                : i < n ? (k += 1 + r.nextInt(3)) - 60 : Long.MAX_VALUE;
                    }
                    long key = r.nextInt(8) == 0 ? INTERESTING[r.nextInt(INTERESTING.length)] : r.nextLong(-80, 150);
                    int expected = 0;
                    for (int i = 0; i < keys; i++) {
                        expected += a[off + i] < key ? 1 : 0;
                    }
                    String what = "width " + width + ", skip " + skip;
                    assertEquals(expected, NodeSearch.rankHead(a, off, width, skip, key), what);
                    assertEquals(expected, ScalarSearch.rankHead(a, off, width, skip, key), what);
                }
            }
        }
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> NodeSearch.rankHead(new long[64], 0, 24, 1, 0));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> NodeSearch.rankHead(new long[64], 0, 16, 3, 0));
    }

    /** B-minus masked shift: slots [from, width-1) move one right, nothing else is touched. */
    @Test
    void shiftRightMovesExactlyTheSuffix() {
        for (int width : new int[] {16, 32, 64}) {
            for (int extra : new int[] {0, 1, 9}) { // the node ends at the array's end, or before it
                for (int off : new int[] {0, 5, 6}) {
                    for (int from = 0; from < width; from++) {
                        long[] a = new long[off + width + extra];
                        for (int i = 0; i < a.length; i++) {
                            a[i] = 1000 + i;
                        }
                        long[] expected = a.clone();
                        System.arraycopy(a, off + from, expected, off + from + 1, width - 1 - from);
                        NodeSearch.shiftRight(a, off, from, width);
                        org.junit.jupiter.api.Assertions.assertArrayEquals(expected, a,
                                "width " + width + ", from " + from + ", off " + off + ", extra " + extra);
                    }
                }
            }
        }
    }
}
