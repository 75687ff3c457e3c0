package org.bforest.bench.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.bforest.bench.runner.DeviceFigures;
import org.bforest.bench.runner.Result;
import org.bforest.bench.runner.RunSummary;
import org.bforest.bench.structures.Structure;
import org.junit.jupiter.api.Test;

/** The device columns of the CSV and the text report's device table, on a made-up run with one device row. */
class DeviceColumnsTest {

    private static RunSummary withDeviceRow() {
        RunSummary run = SyntheticRun.create(List.of("uniform"), List.of(1));
        List<Result> results = new ArrayList<>(run.results());
        Result r = results.get(0);
        results.set(0, new Result(Structure.GPU_BTREE, r.dataset(), r.workload(), r.threads(), r.batch(), r.keys(), r.ops(),
                r.mops(), r.repMops(), r.buildSeconds(), 0.04, 30.5, r.heapBytesAfter(), r.ownBytesAfter(), r.checksum(),
                r.window(), new DeviceFigures(5, 12.5, 2.5, 4.25, 5.0, 0.2, 30.25, 3.5, 0.75, 41)));
        return new RunSummary(run.options(), run.environment(), run.datasets(), results, run.notes(), run.wallSeconds(),
                run.args(), run.snapshots());
    }

    private static List<Map<String, String>> csv(RunSummary run) throws IOException {
        return CsvRows.of(run);
    }

    @Test
    void theDeviceColumnsComeLastAndAreFilledOnADeviceIndexsRowsOnly() throws IOException {
        List<String> header = Arrays.asList(CsvWriter.HEADER.split(","));
        assertEquals(List.of("bytes_per_key_own", "device_bytes_per_key", "batches", "batch_ms", "host_ms", "transfer_ms",
                "kernel_ms", "host_share", "heap_kb_batch", "driver_ms", "calls_batch"), header.subList(header.size() - CsvWriter.DEVICE_COLUMNS, header.size()));
        assertEquals("snap_load_kind", header.get(header.size() - CsvWriter.DEVICE_COLUMNS - 1), "appended after every older column");
        int device = 0;
        for (Map<String, String> row : csv(withDeviceRow())) {
            assertTrue(!row.get("bytes_per_key_own").isEmpty(), row.toString());
            if (row.get("structure").equals("gpu-btree")) {
                device++;
                assertEquals("0.04", row.get("bytes_per_key"));
                assertEquals("30.50", row.get("bytes_per_key_own"));
                assertEquals("30.25", row.get("device_bytes_per_key"));
                assertEquals("5.0", row.get("batches"));
                assertEquals("12.500", row.get("batch_ms"));
                assertEquals("2.500", row.get("host_ms"));
                assertEquals("4.250", row.get("transfer_ms"));
                assertEquals("5.000", row.get("kernel_ms"));
                assertEquals("0.200", row.get("host_share"));
                assertEquals("3.5", row.get("heap_kb_batch"));
                assertEquals("0.750", row.get("driver_ms"));
                assertEquals("41.0", row.get("calls_batch"));
            } else {
                for (String c : header.subList(header.size() - CsvWriter.DEVICE_COLUMNS + 1, header.size())) {
                    assertEquals("", row.get(c), c + " on " + row);
                }
            }
        }
        assertEquals(1, device);
    }

    @Test
    void theTextReportHasADeviceTableOnlyWhenADeviceStructureRan() {
        String summary = TextReport.render(withDeviceRow());
        assertTrue(summary.contains("Device time per batch"), summary);
        assertTrue(summary.matches("(?s).*gpu-btree +uniform +1K +A +5 +12\\.5\\d* +2\\.50\\d* +4\\.25\\d* +5\\.00\\d* +20% +0\\.75\\d* +41 .*"),
                summary);
        String plain = TextReport.render(SyntheticRun.create(List.of("uniform"), List.of(1)));
        assertTrue(!plain.contains("Device time per batch"), plain);
    }
}
