package org.bforest.bench.structures;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.bforest.CsbVariant;
import org.bforest.Indexes;
import org.bforest.opencl.OpenClIndexes;

/**
 * The structures the benchmark knows (the shape of caffeine's {@code CacheType}): a name for
 * {@code --structures}, a factory for its {@link IndexAdapter}, and what the runner must know
 * before running it. Adding a bforest structure is one constant here.
 */
public enum Structure {
    BSTREE("bstree", "bforest BS-tree, plain leaves forced (compression NEVER), bulk-loaded at 75% leaf fill",
            "bulk load Indexes.bsTreeBuilder().compression(NEVER).build(sortedKeys, values)", "its own memoryBytes()",
            false, true, BSTreeAdapter::new, -1),
    CBSTREE("cbstree", "bforest compressed BS-tree (CBS-tree: FOR leaves of 64/32/16 keys), forced, 75% leaf fill",
            "bulk load Indexes.cbsTree(sortedKeys, values)", "its own memoryBytes()",
            false, true, CBSTreeAdapter::new, -1),
    BSTREE_AUTO("bstree-auto", "bforest Indexes.bsTree default: the paper's decision mechanism picks plain or compressed",
            "bulk load Indexes.bsTree(sortedKeys, values)", "its own memoryBytes()",
            false, true, () -> new LongIndexAdapter(Indexes::bsTree), -1),
    BMINUS("bminus", "bforest B-minus tree (Indexes.bMinusTree, the article's design on 64-bit keys): nodes of 32"
            + " keys padded with infinities, SIMD rank (compare + popcount), masked-shift inserts",
            "bulk load Indexes.bMinusTree(sortedKeys, values): full leaves", "its own memoryBytes()", false, true,
            () -> new BMinusAdapter(32), -1),
    BMINUS16("bminus16", "bforest B-minus tree with nodes of 16 keys (Indexes.bMinusTreeBuilder().nodeKeys(16))",
            "bulk load Indexes.bMinusTreeBuilder().nodeKeys(16).build(sortedKeys, values): full leaves", "its own memoryBytes()", false,
            true, () -> new BMinusAdapter(16), -1),
    BMINUS64("bminus64", "bforest B-minus tree with nodes of 64 keys (Indexes.bMinusTreeBuilder().nodeKeys(64))",
            "bulk load Indexes.bMinusTreeBuilder().nodeKeys(64).build(sortedKeys, values): full leaves", "its own memoryBytes()", false,
            true, () -> new BMinusAdapter(64), -1),
    CSB("csb", "bforest CSB+-tree (Indexes.csbTree(PLAIN)): children of a node in one contiguous node group, one"
            + " pointer a node, nodes of two cache lines (15 keys), SIMD rank; a split copies the group",
            "bulk load Indexes.csbTree(PLAIN, sortedKeys, values), level by level: full leaves",
            "its own memoryBytes()", false, true, () -> new CsbAdapter(CsbVariant.PLAIN, 0), -1),
    CSB_SEGMENTED("csb-segmented", "bforest segmented CSB+-tree (Indexes.csbTree(SEGMENTED)): two segments a node,"
            + " a split copies one", "bulk load Indexes.csbTree(SEGMENTED, sortedKeys, values): full leaves",
            "its own memoryBytes()", false, true,
            () -> new CsbAdapter(CsbVariant.SEGMENTED, 0), -1),
    CSB_FULL("csb-full", "bforest full CSB+-tree (Indexes.csbTree(FULL)): groups pre-allocated at full size, a"
            + " split shifts inside the group", "bulk load Indexes.csbTree(FULL, sortedKeys, values): full leaves",
            "its own memoryBytes()", false, true, () -> new CsbAdapter(CsbVariant.FULL, 0), -1),
    CSB1("csb1", "bforest CSB+-tree with nodes of one cache line (7 keys), the paper's size",
            "bulk load Indexes.csbTreeBuilder().nodeLines(1).build(sortedKeys, values): full leaves", "its own memoryBytes()", false,
            true, () -> new CsbAdapter(CsbVariant.PLAIN, 1), -1),
    CSB4("csb4", "bforest CSB+-tree with nodes of four cache lines (31 keys)",
            "bulk load Indexes.csbTreeBuilder().nodeLines(4).build(sortedKeys, values): full leaves", "its own memoryBytes()", false,
            true, () -> new CsbAdapter(CsbVariant.PLAIN, 4), -1),
    BPLUS("bplus", "bforest plain B+-tree (Indexes.bPlusTree): packed sorted nodes, binary search, no gaps, no"
            + " SIMD; leaves of 16 entries (256 bytes), inner nodes of 16 keys, as STX", "bulk load"
            + " Indexes.bPlusTree(sortedKeys, values): full leaves", "its own memoryBytes()", false, true,
            () -> new BPlusAdapter(1.0), -1),
    BPLUS_SPARSE("bplus-sparse", "bforest sparse B+-tree: the same, bulk-loaded with 25% of every leaf free",
            "bulk load Indexes.bPlusTreeBuilder().leafFill(0.75).build(sortedKeys, values)", "its own memoryBytes()", false, true,
            () -> new BPlusAdapter(0.75), -1),
    TREEMAP("treemap", "java.util.TreeMap<Long,Long>",
            "new TreeMap<>(SortedMap) over the sorted arrays: linear buildFromSorted, boxing each key and value",
            "estimate: TreeMap.Entry + 2 Longs per entry", false, true, TreeMapAdapter::new, 88),
    BSTREE_OLC("bstree-olc", "bforest concurrent BS-tree (Indexes.concurrentBsTree): the BS-tree with optimistic"
            + " lock coupling (paper section 7), thread-safe", "bulk load Indexes.concurrentBsTree(sortedKeys, values):"
            + " 12 keys a leaf (75%)", "its own memoryBytes()", true, true, OlcAdapter::new, -1),
    SKIPLIST("skiplist", "java.util.concurrent.ConcurrentSkipListMap<Long,Long>",
            "new ConcurrentSkipListMap<>(SortedMap): linear buildFromSorted, boxing each key and value",
            "estimate: Node + 2 Longs + 0.5 Index per entry", true, true, SkipListAdapter::new, 84),
    FASTUTIL_AVL("fastutil-avl", "fastutil Long2LongAVLTreeMap",
            "put(long,long) of every key in ascending order (fastutil has no bulk load)",
            "estimate: one 40-byte Entry per entry", false, true, FastutilAvlAdapter::new, 40),
    FASTUTIL_RB("fastutil-rb", "fastutil Long2LongRBTreeMap",
            "put(long,long) of every key in ascending order (fastutil has no bulk load)",
            "estimate: one 40-byte Entry per entry", false, true, FastutilRbAdapter::new, 40),
    BSTREE_SET("bstree-set", "bforest key-only BS-tree (Indexes.bsTreeKeyOnly): keys only, no value storage, as the"
            + " papers measure the tree; lookups are containsKey", "bulk load Indexes.bsTreeKeyOnly(sortedKeys)",
            "its own memoryBytes()", false, true, KeyOnlyAdapter::new, -1),
    GPU_BTREE("gpu-btree", "bforest GPU B+-tree on OpenCL (OpenClIndexes.gpuBTree, Kaczmarek's paper): pages of 2048"
            + " keys on the device, searched, merged into and split by kernels; every operation in a batch (--batch)",
            "bulk load OpenClIndexes.gpuBTree(device, 2048, sortedKeys, values): full leaves",
            "its own memoryBytes() (device memory)", false, true,
            () -> new DeviceBatchAdapter((d, kv) -> OpenClIndexes.gpuBTree(d, OpenClIndexes.DEFAULT_PAGE_KEYS, kv[0],
                    kv[1])), -1),
    HYBRID("hybrid", "bforest hybrid tree on OpenCL (OpenClIndexes.hybridTree, the paper's future work): the BS-tree's"
            + " inner levels on the CPU, leaf pages of 2048 keys on the device; every operation in a batch (--batch)",
            "bulk load OpenClIndexes.hybridTree(device, 2048, sortedKeys, values): full leaves",
            "its own memoryBytes() (device leaves, CPU inner levels)", false, true,
            () -> new DeviceBatchAdapter((d, kv) -> OpenClIndexes.hybridTree(d, OpenClIndexes.DEFAULT_PAGE_KEYS,
                    kv[0], kv[1])), -1),
    IGNITE("ignite", "bforest on an Apache Ignite cluster (IgniteLongIndex): a TRANSACTIONAL cache, one backup,"
            + " FULL_SYNC, range-partitioned in 1024 at split points sampled from the keys, a concurrent BS-tree a"
            + " partition on every node; look-ups and writes are the cache's, ranges run on the trees",
            "IgniteLongIndex.bulkLoad: a data streamer into a fresh cache, then each node loads its trees from its copies",
            "the trees' memoryBytes() on every node, backups' included (not the cache's own pages)", true, true,
            () -> new ClusterAdapter("ignite"), -1),
    IGNITE_SQL("ignite-sql", "a plain Apache Ignite cache (TRANSACTIONAL, one backup, FULL_SYNC) with Ignite's SQL"
            + " index on the key: look-ups and writes are the cache's, ranges SELECT k, v ... ORDER BY k LIMIT ?",
            "a data streamer into a fresh cache", "not measured (0): Ignite's off-heap pages", true, true,
            () -> new ClusterAdapter("ignite-sql"), -1),
    SORTED_ARRAY("sorted-array", "sorted long[] keys + long[] values, Arrays.binarySearch",
            "copy of the sorted keys and values", "exact: two long[]", false, false, SortedArrayAdapter::new, 16);

