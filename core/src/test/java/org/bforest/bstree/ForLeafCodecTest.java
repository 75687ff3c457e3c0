package org.bforest.bstree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.bforest.kernel.PackedLanes;
import org.junit.jupiter.api.Test;

/**
 * {@link ForLeafCodec} on its own, without a tree: the record layout, the info and link words,
 * encode/decode round trips of keys and value lanes at every width (in a record that does not
 * start at 0, with {@code Long.MIN_VALUE} and {@code Long.MAX_VALUE} nearby), and the rules of
 * what fits a width at their boundaries.
 */
class ForLeafCodecTest {
    private static final int[] WIDTHS = {16, 32, 64};
    /** Where the record under test starts in its array: not 0, and not a multiple of 8. */
    private static final int OFF = 11;
    private static final long SENTINEL = 0x5A5A_5A5A_5A5A_5A5AL;

    private static long[] record() {
        long[] c = new long[OFF + ForLeafCodec.recordLongs(true) + 9];
        Arrays.fill(c, SENTINEL);
        return c;
    }

    private static int io() {
        return OFF + ForLeafCodec.infoOffset(true);
    }

    /** {@code n} strictly ascending keys from {@code first} whose span is at most {@code span}. */
    private static long[] keys(SplittableRandom r, long first, long span, int n) {
        long[] ks = new long[n];
        ks[0] = first;
        if (n == 1) {
            return ks;
        }
        ks[n - 1] = first + span;
        // Fill the middle with distinct offsets in (0, span), sorted.
        long[] mid = r.longs(4L * n, 1, Math.max(2, span)).distinct().limit(n - 2).sorted().toArray();
        if (mid.length < n - 2) {
            mid = LongStream.range(1, n - 1).toArray();
        }
        for (int i = 0; i < n - 2; i++) {
            ks[i + 1] = first + mid[i];
        }
        return ks;
    }

    /** Encodes keys at lanes {@code at}, checks every lane and info word, decodes them back. */
    private static void assertKeysRoundTrip(long[] ks, int width, int[] at, long k0) {
        int n = ks.length;
        long[] c = record();
        long[] scratch = new long[ForLeafCodec.MAX_LANES];
        long bm = ForLeafCodec.keyLanes(ks, 0, n, width, at, k0, scratch);
        ForLeafCodec.storeKeys(scratch, width, k0, bm, c, OFF, io());
        c[io() + ForLeafCodec.META] = ForLeafCodec.meta(0, 0, width);
        String what = n + " keys at width " + width + " from " + ks[0] + " above " + k0;
        assertEquals(k0, c[io() + ForLeafCodec.K0], what);
        assertEquals(bm, c[io() + ForLeafCodec.BITMAP], what);
        assertEquals(n, Long.bitCount(bm), what);
        // Lanes: used ones hold key - k0, a gap the next used lane, trailing ones MAXD.
        int lanes = ForLeafCodec.lanes(width);
        int j = n - 1;
        long next = ForLeafCodec.maxD(width);
        for (int s = lanes - 1; s >= 0; s--) {
            long lane = PackedLanes.get(c, OFF, width, s);
            if (j >= 0 && at[j] == s) {
                assertTrue((bm & 1L << s) != 0, what + ": lane " + s + " used");
                next = ks[j] - k0;
                assertEquals(next, lane, what + ": lane " + s);
                j--;
            } else {
                assertTrue((bm & 1L << s) == 0, what + ": lane " + s + " a gap");
                assertEquals(next, lane, what + ": gap " + s);
            }
        }
        if (lanes < 64) { // (a shift by 64 would be a shift by 0)
            assertEquals(0, bm >>> lanes, what + ": no bits beyond the lanes");
        }
        long[] out = new long[ForLeafCodec.MAX_LANES + 1];
        assertEquals(n, ForLeafCodec.decodeKeys(c, OFF, io(), scratch, out), what);
        assertArrayEquals(ks, Arrays.copyOf(out, n), what);
        // Nothing outside the key block and the two info words was written.
        for (int i = 0; i < c.length; i++) {
            boolean written = i >= OFF && i < OFF + 16 || i == io() + ForLeafCodec.K0 || i == io() + ForLeafCodec.BITMAP
                    || i == io() + ForLeafCodec.META;
            if (!written) {
                assertEquals(SENTINEL, c[i], what + ": word " + i + " untouched");
            }
        }
    }

