package org.bforest.bench.workloads;

/**
 * One workload's operations, generated before the clock starts into flat primitive arrays so
 * that the timed loop reads two arrays and allocates nothing: operation {@code i} is
 * {@code codes[i]} applied to {@code keys[i]}; a {@link Op#SCAN} visits {@code [keys[i],
 * ends[i])}. {@code ends} is null when the workload has no scans.
 *
 * @param counts         how many operations of each code (indexed by {@link Op} code)
 * @param meanScanLength the mean number of loaded keys in a scan's range when it was generated
 *                       (keys inserted earlier in the stream can add a few); 0 without scans
 */
public record Operations(Workload workload, long seed, byte[] codes, long[] keys, long[] ends, int[] counts,
                         double meanScanLength) {

    public int size() {
        return codes.length;
    }
}
