package org.bforest.bench.structures;

import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import java.util.function.BiFunction;
import org.bforest.LongIndex;
import org.bforest.bench.workloads.Op;
import org.bforest.bench.workloads.Operations;
import org.bforest.opencl.DeviceIndex;
import org.bforest.opencl.OpenClDevice;
import org.bforest.opencl.OpenClException;

/**
 * A structure on an OpenCL device (the GPU B+-tree): every operation goes to the device in a
 * batch, {@link #batchSize()} operations a call ({@code --batch N}, else a size that suits the
 * device: 1M on a GPU, 64K on a CPU emulation such as PoCL).
 *
 * <p>A batch keeps the stream's sequential meaning, so the checksum is the one every other
 * structure returns. A batch of lookups is one {@code getAll}; of inserts one {@code putAll} (the
 * effects from the size change); of deletes one {@code removeAll}. A mixed batch looks up every key
 * it touches once ({@code getAll}, the state before the batch), resolves each key's operations in
 * order on the host, and hands the net result to the device: one {@code putAll} of the keys that
 * end present, one {@code removeAll} of those that end absent. A scan ends the batch before it and
 * runs alone (a range visit through the shared layer).
 */
public final class DeviceBatchAdapter implements IndexAdapter {
    /** Operations a batch on a GPU, and on a CPU emulation, when {@code --batch} does not say. */
    public static final int GPU_BATCH = 1 << 20;
    public static final int CPU_BATCH = 1 << 16;
    private static int batch;

    private final BiFunction<OpenClDevice, long[][], DeviceIndex> factory;
    private final ScanSum scan = new ScanSum();
    private DeviceIndex index;
    private OpenClDevice device;
    // Per-batch scratch, grown to the batch size once.
    private long[] keys = new long[0];
    private long[] values = new long[0];
    private long[] found = new long[0];
    private boolean[] present = new boolean[0];
    private long[] stateValue = new long[0];
    private long[] stateKey = new long[0];
    private byte[] touched = new byte[0];
    private final Long2IntOpenHashMap slotOf = new Long2IntOpenHashMap();

    /** {@code factory}: the device and {sortedKeys, values} to a built structure. */
    DeviceBatchAdapter(BiFunction<OpenClDevice, long[][], DeviceIndex> factory) {
        this.factory = factory;
        slotOf.defaultReturnValue(-1);
    }

    /** Operations a batch from now on ({@code --batch}); 0: the device's default. */
    public static void useBatch(int n) {
        batch = n;
    }

    @Override
    public void build(long[] sortedKeys, long[] vals) {
        try {
            device = OpenClDevice.choose();
        } catch (OpenClException e) {
            throw new UnsupportedOperationException("no OpenCL device (" + e.getMessage() + ")", e);
        }
        index = factory.apply(device, new long[][] {sortedKeys, vals});
        reserve(batchSize());   // before the clock: a run's heap figure is then the tree's own
    }

    /** Operations handed to the device a call. */
    public int batchSize() {
        return batch > 0 ? batch : device != null && device.isGpu() ? GPU_BATCH : CPU_BATCH;
    }

    @Override
    public int preferredChunk() {
        return batchSize();
    }

    @Override
    public long run(Operations ops, int from, int to) {
        int size = batchSize();
        long sum = 0;
        byte[] codes = ops.codes();
        int i = from;
        while (i < to) {
            if (codes[i] == Op.SCAN) {
                index.rangeVisit(ops.keys()[i], ops.ends()[i], scan);
                i++;
                continue;
            }
            int end = i;
            while (end < to && end - i < size && codes[end] != Op.SCAN) {
                end++;
            }
            sum += batch(ops, i, end);
            i = end;
        }
        return sum + scan.take();
    }

    /**
     * A {@code --batch} cell: the stream cut as every structure's is ({@link Batching}: runs of
     * one kind, at most the cell's size), so that its figures compare with the CPU trees' at the
     * same size; {@link #run} is this structure's own mixed batches, for the plain cells.
     */
    @Override
    public long runBatched(Operations ops, int from, int to, BatchBuffers buffers) {
        return Batching.run(index, false, scan, ops, from, to, buffers) + scan.take();
    }

