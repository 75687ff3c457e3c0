package org.bforest.bench.structures;

import org.bforest.LongEntryVisitor;

/** A reusable range-visit visitor that adds {@link Values#scanned} of every entry (no allocation). */
final class ScanSum implements LongEntryVisitor {
    long sum;

    @Override
    public void visit(long key, long value) {
        sum += Values.scanned(key, value);
    }

    long take() {
        long s = sum;
        sum = 0;
        return s;
    }
}
