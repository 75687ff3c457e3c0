package org.bforest.bstree;

import java.util.Arrays;
import org.bforest.kernel.PackedLanes;
import org.bforest.storage.LongBlockHeap;

/**
 * The CBS-tree's leaf format (BS-tree paper, section 5), apart from the tree that searches and
 * updates it, as Lucene keeps its packed-integer codecs apart from the BKD tree that uses them:
 * the layout of a leaf record, its info word, the frame-of-reference (FOR) codec of keys and
 * value lanes, and the rules that say what fits which lane width. It knows no tree: it works on
 * the words and arrays its caller passes, and allocates nothing.
 *
 * <h2>A leaf record</h2>
 * One record in one array chunk, starting at {@code off}:
 * <pre>
 * [off, off + 16)              key lanes: 1024 bits = 64 x 16-bit, 32 x 32-bit or 16 x 64-bit,
 *                              lane i = key - k0 (unsigned); a gap holds the next used lane,
 *                              trailing gaps the width's all-ones {@link #maxD MAXD}
 * [off + VALS, off + VALS + 16) value lanes (trees with value lanes only): value - v0, same
 *                              width, slot-aligned with the keys
 * [io, io + 4 or 5)            info, io = off + {@link #infoOffset}: {@link #K0}, {@link #BITMAP},
 *                              {@link #LINKS} (next &lt;&lt; 32 | prev), {@link #META} and, with value
 *                              lanes, {@link #V0}
 * </pre>
 * {@link #META} is {@code valueRef << 32 | valueLines << 8 | LANE_VALUES | width}: the width (16,
 * 32 or 64), whether the values are lanes, and otherwise the packed value block (ref and lines in
 * the tree's {@link LongBlockHeap}).
 *
 * <h2>The codec</h2>
 * Used lanes ascend, and since a gap repeats the next used lane (or {@code MAXD}) the block is
 * sorted and the branch-free {@code succ} of the plain BS-tree runs on it unchanged.
 * {@code MAXD} is never a used key difference, so keys fit a width when their span is below it
 * ({@link #narrowestWidth}); values have no padding and fit when their span is at most it
 * ({@link #lanesFit}). A 64-bit leaf's {@code k0} is {@code Long.MIN_VALUE}: its lanes are the
 * keys with the sign bit flipped, and any key fits. Writing a leaf is {@link #keyLanes} then
 * {@link #storeKeys} (and {@link #valueLanes} then {@link #storeValues}); reading it whole is
 * {@link #decodeKeys} and {@link #decodeValueLanes}. The tree's look-ups read single lanes with
 * {@link PackedLanes} and search them with the node-search kernel.
 *
 * <p>Static methods on a final class: the CBS-tree's look-up, insert and delete call the small
 * ones ({@link #width}, {@link #maxD}, {@link #lanes}, {@link #hasLanes}, {@link #below} ...) on
 * every operation, and the JIT inlines them exactly as when they were the tree's own.
 */
final class ForLeafCodec {
    /** Lanes of the narrowest width (64 x 16 bits); a bitmap has one bit per lane. */
    static final int MAX_LANES = 64;

    // ---- the record layout ----------------------------------------------------------------------

    /** Offset of the value lanes in a leaf record (trees with value lanes); the keys are at 0. */
    static final int VALS = Slots.N;
    /** Offsets in the info part of a record. */
    static final int K0 = 0;
    static final int BITMAP = 1;
    static final int LINKS = 2;
    static final int META = 3;
    /** The values' reference in a lane leaf (info parts of 5 longs, trees with value lanes only). */
    static final int V0 = 4;
    /** Longs of the info part: {@code K0 .. META}, and {@code V0} with value lanes. */
    static final int INFO_LONGS = 4;
    static final int INFO_LONGS_LANES = 5;

    /** META flag: the leaf's values are lanes in its record, else packed in a value block. */
    static final long LANE_VALUES = 1L << 7;

    private ForLeafCodec() {
    }

    /** Offset of the info part in a record: after the keys, or after the value lanes. */
    static int infoOffset(boolean laneValues) {
        return laneValues ? VALS + Slots.N : Slots.N;
    }

    /** Longs of a whole record: 20 without value lanes, 37 with them. */
    static int recordLongs(boolean laneValues) {
        return infoOffset(laneValues) + (laneValues ? INFO_LONGS_LANES : INFO_LONGS);
    }

    /** The {@link #LINKS} word. */
    static long links(int next, int prev) {
        return (long) next << 32 | (prev & 0xFFFF_FFFFL);
    }

