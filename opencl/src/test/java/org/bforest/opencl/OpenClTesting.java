package org.bforest.opencl;

import java.util.List;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The device the OpenCL tests run on. Where no OpenCL platform is installed they are skipped with
 * the reason, unless {@code -Dbforest.opencl.required=true} (which {@code ./bforest test} sets once it
 * has installed PoCL): then a missing platform fails them.
 */
public final class OpenClTesting {
    private OpenClTesting() {
    }

    public static boolean required() {
        return Boolean.getBoolean("bforest.opencl.required");
    }

    public static OpenClDevice device() {
        List<OpenClDevice> all;
        try {
            all = OpenClDevice.all();
        } catch (OpenClException e) {
            return unavailable(e.getMessage());
        }
        if (all.isEmpty()) {
            return unavailable("the OpenCL loader found no platform");
        }
        OpenClDevice d = OpenClDevice.choose();
        System.out.println("OpenCL tests on " + d + (d.isEmulation() ? " (a CPU emulation)" : ""));
        return d;
    }

    /** The chosen device's driver handle, for the module's internal classes' tests. */
    public static org.bforest.opencl.cl.ClDevice handle() {
        return device().handle();
    }

    /** A device's driver handle, for the module's internal classes' tests. */
    public static org.bforest.opencl.cl.ClDevice handle(OpenClDevice d) {
        return d.handle();
    }

    private static OpenClDevice unavailable(String why) {
        if (required()) {
            Assertions.fail("OpenCL is required here (-Dbforest.opencl.required=true) but " + why);
        }
        Assumptions.abort("no OpenCL: " + why + " (./bforest test installs PoCL when run as root)");
        return null;
    }
}
