package org.bforest.bench.output;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.bforest.bench.runner.RunSummary;

/** Writes every part of the report into one folder. */
public final class Reports {
    private Reports() {
    }

    /** The report's parts, in order. */
    public static List<ReportWriter> writers() {
        return List.of(new CsvReport(), new TextReport(), new HtmlReport());
    }

    /** Writes them all; returns the files written. */
    public static List<Path> write(RunSummary run, Path dir) throws IOException {
        Files.createDirectories(dir);
        List<Path> written = new ArrayList<>();
        for (ReportWriter w : writers()) {
            written.add(w.write(run, dir));
        }
        return written;
    }
}
