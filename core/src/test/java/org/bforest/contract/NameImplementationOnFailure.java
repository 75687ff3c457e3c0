package org.bforest.contract;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * Puts the display name of a parameterized invocation (the implementation's name, for
 * {@link ForEachImplementation}) in front of every failure message, so that a report read
 * without the test tree still says which structure broke. Unexpected exceptions thrown by the
 * structure become failures that carry the original as their cause.
 */
public final class NameImplementationOnFailure implements TestExecutionExceptionHandler {
    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
        if (thrown instanceof TestAbortedException) {
            throw thrown;
        }
        String prefix = "[" + context.getDisplayName() + "] ";
        String message = thrown.getMessage();
        if (message != null && message.startsWith(prefix)) {
            throw thrown;
        }
        AssertionFailedError named;
        if (thrown instanceof AssertionFailedError failed && failed.isExpectedDefined() && failed.isActualDefined()) {
            named = new AssertionFailedError(prefix + message, failed.getExpected().getEphemeralValue(),
                    failed.getActual().getEphemeralValue(), thrown);
        } else if (thrown instanceof AssertionError) {
            named = new AssertionFailedError(prefix + message, thrown);
        } else {
            named = new AssertionFailedError(prefix + "unexpected " + thrown, thrown);
        }
        named.setStackTrace(thrown.getStackTrace());
        throw named;
    }
}