    @Test
    void keysRoundTripAtEveryWidthAndCount() {
        SplittableRandom r = new SplittableRandom(16);
        for (int width : WIDTHS) {
            int lanes = ForLeafCodec.lanes(width);
            long widest = width == 64 ? Long.MAX_VALUE : ForLeafCodec.maxD(width) - 1;
            for (int n : new int[] {1, 2, 3, lanes / 2, lanes * 3 / 4, lanes - 1, lanes}) {
                for (long span : new long[] {n - 1, Math.max(n - 1, widest / 3), Math.max(n - 1, widest)}) {
                    long first = width == 64 ? Long.MIN_VALUE + r.nextLong(1L << 40) : r.nextLong();
                    if (width < 64 && first > Long.MAX_VALUE - 1 - span) {
                        first = Long.MAX_VALUE - 1 - span;
                    }
                    long[] ks = keys(r, first, span, n);
                    int narrowest = ForLeafCodec.narrowestWidth(ks, 0, n);
                    assertTrue(narrowest != 0 && narrowest <= width, n + " keys over " + span + " at " + width);
                    int[] at = new int[lanes];
                    ForLeafCodec.spread(n, width, at);
                    assertKeysRoundTrip(ks, width, at, ForLeafCodec.k0For(width, ks[0]));
                    // Packed to the left (a full run, then padding), and with headroom below k0.
                    for (int i = 0; i < n; i++) {
                        at[i] = i;
                    }
                    assertKeysRoundTrip(ks, width, at, ForLeafCodec.headroomBelow(ks[0], ks[n - 1], width));
                }
            }
        }
    }

    @Test
    void keysAtTheEndsOfTheLongRange() {
        long d16 = ForLeafCodec.maxD(16) - 1; // the widest span 16 bits take
        long d32 = ForLeafCodec.maxD(32) - 1;
        long[][] cases16 = {{Long.MIN_VALUE, Long.MIN_VALUE + 1, Long.MIN_VALUE + d16},
            {Long.MAX_VALUE - 1 - d16, Long.MAX_VALUE - 2, Long.MAX_VALUE - 1}, {-1, 0, d16 - 1}};
        long[][] cases32 = {{Long.MIN_VALUE, Long.MIN_VALUE + d32}, {Long.MAX_VALUE - 1 - d32, Long.MAX_VALUE - 1}};
        long[][] cases64 = {{Long.MIN_VALUE, -1, 0, Long.MAX_VALUE - 1}, {Long.MIN_VALUE, Long.MAX_VALUE - 1}};
        for (int width : WIDTHS) {
            for (long[] ks : width == 16 ? cases16 : width == 32 ? cases32 : cases64) {
                assertEquals(width, ForLeafCodec.narrowestWidth(ks, 0, ks.length), Arrays.toString(ks));
                int[] at = new int[ForLeafCodec.lanes(width)];
                ForLeafCodec.spread(ks.length, width, at);
                assertKeysRoundTrip(ks, width, at, ForLeafCodec.k0For(width, ks[0]));
                assertKeysRoundTrip(ks, width, at, ForLeafCodec.headroomBelow(ks[0], ks[ks.length - 1], width));
            }
        }
        // A 64-bit leaf's lanes are the keys with the sign bit flipped.
        long[] c = record();
        long[] ks = {Long.MIN_VALUE, -1, 0, Long.MAX_VALUE - 1};
        long[] lanes = new long[64];
        long bm = ForLeafCodec.keyLanes(ks, 0, 4, 64, new int[] {0, 1, 2, 3}, Long.MIN_VALUE, lanes);
        assertEquals(0b1111, bm);
        ForLeafCodec.storeKeys(lanes, 64, Long.MIN_VALUE, bm, c, OFF, io());
        for (int i = 0; i < 4; i++) {
            assertEquals(ks[i] ^ Long.MIN_VALUE, c[OFF + i]);
        }
        assertEquals(-1L, c[OFF + 4], "trailing lanes are MAXD");
    }

