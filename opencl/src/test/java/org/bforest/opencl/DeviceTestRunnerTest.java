package org.bforest.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The runner without Maven picks the classes the module's surefire configuration picks. */
class DeviceTestRunnerTest {

    private static List<String> includes() throws IOException {
        Path file = Path.of("pom.xml");
        // The runner's own run from a bundle has no pom beside it: nothing to compare there.
        assumeTrue(Files.exists(file), "no pom.xml in the working folder (a run outside Maven)");
        String pom = Files.readString(file);
        Matcher m = Pattern.compile("<include>([^<]+)</include>").matcher(pom);
        return m.results().map(r -> r.group(1)).toList();
    }

    @Test
    void kitClassesAreThePomsIncludes() throws IOException {
        List<String> fromPom = includes().stream()
                .filter(i -> !i.startsWith("org/bforest/opencl/"))
                .map(i -> i.replaceAll("\\.java$", "").replace('/', '.'))
                .toList();
        assertEquals(fromPom, DeviceTestRunner.KIT_CLASSES,
                "keep DeviceTestRunner.KIT_CLASSES in step with the <includes> of opencl/pom.xml");
        assertEquals(List.of("org/bforest/opencl/**/*Test.java"),
                includes().stream().filter(i -> i.startsWith("org/bforest/opencl/")).toList(),
                "DeviceTestRunner.OWN_TESTS mirrors this include: change both");
    }

    @Test
    void ownTestsPatternMatchesTopLevelTestClassesOnly() {
        Pattern own = Pattern.compile(DeviceTestRunner.OWN_TESTS);
        assertTrue(own.matcher("org.bforest.opencl.KernelSourcesTest").matches());
        assertTrue(own.matcher("org.bforest.opencl.gpubtree.sub.SomeTest").matches());
        assertFalse(own.matcher("org.bforest.opencl.DeviceTestRunner").matches());
        assertFalse(own.matcher("org.bforest.opencl.OpenClTesting").matches());
        assertFalse(own.matcher("org.bforest.opencl.SomeTest$Nested").matches());
        assertFalse(own.matcher("org.bforest.contract.DifferentialTest").matches());
    }
}
