/**
 * bforest as the ordered index of an Apache Ignite 2.x cluster: an ordered {@code long -> long}
 * map whose data is an Ignite cache partitioned by key range, with one bforest tree for each
 * partition on every server node that holds it.
 *
 * <ul>
 *   <li>{@link org.bforest.ignite.IgniteLongIndex}: the map, its cache's configuration, and the
 *       server node configuration it needs; point operations are the cache's, ordered ones run on
 *       the trees of the partitions they cover, where those partitions live;</li>
 *   <li>{@link org.bforest.ignite.RangePartitions}: the signed {@code long} range cut at split
 *       points (even, from a sample's quantiles, or given), and the partitions a key range
 *       covers;</li>
 *   <li>{@link org.bforest.ignite.RangeAffinityFunction}: an Ignite affinity function that places
 *       keys by those ranges and leaves the placement of partitions on nodes, their copies and
 *       their moves to Ignite;</li>
 *   <li>{@link org.bforest.ignite.LoopbackNodes}: node configurations for a cluster on one
 *       machine, loopback only, for tests and trials.</li>
 * </ul>
 *
 * <p>On each server node, the cache's interceptor keeps the node's trees in step with its copies
 * of the partitions as Ignite applies each write; a partition that arrives is loaded into its tree
 * from the node's copy, one that leaves drops its tree. Ignite's jars are not JPMS modules, so
 * this package runs on the class path; every JVM that runs a node needs the JVM flags listed in
 * {@link org.bforest.ignite.LoopbackNodes}.
 */
package org.bforest.ignite;
