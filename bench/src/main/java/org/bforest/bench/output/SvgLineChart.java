package org.bforest.bench.output;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import org.bforest.bench.cli.Counts;

/**
 * A line chart as self-contained SVG (no script, no external file; every text escaped): a
 * logarithmic x axis of counts, ticks at the decades labelled the short way (1K, 10K, 100K, 1M:
 * {@link Counts#format}) with unlabelled minor ticks between them (and, paler, the counts measured
 * between decades where their labels fit), a linear y axis from 0, and
 * one line per series with a marker at every point (its tooltip says the figure). A point whose
 * y is not finite is left out and breaks the line there. The legend sits on top, in the style of
 * {@link SvgBarChart}: the report draws the size sweep with it, Mops/s against the number of
 * keys, where the cache levels show as steps, and the batch-size sweep, Mops/s against the
 * operations a batched call. A reference is a dashed horizontal line across the plot at a
 * figure from elsewhere (an outside program's, {@code --anchors}), labelled at its right end.
 */
final class SvgLineChart {

    /** A point: {@code x} > 0 on the log axis, {@code y} on the linear one (NaN: no point). */
    record Point(double x, double y, String tooltip) {
    }

    /**
     * One line: its legend label, its colour, its marker shape, its dash pattern (null: solid),
     * its points (in any order; drawn by x).
     */
    record Series(String label, String colour, Palette.Marker marker, String dash, List<Point> points) {
        Series {
            points = List.copyOf(points);
        }
    }

    /**
     * A horizontal reference line: its label (written at the line's right end), its figure, its
     * dash pattern, its tooltip.
     */
    record Reference(String label, double y, String dash, String tooltip) {
    }

    /** The colour of reference lines and their labels: a dark grey no structure has. */
    static final String REFERENCE = "#374151";
    private static final double TICK_FONT = 11;
    private static final double LEGEND_FONT = 12;
    private static final double MARKER = 4.2;
    /** Room either side of the decades, in decades, so the edge markers clear the axes. */
    private static final double PAD = 0.12;

    private final String title;
    private final String xTitle;
    private final String yTitle;
    private final int width;
    private final int plotHeight;
    private final List<Series> series = new ArrayList<>();
    private final List<Reference> references = new ArrayList<>();

    /**
     * @param title      for screen readers and the tooltip of the whole chart
     * @param xTitle     the x axis title ("number of keys, log scale")
     * @param yTitle     the y axis title, with its unit
     * @param width      the drawing's width in pixels (its natural size)
     * @param plotHeight the height of the plot area
     */
    SvgLineChart(String title, String xTitle, String yTitle, int width, int plotHeight) {
        this.title = title;
        this.xTitle = xTitle;
        this.yTitle = yTitle;
        this.width = width;
        this.plotHeight = plotHeight;
    }

    SvgLineChart series(String label, String colour, Palette.Marker marker, String dash, List<Point> points) {
        series.add(new Series(label, colour, marker, dash, points));
        return this;
    }

    List<Series> series() {
        return series;
    }

    /** Adds a dashed horizontal line at {@code y} (finite, at least 0), labelled {@code label}. */
    SvgLineChart reference(String label, double y, String dash, String tooltip) {
        if (!(y >= 0) || Double.isInfinite(y)) {
            throw new IllegalArgumentException("a reference line at " + y);
        }
        references.add(new Reference(label, y, dash, tooltip));
        return this;
    }

    List<Reference> references() {
        return references;
    }

    private static boolean drawn(Point p) {
        return p.x() > 0 && Double.isFinite(p.x()) && Double.isFinite(p.y());
    }

    /** The decades the x axis spans: [floor(log10 min), ceil(log10 max)], at least one decade. */
    int[] decades() {
        double min = Double.POSITIVE_INFINITY;
        double max = 0;
        for (Series s : series) {
            for (Point p : s.points()) {
                if (p.x() > 0 && Double.isFinite(p.x())) {
                    min = Math.min(min, p.x());
                    max = Math.max(max, p.x());
                }
            }
        }
        if (max == 0) {
            return new int[] {3, 4};
        }
        // The rounding guards 10^k computed a hair off a decade.
        int lo = (int) Math.floor(Math.log10(min) + 1e-9);
        int hi = (int) Math.ceil(Math.log10(max) - 1e-9);
        return new int[] {lo, Math.max(hi, lo + 1)};
    }

