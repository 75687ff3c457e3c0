package org.bforest.bench.runner;

import java.util.List;
import org.bforest.bench.cli.Options;

/**
 * Everything a run produced, for the table, the CSV and the report writers.
 *
 * @param notes skips, failures and fixes, in the order they happened, each once
 * @param args  the arguments {@code ./bforest bench} was given, or null when not known
 */
public record RunSummary(Options options, Environment environment, List<DatasetInfo> datasets,
                         List<Result> results, List<String> notes, double wallSeconds, List<String> args) {

    public RunSummary {
        args = args == null ? null : List.copyOf(args);
    }

    public RunSummary(Options options, Environment environment, List<DatasetInfo> datasets, List<Result> results,
                      List<String> notes, double wallSeconds) {
        this(options, environment, datasets, results, notes, wallSeconds, null);
    }

    /** The same run, knowing the arguments that started it. */
    public RunSummary withArgs(List<String> args) {
        return new RunSummary(options, environment, datasets, results, notes, wallSeconds, args);
    }
}
