package org.bforest.ignite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.Serial;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NavigableMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import javax.cache.Cache;
import org.apache.ignite.Ignite;
import org.apache.ignite.IgniteCache;
import org.apache.ignite.Ignition;
import org.apache.ignite.cache.CacheAtomicityMode;
import org.apache.ignite.cache.CacheMode;
import org.apache.ignite.cache.CacheWriteSynchronizationMode;
import org.apache.ignite.cache.PartitionLossPolicy;
import org.apache.ignite.cache.affinity.Affinity;
import org.apache.ignite.cache.query.QueryCursor;
import org.apache.ignite.cache.query.ScanQuery;
import org.apache.ignite.configuration.CacheConfiguration;
import org.apache.ignite.lang.IgniteCallable;
import org.apache.ignite.resources.IgniteInstanceResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three Ignite server nodes in this JVM, on loopback only, and a transactional cache placed by
 * {@link RangeAffinityFunction}: every node maps every key to the partition
 * {@link RangePartitions} says, and each partition's primary holds exactly the keys in that
 * partition's bounds.
 */
class RangeAffinityClusterTest {
    private static final int NODES = 3;
    private static final int PARTITIONS = 64;
    private static final String CACHE = "ranges";
    private static final long WAIT_SECONDS = 20;

    @AfterAll
    static void stopEverything() {
        // Ignite's threads are not daemons: a node left running would keep the test JVM alive.
        Ignition.stopAll(true);
    }

    @Test
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void partitionsHoldTheirKeyRanges(@TempDir Path work) throws Exception {
        RangePartitions ranges = RangePartitions.even(PARTITIONS);
        int discovery = TestCluster.freePortBlock(0);
        int communication = TestCluster.freePortBlock(discovery + LoopbackNodes.PORT_RANGE);
        List<Ignite> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < NODES; i++) {
                nodes.add(Ignition.start(LoopbackNodes.configuration("range-node-" + i, work, discovery,
                        communication)));
            }
            assertEquals(NODES, nodes.get(0).cluster().forServers().nodes().size());

            IgniteCache<Long, Long> cache = nodes.get(0).createCache(new CacheConfiguration<Long, Long>(CACHE)
                    .setCacheMode(CacheMode.PARTITIONED)
                    .setAffinity(new RangeAffinityFunction(ranges))
                    .setBackups(1)
                    .setAtomicityMode(CacheAtomicityMode.TRANSACTIONAL)
                    .setWriteSynchronizationMode(CacheWriteSynchronizationMode.FULL_SYNC)
                    .setPartitionLossPolicy(PartitionLossPolicy.READ_WRITE_SAFE));

            NavigableMap<Long, Long> entries = keys(ranges);
            // Sorted: a transactional putAll locks its keys in this order.
            cache.putAll(entries);
            assertEquals(entries.size(), cache.size());

            for (Ignite node : nodes) {
                Affinity<Long> affinity = node.affinity(CACHE);
                assertEquals(PARTITIONS, affinity.partitions());
                for (long key : entries.keySet()) {
                    assertEquals(ranges.partition(key), affinity.partition(key), node.name() + ", key " + key);
                }
            }

            Affinity<Long> affinity = nodes.get(0).affinity(CACHE);
            int seen = 0;
            for (int p = 0; p < PARTITIONS; p++) {
                PartitionScan scan = nodes.get(p % NODES).compute()
                        .affinityCallAsync(List.of(CACHE), p, new ScanPartition(CACHE, p))
                        .get(WAIT_SECONDS, TimeUnit.SECONDS);
                assertEquals(affinity.mapPartitionToNode(p).id(), scan.node, "partition " + p + " ran off its primary");
                long[] expected = entries.subMap(ranges.lowest(p), true, ranges.highest(p), true).keySet().stream()
                        .mapToLong(Long::longValue).toArray();
                long[] got = scan.keys.clone();
                Arrays.sort(got); // a partition's scan is in Ignite's storage order, not key order
                assertArrayEquals(expected, got, "partition " + p);
                seen += got.length;
            }
            assertEquals(entries.size(), seen);
        } finally {
            for (Ignite node : nodes) {
                node.close();
            }
        }
    }

    /** A few thousand keys: random ones, the extremes, and each split point with its neighbours. */
    private static NavigableMap<Long, Long> keys(RangePartitions ranges) {
        TreeMap<Long, Long> m = new TreeMap<>();
        SplittableRandom rnd = new SplittableRandom(42);
        for (int i = 0; i < 3_000; i++) {
            long k = rnd.nextLong();
            m.put(k, ~k);
        }
        for (long k : new long[] {Long.MIN_VALUE, Long.MIN_VALUE + 1, -1, 0, 1, Long.MAX_VALUE - 1, Long.MAX_VALUE}) {
            m.put(k, ~k);
        }
        for (long s : ranges.splits()) {
            m.put(s - 1, ~(s - 1));
            m.put(s, ~s);
        }
        return m;
    }

    /**
     * A block of {@link LoopbackNodes#PORT_RANGE} free loopback ports from {@code from} on (a
     * random place when 0), so that this cluster cannot meet another one on the machine.
     */
    /** What a partition's scan found, and on which node. Not a record: Ignite's marshaller sets fields. */
    static final class PartitionScan implements Serializable {
        @Serial
        private static final long serialVersionUID = 1L;
        UUID node;
        long[] keys;
    }

    /** Runs on the partition's primary (reserved for the job): its local copy of the partition. */
    static final class ScanPartition implements IgniteCallable<PartitionScan> {
        @Serial
        private static final long serialVersionUID = 1L;
        private final String cacheName;
        private final int partition;

        @IgniteInstanceResource
        private transient Ignite ignite;

        ScanPartition(String cacheName, int partition) {
            this.cacheName = cacheName;
            this.partition = partition;
        }

        @Override
        public PartitionScan call() {
            IgniteCache<Long, Long> cache = ignite.cache(cacheName);
            long[] keys = new long[16];
            int n = 0;
            try (QueryCursor<Cache.Entry<Long, Long>> cursor =
                    cache.query(new ScanQuery<Long, Long>().setPartition(partition).setLocal(true))) {
                for (Cache.Entry<Long, Long> e : cursor) {
                    if (n == keys.length) {
                        keys = Arrays.copyOf(keys, n * 2);
                    }
                    keys[n++] = e.getKey();
                }
            }
            PartitionScan scan = new PartitionScan();
            scan.node = ignite.cluster().localNode().id();
            scan.keys = Arrays.copyOf(keys, n);
            return scan;
        }
    }
}
