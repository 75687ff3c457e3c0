package org.bforest.bench.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.bforest.bench.cli.Anchors;
import org.bforest.bench.runner.RunSummary;
import org.bforest.bench.workloads.Workload;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * A batch-size sweep's charts ({@code --batch} with several sizes): one per batched workload, a
 * line per structure on a log axis of the batch size, and each matching {@code --anchors}
 * figure a dashed horizontal line labelled with its source; the table prints the anchors too.
 */
class BatchChartTest {
    private static final List<Integer> SIZES = List.of(16, 1_000, 64_000);
    private static final Anchors ANCHORS = Anchors.of(Path.of("anchors"), List.of(
            new Anchors.Anchor("C++ BS-tree <authors>", "uniform", 100_000, Workload.A, 21.5, "anchors/cpp.csv", 2),
            new Anchors.Anchor("STX B+ tree", "uniform", 100_000, Workload.A, 6.25, "anchors/stx.csv", 2),
            new Anchors.Anchor("C++ BS-tree <authors>", "uniform", 100_000, Workload.B, 3.5, "anchors/cpp.csv", 3),
            new Anchors.Anchor("C++ BS-tree <authors>", "dense", 100_000, Workload.A, 30, "anchors/cpp.csv", 4),
            new Anchors.Anchor("C++ BS-tree <authors>", "uniform", 1_000, Workload.A, 50, "anchors/cpp.csv", 5)));

    @Test
    void aChartPerBatchedWorkloadWithALinePerStructureAndTheAnchorsDashed() throws Exception {
        String html = HtmlReport.render(SyntheticRun.batched(SIZES, ANCHORS));
        Document doc = HtmlReportTest.parse(html);
        List<Element> charts = new ArrayList<>();
        for (Element svg : SvgBoxes.charts(doc)) {
            if (svg.getAttribute("aria-label").contains("against the operations a batched call")) {
                charts.add(svg);
            }
        }
        // A, B, C, E and F; D and W are never batched.
        assertEquals(5, charts.size());
        assertTrue(html.contains("<section id=\"batches\">") && html.contains("Throughput against the batch size"));
        Element a = charts.get(0);
        assertTrue(a.getAttribute("aria-label").startsWith("A read-only on uniform, 100K keys"),
                a.getAttribute("aria-label"));
        // A line per structure that ran batched (sorted-array on A only), a marker per size.
        List<String> legend = texts(a, null).subList(0, 3);
        assertEquals(List.of("bstree", "treemap", "sorted-array"), legend);
        // Titles: the chart's, a marker's per structure and size, a reference line's and its label's.
        assertEquals(1 + 3 * SIZES.size() + 2 * 2, a.getElementsByTagNameNS(SvgBoxes.SVG, "title").getLength());
        // The x axis: the batch sizes on a log scale, decades labelled.
        List<String> decades = texts(a, "decade");
        assertEquals(List.of("10", "100", "1K", "10K", "100K"), decades);
        // The anchors of uniform, 100K keys, A: two dashed lines, labelled with their source and figure.
        List<Element> lines = elements(a, "path", "reference");
        assertEquals(2, lines.size());
        for (Element line : lines) {
            assertFalse(line.getAttribute("stroke-dasharray").isEmpty(), "dashed");
            assertTrue(line.getAttribute("d").matches("M[0-9.]+ [0-9.]+H[0-9.]+"),
                    "horizontal: " + line.getAttribute("d"));
        }
        assertEquals(List.of("C++ BS-tree <authors> 21.5", "STX B+ tree 6.25"), texts(a, "reference"));
        // Each line sits at its figure: the higher figure, the higher line (smaller y).
        double y0 = Double.parseDouble(lines.get(0).getAttribute("d").split("[ H]")[1]);
        double y1 = Double.parseDouble(lines.get(1).getAttribute("d").split("[ H]")[1]);
        assertTrue(y0 < y1, y0 + " " + y1);
        // B has its one anchor; C, E and F have none; dense and 1K keys did not run.
        assertEquals(List.of("C++ BS-tree <authors> 3.50"), texts(charts.get(1), "reference"));
        for (Element other : charts.subList(2, 5)) {
            assertEquals(List.of(), texts(other, "reference"));
        }
        for (Element c : charts) {
            assertEquals(List.of(), SvgBoxes.problems(c), c.getAttribute("aria-label"));
        }
        String lead = html.substring(html.indexOf("<section id=\"batches\">"));
        assertTrue(lead.contains("--anchors anchors"), "the lead names the anchors' folder");
    }

