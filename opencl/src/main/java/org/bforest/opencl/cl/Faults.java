package org.bforest.opencl.cl;

import org.bforest.opencl.OpenClException;

/**
 * The failures a test injects into a scope's device calls ({@link ClScope#failAt},
 * {@link ClScope#failCommandAt}); used under the context's monitor, as the scope's calls are.
 */
final class Faults {
    /** The device call that fails, counted down (0: none), and the status it fails with. */
    long callIn;
    int callStatus;
    /** The device call whose command fails on the device, counted down (0: none), and its status. */
    long commandIn;
    int commandStatus;
    /** The index of the faulty command's event once recorded (-1: none; MAX_VALUE: the next one recorded). */
    int event = -1;

    /** A device call is made: the failure it meets, or null. */
    OpenClException call(String what) {
        if (commandIn > 0 && --commandIn == 0) {
            event = Integer.MAX_VALUE;   // the next command recorded
        }
        if (callIn > 0 && --callIn == 0) {
            return new OpenClException(what + " failed: " + ClErrors.name(callStatus) + " (" + callStatus
                    + ") (a failure injected by a test)", callStatus);
        }
        return null;
    }

    /** A command's event was recorded at {@code index} of the scope's pending events. */
    void recorded(int index) {
        if (event == Integer.MAX_VALUE) {
            event = index;
        }
    }

    /** The status of the pending event at {@code index}: the driver's, or the injected failure's. */
    int status(int index, int status) {
        if (index != event) {
            return status;
        }
        event = -1;
        return commandStatus;
    }
}
