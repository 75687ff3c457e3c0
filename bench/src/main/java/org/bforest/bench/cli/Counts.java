package org.bforest.bench.cli;

import java.math.BigDecimal;
import java.util.Locale;

/**
 * Parses counts such as {@code 150M}, {@code 10M}, {@code 1K}, {@code 2.5M}, {@code 1_000_000}
 * or {@code 50000}. The suffixes are decimal, as in the papers: K = 10^3, M = 10^6, G = 10^9.
 */
public final class Counts {
    private Counts() {
    }

    /**
     * @throws IllegalArgumentException naming the option and the bad value
     */
    public static long parse(String option, String text) {
        String s = text.trim().replace("_", "").toUpperCase(Locale.ROOT);
        long scale = 1;
        if (!s.isEmpty()) {
            switch (s.charAt(s.length() - 1)) {
                case 'K' -> scale = 1_000L;
                case 'M' -> scale = 1_000_000L;
                case 'G' -> scale = 1_000_000_000L;
                default -> scale = 1;
            }
            if (scale != 1) {
                s = s.substring(0, s.length() - 1);
            }
        }
        if (!s.matches("[0-9]+(\\.[0-9]+)?")) {
            throw new IllegalArgumentException(option + " wants a count such as 1000, 10K, 10M or 1.5M, not '" + text
                    + "'");
        }
        BigDecimal v = new BigDecimal(s).multiply(BigDecimal.valueOf(scale));
        try {
            return v.longValueExact();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(option + " " + text + " is not a whole number or is too large");
        }
    }

    /** Formats a count the short way: 150M, 1.5M, 10K, 999. */
    public static String format(long n) {
        if (n >= 1_000_000_000L && n % 10_000_000L == 0) {
            return trim(n / 1e9) + "G";
        }
        if (n >= 1_000_000L && n % 10_000L == 0) {
            return trim(n / 1e6) + "M";
        }
        if (n >= 1_000L && n % 10L == 0) {
            return trim(n / 1e3) + "K";
        }
        return Long.toString(n);
    }

    private static String trim(double d) {
        String s = String.format(Locale.ROOT, "%.2f", d);
        s = s.replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }
}