    @Test
    void valueLanesRoundTripAtEveryWidth() {
        SplittableRandom r = new SplittableRandom(32);
        long[] scratch = new long[ForLeafCodec.MAX_LANES];
        for (int width : WIDTHS) {
            int lanes = ForLeafCodec.lanes(width);
            for (int n : new int[] {1, lanes / 2, lanes}) {
                long m16 = ForLeafCodec.maxD(16);
                for (long base : new long[] {Long.MIN_VALUE, -3, 0, Long.MAX_VALUE - m16,
                    r.nextLong(Long.MIN_VALUE, Long.MAX_VALUE - m16)}) {
                    long[] vs = new long[n];
                    for (int i = 0; i < n; i++) { // a spread that fits the width, order arbitrary
                        vs[i] = width == 64 ? r.nextLong() : base + r.nextLong(m16);
                    }
                    vs[n - 1] = width == 64 ? Long.MAX_VALUE : base; // an end of the range in the mix
                    assertTrue(ForLeafCodec.lanesFit(vs, 0, n, width));
                    int[] at = new int[lanes];
                    ForLeafCodec.spread(n, width, at);
                    long[] c = record();
                    int io = io();
                    long k0 = ForLeafCodec.k0For(width, 0);
                    long bm = ForLeafCodec.keyLanes(LongStream.range(0, n).toArray(), 0, n, width, at, k0, scratch);
                    ForLeafCodec.storeKeys(scratch, width, k0, bm, c, OFF, io);
                    long v0 = ForLeafCodec.valueLanes(vs, 0, n, width, at, scratch);
                    ForLeafCodec.storeValues(scratch, width, v0, c, OFF, io);
                    String what = n + " values at width " + width + " near " + base;
                    assertEquals(ForLeafCodec.laneBase(vs, 0, n, width), c[io + ForLeafCodec.V0], what);
                    assertEquals(ForLeafCodec.laneMeta(width), c[io + ForLeafCodec.META], what);
                    long[] out = new long[lanes];
                    assertEquals(n, ForLeafCodec.decodeValueLanes(c, OFF, io, out), what);
                    assertArrayEquals(vs, Arrays.copyOf(out, n), what);
                    for (int s = 0, j = 0; s < lanes; s++) { // unused lanes hold 0
                        if (j < n && at[j] == s) {
                            j++;
                        } else {
                            assertEquals(0, PackedLanes.get(c, OFF + ForLeafCodec.VALS, width, s), what + " lane " + s);
                        }
                    }
                    assertEquals(SENTINEL, c[io + ForLeafCodec.LINKS], "the links are not the codec's to write");
                }
            }
            // No values: zeros, above v0 = 0.
            long[] c = record();
            int[] at = {0, 5};
            Arrays.fill(scratch, 7); // whatever a previous leaf left there
            ForLeafCodec.storeValues(scratch, width, ForLeafCodec.valueLanes(null, 0, 2, width, at, scratch), c, OFF,
                    io());
            assertEquals(0, c[io() + ForLeafCodec.V0]);
            for (int w = 0; w < 16; w++) {
                assertEquals(0, c[OFF + ForLeafCodec.VALS + w]);
            }
        }
    }

    @Test
    void theRecordLayout() {
        assertEquals(16, ForLeafCodec.VALS);
        assertEquals(16, ForLeafCodec.infoOffset(false));
        assertEquals(20, ForLeafCodec.recordLongs(false), "keys and 4 info longs");
        assertEquals(32, ForLeafCodec.infoOffset(true));
        assertEquals(37, ForLeafCodec.recordLongs(true), "keys, value lanes and 5 info longs");
        assertEquals(ForLeafCodec.V0, ForLeafCodec.INFO_LONGS, "v0 only in the longer info part");
        assertEquals(ForLeafCodec.INFO_LONGS + 1, ForLeafCodec.INFO_LONGS_LANES);
    }

