package org.bforest.bench.runner;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.bforest.bench.cli.ProgressMode;

/**
 * The progress display on stderr: how many steps (one build and run of one repetition) are done
 * of how many, what runs now, and how far along the current run is. {@link #work} is called
 * from the timed loop between chunks of operations, so it only stores a number.
 */
public abstract class Progress implements AutoCloseable {
    private final long startNanos = System.nanoTime();
    protected volatile int total = 1;
    protected volatile int done;
    protected volatile String label = "starting";
    protected volatile String phase = "";
    protected volatile long workDone;
    protected volatile long workTotal;

    /** The display the mode asks for, on {@code err}. */
    public static Progress create(ProgressMode mode, PrintStream err) {
        ProgressMode m = mode == ProgressMode.AUTO ? (stderrIsTerminal() ? ProgressMode.BAR : ProgressMode.PLAIN) : mode;
        return switch (m) {
            case BAR -> new ProgressBar(err);
            case PLAIN -> new PlainProgress(err);
            default -> new Silent();
        };
    }

    /**
     * Whether stderr is a terminal: on Linux, whether fd 2 links to a tty device; elsewhere,
     * whether Java sees a terminal console.
     */
    static boolean stderrIsTerminal() {
        try {
            Path fd2 = Path.of("/proc/self/fd/2");
            if (Files.isSymbolicLink(fd2)) {
                String target = Files.readSymbolicLink(fd2).toString();
                return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
            }
        } catch (Exception e) {
            // fall through
        }
        return System.console() != null && System.console().isTerminal();
    }

    public void total(int steps) {
        total = Math.max(1, steps);
    }

    /** A new step begins ({@code label} says which). */
    public void step(String stepLabel) {
        label = stepLabel;
        phase = "";
        workDone = 0;
        workTotal = 0;
        stepStarted();
    }

    /** What the current step is doing now ("build", "run"). */
    public void phase(String text) {
        phase = text;
    }

    /** Of the current run, {@code doneOps} of {@code totalOps} are done. */
    public void work(long doneOps, long totalOps) {
        workTotal = totalOps;
        workDone = doneOps;
    }

    /** The current step is done (or skipped); {@code n} steps are done. */
    public void stepsDone(int n) {
        done = n;
    }

    /** A message that must be seen (a skip, a failure). */
    public abstract void note(String text);

    /** Something for the plain display only (the bar shows it anyway). */
    protected void stepStarted() {
    }

    @Override
    public void close() {
    }

    protected double fraction() {
        double within = workTotal > 0 ? Math.min(1.0, (double) workDone / workTotal) : 0;
        return Math.min(1.0, (done + within * 0.9) / total);
    }

    protected double elapsedSeconds() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    protected static String clock(double seconds) {
        long s = Math.round(seconds);
        return s >= 3600 ? String.format("%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format("%d:%02d", s / 60, s % 60);
    }

    /** No display. */
    static final class Silent extends Progress {
        @Override
        public void note(String text) {
        }
    }
}
