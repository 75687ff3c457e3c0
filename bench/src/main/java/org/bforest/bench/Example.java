package org.bforest.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.NavigableMap;
import org.bforest.BSTreeBuilder.Compression;
import org.bforest.BSTreeIndex;
import org.bforest.Indexes;
import org.bforest.LongCursor;
import org.bforest.LongIndex;
import org.bforest.NativeLongIndex;

/**
 * The README's example, run as written by {@code ./bforest example}: bulk-loads one million keys,
 * looks them up, puts, inserts and deletes (seeing the previous values and the default return
 * value), counts and visits ranges, walks a cursor, saves a snapshot and opens it two ways.
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

        // put and remove return the previous value, or defaultReturnValue() (0 unless set) when
        // there was none, as in java.util and fastutil.
        long absent = index.get(425);                            // 0: 425 is absent
        index.defaultReturnValue(-1);
        long replaced = index.put(430, 4300);                    // 43: the value it replaced
        long none = index.put(425, 7);                           // -1: 425 was new
        long had = index.remove(425);                            // 7
        System.out.println("get(425) = " + absent + "; put(430) replaced " + replaced + ", put(425) replaced " + none
                + ", remove(425) returned " + had);

        // upsert and delete say whether the key was new, or there.
        long inserted = 0, deleted = 0;
        for (long k = 5; k < 1_000_000; k += 10) {               // insert 100,000 new keys
            inserted += index.upsert(k, -k) ? 1 : 0;
        }
        for (long k = 0; k < 1_000_000; k += 20) {               // delete 50,000 of the loaded ones
            deleted += index.delete(k) ? 1 : 0;
        }
        System.out.println(inserted + " new keys, " + deleted + " deleted; size " + index.size()
                + "; ceiling(1001) = " + index.ceilingKey(1001, -1) + ", floor(999) = " + index.floorKey(999, -1));

        // Ranges: [from, to), or each bound included or not. A visitor returns true to go on.
        StringBuilder seen = new StringBuilder();
        index.rangeVisit(1010, true, 1090, true, (k, v) -> {
            seen.append(k).append('=').append(v).append(' ');
            return true;
        });
        System.out.println("[1010, 1090): " + index.rangeCount(1010, 1090) + " keys; [1010, 1090]: "
                + index.rangeCount(1010, true, 1090, true) + " keys: " + seen.toString().trim());
        // false stops the visit: this one passes the inserted keys (values < 0) up to the first loaded one.
        long given = index.rangeVisit(1000, true, Long.MAX_VALUE, true, (k, v) -> v < 0);
        long[] negative = {0};
        index.forEach((k, v) -> negative[0] += v < 0 ? 1 : 0);   // every entry, in key order
        System.out.println("the visit from 1000 stopped after " + given + " entries; forEach found "
                + negative[0] + " negative values");

        LongCursor c = index.cursor(1095);                       // a cursor walks both ways
        System.out.print("walking down from 1095:");
        for (int i = 0; i < 4 && c.isValid(); i++, c.previous()) {
            System.out.print(" " + c.key());
        }
        System.out.println();

        // Keys only, as the papers measure the tree: a set with no value storage at all.
        BSTreeIndex set = Indexes.bsTreeKeyOnly(keys);
        set.upsert(425, 0);                                      // adds a key; any other value is refused
        System.out.println("key-only: contains(420) = " + set.containsKey(420) + ", " + set.size() + " keys, "
                + set.memoryBytes() / set.size() + " bytes per key");

        // The java.util view, for code that wants a NavigableMap.
        NavigableMap<Long, Long> map = index.asNavigableMap();
        System.out.println("headMap(30) = " + map.headMap(30L) + "; memory: " + index.memoryBytes() / index.size()
                + " bytes per key; " + index);

        // A snapshot: written beside the target, forced to disk, renamed over it in one step.
        try {
            Path file = Files.createTempDirectory("bforest-example").resolve("index.snap");
            long t0 = System.nanoTime();
            index.snapshot(file);
            long t1 = System.nanoTime();
            LongIndex loaded = Indexes.load(file);                   // the same kind, rebuilt
            long t2 = System.nanoTime();
            try (NativeLongIndex mapped = Indexes.map(file)) {       // read-only, searched in place
                long t3 = System.nanoTime();
                System.out.printf("snapshot: %d bytes, saved in %.1f ms, loaded (%s) in %.1f ms, mapped in %.2f ms;"
                        + " get(430) = %d%n", Files.size(file), (t1 - t0) / 1e6, loaded.kind(), (t2 - t1) / 1e6,
                        (t3 - t2) / 1e6, mapped.get(430, -1));
            }
            Files.delete(file);
            Files.delete(file.getParent());
        } catch (IOException e) {                                    // a SnapshotException names the file
            throw new UncheckedIOException(e);
        }
    }
}
