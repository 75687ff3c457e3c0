package org.bforest.bench.runner;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;
import org.bforest.bench.cli.Counts;
import org.bforest.bench.cli.Options;
import org.bforest.bench.datasets.Dataset;
import org.bforest.bench.structures.IndexAdapter;
import org.bforest.bench.structures.Structure;

/**
 * {@code --visit-all}, on one dataset at one size, after its usual cells: the visit-all
 * experiment of Kaczmarek's <em>GPU B+-tree</em> paper (an operation over every value, done where
 * the values are). Each structure of the run is bulk-loaded from the dataset's keys and values,
 * once, and then {@link IndexAdapter#visitSum()} (the sum of every value, by one full visit) runs
 * the warm-ups and the timed repetitions back to back on that build, a full GC before each,
 * outside the clock; then the structure is released, so only one is alive at a time. The OpenCL
 * trees visit on the device in one pass ({@code DeviceIndex.sumValues()}), the bforest trees
 * through {@code forEach}, the peers through their own iteration. Every sum must equal the sum of
 * the loaded values (wrapping), which is also how they agree with each other: a note otherwise.
 */
final class VisitBench {
    private final Options options;
    private final Progress progress;
    private final Notes notes;
    private final IntConsumer advance;

    VisitBench(Options options, Progress progress, Notes notes, IntConsumer advance) {
        this.options = options;
        this.progress = progress;
        this.notes = notes;
        this.advance = advance;
    }

    /** Progress steps a dataset at a size adds: every structure's repetitions. */
    static int steps(Options o) {
        return o.structures().size() * (o.warmups() + o.reps());
    }

    /**
     * The figures on dataset {@code d} ({@code on}: its name for a note) with {@code values}; the
     * structures in {@code unavailable} are skipped with the reason given there.
     */
    List<VisitFigures> run(Dataset d, String on, long[] values, Map<Structure, String> unavailable) {
        long expected = 0;
        for (long v : values) {
            expected += v;
        }
        int steps = options.warmups() + options.reps();
        List<VisitFigures> out = new ArrayList<>();
        for (Structure s : options.structures()) {
            if (unavailable.containsKey(s)) {
                notes.add(s.cliName() + ": no visit-all figures on " + on + ": " + unavailable.get(s));
                advance.accept(steps);
                continue;
            }
            VisitFigures f = structure(s, d, on, values, expected);
            if (f != null) {
                out.add(f);
            }
        }
        return out;
    }

    /** One structure: build, the repetitions, the checks; null (and a note) if it could not run. */
    private VisitFigures structure(Structure s, Dataset d, String on, long[] values, long expected) {
        int steps = options.warmups() + options.reps();
        String who = s.cliName();
        IndexAdapter a = null;
        int r = 0;
        try {
            progress.step(who + " " + d.name() + (options.sweep() ? " " + Counts.format(d.keyCount()) + " keys" : "")
                    + " visit-all: build");
            HeapMeter.collect();
            a = s.newAdapter();
            a.build(d.loaded(), values);
            long entries = a.size();
            double[] mops = new double[options.reps()];
            long first = 0;
            for (; r < steps; r++) {
                boolean timed = r >= options.warmups();
                progress.step(who + " " + d.name() + " visit-all" + (timed ? " rep " + (r - options.warmups() + 1) + "/"
                        + options.reps() : " warm-up " + (r + 1) + "/" + options.warmups()));
                HeapMeter.collect();
                long t0 = System.nanoTime();
                long sum = a.visitSum();
                double seconds = (System.nanoTime() - t0) / 1e9;
                Blackhole.consume(sum);
                if (r == 0) {
                    first = sum;
                    if (sum != expected) {
                        notes.add(who + " on " + on + ": visit-all summed the values to " + sum + ", but the loaded"
                                + " values sum to " + expected + ": its visit is wrong");
                    }
                } else if (sum != first) {
                    notes.add(who + " on " + on + ": visit-all repetitions returned different sums (" + first
                            + " then " + sum + ")");
                }
                if (timed) {
                    mops[r - options.warmups()] = entries / seconds / 1e6;
                }
                advance.accept(1);
            }
            return new VisitFigures(s, d.name(), d.keyCount(), entries, mops, first);
        } catch (UnsupportedOperationException e) {
            notes.add(who + ": no visit-all figures on " + on + ": " + what(e));
        } catch (OutOfMemoryError e) {
            notes.add(who + " ran out of heap on " + on + " under --visit-all (max heap "
                    + BenchmarkRunner.gb(Runtime.getRuntime().maxMemory()) + "); give the JVM more, e.g."
                    + " BFOREST_JVM_OPTS=-Xmx24g");
        } catch (RuntimeException e) {
            StackTraceElement[] trace = e.getStackTrace();
            notes.add(who + " failed on " + on + " under --visit-all: " + what(e)
                    + (trace.length > 0 ? " at " + trace[0] : ""));
        } finally {
            if (a != null) {
                a.release();
            }
        }
        advance.accept(steps - r);
        return null;
    }

    private static String what(Throwable e) {
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }
}
