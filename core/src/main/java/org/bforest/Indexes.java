package org.bforest;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.function.BiFunction;
import org.bforest.bminus.BMinusTrees;
import org.bforest.bplus.BPlusTrees;
import org.bforest.bstree.BSTrees;
import org.bforest.csb.CsbTrees;
import org.bforest.olc.OlcTrees;
import org.bforest.util.Arrivals;

/**
 * The front door: factory methods for every bforest structure.
 *
 * <pre>{@code
 * LongIndex empty  = Indexes.bsTree();
 * BSTreeIndex tree = Indexes.bsTree(sortedKeys, values);   // values may be null: all 0
 * tree.isCompressed();                                      // which one the keys called for
 * BSTreeIndex set  = Indexes.bsTreeKeyOnly(sortedKeys);     // keys only, no value storage
 * }</pre>
 *
 * <p>A structure with settings has a builder ({@link #bsTreeBuilder()}, {@link #bMinusTreeBuilder()},
 * {@link #csbTreeBuilder()}, {@link #bPlusTreeBuilder()}), each setting named by its setter and
 * checked at once; the factories here build with the defaults, and the ones that take a size or
 * a fill are short for their builder.
 */
public final class Indexes {
    private Indexes() {
    }

    /**
     * An empty, plain BS-tree (the gapped, SIMD B+-tree of Tsitsigkos et al.).
     *
     * @return a new, empty BS-tree with uncompressed leaves
     */
    public static BSTreeIndex bsTree() {
        return BSTrees.empty(false);
    }

    /**
     * A BS-tree bulk-loaded from {@code sortedKeys} at the paper's default leaf fill of 75%,
     * compressed or not as the paper's decision mechanism picks from the keys
     * (spans of 13 keys averaging at least 32 leading zero bits give the compressed CBS-tree). {@link BSTreeIndex#isCompressed()} says which was built;
     * {@link #bsTreeBuilder()} forces either.
     *
     * <p>The arrays are copied into the tree's own storage; the caller may reuse them.
     *
     * @param sortedKeys keys in strictly ascending signed order
     * @param values     the value of each key, or {@code null} for all 0 (the tree still stores
     *                   values; {@link #bsTreeKeyOnly(long[])} is the form without them)
     * @return a new BS-tree holding those entries, plain or compressed
     * @throws NullPointerException     if {@code sortedKeys} is null
     * @throws IllegalArgumentException if the keys are not strictly ascending or the arrays
     *                                  differ in length; the message names the first bad index
     */
    public static BSTreeIndex bsTree(long[] sortedKeys, long[] values) {
        return bsTreeBuilder().build(sortedKeys, values);
    }

    /**
     * {@link #bsTree(long[], long[])} with leaves {@code leafFill} full (0.5 to 1; the paper's
     * default is 0.75): fuller leaves take less memory and scan faster, emptier ones absorb more
     * inserts before they split. Inner levels are filled 1/8 more per level, up to full nodes.
     *
     * @param sortedKeys keys in strictly ascending signed order
     * @param values     the value of each key, or {@code null} for all 0
     * @param leafFill   the fraction of each leaf the bulk load fills, from 0.5 to 1
     * @return a new BS-tree holding those entries, plain or compressed
     * @throws NullPointerException     if {@code sortedKeys} is null
     * @throws IllegalArgumentException on bad keys or values (see {@link #bsTree(long[], long[])})
     *                                  or a fill outside [0.5, 1]
     */
    public static BSTreeIndex bsTree(long[] sortedKeys, long[] values, double leafFill) {
        return bsTreeBuilder().leafFill(leafFill).build(sortedKeys, values);
    }

    /**
     * A builder that can force the plain or the compressed tree and set the leaf fill.
     *
     * @return a new builder with the defaults: compression AUTO, leaf fill 0.75
     */
    public static BSTreeBuilder bsTreeBuilder() {
        return new BSTreeBuilder();
    }

