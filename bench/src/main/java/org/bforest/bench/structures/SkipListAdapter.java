package org.bforest.bench.structures;

import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import org.bforest.bench.workloads.Op;
import org.bforest.bench.workloads.Operations;

/**
 * {@code java.util.concurrent.ConcurrentSkipListMap<Long, Long>}, the JDK's concurrent ordered
 * map (the only thread-safe peer). Built by its {@code (SortedMap)} constructor, which links
 * the nodes in linear time ({@code buildFromSorted}). Memory estimate per entry: a {@code Node}
 * (3 references: 24 bytes), two {@code Long}s (48 bytes), and the expected 0.5 {@code Index}
 * objects (24 bytes each; a node gets an index level with probability 1/4, each further level
 * with probability 1/2): 84 bytes.
 */
final class SkipListAdapter implements IndexAdapter {
    private ConcurrentSkipListMap<Long, Long> map;

    @Override
    public void build(long[] sortedKeys, long[] values) {
        map = new ConcurrentSkipListMap<>(new SortedArrayMap(sortedKeys, values));
    }

    @Override
    public long run(Operations ops, int from, int to) {
        final ConcurrentSkipListMap<Long, Long> m = map;
        final byte[] codes = ops.codes();
        final long[] keys = ops.keys();
        final long[] ends = ops.ends();
        long sum = 0;
        for (int i = from; i < to; i++) {
            long k = keys[i];
            switch (codes[i]) {
                case Op.LOOKUP -> {
                    Long v = m.get(k);
                    sum += v == null ? Values.ABSENT : v;
                }
                case Op.INSERT -> sum += Values.effect(m.put(k, Values.of(k)) == null);
                case Op.DELETE -> sum += Values.effect(m.remove(k) != null);
                default -> {
                    for (Map.Entry<Long, Long> e : m.subMap(k, true, ends[i], false).entrySet()) {
                        sum += Values.scanned(e.getKey(), e.getValue());
                    }
                }
            }
        }
        return sum;
    }

    @Override
    public long visitSum() {
        return ValueSum.of(map.values());
    }

    @Override
    public long size() {
        return map.size();
    }

    @Override
    public long memoryBytes() {
        return estimate(JvmLayout.CURRENT, map.size());
    }

    static long estimate(JvmLayout l, long n) {
        return n * (l.object(3, 0) + 2 * l.boxedLong()) + n / 2 * l.object(3, 0) + l.object(6, 0);
    }
}
