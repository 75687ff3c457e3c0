package org.bforest.fastutil;

import com.google.common.collect.testing.SortedMapTestSuiteBuilder;
import com.google.common.collect.testing.features.CollectionFeature;
import com.google.common.collect.testing.features.CollectionSize;
import com.google.common.collect.testing.features.Feature;
import com.google.common.collect.testing.features.MapFeature;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.stream.Stream;
import junit.framework.TestCase;
import junit.framework.TestFailure;
import junit.framework.TestResult;
import junit.framework.TestSuite;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Guava testlib's whole {@code SortedMap} suite (with its derived sub-map, key-set, values and
 * entry-set suites) on the boxed face of {@link FastutilViews#asLong2LongSortedMap}: the
 * {@code java.util} contract that a {@code Long2LongSortedMap} also promises. Run over a BS-tree, a
 * B− tree, a CSB+-tree and the concurrent BS-tree (weakly consistent iterators: without the
 * fail-fast feature), and once more over a BS-tree whose default return value is -1, a sample
 * value. Guava's JUnit 3 suites run as JUnit 5 dynamic tests, as core's view suite does.
 *
 * <p>The features are those of Guava's own {@code TreeMap} suite except
 * {@code ALLOWS_NULL_VALUES} (a primitive map has no null value) and {@code SERIALIZABLE};
 * nothing is suppressed.
 */
class GuavaSortedMapSuiteTest {

    private record Run(Structures.Structure structure, long defaultReturnValue) {
    }

    private static final List<Run> RUNS = List.of(
            new Run(Structures.BS_TREE, 0),
            new Run(Structures.BS_TREE, -1),
            new Run(Structures.B_MINUS_TREE, 0),
            new Run(Structures.CSB_PLAIN, 0),
            new Run(Structures.CONCURRENT_BS_TREE, 0));

    @TestFactory
    Stream<DynamicNode> guavaSortedMapSuite() {
        List<DynamicNode> nodes = new ArrayList<>();
        for (Run run : RUNS) {
            List<Feature<?>> features = new ArrayList<>(List.of(
                    MapFeature.GENERAL_PURPOSE,
                    CollectionFeature.SUPPORTS_ITERATOR_REMOVE,
                    CollectionFeature.KNOWN_ORDER,
                    CollectionSize.ANY));
            if (run.structure().failFast()) {
                features.add(MapFeature.FAILS_FAST_ON_CONCURRENT_MODIFICATION);
            }
            TestSuite suite = SortedMapTestSuiteBuilder
                    .using(new ViewMapGenerator(run.structure(), run.defaultReturnValue()))
                    .named(run.structure().name() + " as Long2LongSortedMap, default return value "
                            + run.defaultReturnValue())
                    .withFeatures(features)
                    .createTestSuite();
            nodes.add(dynamic(suite));
        }
        return nodes.stream();
    }

    private static DynamicNode dynamic(junit.framework.Test test) {
        if (test instanceof TestSuite suite) {
            List<DynamicNode> children = new ArrayList<>(suite.testCount());
            for (int i = 0; i < suite.testCount(); i++) {
                children.add(dynamic(suite.testAt(i)));
            }
            return DynamicContainer.dynamicContainer(String.valueOf(suite.getName()), children);
        }
        String name = test instanceof TestCase tc ? tc.getName() : test.toString();
        return DynamicTest.dynamicTest(name, () -> runJUnit3(test));
    }

    private static void runJUnit3(junit.framework.Test test) throws Throwable {
        TestResult result = new TestResult();
        test.run(result);
        for (Enumeration<TestFailure> e : List.of(result.errors(), result.failures())) {
            if (e.hasMoreElements()) {
                throw e.nextElement().thrownException();
            }
        }
        if (result.runCount() == 0) {
            throw new AssertionError("JUnit 3 test did not run: " + test);
        }
    }
}
