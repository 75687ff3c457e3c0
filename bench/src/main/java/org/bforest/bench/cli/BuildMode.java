package org.bforest.bench.cli;

import java.util.Locale;

/** How each repetition builds the structure before its workload runs ({@code --build}). */
public enum BuildMode {
    /** Bulk load of the sorted loaded keys (the BS-tree paper's set-up). */
    BULK,
    /**
     * The CSB+-tree paper's "stabilized" tree: bulk-load every tenth loaded key, then insert the
     * other 90% one at a time in a seeded random order, so that the nodes have the fill inserts
     * give them; the build time includes the inserts. Read-only structures cannot be built so.
     */
    STABILIZED;

    /** Every {@code SEED_EVERY}-th sorted loaded key is bulk-loaded in {@link #STABILIZED}. */
    public static final int SEED_EVERY = 10;

    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static BuildMode parse(String value) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--build is bulk (bulk-load the keys) or stabilized (bulk-load 10%,"
                    + " insert the other 90%), not '" + value + "'");
        }
    }
}
