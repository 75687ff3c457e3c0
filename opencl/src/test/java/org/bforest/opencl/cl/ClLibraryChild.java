package org.bforest.opencl.cl;

import org.bforest.NativeLongIndex;
import org.bforest.opencl.OpenClDevice;
import org.bforest.opencl.OpenClException;
import org.bforest.opencl.OpenClIndexes;

/** {@link ClLibraryTest}'s child JVM: the devices and a small tree, on the library the property names. */
public final class ClLibraryChild {
    private ClLibraryChild() {
    }

    public static void main(String[] args) {
        try {
            for (OpenClDevice d : OpenClDevice.all()) {
                System.out.println(d);
            }
            long[] keys = new long[5000];
            for (int i = 0; i < keys.length; i++) {
                keys[i] = 3L * i;
            }
            try (NativeLongIndex t = OpenClIndexes.gpuBTree(keys, keys)) {
                long[] q = {0, 3, 4, 14997, 15000};
                long[] out = new long[q.length];
                t.getAll(q, out, -1);
                if (out[0] != 0 || out[1] != 3 || out[2] != -1 || out[3] != 14997 || out[4] != -1) {
                    throw new AssertionError(java.util.Arrays.toString(out));
                }
            }
            System.out.println("child ok");
        } catch (OpenClException e) {
            System.out.println("child failed: " + e.getMessage());
        }
    }
}
