package org.bforest.bench.structures;

import it.unimi.dsi.fastutil.longs.Long2LongMap;
import it.unimi.dsi.fastutil.longs.Long2LongRBTreeMap;
import org.bforest.bench.workloads.Op;
import org.bforest.bench.workloads.Operations;

/**
 * fastutil's {@code Long2LongRBTreeMap}, a primitive red-black tree (no boxing; one object per
 * entry). fastutil has no bulk load, so the build inserts the sorted keys one by one with
 * {@code put(long, long)}. Memory estimate per entry: one {@code Entry} with a long key, a long
 * value, two references and an int: 40 bytes with compressed oops.
 *
 * <p>This class and its AVL/red-black twin are copies on purpose: each keeps its own
 * monomorphic timed loop (see {@link IndexAdapter}).
 */
final class FastutilRbAdapter implements IndexAdapter {
    private Long2LongRBTreeMap map;

    @Override
    public void build(long[] sortedKeys, long[] values) {
        Long2LongRBTreeMap m = new Long2LongRBTreeMap();
        m.defaultReturnValue(Values.ABSENT);
        for (int i = 0; i < sortedKeys.length; i++) {
            m.put(sortedKeys[i], values[i]);
        }
        map = m;
    }

    @Override
    public long run(Operations ops, int from, int to) {
        final Long2LongRBTreeMap m = map;
        final byte[] codes = ops.codes();
        final long[] keys = ops.keys();
        final long[] ends = ops.ends();
        long sum = 0;
        for (int i = from; i < to; i++) {
            long k = keys[i];
            switch (codes[i]) {
                case Op.LOOKUP -> sum += m.get(k);
                case Op.INSERT -> {
                    int before = m.size();
                    m.put(k, Values.of(k));
                    sum += Values.effect(m.size() != before);
                }
                case Op.DELETE -> {
                    int before = m.size();
                    m.remove(k);
                    sum += Values.effect(m.size() != before);
                }
                default -> {
                    for (Long2LongMap.Entry e : m.subMap(k, ends[i]).long2LongEntrySet()) {
                        sum += Values.scanned(e.getLongKey(), e.getLongValue());
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
        return n * l.object(2, 8 + 8 + 4) + l.object(4, 16);
    }
}
