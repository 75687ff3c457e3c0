package org.bforest.bench.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.bforest.bench.runner.RunSummary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** index.html on a made-up run ({@link SyntheticRun}): written, well-formed, escaped, complete. */
class HtmlReportTest {
    private static final String XHTML = "http://www.w3.org/1999/xhtml";
    private static final String SVG = "http://www.w3.org/2000/svg";

    static Document parse(String html) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        DocumentBuilder b = f.newDocumentBuilder();
        b.setErrorHandler(null);
        return b.parse(new ByteArrayInputStream(html.getBytes(StandardCharsets.UTF_8)));
    }

    private static int count(String haystack, String needle) {
        int n = 0;
        for (int i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }

    @Test
    void theReportWritesIndexHtmlNextToTheOtherFiles(@TempDir Path dir) throws IOException {
        RunSummary run = SyntheticRun.create(List.of("uniform"), List.of(1));
        List<Path> files = Reports.write(run, dir);
        assertEquals(List.of(dir.resolve("results.csv"), dir.resolve("summary.txt"), dir.resolve("index.html")),
                files);
        String html = Files.readString(dir.resolve("index.html"));
        assertTrue(html.startsWith("<!DOCTYPE html>"), html.substring(0, 40));
        assertTrue(html.contains("<svg"), "no chart");
    }

    @Test
    void oneSvgPerChart() {
        // One dataset, one thread count: throughput, memory, build.
        assertEquals(3, count(HtmlReport.render(SyntheticRun.create(List.of("uniform"), List.of(1))), "<svg "));
        // Two datasets, two thread counts: throughput x2, scaling x2, memory x2, build.
        String two = HtmlReport.render(SyntheticRun.create(List.of("uniform", "dense"), List.of(1, 2)));
        assertEquals(7, count(two, "<svg "));
        assertEquals(count(two, "<svg "), count(two, "</svg>"));
    }

    @Test
    void wellFormedXhtmlWithSvgChartsAndNoExternalResources() throws Exception {
        String html = HtmlReport.render(SyntheticRun.create(List.of("uniform", SyntheticRun.NASTY_DATASET),
                List.of(1, 2)));
        Document doc = parse(html);
        Element root = doc.getDocumentElement();
        assertEquals("html", root.getLocalName());
        assertEquals(XHTML, root.getNamespaceURI());
        NodeList svgs = doc.getElementsByTagNameNS(SVG, "svg");
        assertEquals(count(html, "<svg "), svgs.getLength());
        for (int i = 0; i < svgs.getLength(); i++) {
            Element svg = (Element) svgs.item(i);
            assertTrue(svg.getElementsByTagNameNS(SVG, "rect").getLength() > 0, "a chart without bars");
            assertTrue(svg.getAttribute("viewBox").matches("0 0 [0-9.]+ [0-9.]+"), svg.getAttribute("viewBox"));
        }
        // Self-contained: no script, no linked file, no fetched resource.
        assertEquals(0, doc.getElementsByTagNameNS(XHTML, "script").getLength());
        assertEquals(0, doc.getElementsByTagNameNS(XHTML, "link").getLength());
        assertEquals(0, doc.getElementsByTagNameNS(XHTML, "img").getLength());
        assertFalse(html.contains("url(") || html.contains("@import") || html.contains(" src=")
                || html.contains(" href="), "an external resource");
        List<String> urls = new ArrayList<>();
        Matcher m = Pattern.compile("https?://[^\"\\s<]*").matcher(html);
        while (m.find()) {
            urls.add(m.group());
        }
        assertTrue(urls.stream().allMatch(u -> u.equals(XHTML) || u.equals(SVG)), urls.toString());
        // Every number in the drawing is a number.
        assertFalse(html.contains("NaN") || html.contains("Infinity"), "NaN in the markup");
    }

    @Test
    void markupCharactersInNotesDatasetsAndMachineAreEscaped() throws Exception {
        RunSummary run = SyntheticRun.create(List.of("uniform", SyntheticRun.NASTY_DATASET), List.of(1));
        String html = HtmlReport.render(run);
        assertFalse(html.contains(SyntheticRun.NASTY_NOTE), "raw note");
        assertFalse(html.contains("<books>") || html.contains("<CPU>") || html.contains("<because>"), "raw markup");
        assertTrue(html.contains("sorted-array: skipped on B &lt;because&gt; &quot;read-only&quot; &amp; &#39;so on&#39;"),
                "escaped note");
        assertTrue(html.contains("/data/&lt;books&gt;&amp;&quot;keys&quot;_uint64"), "escaped dataset");
        // And the parser gives the original text back.
        Document doc = parse(html);
        assertTrue(doc.getDocumentElement().getTextContent().contains(SyntheticRun.NASTY_NOTE));
        assertTrue(doc.getDocumentElement().getTextContent().contains("Test <CPU> & co"));
    }

    @Test
    void controlCharactersCannotBreakTheXml() throws Exception {
        assertEquals("a\uFFFDb &lt;c&gt;", Html.esc("a\u0001b <c>"));
        assertEquals("\uFFFD", Html.esc("\uD800"));
        parse("<p xmlns=\"" + XHTML + "\">" + Html.esc("x\u0000y\u001b[0m & \uDC00") + "</p>");
    }

    @Test
    void showsTheCommandLineAndTheMachine() {
        RunSummary run = SyntheticRun.create(List.of("uniform"), List.of(1));
        String html = HtmlReport.render(run);
        String cmd = ("./bforest bench --keys 1K --dataset 'uniform,/data/&lt;books&gt;&amp;&quot;keys&quot;_uint64'"
                + " --report '/tmp/my report' --threads 1,2").replace("'", "&#39;");
        assertTrue(html.contains(cmd), "command line");
        assertTrue(html.contains("/usr/bin/java -cp a.jar org.bforest.bench.Main"), "JVM command line");
        for (String s : List.of("Test &lt;CPU&gt; &amp; co", "4 physical", "16.0 GB", "Linux 6.1 amd64",
                "Eclipse Adoptium", "25.0.1", "SIMD 512-bit, 8 lanes", "-Xmx2g", "2025-06-01 12:34:56 +02:00")) {
            assertTrue(html.contains(s), s);
        }
    }

    @Test
    void ratiosAgainstTreemapComeFromTheRun() {
        String html = HtmlReport.render(SyntheticRun.create(List.of("uniform"), List.of(1, 2)));
        assertTrue(html.contains("bstree is 8.0× treemap on A"), "throughput ratio");
        assertTrue(html.contains("0.80× sorted-array, the fastest"), "best other on A");
        assertTrue(html.contains("4.0× fastutil-avl, the next fastest"), "best other on B");
        assertTrue(html.contains("bstree needs 2.4× less memory per key than treemap"), "memory ratio");
        assertTrue(html.contains("bstree builds 5.0× faster than treemap"), "build ratio");
        assertTrue(html.contains("skiplist with 2 threads is 2.0× its 1-thread throughput on A"), "threads");
    }

    @Test
    void tablesInThePapersShapesAndEveryFigure() {
        String html = HtmlReport.render(SyntheticRun.create(List.of("uniform", "dense"), List.of(1)));
        for (String s : List.of("id=\"highlights\"", "id=\"throughput\"", "id=\"memory\"", "id=\"build\"",
                "id=\"results\"", "id=\"notes\"", "id=\"datasets\"", "id=\"structures\"", "id=\"machine\"",
                "heap B/key", "own B/key", "ns/key", "a plain note", "dropped 2 duplicate keys &amp; sorted")) {
            assertTrue(html.contains(s), s);
        }
        // All results: a row per cell (5 updatable structures x 5 workloads + sorted-array on A, per dataset).
        int rows = count(html.substring(html.indexOf("id=\"results\""), html.indexOf("id=\"notes\"")), "<tr><td>");
        assertEquals(2 * (5 * 5 + 1), rows);
    }

    @Test
    void throughputBarsCarryTheirSpreadAndTheReportItsMachine() {
        RunSummary run = SyntheticRun.create(List.of("uniform"), List.of(1));
        String html = HtmlReport.render(run);
        String throughput = html.substring(html.indexOf("id=\"throughput\""), html.indexOf("id=\"memory\""));
        // A whisker over every bar that ran: 5 structures x 5 workloads + sorted-array on A.
        assertEquals(5 * 5 + 1, count(throughput, "class=\"spread\""));
        assertTrue(throughput.contains("bstree, A read-only: 8.00 Mops/s, median of 3, slowest 7.20, fastest 8.80"),
                "tooltip with the spread");
        String results = html.substring(html.indexOf("id=\"results\""), html.indexOf("id=\"notes\""));
        assertTrue(results.contains("7.20–8.80"), "the spread beside the median");
        String memory = html.substring(html.indexOf("id=\"memory\""), html.indexOf("id=\"build\""));
        assertTrue(memory.contains("After the workloads that write"), "memory after writes");
        assertTrue(memory.contains(">38.0<") && memory.contains(">37.0<"), "bstree after B: heap 38, own 37");
        String machine = html.substring(html.indexOf("id=\"machine\""));
        assertTrue(machine.contains("abc1234") && machine.contains("SIMD 512-bit, 8 lanes")
                && machine.contains("Test &lt;CPU&gt; &amp; co"), "commit, vector width, CPU");
    }

    @Test
    void aRunWhereNothingRanIsStillAPage() throws Exception {
        RunSummary full = SyntheticRun.create(List.of("uniform"), List.of(1));
        RunSummary empty = new RunSummary(full.options(), full.environment(), full.datasets(), List.of(),
                List.of("everything was skipped"), 0.1);
        String html = HtmlReport.render(empty);
        parse(html);
        assertTrue(html.contains("No structure ran."));
        assertTrue(html.contains("arguments not recorded"));
    }

    @Test
    void aSizeSweepGetsALineChartPerDatasetAndWorkloadAndEverythingElsePerSize() throws Exception {
        List<Integer> sizes = List.of(1_000, 10_000, 100_000);
        RunSummary run = SyntheticRun.create(List.of("uniform", SyntheticRun.NASTY_DATASET), List.of(1, 2), sizes);
        String html = HtmlReport.render(run);
        Document doc = parse(html);
        NodeList svgs = doc.getElementsByTagNameNS(SVG, "svg");
        List<Element> lines = new ArrayList<>();
        for (int i = 0; i < svgs.getLength(); i++) {
            Element svg = (Element) svgs.item(i);
            if (svg.getAttribute("class").equals("chart line")) {
                lines.add(svg);
            }
        }
        // 2 datasets x 5 workloads; per size: throughput x2, scaling x2, memory x2, build.
        assertEquals(2 * 5, lines.size());
        assertEquals(2 * 5 + 3 * 7, svgs.getLength());
        for (Element svg : lines) {
            assertTrue(svg.getAttribute("viewBox").matches("0 0 [0-9.]+ [0-9.]+"), svg.getAttribute("viewBox"));
            List<String> decades = new ArrayList<>();
            NodeList texts = svg.getElementsByTagNameNS(SVG, "text");
            for (int i = 0; i < texts.getLength(); i++) {
                Element t = (Element) texts.item(i);
                if (t.getAttribute("class").equals("decade")) {
                    decades.add(t.getTextContent());
                }
            }
            assertEquals(List.of("1K", "10K", "100K"), decades, "ticks at the decades");
        }
        String sweep = html.substring(html.indexOf("id=\"sweep\""), html.indexOf("id=\"throughput\""));
        // A line per structure that ran the workload (sorted-array only on A), a marker per size.
        String a = sweep.substring(0, sweep.indexOf("</svg>"));
        assertEquals(6, count(a, "<path d=\"M") - 6, "6 legend swatches, 6 lines on A");
        assertEquals(6 * 3, count(a, "class=\"marker\"") - 6, "a marker per size and structure on A");
        assertTrue(a.contains("bstree, A, 100K keys: 6.40 Mops/s, median of 3, slowest 5.76, fastest 7.04"), a);
        assertTrue(sweep.contains("&lt;books&gt;"), "the dataset name escaped in the heading");
        // The ratios, per size: never one size against another.
        String highlights = html.substring(html.indexOf("id=\"highlights\""), html.indexOf("id=\"sweep\""));
        for (int n : sizes) {
            assertTrue(highlights.contains("<h3>" + org.bforest.bench.cli.Counts.format(n) + " keys</h3>"), "" + n);
        }
        assertEquals(3, count(highlights, "bstree is 8.0× treemap on A"), highlights);
        assertTrue(html.contains("1K, 10K, 100K keys bulk-loaded (a size sweep)"), "header");
        assertTrue(html.contains("uniform · 10K keys · 1 thread"), "per-size captions");
        // The one-size report has none of it.
        String one = HtmlReport.render(SyntheticRun.create(List.of("uniform"), List.of(1)));
        assertFalse(one.contains("chart line") || one.contains("id=\"sweep\"") || one.contains("<h3>1K keys</h3>"));
        // summary.txt: a block per size, then the sweep as tables.
        String text = TextReport.render(run);
        assertTrue(text.contains("uniform, A read-only, 1 thread: Mops/s by the number of keys"), text);
        assertTrue(text.matches("(?s).*\\nbstree +8\\.00 +7\\.20 +6\\.40\\n.*"), text);
    }
}
