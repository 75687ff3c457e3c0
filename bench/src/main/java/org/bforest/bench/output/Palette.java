package org.bforest.bench.output;

import org.bforest.bench.structures.Structure;

/**
 * One colour per structure, the same in every chart and every report (by the structure's place
 * in {@link Structure}, so adding a structure does not recolour the others). Tableau 10,
 * readable on white and for the common colour-vision deficiencies.
 */
final class Palette {
    private static final String[] COLOURS = {
        "#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#9c755f", "#76b7b2", "#e15759", "#edc948", "#ff9da7", "#bab0ac",
    };

    /** Neutral grey, for legend entries that are not a structure. */
    static final String NEUTRAL = "#6b7280";

    private Palette() {
    }

    static String of(Structure s) {
        return COLOURS[s.ordinal() % COLOURS.length];
    }
}