    private final String cliName;
    private final String description;
    private final String buildMethod;
    private final String memoryMethod;
    private final boolean threadSafe;
    private final boolean updatable;
    private final Supplier<IndexAdapter> factory;
    private final int roughBytesPerKey;

    Structure(String cliName, String description, String buildMethod, String memoryMethod, boolean threadSafe,
              boolean updatable, Supplier<IndexAdapter> factory, int roughBytesPerKey) {
        this.cliName = cliName;
        this.description = description;
        this.buildMethod = buildMethod;
        this.memoryMethod = memoryMethod;
        this.threadSafe = threadSafe;
        this.updatable = updatable;
        this.factory = factory;
        this.roughBytesPerKey = roughBytesPerKey;
    }

    /** The name on the command line, in the table and in the CSV. */
    public String cliName() {
        return cliName;
    }

    public String description() {
        return description;
    }

    /** How the benchmark builds it, for the report. */
    public String buildMethod() {
        return buildMethod;
    }

    /** Where its memoryBytes figure comes from, for the report. */
    public String memoryMethod() {
        return memoryMethod;
    }

    /** Whether several threads may run operations on it at once. */
    public boolean threadSafe() {
        return threadSafe;
    }

    /** Whether it supports inserts and deletes (otherwise only read-only workloads run). */
    public boolean updatable() {
        return updatable;
    }