    String render() {
        // Legend rows on top: a short line with a marker, then the label.
        double right = 16;
        List<double[]> keyPos = new ArrayList<>();
        double lx = 0;
        double ly = 0;
        for (Series s : series) {
            double w = 22 + 6 + SvgBarChart.textWidth(s.label(), LEGEND_FONT) + 18;
            if (lx > 0 && lx + w > width - 2 * right) {
                lx = 0;
                ly += 20;
            }
            keyPos.add(new double[] {lx, ly});
            lx += w;
        }
        double legendH = series.isEmpty() ? 0 : ly + 20;
        double yTitleY = 10 + legendH + 6 + 12;
        double top = yTitleY + 10;
        double left = 62;
        double plotW = width - left - right;
        double plotH = plotHeight;
        double bottom = 8 + TICK_FONT + 10 + 12 + 8;
        double height = top + plotH + bottom;
        double base = top + plotH;

        // The scales.
        int[] dec = decades();
        double x0 = dec[0] - PAD;
        double x1 = dec[1] + PAD;
        double yMax = 0;
        for (Series s : series) {
            for (Point p : s.points()) {
                if (drawn(p)) {
                    yMax = Math.max(yMax, p.y());
                }
            }
        }
        for (Reference r : references) {
            yMax = Math.max(yMax, r.y());
        }
        double step = SvgBarChart.niceStep(yMax > 0 ? yMax * 1.06 / 5 : 0.2);
        int ticks = Math.max(1, (int) Math.ceil(yMax * 1.06 / step - 1e-9));
        double max = ticks * step;

        StringBuilder sb = new StringBuilder();
        sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart line\" viewBox=\"0 0 ").append(width)
                .append(' ').append(Html.num(height)).append("\" width=\"").append(width).append("\" height=\"")
                .append(Html.num(height)).append("\" role=\"img\" aria-label=\"").append(Html.esc(title))
                .append("\" font-family=\"").append(Html.esc(SvgBarChart.FONT)).append("\">\n");
        sb.append("<title>").append(Html.esc(title)).append("</title>\n");

        for (int i = 0; i < series.size(); i++) {
            Series s = series.get(i);
            double x = right + keyPos.get(i)[0];
            double y = 10 + keyPos.get(i)[1] + 7;
            String c = Html.esc(s.colour());
            sb.append("<path d=\"M").append(Html.num(x)).append(' ').append(Html.num(y)).append("H")
                    .append(Html.num(x + 22)).append("\" stroke=\"").append(c).append("\" stroke-width=\"2\"")
                    .append(dash(s)).append("/>").append(marker(x + 11, y, s, null));
            sb.append("<text x=\"").append(Html.num(x + 28)).append("\" y=\"").append(Html.num(y + 4))
                    .append("\" font-size=\"").append(Html.num(LEGEND_FONT)).append("\" fill=\"#1f2937\">")
                    .append(Html.esc(s.label())).append("</text>\n");
        }

