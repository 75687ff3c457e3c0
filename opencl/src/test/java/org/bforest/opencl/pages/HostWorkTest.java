package org.bforest.opencl.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/** A batch's host work in parts: every index once, every part waited for, a part's failure thrown. */
class HostWorkTest {
    @Test
    void everyIndexIsInExactlyOnePartOfItsNumber() {
        for (int n : new int[] {0, 1, 7, 1000, 65_537}) {
            for (int parts = 1; parts <= 9; parts++) {
                AtomicIntegerArray seen = new AtomicIntegerArray(n);
                AtomicIntegerArray partSeen = new AtomicIntegerArray(parts);
                int p = parts;
                HostWork.split(n, parts, (part, from, to) -> {
                    assertEquals(HostWork.start(n, p, part), from);
                    assertEquals(HostWork.start(n, p, part + 1), to);
                    partSeen.incrementAndGet(part);
                    for (int i = from; i < to; i++) {
                        seen.incrementAndGet(i);
                    }
                });
                for (int i = 0; i < n; i++) {
                    assertEquals(1, seen.get(i), "n " + n + ", " + parts + " parts: index " + i);
                }
                for (int part = 0; part < parts; part++) {
                    assertEquals(1, partSeen.get(part), "n " + n + ": part " + part + " of " + parts);
                }
            }
        }
    }

    @Test
    void partsAreOnlyWorthIt() {
        assertEquals(1, HostWork.parts(0));
        assertEquals(1, HostWork.parts(2 * HostWork.MIN_PART - 1));
        assertEquals(Math.min(HostWork.THREADS, 2), HostWork.parts(2 * HostWork.MIN_PART));
        assertTrue(HostWork.parts(Integer.MAX_VALUE) <= HostWork.THREADS);
    }

    @Test
    void aFailedPartIsThrownAfterEveryPartHasEnded() {
        AtomicInteger ended = new AtomicInteger();
        IllegalStateException boom = new IllegalStateException("part 2 failed");
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> HostWork.split(600, 6, (part, from, to) -> {
            try {
                if (part == 2) {
                    throw boom;
                }
                Thread.sleep(part == 0 ? 0 : 20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                ended.incrementAndGet();
            }
        }));
        assertSame(boom, thrown);
        assertEquals(6, ended.get(), "split returned while parts still ran");
        // The first failure is thrown, the others ride along.
        AssertionError first = assertThrows(AssertionError.class, () -> HostWork.split(4, 4, (part, from, to) -> {
            throw new AssertionError("part " + part);
        }));
        assertEquals(3, first.getSuppressed().length);
        // One object thrown by several parts (as the JVM's shared OutOfMemoryError is): thrown once, whole.
        OutOfMemoryError shared = new OutOfMemoryError("shared");
        AtomicInteger ran = new AtomicInteger();
        OutOfMemoryError same = assertThrows(OutOfMemoryError.class, () -> HostWork.split(5, 5, (part, from, to) -> {
            ran.incrementAndGet();
            throw shared;
        }));
        assertSame(shared, same);
        assertEquals(5, ran.get());
    }

    @Test
    void theThreadSettingIsACount() {
        assertTrue(HostWork.threads(null) >= 1);
        assertTrue(HostWork.threads(" ") >= 1);
        assertEquals(1, HostWork.threads("1"));
        assertEquals(12, HostWork.threads(" 12 "));
        for (String bad : new String[] {"0", "-2", "257", "four", "2.5"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HostWork.threads(bad));
            assertTrue(e.getMessage().contains("bforest.opencl.hostThreads") && e.getMessage().contains(bad), e.getMessage());
        }
    }
}
