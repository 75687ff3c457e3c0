package org.bforest.ignite;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.ignite.Ignite;
import org.apache.ignite.Ignition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The index while the cluster changes under a write-heavy run: a node stopped, a node killed (a
 * server in a process of its own, ended with {@code SIGKILL}), a node joining. One writer puts
 * and deletes, retrying a write that fails while the topology changes (every write here is
 * idempotent) until it is acknowledged, and checks its reads against a model of the acknowledged
 * writes as it goes: no read may give a wrong answer, before, during or after the change. When the
 * run ends and the cluster has settled, every acknowledged write is there, every key answers, a
 * walk of the whole index equals the model and every node's trees equal its cache copies.
 *
 * <p>Bounded: each run is a fixed number of operations with a deadline, each retry loop a
 * deadline, the child process a watchdog of its own.
 */
class IgniteLongIndexFaultTest {
    private static final int PARTITIONS = 64;
    /** Operations a run: 2,500; 20,000 under {@code ./bforest test --soak}. */
    private static final int OPS = Integer.getInteger("bforest.ignite.faultOps",
            Boolean.getBoolean("bforest.soak") ? 20_000 : 2_500);
    private static final long DEADLINE_MILLIS = Boolean.getBoolean("bforest.soak") ? 900_000 : 120_000;

    @AfterAll
    static void stopEverything() {
        Ignition.stopAll(true);
    }