    /**
     * Heap bytes per key it needs, roughly (for the peers, with compressed oops), to skip a run
     * that cannot fit before starting it; -1 if unknown.
     */
    public int roughBytesPerKey() {
        return roughBytesPerKey;
    }

    /** Whether it runs on an OpenCL device (named explicitly: 'all' and the default leave it out). */
    public boolean onDevice() {
        return this == GPU_BTREE || this == HYBRID;
    }

    /**
     * Whether it is a bforest {@link org.bforest.LongIndex}, which {@code --snapshot} saves, loads
     * and maps (its adapter's {@link IndexAdapter#longIndex()}); the peers have no snapshot.
     */
    public boolean snapshots() {
        return switch (this) {
            case TREEMAP, SKIPLIST, FASTUTIL_AVL, FASTUTIL_RB, SORTED_ARRAY, IGNITE, IGNITE_SQL -> false;
            default -> true;
        };
    }

    /**
     * Whether it runs on an Ignite cluster of server nodes the bench starts in its JVM
     * ({@code --nodes}; named explicitly: 'all' and the default leave it out).
     */
    public boolean onCluster() {
        return this == IGNITE || this == IGNITE_SQL;
    }

    /** Every structure but the OpenCL and Ignite ones: what 'all' and the default mean. */
    public static List<Structure> onTheCpu() {
        List<Structure> cpu = new ArrayList<>();
        for (Structure s : values()) {
            if (!s.onDevice() && !s.onCluster()) {
                cpu.add(s);
            }
        }
        return List.copyOf(cpu);
    }

    public IndexAdapter newAdapter() {
        return factory.get();
    }

    public static Structure parse(String name) {
        for (Structure s : values()) {
            if (s.cliName.equalsIgnoreCase(name.trim())) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown structure '" + name + "' (the structures are " + names() + ")");
    }

    /** "bstree, treemap, ..." */
    public static String names() {
        List<String> n = new ArrayList<>();
        for (Structure s : values()) {
            n.add(s.cliName);
        }
        return String.join(", ", n);
    }
}
