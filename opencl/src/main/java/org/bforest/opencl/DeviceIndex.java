package org.bforest.opencl;

import org.bforest.NativeLongIndex;

/**
 * An index whose entries live on an OpenCL device (the GPU B+-tree and the hybrid tree of
 * {@link OpenClIndexes}), with what only a device index can do: one pass over every entry on the
 * device, no entry shipped to the host. This is the third operation of Kaczmarek's paper,
 * <em>GPU B+-tree</em> ("all elements visiting"): one work-group a leaf page, the list of the
 * pages in use and their counts sent to the device once a call, a partial result a page read
 * back and added on the host. And where its time goes ({@link #deviceTimes}) and how much
 * device memory it holds ({@link #deviceBytes}).
 *
 * <p>The functions are {@link DeviceFunction}s: OpenCL C for the device and the same function in
 * Java for the entry of key {@code Long.MAX_VALUE}, which the trees keep on the host (see there).
 * A function whose body does not compile throws {@link OpenClException} with the compiler's log,
 * and the index is unchanged and usable. After {@link #close()} every method throws
 * {@link IllegalStateException}. The reads here take turns on the device with other threads' calls
 * as every read does; {@link #transformValues} is a write (the caller's synchronisation).
 */
public interface DeviceIndex extends NativeLongIndex {
    /**
     * Device bytes held now: the pages at their buffers' capacity and the per-batch scratch
     * ({@link #memoryBytes()} counts them too, with the host's share).
     */
    long deviceBytes();

    /** Where the batches' time went since the index was built or {@link #resetDeviceTimes()}. */
    DeviceTimes deviceTimes();

    /** Starts {@link #deviceTimes()} from zero. */
    void resetDeviceTimes();

    /**
     * The sum of every value, wrapping on overflow (two's complement, as Java's {@code long}
     * addition), in one pass on the device.
     *
     * @return the sum of the values; 0 for an empty index
     * @throws IllegalStateException if the index was closed
     * @throws OpenClException       if the device fails
     */
    default long sumValues() {
        return mapReduce(DeviceFunction.VALUE);
    }

    /**
     * The sum of {@code f(key, value)} over every entry, wrapping on overflow, in one pass on the
     * device.
     *
     * @param f the function of an entry
     * @return the sum; 0 for an empty index
     * @throws NullPointerException  if {@code f} is null
     * @throws IllegalStateException if the index was closed
     * @throws OpenClException       if {@code f}'s body does not compile (the message holds the
     *                               compiler's log) or the device fails
     */
    long mapReduce(DeviceFunction f);

    /**
     * How many entries {@code predicate} holds for (is not 0 on), in one pass on the device.
     *
     * @param predicate the function of an entry, true where not 0 (e.g.
     *                  {@link DeviceFunction#keyBetween})
     * @return the entries it holds for
     * @throws NullPointerException  if {@code predicate} is null
     * @throws IllegalStateException if the index was closed
     * @throws OpenClException       if its body does not compile (the message holds the compiler's
     *                               log) or the device fails
     */
    long countIf(DeviceFunction predicate);

    /**
     * Replaces every value by {@code f(key, value)}, in place on the device, in one pass (the
     * paper's scalar operation over every value); the keys stay. A write: cursors and visits open
     * across it fail fast afterwards, as after an insert. It returns once the device has done it.
     * A body that does not compile changes nothing; a device that fails once the pass has begun
     * leaves the index failed (every later call throws {@link IllegalStateException} naming the
     * cause), never half transformed and answering.
     *
     * @param f the function of an entry giving its new value
     * @throws NullPointerException  if {@code f} is null
     * @throws IllegalStateException if the index was closed
     * @throws OpenClException       if {@code f}'s body does not compile (the message holds the
     *                               compiler's log; nothing changed) or the device fails
     */
    void transformValues(DeviceFunction f);
}
