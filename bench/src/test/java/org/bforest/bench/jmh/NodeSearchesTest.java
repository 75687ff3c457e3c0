package org.bforest.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import jdk.incubator.vector.VectorSpecies;
import org.bforest.bench.datasets.SplitMix64;
import org.bforest.bench.jmh.NodeSearches.Algorithm;
import org.bforest.kernel.NodeSearch;
import org.junit.jupiter.api.Test;

/**
 * Keeps {@link NodeSearchBenchmark} honest: the four implementations of Figure 2 give the same
 * {@code succ>} as a plain reference count, for every width and node size, on random nodes with
 * many duplicates, the extreme keys of each width and probes on, between and beyond the keys;
 * and on the benchmark's own node pools.
 */
class NodeSearchesTest {
    private static final int[] SIZES = {8, 16, 32, 64, 128};
    private static final int NODES = 300;
    private static final int PROBES_PER_NODE = 40;

    /** A random key of the width, often an extreme or one of a handful of values (duplicates). */
    private static long draw(SplitMix64 rng, long[] specials) {
        long r = rng.next();
        return switch ((int) (r & 7)) {
            case 0, 1 -> specials[rng.nextInt(specials.length)];
            case 2 -> rng.nextInt(5);            // small values repeat a lot
            default -> rng.next();
        };
    }

    private static final long[] SPECIALS_16 = {0, 1, 0x7FFF, 0x8000, 0xFFFE, 0xFFFF};
    private static final long[] SPECIALS_32 = {0, 1, 0x7FFF_FFFFL, 0x8000_0000L, 0xFFFF_FFFEL, 0xFFFF_FFFFL};
    private static final long[] SPECIALS_64 = {0, 1, -1, Long.MIN_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE,
            Long.MAX_VALUE - 1};

    @Test
    void sixteenBitUnsigned() {
        SplitMix64 rng = new SplitMix64(16);
        for (int n : SIZES) {
            for (int node = 0; node < NODES; node++) {
                int off = rng.nextInt(5);          // nodes start anywhere in the array
                short[] keys = new short[off + n + 3];
                for (int i = 0; i < keys.length; i++) {
                    keys[i] = (short) draw(rng, SPECIALS_16);
                }
                NodeSearchBenchmark.Pool.sortUnsigned(keys, off, off + n);
                for (int p = 0; p < PROBES_PER_NODE; p++) {
                    short key = p < n ? keys[off + p] : (short) draw(rng, SPECIALS_16);
                    int expected = 0;
                    for (int i = 0; i < n; i++) {
                        expected += Integer.compareUnsigned(keys[off + i] & 0xFFFF, key & 0xFFFF) <= 0 ? 1 : 0;
                    }
                    for (Algorithm a : Algorithm.values()) {
                        int got = NodeSearches.succGT(a, keys, off, n, key);
                        if (got != expected) {
                            assertEquals(expected, got, a + " 16-bit n=" + n + " key=" + (key & 0xFFFF) + " node="
                                    + Arrays.toString(Arrays.copyOfRange(keys, off, off + n)));
                        }
                    }
                }
            }
        }
    }

    @Test
    void thirtyTwoBitUnsigned() {
        SplitMix64 rng = new SplitMix64(32);
        for (int n : SIZES) {
            for (int node = 0; node < NODES; node++) {
                int off = rng.nextInt(5);
                int[] keys = new int[off + n + 3];
                for (int i = 0; i < keys.length; i++) {
                    keys[i] = (int) draw(rng, SPECIALS_32);
                }
                NodeSearchBenchmark.Pool.sortUnsigned(keys, off, off + n);
                for (int p = 0; p < PROBES_PER_NODE; p++) {
                    int key = p < n ? keys[off + p] : (int) draw(rng, SPECIALS_32);
                    int expected = 0;
                    for (int i = 0; i < n; i++) {
                        expected += Integer.compareUnsigned(keys[off + i], key) <= 0 ? 1 : 0;
                    }
                    for (Algorithm a : Algorithm.values()) {
                        int got = NodeSearches.succGT(a, keys, off, n, key);
                        if (got != expected) {
                            assertEquals(expected, got, a + " 32-bit n=" + n + " key=" + Integer.toUnsignedString(key)
                                    + " node=" + Arrays.toString(Arrays.copyOfRange(keys, off, off + n)));
                        }
                    }
                }
            }
        }
    }

