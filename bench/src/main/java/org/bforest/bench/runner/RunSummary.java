package org.bforest.bench.runner;

import java.util.List;
import org.bforest.bench.cli.Options;

/**
 * Everything a run produced, for the table, the CSV and the report writers.
 *
 * @param notes skips, failures and fixes, in the order they happened, each once
 * @param args  the arguments {@code ./bforest bench} was given, or null when not known
 * @param snapshots {@code --snapshot}'s figures, per dataset and size in the order they ran (empty
 *                  without it)
 * @param visits    {@code --visit-all}'s figures, per dataset and size in the order they ran (empty
 *                  without it)
 */
public record RunSummary(Options options, Environment environment, List<DatasetInfo> datasets,
                         List<Result> results, List<String> notes, double wallSeconds, List<String> args,
                         List<SnapshotFigures> snapshots, List<VisitFigures> visits) {

    public RunSummary {
        args = args == null ? null : List.copyOf(args);
        snapshots = snapshots == null ? List.of() : List.copyOf(snapshots);
        visits = visits == null ? List.of() : List.copyOf(visits);
    }

    public RunSummary(Options options, Environment environment, List<DatasetInfo> datasets, List<Result> results,
                      List<String> notes, double wallSeconds, List<String> args, List<SnapshotFigures> snapshots) {
        this(options, environment, datasets, results, notes, wallSeconds, args, snapshots, List.of());
    }

    public RunSummary(Options options, Environment environment, List<DatasetInfo> datasets, List<Result> results,
                      List<String> notes, double wallSeconds, List<String> args) {
        this(options, environment, datasets, results, notes, wallSeconds, args, List.of());
    }

    public RunSummary(Options options, Environment environment, List<DatasetInfo> datasets, List<Result> results,
                      List<String> notes, double wallSeconds) {
        this(options, environment, datasets, results, notes, wallSeconds, null, List.of());
    }

    /** The same run, knowing the arguments that started it. */
    public RunSummary withArgs(List<String> args) {
        return new RunSummary(options, environment, datasets, results, notes, wallSeconds, args, snapshots, visits);
    }
}
