package org.bforest.ignite;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.apache.ignite.configuration.DataRegionConfiguration;
import org.apache.ignite.configuration.DataStorageConfiguration;
import org.apache.ignite.configuration.IgniteConfiguration;
import org.apache.ignite.failure.StopNodeFailureHandler;
import org.apache.ignite.logger.NullLogger;
import org.apache.ignite.spi.communication.tcp.TcpCommunicationSpi;
import org.apache.ignite.spi.discovery.tcp.TcpDiscoverySpi;
import org.apache.ignite.spi.discovery.tcp.ipfinder.vm.TcpDiscoveryVmIpFinder;

/**
 * Ignite node configurations for a small cluster inside one machine, for tests and trials: every
 * socket on {@code 127.0.0.1} only, nothing multicast, small memory and thread pools, no log
 * output, and a failure stops the node rather than the JVM. Nodes started from these
 * configurations with the same discovery port, in one JVM or in several on one machine, find each
 * other and no node on another machine.
 *
 * <pre>{@code
 * Ignite a = Ignition.start(LoopbackNodes.configuration("a", workDir));
 * Ignite b = Ignition.start(LoopbackNodes.configuration("b", workDir));   // joins a
 * }</pre>
 *
 * <p>What each node gets:
 * <ul>
 *   <li>discovery on {@code 127.0.0.1}, its port the first free one from the discovery port on
 *       (10 in all), finding the others through a static list of those 10 addresses; communication
 *       the same from the communication port on; {@code localHost} {@code 127.0.0.1};</li>
 *   <li>no thin-client connector and no REST connector (no other ports open), no peer class
 *       loading, no metrics log, a {@link NullLogger};</li>
 *   <li>a default data region of 256 MB off-heap, all of it from the start (Ignite's default
 *       starts there and grows to 20% of the machine's memory per node), thread pools of 2
 *       threads;</li>
 *   <li>the rebalancing events index caches need ({@link IgniteLongIndex#serverConfiguration});</li>
 *   <li>a {@link StopNodeFailureHandler}: Ignite's default handler halts the whole JVM on a
 *       critical failure, test runner included;</li>
 *   <li>its files (marshaller mappings, per-node folders) under the given work directory; the
 *       system property {@code IGNITE_UPDATE_NOTIFIER} set to {@code false} when it is unset, so
 *       that no node asks the internet for a newer version; and
 *       {@code IGNITE_DUMP_PAGE_LOCK_ON_FAILURE} likewise, so that a thread that stalls on a busy
 *       machine does not make Ignite write page-lock dumps beside its jar (its home, guessed,
 *       not the work directory).</li>
 * </ul>
 *
 * <p>For a real cluster, start from Ignite's defaults rather than from this, and set: the
 * discovery addresses (a {@link TcpDiscoveryVmIpFinder} listing the server hosts, or another IP
 * finder) and {@code localHost} to the address the other hosts reach this one on; the JVM flags,
 * which every JVM that runs a node needs on JDK 17 and newer (the 24 {@code --add-opens} of
 * Ignite's Java 17 list, as in this module's test configuration, and on JDK 24 and newer
 * {@code --sun-misc-unsafe-memory-access=allow}); the heap, and the data region's size, to what
 * the data needs; a logger; and a failure handler (Ignite's default, which halts a failed node's
 * JVM, is right for a dedicated server JVM).
 */
public final class LoopbackNodes {
    /** The first discovery port, Ignite's default. */
    public static final int DISCOVERY_PORT = 47500;
    /** The first communication port, Ignite's default. */
    public static final int COMMUNICATION_PORT = 47100;
    /** How many ports from the first each kind may use: as many nodes on the machine. */
    public static final int PORT_RANGE = 10;

    private static final String LOOPBACK = "127.0.0.1";
    // Allocated whole at start: a region that grew from 64 MB crashed a test JVM once (SIGSEGV in
    // Ignite's page memory copying a page past the end of a chunk while a cache was created);
    // Ignite's own default starts at 256 MB too.
    private static final long REGION_INITIAL = 256L << 20;
    private static final long REGION_MAX = 256L << 20;
    private static final int POOL = 2;

    private LoopbackNodes() {
    }

