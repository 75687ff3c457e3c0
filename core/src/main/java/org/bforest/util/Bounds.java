package org.bforest.util;

/**
 * The one normalisation of a range's bounds, for every structure's range count and visit: a range
 * given as {@code from} and {@code to}, each inclusive or not, as the closed range
 * {@code [lowest, highest]} of the keys it can hold. Every {@code long} is a key, so an exclusive
 * bound at {@code Long.MAX_VALUE} (from) or {@code Long.MIN_VALUE} (to) holds nothing and has no
 * closed form: {@link #isEmpty} says so before {@link #lowest}/{@link #highest} would overflow.
 */
public final class Bounds {
    private Bounds() {
    }

    /** Whether the range holds no {@code long} at all (then do not call {@link #lowest}/{@link #highest}). */
    public static boolean isEmpty(long from, boolean fromInclusive, long to, boolean toInclusive) {
        if (!fromInclusive && from == Long.MAX_VALUE || !toInclusive && to == Long.MIN_VALUE) {
            return true;
        }
        return lowest(from, fromInclusive) > highest(to, toInclusive);
    }

    /** The least key the range holds (the range not {@linkplain #isEmpty empty}). */
    public static long lowest(long from, boolean fromInclusive) {
        return fromInclusive ? from : from + 1;
    }

    /** The greatest key the range holds (the range not {@linkplain #isEmpty empty}). */
    public static long highest(long to, boolean toInclusive) {
        return toInclusive ? to : to - 1;
    }
}
