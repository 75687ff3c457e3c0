package org.bforest.testing;

import java.util.List;

/**
 * Where a module lists the structures the conformance kit runs on: one implementation per
 * module, named in that module's
 * {@code src/test/resources/META-INF/services/org.bforest.testing.StructureRegistry}, with one
 * line per structure in {@link #structures()}. {@link Implementations#all()} collects them all.
 */
public interface StructureRegistry {
    List<Implementations.Impl> structures();

    /**
     * Why this registry lists nothing on this machine (its structures need something that is not
     * there, such as an OpenCL platform), or null. When every registry lists nothing, the kit's
     * tests are skipped with these reasons instead of failing.
     */
    default String unavailable() {
        return null;
    }
}
