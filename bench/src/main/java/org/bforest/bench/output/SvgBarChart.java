package org.bforest.bench.output;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;

/**
 * A horizontal bar chart as inline SVG, built to stay readable with twenty structures: a row per
 * structure (its colour swatch and name at the left, written once), a panel per column (a
 * workload, a dataset, a way of measuring) side by side, each with its own linear scale from
 * zero, its title on top and its ticks underneath. Every bar ends in its value, written after
 * the bar (and after its whisker, which spans the slowest to the fastest repetition); a cell
 * without a value (NaN) is a grey dash: it did not run.
 *
 * <p>Nothing can overlap, by construction: every row has its own band, so names and values
 * never meet another row's; a panel's scale leaves room after its longest bar for the value;
 * panel titles are shortened to their panel's width; a tick label that would touch another is
 * left out. Text widths are estimated ({@link #textWidth}, erring wide; there are no font metrics
 * in a headless writer), and the drawing scales with its container through its viewBox. No text
 * is turned. Every text is escaped.
 */
final class SvgBarChart {
    /**
     * @param value       the bar's length in its panel's units; NaN when the cell did not run
     * @param label       the text after the bar (usually the value, formatted)
     * @param fillOpacity 1 for a solid bar, less for a pale one (its outline stays solid)
     * @param tooltip     shown when the pointer rests on the bar
     * @param lo          the left end of the bar's spread whisker (the slowest repetition), NaN for none
     * @param hi          the right end of the whisker (the fastest repetition), NaN for none
     */
    record Bar(double value, String label, double fillOpacity, String tooltip, double lo, double hi) {

        /** A bar without a whisker. */
        Bar(double value, String label, double fillOpacity, String tooltip) {
            this(value, label, fillOpacity, tooltip, Double.NaN, Double.NaN);
        }

        boolean hasSpread() {
            return Double.isFinite(value) && Double.isFinite(lo) && Double.isFinite(hi) && hi > lo;
        }

        /** The farthest point drawn: the bar or its whisker. */
        double end() {
            return hasSpread() ? Math.max(value, hi) : value;
        }
    }

    /**
     * A row: its name and colour, a bar per panel (in the panels' order), and whether a little
     * space separates it from the row above (the first row of a group).
     */
    record Row(String label, String colour, List<Bar> bars, boolean groupStart) {
        Row {
            bars = List.copyOf(bars);
        }
    }

    /** A column of bars: its title, and an optional second part in lighter type. */
    record Panel(String title, String subtitle) {
    }

    static final String FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', Arial, sans-serif";
    static final double NAME_FONT = 12;
    static final double VALUE_FONT = 11;
    static final double TITLE_FONT = 13;
    static final double SUB_FONT = 11;
    static final double TICK_FONT = 10;
    static final double AXIS_FONT = 11;
    /** Bold type is about this much wider than regular. */
    static final double BOLD = 1.1;
    static final double ROW = 19;
    static final double BAR = 12;
    static final double GROUP_GAP = 7;
    static final double PANEL_GAP = 26;
    static final double MIN_PANEL = 130;
    private static final double SWATCH = 10;

    private final String title;
    private final String axisTitle;
    private final int width;
    private final List<Panel> panels = new ArrayList<>();
    private final List<Row> rows = new ArrayList<>();

    /**
     * @param title     for screen readers and the tooltip of the whole chart (the page shows its
     *                  own heading)
     * @param axisTitle under the panels: what the bars measure, with the unit
     * @param width     the drawing's natural width in pixels (wider if the panels need it)
     */
    SvgBarChart(String title, String axisTitle, int width) {
        this.title = title;
        this.axisTitle = axisTitle;
        this.width = width;
    }

    SvgBarChart panel(String title, String subtitle) {
        panels.add(new Panel(title, subtitle));
        return this;
    }

    SvgBarChart row(String label, String colour, List<Bar> bars) {
        return row(label, colour, bars, false);
    }