    @Test
    void infoAndLinkWords() {
        for (int width : WIDTHS) {
            for (int ref : new int[] {0, 1, 8191, Integer.MAX_VALUE}) {
                for (int lines = 0; lines <= 8; lines++) {
                    long m = ForLeafCodec.meta(ref, lines, width);
                    assertEquals(width, ForLeafCodec.width(m));
                    assertEquals(lines, ForLeafCodec.lines(m));
                    assertEquals(ref, ForLeafCodec.ref(m));
                    assertFalse(ForLeafCodec.hasLanes(m));
                }
            }
            long m = ForLeafCodec.laneMeta(width);
            assertTrue(ForLeafCodec.hasLanes(m));
            assertEquals(width, ForLeafCodec.width(m));
            assertEquals(0, ForLeafCodec.lines(m));
            assertEquals(0, ForLeafCodec.ref(m));
        }
        for (int next : new int[] {-1, 0, 7, Integer.MAX_VALUE - 8192}) {
            for (int prev : new int[] {-1, 0, 5, Integer.MAX_VALUE - 8192}) {
                long l = ForLeafCodec.links(next, prev);
                assertEquals(next, ForLeafCodec.next(l));
                assertEquals(prev, ForLeafCodec.prev(l));
            }
        }
        assertEquals(-1L, ForLeafCodec.links(-1, -1), "a fresh leaf's links word is -1: both NONE");
    }

    @Test
    void widthsLanesPaddingAndMasks() {
        assertEquals(64, ForLeafCodec.lanes(16));
        assertEquals(32, ForLeafCodec.lanes(32));
        assertEquals(16, ForLeafCodec.lanes(64));
        assertEquals(0xFFFFL, ForLeafCodec.maxD(16));
        assertEquals(0xFFFF_FFFFL, ForLeafCodec.maxD(32));
        assertEquals(-1L, ForLeafCodec.maxD(64));
        assertEquals(0, ForLeafCodec.below(0));
        assertEquals(1, ForLeafCodec.below(1));
        assertEquals(Long.MAX_VALUE, ForLeafCodec.below(63));
        assertEquals(-1L, ForLeafCodec.below(64));
        assertEquals(1, ForLeafCodec.linesFor(0), "a packed block has a line at least");
        assertEquals(1, ForLeafCodec.linesFor(8));
        assertEquals(2, ForLeafCodec.linesFor(9));
        assertEquals(8, ForLeafCodec.linesFor(64));
        assertEquals(9, ForLeafCodec.linesFor(65));
        for (int width : WIDTHS) {
            int lanes = ForLeafCodec.lanes(width);
            for (int n = 1; n <= lanes; n++) {
                int[] at = new int[lanes];
                ForLeafCodec.spread(n, width, at);
                assertEquals(0, at[0]);
                for (int i = 1; i < n; i++) {
                    assertTrue(at[i] > at[i - 1] && at[i] < lanes, n + " at width " + width);
                    assertTrue(at[i] - at[i - 1] <= (lanes + n - 1) / n, "evenly spread");
                }
            }
        }
        assertEquals(Long.MIN_VALUE, ForLeafCodec.k0For(64, 12345));
        assertEquals(12345, ForLeafCodec.k0For(16, 12345));
        assertEquals(-7, ForLeafCodec.k0For(32, -7));
    }

