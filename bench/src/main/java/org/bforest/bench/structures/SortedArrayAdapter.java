package org.bforest.bench.structures;

import java.util.Arrays;
import org.bforest.bench.workloads.Op;
import org.bforest.bench.workloads.Operations;

/**
 * A sorted {@code long[]} of keys and a parallel {@code long[]} of values, searched with
 * {@link Arrays#binarySearch(long[], long)}: the read-only baseline (16 bytes per key, exact).
 * The build copies both arrays, so the structure owns its data. It cannot insert or delete: the
 * runner skips every workload but A for it.
 */
final class SortedArrayAdapter implements IndexAdapter {
    private long[] keys;
    private long[] values;

    @Override
    public void build(long[] sortedKeys, long[] vals) {
        keys = sortedKeys.clone();
        values = vals.clone();
    }

    @Override
    public long run(Operations ops, int from, int to) {
        final long[] ks = keys;
        final long[] vs = values;
        final byte[] codes = ops.codes();
        final long[] opKeys = ops.keys();
        final long[] ends = ops.ends();
        long sum = 0;
        for (int i = from; i < to; i++) {
            long k = opKeys[i];
            switch (codes[i]) {
                case Op.LOOKUP -> {
                    int at = Arrays.binarySearch(ks, k);
                    sum += at >= 0 ? vs[at] : Values.ABSENT;
                }
                case Op.SCAN -> {
                    int at = Arrays.binarySearch(ks, k);
                    long end = ends[i];
                    for (int j = at >= 0 ? at : -at - 1; j < ks.length && ks[j] < end; j++) {
                        sum += Values.scanned(ks[j], vs[j]);
                    }
                }
                default -> throw new UnsupportedOperationException("a sorted array cannot " + Op.name(codes[i]));
            }
        }
        return sum;
    }

    @Override
    public long visitSum() {
        long sum = 0;
        for (long v : values) {
            sum += v;
        }
        return sum;
    }

    @Override
    public long size() {
        return keys.length;
    }

    @Override
    public long memoryBytes() {
        return JvmLayout.CURRENT.longArray(keys.length) * 2;
    }
}
