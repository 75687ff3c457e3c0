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
        // The module's pom: the working folder's under Maven, opencl/'s under ./bforest gpu-check
        // (run from the project's root); a bundle has none, and there is nothing to compare.
        String pom = null;
        for (Path file : List.of(Path.of("pom.xml"), Path.of("opencl", "pom.xml"))) {
            if (Files.exists(file) && Files.readString(file).contains("<artifactId>bforest-opencl</artifactId>")) {
                pom = Files.readString(file);
                break;
            }
        }
        assumeTrue(pom != null, "no pom.xml of the OpenCL module here (a run from a bundle)");
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