        // Grid and scales: y from 0, x at the decades (labelled) and their multiples (not).
        for (int t = 0; t <= ticks; t++) {
            double y = base - plotH * t / ticks;
            sb.append("<line x1=\"").append(Html.num(left)).append("\" x2=\"").append(Html.num(left + plotW))
                    .append("\" y1=\"").append(Html.num(y)).append("\" y2=\"").append(Html.num(y))
                    .append("\" stroke=\"").append(t == 0 ? "#4b5563" : "#e5e7eb").append("\" stroke-width=\"1\"/>");
            sb.append("<text x=\"").append(Html.num(left - 6)).append("\" y=\"").append(Html.num(y + 4))
                    .append("\" font-size=\"").append(Html.num(TICK_FONT))
                    .append("\" text-anchor=\"end\" fill=\"#4b5563\">").append(Html.esc(SvgBarChart.tick(t * step)))
                    .append("</text>\n");
        }
        sb.append("<line x1=\"").append(Html.num(left)).append("\" x2=\"").append(Html.num(left))
                .append("\" y1=\"").append(Html.num(top)).append("\" y2=\"").append(Html.num(base))
                .append("\" stroke=\"#4b5563\" stroke-width=\"1\"/>\n");
        List<double[]> labelled = new ArrayList<>(); // {x, half width} of each label under the axis
        for (int k = dec[0]; k <= dec[1]; k++) {
            double x = xOf(k, x0, x1, left, plotW);
            labelled.add(new double[] {x, SvgBarChart.textWidth(Counts.format(pow10(k)), TICK_FONT) / 2});
            sb.append("<line x1=\"").append(Html.num(x)).append("\" x2=\"").append(Html.num(x)).append("\" y1=\"")
                    .append(Html.num(top)).append("\" y2=\"").append(Html.num(base + 5))
                    .append("\" stroke=\"#d1d5db\" stroke-width=\"1\"/>");
            sb.append("<text class=\"decade\" x=\"").append(Html.num(x)).append("\" y=\"")
                    .append(Html.num(base + 8 + TICK_FONT)).append("\" text-anchor=\"middle\" font-size=\"")
                    .append(Html.num(TICK_FONT)).append("\" fill=\"#4b5563\">")
                    .append(Html.esc(Counts.format(pow10(k)))).append("</text>\n");
            for (int m = 2; m <= 9 && k < dec[1]; m++) {
                double xm = xOf(k + Math.log10(m), x0, x1, left, plotW);
                sb.append("<line x1=\"").append(Html.num(xm)).append("\" x2=\"").append(Html.num(xm))
                        .append("\" y1=\"").append(Html.num(base)).append("\" y2=\"").append(Html.num(base + 3))
                        .append("\" stroke=\"#9ca3af\" stroke-width=\"1\"/>");
            }
        }
        // The sizes measured between the decades, smaller and paler, where they do not crowd a label.
        TreeSet<Double> xs = new TreeSet<>();
        for (Series s : series) {
            for (Point p : s.points()) {
                if (p.x() > 0 && Double.isFinite(p.x())) {
                    xs.add(p.x());
                }
            }
        }
        for (double v : xs) {
            double log = Math.log10(v);
            if (Math.abs(log - Math.rint(log)) < 1e-9) {
                continue;
            }
            String text = Counts.format(Math.round(v));
            double x = xOf(log, x0, x1, left, plotW);
            double half = SvgBarChart.textWidth(text, TICK_FONT - 1) / 2;
            boolean free = true;
            for (double[] l : labelled) {
                free &= Math.abs(l[0] - x) > l[1] + half + 4;
            }
            if (free) {
                labelled.add(new double[] {x, half});
                sb.append("<line x1=\"").append(Html.num(x)).append("\" x2=\"").append(Html.num(x)).append("\" y1=\"")
                        .append(Html.num(base)).append("\" y2=\"").append(Html.num(base + 5))
                        .append("\" stroke=\"#9ca3af\" stroke-width=\"1\"/>");
                sb.append("<text class=\"size\" x=\"").append(Html.num(x)).append("\" y=\"")
                        .append(Html.num(base + 8 + TICK_FONT)).append("\" text-anchor=\"middle\" font-size=\"")
                        .append(Html.num(TICK_FONT - 1)).append("\" fill=\"#9ca3af\">").append(Html.esc(text))
                        .append("</text>\n");
            }
        }
        sb.append('\n');
        sb.append("<text class=\"axis\" x=\"").append(Html.num(left - 40)).append("\" y=\"").append(Html.num(yTitleY))
                .append("\" font-size=\"12\" fill=\"#374151\">").append(Html.esc(yTitle)).append("</text>\n");
        sb.append("<text class=\"axis\" x=\"").append(Html.num(left + plotW / 2)).append("\" y=\"")
                .append(Html.num(base + 8 + TICK_FONT + 10 + 12)).append("\" text-anchor=\"middle\" font-size=\"12\"")
                .append(" fill=\"#374151\">").append(Html.esc(xTitle)).append("</text>\n");

        // The reference lines under the series, their labels over everything (below).
        for (Reference r : references) {
            double y = base - plotH * r.y() / max;
            sb.append("<path class=\"reference\" d=\"M").append(Html.num(left)).append(' ').append(Html.num(y))
                    .append("H").append(Html.num(left + plotW)).append("\" stroke=\"").append(REFERENCE)
                    .append("\" stroke-width=\"1.5\" stroke-dasharray=\"").append(Html.esc(r.dash())).append("\">")
                    .append("<title>").append(Html.esc(r.tooltip())).append("</title></path>\n");
        }