    @Test
    void sixtyFourBitSigned() {
        SplitMix64 rng = new SplitMix64(64);
        for (int n : SIZES) {
            for (int node = 0; node < NODES; node++) {
                int off = rng.nextInt(5);
                long[] keys = new long[off + n + 3];
                for (int i = 0; i < keys.length; i++) {
                    keys[i] = draw(rng, SPECIALS_64);
                }
                Arrays.sort(keys, off, off + n);
                for (int p = 0; p < PROBES_PER_NODE; p++) {
                    long key = p < n ? keys[off + p] : draw(rng, SPECIALS_64);
                    int expected = 0;
                    for (int i = 0; i < n; i++) {
                        expected += keys[off + i] <= key ? 1 : 0;
                    }
                    for (Algorithm a : Algorithm.values()) {
                        int got = NodeSearches.succGT(a, keys, off, n, key);
                        if (got != expected) {
                            assertEquals(expected, got, a + " 64-bit n=" + n + " key=" + key + " node="
                                    + Arrays.toString(Arrays.copyOfRange(keys, off, off + n)));
                        }
                    }
                    if (n == NodeSearch.NODE_KEYS) {
                        assertEquals(expected, NodeSearch.succGT(keys, off, key), "production kernel, key=" + key);
                    }
                }
            }
        }
    }

    /** The benchmark's own pools and (every 8th of its) probes: each implementation sums as the reference does. */
    @Test
    void benchmarkPoolsAgree() {
        for (int width : new int[] {16, 32, 64}) {
            for (int n : SIZES) {
                NodeSearchBenchmark.Pool pool = new NodeSearchBenchmark.Pool(width, n, 4096);
                assertEquals(Math.max(NodeSearchBenchmark.MIN_NODES, 4096 / (n * width / 8)), pool.nodes);
                for (Algorithm a : Algorithm.values()) {
                    long sum = 0;
                    long reference = 0;
                    for (int j = 0; j < NodeSearchBenchmark.PROBES; j += 8) {
                        int off = pool.offs[j];
                        switch (width) {
                            case 16 -> {
                                sum += NodeSearches.succGT(a, pool.keys16, off, n, pool.probes16[j]);
                                for (int i = 0; i < n; i++) {
                                    reference += (pool.keys16[off + i] & 0xFFFF) <= (pool.probes16[j] & 0xFFFF) ? 1 : 0;
                                }
                            }
                            case 32 -> {
                                sum += NodeSearches.succGT(a, pool.keys32, off, n, pool.probes32[j]);
                                for (int i = 0; i < n; i++) {
                                    reference += Integer.compareUnsigned(pool.keys32[off + i], pool.probes32[j]) <= 0 ? 1 : 0;
                                }
                            }
                            default -> {
                                sum += NodeSearches.succGT(a, pool.keys64, off, n, pool.probes64[j]);
                                for (int i = 0; i < n; i++) {
                                    reference += pool.keys64[off + i] <= pool.probes64[j] ? 1 : 0;
                                }
                            }
                        }
                    }
                    assertEquals(reference, sum, a + " width " + width + " n " + n);
                }
            }
        }
    }

    /**
     * The rule of {@link NodeSearches#simdBits} for the species this machine prefers (512 bits on
     * AVX-512, 256 on AVX2, 128 on NEON): a node size takes the widest of the full, half and
     * quarter species whose lane count divides it, and is refused when none does. So 3 longs are
     * refused at 512 bits (the quarter species has 2 lanes) but taken at 256 bits and below (the
     * quarter is one 64-bit lane); no fixed size is refused at every width.
     */
    @Test
    void simdRejectsANodeSizeItCannotSearch() {
        assertRule(16, List.of(NodeSearches.S16, NodeSearches.S16_HALF, NodeSearches.S16_QUARTER));
        assertRule(32, List.of(NodeSearches.S32, NodeSearches.S32_HALF, NodeSearches.S32_QUARTER));
        assertRule(64, List.of(NodeSearches.S64, NodeSearches.S64_HALF, NodeSearches.S64_QUARTER));
        assertEquals(NodeSearches.S64.vectorBitSize(), NodeSearches.simdBits(64, NodeSearch.NODE_KEYS));
        assertThrows(IllegalArgumentException.class, () -> NodeSearches.simdBits(8, 16));
    }

    /** Every node size up to two full vectors, and 0 and -1, against the rule for {@code species}. */
    private static void assertRule(int width, List<VectorSpecies<?>> species) {
        for (int i = 1; i < species.size(); i++) {
            assertEquals(Math.max(64, species.get(i - 1).vectorBitSize() / 2), species.get(i).vectorBitSize(),
                    width + "-bit species " + i + " is half of the one before, down to 64 bits");
        }
        for (int n = -1; n <= 2 * species.get(0).length(); n++) {
            int size = n;
            VectorSpecies<?> widest = species.stream().filter(s -> size > 0 && size % s.length() == 0).findFirst()
                    .orElse(null);
            String what = width + "-bit keys, n=" + n + ", species " + species;
            if (widest == null) {
                assertThrows(IllegalArgumentException.class, () -> NodeSearches.simdBits(width, size), what);
            } else {
                assertEquals(widest.vectorBitSize(), NodeSearches.simdBits(width, size), what);
            }
        }
    }
}