    /**
     * An empty compressed BS-tree (CBS-tree); see {@link BSTreeBuilder.Compression#ALWAYS}.
     *
     * @return a new, empty CBS-tree
     */
    public static BSTreeIndex cbsTree() {
        return bsTreeBuilder().compression(BSTreeBuilder.Compression.ALWAYS).build();
    }

    /**
     * A compressed BS-tree (CBS-tree) bulk-loaded from {@code sortedKeys}, whatever the keys. The
     * arrays are copied.
     *
     * @param sortedKeys keys in strictly ascending signed order
     * @param values     the value of each key, or {@code null} for all 0
     * @return a new CBS-tree holding those entries
     * @throws NullPointerException     if {@code sortedKeys} is null
     * @throws IllegalArgumentException if the keys are not strictly ascending or the arrays
     *                                  differ in length; nothing is built
     */
    public static BSTreeIndex cbsTree(long[] sortedKeys, long[] values) {
        return bsTreeBuilder().compression(BSTreeBuilder.Compression.ALWAYS).build(sortedKeys, values);
    }

    /**
     * An empty key-only BS-tree: an ordered set of {@code long}s with no value storage at all, as
     * the papers measure the tree (about 13 bytes a key at the default fill, against 25 with
     * values). It is a {@link LongIndex} whose every value is 0: {@code upsert(key, 0)} adds a
     * key, {@code delete(key)} removes it, {@code containsKey}, the neighbour queries, cursors and
     * ranges work as on any index; {@code put} of a value other than 0 throws
     * {@link IllegalArgumentException} and leaves the set unchanged.
     *
     * @return a new, empty key-only BS-tree ({@link BSTreeIndex#isKeyOnly()} is true)
     */
    public static BSTreeIndex bsTreeKeyOnly() {
        return BSTrees.emptyKeyOnly();
    }

    /**
     * A key-only BS-tree ({@link #bsTreeKeyOnly()}) bulk-loaded from {@code sortedKeys} at the
     * default leaf fill of 75%. The array is copied; the caller may reuse it.
     *
     * @param sortedKeys keys in strictly ascending signed order
     * @return a new key-only BS-tree holding those keys
     * @throws NullPointerException     if {@code sortedKeys} is null
     * @throws IllegalArgumentException if the keys are not strictly ascending; nothing is built
     */
    public static BSTreeIndex bsTreeKeyOnly(long[] sortedKeys) {
        return BSTrees.bulkLoadKeyOnly(sortedKeys, BSTrees.DEFAULT_LEAF_FILL);
    }

    /**
     * An empty plain B+-tree: sorted, packed nodes searched by binary search, no gaps and no
     * SIMD (leaves of 16 entries, 256 bytes, and inner nodes of 16 keys, as STX's defaults). The
     * baseline the BS-tree paper measures against; {@code ./bforest bench} runs it as
     * {@code bplus}.
     *
     * @return a new, empty B+-tree
     */
    public static LongIndex bPlusTree() {
        return bPlusTreeBuilder().build();
    }

    /**
     * A B+-tree ({@link #bPlusTree()}) bulk-loaded from {@code sortedKeys} with full leaves. The
     * arrays are copied.
     *
     * @param sortedKeys keys in strictly ascending signed order
     * @param values     the value of each key, or {@code null} for all 0
     * @return a new B+-tree holding those entries
     * @throws NullPointerException     if {@code sortedKeys} is null

     * @throws IllegalArgumentException if the keys are not strictly ascending or the arrays differ
     *                                  in length; nothing is built
     */
    public static LongIndex bPlusTree(long[] sortedKeys, long[] values) {
        return bPlusTreeBuilder().build(sortedKeys, values);
    }

