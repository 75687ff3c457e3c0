package org.bforest.bench.output;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;

/**
 * A grouped bar chart as inline SVG (the shape of the BS-tree paper's Figures 5 to 9): groups
 * along the x axis, a few bars in each, a linear y axis from zero with a titled scale and light
 * grid lines, the value above every bar (turned upright when the bars are too narrow for it),
 * an optional small label under each bar, an optional whisker over each bar from its slowest to
 * its fastest repetition, and a legend on top. A bar without a value (NaN) is a grey dash on the
 * axis: the cell did not run.
 *
 * <p>Text widths are estimated (no font metrics in a headless writer), with some slack; the
 * drawing scales with its container through its viewBox. Every text is escaped.
 */
final class SvgBarChart {
    /**
     * @param value       the bar's height in axis units; NaN when there is none
     * @param label       the text above the bar (usually the value, formatted)
     * @param colour      fill and outline colour
     * @param fillOpacity 1 for a solid bar, less for a pale one (its outline stays solid)
     * @param under       a short label under the bar, or null
     * @param tooltip     shown when the pointer rests on the bar
     * @param lo          the bottom of the bar's spread whisker (the slowest repetition), NaN for none
     * @param hi          the top of the whisker (the fastest repetition), NaN for none
     */
    record Bar(double value, String label, String colour, double fillOpacity, String under, String tooltip,
               double lo, double hi) {

        /** A bar without a whisker. */
        Bar(double value, String label, String colour, double fillOpacity, String under, String tooltip) {
            this(value, label, colour, fillOpacity, under, tooltip, Double.NaN, Double.NaN);
        }

        boolean hasSpread() {
            return Double.isFinite(value) && Double.isFinite(lo) && Double.isFinite(hi) && hi > lo;
        }

        /** The highest point drawn: the bar or its whisker. */
        double top() {
            return hasSpread() ? Math.max(value, hi) : value;
        }
    }

    /** A group of bars with its label (and an optional second line) under the axis. */
    record Group(String label, String sublabel, List<Bar> bars) {
        Group {
            bars = List.copyOf(bars);
        }
    }

    /** A legend entry: a swatch drawn like a bar, then the label. */
    record Key(String label, String colour, double fillOpacity) {
    }

    static final String FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', Arial, sans-serif";
    private static final double VALUE_FONT = 11;
    private static final double TICK_FONT = 11;
    private static final double GROUP_FONT = 13;
    private static final double SUB_FONT = 11;
    private static final double UNDER_FONT = 10;
    private static final double MAX_BAR = 54;

    private final String title;
    private final String yTitle;
    private final int width;
    private final int plotHeight;
    private final List<Group> groups = new ArrayList<>();
    private final List<Key> legend = new ArrayList<>();

    /**
     * @param title      for screen readers and the tooltip of the whole chart (the page shows
     *                   its own heading)
     * @param yTitle     the y axis title, with its unit
     * @param width      the drawing's width in pixels (its natural size)
     * @param plotHeight the height of the bars' area
     */
    SvgBarChart(String title, String yTitle, int width, int plotHeight) {
        this.title = title;
        this.yTitle = yTitle;
        this.width = width;
        this.plotHeight = plotHeight;
    }

    SvgBarChart group(String label, String sublabel, List<Bar> bars) {
        groups.add(new Group(label, sublabel, bars));
        return this;
    }

    SvgBarChart key(String label, String colour, double fillOpacity) {
        legend.add(new Key(label, colour, fillOpacity));
        return this;
    }

    List<Group> groups() {
        return groups;
    }

