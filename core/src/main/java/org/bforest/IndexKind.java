package org.bforest;

import java.util.Objects;

/**
 * What kind of index a {@link LongIndex} is, with the settings that {@link Indexes#load} needs to
 * build the same kind again: what a snapshot records of its index, and what
 * {@link LongIndex#kind()} answers.
 *
 * @param family    the structure
 * @param leafFill  the fill a bulk load gives the leaves (the BS-trees, the B+-trees), else 1
 * @param nodeKeys  the B&minus; tree's node keys (16, 32 or 64), else 0
 * @param variant   the CSB+-tree's variant, else {@code null}
 * @param lines     the CSB+-tree's node lines (1, 2 or 4), else 0
 */
public record IndexKind(Family family, double leafFill, int nodeKeys, CsbVariant variant, int lines) {
    /** The structures a snapshot can name. */
    public enum Family {
        /** {@link Indexes#bsTree()}: the plain BS-tree with values. */
        BS_TREE,
        /** {@link Indexes#cbsTree()}: the compressed BS-tree. */
        CBS_TREE,
        /** {@link Indexes#bsTreeKeyOnly()}: the plain BS-tree without values. */
        BS_TREE_KEY_ONLY,
        /** {@link Indexes#bPlusTree()} at the given leaf fill. */
        B_PLUS_TREE,
        /** {@link Indexes#bMinusTree(int)} with the given node keys. */
        B_MINUS_TREE,
        /** {@link Indexes#csbTree(CsbVariant, int)} of the given variant and lines. */
        CSB_TREE,
        /** {@link Indexes#concurrentBsTree()}. */
        CONCURRENT_BS_TREE,
        /**
         * Any other {@link LongIndex} (one written outside bforest, or one whose settings a snapshot
         * does not keep): its snapshot holds the entries, and {@link Indexes#load} builds a BS-tree.
         */
        OTHER
    }

    /** Checks the settings against the family; a wrong one throws {@link IllegalArgumentException}. */
    public IndexKind {
        Objects.requireNonNull(family, "family");
        if (!(leafFill >= 0.5 && leafFill <= 1.0)) {
            throw new IllegalArgumentException("leafFill must be in [0.5, 1], got " + leafFill);
        }
        if ((family == Family.B_MINUS_TREE) != (nodeKeys != 0)
                || nodeKeys != 0 && nodeKeys != 16 && nodeKeys != 32 && nodeKeys != 64) {
            throw new IllegalArgumentException("node keys " + nodeKeys + " do not fit a " + family
                    + " (a B-minus tree takes 16, 32 or 64, every other kind 0)");
        }
        if ((family == Family.CSB_TREE) != (variant != null)
                || (family == Family.CSB_TREE) != (lines != 0) || lines != 0 && lines != 1 && lines != 2 && lines != 4) {
            throw new IllegalArgumentException("variant " + variant + " and lines " + lines + " do not fit a " + family
                    + " (a CSB+-tree takes a variant and 1, 2 or 4 lines, every other kind neither)");
        }
    }

    /** A kind with no settings beyond its family's defaults. */
    public static IndexKind of(Family family) {
        return switch (family) {
            case B_MINUS_TREE -> bMinusTree(32);
            case CSB_TREE -> csbTree(CsbVariant.PLAIN, 2);
            case BS_TREE, CBS_TREE, BS_TREE_KEY_ONLY -> new IndexKind(family, 0.75, 0, null, 0);
            default -> new IndexKind(family, 1.0, 0, null, 0);
        };
    }

    /** A BS-tree, compressed or not, bulk-loaded at {@code leafFill}. */
    public static IndexKind bsTree(boolean compressed, boolean keyOnly, double leafFill) {
        if (compressed && keyOnly) {
            throw new IllegalArgumentException("there is no compressed key-only BS-tree");
        }
        Family f = compressed ? Family.CBS_TREE : keyOnly ? Family.BS_TREE_KEY_ONLY : Family.BS_TREE;
        return new IndexKind(f, leafFill, 0, null, 0);
    }

    /** A B+-tree bulk-loaded at {@code leafFill}. */
    public static IndexKind bPlusTree(double leafFill) {
        return new IndexKind(Family.B_PLUS_TREE, leafFill, 0, null, 0);
    }

    /** A B&minus; tree with {@code nodeKeys} keys a node. */
    public static IndexKind bMinusTree(int nodeKeys) {
        return new IndexKind(Family.B_MINUS_TREE, 1.0, nodeKeys, null, 0);
    }

    /** A CSB+-tree of {@code variant} with nodes of {@code lines} cache lines. */
    public static IndexKind csbTree(CsbVariant variant, int lines) {
        return new IndexKind(Family.CSB_TREE, 1.0, 0, Objects.requireNonNull(variant, "variant"), lines);
    }

    /** Whether an index of this kind stores a value per key (all but the key-only BS-tree). */
    public boolean storesValues() {
        return family != Family.BS_TREE_KEY_ONLY;
    }

    @Override
    public String toString() {
        return switch (family) {
            case B_MINUS_TREE -> family + "(" + nodeKeys + " keys)";
            case CSB_TREE -> family + "(" + variant + ", " + lines + " lines)";
            case BS_TREE, CBS_TREE, BS_TREE_KEY_ONLY, B_PLUS_TREE -> family + "(fill " + leafFill + ")";
            default -> family.toString();
        };
    }
}
