package org.bforest.bench.runner;

import java.util.List;
import org.bforest.bench.cli.Options;

/**
 * Everything a run produced, for the table, the CSV and the report writers.
 *
 * @param notes skips, failures and fixes, in the order they happened, each once
 */
public record RunSummary(Options options, Environment environment, List<DatasetInfo> datasets,
                         List<Result> results, List<String> notes, double wallSeconds) {
}
