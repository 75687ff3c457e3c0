package org.bforest;

/**
 * A {@link LongIndex} that holds memory the garbage collector does not manage (off-heap or on a
 * device), released by {@link #close()}. Use it in try-with-resources.
 *
 * <p>After {@code close()} every method but {@code close()} and {@link #isClosed()} throws
 * {@link IllegalStateException}: a closed index never touches freed memory, so a late call cannot
 * crash the JVM. {@code close()} is idempotent; calling it while another thread uses the index is
 * a race the caller must prevent, as with any write.
 */
public interface NativeLongIndex extends LongIndex, AutoCloseable {
    /** Releases the native memory; later calls (but this one and {@link #isClosed()}) throw. */
    @Override
    void close();

    /**
     * Whether {@link #close()} has been called.
     *
     * @return {@code true} once the index is closed; it never reopens
     */
    boolean isClosed();
}