    static int next(long links) {
        return (int) (links >>> 32);
    }

    static int prev(long links) {
        return (int) links;
    }

    // ---- the info word --------------------------------------------------------------------------

    /** The info word of a packed leaf: values in block {@code ref} of {@code lines} lines. */
    static long meta(int ref, int lines, int width) {
        return (long) ref << 32 | (long) lines << 8 | width;
    }

    static int width(long meta) {
        return (int) meta & 0x7F;
    }

    /** The info word of a lane leaf of {@code width}. */
    static long laneMeta(int width) {
        return LANE_VALUES | width;
    }

    static boolean hasLanes(long meta) {
        return (meta & LANE_VALUES) != 0;
    }

    static int lines(long meta) {
        return (int) (meta >>> 8) & 0xF;
    }

    static int ref(long meta) {
        return (int) (meta >>> 32);
    }

    // ---- widths ---------------------------------------------------------------------------------

    /** Lanes of a width: 64, 32, 16 (no division on the hot path). */
    static int lanes(int width) {
        return 1 << (10 - Integer.numberOfTrailingZeros(width));
    }

    /** The padding value of a width, all ones; never a used difference. */
    static long maxD(int width) {
        return -1L >>> (64 - width);
    }

    /** The bits of the lanes below {@code s} ({@code 0 <= s <= 64}). */
    static long below(int s) {
        return s >= MAX_LANES ? -1L : (1L << s) - 1;
    }

    /** Lines of a packed value block for {@code n} values (at least one). */
    static int linesFor(int n) {
        return Math.max(1, (n + LongBlockHeap.LINE - 1) / LongBlockHeap.LINE);
    }

    // ---- what fits ------------------------------------------------------------------------------

    /**
     * The narrowest lane width (16, 32, 64) in which {@code n} sorted keys fit one leaf as
     * differences to the first (64: plain keys, always, for up to 16 keys); 0 if none.
     */
    static int narrowestWidth(long[] ks, int from, int n) {
        long span = n == 0 ? 0 : ks[from + n - 1] - ks[from];
        if (n <= 64 && Long.compareUnsigned(span, maxD(16)) < 0) {
            return 16;
        }
        if (n <= 32 && Long.compareUnsigned(span, maxD(32)) < 0) {
            return 32;
        }
        return n <= 16 ? 64 : 0;
    }

    /** The {@code k0} of a leaf of {@code width} whose first key is {@code first}: a 64-bit leaf's is fixed. */
    static long k0For(int width, long first) {
        return width == 64 ? Long.MIN_VALUE : first;
    }

    /**
     * A reference key for keys {@code first..last} in lanes of {@code width} bits that leaves
     * half of the spare range below {@code first} (never below {@code Long.MIN_VALUE}); the
     * differences stay below {@code MAXD}.
     */
    static long headroomBelow(long first, long last, int width) {
        if (width == 64) {
            return Long.MIN_VALUE;
        }
        long spare = (maxD(width) - 1 - (last - first)) >>> 1; // fits: narrowestWidth checked the span
        long room = first - Long.MIN_VALUE; // unsigned distance to the smallest long
        return first - (Long.compareUnsigned(spare, room) <= 0 ? spare : room);
    }

    /** Whether value {@code v} fits a lane of {@code width} bits above {@code v0} (any value fits 64). */
    static boolean fitsLane(long v, long v0, int width) {
        return Long.compareUnsigned(v - v0, maxD(width)) <= 0;
    }

