package org.bforest.bench.output;

import java.io.IOException;
import java.nio.file.Path;
import org.bforest.bench.runner.RunSummary;

/** results.csv in the report folder (the same format as {@code --csv}). */
public final class CsvReport implements ReportWriter {
    @Override
    public Path write(RunSummary run, Path dir) throws IOException {
        Path file = dir.resolve("results.csv");
        CsvWriter.write(run, file);
        return file;
    }
}
