package org.bforest.ignite.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.ignite.Ignite;
import org.apache.ignite.Ignition;
import org.bforest.ignite.LoopbackNodes;

/**
 * Server nodes started in this JVM, on loopback only ({@link LoopbackNodes}), on the first free
 * blocks of ports from Ignite's defaults on, with a work directory of their own that is deleted
 * when they stop. The nodes still talk to each other through their TCP communication and
 * discovery over 127.0.0.1, and marshal every message, as nodes on several machines do; what they
 * do not pay is a physical network's latency, and they share this JVM's heap and cores.
 */
public final class EmbeddedCluster implements AutoCloseable {
    private final List<Ignite> nodes = new ArrayList<>();
    private final Path work;

    /**
     * Starts {@code servers} server nodes.
     *
     * @param servers how many, at least 1 and at most {@link LoopbackNodes#PORT_RANGE}
     * @throws IllegalArgumentException if {@code servers} is out of range
     */
    public EmbeddedCluster(int servers) {
        if (servers < 1 || servers > LoopbackNodes.PORT_RANGE) {
            throw new IllegalArgumentException("--nodes must be between 1 and " + LoopbackNodes.PORT_RANGE
                    + ", got " + servers);
        }
        try {
            work = Files.createTempDirectory("bforest-ignite-");
        } catch (IOException e) {
            throw new UncheckedIOException("no temporary folder for the Ignite nodes' files", e);
        }
        int discovery = freeBlock(LoopbackNodes.DISCOVERY_PORT);
        int communication = freeBlock(LoopbackNodes.COMMUNICATION_PORT);
        try {
            for (int i = 0; i < servers; i++) {
                nodes.add(Ignition.start(LoopbackNodes.configuration("bench-" + i + "-" + discovery, work, discovery,
                        communication)));
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** The node the benchmark calls through: the first. */
    public Ignite entry() {
        return nodes.get(0);
    }

    public int size() {
        return nodes.size();
    }

    @Override
    public void close() {
        for (Ignite n : nodes) {
            try {
                n.close();
            } catch (RuntimeException ignored) {
                // the others still stop
            }
        }
        nodes.clear();
        try (var files = Files.walk(work)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException ignored) {
            // a temporary folder left behind is harmless
        }
    }

    /** The first port from {@code from} on, in steps of the port range, whose whole range is free on loopback. */
    private static int freeBlock(int from) {
        for (int base = from; base + LoopbackNodes.PORT_RANGE <= 65_535; base += LoopbackNodes.PORT_RANGE) {
            if (free(base)) {
                return base;
            }
        }
        throw new IllegalStateException("no " + LoopbackNodes.PORT_RANGE + " free loopback ports from " + from + " on");
    }

    private static boolean free(int base) {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        for (int port = base; port < base + LoopbackNodes.PORT_RANGE; port++) {
            try (ServerSocket s = new ServerSocket(port, 1, loopback)) {
                s.setReuseAddress(true);
            } catch (IOException busy) {
                return false;
            }
        }
        return true;
    }
}
