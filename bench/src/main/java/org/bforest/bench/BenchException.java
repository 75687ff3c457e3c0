package org.bforest.bench;

/**
 * A problem the user can fix (a bad option, a malformed dataset file, too little heap). Main
 * prints its message alone, without a stack trace, and exits with status 2.
 */
public final class BenchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BenchException(String message) {
        super(message);
    }

    public BenchException(String message, Throwable cause) {
        super(message, cause);
    }
}
