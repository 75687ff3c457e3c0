package org.bforest.bench.output;

import java.util.Locale;

/**
 * Escaping for the HTML report, which is also well-formed XML (XHTML syntax): the five markup
 * characters become references, and characters XML 1.0 does not allow (controls, lone
 * surrogates) become U+FFFD, so any structure name, note or file path is safe in text and in
 * attribute values, in HTML and in SVG alike.
 */
final class Html {
    private Html() {
    }

    static String esc(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder(s.length() + 16);
        s.codePoints().forEach(c -> {
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> {
                    boolean allowed = c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF)
                            || (c >= 0xE000 && c <= 0xFFFD) || c >= 0x10000;
                    sb.appendCodePoint(allowed ? c : 0xFFFD);
                }
            }
        });
        return sb.toString();
    }

    /** A coordinate or length for SVG: at most one decimal, no exponent, '.' as the separator. */
    static String num(double v) {
        long tenths = Math.round(v * 10);
        return tenths % 10 == 0 ? Long.toString(tenths / 10) : String.format(Locale.ROOT, "%.1f", tenths / 10.0);
    }
}
