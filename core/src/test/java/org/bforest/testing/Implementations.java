package org.bforest.testing;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.bforest.LongIndex;

/**
 * Every {@link LongIndex} implementation the conformance kit (the contract suite, the differential
 * test against {@code TreeMap}, the Guava and view suites) runs on: what every
 * {@link StructureRegistry} on the class path lists. A module adds its structures with one line
 * each in its registry; a structure needs a real invariant checker (it implements the internal
 * {@code org.bforest.spi.InvariantCheckable}, which has no default) and says what it promises beyond the contract with
 * {@link Capability capabilities}.
 */
public final class Implementations {
    private Implementations() {
    }

    /** One implementation: a name for test reports, an empty factory, a bulk-load factory, its capabilities. */
    public record Impl(String name, Supplier<LongIndex> empty, BiFunction<long[], long[], LongIndex> bulk,
                       Set<Capability> capabilities) {
        public Impl {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(empty, "empty");
            Objects.requireNonNull(bulk, "bulk");
            capabilities = capabilities.isEmpty() ? EnumSet.noneOf(Capability.class) : EnumSet.copyOf(capabilities);
        }

        public boolean has(Capability c) {
            return capabilities.contains(c);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** The registered implementations, registry by registry in class-path order; names are unique. */
    public static List<Impl> all() {
        List<Impl> all = new ArrayList<>();
        List<String> unavailable = new ArrayList<>();
        for (StructureRegistry r : ServiceLoader.load(StructureRegistry.class)) {
            if (r.unavailable() != null) {
                unavailable.add(r.unavailable());
            }
            for (Impl impl : r.structures()) {
                if (all.stream().anyMatch(i -> i.name().equals(impl.name()))) {
                    throw new IllegalStateException("two structures are registered as " + impl.name());
                }
                all.add(impl);
            }
        }
        if (all.isEmpty() && !unavailable.isEmpty()) {
            throw new org.opentest4j.TestAbortedException("no structure to test here: " + String.join("; ", unavailable));
        }
        if (all.isEmpty()) {
            throw new IllegalStateException("no StructureRegistry found: a module registers its structures in "
                    + "src/test/resources/META-INF/services/" + StructureRegistry.class.getName());
        }
        return all;
    }
}
