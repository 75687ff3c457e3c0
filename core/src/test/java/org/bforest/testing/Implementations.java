package org.bforest.testing;

import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.bforest.BSTreeBuilder.Compression;
import org.bforest.Indexes;
import org.bforest.LongIndex;

/**
 * Every {@link LongIndex} implementation the shared suites run on. A new structure adds one line
 * here and is then covered by the contract suite, the differential test and the view tests.
 */
public final class Implementations {
    private Implementations() {
    }

    /** One implementation: a name for test reports, an empty factory and a bulk-load factory. */
    public record Impl(String name, Supplier<LongIndex> empty, BiFunction<long[], long[], LongIndex> bulk) {
        @Override
        public String toString() {
            return name;
        }
    }

    public static List<Impl> all() {
        return List.of(
                new Impl("treemap-model", TreeMapIndex::new, TreeMapIndex::bulkLoad),
                new Impl("bstree", () -> Indexes.bsTreeBuilder().compression(Compression.NEVER).build(),
                        (k, v) -> Indexes.bsTreeBuilder().compression(Compression.NEVER).build(k, v)),
                new Impl("cbstree", Indexes::cbsTree, Indexes::cbsTree));
    }
}