    /** Whether values {@code vs[from, from+n)} fit lanes of {@code width} bits above one reference. */
    static boolean lanesFit(long[] vs, int from, int n, int width) {
        if (width == 64 || n == 0) {
            return true;
        }
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int i = from; i < from + n; i++) {
            min = Math.min(min, vs[i]);
            max = Math.max(max, vs[i]);
        }
        return Long.compareUnsigned(max - min, maxD(width)) <= 0;
    }

    /**
     * The reference {@code v0} for values {@code vs[from, from+n)} that {@link #lanesFit}: half
     * the width's spare range below the smallest (never below {@code Long.MIN_VALUE}), so that
     * later values a little below or above it fit too.
     */
    static long laneBase(long[] vs, int from, int n, int width) {
        if (width == 64 || n == 0) {
            return 0;
        }
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int i = from; i < from + n; i++) {
            min = Math.min(min, vs[i]);
            max = Math.max(max, vs[i]);
        }
        long spare = (maxD(width) - (max - min)) >>> 1;
        long room = min - Long.MIN_VALUE; // unsigned distance to the smallest long
        return min - (Long.compareUnsigned(spare, room) <= 0 ? spare : room);
    }

    // ---- encode and decode ----------------------------------------------------------------------

    /** Spreads {@code n} entries evenly over the lanes of {@code width}: entry i at lane {@code i * lanes / n}. */
    static void spread(int n, int width, int[] at) {
        int lanes = lanes(width);
        for (int i = 0; i < n; i++) {
            at[i] = (int) ((long) i * lanes / n);
        }
    }

    // Encoding is two steps, the lanes (into a scratch array) and their store (into the record),
    // so that a caller fetches the record's chunk and offsets after the lanes are done: with one
    // method taking the record, the CBS-tree's bulk load measured 12% slower.

    /**
     * The key lanes of a leaf: keys {@code ks[from, from+n)} (ascending, fitting {@code width}
     * above {@code k0}) at lanes {@code at[0, n)} (ascending), as {@code key - k0}; a gap holds
     * the next difference, trailing lanes {@code MAXD}. Writes every lane of the width into
     * {@code lanes} ({@link #MAX_LANES} longs); returns the bitmap of the used ones.
     */
    static long keyLanes(long[] ks, int from, int n, int width, int[] at, long k0, long[] lanes) {
        long next = maxD(width);
        int s = lanes(width) - 1;
        long bm = 0;
        for (int i = n - 1; i >= 0; i--) {
            for (; s > at[i]; s--) {
                lanes[s] = next;
            }
            next = ks[from + i] - k0;
            lanes[s] = next;
            bm |= 1L << s;
            s--;
        }
        for (; s >= 0; s--) {
            lanes[s] = next;
        }
        return bm;
    }

    /** Stores {@link #keyLanes}' lanes as the record's key block at {@code off}, then {@link #K0}, {@link #BITMAP}. */
    static void storeKeys(long[] lanes, int width, long k0, long bitmap, long[] c, int off, int io) {
        PackedLanes.pack(lanes, c, off, width);
        c[io + K0] = k0;
        c[io + BITMAP] = bitmap;
    }

    /**
     * Decodes the used keys of the record at {@code off} (info at {@code io}) into {@code ks} in
     * key order; returns how many. {@code scratch} holds {@link #MAX_LANES} longs.
     */
    static int decodeKeys(long[] c, int off, int io, long[] scratch, long[] ks) {
        long k0 = c[io + K0];
        PackedLanes.unpack(c, off, width(c[io + META]), scratch);
        int n = 0;
        for (long bits = c[io + BITMAP]; bits != 0; bits &= bits - 1) {
            ks[n++] = k0 + scratch[Long.numberOfTrailingZeros(bits)];
        }
        return n;
    }

    /**
     * The value lanes of a leaf: values {@code vs[from, from+n)} (or zeros for {@code null}),
     * which {@link #lanesFit} {@code width}, slot-aligned with keys at lanes {@code at}, as
     * differences to the reference {@link #laneBase}; other lanes 0. Writes every lane of the
     * width into {@code lanes}; returns the reference {@code v0}.
     */
    static long valueLanes(long[] vs, int from, int n, int width, int[] at, long[] lanes) {
        long v0 = vs == null ? 0 : laneBase(vs, from, n, width);
        Arrays.fill(lanes, 0, lanes(width), 0);
        for (int i = 0; vs != null && i < n; i++) {
            lanes[at[i]] = vs[from + i] - v0;
        }
        return v0;
    }

    /**
     * Stores {@link #valueLanes}' lanes as the value lanes of the record at {@code off}; then
     * {@link #V0} and a lane leaf's {@link #META}.
     */
    static void storeValues(long[] lanes, int width, long v0, long[] c, int off, int io) {
        PackedLanes.pack(lanes, c, off + VALS, width);
        c[io + V0] = v0;
        c[io + META] = laneMeta(width);
    }

    /** Decodes the values of a lane leaf's used slots into {@code vs} in key order; returns how many. */
    static int decodeValueLanes(long[] c, int off, int io, long[] vs) {
        long v0 = c[io + V0];
        int width = width(c[io + META]);
        int i = 0;
        for (long bits = c[io + BITMAP]; bits != 0; bits &= bits - 1) {
            vs[i++] = v0 + PackedLanes.get(c, off + VALS, width, Long.numberOfTrailingZeros(bits));
        }
        return i;
    }
}
