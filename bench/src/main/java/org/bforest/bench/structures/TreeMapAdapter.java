package org.bforest.bench.structures;

import java.util.Map;
import java.util.TreeMap;
import org.bforest.bench.workloads.Op;
import org.bforest.bench.workloads.Operations;

/**
 * {@code java.util.TreeMap<Long, Long>}, a red-black tree of boxed entries. Built by
 * {@code new TreeMap<>(SortedMap)} from a sorted view ({@link SortedArrayMap}): linear time, no
 * comparisons, the fastest honest way. Memory estimate per entry: a {@code TreeMap.Entry} (5
 * references and a boolean: 40 bytes with compressed oops) and two {@code Long}s (24 bytes
 * each): 88 bytes.
 */
final class TreeMapAdapter implements IndexAdapter {
    private TreeMap<Long, Long> map;

    @Override
    public void build(long[] sortedKeys, long[] values) {
        map = new TreeMap<>(new SortedArrayMap(sortedKeys, values));
    }

    @Override
    public long run(Operations ops, int from, int to) {
        final TreeMap<Long, Long> m = map;
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
        return n * (l.object(5, 1) + 2 * l.boxedLong()) + l.object(3, 12);
    }
}