    /** Estimated width of {@code s} in pixels at {@code size}, erring wide. */
    static double textWidth(String s, double size) {
        double em = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (".,:;'|!il1 ()[]".indexOf(c) >= 0) {
                em += 0.34;
            } else if (c == 'm' || c == 'w' || c == 'M' || c == 'W' || c == '×') {
                em += 0.92;
            } else if (Character.isUpperCase(c)) {
                em += 0.72;
            } else {
                em += 0.62;
            }
        }
        return em * size;
    }

    /** A step of 1, 2, 2.5 or 5 times a power of ten, at least {@code raw}. */
    static double niceStep(double raw) {
        if (!(raw > 0) || !Double.isFinite(raw)) {
            return 1;
        }
        double mag = Math.pow(10, Math.floor(Math.log10(raw)));
        double f = raw / mag;
        double nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10;
        return nice * mag;
    }

    static String tick(double v) {
        if (v == 0) {
            return "0";
        }
        return new BigDecimal(v).round(new MathContext(6)).stripTrailingZeros().toPlainString();
    }

    String render() {
        int bars = 0;
        boolean anyUnder = false;
        boolean anySub = false;
        for (Group g : groups) {
            bars = Math.max(bars, g.bars().size());
            anySub |= g.sublabel() != null && !g.sublabel().isEmpty();
            for (Bar b : g.bars()) {
                anyUnder |= b.under() != null && !b.under().isEmpty();
            }
        }
        bars = Math.max(bars, 1);
        int nGroups = Math.max(groups.size(), 1);

        // Legend rows on top.
        double right = 14;
        List<double[]> keyPos = new ArrayList<>();
        double lx = 0;
        double ly = 0;
        double legendMaxW = width - 2 * right;
        for (Key k : legend) {
            double w = 14 + 6 + textWidth(k.label(), 12) + 20;
            if (lx > 0 && lx + w > legendMaxW) {
                lx = 0;
                ly += 22;
            }
            keyPos.add(new double[] {lx, ly});
            lx += w;
        }
        double legendH = legend.isEmpty() ? 0 : ly + 22;

        // Horizontal layout.
        double top = 10 + legendH + 8;
        double plotH = plotHeight;
        // The scale: first guess its labels' width, then the bars' width decides the labels' turn.
        double left = 70;
        double plotW = width - left - right;
        double groupW = plotW / nGroups;
        double slot = Math.min(MAX_BAR + 6, groupW * 0.84 / bars);
        double gap = Math.max(2, Math.min(6, slot * 0.14));
        double barW = slot - gap;
        boolean rotate = false;
        for (Group g : groups) {
            for (Bar b : g.bars()) {
                if (Double.isFinite(b.value()) && textWidth(b.label(), VALUE_FONT) > slot + gap) {
                    rotate = true;
                }
            }
        }
        double required = 0;
        for (Group g : groups) {
            for (Bar b : g.bars()) {
                if (Double.isFinite(b.value()) && b.value() > 0) {
                    double need = rotate ? textWidth(b.label(), VALUE_FONT) + 8 : VALUE_FONT + 7;
                    need = Math.min(need, plotH * 0.6);
                    required = Math.max(required, b.top() * plotH / (plotH - need));
                }
            }
        }
        double step = niceStep(required > 0 ? required / 5 : 0.2);
        int ticks = Math.max(1, (int) Math.ceil(required / step - 1e-9));
        double max = ticks * step;

        boolean rotateUnder = false;
        double underH = 0;
        if (anyUnder) {
            double widest = 0;
            for (Group g : groups) {
                for (Bar b : g.bars()) {
                    if (b.under() != null) {
                        widest = Math.max(widest, textWidth(b.under(), UNDER_FONT));
                    }
                }
            }
            rotateUnder = widest > slot + gap - 2;
            underH = rotateUnder ? widest + 8 : UNDER_FONT + 6;
        }
        double groupFont = GROUP_FONT;
        for (Group g : groups) {
            while (groupFont > 9 && textWidth(g.label(), groupFont) > groupW - 4) {
                groupFont -= 1;
            }
        }
        double bottom = 6 + underH + groupFont + 6 + (anySub ? SUB_FONT + 5 : 0) + 8;
        double height = top + plotH + bottom;

        StringBuilder sb = new StringBuilder();
        sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" viewBox=\"0 0 ").append(width).append(' ')
                .append(Html.num(height)).append("\" width=\"").append(width).append("\" height=\"")
                .append(Html.num(height)).append("\" role=\"img\" aria-label=\"").append(Html.esc(title))
                .append("\" font-family=\"").append(Html.esc(FONT)).append("\">\n");
        sb.append("<title>").append(Html.esc(title)).append("</title>\n");

        for (int i = 0; i < legend.size(); i++) {
            Key k = legend.get(i);
            double x = right + keyPos.get(i)[0];
            double y = 10 + keyPos.get(i)[1];
            sb.append("<rect x=\"").append(Html.num(x + 0.5)).append("\" y=\"").append(Html.num(y + 0.5))
                    .append("\" width=\"13\" height=\"13\" rx=\"2\"").append(fill(k.colour(), k.fillOpacity()))
                    .append("/>");
            sb.append("<text x=\"").append(Html.num(x + 20)).append("\" y=\"").append(Html.num(y + 11))
                    .append("\" font-size=\"12\" fill=\"#1f2937\">").append(Html.esc(k.label())).append("</text>\n");
        }

        // Grid, scale and axis title.
        double base = top + plotH;
        for (int t = 0; t <= ticks; t++) {
            double y = base - plotH * t / ticks;
            sb.append("<line x1=\"").append(Html.num(left)).append("\" x2=\"").append(Html.num(left + plotW))
                    .append("\" y1=\"").append(Html.num(y)).append("\" y2=\"").append(Html.num(y))
                    .append("\" stroke=\"").append(t == 0 ? "#4b5563" : "#e5e7eb").append("\" stroke-width=\"1\"/>");
            sb.append("<text x=\"").append(Html.num(left - 6)).append("\" y=\"").append(Html.num(y + 4))
                    .append("\" font-size=\"").append(Html.num(TICK_FONT))
                    .append("\" text-anchor=\"end\" fill=\"#4b5563\">").append(Html.esc(tick(t * step)))
                    .append("</text>\n");
        }
        sb.append("<text transform=\"translate(16,").append(Html.num(top + plotH / 2))
                .append(") rotate(-90)\" text-anchor=\"middle\" font-size=\"12\" fill=\"#374151\">")
                .append(Html.esc(yTitle)).append("</text>\n");

        // Bars, values, labels.
        for (int gi = 0; gi < groups.size(); gi++) {
            Group g = groups.get(gi);
            double gx = left + gi * groupW;
            double used = g.bars().size() * slot - gap;
            double x0 = gx + (groupW - used) / 2;
            if (gi > 0) {
                sb.append("<line x1=\"").append(Html.num(gx)).append("\" x2=\"").append(Html.num(gx))
                        .append("\" y1=\"").append(Html.num(base)).append("\" y2=\"").append(Html.num(base + 5))
                        .append("\" stroke=\"#9ca3af\"/>");
            }
            for (int bi = 0; bi < g.bars().size(); bi++) {
                Bar b = g.bars().get(bi);
                double x = x0 + bi * slot;
                double cx = x + barW / 2;
                if (Double.isFinite(b.value())) {
                    double h = Math.max(b.value() > 0 ? 1 : 0, plotH * Math.max(0, b.value()) / max);
                    sb.append("<rect x=\"").append(Html.num(x)).append("\" y=\"").append(Html.num(base - h))
                            .append("\" width=\"").append(Html.num(barW)).append("\" height=\"").append(Html.num(h))
                            .append('"').append(fill(b.colour(), b.fillOpacity())).append("><title>")
                            .append(Html.esc(b.tooltip())).append("</title></rect>");
                    double labelAt = h;
                    if (b.hasSpread()) {
                        double yLo = base - plotH * Math.max(0, b.lo()) / max;
                        double yHi = base - plotH * b.hi() / max;
                        double cap = Math.min(barW * 0.25, 5);
                        sb.append("<path class=\"spread\" d=\"M").append(Html.num(cx)).append(' ').append(Html.num(yLo))
                                .append("V").append(Html.num(yHi)).append("M").append(Html.num(cx - cap)).append(' ')
                                .append(Html.num(yHi)).append("H").append(Html.num(cx + cap)).append("M")
                                .append(Html.num(cx - cap)).append(' ').append(Html.num(yLo)).append("H")
                                .append(Html.num(cx + cap)).append("\" stroke=\"#111827\" stroke-opacity=\"0.7\""
                                        + " stroke-width=\"1.2\" fill=\"none\"/>");
                        labelAt = Math.max(h, base - yHi);
                    }
                    if (rotate) {
                        sb.append("<text transform=\"translate(").append(Html.num(cx + VALUE_FONT * 0.36))
                                .append(',').append(Html.num(base - labelAt - 5)).append(") rotate(-90)\"");
                    } else {
                        sb.append("<text x=\"").append(Html.num(cx)).append("\" y=\"")
                                .append(Html.num(base - labelAt - 5)).append("\" text-anchor=\"middle\"");
                    }
                    sb.append(" font-size=\"").append(Html.num(VALUE_FONT)).append("\" fill=\"#111827\">")
                            .append(Html.esc(b.label())).append("</text>\n");
                } else {
                    sb.append("<text x=\"").append(Html.num(cx)).append("\" y=\"").append(Html.num(base - 4))
                            .append("\" text-anchor=\"middle\" font-size=\"12\" fill=\"#9ca3af\">–<title>")
                            .append(Html.esc(b.tooltip())).append("</title></text>\n");
                }
                if (b.under() != null && !b.under().isEmpty()) {
                    if (rotateUnder) {
                        sb.append("<text transform=\"translate(").append(Html.num(cx + UNDER_FONT * 0.36))
                                .append(',').append(Html.num(base + 6)).append(") rotate(-90)\" text-anchor=\"end\"");
                    } else {
                        sb.append("<text x=\"").append(Html.num(cx)).append("\" y=\"")
                                .append(Html.num(base + 5 + UNDER_FONT)).append("\" text-anchor=\"middle\"");
                    }
                    sb.append(" font-size=\"").append(Html.num(UNDER_FONT)).append("\" fill=\"#4b5563\">")
                            .append(Html.esc(b.under())).append("</text>\n");
                }
            }
            double ly0 = base + 6 + underH + groupFont;
            sb.append("<text x=\"").append(Html.num(gx + groupW / 2)).append("\" y=\"").append(Html.num(ly0))
                    .append("\" text-anchor=\"middle\" font-size=\"").append(Html.num(groupFont))
                    .append("\" font-weight=\"600\" fill=\"#111827\">").append(Html.esc(g.label())).append("</text>");
            if (g.sublabel() != null && !g.sublabel().isEmpty()) {
                sb.append("<text x=\"").append(Html.num(gx + groupW / 2)).append("\" y=\"")
                        .append(Html.num(ly0 + SUB_FONT + 5)).append("\" text-anchor=\"middle\" font-size=\"")
                        .append(Html.num(SUB_FONT)).append("\" fill=\"#6b7280\">").append(Html.esc(g.sublabel()))
                        .append("</text>");
            }
            sb.append('\n');
        }
        sb.append("</svg>\n");
        return sb.toString();
    }

    private static String fill(String colour, double opacity) {
        String c = Html.esc(colour);
        return " fill=\"" + c + "\" fill-opacity=\"" + Html.num(opacity) + "\" stroke=\"" + c + "\" stroke-width=\"1\"";
    }
}
