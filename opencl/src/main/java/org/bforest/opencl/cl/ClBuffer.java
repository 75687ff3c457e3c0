package org.bforest.opencl.cl;

import java.lang.foreign.MemorySegment;

/**
 * A device buffer of a {@link ClScope}: its {@code cl_mem} handle, which only this package reads.
 * The trees hold and pass buffers as this type, so that the FFM API stays in this package; a
 * buffer is its own identity (a scope tracks the ones it allocated until it releases them).
 */
public final class ClBuffer {
    final MemorySegment mem;

    ClBuffer(MemorySegment mem) {
        this.mem = mem;
    }
}
