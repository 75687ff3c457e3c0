package org.bforest.bench.structures;

import org.bforest.LongEntryVisitor;

/** A reusable range-visit visitor that adds {@link Values#scanned} of every entry (no allocation). */
final class ScanSum implements LongEntryVisitor {
    long sum;

    /** Adds the entry and goes on: a scan visits its whole range. */
    @Override
    public boolean visit(long key, long value) {
        sum += Values.scanned(key, value);
        return true;
    }

    long take() {
        long s = sum;
        sum = 0;
        return s;
    }
}