    /**
     * A loopback node's configuration on Ignite's default ports ({@value #DISCOVERY_PORT} for
     * discovery, {@value #COMMUNICATION_PORT} for communication).
     *
     * @param instanceName the node's name, unique in the JVM
     * @param workDirectory where the node keeps its files
     * @return a new configuration, to adjust further or pass to {@code Ignition.start}
     * @throws NullPointerException if an argument is null
     */
    public static IgniteConfiguration configuration(String instanceName, Path workDirectory) {
        return configuration(instanceName, workDirectory, DISCOVERY_PORT, COMMUNICATION_PORT);
    }

    /**
     * A loopback node's configuration on other ports: nodes find each other when they share the
     * discovery port, and only then, so two clusters on one machine (say, two test runs at once)
     * stay apart with discovery ports at least {@value #PORT_RANGE} apart.
     *
     * @param instanceName      the node's name, unique in the JVM
     * @param workDirectory     where the node keeps its files
     * @param discoveryPort     the first discovery port; the node takes the first free one of the
     *                          {@value #PORT_RANGE} from it on
     * @param communicationPort the first communication port, likewise
     * @return a new configuration, to adjust further or pass to {@code Ignition.start}
     * @throws NullPointerException     if {@code instanceName} or {@code workDirectory} is null
     * @throws IllegalArgumentException if a port range does not fit in {@code [1, 65535]}
     */
    public static IgniteConfiguration configuration(String instanceName, Path workDirectory, int discoveryPort,
            int communicationPort) {
        Objects.requireNonNull(instanceName, "instanceName");
        Objects.requireNonNull(workDirectory, "workDirectory");
        checkPort("discoveryPort", discoveryPort);
        checkPort("communicationPort", communicationPort);
        for (String off : new String[] {"IGNITE_UPDATE_NOTIFIER", "IGNITE_DUMP_PAGE_LOCK_ON_FAILURE"}) {
            if (System.getProperty(off) == null) {
                System.setProperty(off, "false");
            }
        }
        String addresses = LOOPBACK + ":" + discoveryPort + ".." + (discoveryPort + PORT_RANGE - 1);
        return IgniteLongIndex.serverConfiguration(new IgniteConfiguration())
                .setIgniteInstanceName(instanceName)
                .setLocalHost(LOOPBACK)
                .setWorkDirectory(workDirectory.toAbsolutePath().toString())
                .setDiscoverySpi(new TcpDiscoverySpi()
                        .setLocalAddress(LOOPBACK)
                        .setLocalPort(discoveryPort)
                        .setLocalPortRange(PORT_RANGE - 1)
                        .setIpFinder(new TcpDiscoveryVmIpFinder().setAddresses(List.of(addresses))))
                .setCommunicationSpi(new TcpCommunicationSpi()
                        .setLocalAddress(LOOPBACK)
                        .setLocalPort(communicationPort)
                        .setLocalPortRange(PORT_RANGE - 1))
                .setClientConnectorConfiguration(null)
                .setConnectorConfiguration(null)
                .setPeerClassLoadingEnabled(false)
                .setMetricsLogFrequency(0)
                .setGridLogger(new NullLogger())
                .setFailureHandler(new StopNodeFailureHandler())
                .setDataStorageConfiguration(new DataStorageConfiguration()
                        .setDefaultDataRegionConfiguration(new DataRegionConfiguration()
                                .setName("default")
                                .setInitialSize(REGION_INITIAL)
                                .setMaxSize(REGION_MAX)))
                .setPublicThreadPoolSize(POOL)
                .setSystemThreadPoolSize(POOL)
                .setStripedPoolSize(POOL)
                .setQueryThreadPoolSize(POOL)
                .setServiceThreadPoolSize(POOL)
                .setDataStreamerThreadPoolSize(POOL)
                .setManagementThreadPoolSize(POOL)
                .setRebalanceThreadPoolSize(1)
                .setUtilityCachePoolSize(POOL)
                .setAsyncCallbackPoolSize(POOL)
                .setPeerClassLoadingThreadPoolSize(POOL);
    }

    private static void checkPort(String name, int port) {
        if (port < 1 || port + PORT_RANGE - 1 > 65_535) {
            throw new IllegalArgumentException(name + " " + port + " leaves no room for " + PORT_RANGE
                    + " ports: it must be in [1, " + (65_536 - PORT_RANGE) + "]");
        }
    }
}
