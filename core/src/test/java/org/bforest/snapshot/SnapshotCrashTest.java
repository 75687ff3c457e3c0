package org.bforest.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.bforest.Indexes;
import org.bforest.LongIndex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash safety: a child JVM ({@link SnapshotCrashChild}) writes snapshots of three indexes (A of
 * 200,000 keys, B of 300,000, C of 250,000, each with its own keys and values) in turn over one
 * path; after its first write is complete, the test waits a random time and kills it with SIGKILL.
 * The path must then hold one of them, whole and intact, and the right one: the one the child last
 * reported written, or the next if the kill came between its rename and its report (never the one
 * before: three contents tell the two apart). A temporary file {@code .NAME.tmp-*} may be left by
 * the kill; they are counted and removed.
 *
 * <p>About ten kills in the default run (at most about 30 seconds), 200 under
 * {@code -Dbforest.soak=true}; the seed ({@code -Dbforest.seed}) is in every failure message.
 * A process kill, not a power cut: what the child wrote is in the page cache either way, so this
 * checks the order of write, rename and report, not the {@code force} calls.
 */
class SnapshotCrashTest {
    private static final long SEED = SnapshotFiles.seed(0xC2A5_4_2026L);
    private static final boolean SOAK = SnapshotFiles.soak();
    private static final int ROUNDS = SOAK ? 200 : 10;
    private static final long BUDGET_NANOS = TimeUnit.SECONDS.toNanos(SOAK ? 1200 : 30);

    @TempDir
    Path dir;

    @Test
    void killedWriterLeavesAWholeSnapshot() throws Exception {
        SplittableRandom r = new SplittableRandom(SEED);
        long start = System.nanoTime();
        int rounds = 0;
        int strays = 0;
        int[] found = new int[3];
        int unreported = 0;
        List<String> timeline = new ArrayList<>();
        for (; rounds < ROUNDS && (rounds < 3 || System.nanoTime() - start < BUDGET_NANOS); rounds++) {
            Path round = Files.createDirectory(dir.resolve("round-" + rounds));
            Path file = round.resolve("index.snap");
            Path log = dir.resolve("child-" + rounds + ".log");
            Process child = child(file, log);
            String what = "seed " + SEED + " round " + rounds;
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!Files.exists(file)) {
                    if (!child.isAlive() || System.nanoTime() > deadline) {
                        throw new AssertionError(what + ": the child wrote no snapshot (exit "
                                + (child.isAlive() ? "none" : child.exitValue()) + "):\n" + Files.readString(log));
                    }
                    LockSupport.parkNanos(1_000_000);
                }
                // a random moment in the next few writes (each takes tens of milliseconds)
                long delay = r.nextLong(TimeUnit.MILLISECONDS.toNanos(400));
                LockSupport.parkNanos(delay);
                what += " killed " + delay / 1000 + " us after the first write";
            } finally {
                child.destroyForcibly();
                assertTrue(child.waitFor(30, TimeUnit.SECONDS), what + ": the child did not die");
            }
            List<String> reports = Files.readAllLines(log).stream().filter(l -> l.matches("W \\d+")).toList();
            long n = reports.isEmpty() ? 0 : Long.parseLong(reports.getLast().substring(2));
            what += ", " + n + " writes reported";
            LongIndex back;
            try {
                back = Indexes.load(file);
                Indexes.verifySnapshot(file);
            } catch (IOException e) {
                throw new AssertionError(what + ": " + e, e);
            }
            int c = SnapshotCrashChild.contentOf(back.size());
            assertTrue(c >= 0, what + ": " + back.size() + " keys");
            assertContent(back, c, what);
            // write n is of content (n - 1) % 3: the last reported, or the next one (n + 1) if renamed unreported
            boolean lastReported = n > 0 && c == (n - 1) % 3;
            assertTrue(lastReported || c == n % 3, what + ": found content " + c);
            found[c]++;
            unreported += lastReported ? 0 : 1;
            List<Path> left = SnapshotFiles.strays(file);
            strays += left.size();
            for (Path p : left) {
                Files.delete(p);
            }
            assertEquals(List.of("index.snap"), SnapshotFiles.names(round), what);
            timeline.add(what + " -> content " + c);
        }
        System.out.printf("crash test (seed %d): %d kills in %d ms, found A, B, C %d, %d, %d times (%d renamed but not"
                + " reported), %d temporary files left%n", SEED, rounds, (System.nanoTime() - start) / 1_000_000,
                found[0], found[1], found[2], unreported, strays);
        if (SOAK) {
            timeline.forEach(System.out::println);
        }
    }

    private static void assertContent(LongIndex back, int c, String what) {
        int[] i = {0};
        back.forEach((k, v) -> {
            long ek = SnapshotCrashChild.key(c, i[0]);
            long ev = SnapshotCrashChild.value(c, i[0]);
            if (k != ek || v != ev) {
                throw new AssertionError(what + ": entry " + i[0] + " of content " + c + " is " + k + "=" + v
                        + ", not " + ek + "=" + ev);
            }
            i[0]++;
        });
    }

    /** The same java, with the Vector API if this JVM has it, on this JVM's class path. */
    private static Process child(Path file, Path log) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        if (ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()) {
            cmd.add("--add-modules");
            cmd.add("jdk.incubator.vector");
        }
        cmd.addAll(List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
                "-cp", System.getProperty("java.class.path"), SnapshotCrashChild.class.getName(), file.toString()));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }
}