    /**
     * A B+-tree bulk-loaded with leaves {@code leafFill} full (0.5 to 1): 0.75 is the paper's
     * "sparse B+-tree", with 25% of every leaf free for inserts ({@code bplus-sparse} in the
     * bench). Short for {@code bPlusTreeBuilder().leafFill(leafFill).build(sortedKeys, values)}.
     *
     * @param sortedKeys keys in strictly ascending signed order
     * @param values     the value of each key, or {@code null} for all 0
     * @param leafFill   the fraction of each leaf's 16 slots the bulk load fills, from 0.5 to 1
     * @return a new B+-tree holding those entries
     * @throws NullPointerException     if {@code sortedKeys} is null
     * @throws IllegalArgumentException on bad keys or values, or a fill outside [0.5, 1]
     */
    public static LongIndex bPlusTree(long[] sortedKeys, long[] values, double leafFill) {
        return bPlusTreeBuilder().leafFill(leafFill).build(sortedKeys, values);
    }

    /**
     * A builder for the B+-tree: the leaf fill of its bulk load (see {@link BPlusTreeBuilder}).
     *
     * @return a new builder with the default: full leaves
     */
    public static BPlusTreeBuilder bPlusTreeBuilder() {
        return new BPlusTreeBuilder();
    }

    /**
     * An empty B&minus; tree (the article "Search Trees: B&minus; Tree"): nodes of 32 keys in flat
     * arrays, padded with infinities, searched by SIMD rank (compare, mask, popcount) and
     * inserted into by masked shifts; {@code ./bforest bench} runs it as {@code bminus}.
     *
     * @return a new, empty B&minus; tree of 32 keys a node
     */
    public static LongIndex bMinusTree() {
        return bMinusTreeBuilder().build();
    }

    /**
     * An empty B&minus; tree of {@code nodeKeys} keys a node: 16, 32 (the default) or 64. Short
     * for {@code bMinusTreeBuilder().nodeKeys(nodeKeys).build()}.
     *
     * @param nodeKeys keys a node holds: 16, 32 or 64
     * @return a new, empty B&minus; tree
     * @throws IllegalArgumentException for another node size
     */
    public static LongIndex bMinusTree(int nodeKeys) {
        return bMinusTreeBuilder().nodeKeys(nodeKeys).build();
    }

    /**
     * A B&minus; tree bulk-loaded from {@code sortedKeys} with full leaves (B-1 keys each; the
     * first insert into one splits it), 32 keys a node. The arrays are copied.
     *
     * @param sortedKeys keys in strictly ascending signed order
     * @param values     the value of each key, or {@code null} for all 0
     * @return a new B&minus; tree holding those entries
     * @throws NullPointerException     if {@code sortedKeys} is null

     * @throws IllegalArgumentException if the keys are not strictly ascending or the arrays differ
     *                                  in length; nothing is built
     */
    public static LongIndex bMinusTree(long[] sortedKeys, long[] values) {
        return bMinusTreeBuilder().build(sortedKeys, values);
    }

    /**
     * A B&minus; tree of {@code nodeKeys} (16, 32 or 64) keys a node, bulk-loaded. Short for
     * {@code bMinusTreeBuilder().nodeKeys(nodeKeys).build(sortedKeys, values)}.
     *
     * @param sortedKeys keys in strictly ascending signed order
     * @param values     the value of each key, or {@code null} for all 0
     * @param nodeKeys   keys a node holds: 16, 32 or 64
     * @return a new B&minus; tree holding those entries
     * @throws NullPointerException     if {@code sortedKeys} is null
     * @throws IllegalArgumentException on bad keys or values, or another node size
     */
    public static LongIndex bMinusTree(long[] sortedKeys, long[] values, int nodeKeys) {
        return bMinusTreeBuilder().nodeKeys(nodeKeys).build(sortedKeys, values);
    }

    /**
     * A builder for the B&minus; tree: its node size (see {@link BMinusTreeBuilder}).
     *
     * @return a new builder with the default: 32 keys a node
     */
    public static BMinusTreeBuilder bMinusTreeBuilder() {
        return new BMinusTreeBuilder();
    }

