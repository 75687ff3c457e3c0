package org.bforest.ignite;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.ignite.Ignite;
import org.apache.ignite.Ignition;

/**
 * Server nodes for one test, in this JVM, on loopback ports of their own (a block of free ports
 * picked at random, so that two test runs on one machine stay two clusters).
 */
final class TestCluster implements AutoCloseable {
    /** A killed node is noticed within this (Ignite's default is 10 s). */
    static final long FAILURE_DETECTION_MILLIS = 3_000;
    final Path work;
    final int discoveryPort;
    final int communicationPort;
    private final String prefix;
    private final List<Ignite> nodes = new ArrayList<>();
    private int started;

    TestCluster(Path work, String prefix) throws IOException {
        this.work = work;
        this.prefix = prefix;
        this.discoveryPort = freePortBlock(0);
        this.communicationPort = freePortBlock(discoveryPort + LoopbackNodes.PORT_RANGE);
    }

    /** Starts {@code n} server nodes and returns the first of them. */
    static TestCluster start(Path work, String prefix, int n) throws IOException {
        TestCluster c = new TestCluster(work, prefix);
        for (int i = 0; i < n; i++) {
            c.startNode();
        }
        return c;
    }

    /** Starts one more server node in this JVM. */
    Ignite startNode() {
        Ignite node = Ignition.start(LoopbackNodes.configuration(prefix + "-" + started++, work, discoveryPort,
                communicationPort).setFailureDetectionTimeout(FAILURE_DETECTION_MILLIS));
        nodes.add(node);
        return node;
    }

    Ignite node(int i) {
        return nodes.get(i);
    }

    List<Ignite> nodes() {
        return List.copyOf(nodes);
    }

    /** Stops node {@code node} gracefully and forgets it. */
    void stop(Ignite node) {
        nodes.remove(node);
        node.close();
    }

    @Override
    public void close() {
        for (Ignite node : nodes) {
            try {
                node.close();
            } catch (RuntimeException ignored) {
                // the others still stop
            }
        }
        nodes.clear();
    }

    static int freePortBlock(int from) throws IOException {
        SplittableRandom rnd = new SplittableRandom();
        for (int attempt = 0; attempt < 100; attempt++) {
            int base = from > 0 && attempt == 0 ? from : 20_000 + 10 * rnd.nextInt(2_000);
            if (blockIsFree(base)) {
                return base;
            }
        }
        throw new IOException("no block of " + LoopbackNodes.PORT_RANGE + " free loopback ports found");
    }

    private static boolean blockIsFree(int base) {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        for (int port = base; port < base + LoopbackNodes.PORT_RANGE; port++) {
            try (ServerSocket s = new ServerSocket(port, 1, loopback)) {
                assertTrue(s.isBound());
            } catch (IOException busy) {
                return false;
            }
        }
        return true;
    }
}
