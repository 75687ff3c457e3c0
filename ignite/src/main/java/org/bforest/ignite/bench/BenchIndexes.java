package org.bforest.ignite.bench;

import org.bforest.LongIndex;
import org.bforest.ignite.IgniteLongIndex;
import org.bforest.ignite.RangePartitions;

/**
 * The benchmark's way in, called by name: one {@link EmbeddedCluster} for the whole run, started
 * by the first build and stopped by {@link #shutdown()}, and a fresh cache for every build.
 */
public final class BenchIndexes {
    /**
     * Partitions of a benchmark index, as many as Ignite's default. Measured at 1M uniform keys on
     * 3 nodes: workload A 0.94x and D 2.8x the SQL peer with 256 partitions, 1.06x and 3.5x with
     * 1024 (how evenly rendezvous placement spreads the partitions, and so how many the calling
     * node holds, is the likely reason; it was not measured apart).
     */
    public static final int PARTITIONS = 1024;
    private static EmbeddedCluster cluster;
    private static AutoCloseable current;

    private BenchIndexes() {
    }

    /**
     * Builds {@code kind} ("ignite": an {@link IgniteLongIndex} range-partitioned at split points
     * sampled from the keys; "ignite-sql": a {@link SqlKeyIndex}) over {@code nodes} embedded
     * server nodes, loaded with the entries; drops the previous build's cache first.
     *
     * @param kind       "ignite" or "ignite-sql"
     * @param nodes      the number of server nodes
     * @param sortedKeys the keys, ascending
     * @param values     their values
     * @return the loaded index
     */
    public static synchronized LongIndex build(String kind, int nodes, long[] sortedKeys, long[] values) {
        release();
        if (cluster != null && cluster.size() != nodes) {
            shutdown();
        }
        if (cluster == null) {
            cluster = new EmbeddedCluster(nodes);
        }
        String name = "bench-" + kind;
        switch (kind) {
            case "ignite" -> {
                cluster.entry().destroyCache(name);
                IgniteLongIndex index = IgniteLongIndex.bulkLoad(cluster.entry(), IgniteLongIndex.cacheConfiguration(
                        name, RangePartitions.fromSample(sortedKeys, PARTITIONS)), sortedKeys, values);
                current = () -> {
                    index.close();
                    cluster.entry().destroyCache(name);
                };
                return index;
            }
            case "ignite-sql" -> {
                SqlKeyIndex index = SqlKeyIndex.create(cluster.entry(), name, sortedKeys, values);
                current = index;
                return index;
            }
            default -> throw new IllegalArgumentException("no Ignite structure " + kind
                    + " (there are ignite and ignite-sql)");
        }
    }

    /** Drops the last build's cache, if any. */
    public static synchronized void release() {
        if (current != null) {
            try {
                current.close();
            } catch (Exception e) {
                throw new IllegalStateException("could not drop the benchmark's cache", e);
            } finally {
                current = null;
            }
        }
    }

    /** Stops the embedded nodes, if started. */
    public static synchronized void shutdown() {
        release();
        if (cluster != null) {
            cluster.close();
            cluster = null;
        }
    }
}
