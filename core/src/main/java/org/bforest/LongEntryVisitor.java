package org.bforest;

/** Receives the entries of a range visit, in ascending key order. */
@FunctionalInterface
public interface LongEntryVisitor {
    void visit(long key, long value);
}
