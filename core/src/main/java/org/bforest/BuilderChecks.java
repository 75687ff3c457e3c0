package org.bforest;

/**
 * The checks of the builders' settings, written once so that every builder rejects a bad setting
 * alike: at the setter, before anything is built, with an {@link IllegalArgumentException} that
 * names the setting, says what is allowed and what it got.
 */
final class BuilderChecks {
    private BuilderChecks() {
    }

    /** A bulk load's leaf fill: the fraction of each leaf's slots it fills, 0.5 to 1. */
    static double leafFill(double fill) {
        if (!(fill >= 0.5 && fill <= 1.0)) {   // also rejects NaN
            throw new IllegalArgumentException("leafFill must be in [0.5, 1], got " + fill);
        }
        return fill;
    }

    /**
     * A setting that takes one of a few sizes, such as a node's keys.
     *
     * @param setting the setter's name
     * @param what    what the number counts, for the message
     * @param allowed the sizes allowed, ascending (at least two)
     */
    static int oneOf(String setting, String what, int value, int... allowed) {
        StringBuilder list = new StringBuilder();
        for (int i = 0; i < allowed.length; i++) {
            if (allowed[i] == value) {
                return value;
            }
            list.append(i == 0 ? "" : i == allowed.length - 1 ? " or " : ", ").append(allowed[i]);
        }
        throw new IllegalArgumentException(setting + " must be " + list + " (" + what + "), got " + value);
    }
}