    /**
     * An empty CSB+-tree (Rao and Ross, "Making B+-Trees Cache Conscious in Main Memory") of the
     * given variant: the children of a node in one contiguous node group, one pointer a node, nodes
     * of two cache lines; {@code ./bforest bench} runs the variants as {@code csb},
     * {@code csb-segmented} and {@code csb-full}.
     *
     * @param variant which of the three CSB+-trees: {@link CsbVariant#PLAIN}, {@link CsbVariant#SEGMENTED}
     *                or {@link CsbVariant#FULL}
     * @return a new, empty CSB+-tree with nodes of two cache lines
     * @throws NullPointerException if {@code variant} is null
     */
    public static LongIndex csbTree(CsbVariant variant) {
        return csbTreeBuilder().variant(variant).build();
    }

    /**
     * An empty CSB+-tree of the variant with nodes of {@code lines} cache lines: 1 (the paper's),
     * 2 (the default) or 4. Short for {@code csbTreeBuilder().variant(variant).nodeLines(lines).build()}.
     *
     * @param variant which of the three CSB+-trees
     * @param lines   cache lines (64 bytes each) a node takes: 1, 2 or 4
     * @return a new, empty CSB+-tree
     * @throws NullPointerException     if {@code variant} is null
     * @throws IllegalArgumentException for another node size
     */
    public static LongIndex csbTree(CsbVariant variant, int lines) {
        return csbTreeBuilder().variant(variant).nodeLines(lines).build();
    }

    /**
     * A CSB+-tree of the variant bulk-loaded level by level from {@code sortedKeys}: full leaves,
     * inner nodes with one key slot free, nodes of two cache lines. The arrays are copied.
     *
     * @param variant    which of the three CSB+-trees
     * @param sortedKeys keys in strictly ascending signed order
     * @param values     the value of each key, or {@code null} for all 0
     * @return a new CSB+-tree holding those entries
     * @throws NullPointerException     if {@code variant} or {@code sortedKeys} is null
     * @throws IllegalArgumentException if the keys are not strictly ascending or the arrays differ
     *                                  in length; nothing is built
     */
    public static LongIndex csbTree(CsbVariant variant, long[] sortedKeys, long[] values) {
        return csbTreeBuilder().variant(variant).build(sortedKeys, values);
    }

    /**
     * A CSB+-tree of the variant with nodes of {@code lines} (1, 2 or 4) cache lines, bulk-loaded.
     * Short for {@code csbTreeBuilder().variant(variant).nodeLines(lines).build(sortedKeys, values)}.
     *
     * @param variant    which of the three CSB+-trees
     * @param lines      cache lines (64 bytes each) a node takes: 1, 2 or 4
     * @param sortedKeys keys in strictly ascending signed order
     * @param values     the value of each key, or {@code null} for all 0
     * @return a new CSB+-tree holding those entries
     * @throws NullPointerException     if {@code variant} or {@code sortedKeys} is null
     * @throws IllegalArgumentException on bad keys or values, or another node size
     */
    public static LongIndex csbTree(CsbVariant variant, int lines, long[] sortedKeys, long[] values) {
        return csbTreeBuilder().variant(variant).nodeLines(lines).build(sortedKeys, values);
    }

    /**
     * A builder for the CSB+-trees: the variant and the node size (see {@link CsbTreeBuilder}).
     *
     * @return a new builder with the defaults: {@link CsbVariant#PLAIN}, nodes of two cache lines
     */
    public static CsbTreeBuilder csbTreeBuilder() {
        return new CsbTreeBuilder();
    }

