package org.bforest.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link Arrivals}: the whole input never waits; a stream's builder waits for exactly what it
 * asks, sees the arrays' writes made before they were marked, and gives up with the filler's
 * reason when the filler fails.
 */
class ArrivalsTest {
    @Test
    void wholeInputNeverWaits() {
        assertTrue(Arrivals.ALL.whole());
        assertFalse(Arrivals.stream().whole());
        Arrivals.ALL.await(Integer.MAX_VALUE);
        Arrivals.ALL.await(0);
    }

    @Test
    void builderFollowsTheFiller() {
        int n = 200_000;
        long[] keys = new long[n];
        Arrivals in = Arrivals.stream();
        Thread filler = new Thread(() -> {
            for (int i = 0; i < n; i += 1000) {
                for (int j = i; j < i + 1000; j++) {
                    keys[j] = 2L * j + 1;
                }
                in.arrived(i + 1000);
            }
            in.arrived(Integer.MAX_VALUE);
        });
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            filler.start();
            long sum = 0;
            for (int i = 0; i < n; i += 16) {
                in.await(i + 17); // past the end near the last leaf: waits for the whole input
                for (int j = i; j < Math.min(n, i + 16); j++) {
                    assertEquals(2L * j + 1, keys[j], "entry " + j + " read after it was marked");
                    sum += keys[j];
                }
            }
            filler.join();
            assertEquals((long) n * n, sum);
        });
    }

    @Test
    void aFailedFillerStopsTheBuilder() {
        Arrivals in = Arrivals.stream();
        in.arrived(10);
        in.await(10); // there
        AtomicInteger waited = new AtomicInteger();
        Thread filler = new Thread(() -> {
            while (waited.get() == 0) {
                Thread.onSpinWait();
            }
            in.fail(new IOException("block 3 is damaged"));
        });
        filler.start();
        CancellationException e = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> assertThrows(
                CancellationException.class, () -> {
                    waited.set(1);
                    in.await(11);
                }));
        assertTrue(e.getMessage().contains("after 10 entries") && e.getMessage().contains("block 3 is damaged"),
                e::getMessage);
    }
}
