package org.bforest.bench.datasets;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bforest.bench.BenchException;

/**
 * Reads a key file in the SOSD format (Marcus et al., "Benchmarking Learned Indexes"): a
 * little-endian uint64 count, then that many little-endian uint64 keys, nothing else.
 *
 * <p>Every problem is a {@link BenchException} naming the file and the problem: missing or
 * unreadable, shorter than its header, a length that is not 8 + 8·count, more keys than a Java
 * array holds. Keys at or above 2^63 do not fit a signed {@code long} key: they are an error
 * unless {@code unsignedShift} is set, which maps every key k to k − 2^63 (flipping the top bit),
 * so unsigned order becomes signed order. Unsorted keys are sorted and duplicate keys dropped,
 * each with a note.
 *
 * <p>Then T = N + OPS keys are sampled without replacement by a partial Fisher–Yates shuffle
 * with {@link SplitMix64}({@code seed}): the first N, sorted, are loaded; the next OPS, in sampled
 * order, are inserted.
 */
public final class SosdLoader {
    public static final long SAMPLE_SEED = 4;
    private static final ValueLayout.OfLong LE_LONG =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private SosdLoader() {
    }

    /** All keys of the file, sorted and distinct, with notes on what had to be fixed. */
    public record Keys(long[] keys, List<String> notes) {
    }

    public static Keys read(Path file, boolean unsignedShift) {
        String f = "dataset file " + file;
        long size;
        try {
            size = Files.size(file);
        } catch (NoSuchFileException e) {
            throw new BenchException(f + ": no such file");
        } catch (IOException e) {
            throw new BenchException(f + ": cannot read it (" + e.getMessage() + ")");
        }
        if (Files.isDirectory(file)) {
            throw new BenchException(f + ": is a folder, not a SOSD key file");
        }
        if (size < 8) {
            throw new BenchException(f + ": truncated: " + size + " bytes, shorter than the 8-byte key count"
                    + " that starts a SOSD file");
        }
        long[] keys;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ); Arena arena = Arena.ofConfined()) {
            MemorySegment seg = ch.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
            long count = seg.get(LE_LONG, 0);
            long held = (size - 8) / 8;
            if (count < 0 || count > SyntheticDatasets.MAX_KEYS) {
                throw new BenchException(f + ": the header says " + Long.toUnsignedString(count) + " keys, more than"
                        + " this benchmark can hold (" + SyntheticDatasets.MAX_KEYS + "); the file holds " + held
                        + (held == count ? "" : " (is it a SOSD file?)"));
            }
            if ((size - 8) % 8 != 0 || held != count) {
                String what = held < count ? "truncated" : "longer than its header says";
                throw new BenchException(f + ": " + what + ": the header says " + count + " keys (" + (8 + 8 * count)
                        + " bytes) but the file has " + size + " bytes"
                        + ((size - 8) % 8 != 0 ? ", not a whole number of 8-byte keys" : " (" + held + " keys)"));
            }
            keys = new long[(int) count];
            MemorySegment.copy(seg, LE_LONG, 8, keys, 0, (int) count);
        } catch (IOException e) {
            throw new BenchException(f + ": cannot read it (" + e.getMessage() + ")");
        }
        return new Keys(keys, fix(keys, unsignedShift, f));
    }

    /** Checks the sign, sorts and deduplicates in place (returns the notes; keys may shrink). */
    private static List<String> fix(long[] keys, boolean unsignedShift, String f) {
        List<String> notes = new ArrayList<>();
        long high = 0;
        for (long k : keys) {
            if (k < 0) {
                high++;
            }
        }
        if (high > 0) {
            if (!unsignedShift) {
                long first = 0;
                for (long k : keys) {
                    if (k < 0) {
                        first = k;
                        break;
                    }
                }
                throw new BenchException(f + ": " + high + " key(s) are at or above 2^63 (the first is "
                        + Long.toUnsignedString(first) + "), which a signed long key cannot hold; pass"
                        + " --sosd-unsigned-shift to map every key k to k - 2^63, keeping their order");
            }
        }
        if (unsignedShift) {
            for (int i = 0; i < keys.length; i++) {
                keys[i] ^= Long.MIN_VALUE;
            }
            notes.add(f + ": every key was shifted by -2^63 (--sosd-unsigned-shift)");
        }
        boolean sorted = true;
        for (int i = 1; i < keys.length && sorted; i++) {
            sorted = keys[i - 1] <= keys[i];
        }
        if (!sorted) {
            Arrays.sort(keys);
            notes.add(f + ": the keys were not sorted; sorted them");
        }
        return notes;
    }

    /** Loads the file and samples the dataset of N loaded and OPS insert keys. */
    public static Dataset load(Path file, boolean unsignedShift, int n, int ops, long seed) {
        Keys read = read(file, unsignedShift);
        long[] keys = read.keys();
        List<String> notes = new ArrayList<>(read.notes());
        int distinct = dedupSorted(keys);
        if (distinct < keys.length) {
            notes.add("dataset file " + file + ": " + (keys.length - distinct) + " duplicate key(s) dropped; "
                    + distinct + " distinct keys remain");
        }
        long t = (long) n + ops;
        if (t > distinct) {
            throw new BenchException("dataset file " + file + ": holds " + distinct + " distinct keys, but --keys "
                    + n + " plus --ops " + ops + " needs " + t + " (the inserted keys must be new); pass smaller"
                    + " --keys/--ops");
        }
        SplitMix64 rng = new SplitMix64(seed);
        for (int i = 0; i < t; i++) {
            int j = i + (int) rng.nextBelow(distinct - i);
            long tmp = keys[i];
            keys[i] = keys[j];
            keys[j] = tmp;
        }
        String name = file.getFileName().toString();
        Dataset d = SyntheticDatasets.split(name, "SOSD file " + file + " (" + distinct + " distinct keys), "
                + "sampled with splitmix64(seed " + seed + ")", seed, Arrays.copyOf(keys, (int) t), n, notes);
        return d;
    }

    /** Moves the distinct keys of sorted {@code a} to its front; returns how many there are. */
    static int dedupSorted(long[] a) {
        if (a.length == 0) {
            return 0;
        }
        int w = 1;
        for (int i = 1; i < a.length; i++) {
            if (a[i] != a[w - 1]) {
                a[w++] = a[i];
            }
        }
        return w;
    }
}
