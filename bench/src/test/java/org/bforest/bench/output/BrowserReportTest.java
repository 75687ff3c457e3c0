package org.bforest.bench.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * The report in a real browser: headless Chromium lays the page out with real fonts, a script
 * injected into a copy of the page (the report itself has none) measures every chart's labels
 * ({@code getBoundingClientRect}) and writes what it found into the DOM, which {@code --dump-dom}
 * prints: every label drawn (a box of some width), none overlapping another label, a bar or a
 * swatch, none outside its chart. Then a screenshot of the whole page must be a real PNG of that
 * size. Where no Chromium is installed ({@code chromium}, {@code chromium-browser},
 * {@code google-chrome} on the PATH, or {@code BFOREST_CHROMIUM}), the same checks run at the DOM
 * level: the page parsed, each label's box computed from the SVG's coordinates ({@link SvgBoxes}).
 * {@code BFOREST_CHROMIUM=none} asks for the DOM-level check even where a browser is present.
 */
class BrowserReportTest {
    private static final int WIDTH = 1200;

    /** The measuring script: a line "charts=C texts=T drawn=D height=H" and then one line a problem. */
    private static final String PROBE = """
            <script>
            (function () {
              var problems = [], texts = 0, drawn = 0;
              function box(e) { var r = e.getBoundingClientRect(); return {x0: r.left, y0: r.top, x1: r.right, y1: r.bottom}; }
              function meet(a, b) { var e = 0.5; return a.x0 < b.x1 - e && b.x0 < a.x1 - e && a.y0 < b.y1 - e && b.y0 < a.y1 - e; }
              var charts = document.querySelectorAll('svg.chart');
              charts.forEach(function (svg, i) {
                var frame = box(svg);
                var ts = [].slice.call(svg.querySelectorAll('text')).map(function (t) {
                  return {t: t.textContent, b: box(t)};
                });
                var bars = [].slice.call(svg.querySelectorAll('rect.bar, rect.swatch')).map(box);
                ts.forEach(function (a, j) {
                  texts++;
                  if (a.b.x1 - a.b.x0 > 0.5) { drawn++; } else { problems.push('chart ' + i + ': not drawn: ' + a.t); }
                  if (a.b.x0 < frame.x0 - 0.5 || a.b.x1 > frame.x1 + 0.5 || a.b.y0 < frame.y0 - 0.5 || a.b.y1 > frame.y1 + 0.5) {
                    problems.push('chart ' + i + ': outside its chart: ' + a.t);
                  }
                  for (var k = j + 1; k < ts.length; k++) {
                    if (meet(a.b, ts[k].b)) { problems.push('chart ' + i + ': "' + a.t + '" overlaps "' + ts[k].t + '"'); }
                  }
                  bars.forEach(function (b) {
                    if (meet(a.b, b)) { problems.push('chart ' + i + ': "' + a.t + '" covers a bar or swatch'); }
                  });
                });
              });
              var pre = document.createElement('pre');
              pre.id = 'layout-probe';
              pre.textContent = 'charts=' + charts.length + ' texts=' + texts + ' drawn=' + drawn + ' height='
                  + Math.ceil(document.documentElement.scrollHeight) + '\\n' + problems.join('\\n');
              document.body.appendChild(pre);
            })();
            </script>
            """;

    /** The Chromium to use, or null for none. */
    static String chromium() {
        String env = System.getenv("BFOREST_CHROMIUM");
        if (env != null && !env.isBlank()) {
            return env.equals("none") ? null : env;
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            for (String name : new String[] {"chromium", "chromium-browser", "google-chrome"}) {
                Path p = Path.of(dir.isEmpty() ? "." : dir, name);
                if (Files.isExecutable(p)) {
                    return p.toString();
                }
            }
        }
        return null;
    }

    /** Runs headless Chromium with {@code args} after the usual flags; its stdout. */
    static String run(String chromium, Path profile, Path log, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(chromium, "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--hide-scrollbars", "--force-device-scale-factor=1", "--user-data-dir=" + profile));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile(log.getParent(), "chromium", ".out");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(log.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("Chromium did not finish in 120 s: " + cmd + "\n" + Files.readString(log));
        }
        assertEquals(0, p.exitValue(), "Chromium failed: " + cmd + "\n" + Files.readString(log));
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    @Test
    void theReportRendersInABrowserWithNoLabelOverlapping(@TempDir Path dir) throws Exception {
        String html = HtmlReport.render(SyntheticRun.many(List.of(1, 2)));
        Document doc = HtmlReportTest.parse(html);
        List<Element> charts = SvgBoxes.charts(doc);
        int labels = 0;
        for (Element svg : charts) {
            labels += SvgBoxes.texts(svg).size();
        }
        String chromium = chromium();
        if (chromium == null) {
            System.err.println("BrowserReportTest: no Chromium (none of chromium, chromium-browser, google-chrome on"
                    + " the PATH, or BFOREST_CHROMIUM=none): the DOM-level layout check only");
            List<String> problems = new ArrayList<>();
            for (Element svg : charts) {
                problems.addAll(SvgBoxes.problems(svg));
            }
            assertEquals(List.of(), problems);
            return;
        }
        Path profile = Files.createDirectories(dir.resolve("profile"));
        Path log = dir.resolve("chromium.log");
        Path probed = dir.resolve("probed.html");
        Files.writeString(probed, html.replace("</body>", PROBE + "</body>"), StandardCharsets.UTF_8);
        String dom = run(chromium, profile, log, "--window-size=" + WIDTH + ",900", "--dump-dom",
                probed.toUri().toString());
        Matcher m = Pattern.compile("<pre id=\"layout-probe\">charts=(\\d+) texts=(\\d+) drawn=(\\d+) height=(\\d+)\\n?"
                + "([^<]*)</pre>").matcher(dom);
        assertTrue(m.find(), "the probe's report is not in the DOM Chromium printed:\n"
                + dom.substring(0, Math.min(2000, dom.length())));
        assertEquals(charts.size(), Integer.parseInt(m.group(1)), "charts in the browser");
        assertEquals(labels, Integer.parseInt(m.group(2)), "every label of every chart is in the browser's DOM");
        assertEquals(labels, Integer.parseInt(m.group(3)), "every label drawn");
        String problems = m.group(5).replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&amp;", "&").trim();
        assertEquals("", problems, "the browser found labels overlapping or spilling");
        int height = Integer.parseInt(m.group(4));
        assertTrue(height > 3000, "a page of 7 charts and the tables: " + height + " px");

        // A screenshot of the whole page (the page as written, without the probe).
        Path page = dir.resolve("index.html");
        Files.writeString(page, html, StandardCharsets.UTF_8);
        Path png = dir.resolve("report.png");
        run(chromium, profile, log, "--window-size=" + WIDTH + "," + height, "--screenshot=" + png,
                page.toUri().toString());
        assertTrue(Files.isRegularFile(png), "no screenshot");
        byte[] bytes = Files.readAllBytes(png);
        assertTrue(bytes.length > 100_000, "a near-empty screenshot: " + bytes.length + " bytes");
        assertEquals("\u0089PNG", new String(bytes, 0, 4, StandardCharsets.ISO_8859_1), "not a PNG");
        ByteBuffer ihdr = ByteBuffer.wrap(bytes, 16, 8);
        assertEquals(WIDTH, ihdr.getInt(), "screenshot width");
        assertEquals(height, ihdr.getInt(), "screenshot height");
    }
}
