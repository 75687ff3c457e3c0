package org.bforest.bench.cli;

import java.util.Locale;

/** What value each key carries in a run ({@code --values}). */
public enum ValueMode {
    /** {@code ~key}: distinct from the key, and the CBS-tree's best case (values that follow the keys compress). */
    KEY,
    /** A splitmix64 mix of the key and the dataset seed: values with no order, which nothing can compress. */
    RANDOM,
    /** Every value 0, as a set would store. */
    NONE;

    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ValueMode parse(String value) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--values is key (value ~key), random (a hash of the key) or none"
                    + " (0), not '" + value + "'");
        }
    }
}
