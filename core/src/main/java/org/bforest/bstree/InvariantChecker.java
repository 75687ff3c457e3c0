package org.bforest.bstree;

/**
 * The {@link TreeChecker} of a {@link BSTree}: a leaf is a 16-slot node like an inner one (slot
 * use against the bitmap, ascending used keys, gaps holding the next used key, no
 * {@code Long.MAX_VALUE} stored), and its keys lie within its separators.
 */
final class InvariantChecker extends TreeChecker {
    private final BSTree t;

    InvariantChecker(BSTree t) {
        super(t, "BS-tree");
        this.t = t;
    }

    @Override
    boolean leafCleared(int leaf) {
        return t.leafMeta(leaf) == 0;
    }

    @Override
    long checkLeaf(int leaf, long lo, boolean hasLo, long hi, boolean hasHi) {
        int bm = checkSlots("leaf " + leaf, t.leafKeys.chunk(leaf), t.leafKeys.offset(leaf), t.leafMeta(leaf), lo,
                hasLo, hi, hasHi);
        return Integer.bitCount(bm);
    }

    @Override
    void checkStorage() {
        if (t.leafIds.count() > t.leafKeys.capacity()) {
            fail("more leaves allocated than the storage holds");
        }
    }
}
