/**
 * In-memory ordered maps from {@code long} keys to {@code long} values: cache-conscious B+-trees,
 * most of them searched with SIMD, behind one interface. This is the only package users see; the
 * trees themselves are internal and built through the factories here.
 *
 * <h2>Where to start</h2>
 * <ul>
 *   <li>{@link org.bforest.LongIndex}: the interface every structure implements: look-ups,
 *       updates, neighbour queries, cursors ({@link org.bforest.LongCursor}), ranges
 *       ({@link org.bforest.LongEntryVisitor}), batches ({@code getAll}, {@code putAll}) and a
 *       {@link java.util.NavigableMap} view ({@link org.bforest.LongIndexViews}).</li>
 *   <li>{@link org.bforest.Indexes}: the factories, empty or bulk-loaded from sorted keys. The
 *       BS-tree ({@code bsTree}, which picks the compressed CBS-tree by itself when the keys are
 *       close, returning a {@link org.bforest.BSTreeIndex}) is the general choice;
 *       {@code bsTreeKeyOnly} is a set of keys; {@code bMinusTree}, {@code csbTree} and
 *       {@code bPlusTree} are the other layouts; {@code concurrentBsTree} is the thread-safe
 *       one.</li>
 *   <li>The builders, for the structures with settings, each setting checked when it is set:
 *       {@link org.bforest.BSTreeBuilder} (compression, leaf fill),
 *       {@link org.bforest.BPlusTreeBuilder} (leaf fill), {@link org.bforest.BMinusTreeBuilder}
 *       (keys a node) and {@link org.bforest.CsbTreeBuilder} (variant, cache lines a node).</li>
 *   <li>{@link org.bforest.NativeLongIndex}: an index holding memory the garbage collector does
 *       not manage, to close after use; the OpenCL trees of the module {@code org.bforest.opencl}
 *       ({@code org.bforest.opencl.OpenClIndexes}) are such indexes.</li>
 * </ul>
 *
 * <pre>{@code
 * LongIndex index = Indexes.bsTree(sortedKeys, values);   // bulk load; values may be null (all 0)
 * index.put(42, 7);
 * long v = index.get(42, -1);                              // -1 when 42 is absent
 * long n = index.rangeCount(0, 1000);                      // keys in [0, 1000)
 * }</pre>
 *
 * <p>Every {@code long} is a valid key, {@link java.lang.Long#MIN_VALUE} and
 * {@link java.lang.Long#MAX_VALUE} included. A {@code null} argument is a
 * {@link java.lang.NullPointerException} naming it, any other bad argument an exception naming
 * it, and either leaves the index unchanged. Reads of an index nobody modifies are safe from any
 * number of threads; writes need the caller's synchronisation, except on the concurrent BS-tree.
 */
package org.bforest;
