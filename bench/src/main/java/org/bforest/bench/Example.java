package org.bforest.bench;

import java.util.NavigableMap;
import org.bforest.BSTreeBuilder.Compression;
import org.bforest.BSTreeIndex;
import org.bforest.Indexes;
import org.bforest.LongCursor;

/**
 * The README's example, run as written by {@code ./bforest example}: bulk-loads one million keys,
 * looks them up, inserts, deletes and scans a range.
 */
public final class Example {
    private Example() {
    }

    public static void main(String[] args) {
        // One million sorted keys (multiples of 10) with a value each.
        int n = 1_000_000;
        long[] keys = new long[n];
        long[] values = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = 10L * i;
            values[i] = i;
        }
        BSTreeIndex index = Indexes.bsTree(keys, values);        // bulk load, leaves 75% full
        // Keys 10 apart compress: the paper's decision mechanism built the CBS-tree (64 keys a leaf).
        System.out.println("compressed: " + index.isCompressed() + ", " + index.leafNodes() + " leaves");
        BSTreeIndex plain = Indexes.bsTreeBuilder().compression(Compression.NEVER).build(keys, values);
        System.out.println("plain BS-tree: " + plain.leafNodes() + " leaves, " + plain.memoryBytes() / n
                + " bytes per key against " + index.memoryBytes() / n);

        long found = 0;
        for (long k : keys) {                                    // look every key up
            found += index.containsKey(k) ? 1 : 0;
        }
        System.out.println("found " + found + " of " + n + " keys; get(420) = " + index.get(420, -1));

        for (long k = 5; k < 1_000_000; k += 10) {               // insert 100,000 new keys
            index.put(k, -k);
        }
        for (long k = 0; k < 1_000_000; k += 20) {               // delete 50,000 of the loaded ones
            index.remove(k);
        }
        System.out.println("size after inserts and deletes: " + index.size());

        // Scan [1000, 1100): a range visit, a range count, and a cursor walking the same keys.
        StringBuilder seen = new StringBuilder();
        index.rangeVisit(1000, 1100, (k, v) -> seen.append(k).append('=').append(v).append(' '));
        System.out.println("range [1000, 1100): " + index.rangeCount(1000, 1100) + " keys: " + seen.toString().trim());
        LongCursor c = index.cursor(1095);
        System.out.print("walking down from 1095:");
        for (int i = 0; i < 4 && c.isValid(); i++, c.previous()) {
            System.out.print(" " + c.key());
        }
        System.out.println();

        // Neighbours, and the java.util view for code that wants a NavigableMap.
        System.out.println("ceiling(1001) = " + index.ceilingKey(1001, -1) + ", floor(999) = " + index.floorKey(999, -1));
        NavigableMap<Long, Long> map = index.asNavigableMap();
        System.out.println("headMap(30) = " + map.headMap(30L) + "; memory: " + index.memoryBytes() / index.size()
                + " bytes per key; " + index);
    }
}