    private void reserve(int n) {
        if (keys.length < n) {
            keys = new long[n];
            values = new long[n];
            found = new long[n];
            present = new boolean[n];
            stateValue = new long[n];
            stateKey = new long[n];
            touched = new byte[n];
        }
    }

    /** Operations [from, to), none a scan, as one batch (or three calls for a mixed one). */
    private long batch(Operations ops, int from, int to) {
        int n = to - from;
        reserve(n);
        byte[] codes = ops.codes();
        byte first = codes[from];
        boolean same = true;
        for (int i = from + 1; i < to && same; i++) {
            same = codes[i] == first;
        }
        long[] k = n == keys.length ? keys : new long[n];
        System.arraycopy(ops.keys(), from, k, 0, n);
        if (same && first == Op.LOOKUP) {
            long[] v = n == values.length ? values : new long[n];
            index.getAll(k, v, Values.ABSENT);
            long sum = 0;
            for (int i = 0; i < n; i++) {
                sum += v[i];
            }
            return sum;
        }
        if (same && first == Op.INSERT) {
            long[] v = n == values.length ? values : new long[n];
            for (int i = 0; i < n; i++) {
                v[i] = Values.of(k[i]);
            }
            long before = index.size();
            index.putAll(k, v);
            long added = index.size() - before;
            return added * Values.effect(true) + (n - added) * Values.effect(false);
        }
        if (same && first == Op.DELETE) {
            long removed = index.removeAll(k);
            return removed * Values.effect(true) + (n - removed) * Values.effect(false);
        }
        return mixed(codes, from, k, n);
    }

    /** A mixed batch: the keys' state before it, each key's operations in order, the net result. */
    private long mixed(byte[] codes, int from, long[] k, int n) {
        long[] before = n == found.length ? found : new long[n];
        index.getAll(k, before, Values.ABSENT);
        slotOf.clear();
        int states = 0;
        long sum = 0;
        for (int i = 0; i < n; i++) {
            long key = k[i];
            int s = slotOf.get(key);
            if (s < 0) {
                s = states++;
                slotOf.put(key, s);
                stateKey[s] = key;
                // A stored value equal to the absent marker is only Long.MAX_VALUE's (~key), kept on the host.
                present[s] = before[i] != Values.ABSENT || key == Long.MAX_VALUE && index.containsKey(key);
                stateValue[s] = before[i];
                touched[s] = 0;
            }
            switch (codes[from + i]) {
                case Op.LOOKUP -> sum += present[s] ? stateValue[s] : Values.ABSENT;
                case Op.INSERT -> {
                    sum += Values.effect(!present[s]);
                    present[s] = true;
                    stateValue[s] = Values.of(key);
                    touched[s] = 1;
                }
                default -> {
                    sum += Values.effect(present[s]);
                    present[s] = false;
                    touched[s] = 1;
                }
            }
        }
        int puts = 0;
        int dels = 0;
        for (int s = 0; s < states; s++) {
            if (touched[s] != 0 && present[s]) {
                puts++;
            } else if (touched[s] != 0) {
                dels++;
            }
        }
        long[] pk = new long[puts];
        long[] pv = new long[puts];
        long[] dk = new long[dels];
        puts = 0;
        dels = 0;
        for (int s = 0; s < states; s++) {
            if (touched[s] != 0 && present[s]) {
                pk[puts] = stateKey[s];
                pv[puts++] = stateValue[s];
            } else if (touched[s] != 0) {
                dk[dels++] = stateKey[s];
            }
        }
        index.putAll(pk, pv);
        index.removeAll(dk);
        return sum;
    }

    /** {@code --visit-all}: one pass over every entry on the device ({@link DeviceIndex#sumValues()}), no entry shipped. */
    @Override
    public long visitSum() {
        return index.sumValues();
    }

    @Override
    public LongIndex longIndex() {
        return index;
    }

    @Override
    public long size() {
        return index.size();
    }

    @Override
    public long memoryBytes() {
        return index.memoryBytes();
    }

    @Override
    public String describeBuilt() {
        return "built a " + index + " on " + device + (device.isEmulation() ? " (a CPU emulation: the figures show"
                + " that it works, not how fast a GPU is)" : "") + "; " + batchSize() + " operations a batch";
    }

    @Override
    public void release() {
        if (index != null) {
            index.close();
        }
    }
}
