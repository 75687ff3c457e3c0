package org.bforest.bench.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bforest.bench.structures.Structure;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** Every structure its own colour, told apart from every other, the same in every chart. */
class PaletteTest {

    /** CIE L*a*b* of an sRGB colour "#rrggbb" (D65). */
    static double[] lab(String hex) {
        int rgb = Integer.parseInt(hex.substring(1), 16);
        double[] c = {((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0, (rgb & 0xff) / 255.0};
        for (int i = 0; i < 3; i++) {
            c[i] = c[i] <= 0.04045 ? c[i] / 12.92 : Math.pow((c[i] + 0.055) / 1.055, 2.4);
        }
        double x = (0.4124 * c[0] + 0.3576 * c[1] + 0.1805 * c[2]) / 0.95047;
        double y = 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
        double z = (0.0193 * c[0] + 0.1192 * c[1] + 0.9505 * c[2]) / 1.08883;
        double fx = f(x);
        double fy = f(y);
        double fz = f(z);
        return new double[] {116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)};
    }

    private static double f(double t) {
        return t > 216.0 / 24389 ? Math.cbrt(t) : (24389.0 / 27 * t + 16) / 116;
    }

    /** CIE76 colour difference: about 2.3 is just noticeable; 15 is plainly another colour. */
    static double deltaE(String a, String b) {
        double[] p = lab(a);
        double[] q = lab(b);
        return Math.sqrt(Math.pow(p[0] - q[0], 2) + Math.pow(p[1] - q[1], 2) + Math.pow(p[2] - q[2], 2));
    }

    @Test
    void everyStructureHasItsOwnColourFarFromEveryOther() {
        Structure[] all = Structure.values();
        assertTrue(Palette.size() >= all.length && Palette.size() >= 20,
                Palette.size() + " colours for " + all.length + " structures");
        Set<String> colours = new HashSet<>();
        for (Structure s : all) {
            assertTrue(colours.add(Palette.of(s)), s + " shares " + Palette.of(s));
            assertNull(Palette.dash(s), s + " needs no dash while the colours last");
        }
        for (int i = 0; i < Palette.size(); i++) {
            double[] l = lab(Palette.colour(i));
            assertTrue(l[0] >= 25 && l[0] <= 82, Palette.colour(i) + " has lightness " + l[0]
                    + ": too dark to tell from the text, or too pale on white");
            for (int j = 0; j < i; j++) {
                double d = deltaE(Palette.colour(i), Palette.colour(j));
                assertTrue(d >= 15, Palette.colour(i) + " and " + Palette.colour(j) + " are only " + d + " apart");
            }
        }
    }

    @Test
    void beyondThePaletteADashKeepsTheLinesApart() {
        // N structures, up to three rounds of the palette: the pair colour and dash never repeats.
        for (int n = 1; n <= 3 * Palette.size(); n++) {
            Set<String> looks = new HashSet<>();
            for (int i = 0; i < n; i++) {
                assertTrue(looks.add(Palette.colour(i) + " " + Palette.dash(i)), n + " structures: " + i);
            }
        }
        assertEquals(Palette.colour(0), Palette.colour(Palette.size()));
        assertNotEquals(Palette.dash(0), Palette.dash(Palette.size()));
        // Neighbours in the enum, which run side by side, never share a marker shape.
        for (int i = 1; i < 3 * Palette.size(); i++) {
            assertNotEquals(Palette.marker(i - 1), Palette.marker(i));
        }
    }

    @Test
    void typeInAStructuresColourIsLegibleOnWhite() {
        for (int i = 0; i < Palette.size(); i++) {
            String ink = Palette.ink(Palette.colour(i));
            int rgb = Integer.parseInt(ink.substring(1), 16);
            assertTrue(Palette.contrastOnWhite((rgb >> 16) & 0xff, (rgb >> 8) & 0xff, rgb & 0xff) >= 4.5, ink);
            assertTrue(deltaE(ink, Palette.colour(i)) < 35, ink + " no longer looks like " + Palette.colour(i));
        }
        assertEquals("#1f2937", Palette.ink("#1f2937"), "a dark colour stays as it is");
    }

    @Test
    void aStructureKeepsItsColourInEveryChartAndTable() throws Exception {
        Document doc = HtmlReportTest.parse(HtmlReport.render(SyntheticRun.many(List.of(1, 2))));
        Map<String, String> seen = new HashMap<>();
        int swatches = 0;
        for (Element svg : SvgBoxes.charts(doc)) {
            // A bar chart's rows: the swatch, then the name.
            NodeList rects = svg.getElementsByTagNameNS(SvgBoxes.SVG, "rect");
            NodeList texts = svg.getElementsByTagNameNS(SvgBoxes.SVG, "text");
            int name = 0;
            for (int i = 0; i < rects.getLength(); i++) {
                Element r = (Element) rects.item(i);
                if (!r.getAttribute("class").equals("swatch")) {
                    continue;
                }
                while (!((Element) texts.item(name)).getAttribute("class").equals("name")) {
                    name++;
                }
                String label = SvgBoxes.ownText((Element) texts.item(name++));
                String structure = label.contains(" · ") ? label.substring(0, label.indexOf(" · ")) : label;
                String before = seen.putIfAbsent(structure, r.getAttribute("fill"));
                assertEquals(before == null ? r.getAttribute("fill") : before, r.getAttribute("fill"), structure);
                assertEquals(Palette.of(Structure.parse(structure)), r.getAttribute("fill"), structure);
                swatches++;
            }
        }
        assertEquals(Structure.onTheCpu().size(), seen.size(), seen.keySet().toString());
        assertEquals(seen.size(), new HashSet<>(seen.values()).size(), "two structures share a colour: " + seen);
        assertTrue(swatches > 5 * seen.size(), "rows in every chart: " + swatches);
        // The tables' swatches say the same.
        String html = HtmlReport.render(SyntheticRun.many(List.of(1)));
        for (Structure s : Structure.onTheCpu()) {
            assertTrue(html.contains("<span class=\"sw\" style=\"background:" + Palette.of(s) + "\"></span>"
                    + s.cliName() + "<"), s.cliName());
        }
    }
}