    @Test
    void theAnchorsLabelsStayApartWhenTheirFiguresAreClose() throws Exception {
        SvgLineChart c = new SvgLineChart("t", "x", "y", 560, 210);
        c.series("s", "#1f77b4", Palette.Marker.CIRCLE, null, List.of(new SvgLineChart.Point(16, 5, "a"),
                new SvgLineChart.Point(1000, 20, "b")));
        c.reference("first program 10.0", 10, "8 4", "tip").reference("second program 10.1", 10.1, "2 3", "tip")
                .reference("third 10.2", 10.2, "2 3", "tip").reference("at the top 20.5", 20.5, "2 3", "tip");
        Document doc = HtmlReportTest.parse("<div xmlns=\"http://www.w3.org/1999/xhtml\">" + c.render() + "</div>");
        Element svg = SvgBoxes.charts(doc).get(0);
        assertEquals(List.of(), SvgBoxes.problems(svg));
        assertEquals(4, elements(svg, "text", "reference").size());
    }

    @Test
    void oneSizeDrawsNoChartWithoutAnchorsAndOneWithThem() throws Exception {
        String plain = HtmlReport.render(SyntheticRun.batched(List.of(1024), Anchors.NONE));
        assertFalse(plain.contains("<section id=\"batches\">"));
        String anchored = HtmlReport.render(SyntheticRun.batched(List.of(1024), ANCHORS));
        assertTrue(anchored.contains("<section id=\"batches\">"));
        HtmlReportTest.parse(anchored);
    }

    @Test
    void theTablePrintsTheAnchorsBesideTheFigures() {
        RunSummary run = SyntheticRun.batched(SIZES, ANCHORS);
        String table = ResultTable.render(run);
        int at = table.indexOf("Reference figures on uniform at 100K keys (--anchors anchors)");
        assertTrue(at > 0, table);
        String anchors = table.substring(at);
        assertTrue(anchors.matches("(?s).*\\nsource +A +B +C +D +E +F\\n.*"), anchors);
        assertTrue(anchors.matches("(?s).*\\nC\\+\\+ BS-tree <authors> +21\\.5 +3\\.50 +- +- +- +-\\n.*"), anchors);
        assertTrue(anchors.matches("(?s).*\\nSTX B\\+ tree +6\\.25 +- +- +- +- +-\\n.*"), anchors);
        // The figures of other datasets and sizes matched nothing this run measured: said once.
        assertTrue(table.contains("--anchors: 2 of the 5 reference figures match no dataset, number of keys and"
                + " workload this run measured"), table);
        // Several sizes: a table per batched workload, unbatched beside each size.
        assertTrue(table.contains("A read-only batched (--batch): Mops/s by the operations a call at most"), table);
        assertTrue(table.matches("(?s).*\\nstructure +unbatched +b16 +b1K +b64K\\n.*"), table);
        assertFalse(table.contains("D range-write batched"), table);
        String summary = TextReport.render(run);
        assertTrue(summary.contains("Reference figures on uniform") && summary.contains("- Reference figures"
                + " (--anchors anchors): 5 figures"), summary);
        // One size: its columns beside the workloads', as before.
        String one = ResultTable.render(SyntheticRun.batched(List.of(1024), Anchors.NONE));
        assertTrue(one.matches("(?s).*\\nstructure +A +A/b1024 +B +B/b1024 +C +C/b1024 +D +E +E/b1024 +F +F/b1024"
                + " +build s.*"), one);
    }

    private static List<Element> elements(Element svg, String tag, String cls) {
        List<Element> out = new ArrayList<>();
        NodeList ns = svg.getElementsByTagNameNS(SvgBoxes.SVG, tag);
        for (int i = 0; i < ns.getLength(); i++) {
            Element e = (Element) ns.item(i);
            if (cls.equals(e.getAttribute("class"))) {
                out.add(e);
            }
        }
        return out;
    }

    /** The own texts of the chart's {@code <text>} elements of class {@code cls} (null: every one), in order. */
    private static List<String> texts(Element svg, String cls) {
        List<String> out = new ArrayList<>();
        NodeList ns = svg.getElementsByTagNameNS(SvgBoxes.SVG, "text");
        for (int i = 0; i < ns.getLength(); i++) {
            Element e = (Element) ns.item(i);
            if (cls == null || cls.equals(e.getAttribute("class"))) {
                out.add(SvgBoxes.ownText(e));
            }
        }
        assertNotNull(out);
        return out;
    }
}
