package org.bforest.bench.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.bforest.bench.structures.Structure;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * No label of any chart overlaps another label, a bar or a swatch, or leaves the drawing: the
 * boxes are computed from the SVG's coordinates ({@link SvgBoxes}). The crowded case is the
 * default run's: twenty structures, two datasets, five workloads.
 */
class ChartLayoutTest {

    private static void assertClean(String html, int expectedCharts) throws Exception {
        Document doc = HtmlReportTest.parse(html);
        List<Element> charts = SvgBoxes.charts(doc);
        assertEquals(expectedCharts, charts.size());
        List<String> problems = new ArrayList<>();
        int texts = 0;
        for (int i = 0; i < charts.size(); i++) {
            texts += SvgBoxes.texts(charts.get(i)).size();
            for (String p : SvgBoxes.problems(charts.get(i))) {
                problems.add("chart " + i + " (" + charts.get(i).getAttribute("aria-label") + "): " + p);
            }
        }
        assertTrue(texts > 50 * charts.size() / 4, "too few labels to mean anything: " + texts);
        assertTrue(problems.isEmpty(), problems.size() + " problems, the first: "
                + problems.subList(0, Math.min(10, problems.size())));
    }

    @Test
    void theDefaultRunsTwentyStructuresLayOutCleanly() throws Exception {
        // Throughput x2, memory x2, build.
        assertClean(HtmlReport.render(SyntheticRun.many(List.of(1))), 5);
        // And with a second thread count: the rows per structure and thread count, x2.
        assertClean(HtmlReport.render(SyntheticRun.many(List.of(1, 2))), 7);
    }

    @Test
    void aSizeSweepsLineChartsLayOutCleanly() throws Exception {
        assertClean(HtmlReport.render(SyntheticRun.create(List.of("uniform", SyntheticRun.NASTY_DATASET),
                List.of(1, 2), List.of(1_000, 10_000, 100_000))), 2 * 5 + 3 * 7);
    }

    @Test
    void everyBarEndsInItsValueAndEveryRowIsNamedOnce() throws Exception {
        Document doc = HtmlReportTest.parse(HtmlReport.render(SyntheticRun.many(List.of(1))));
        Element uniform = SvgBoxes.charts(doc).get(0);
        List<SvgBoxes.Box> texts = SvgBoxes.texts(uniform);
        List<SvgBoxes.Box> bars = SvgBoxes.bars(uniform).stream().filter(b -> b.kind().equals("bar")).toList();
        List<SvgBoxes.Box> values = texts.stream().filter(t -> t.kind().equals("value")).toList();
        List<String> names = texts.stream().filter(t -> t.kind().equals("name")).map(SvgBoxes.Box::text).toList();
        assertEquals(Structure.onTheCpu().stream().map(Structure::cliName).toList(), names);
        // 20 structures x 5 workloads, but sorted-array only on A.
        assertEquals(20 * 5 - 4, bars.size());
        assertEquals(bars.size(), values.size());
        for (int i = 0; i < bars.size(); i++) {
            SvgBoxes.Box bar = bars.get(i);
            SvgBoxes.Box value = values.get(i);
            assertTrue(value.x0() >= bar.x1() + 3 && value.y0() < bar.y1() && value.y1() > bar.y0(),
                    "the value right after its bar, on its row: " + bar + " " + value);
        }
        // csb4's noisy A: the value clears the whisker, which reaches past the bar.
        assertTrue(uniform.getTextContent().contains("5.76"));
        // The four dashes: sorted-array did not run B to E.
        assertEquals(4, texts.stream().filter(t -> t.kind().equals("value none")).count());
    }

    @Test
    void longNamesTitlesAndValuesAreFittedNotSpilled() throws Exception {
        SvgBarChart c = new SvgBarChart("t", "a very long axis title that goes on and on and on and on and on and on"
                + " and on and on and on and on and on and on and on and on", 600);
        for (int p = 0; p < 7; p++) {
            c.panel("/data/a/very/long/path/to/a/dataset/file_" + p + "_uint64", "with a subtitle as long as it gets");
        }
        for (int r = 0; r < 12; r++) {
            List<SvgBarChart.Bar> bars = new ArrayList<>();
            for (int p = 0; p < 7; p++) {
                double v = r == 3 && p == 2 ? Double.NaN : Math.pow(10, (r + p) % 6) * 1.2345;
                bars.add(new SvgBarChart.Bar(v, ResultTable.mops(v), p % 2 == 0 ? 1 : 0.3, "tip", v * 0.2, v * 1.9));
            }
            c.row(r == 5 ? "a-structure-name-far-longer-than-any-there-is-" + r : "s" + r, Palette.colour(r), bars,
                    r % 4 == 0);
        }
        Document doc = HtmlReportTest.parse("<div xmlns=\"http://www.w3.org/1999/xhtml\">" + c.render() + "</div>");
        Element svg = SvgBoxes.charts(doc).get(0);
        assertEquals(List.of(), SvgBoxes.problems(svg));
        // Seven panels do not fit 600 pixels: the drawing grows instead of squeezing them.
        double width = Double.parseDouble(svg.getAttribute("viewBox").split(" ")[2]);
        assertTrue(width >= 7 * SvgBarChart.MIN_PANEL, "width " + width);
        assertTrue(svg.getTextContent().contains("…"), "shortened with an ellipsis");
    }

    @Test
    void fitShortensInTheMiddleAndNeverExceeds() {
        assertEquals("bstree", SvgBarChart.fit("bstree", 12, 100));
        String s = SvgBarChart.fit("/data/books_800M_uint64", 12, 80);
        assertTrue(s.startsWith("/d") && s.endsWith("64") && s.contains("…"), s);
        assertTrue(SvgBarChart.textWidth(s, 12) <= 80, s);
        assertEquals("", SvgBarChart.fit("anything", 12, 5));
        assertFalse(SvgBarChart.fit("abcdefghijklmnopqrstuvwxyz", 12, 60).isEmpty());
    }
}
