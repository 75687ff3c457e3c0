package org.bforest.snapshot;

import java.nio.file.Path;
import org.bforest.Indexes;
import org.bforest.LongIndex;

/**
 * The process {@link SnapshotCrashTest} kills: it writes snapshots of three indexes, A, B and C,
 * in turn over one path for ever, and prints "W n" after write n (from 1) returns. Write n is of
 * index {@code (n - 1) % 3}; the three differ in size, keys and values, so a file tells which it is.
 */
public final class SnapshotCrashChild {
    /** The key counts of A, B and C. */
    static final int[] SIZES = {200_000, 300_000, 250_000};

    private SnapshotCrashChild() {
    }

    static long key(int content, int i) {
        return switch (content) {
            case 0 -> 3L * i + 1;
            case 1 -> 2L * i - 100_000;
            default -> 5L * i - (1L << 40);
        };
    }

    static long value(int content, int i) {
        return switch (content) {
            case 0 -> 31L * i;
            case 1 -> ~(long) i;
            default -> i ^ 0x5555_5555_5555L;
        };
    }

    /** Which content has {@code keys} keys, or -1. */
    static int contentOf(long keys) {
        for (int c = 0; c < SIZES.length; c++) {
            if (SIZES[c] == keys) {
                return c;
            }
        }
        return -1;
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        LongIndex[] indexes = new LongIndex[3];
        for (int c = 0; c < 3; c++) {
            long[] k = new long[SIZES[c]];
            long[] v = new long[SIZES[c]];
            for (int i = 0; i < k.length; i++) {
                k[i] = key(c, i);
                v[i] = value(c, i);
            }
            indexes[c] = switch (c) {
                case 0 -> Indexes.bsTree(k, v);
                case 1 -> Indexes.bPlusTree(k, v);
                default -> Indexes.bMinusTree(k, v, 32);
            };
        }
        for (long n = 1; ; n++) {
            indexes[(int) ((n - 1) % 3)].snapshot(file);
            System.out.println("W " + n);
            System.out.flush();
        }
    }
}
