package org.bforest.testing;

import static org.bforest.testing.Capability.FAIL_FAST_CURSORS;
import static org.bforest.testing.Capability.SHRINKS;
import static org.bforest.testing.Capability.THREAD_SAFE;
import static org.bforest.testing.Capability.NODE_SEARCH;

import java.util.EnumSet;
import java.util.List;
import org.bforest.BSTreeBuilder.Compression;
import org.bforest.CsbVariant;
import org.bforest.Indexes;
import org.bforest.bplus.BPlusTrees;
import org.bforest.sample.PackedLeavesIndex;
import org.bforest.testing.Implementations.Impl;

/** The structures of {@code core}, and the model and the SPI sample the kit checks itself with. */
public final class CoreStructures implements StructureRegistry {
    @Override
    public List<Impl> structures() {
        EnumSet<Capability> single = EnumSet.of(FAIL_FAST_CURSORS);
        EnumSet<Capability> simd = EnumSet.of(FAIL_FAST_CURSORS, NODE_SEARCH);
        return List.of(
                // the model holds an entry per key: a drained model holds nothing
                new Impl("treemap-model", TreeMapIndex::new, TreeMapIndex::bulkLoad,
                        EnumSet.of(FAIL_FAST_CURSORS, SHRINKS)),
                new Impl("bstree", () -> Indexes.bsTreeBuilder().compression(Compression.NEVER).build(),
                        (k, v) -> Indexes.bsTreeBuilder().compression(Compression.NEVER).build(k, v), simd),
                new Impl("cbstree", Indexes::cbsTree, Indexes::cbsTree, simd),
                // node sizes 16 and 64: BMinusTreeTest (the same code with other constants)
                new Impl("bminus", Indexes::bMinusTree, Indexes::bMinusTree, simd),
                // node sizes 1 and 4 lines: CsbTreeTest
                new Impl("csb", () -> Indexes.csbTree(CsbVariant.PLAIN),
                        (k, v) -> Indexes.csbTree(CsbVariant.PLAIN, k, v), simd),
                new Impl("csb-segmented", () -> Indexes.csbTree(CsbVariant.SEGMENTED),
                        (k, v) -> Indexes.csbTree(CsbVariant.SEGMENTED, k, v), simd),
                new Impl("csb-full", () -> Indexes.csbTree(CsbVariant.FULL),
                        (k, v) -> Indexes.csbTree(CsbVariant.FULL, k, v), simd),
                new Impl("bplus", Indexes::bPlusTree, Indexes::bPlusTree, single),
                new Impl("bplus-sparse", Indexes::bPlusTree,
                        (k, v) -> Indexes.bPlusTree(k, v, BPlusTrees.SPARSE_FILL), single),
                new Impl("bstree-olc", Indexes::concurrentBsTree, Indexes::concurrentBsTree,
                        EnumSet.of(THREAD_SAFE, NODE_SEARCH)),
                new Impl("spi-sample", PackedLeavesIndex::new, PackedLeavesIndex::bulkLoad, single));
    }
}
