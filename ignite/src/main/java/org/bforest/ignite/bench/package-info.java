/**
 * What the benchmark needs to measure an index on an Ignite cluster without any set-up: server
 * nodes started in the benchmark's own JVM on loopback ({@link org.bforest.ignite.bench.EmbeddedCluster}),
 * and the peer a user of plain Ignite would pick for ordered queries, a cache with Ignite's SQL
 * index on the key ({@link org.bforest.ignite.bench.SqlKeyIndex}). The benchmark reaches them
 * through {@link org.bforest.ignite.bench.BenchIndexes}, by name, so that it needs Ignite only on
 * its class path.
 */
package org.bforest.ignite.bench;
