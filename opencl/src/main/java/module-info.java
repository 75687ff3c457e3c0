/**
 * bforest's OpenCL structures, the GPU B+-tree and the hybrid tree: OpenCL reached through the FFM
 * API ({@code java.lang.foreign}), no JNI. {@link org.bforest.opencl} is the public package: the
 * factories ({@link org.bforest.opencl.OpenClIndexes}), the devices, the device search settings
 * and the exception. The rest is internal: {@code org.bforest.opencl.cl} holds the downcalls,
 * {@code pages} the page storage and batches both trees share, {@code gpubtree} and
 * {@code hybrid} one tree each. It requires {@code org.bforest} transitively: its trees are
 * {@link org.bforest.LongIndex}es.
 *
 * <p>The module needs native access: start the JVM with
 * {@code --enable-native-access=org.bforest.opencl} (or {@code ALL-UNNAMED} on the class path).
 */
module org.bforest.opencl {
    requires transitive org.bforest;

    exports org.bforest.opencl;
}