    @Test
    @Timeout(value = 1_200, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aNodeStoppedMidRunLosesNothing(@TempDir Path work) throws Exception {
        try (TestCluster cluster = TestCluster.start(work, "stop", 3)) {
            Ignite victim = cluster.node(2);
            runThrough(cluster.node(0), () -> cluster.stop(victim), 2);
        }
    }

    @Test
    @Timeout(value = 1_200, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aKilledNodeProcessLosesNothing(@TempDir Path work) throws Exception {
        try (TestCluster cluster = TestCluster.start(work, "kill", 2)) {
            Process child = startChild(cluster, "kill-child");
            try {
                awaitServers(cluster.node(0), 3);
                runThrough(cluster.node(0), () -> {
                    child.destroyForcibly(); // SIGKILL: no goodbye to the cluster
                    try {
                        child.waitFor(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }, 2);
            } finally {
                child.destroyForcibly();
            }
        }
    }

    @Test
    @Timeout(value = 1_200, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aJoiningNodeTakesItsPartitionsWithoutAWrongAnswer(@TempDir Path work) throws Exception {
        try (TestCluster cluster = TestCluster.start(work, "join", 2)) {
            runThrough(cluster.node(0), cluster::startNode, 3);
        }
    }

    /**
     * Fills an index, then runs the writer; a third of the way in, {@code change} runs on a thread
     * of its own while the writer goes on. Then waits for the cluster to settle with
     * {@code serversAfter} servers and checks everything.
     */
    private static void runThrough(Ignite client, Runnable change, int serversAfter) throws Exception {
        long seed = Long.getLong("bforest.ignite.seed", System.nanoTime());
        try (IgniteLongIndex index = IgniteLongIndex.create(client, "faults", RangePartitions.even(PARTITIONS))) {
            SplittableRandom rnd = new SplittableRandom(seed);
            TreeMap<Long, Long> model = new TreeMap<>();
            long[] pool = new long[20_000];
            long[] values = new long[pool.length];
            for (int i = 0; i < pool.length; i++) {
                pool[i] = rnd.nextLong();
                values[i] = rnd.nextLong();
                model.put(pool[i], values[i]);
            }
            index.load(pool, values);
            assertEquals(model.size(), index.size(), "size after the load");

            long deadline = System.currentTimeMillis() + DEADLINE_MILLIS;
            AtomicReference<Throwable> changeFailed = new AtomicReference<>();
            Thread changer = null;
            int retries = 0;
            for (int op = 0; op < OPS && System.currentTimeMillis() < deadline; op++) {
                if (op == OPS / 3) {
                    changer = new Thread(() -> {
                        try {
                            change.run();
                        } catch (Throwable t) {
                            changeFailed.set(t);
                        }
                    }, "topology-change");
                    changer.start();
                }
                long k = rnd.nextInt(4) == 0 ? rnd.nextLong() : pool[rnd.nextInt(pool.length)];
                int roll = rnd.nextInt(10);
                String what = "seed " + seed + ", op " + op + ": ";
                if (roll < 5) {
                    long v = rnd.nextLong();
                    retries += retry(() -> index.put(k, v), deadline);
                    model.put(k, v);
                } else if (roll < 7) {
                    retries += retry(() -> index.delete(k), deadline);
                    model.remove(k);
                } else if (roll < 9) {
                    long got = retryRead(() -> index.get(k, ABSENT), deadline);
                    assertEquals(model.getOrDefault(k, ABSENT), got, what + "get " + k);
                } else {
                    long lo = Math.min(k, k + 1_000_000_000_000_000L);
                    long hi = Math.max(k, k + 1_000_000_000_000_000L);
                    long got = retryRead(() -> index.rangeCount(lo, true, hi, false), deadline);
                    assertEquals(model.subMap(lo, true, hi, false).size(), got, what + "rangeCount [" + lo + ", " + hi
                            + ")");
                }
            }
            if (changer != null) {
                changer.join(60_000);
            }
            if (changeFailed.get() != null) {
                throw new AssertionError("the topology change failed", changeFailed.get());
            }
            awaitServers(client, serversAfter);
            settle(index, model, deadline);
            for (Map.Entry<Long, Long> e : model.entrySet()) {
                assertEquals(e.getValue(), index.get(e.getKey(), ABSENT), "seed " + seed + ": key " + e.getKey()
                        + " after the change (" + retries + " writes retried)");
            }
            List<long[]> walk = new ArrayList<>();
            index.forEach((key, value) -> walk.add(new long[] {key, value}));
            assertEquals(model.size(), walk.size(), "seed " + seed + ": a walk of the whole index");
            int i = 0;
            for (Map.Entry<Long, Long> e : model.entrySet()) {
                assertEquals(e.getKey(), walk.get(i)[0], "seed " + seed + ": walk key #" + i);
                assertEquals(e.getValue(), walk.get(i)[1], "seed " + seed + ": walk value #" + i);
                i++;
            }
        }
    }

    private static final long ABSENT = 0x5EED;

    /** Waits (bounded) until the trees equal the caches and the size is the model's. */
    private static void settle(IgniteLongIndex index, TreeMap<Long, Long> model, long deadline)
            throws InterruptedException {
        List<String> problems = List.of("not checked");
        long size = -1;
        while (System.currentTimeMillis() < deadline) {
            try {
                problems = index.verify();
                size = index.size();
                if (problems.isEmpty() && size == model.size()) {
                    return;
                }
            } catch (RuntimeException e) {
                problems = List.of(e.toString());
            }
            Thread.sleep(200);
        }
        assertEquals(List.of(), problems, "trees against caches after the change");
        assertEquals(model.size(), size, "size after the change");
    }

    private static int retry(Runnable write, long deadline) throws InterruptedException {
        for (int attempt = 0; ; attempt++) {
            try {
                write.run();
                return attempt;
            } catch (RuntimeException e) {
                if (System.currentTimeMillis() > deadline) {
                    throw e;
                }
                Thread.sleep(20);
            }
        }
    }

    private static long retryRead(Supplier<Long> read, long deadline) throws InterruptedException {
        while (true) {
            try {
                return read.get();
            } catch (RuntimeException e) {
                if (System.currentTimeMillis() > deadline) {
                    throw e;
                }
                Thread.sleep(20);
            }
        }
    }

    private static void awaitServers(Ignite node, int n) throws InterruptedException {
        long end = System.currentTimeMillis() + 60_000;
        while (node.cluster().forServers().nodes().size() != n && System.currentTimeMillis() < end) {
            Thread.sleep(50);
        }
        assertEquals(n, node.cluster().forServers().nodes().size(), "server nodes");
    }

    /** Starts a server node in a JVM of its own, with this JVM's Ignite flags and class path; returns once it joined. */
    private static Process startChild(TestCluster cluster, String name) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--add-opens") || arg.startsWith("--sun-misc") || arg.startsWith("-Djava.net")
                    || arg.startsWith("-DIGNITE")) {
                cmd.add(arg);
            }
        }
        cmd.addAll(List.of("-Xmx512m", "-cp", System.getProperty("java.class.path"), ServerNodeMain.class.getName(),
                name, cluster.work.toString(), String.valueOf(cluster.discoveryPort),
                String.valueOf(cluster.communicationPort), String.valueOf(TestCluster.FAILURE_DETECTION_MILLIS)));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        long end = System.currentTimeMillis() + 60_000;
        String line;
        while (System.currentTimeMillis() < end && (line = out.readLine()) != null) {
            if (line.equals("READY")) {
                Thread drain = new Thread(() -> {
                    try {
                        while (out.readLine() != null) {
                            // keep its pipe from filling
                        }
                    } catch (IOException ignored) {
                        // it died: the point of the test
                    }
                });
                drain.setDaemon(true);
                drain.start();
                return p;
            }
            seen.append(line).append('\n');
        }
        p.destroyForcibly();
        throw new IOException("the child server node did not start:\n" + seen);
    }
}
