package org.bforest.bench.runner;

import java.io.PrintStream;
import java.util.Locale;

/** One line per step, for logs and pipes: {@code [ 12/40  30%  0:41] treemap uniform C rep 2/3}. */
final class PlainProgress extends Progress {
    private final PrintStream err;

    PlainProgress(PrintStream err) {
        this.err = err;
    }

    @Override
    protected void stepStarted() {
        int width = Integer.toString(total).length();
        err.printf(Locale.ROOT, "[%" + width + "d/%d %3d%% %s] %s%n", done + 1, total,
                Math.round(100.0 * done / total), clock(elapsedSeconds()), label);
        err.flush();
    }

    @Override
    public void note(String text) {
        err.println("note: " + text);
        err.flush();
    }
}
