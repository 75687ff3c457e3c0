/**
 * Groundwork for bforest as the ordered index of an Apache Ignite 2.x cluster: key-range
 * partitioning of {@code Long} keys, so that each partition holds one contiguous run of keys.
 *
 * <ul>
 *   <li>{@link org.bforest.ignite.RangePartitions}: the signed {@code long} range cut at split
 *       points (even, from a sample's quantiles, or given), and the partitions a key range
 *       covers;</li>
 *   <li>{@link org.bforest.ignite.RangeAffinityFunction}: an Ignite affinity function that places
 *       keys by those ranges and leaves the placement of partitions on nodes to Ignite;</li>
 *   <li>{@link org.bforest.ignite.LoopbackNodes}: node configurations for a cluster on one
 *       machine, loopback only, for tests and trials.</li>
 * </ul>
 *
 * <p>The distributed index itself (a bforest index a partition, kept in step with the cache, and
 * range queries across partitions) is not here yet. Ignite's jars are not JPMS modules, so this
 * package runs on the class path; every JVM that runs a node needs the JVM flags listed in
 * {@link org.bforest.ignite.LoopbackNodes}.
 */
package org.bforest.ignite;