    /**
     * An empty concurrent BS-tree: the BS-tree with optimistic lock coupling (the paper's section
     * 7), safe from any number of threads. {@code get}, {@code put}, {@code remove},
     * {@code containsKey} and the neighbour queries are linearizable; cursors, ranges and
     * {@code forEach} are weakly consistent, as {@code ConcurrentSkipListMap}'s iterators (each
     * leaf read at one instant, never a {@code ConcurrentModificationException}); {@code size()}
     * is exact when no update runs and an estimate while one does; {@code clear()} removes key by
     * key. An emptied leaf is unlinked and its node reused, so memory follows the live keys; the
     * exact and conditional updates are atomic, and {@link ConcurrentLongIndex#asNavigableMap()}
     * is a {@code ConcurrentNavigableMap}.
     *
     * @return a new, empty concurrent BS-tree
     */
    public static ConcurrentLongIndex concurrentBsTree() {
        return OlcTrees.empty();
    }

    /**
     * A concurrent BS-tree bulk-loaded from {@code sortedKeys} (leaves 75% full), as
     * {@link #concurrentBsTree()}. The arrays are copied.
     *
     * @param sortedKeys keys in strictly ascending signed order
     * @param values     the value of each key, or {@code null} for all 0
     * @return a new concurrent BS-tree holding those entries
     * @throws NullPointerException     if {@code sortedKeys} is null

     * @throws IllegalArgumentException if the keys are not strictly ascending or the arrays
     *                                  differ in length; the message names the first bad index
     */
    public static ConcurrentLongIndex concurrentBsTree(long[] sortedKeys, long[] values) {
        return OlcTrees.bulkLoad(sortedKeys, values);
    }

    // ---- snapshots --------------------------------------------------------------------------

    /**
     * Builds the index a snapshot ({@link LongIndex#snapshot}) was taken of: the same kind with the
     * same settings ({@link LongIndex#kind()}), bulk-loaded from the stored entries, every block's
     * checksum checked as it is read. A snapshot of an index of kind
     * {@link IndexKind.Family#OTHER} loads as a BS-tree.
     *
     * <p>The calling thread builds while a second thread reads, checks and hands over the
     * entries and a third asks the kernel for the file ahead of it (for snapshots over 8 MiB of
     * data), so a load from disk takes about the longer of the read and the build. Both threads
     * have ended when this returns or throws.
     *
     * @param file a snapshot file
     * @return a new index holding the snapshot's entries
     * @throws CorruptSnapshotException if the file is not a complete, intact snapshot (it names
     *                                  the damaged part); nothing is built
     * @throws SnapshotException        if the file is a directory or holds more keys than an array
     * @throws IOException              if it cannot be read
     */
    public static LongIndex load(Path file) throws IOException {
        return stream(Objects.requireNonNull(file, "file"), null);
    }

    /**
     * Builds while it reads: the entries arrive in the arrays on a reading thread and the bulk
     * load follows them ({@link Arrivals}), so a load from disk takes about the longer of the
     * two rather than their sum. A failure on either side stops the other; nothing is returned.
     */
    private static LongIndex stream(Path file, IndexKind.Family expected) throws IOException {
        SnapshotReader.Stream s = SnapshotReader.stream(file, expected);
        LongIndex built;
        try {
            built = build(s.entries(), s.arrivals());
        } catch (CancellationException stopped) {
            s.finish(); // throws why the read stopped
            throw new IOException("the read of " + file + " stopped", stopped);
        } catch (RuntimeException | Error e) {
            s.cancel(e);
            throw e;
        }
        s.finish(); // the inner levels' checksums, checked after the last entry arrived
        return built;
    }