        // The lines, then their markers on top.
        for (Series s : series) {
            List<Point> ps = new ArrayList<>(s.points());
            ps.removeIf(p -> !(p.x() > 0 && Double.isFinite(p.x())));
            ps.sort(Comparator.comparingDouble(Point::x));
            StringBuilder d = new StringBuilder();
            boolean pen = false;
            int segments = 0;
            for (Point p : ps) {
                if (!drawn(p)) {
                    pen = false;
                    continue;
                }
                d.append(pen ? "L" : "M").append(Html.num(xOf(Math.log10(p.x()), x0, x1, left, plotW))).append(' ')
                        .append(Html.num(base - plotH * Math.max(0, p.y()) / max));
                segments += pen ? 1 : 0;
                pen = true;
            }
            if (segments > 0) {
                sb.append("<path d=\"").append(d).append("\" fill=\"none\" stroke=\"").append(Html.esc(s.colour()))
                        .append("\" stroke-width=\"2\" stroke-linejoin=\"round\" stroke-linecap=\"round\"")
                        .append(dash(s)).append("/>\n");
            }
        }
        for (Series s : series) {
            for (Point p : s.points()) {
                if (drawn(p)) {
                    sb.append(marker(xOf(Math.log10(p.x()), x0, x1, left, plotW),
                            base - plotH * Math.max(0, p.y()) / max, s, p.tooltip()));
                }
            }
            sb.append('\n');
        }
        referenceLabels(sb, top, base, plotH, max, left + plotW - 4);
        sb.append("</svg>\n");
        return sb.toString();
    }

    /**
     * Each reference line's label at its right end, just above the line (below it at the top of
     * the plot), nudged down where it would overlap the label of a line above.
     */
    private void referenceLabels(StringBuilder sb, double top, double base, double plotH, double max, double right) {
        List<Reference> byHeight = new ArrayList<>(references);
        byHeight.sort((a, b) -> Double.compare(b.y(), a.y())); // the highest first
        double previous = Double.NEGATIVE_INFINITY;
        double line = TICK_FONT + 2;
        for (Reference r : byHeight) {
            double y = base - plotH * r.y() / max;
            double baseline = y - 4;
            if (baseline - TICK_FONT < top) {
                baseline = y + TICK_FONT + 2;
            }
            baseline = Math.max(baseline, previous + line);
            previous = baseline;
            sb.append("<text class=\"reference\" x=\"").append(Html.num(right)).append("\" y=\"")
                    .append(Html.num(baseline)).append("\" text-anchor=\"end\" font-size=\"")
                    .append(Html.num(TICK_FONT)).append("\" fill=\"").append(REFERENCE).append("\">")
                    .append(Html.esc(r.label())).append("<title>").append(Html.esc(r.tooltip()))
                    .append("</title></text>\n");
        }
    }

    private static double xOf(double log, double x0, double x1, double left, double plotW) {
        return left + plotW * (log - x0) / (x1 - x0);
    }

    private static String dash(Series s) {
        return s.dash() == null ? "" : " stroke-dasharray=\"" + Html.esc(s.dash()) + "\"";
    }

    /** The series' marker at (x, y): its shape, filled in its colour, with a white rim. */
    static String marker(double x, double y, Series s, String tooltip) {
        double r = MARKER;
        String shape = switch (s.marker()) {
            case CIRCLE -> "<circle cx=\"" + Html.num(x) + "\" cy=\"" + Html.num(y) + "\" r=\"" + Html.num(r) + "\"";
            case SQUARE -> "<rect x=\"" + Html.num(x - r * 0.9) + "\" y=\"" + Html.num(y - r * 0.9) + "\" width=\""
                    + Html.num(r * 1.8) + "\" height=\"" + Html.num(r * 1.8) + "\"";
            case TRIANGLE -> polygon(x, y, r * 1.25, 3, -90);
            case TRIANGLE_DOWN -> polygon(x, y, r * 1.25, 3, 90);
            case DIAMOND -> polygon(x, y, r * 1.25, 4, -90);
            case PENTAGON -> polygon(x, y, r * 1.15, 5, -90);
        };
        StringBuilder sb = new StringBuilder(shape).append(" class=\"marker\" fill=\"").append(Html.esc(s.colour()))
                .append("\" stroke=\"#ffffff\" stroke-width=\"1\"");
        if (tooltip == null) {
            return sb.append("/>").toString();
        }
        String tag = shape.substring(1, shape.indexOf(' '));
        return sb.append("><title>").append(Html.esc(tooltip)).append("</title></").append(tag).append('>').toString();
    }

    private static String polygon(double x, double y, double r, int corners, double startDegrees) {
        StringBuilder sb = new StringBuilder("<polygon points=\"");
        for (int i = 0; i < corners; i++) {
            double a = Math.toRadians(startDegrees + 360.0 * i / corners);
            sb.append(i == 0 ? "" : " ").append(Html.num(x + r * Math.cos(a))).append(',').append(Html.num(y + r * Math.sin(a)));
        }
        return sb.append('"').toString();
    }

    private static long pow10(int k) {
        long v = 1;
        for (int i = 0; i < k; i++) {
            v *= 10;
        }
        return v;
    }
}
