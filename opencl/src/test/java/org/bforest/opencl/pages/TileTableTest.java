package org.bforest.opencl.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The launches' tile tables: each tile's first item in the job a binary search over the job starts finds. */
class TileTableTest {
    @Test
    void everyTileNamesTheJobOfItsFirstItem() {
        SplittableRandom r = new SplittableRandom(0x711EL);
        for (int round = 0; round < 300; round++) {
            int g = 1 + r.nextInt(round < 100 ? 5 : 3000);
            int[] meta = new int[3 + g + 1 + LevelMerge.tiles(10_000_000)];
            int startsAt = 3;
            int n = 0;
            for (int x = 0; x < g; x++) {
                meta[startsAt + x] = n;
                // Jobs of any size, empty ones too, and long ones spanning many tiles.
                n += r.nextInt(4) == 0 ? 0 : r.nextInt(r.nextBoolean() ? 8 : 5000);
            }
            meta[startsAt + g] = n;
            int at = startsAt + g + 1;
            LevelMerge.tileTable(meta, startsAt, g, n, at);
            for (int t = 0; t < LevelMerge.tiles(n); t++) {
                long item = (long) t << LevelMerge.TILE_BITS;
                int want = 0;
                for (int x = 0; x < g; x++) {
                    if (meta[startsAt + x] <= item) {
                        want = x;
                    }
                }
                assertEquals(want, meta[at + t], "round " + round + ", tile " + t + " of " + g + " jobs over " + n);
            }
        }
    }
}
