package org.bforest.opencl.cl;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A whole array to or from the start of a device buffer, blocking ({@link ClScope#upload},
 * {@link ClScope#download}): in parts of {@link #PART} bytes through one host buffer of its own,
 * freed on return. A bulk load of a large tree so needs no second copy of its pages on the host
 * (nor the clearing of one: a 10M-key build takes a third less time without), and none of the scope's
 * pinned memory, which stays the size of its batches.
 */
final class BulkTransfer {
    /** The bytes of one part. */
    static final long PART = 4L << 20;

    private BulkTransfer() {
    }

    /** The first {@code n} elements of {@code array} (of {@code layout}) to ({@code up}) or from {@code buffer}. */
    static void run(ClScope cl, ClBuffer buffer, Object array, ValueLayout layout, int n, boolean up) {
        long size = layout.byteSize();
        int part = (int) Math.max(1, Math.min(n, PART / size));
        try (Arena a = Arena.ofConfined()) {
            MemorySegment bounce = a.allocate(layout, part);
            for (int at = 0; at < n; at += part) {
                int m = Math.min(part, n - at);
                MemorySegment h = bounce.asSlice(0, size * m);
                if (up) {
                    MemorySegment.copy(array, at, h, layout, 0, m);
                }
                cl.transferNow(buffer, size * at, h, up);
                if (!up) {
                    MemorySegment.copy(h, layout, 0, array, at, m);
                }
            }
        }
    }
}
