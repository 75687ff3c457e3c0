package org.example.consumer;

import org.bforest.BSTreeIndex;
import org.bforest.Indexes;

/**
 * A program a bforest user would write from README.md's install section alone: a bulk load, a
 * million look-ups (a third of them hits), and a checksum of what they returned, which
 * {@code consumer-test/run} compares with the one worked out independently. It also prints where
 * bforest was loaded from (a named module on the module path, the unnamed one on the class path)
 * and whether the JVM had the Vector API module, so that the run can check each setup is the one
 * it meant.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        int n = 1_000_000;
        long[] keys = new long[n];
        long[] values = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = 10L * i;
            values[i] = i;
        }
        BSTreeIndex index = Indexes.bsTree(keys, values);

        long hits = 0;
        long checksum = 0;
        for (long key = 0; key < 10L * n; key += 3) {
            long value = index.get(key, -1);
            if (value >= 0) {
                hits++;
            }
            checksum = 31 * checksum + value;
        }

        System.out.println("bforest module: " + moduleName(Indexes.class)
                + ", consumer module: " + moduleName(Main.class)
                + ", vector api: " + ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent());
        System.out.println("size=" + index.size() + " hits=" + hits + " checksum=" + checksum);
    }

    private static String moduleName(Class<?> type) {
        Module module = type.getModule();
        return module.isNamed() ? module.getName() : "unnamed";
    }
}