    @Test
    void narrowestWidthAtItsBoundaries() {
        long m16 = ForLeafCodec.maxD(16);
        long m32 = ForLeafCodec.maxD(32);
        assertEquals(16, ForLeafCodec.narrowestWidth(new long[0], 0, 0));
        assertEquals(16, ForLeafCodec.narrowestWidth(new long[] {Long.MAX_VALUE}, 0, 1));
        // Span: below MAXD fits, MAXD itself (the padding) does not.
        assertEquals(16, ForLeafCodec.narrowestWidth(run(64, 0, m16 - 1), 0, 64));
        assertEquals(0, ForLeafCodec.narrowestWidth(run(64, 0, m16), 0, 64), "64 keys fit only 16 bits");
        assertEquals(32, ForLeafCodec.narrowestWidth(run(32, 0, m16), 0, 32));
        assertEquals(32, ForLeafCodec.narrowestWidth(run(32, -5, m32 - 1), 0, 32));
        assertEquals(0, ForLeafCodec.narrowestWidth(run(32, -5, m32), 0, 32), "32 keys fit at most 32 bits");
        assertEquals(64, ForLeafCodec.narrowestWidth(run(16, -5, m32), 0, 16));
        assertEquals(64, ForLeafCodec.narrowestWidth(new long[] {Long.MIN_VALUE, Long.MAX_VALUE}, 0, 2),
                "16 keys or fewer always fit 64 bits, whatever their span");
        // Count: 65 keys fit nothing, 33 fit only 16 bits, 17 fit at most 32.
        assertEquals(0, ForLeafCodec.narrowestWidth(run(65, 0, 64), 0, 65));
        assertEquals(16, ForLeafCodec.narrowestWidth(run(33, 0, 32), 0, 33));
        assertEquals(0, ForLeafCodec.narrowestWidth(run(33, 0, m16), 0, 33));
        assertEquals(32, ForLeafCodec.narrowestWidth(run(17, 0, m16), 0, 17));
        assertEquals(0, ForLeafCodec.narrowestWidth(run(17, 0, m32), 0, 17));
        // from and n select the keys.
        long[] ks = {0, 100, 200, 200 + m16};
        assertEquals(16, ForLeafCodec.narrowestWidth(ks, 0, 3));
        assertEquals(32, ForLeafCodec.narrowestWidth(ks, 1, 3));
    }

    /** {@code n} ascending keys from {@code first} to {@code first + span}. */
    private static long[] run(int n, long first, long span) {
        long[] ks = new long[n];
        for (int i = 0; i < n - 1; i++) {
            ks[i] = first + i;
        }
        ks[n - 1] = first + span;
        return ks;
    }

    @Test
    void headroomBelowLeavesHalfTheSpareRangeAndNeverWraps() {
        assertEquals(Long.MIN_VALUE, ForLeafCodec.headroomBelow(5, 9, 64));
        assertEquals(1000 - (ForLeafCodec.maxD(16) - 1) / 2, ForLeafCodec.headroomBelow(1000, 1000, 16));
        assertEquals(1000 - (ForLeafCodec.maxD(16) - 1 - 10) / 2, ForLeafCodec.headroomBelow(1000, 1010, 16));
        assertEquals(1000, ForLeafCodec.headroomBelow(1000, 1000 + ForLeafCodec.maxD(16) - 1, 16), "no spare range");
        assertEquals(Long.MIN_VALUE, ForLeafCodec.headroomBelow(Long.MIN_VALUE + 10, Long.MIN_VALUE + 20, 16),
                "stops at the smallest long");
        assertEquals(Long.MIN_VALUE, ForLeafCodec.headroomBelow(Long.MIN_VALUE, Long.MIN_VALUE, 32));
        SplittableRandom r = new SplittableRandom(7);
        for (int i = 0; i < 10_000; i++) {
            int width = i % 2 == 0 ? 16 : 32;
            long span = r.nextLong(ForLeafCodec.maxD(width)); // below MAXD: what narrowestWidth admits
            long first = i % 3 == 0 ? Long.MIN_VALUE + r.nextLong(1L << 17)
                    : r.nextLong(Long.MIN_VALUE, Long.MAX_VALUE - span);
            long last = first + span;
            long k0 = ForLeafCodec.headroomBelow(first, last, width);
            assertTrue(k0 <= first, "k0 never above the first key");
            assertTrue(Long.compareUnsigned(last - k0, ForLeafCodec.maxD(width)) < 0, "the last key still fits");
            long spare = (ForLeafCodec.maxD(width) - 1 - span) >>> 1;
            assertEquals(Math.min(spare, first - Long.MIN_VALUE < 0 ? spare : first - Long.MIN_VALUE), first - k0);
        }
    }

