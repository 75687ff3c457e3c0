package org.bforest.bench.output;

import java.io.IOException;
import java.nio.file.Path;
import org.bforest.bench.runner.RunSummary;

/**
 * One part of the {@code --report DIR} output: {@link CsvReport} (results.csv),
 * {@link TextReport} (summary.txt) and {@link HtmlReport} (index.html), listed in {@link Reports}.
 */
public interface ReportWriter {
    /** Writes its file(s) into {@code dir} (which exists) and returns the main one. */
    Path write(RunSummary run, Path dir) throws IOException;
}
