package org.bforest.fastutil;

import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.bforest.CsbVariant;
import org.bforest.Indexes;
import org.bforest.LongIndex;

/** The bforest structures the bridge's tests run on, made through {@link Indexes}. */
final class Structures {
    private Structures() {
    }

    /**
     * One structure: a name for the reports, an empty one, a bulk-loaded one, and whether its
     * cursors are fail-fast (every single-threaded tree) or weakly consistent (the concurrent one).
     */
    record Structure(String name, Supplier<LongIndex> empty, BiFunction<long[], long[], LongIndex> bulk,
                     boolean failFast) {
        @Override
        public String toString() {
            return name;
        }
    }

    static final Structure BS_TREE = new Structure("BS-tree", Indexes::bsTree, Indexes::bsTree, true);
    static final Structure CBS_TREE = new Structure("CBS-tree", Indexes::cbsTree, Indexes::cbsTree, true);
    /** 16-key nodes: a few hundred keys already make three levels. */
    static final Structure B_MINUS_TREE = new Structure("B- tree, 16-key nodes",
            () -> Indexes.bMinusTree(16), (k, v) -> Indexes.bMinusTree(k, v, 16), true);
    static final Structure B_PLUS_TREE = new Structure("B+-tree", Indexes::bPlusTree, Indexes::bPlusTree, true);
    static final Structure CSB_PLAIN = new Structure("CSB+-tree, plain",
            () -> Indexes.csbTree(CsbVariant.PLAIN), (k, v) -> Indexes.csbTree(CsbVariant.PLAIN, k, v), true);
    static final Structure CSB_FULL = new Structure("CSB+-tree, full",
            () -> Indexes.csbTree(CsbVariant.FULL), (k, v) -> Indexes.csbTree(CsbVariant.FULL, k, v), true);
    static final Structure CONCURRENT_BS_TREE = new Structure("concurrent BS-tree",
            Indexes::concurrentBsTree, Indexes::concurrentBsTree, false);

    static List<Structure> all() {
        return List.of(BS_TREE, CBS_TREE, B_MINUS_TREE, B_PLUS_TREE, CSB_PLAIN, CSB_FULL, CONCURRENT_BS_TREE);
    }
}
