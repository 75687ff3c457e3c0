package org.bforest.opencl;

/**
 * An OpenCL call failed, or OpenCL is not there at all. The message names the call and the
 * error ({@code clBuildProgram failed: CL_BUILD_PROGRAM_FAILURE (-11)}, with the build log) or
 * says what to install; {@link #status()} is the OpenCL status code, 0 where there is none.
 */
public class OpenClException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The OpenCL status code of the failing call, 0 if none. */
    private final int status;

    /**
     * A failure with no OpenCL status code (OpenCL missing, no matching device, a kernel source
     * that cannot be read).
     *
     * @param message what failed and what to do about it
     */
    public OpenClException(String message) {
        this(message, 0);
    }

    /**
     * A failed OpenCL call.
     *
     * @param message the call, the error's name and code, and what to do about it
     * @param status  the status code the call returned ({@code CL_...}, negative)
     */
    public OpenClException(String message, int status) {
        super(message);
        this.status = status;
    }

    /**
     * A failure caused by another exception (a downcall that threw, a resource that could not be
     * read); the status is 0.
     *
     * @param message what failed and what to do about it
     * @param cause   the exception that caused it
     */
    public OpenClException(String message, Throwable cause) {
        super(message, cause);
        this.status = 0;
    }

    /**
     * A failure that another one caused, keeping its status code (a batch that stopped part way
     * through because a call failed).
     *
     * @param message what failed, how far the work got, and what to do about it
     * @param status  the status code of the failing call ({@code CL_...}), 0 if none
     * @param cause   the failure that caused it
     */
    public OpenClException(String message, int status, Throwable cause) {
        super(message, cause);
        this.status = status;
    }

    /**
     * The OpenCL status code the failing call returned ({@code CL_...}, negative); 0 if none.
     *
     * @return the status code, such as -11 for {@code CL_BUILD_PROGRAM_FAILURE}; 0 when the
     *         failure was not an OpenCL call's
     */
    public int status() {
        return status;
    }
}
