package org.bforest.spi;

/**
 * A structure that can check its own internal invariants: what the test kit and the structures'
 * own debug assertions call, kept off the user-facing {@code LongIndex} because users have no use
 * for it (it is linear in the size and only ever throws on a bug in the library). This package is
 * not exported to users, so only the project's modules see it.
 *
 * <p>Every structure implements it, with a real checker: {@link LeafChainIndex} does for the
 * structures on it (the chain checks, then each structure's {@code checkStructure}), and a
 * structure that stands on {@code LongIndex} directly (the concurrent BS-tree) implements it
 * itself. The test kit fails a structure that does not.
 */
public interface InvariantCheckable {
    /**
     * Checks the structure's internal invariants and throws {@link IllegalStateException} naming
     * the first one broken. Linear in the size; meant for tests and debugging.
     */
    void checkInvariants();
}
