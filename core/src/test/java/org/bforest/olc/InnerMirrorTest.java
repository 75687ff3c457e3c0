package org.bforest.olc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The inner-level mirror that look-ups descend is a hint: whatever it holds (zeros, garbage, a
 * stale copy that sends every key to the wrong leaf), every answer must still be exact, because a
 * look-up answers only from a leaf whose version it validated and whose fences hold the key. A
 * look-up that trusted the leaf it reached, without the fences, fails here.
 */
class InnerMirrorTest {
    private static final long SEED = 0x5eed_2026_1125L;

    /** How the mirror is spoiled before the look-ups. */
    private enum Spoil {
        ZEROS, GARBAGE, SHIFTED, FIRST_LEAF
    }

    @Test
    void everyAnswerIsExactWhateverTheMirrorHolds() {
        for (Spoil spoil : Spoil.values()) {
            for (boolean bulk : new boolean[] {false, true}) {
                SplittableRandom rnd = new SplittableRandom(SEED ^ spoil.ordinal() * 31 ^ (bulk ? 1 : 0));
                TreeMap<Long, Long> model = new TreeMap<>();
                OlcBSTree t = tree(rnd, model, bulk);
                spoil(t.mirror(), spoil, rnd);
                String what = spoil + (bulk ? ", bulk-loaded" : ", grown by inserts") + ", seed " + SEED;
                assertAnswers(t, model, rnd, what);
                // Puts go through the spoiled mirror too (updates and inserts into a free slot
                // take it; splits write their nodes into it); the answers stay exact throughout.
                for (int i = 0; i < 5_000; i++) {
                    long k = rnd.nextLong(-1_000_000, 1_000_000);
                    assertEquals(!model.containsKey(k), t.upsert(k, k * 3), what + ": upsert " + k + " is new");
                    model.put(k, k * 3);
                }
                assertAnswers(t, model, rnd, what + ", after inserts");
                // Deletes too (present keys, and absent ones), through the same spoiled mirror.
                for (int i = 0; i < 5_000; i++) {
                    Long present = model.ceilingKey(rnd.nextLong(-1_000_000, 1_000_000));
                    long k = i % 2 == 0 && present != null ? present : rnd.nextLong(-1_000_000, 1_000_000);
                    assertEquals(model.remove(k) != null, t.delete(k), what + ": delete " + k);
                }
                assertAnswers(t, model, rnd, what + ", after deletes");
                assertEquals(model.size(), t.size(), what + ": size");
            }
        }
    }

    @Test
    void aTreeGrownByInsertsKeepsItsMirrorExact() {
        // The checker compares every inner node with its mirror slot (through every mirror copy).
        SplittableRandom rnd = new SplittableRandom(SEED);
        OlcBSTree t = new OlcBSTree();
        for (int i = 0; i < 200_000; i++) {
            t.put(rnd.nextLong(), i);
        }
        t.checkInvariants();
        long[] keys = rnd.longs(50_000).sorted().distinct().toArray();
        OlcBSTree b = (OlcBSTree) OlcTrees.bulkLoad(keys, null);
        for (int i = 0; i < 100_000; i++) {
            b.put(rnd.nextLong(), i);
        }
        b.checkInvariants();
    }

    @Test
    void theCheckerNoticesAStaleMirror() {
        SplittableRandom rnd = new SplittableRandom(SEED);
        OlcBSTree t = tree(rnd, new TreeMap<>(), true);
        InnerMirror m = t.mirror();
        m.kids[InnerMirror.kidOffset(0)] ^= 1;
        assertThrows(IllegalStateException.class, t::checkInvariants);
    }

    private static OlcBSTree tree(SplittableRandom rnd, TreeMap<Long, Long> model, boolean bulk) {
        int n = 30_000;
        if (bulk) {
            long[] keys = rnd.longs(n, -1_000_000, 1_000_000).sorted().distinct().toArray();
            long[] values = Arrays.stream(keys).map(k -> k * 7).toArray();
            for (long k : keys) {
                model.put(k, k * 7);
            }
            return (OlcBSTree) OlcTrees.bulkLoad(keys, values);
        }
        OlcBSTree t = new OlcBSTree();
        for (int i = 0; i < n; i++) {
            long k = rnd.nextLong(-1_000_000, 1_000_000);
            t.put(k, k * 7);
            model.put(k, k * 7);
        }
        return t;
    }

    private static void spoil(InnerMirror m, Spoil spoil, SplittableRandom rnd) {
        switch (spoil) {
            case ZEROS -> {
                Arrays.fill(m.keys, 0);
                Arrays.fill(m.kids, 0);
            }
            case GARBAGE -> {
                for (int i = 0; i < m.keys.length; i++) {
                    m.keys[i] = rnd.nextLong(-1_200_000, 1_200_000);
                }
                for (int i = 0; i < m.kids.length; i++) {
                    m.kids[i] = rnd.nextInt(-2, m.capacity + 2);
                }
            }
            case SHIFTED -> {
                // Every separator moved: each key routed to a neighbour of its leaf, as a stale copy would.
                for (int i = 0; i < m.keys.length; i++) {
                    m.keys[i] = m.keys[i] == Long.MAX_VALUE ? Long.MAX_VALUE : m.keys[i] + 40_000;
                }
            }
            case FIRST_LEAF -> {
                // Every route ends in the first leaf the last inner level names.
                int leaf = m.kids[InnerMirror.kidOffset(0)];
                Arrays.fill(m.kids, leaf);
                Arrays.fill(m.keys, Long.MAX_VALUE);
            }
        }
    }

    private static void assertAnswers(OlcBSTree t, TreeMap<Long, Long> model, SplittableRandom rnd, String what) {
        for (var e : model.entrySet()) {
            assertEquals(e.getValue().longValue(), t.get(e.getKey(), Long.MIN_VALUE), what + ": get " + e.getKey());
        }
        for (int i = 0; i < 20_000; i++) {
            long k = rnd.nextLong(-1_100_000, 1_100_000);
            Long want = model.get(k);
            assertEquals(want == null ? Long.MIN_VALUE : want, t.get(k, Long.MIN_VALUE), what + ": get " + k);
            assertEquals(want != null, t.containsKey(k), what + ": containsKey " + k);
        }
    }
}
