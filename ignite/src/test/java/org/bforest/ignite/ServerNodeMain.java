package org.bforest.ignite;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import org.apache.ignite.Ignite;
import org.apache.ignite.Ignition;

/**
 * A server node in a process of its own, for the test that kills one: started with the node's
 * name, work directory, discovery and communication ports and failure detection timeout, it
 * prints {@code READY} once it joined and runs until its standard input closes (the test ends it
 * so, or kills it), or at most five minutes.
 */
public final class ServerNodeMain {
    private ServerNodeMain() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        Ignite node = Ignition.start(LoopbackNodes.configuration(args[0], Path.of(args[1]), Integer.parseInt(args[2]),
                Integer.parseInt(args[3])).setFailureDetectionTimeout(Long.parseLong(args[4])));
        System.out.println("READY");
        System.out.flush();
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(300_000);
            } catch (InterruptedException e) {
                return;
            }
            Runtime.getRuntime().halt(3);
        });
        watchdog.setDaemon(true);
        watchdog.start();
        InputStream in = System.in;
        while (in.read() >= 0) {
            // until the parent closes our input
        }
        node.close();
        System.exit(0);
    }
}
