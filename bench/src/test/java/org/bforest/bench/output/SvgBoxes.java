package org.bforest.bench.output;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The boxes of a chart's texts and bars, computed from the SVG's own coordinates (x, y,
 * font-size, text-anchor, font-weight; widths by {@link SvgBarChart#textWidth}, the estimate the
 * charts lay themselves out with), and the pairs of them that overlap: the DOM-level layout check,
 * which needs no browser. A text's box reaches 0.8 em above its baseline and 0.22 em below.
 */
final class SvgBoxes {
    static final String SVG = "http://www.w3.org/2000/svg";

    /** A text's or a bar's box; {@code kind} is the element's class (or its tag). */
    record Box(String kind, String text, double x0, double y0, double x1, double y1) {
        boolean overlaps(Box o) {
            double eps = 0.25;
            return x0 < o.x1 - eps && o.x0 < x1 - eps && y0 < o.y1 - eps && o.y0 < y1 - eps;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%s '%s' [%.1f,%.1f]-[%.1f,%.1f]", kind, text, x0, y0, x1, y1);
        }
    }

    private SvgBoxes() {
    }

    static List<Element> charts(Document doc) {
        List<Element> out = new ArrayList<>();
        NodeList svgs = doc.getElementsByTagNameNS(SVG, "svg");
        for (int i = 0; i < svgs.getLength(); i++) {
            out.add((Element) svgs.item(i));
        }
        return out;
    }

    /** The text of a {@code <text>} element itself, without any child element's. */
    static String ownText(Element t) {
        StringBuilder sb = new StringBuilder();
        for (Node c = t.getFirstChild(); c != null; c = c.getNextSibling()) {
            if (c.getNodeType() == Node.TEXT_NODE) {
                sb.append(c.getNodeValue());
            }
        }
        return sb.toString();
    }

    static List<Box> texts(Element svg) {
        List<Box> out = new ArrayList<>();
        NodeList ts = svg.getElementsByTagNameNS(SVG, "text");
        for (int i = 0; i < ts.getLength(); i++) {
            Element t = (Element) ts.item(i);
            if (!t.getAttribute("transform").isEmpty()) {
                throw new AssertionError("a turned text, which this check cannot place: " + ownText(t));
            }
            String s = ownText(t);
            if (s.isEmpty()) {
                continue;
            }
            double x = Double.parseDouble(t.getAttribute("x"));
            double y = Double.parseDouble(t.getAttribute("y"));
            double size = Double.parseDouble(t.getAttribute("font-size"));
            boolean bold = t.getAttribute("font-weight").matches("bold|[6-9]00");
            double w = SvgBarChart.textWidth(s, size) * (bold ? SvgBarChart.BOLD : 1);
            double x0 = switch (t.getAttribute("text-anchor")) {
                case "middle" -> x - w / 2;
                case "end" -> x - w;
                default -> x;
            };
            out.add(new Box(t.getAttribute("class").isEmpty() ? "text" : t.getAttribute("class"), s, x0,
                    y - 0.8 * size, x0 + w, y + 0.22 * size));
        }
        return out;
    }

    /** The bars and the colour swatches: what a text must not cover. */
    static List<Box> bars(Element svg) {
        List<Box> out = new ArrayList<>();
        NodeList rs = svg.getElementsByTagNameNS(SVG, "rect");
        for (int i = 0; i < rs.getLength(); i++) {
            Element r = (Element) rs.item(i);
            String cls = r.getAttribute("class");
            if (cls.equals("bar") || cls.equals("swatch")) {
                double x = Double.parseDouble(r.getAttribute("x"));
                double y = Double.parseDouble(r.getAttribute("y"));
                out.add(new Box(cls, "", x, y, x + Double.parseDouble(r.getAttribute("width")),
                        y + Double.parseDouble(r.getAttribute("height"))));
            }
        }
        return out;
    }

    /**
     * Every problem with the chart's layout: two texts that overlap, a text over a bar or a
     * swatch, a text outside the drawing. Empty when the layout is clean.
     */
    static List<String> problems(Element svg) {
        List<String> out = new ArrayList<>();
        String[] vb = svg.getAttribute("viewBox").split(" ");
        double w = Double.parseDouble(vb[2]);
        double h = Double.parseDouble(vb[3]);
        List<Box> texts = texts(svg);
        List<Box> bars = bars(svg);
        for (int i = 0; i < texts.size(); i++) {
            Box a = texts.get(i);
            if (a.x0() < -0.5 || a.y0() < -0.5 || a.x1() > w + 0.5 || a.y1() > h + 0.5) {
                out.add("outside the " + w + "×" + h + " drawing: " + a);
            }
            for (int j = i + 1; j < texts.size(); j++) {
                if (a.overlaps(texts.get(j))) {
                    out.add("overlap: " + a + " and " + texts.get(j));
                }
            }
            for (Box b : bars) {
                if (a.overlaps(b)) {
                    out.add("text over a " + b.kind() + ": " + a + " and " + b);
                }
            }
        }
        return out;
    }
}
