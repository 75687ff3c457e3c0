/**
 * The benchmark: bforest's structures against the ordered maps a Java user would pick, and the
 * JMH micro-benchmarks. A named module so that the compiler holds it to what {@code org.bforest}
 * exports to it: the public API, plus the internal packages (the node-search kernels, for the
 * environment report and the kernel micro-benchmarks) that core exports to this module alone.
 *
 * <p>It runs from the class path ({@code ./bforest bench}, {@code ./bforest jmh}, the tests), where
 * this descriptor is not read; it is here for the compile-time check.
 */
@SuppressWarnings("requires-automatic") // fastutil and JMH have no module descriptor
module org.bforest.bench {
    requires org.bforest;
    requires org.bforest.opencl;
    requires it.unimi.dsi.fastutil;
    requires org.bforest.fastutil;
    requires jmh.core;
    // The kernel micro-benchmarks' own SIMD searches; every JVM that runs the bench adds the module.
    requires jdk.incubator.vector;
    // Heap and machine figures (MemoryMXBean, the HotSpot diagnostic bean for the object layout).
    requires jdk.management;
}
