/**
 * bforest: cache-conscious, SIMD B+-trees over 64-bit keys.
 *
 * <p>Users see one package, {@link org.bforest}: the {@link org.bforest.LongIndex} interface every
 * structure implements, {@link org.bforest.Indexes} (the factories) and the builders. Everything
 * else is internal: the trees are package-private, final classes in one package each, built
 * through the factories. The internal packages (the shared layer {@code spi}, the node-search
 * kernels, the storage, the argument checks in {@code util}, and the BS-tree's package for the
 * hybrid tree's inner levels) are exported only to the project's own modules that implement or
 * measure structures on them, as this module's qualified exports name them. The OpenCL trees are in
 * the module {@code org.bforest.opencl} ({@code org.bforest.opencl.OpenClIndexes}), which
 * requires this one transitively.
 *
 * <p>The Vector API module is optional ({@code requires static}): the node search uses it when
 * the JVM was started with {@code --add-modules jdk.incubator.vector} and falls back to its
 * scalar path, with the same answers, when not.
 */
module org.bforest {
    requires static jdk.incubator.vector;
    // com.sun.nio.file.ExtendedOpenOption.DIRECT: a large snapshot's writes skip the page cache
    requires jdk.unsupported;

    exports org.bforest;

    exports org.bforest.spi to org.bforest.bench, org.bforest.opencl;
    exports org.bforest.kernel to org.bforest.bench, org.bforest.opencl;
    exports org.bforest.storage to org.bforest.bench, org.bforest.opencl;
    exports org.bforest.util to org.bforest.bench, org.bforest.opencl;
    // The BS-tree's inner levels over the hybrid tree's device leaves (SharedInnerLevels alone is public there).
    exports org.bforest.bstree to org.bforest.opencl;
}
