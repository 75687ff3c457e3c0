package org.bforest.bench.runner;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A single line on a terminal, redrawn a few times a second by a daemon thread:
 * {@code [#########---------]  47%  19/40  treemap uniform C rep 2/3 run 63%  1:12 ~1:21 left}.
 * Notes are printed above it.
 */
final class ProgressBar extends Progress {
    private static final int BAR = 24;
    private final PrintStream err;
    private final int columns;
    private final Thread painter;
    private volatile boolean closed;

    ProgressBar(PrintStream err) {
        this.err = err;
        int cols = 100;
        try {
            String c = System.getenv("COLUMNS");
            if (c != null) {
                cols = Math.max(40, Integer.parseInt(c.trim()));
            }
        } catch (NumberFormatException e) {
            // keep 100
        }
        this.columns = cols;
        this.painter = Thread.ofPlatform().daemon().name("bforest-progress").start(this::paintLoop);
    }

    private void paintLoop() {
        while (!closed) {
            paint();
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private synchronized void paint() {
        if (closed) {
            return;
        }
        double f = fraction();
        int filled = (int) Math.round(f * BAR);
        double elapsed = elapsedSeconds();
        String eta = f > 0.02 ? " ~" + clock(elapsed / f * (1 - f)) + " left" : "";
        String run = phase.isEmpty() ? "" : " " + phase
                + (workTotal > 0 ? String.format(Locale.ROOT, " %d%%", Math.round(100.0 * workDone / workTotal)) : "");
        String line = String.format(Locale.ROOT, "[%s%s] %3d%% %d/%d %s%s  %s%s", "#".repeat(filled),
                "-".repeat(BAR - filled), Math.round(100 * f), done, total, label, run, clock(elapsed), eta);
        if (line.length() > columns - 1) {
            line = line.substring(0, columns - 1);
        }
        err.print("\r\033[K" + line);
        err.flush();
    }

    @Override
    public synchronized void note(String text) {
        err.print("\r\033[K");
        err.println("note: " + text);
        err.flush();
    }

    @Override
    public synchronized void close() {
        closed = true;
        painter.interrupt();
        err.print("\r\033[K");
        err.flush();
    }
}