    SvgBarChart row(String label, String colour, List<Bar> bars, boolean groupStart) {
        if (bars.size() != panels.size()) {
            throw new IllegalArgumentException("row '" + label + "' has " + bars.size() + " bars for "
                    + panels.size() + " panels");
        }
        rows.add(new Row(label, colour, bars, groupStart));
        return this;
    }

    List<Row> rows() {
        return rows;
    }

    List<Panel> panels() {
        return panels;
    }

    /**
     * Estimated width of {@code s} in pixels at {@code size}, erring wide for the usual sans-serif
     * faces (DejaVu Sans, the widest of them, included): digits and most letters 0.64 em.
     */
    static double textWidth(String s, double size) {
        double em = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (".,:;'|!il ()[]".indexOf(c) >= 0) {
                em += 0.64;
            } else if (c == 'm' || c == 'w' || c == 'M' || c == 'W' || c == '×' || c == '≈' || c == '…') {
                em += 1.0;
            } else if (Character.isUpperCase(c)) {
                em += 0.78;
            } else {
                em += 0.64;
            }
        }
        return em * size;
    }

    /** {@code s}, shortened with an ellipsis in the middle until it fits {@code max} pixels ("" if nothing does). */
    static String fit(String s, double size, double max) {
        if (textWidth(s, size) <= max) {
            return s;
        }
        for (int keep = s.length() - 1; keep >= 2; keep--) {
            int head = (keep + 1) / 2;
            String t = s.substring(0, head) + "…" + s.substring(s.length() - (keep - head));
            if (textWidth(t, size) <= max) {
                return t;
            }
        }
        return "";
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
        int n = Math.max(1, panels.size());
        double left = 8;
        double right = 10;
        double nameX = left + SWATCH + 6;
        double widest = 0;
        for (Row r : rows) {
            widest = Math.max(widest, textWidth(r.label(), NAME_FONT));
        }
        double maxName = Math.max(80, width * 0.28);
        double nameW = Math.min(widest, maxName);
        double panelsLeft = nameX + nameW + 14;
        double w = Math.max(width, panelsLeft + right + n * MIN_PANEL + (n - 1) * PANEL_GAP);
        double panelW = (w - panelsLeft - right - (n - 1) * PANEL_GAP) / n;

        // Vertical layout: panel titles, rows, ticks, the axis title.
        double top = 8;
        double titleY = top + TITLE_FONT;
        double plotTop = titleY + 9;
        double[] rowTop = new double[rows.size()];
        double y = plotTop;
        for (int i = 0; i < rows.size(); i++) {
            if (i > 0 && rows.get(i).groupStart()) {
                y += GROUP_GAP;
            }
            rowTop[i] = y;
            y += ROW;
        }
        double plotBottom = y + 3;
        double tickY = plotBottom + 4 + TICK_FONT;
        double axisY = tickY + 7 + AXIS_FONT;
        double height = axisY + 8;

        StringBuilder sb = new StringBuilder();
        sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart bars\" viewBox=\"0 0 ").append(Html.num(w))
                .append(' ').append(Html.num(height)).append("\" width=\"").append(Html.num(w))
                .append("\" height=\"").append(Html.num(height)).append("\" role=\"img\" aria-label=\"")
                .append(Html.esc(title)).append("\" font-family=\"").append(Html.esc(FONT)).append("\">\n");
        sb.append("<title>").append(Html.esc(title)).append("</title>\n");

        // The names, once, at the left; a faint band behind every other row guides the eye across.
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            double ry = rowTop[i];
            if (i % 2 == 1) {
                sb.append("<rect class=\"band\" x=\"").append(Html.num(left)).append("\" y=\"").append(Html.num(ry))
                        .append("\" width=\"").append(Html.num(w - left - right / 2)).append("\" height=\"")
                        .append(Html.num(ROW)).append("\" fill=\"#f3f4f6\"/>");
            }
            sb.append("<rect class=\"swatch\" x=\"").append(Html.num(left)).append("\" y=\"")
                    .append(Html.num(ry + (ROW - SWATCH) / 2)).append("\" width=\"").append(Html.num(SWATCH))
                    .append("\" height=\"").append(Html.num(SWATCH)).append("\" rx=\"2\" fill=\"")
                    .append(Html.esc(r.colour())).append("\"/>");
            String name = fit(r.label(), NAME_FONT, nameW);
            if (!name.equals(r.label())) { // shortened: the whole name on hover
                sb.append("<g><title>").append(Html.esc(r.label())).append("</title>");
            }
            sb.append("<text class=\"name\" x=\"").append(Html.num(nameX)).append("\" y=\"")
                    .append(Html.num(baseline(ry, NAME_FONT))).append("\" font-size=\"").append(Html.num(NAME_FONT))
                    .append("\" fill=\"#111827\">").append(Html.esc(name)).append("</text>")
                    .append(name.equals(r.label()) ? "" : "</g>").append('\n');
        }

        for (int p = 0; p < panels.size(); p++) {
            Panel panel = panels.get(p);
            double px = panelsLeft + p * (panelW + PANEL_GAP);
            panel(sb, p, panel, px, panelW, titleY, plotTop, plotBottom, tickY, rowTop);
        }
        sb.append("<text class=\"axis\" x=\"").append(Html.num(panelsLeft)).append("\" y=\"").append(Html.num(axisY))
                .append("\" font-size=\"").append(Html.num(AXIS_FONT)).append("\" fill=\"#374151\">")
                .append(Html.esc(fit(axisTitle, AXIS_FONT, w - panelsLeft - right))).append("</text>\n");
        sb.append("</svg>\n");
        return sb.toString();
    }

    /** The baseline of a text of {@code size} centred in the row starting at {@code rowTop}. */
    private static double baseline(double rowTop, double size) {
        return rowTop + ROW / 2 + size * 0.36;
    }

    private void panel(StringBuilder sb, int p, Panel panel, double px, double panelW, double titleY, double plotTop,
                       double plotBottom, double tickY, double[] rowTop) {
        // The title, then as much of the subtitle as fits.
        String t = fit(panel.title(), TITLE_FONT * BOLD, panelW);
        sb.append("<text class=\"panel\" x=\"").append(Html.num(px)).append("\" y=\"").append(Html.num(titleY))
                .append("\" font-size=\"").append(Html.num(TITLE_FONT)).append("\" font-weight=\"700\" fill=\"#111827\">")
                .append(Html.esc(t)).append("</text>");
        double used = textWidth(t, TITLE_FONT * BOLD);
        if (panel.subtitle() != null && !panel.subtitle().isEmpty() && used + 6 < panelW) {
            String sub = fit(panel.subtitle(), SUB_FONT, panelW - used - 6);
            if (!sub.isEmpty()) {
                sb.append("<text class=\"panel-sub\" x=\"").append(Html.num(px + used + 6)).append("\" y=\"")
                        .append(Html.num(titleY)).append("\" font-size=\"").append(Html.num(SUB_FONT))
                        .append("\" fill=\"#6b7280\">").append(Html.esc(sub)).append("</text>");
            }
        }
        sb.append('\n');

        // The scale: long enough that every value fits after its bar inside the panel.
        double required = 0;
        for (Row r : rows) {
            Bar b = r.bars().get(p);
            if (Double.isFinite(b.value()) && b.end() > 0) {
                double need = Math.min(textWidth(b.label(), VALUE_FONT) + 8, panelW * 0.7);
                required = Math.max(required, b.end() * panelW / (panelW - need));
            }
        }
        if (!(required > 0)) {
            required = 1;
        }
        double widestTick = textWidth(tick(required * 2), TICK_FONT) + 10;
        int parts = 4;
        while (parts > 1 && panelW / parts < widestTick) {
            parts--;
        }
        double step = niceStep(required / parts);
        int ticks = Math.max(1, (int) Math.ceil(required / step - 1e-9));
        double max = ticks * step;

        // Grid lines and tick labels (a label that would touch the one before it is left out).
        double lastRight = Double.NEGATIVE_INFINITY;
        for (int k = 0; k <= ticks; k++) {
            double x = px + panelW * k / ticks;
            sb.append("<line x1=\"").append(Html.num(x)).append("\" x2=\"").append(Html.num(x)).append("\" y1=\"")
                    .append(Html.num(plotTop - 2)).append("\" y2=\"").append(Html.num(plotBottom + 3))
                    .append("\" stroke=\"").append(k == 0 ? "#6b7280" : "#e5e7eb").append("\" stroke-width=\"1\"/>");
            String label = tick(k * step);
            double lw = textWidth(label, TICK_FONT);
            // The first label starts at the axis, the last ends at the panel's edge, the others centre.
            String anchor = k == 0 ? "start" : k == ticks ? "end" : "middle";
            double x0 = k == 0 ? x : k == ticks ? x - lw : x - lw / 2;
            if (x0 < lastRight + 6) {
                continue;
            }
            lastRight = x0 + lw;
            sb.append("<text class=\"tick\" x=\"").append(Html.num(x)).append("\" y=\"").append(Html.num(tickY))
                    .append("\" font-size=\"").append(Html.num(TICK_FONT)).append("\" text-anchor=\"").append(anchor)
                    .append("\" fill=\"#6b7280\">").append(Html.esc(label)).append("</text>");
        }
        sb.append('\n');

        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            Bar b = r.bars().get(p);
            double ry = rowTop[i];
            if (!Double.isFinite(b.value())) {
                sb.append("<g><title>").append(Html.esc(b.tooltip())).append("</title><text class=\"value none\" x=\"")
                        .append(Html.num(px + 4)).append("\" y=\"").append(Html.num(baseline(ry, VALUE_FONT)))
                        .append("\" font-size=\"").append(Html.num(VALUE_FONT)).append("\" fill=\"#6b7280\">–</text></g>\n");
                continue;
            }
            double len = Math.max(b.value() > 0 ? 1 : 0, panelW * Math.max(0, b.value()) / max);
            double by = ry + (ROW - BAR) / 2;
            String c = Html.esc(r.colour());
            sb.append("<rect class=\"bar\" x=\"").append(Html.num(px)).append("\" y=\"").append(Html.num(by))
                    .append("\" width=\"").append(Html.num(len)).append("\" height=\"").append(Html.num(BAR))
                    .append("\" fill=\"").append(c).append("\" fill-opacity=\"").append(Html.num(b.fillOpacity()))
                    .append("\" stroke=\"").append(c).append("\" stroke-width=\"1\"><title>")
                    .append(Html.esc(b.tooltip())).append("</title></rect>");
            double end = px + len;
            if (b.hasSpread()) {
                double xLo = px + panelW * Math.max(0, b.lo()) / max;
                double xHi = px + panelW * b.hi() / max;
                double cy = by + BAR / 2;
                double cap = 4;
                sb.append("<path class=\"spread\" d=\"M").append(Html.num(xLo)).append(' ').append(Html.num(cy))
                        .append("H").append(Html.num(xHi)).append("M").append(Html.num(xLo)).append(' ')
                        .append(Html.num(cy - cap)).append("V").append(Html.num(cy + cap)).append("M")
                        .append(Html.num(xHi)).append(' ').append(Html.num(cy - cap)).append("V")
                        .append(Html.num(cy + cap)).append("\" stroke=\"#111827\" stroke-opacity=\"0.75\""
                                + " stroke-width=\"1.2\" fill=\"none\"/>");
                end = Math.max(end, xHi);
            }
            sb.append("<text class=\"value\" x=\"").append(Html.num(end + 4)).append("\" y=\"")
                    .append(Html.num(baseline(ry, VALUE_FONT))).append("\" font-size=\"").append(Html.num(VALUE_FONT))
                    .append("\" fill=\"#111827\">").append(Html.esc(b.label())).append("</text>\n");
        }
    }
}
