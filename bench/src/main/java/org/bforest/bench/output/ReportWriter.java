package org.bforest.bench.output;

import java.io.IOException;
import java.nio.file.Path;
import org.bforest.bench.runner.RunSummary;

/**
 * One part of the {@code --report DIR} output. Today: {@link CsvReport} (results.csv) and
 * {@link TextReport} (summary.txt); the HTML report with charts will be one more implementation
 * listed in {@link Reports}.
 */
public interface ReportWriter {
    /** Writes its file(s) into {@code dir} (which exists) and returns the main one. */
    Path write(RunSummary run, Path dir) throws IOException;
}
