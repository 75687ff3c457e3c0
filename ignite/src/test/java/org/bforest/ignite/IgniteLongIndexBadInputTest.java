package org.bforest.ignite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.ignite.Ignite;
import org.apache.ignite.IgniteClientDisconnectedException;
import org.apache.ignite.Ignition;
import org.apache.ignite.cache.affinity.rendezvous.RendezvousAffinityFunction;
import org.apache.ignite.configuration.CacheConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a user can get wrong, each answered with an exception that says what and what to do, the
 * index left as it was: a cache that is not an index cache, a cache that does not exist, server
 * nodes without the rebalancing events, batches of mismatched arrays, calls after
 * {@code close()}, and a client whose cluster has no server node left.
 */
class IgniteLongIndexBadInputTest {
    @AfterAll
    static void stopEverything() {
        Ignition.stopAll(true);
    }

    @Test
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void misuseIsRefusedClearly(@TempDir Path work) throws Exception {
        try (TestCluster cluster = TestCluster.start(work, "bad", 2)) {
            Ignite node = cluster.node(0);

            node.createCache(new CacheConfiguration<Long, Long>("plain")
                    .setAffinity(new RendezvousAffinityFunction(false, 32)));
            IllegalArgumentException plain = assertThrows(IllegalArgumentException.class,
                    () -> IgniteLongIndex.open(node, "plain"));
            assertTrue(plain.getMessage().contains("not an index cache"), plain.getMessage());
            assertTrue(plain.getMessage().contains("RangeAffinityFunction"), plain.getMessage());

            CacheConfiguration<Long, Long> atomic = IgniteLongIndex.cacheConfiguration("atomic",
                    RangePartitions.even(8)).setAtomicityMode(org.apache.ignite.cache.CacheAtomicityMode.ATOMIC);
            IllegalArgumentException mode = assertThrows(IllegalArgumentException.class,
                    () -> IgniteLongIndex.create(node, atomic));
            assertTrue(mode.getMessage().contains("TRANSACTIONAL"), mode.getMessage());
            assertEquals(null, node.cache("atomic"), "a refused configuration creates no cache");

            IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                    () -> IgniteLongIndex.open(node, "nothing"));
            assertTrue(missing.getMessage().contains("no cache named nothing"), missing.getMessage());

            IgniteLongIndex index = IgniteLongIndex.create(node, "bad", RangePartitions.even(8));
            index.put(1, 10);
            IllegalArgumentException otherRanges = assertThrows(IllegalArgumentException.class,
                    () -> IgniteLongIndex.create(node, "bad", RangePartitions.even(16)));
            assertTrue(otherRanges.getMessage().contains("other partition ranges"), otherRanges.getMessage());

            assertThrows(IllegalArgumentException.class, () -> index.putAll(new long[] {2, 3}, new long[] {20}));
            assertThrows(IllegalArgumentException.class, () -> index.load(new long[] {2, 3}, new long[] {20}));
            assertThrows(IllegalArgumentException.class, () -> index.getAll(new long[] {2, 3}, new long[1], 0));
            assertThrows(NullPointerException.class, () -> index.rangeVisit(0, 1, null));
            assertEquals(1, index.size(), "refused batches put nothing");
            UnsupportedOperationException cursor = assertThrows(UnsupportedOperationException.class, index::cursor);
            assertTrue(cursor.getMessage().contains("rangeVisit"), cursor.getMessage());
            assertThrows(UnsupportedOperationException.class, index::asNavigableMap);

            index.close();
            index.close(); // a second close does nothing, as AutoCloseable advises
            IllegalStateException closed = assertThrows(IllegalStateException.class, () -> index.get(1, 0));
            assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
            assertThrows(IllegalStateException.class, () -> index.put(2, 20));
            assertThrows(IllegalStateException.class, () -> index.rangeCount(0, 10));
            assertThrows(IllegalStateException.class, index::size);
            try (IgniteLongIndex again = IgniteLongIndex.open(node, "bad")) {
                assertEquals(10, again.get(1, 0), "closing a handle keeps the data");
                assertEquals(List.of(), again.verify());
            }
        }
    }

    @Test
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void serversWithoutTheEventsAreNamed(@TempDir Path work) throws Exception {
        TestCluster ports = new TestCluster(work, "noevents");
        try (Ignite server = Ignition.start(LoopbackNodes.configuration("noevents-0", work, ports.discoveryPort,
                ports.communicationPort).setIncludeEventTypes())) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> IgniteLongIndex.create(server, "ev", RangePartitions.even(8)));
            assertTrue(e.getMessage().contains("serverConfiguration"), e.getMessage());
        }
    }

    @Test
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aClientWithNoServerLeftIsToldSo(@TempDir Path work) throws Exception {
        TestCluster cluster = TestCluster.start(work, "lonely", 1);
        try (Ignite client = Ignition.start(LoopbackNodes.configuration("lonely-client", work, cluster.discoveryPort,
                cluster.communicationPort).setClientMode(true))) {
            IgniteLongIndex index = IgniteLongIndex.create(client, "lonely", RangePartitions.even(8));
            index.put(5, 50);
            assertEquals(50, index.get(5, 0));
            cluster.close(); // the only server goes
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < end) {
                try {
                    if (client.cluster().forServers().nodes().isEmpty()) {
                        break;
                    }
                } catch (IgniteClientDisconnectedException cutOff) {
                    break; // what a client with no server left becomes
                }
                Thread.sleep(50);
            }
            IllegalStateException open = assertThrows(IllegalStateException.class,
                    () -> IgniteLongIndex.open(client, "lonely"));
            assertTrue(open.getMessage().contains("no server node"), open.getMessage());
            IllegalStateException range = assertThrows(IllegalStateException.class, () -> index.rangeCount(0, 10));
            assertTrue(range.getMessage().contains("no server node"), range.getMessage());
            IllegalStateException get = assertThrows(IllegalStateException.class, () -> index.get(5, 0));
            assertTrue(get.getMessage().contains("no server node"), get.getMessage());
        } finally {
            cluster.close();
        }
    }
}
