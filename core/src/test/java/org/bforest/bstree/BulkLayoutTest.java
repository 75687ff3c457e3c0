package org.bforest.bstree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link BulkLayout#leafExtent} against its definition: place the keys at 16 bits, then 32, then
 * 64, and take the first width whose placed keys' span fits. The extent skips a placement whose
 * least possible span is already too wide; this checks that it always agrees, on keys whose
 * spans fall on both sides of each width's limit, with runs of consecutive integers (where no gap
 * is left) and at the ends of the input.
 */
class BulkLayoutTest {
    private static final double[] FILLS = {0.5, 0.6, 0.75, 0.9, 1.0};

    /** The definition, placing every width in turn. */
    private static long reference(long[] keys, int i, int n, double fill, int[] at) {
        for (int w = 16; ; w <<= 1) {
            int placed = BulkLayout.place(keys, i, n, ForLeafCodec.lanes(w), fill, at);
            if (w == 64 || Long.compareUnsigned(keys[i + placed - 1] - keys[i], ForLeafCodec.maxD(w)) < 0) {
                return (long) placed << 8 | w;
            }
        }
    }

    @Test
    void extentMatchesPlacingEveryWidth() {
        SplittableRandom r = new SplittableRandom(0xB17L);
        int[] at = new int[ForLeafCodec.MAX_LANES];
        int[] want = new int[ForLeafCodec.MAX_LANES];
        for (int round = 0; round < 400; round++) {
            long seed = r.nextLong();
            long[] keys = keys(new SplittableRandom(seed), 200 + r.nextInt(300));
            double fill = FILLS[r.nextInt(FILLS.length)];
            for (int i = 0; i < keys.length; i++) {
                long got = BulkLayout.leafExtent(keys, i, keys.length, fill, at);
                long exp = reference(keys, i, keys.length, fill, want);
                assertEquals(exp, got, "seed " + seed + ", fill " + fill + ", from key " + i);
                int placed = (int) (exp >>> 8);
                assertArrayEquals(Arrays.copyOf(want, placed), Arrays.copyOf(at, placed),
                        "lanes, seed " + seed + ", fill " + fill + ", from key " + i);
            }
        }
    }

    /**
     * Strictly ascending keys from {@link Long#MIN_VALUE} up, in stretches whose steps put a
     * leaf's span just under or over the 16- and 32-bit limits, or far over, with runs of +1.
     */
    private static long[] keys(SplittableRandom r, int n) {
        long[] ks = new long[n];
        long k = Long.MIN_VALUE + r.nextInt(1000);
        for (int i = 0; i < n; ) {
            long step = switch (r.nextInt(6)) {
                case 0 -> 1;                                         // consecutive: no gap between
                case 1 -> 1 + r.nextLong(0xFFFFL / 40);              // around the 16-bit limit
                case 2 -> 1 + r.nextLong(0xFFFF_FFFFL / 20);         // around the 32-bit limit
                case 3 -> 0xFFFF_FFFFL / 20 + r.nextLong(0xFFFF_FFFFL / 20);
                case 4 -> 1 + r.nextLong(0xFFFFL / 30);
                default -> 1L << 40;                                 // only 64 bits fit
            };
            int run = 1 + r.nextInt(60);
            for (int j = 0; j < run && i < n; j++, i++) {
                ks[i] = k;
                k += step;
            }
        }
        return ks;
    }
}
