package org.bforest.bench.output;

import java.util.Locale;
import org.bforest.bench.structures.Structure;

/**
 * One colour per structure, the same in every chart and every report (by the structure's place
 * in {@link Structure}, so adding a structure does not recolour the others), and, for line
 * charts, one marker shape per structure.
 *
 * <p>24 colours: Tableau 10 first (the first ten structures keep the colours they always had),
 * then fourteen more picked one at a time from Tableau 20, d3's category20b, Kelly's 22 and the
 * Okabe–Ito colours, each time the one farthest (CIEDE2000) from those already taken, among
 * those of lightness L* 28 to 80, so every colour reads on white and none is black. The
 * nearest two are 14 apart in CIEDE2000 (16 in CIE76): told apart side by side. Every structure
 * has its own colour ({@code PaletteTest} checks that the list outnumbers {@link Structure});
 * should structures ever outnumber it, the colours repeat and {@link #dash} tells the second
 * round apart in line charts, as the marker shapes do.
 */
final class Palette {
    private static final String[] COLOURS = {
        // Tableau 10
        "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
        // farthest-first additions
        "#ff9896", "#8c6d31", "#aec7e8", "#7b4173", "#c5b0d5", "#bab0ac", "#637939", "#e6ab02", "#654522", "#5254a3",
        "#1b9e77", "#c2b280", "#d6616b", "#e7298a",
    };

    /** The marker shapes of a line chart's points, by the structure's place modulo their count. */
    enum Marker { CIRCLE, SQUARE, TRIANGLE, DIAMOND, TRIANGLE_DOWN, PENTAGON }

    /** Neutral grey, for legend entries that are not a structure. */
    static final String NEUTRAL = "#6b7280";

    private Palette() {
    }

    /** How many distinct colours there are. */
    static int size() {
        return COLOURS.length;
    }

    static String of(Structure s) {
        return colour(s.ordinal());
    }

    static Marker marker(Structure s) {
        return marker(s.ordinal());
    }

    /**
     * The stroke-dasharray of the structure's line: null (solid) while the colours last, dashed
     * for the structures that share a colour with an earlier one, dotted for a third round.
     */
    static String dash(Structure s) {
        return dash(s.ordinal());
    }

    /** The colour of the {@code index}-th structure (by its place in {@link Structure}). */
    static String colour(int index) {
        return COLOURS[index % COLOURS.length];
    }

    static Marker marker(int index) {
        Marker[] all = Marker.values();
        return all[index % all.length];
    }

    static String dash(int index) {
        return switch (index / COLOURS.length) {
            case 0 -> null;
            case 1 -> "7 4";
            default -> "2 3";
        };
    }

    /**
     * {@code colour} darkened until it has a contrast of at least 4.5:1 on white (WCAG's for
     * text): the colour of a structure's figures written in type, so that the pale colours stay
     * legible. A colour dark enough already comes back unchanged.
     */
    static String ink(String colour) {
        int rgb = Integer.parseInt(colour.substring(1), 16);
        double r = (rgb >> 16) & 0xff;
        double g = (rgb >> 8) & 0xff;
        double b = rgb & 0xff;
        for (int i = 0; i < 100 && contrastOnWhite(r, g, b) < 4.5; i++) {
            r *= 0.95;
            g *= 0.95;
            b *= 0.95;
        }
        return String.format(Locale.ROOT, "#%02x%02x%02x", Math.round(r), Math.round(g), Math.round(b));
    }

    /** WCAG contrast ratio of an sRGB colour against white. */
    static double contrastOnWhite(double r, double g, double b) {
        double l = 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
        return 1.05 / (l + 0.05);
    }

    private static double linear(double c) {
        double v = c / 255;
        return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    }
}
