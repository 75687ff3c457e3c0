package org.bforest.bench.structures;

/**
 * The scratch arrays of a batched lookup run ({@code --batch}), allocated by the runner before
 * the clock starts: one pair for the full batches and one for the last, shorter batch of the
 * operation stream (its length is {@code ops % size}, 0 when the batches come out even), so the
 * timed loop allocates nothing. {@code LongIndex.getAll} fills its whole values array, so a short
 * batch needs arrays of its own length.
 *
 * <p>The runner hands the adapters ranges that are whole batches, except at the end of the
 * stream; {@link #keys(int)} and {@link #values(int)} refuse any other length.
 */
public final class BatchBuffers {
    private final long[] keys;
    private final long[] values;
    private final long[] tailKeys;
    private final long[] tailValues;

    /** Buffers for batches of {@code size} keys over a stream of {@code ops} lookups. */
    public BatchBuffers(int size, int ops) {
        if (size < 1 || ops < 0) {
            throw new IllegalArgumentException("a batch of " + size + " keys over " + ops + " operations");
        }
        keys = new long[size];
        values = new long[size];
        tailKeys = new long[ops % size];
        tailValues = new long[ops % size];
    }

    /** Keys a full batch. */
    public int size() {
        return keys.length;
    }

    /** The keys array for a batch of {@code n} keys: the full batch's, or the last batch's. */
    public long[] keys(int n) {
        return n == keys.length ? keys : tail(n, tailKeys);
    }

    /** The values array for a batch of {@code n} keys. */
    public long[] values(int n) {
        return n == values.length ? values : tail(n, tailValues);
    }

    private long[] tail(int n, long[] tail) {
        if (n != tail.length) {
            throw new IllegalArgumentException("a batch of " + n + " keys: these buffers hold batches of "
                    + keys.length + " and a last one of " + tail.length);
        }
        return tail;
    }
}
