/**
 * bforest's OpenCL structures: OpenCL reached through the FFM API ({@code java.lang.foreign}),
 * no JNI. {@code org.bforest.opencl} is the public package (devices, exceptions and, as they
 * land, the factories); {@code org.bforest.opencl.cl} holds the downcalls and is internal.
 *
 * <p>The module needs native access: start the JVM with
 * {@code --enable-native-access=org.bforest.opencl} (or {@code ALL-UNNAMED} on the class path).
 */
module org.bforest.opencl {
    requires transitive org.bforest;

    exports org.bforest.opencl;
}
