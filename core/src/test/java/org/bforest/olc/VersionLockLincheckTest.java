package org.bforest.olc;

import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * The version-and-lock word in isolation (the stand-in for jcstress): a counter kept
 * twice, in two plain fields that writers change under the lock and optimistic readers read
 * between two version reads. A reader that accepts a torn pair, or a lock that lets two writers
 * in, shows up as a result no sequential counter gives. Both word widths: 64-bit (leaves) and
 * 32-bit (inner nodes).
 */
public class VersionLockLincheckTest {
    private static final boolean SOAK = Boolean.getBoolean("bforest.soak");
    private final long[] wide = new long[3];   // version, a, b
    private final int[] narrow = new int[3];   // version, a, b

    @Operation
    public long incrementWide() {
        for (;;) {
            long v = VersionLock.read(wide, 0);
            if (!VersionLock.isLocked(v) && VersionLock.tryLock(wide, 0, v)) {
                long n = wide[1] + 1;
                wide[1] = n;
                wide[2] = n;
                VersionLock.unlock(wide, 0);
                return n;
            }
            Thread.onSpinWait();
        }
    }

    @Operation
    public long readWide() {
        for (;;) {
            long v = VersionLock.read(wide, 0);
            if (!VersionLock.isLocked(v)) {
                long a = wide[1];
                long b = wide[2];
                if (VersionLock.valid(wide, 0, v)) {
                    return a == b ? a : -1 - a; // a torn pair is a value no counter has
                }
            }
            Thread.onSpinWait();
        }
    }

    @Operation
    public long incrementNarrow() {
        for (;;) {
            long v = VersionLock.read(narrow, 0);
            if (!VersionLock.isLocked(v) && VersionLock.tryLock(narrow, 0, v)) {
                int n = narrow[1] + 1;
                narrow[1] = n;
                narrow[2] = n;
                VersionLock.unlock(narrow, 0);
                return n;
            }
            Thread.onSpinWait();
        }
    }

    @Operation
    public long readNarrow() {
        for (;;) {
            long v = VersionLock.read(narrow, 0);
            if (!VersionLock.isLocked(v)) {
                int a = narrow[1];
                int b = narrow[2];
                if (VersionLock.valid(narrow, 0, v)) {
                    return a == b ? a : -1 - a;
                }
            }
            Thread.onSpinWait();
        }
    }

    @Test
    void stress() {
        new StressOptions()
                .iterations(SOAK ? 300 : 30)
                .invocationsPerIteration(SOAK ? 10_000 : 1_000)
                .threads(3)
                .actorsPerThread(4)
                .sequentialSpecification(Counters.class)
                .check(VersionLockLincheckTest.class);
    }

    @Test
    void modelChecking() {
        new ModelCheckingOptions()
                .iterations(SOAK ? 100 : 10)
                .invocationsPerIteration(SOAK ? 2_000 : 300)
                .threads(2)
                .actorsPerThread(3)
                .sequentialSpecification(Counters.class)
                .check(VersionLockLincheckTest.class);
    }

    /** Two plain counters. */
    public static class Counters {
        private long wide;
        private long narrow;

        public long incrementWide() {
            return ++wide;
        }

        public long readWide() {
            return wide;
        }

        public long incrementNarrow() {
            return ++narrow;
        }

        public long readNarrow() {
            return narrow;
        }
    }
}