    @Test
    void fitsLaneAndLanesFitAtTheirBoundaries() {
        for (int width : new int[] {16, 32}) {
            long m = ForLeafCodec.maxD(width);
            assertTrue(ForLeafCodec.fitsLane(100 + m, 100, width), "a value lane may hold MAXD: no padding there");
            assertFalse(ForLeafCodec.fitsLane(100 + m + 1, 100, width));
            assertTrue(ForLeafCodec.fitsLane(100, 100, width));
            assertFalse(ForLeafCodec.fitsLane(99, 100, width), "below v0 wraps to a huge difference");
            assertTrue(ForLeafCodec.fitsLane(Long.MIN_VALUE + m, Long.MIN_VALUE, width));
            assertFalse(ForLeafCodec.fitsLane(Long.MAX_VALUE, Long.MIN_VALUE, width));
            assertTrue(ForLeafCodec.lanesFit(new long[] {7, 7 + m}, 0, 2, width));
            assertFalse(ForLeafCodec.lanesFit(new long[] {7, 7 + m + 1}, 0, 2, width));
            assertTrue(ForLeafCodec.lanesFit(new long[] {7 + m, 3, 7}, 1, 2, width), "only vs[from, from + n) count");
            assertFalse(ForLeafCodec.lanesFit(new long[] {7 + m, 3, 7}, 0, 2, width));
            assertTrue(ForLeafCodec.lanesFit(new long[] {Long.MAX_VALUE - m, Long.MAX_VALUE}, 0, 2, width));
            assertTrue(ForLeafCodec.lanesFit(new long[] {1, 2}, 0, 0, width), "no values fit");
        }
        assertTrue(ForLeafCodec.fitsLane(Long.MIN_VALUE, Long.MAX_VALUE, 64), "anything fits 64 bits");
        assertTrue(ForLeafCodec.lanesFit(new long[] {Long.MIN_VALUE, Long.MAX_VALUE}, 0, 2, 64));
        assertEquals(0, ForLeafCodec.laneBase(new long[] {Long.MIN_VALUE, Long.MAX_VALUE}, 0, 2, 64));
        assertEquals(0, ForLeafCodec.laneBase(new long[] {5}, 0, 0, 16), "no values: v0 is 0");
        // Half the spare range below the smallest value, stopping at Long.MIN_VALUE.
        long m16 = ForLeafCodec.maxD(16);
        assertEquals(1000 - (m16 - 10) / 2, ForLeafCodec.laneBase(new long[] {1010, 1000}, 0, 2, 16));
        assertEquals(Long.MIN_VALUE,
                ForLeafCodec.laneBase(new long[] {Long.MIN_VALUE + 3, Long.MIN_VALUE + 9}, 0, 2, 16));
        assertEquals(Long.MAX_VALUE - m16,
                ForLeafCodec.laneBase(new long[] {Long.MAX_VALUE, Long.MAX_VALUE - m16}, 0, 2, 16));
    }

    @Test
    void laneBaseLeavesHeadroomAndNeverWraps() {
        long[][] cases = {{Long.MIN_VALUE, Long.MIN_VALUE + 5}, {Long.MAX_VALUE - 5, Long.MAX_VALUE}, {-1, 0, 1},
            {0, 65_534}, {0, 65_535}, {5, 4_294_967_300L}};
        for (long[] vs : cases) {
            for (int width : WIDTHS) {
                long span = vs[vs.length - 1] - vs[0];
                boolean fits = width == 64 || Long.compareUnsigned(span, ForLeafCodec.maxD(width)) <= 0;
                assertEquals(fits, ForLeafCodec.lanesFit(vs, 0, vs.length, width), Arrays.toString(vs) + " " + width);
                if (fits) {
                    long v0 = ForLeafCodec.laneBase(vs, 0, vs.length, width);
                    for (long v : vs) {
                        assertTrue(ForLeafCodec.fitsLane(v, v0, width), v + " above " + v0 + " at " + width);
                    }
                    if (width < 64) {
                        assertTrue(v0 <= vs[0], "v0 never wraps above the smallest value");
                    }
                }
            }
        }
        assertFalse(ForLeafCodec.lanesFit(new long[] {Long.MIN_VALUE, Long.MAX_VALUE}, 0, 2, 32));
    }
}
