package org.bforest.contract;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.bforest.testing.Capability;
import org.bforest.testing.Implementations;
import org.bforest.testing.Implementations.Impl;

/**
 * The implementations the shared suites run on: {@link Implementations#all()}, narrowed by the
 * system property {@code bforest.impl} (comma-separated names) when it is set, e.g.
 * {@code -Dbforest.impl=treemap-model} to rerun a failure on one structure only.
 */
public final class TestSubjects {
    /** The system property that narrows the suites to some implementations. */
    public static final String IMPL_PROPERTY = "bforest.impl";
    /**
     * With this property true, only the structures that run the node-search kernels
     * ({@link Capability#NODE_SEARCH}): what core's reruns at other vector widths test.
     */
    public static final String KERNEL_ONLY_PROPERTY = "bforest.kit.kernelOnly";

    /**
     * {@code -Dbforest.kit.scale}: a factor on the loop counts of the kit's heaviest tests
     * (default 1). A module whose structures pay a device round trip for every single operation
     * (the OpenCL trees) runs the kit at a fraction of the size; every test still runs.
     */
    public static final double KIT_SCALE = Double.parseDouble(System.getProperty("bforest.kit.scale", "1"));

    private TestSubjects() {
    }

    /** {@code n} times {@link #KIT_SCALE}, at least {@code min}. */
    public static int scaled(int n, int min) {
        return Math.max(min, (int) (n * KIT_SCALE));
    }

    /** The implementations to test, in the order of {@link Implementations#all()}. */
    public static List<Impl> implementations() {
        List<Impl> all = Implementations.all();
        if (Boolean.getBoolean(KERNEL_ONLY_PROPERTY)) {
            all = all.stream().filter(i -> i.has(Capability.NODE_SEARCH)).toList();
        }
        String only = System.getProperty(IMPL_PROPERTY, "").trim();
        if (only.isEmpty()) {
            return all;
        }
        Set<String> names = Arrays.stream(only.split(",")).map(String::trim).collect(Collectors.toSet());
        List<Impl> chosen = all.stream().filter(i -> names.contains(i.name())).toList();
        if (chosen.isEmpty()) {
            throw new IllegalArgumentException("-D" + IMPL_PROPERTY + "=" + only + " names no implementation; known: "
                    + all.stream().map(Impl::name).toList());
        }
        return chosen;
    }
}
