package org.bforest.contract;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs a test method once for every implementation in {@link TestSubjects#implementations()};
 * the method takes one {@link org.bforest.testing.Implementations.Impl} parameter and the
 * implementation's name is the test's display name.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedTest(name = "{0}")
@MethodSource("org.bforest.contract.TestSubjects#implementations")
public @interface ForEachImplementation {
}
