package org.bforest.opencl;

/**
 * An OpenCL call failed, or OpenCL is not there at all. The message names the call and the
 * error ({@code clBuildProgram failed: CL_BUILD_PROGRAM_FAILURE (-11)}, with the build log) or
 * says what to install; {@link #status()} is the OpenCL status code, 0 where there is none.
 */
public class OpenClException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;

    public OpenClException(String message) {
        this(message, 0);
    }

    public OpenClException(String message, int status) {
        super(message);
        this.status = status;
    }

    public OpenClException(String message, Throwable cause) {
        super(message, cause);
        this.status = 0;
    }

    /** The OpenCL status code the failing call returned ({@code CL_...}, negative); 0 if none. */
    public int status() {
        return status;
    }
}
