package org.bforest.bench.output;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bforest.bench.runner.RunSummary;

/** A run's CSV as the tests read it: each row a map from column name to field, commas inside quotes kept. */
final class CsvRows {
    private CsvRows() {
    }

    static List<Map<String, String>> of(RunSummary run) throws IOException {
        StringBuilder sb = new StringBuilder();
        CsvWriter.write(run, sb);
        String[] lines = sb.toString().split("\n");
        String[] header = lines[0].split(",");
        List<Map<String, String>> rows = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            String[] f = lines[i].split(",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)", -1);
            assertEquals(header.length, f.length, lines[i]);
            Map<String, String> row = new HashMap<>();
            for (int c = 0; c < f.length; c++) {
                row.put(header[c], f[c]);
            }
            rows.add(row);
        }
        return rows;
    }
}
