package org.bforest;

import static org.bforest.util.BatchArguments.checkOut;

/**
 * The default exact and conditional updates of {@link LongIndex} ({@code get(key, value[])},
 * {@code put(key, value, previous[])}, {@code putIfAbsent}, {@code replace}, the conditional
 * {@code remove}), written once for every index whose updates one thread makes: a look-up that
 * tells "absent" from any value, then the update. Each is exact when nothing else changes the
 * index in between, which is the contract of an index that is not thread-safe; a thread-safe
 * index overrides them with atomic steps. Apart from the interface because an interface cannot
 * hold the private probe value they share.
 */
final class ExactUpdates {

    /**
     * The {@code absent} value for {@link LongIndex#get(long, long)}: unlikely as a real value, so
     * that only a hit of exactly this value needs a {@code containsKey} to tell.
     */
    static final long PROBE = 0x9E37_79B9_7F4A_7C15L;

    private ExactUpdates() {
    }

    static boolean get(LongIndex index, long key, long[] value) {
        checkOut(value, "value");
        long v = index.get(key, PROBE);
        if (v != PROBE || index.containsKey(key)) {
            value[0] = v;
            return true;
        }
        return false;
    }

    static boolean put(LongIndex index, long key, long value, long[] previous) {
        checkOut(previous, "previous");
        long old = index.get(key, PROBE);
        boolean present = old != PROBE || index.containsKey(key);
        index.put(key, value);
        if (present) {
            previous[0] = old;
        }
        return present;
    }

    static boolean remove(LongIndex index, long key, long[] previous) {
        checkOut(previous, "previous");
        long old = index.get(key, PROBE);
        if (old != PROBE || index.containsKey(key)) {
            index.remove(key);
            previous[0] = old;
            return true;
        }
        return false;
    }

    static boolean putIfAbsent(LongIndex index, long key, long value, long[] present) {
        checkOut(present, "present");
        long old = index.get(key, PROBE);
        if (old != PROBE || index.containsKey(key)) {
            present[0] = old;
            return true;
        }
        index.put(key, value);
        return false;
    }

    static boolean replace(LongIndex index, long key, long value, long[] previous) {
        checkOut(previous, "previous");
        long old = index.get(key, PROBE);
        if (old != PROBE || index.containsKey(key)) {
            index.put(key, value);
            previous[0] = old;
            return true;
        }
        return false;
    }

    static boolean replace(LongIndex index, long key, long expected, long value) {
        long old = index.get(key, PROBE);
        if (old == expected && (old != PROBE || index.containsKey(key))) {
            index.put(key, value);
            return true;
        }
        return false;
    }

    static boolean remove(LongIndex index, long key, long expected) {
        long old = index.get(key, PROBE);
        if (old == expected && (old != PROBE || index.containsKey(key))) {
            index.remove(key);
            return true;
        }
        return false;
    }
}