    private static LongIndex build(SnapshotReader.Entries e, Arrivals in) {
        IndexKind k = e.header().kind();
        long[] keys = e.keys();
        long[] values = e.values();
        return switch (k.family()) {
            case BS_TREE -> BSTrees.bulkLoad(keys, values, k.leafFill(), in);
            case CBS_TREE -> BSTrees.bulkLoadCompressed(keys, values, k.leafFill(), e.header().valueLanes(), in);
            case BS_TREE_KEY_ONLY -> BSTrees.bulkLoadKeyOnly(keys, k.leafFill(), in);
            case B_PLUS_TREE -> BPlusTrees.bulkLoad(keys, values, k.leafFill(), in);
            case B_MINUS_TREE -> BMinusTrees.bulkLoad(keys, values, k.nodeKeys(), in);
            case CSB_TREE -> CsbTrees.bulkLoad(k.variant(), k.lines(), keys, values, in);
            case CONCURRENT_BS_TREE -> OlcTrees.bulkLoad(keys, values, in);
            case OTHER -> {
                // the builder's decision mechanism samples the whole input
                in.await(Integer.MAX_VALUE);
                yield bsTree(keys, values);
            }
        };
    }

    /**
     * {@link #load(Path)}, for a snapshot that must be of {@code expected}'s family.
     *
     * @param file     a snapshot file
     * @param expected the family the caller wants
     * @return a new index of that family holding the snapshot's entries
     * @throws SnapshotKindException if the snapshot is of another family; nothing is built
     * @throws IOException           as {@link #load(Path)}
     */
    public static LongIndex load(Path file, IndexKind.Family expected) throws IOException {
        Objects.requireNonNull(expected, "expected");
        // the kind of the file that is read, not of one read before it (a new snapshot may replace it)
        return stream(Objects.requireNonNull(file, "file"), expected);
    }

    /**
     * Builds an index of the caller's choice from a snapshot's entries, every block's checksum
     * checked first: for a kind {@link #load(Path)} cannot build by itself (the OpenCL trees:
     * {@code Indexes.load(file, OpenClIndexes::gpuBTree)}), or to load into another structure.
     *
     * @param file  a snapshot file
     * @param build given the sorted keys and their values ({@code null} for a key-only snapshot),
     *              builds the index; the arrays are the caller's to keep
     * @param <T>   the index type
     * @return what {@code build} returned
     * @throws CorruptSnapshotException if the file is not a complete, intact snapshot
     * @throws IOException              if it cannot be read
     */
    public static <T extends LongIndex> T load(Path file, BiFunction<long[], long[], T> build) throws IOException {
        Objects.requireNonNull(build, "build");
        SnapshotReader.Entries e = SnapshotReader.read(Objects.requireNonNull(file, "file"), true);
        return build.apply(e.keys(), e.values());
    }

    /**
     * Opens a snapshot in place: a read-only index over the file mapped into memory, searched with
     * the node search the trees use, with no load step (milliseconds whatever the size; a file
     * larger than memory works, the operating system pages it). Only the header and the block
     * table are checked (the data blocks' checksums are {@link #verifySnapshot}'s). Writes throw
     * {@link UnsupportedOperationException}; {@code close()} unmaps the file.
     *
     * @param file a snapshot file
     * @return a read-only index over it; close it when done
     * @throws CorruptSnapshotException if the header or the block table is damaged or the file's
     *                                  length is not the header's
     * @throws IOException              if it cannot be read or mapped
     */
    public static NativeLongIndex map(Path file) throws IOException {
        return MappedIndex.map(Objects.requireNonNull(file, "file"));
    }

    /**
     * What a snapshot holds, from its header (checked, with the block table); the data is not read.
     *
     * @param file a snapshot file
     * @return its kind, key count and length
     * @throws SnapshotException if the file is a directory or not an intact snapshot header
     * @throws IOException       if it cannot be read
     */
    public static SnapshotInfo snapshotInfo(Path file) throws IOException {
        return SnapshotReader.info(Objects.requireNonNull(file, "file"));
    }

    /**
     * Checks every block of a snapshot against its checksum, without building anything.
     *
     * @param file a snapshot file
     * @return what it holds, once every byte is checked
     * @throws CorruptSnapshotException naming the first damaged part
     * @throws IOException              if it cannot be read
     */
    public static SnapshotInfo verifySnapshot(Path file) throws IOException {
        return SnapshotReader.read(Objects.requireNonNull(file, "file"), false).header().info(file);
    }
}
