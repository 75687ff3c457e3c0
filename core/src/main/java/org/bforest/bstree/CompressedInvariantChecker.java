package org.bforest.bstree;

import static org.bforest.bstree.ForLeafCodec.BITMAP;
import static org.bforest.bstree.ForLeafCodec.K0;
import static org.bforest.bstree.ForLeafCodec.META;

import java.util.ArrayList;
import java.util.List;
import org.bforest.kernel.PackedLanes;
import org.bforest.storage.LongBlockHeap;

/**
 * The {@link TreeChecker} of a {@link CBSTree}. A leaf: its width is 16, 32 or 64 (and a 64-bit
 * leaf's {@code k0} is {@code Long.MIN_VALUE}); the bitmap names only lanes that exist; used lanes
 * strictly ascend and are below the padding value {@code MAXD}; a gap holds the next used lane, or
 * {@code MAXD}; every decoded key lies within the leaf's separators (so no key is below
 * {@code k0}); a leaf with value lanes (only in a tree that has them) has no value block, any
 * other's value block has room for every key. Storage: value blocks of live leaves and
 * free blocks never overlap, lie below the heap's top, and add up to the lines in use.
 */
final class CompressedInvariantChecker extends TreeChecker {
    private final CBSTree t;
    private final List<long[]> blocks = new ArrayList<>();

    CompressedInvariantChecker(CBSTree t) {
        super(t, "CBS-tree");
        this.t = t;
    }

    @Override
    boolean leafCleared(int leaf) {
        return t.leafBitmap(leaf) == 0 && ForLeafCodec.lines(t.leafMeta(leaf)) == 0;
    }

    @Override
    long checkLeaf(int leaf, long lo, boolean hasLo, long hi, boolean hasHi) {
        String name = "leaf " + leaf;
        long[] ic = t.leaves.chunk(leaf);
        int io = t.infoAt(leaf);
        long meta = ic[io + META];
        long k0 = ic[io + K0];
        long bm = ic[io + BITMAP];
        int width = ForLeafCodec.width(meta);
        if (width != 16 && width != 32 && width != 64) {
            fail(name + ": lane width " + width);
        }
        if (width == 64 && k0 != Long.MIN_VALUE) {
            fail(name + ": a 64-bit leaf has k0 " + k0 + ", not Long.MIN_VALUE");
        }
        int lanes = ForLeafCodec.lanes(width);
        if (lanes < 64 && (bm >>> lanes) != 0) {
            fail(name + ": bitmap " + Long.toBinaryString(bm) + " uses lanes beyond " + lanes);
        }
        long maxD = ForLeafCodec.maxD(width);
        long[] kc = t.leaves.chunk(leaf);
        int off = t.keysAt(leaf);
        long next = maxD;
        boolean seenUsed = false;
        for (int s = lanes - 1; s >= 0; s--) {
            long d = PackedLanes.get(kc, off, width, s);
            if ((bm & (1L << s)) != 0) {
                if (d == maxD) {
                    fail(name + " lane " + s + ": the padding value is used as a difference");
                }
                if (seenUsed && Long.compareUnsigned(d, next) >= 0) {
                    fail(name + " lane " + s + ": difference " + Long.toUnsignedString(d) + " not below the next "
                            + Long.toUnsignedString(next));
                }
                long key = k0 + d;
                if (key == Long.MAX_VALUE) {
                    fail(name + " lane " + s + ": Long.MAX_VALUE stored in a leaf");
                }
                if (Long.compareUnsigned(key - k0, d) != 0 || key < k0) {
                    fail(name + " lane " + s + ": key " + key + " wraps around k0 " + k0);
                }
                checkBounds(name + " lane " + s, key, lo, hasLo, hi, hasHi);
                next = d;
                seenUsed = true;
            } else if (d != next) {
                fail(name + " gap " + s + ": holds " + Long.toUnsignedString(d) + " but the next used lane holds "
                        + Long.toUnsignedString(next));
            }
        }
        int count = Long.bitCount(bm);
        int lines = ForLeafCodec.lines(meta);
        if (ForLeafCodec.hasLanes(meta)) {
            if (!t.laneValues) {
                fail(name + ": value lanes in a tree without them");
            }
            if (lines != 0 || ForLeafCodec.ref(meta) != 0) {
                fail(name + ": value lanes and a value block of " + lines + " lines");
            }
            return count;
        }
        if (lines > LongBlockHeap.MAX_LINES || (long) lines * LongBlockHeap.LINE < count) {
            fail(name + ": " + count + " keys but a value block of " + lines + " lines");
        }
        if (lines > 0) {
            blocks.add(new long[] {ForLeafCodec.ref(meta), lines, leaf});
        }
        return count;
    }

    @Override
    void checkStorage() {
        if (t.leafIds.count() > t.leaves.capacity()) {
            fail("more leaves allocated than the storage holds");
        }
        long live = 0;
        for (long[] b : blocks) {
            live += b[1];
        }
        for (int lines = 1; lines <= LongBlockHeap.MAX_LINES; lines++) {
            for (int ref : t.values.freeBlocks(lines)) {
                blocks.add(new long[] {ref, lines, -1});
            }
        }
        blocks.sort((a, b) -> Long.compare(a[0], b[0]));
        long end = 0;
        for (long[] b : blocks) {
            if (b[0] < end) {
                fail("value block at line " + b[0] + " (" + (b[2] < 0 ? "free" : "leaf " + b[2])
                        + ") overlaps the block before it");
            }
            end = b[0] + b[1];
            if ((b[0] >>> LongBlockHeap.CHUNK_SHIFT) != ((end - 1) >>> LongBlockHeap.CHUNK_SHIFT)) {
                fail("value block at line " + b[0] + " straddles two chunks");
            }
        }
        if (end > t.values.top()) {
            fail("value block ends at line " + end + ", above the heap's top " + t.values.top());
        }
        if (live != t.values.linesInUse()) {
            fail("leaves hold " + live + " value lines but the heap has " + t.values.linesInUse() + " in use");
        }
    }
}
