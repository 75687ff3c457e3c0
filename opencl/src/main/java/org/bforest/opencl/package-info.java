/**
 * The OpenCL trees: {@link org.bforest.LongIndex} implementations whose pages live in a device's
 * memory, driven through OpenCL by the FFM API ({@code java.lang.foreign}, no JNI). Every
 * operation runs as a batch on the device, so they pay off on batches of many thousands of keys
 * ({@code getAll}, {@code putAll}, {@code removeAll}, {@code rangeCountAll}).
 *
 * <h2>Where to start</h2>
 * <ul>
 *   <li>{@link org.bforest.opencl.OpenClIndexes}: the factories. {@code gpuBTree} is the GPU
 *       B+-tree of Kaczmarek's paper (inner and leaf pages on the device); {@code hybridTree} keeps
 *       the BS-tree's inner levels on the CPU and the leaf pages on the device. Each returns a
 *       {@link org.bforest.opencl.DeviceIndex}, a {@link org.bforest.NativeLongIndex}: close it
 *       (try-with-resources) to free the device memory.</li>
 *   <li>{@link org.bforest.opencl.DeviceIndex} and {@link org.bforest.opencl.DeviceFunction}: a
 *       pass over every entry on the device (a sum, a count, a map/reduce, every value
 *       transformed in place), no entry shipped to the host.</li>
 *   <li>{@link org.bforest.opencl.OpenClDevice}: the devices there are and which one is used (the
 *       system property {@code bforest.opencl.device}, else the first GPU, else the first
 *       device).</li>
 *   <li>{@link org.bforest.opencl.DeviceSearch}: how a look-up batch is ordered and searched on the
 *       device; the answers are the same in every setting.</li>
 *   <li>{@link org.bforest.opencl.OpenClException}: what failed (the OpenCL call, the error's name
 *       and code, a kernel's build log) or what to install.</li>
 * </ul>
 *
 * <pre>{@code
 * try (DeviceIndex tree = OpenClIndexes.hybridTree(sortedKeys, values)) {
 *     tree.getAll(queries, results, -1);   // one batch of look-ups on the device
 *     long total = tree.sumValues();       // one pass over every entry on the device
 * }
 * }</pre>
 *
 * <p>The JVM needs native access for the module ({@code --enable-native-access=org.bforest.opencl},
 * or {@code ALL-UNNAMED} on the class path) and an OpenCL driver: a GPU vendor's, or PoCL to run
 * on the CPU. OpenCL is reached through the ICD loader, {@code libOpenCL.so.1}; where a machine has
 * the vendor's driver but no loader, {@code -Dbforest.opencl.library=/path/to/libnvidia-opencl.so.1}
 * (or any driver's or loader's library) loads that library instead
 * ({@link org.bforest.opencl.OpenClDevice#LIBRARY_PROPERTY}).
 */
package org.bforest.opencl;
