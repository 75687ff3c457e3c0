package org.bforest.opencl.cl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.SymbolLookup;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.bforest.opencl.OpenClDevice;
import org.bforest.opencl.OpenClException;
import org.bforest.opencl.OpenClTesting;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * {@code -Dbforest.opencl.library}: a library loaded by path, a loader or a driver's own library
 * (PoCL's {@code libpocl.so.2} here, which exports the ICD entry points and not the API: the
 * dispatch-table path a GPU driver's library such as {@code libnvidia-opencl.so.1} takes too);
 * and the errors. The property is read once a JVM, so the end-to-end runs are child JVMs.
 */
class ClLibraryTest {

    /** The first file named {@code prefix}* in the usual library folders, if any. */
    static Optional<Path> library(String prefix) {
        for (String dir : List.of("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib",
                "/usr/local/lib")) {
            Path d = Path.of(dir);
            if (!Files.isDirectory(d)) {
                continue;
            }
            try (Stream<Path> files = Files.list(d)) {
                Optional<Path> p = files.filter(f -> f.getFileName().toString().startsWith(prefix)).sorted().findFirst();
                if (p.isPresent()) {
                    return p;
                }
            } catch (IOException e) {
                // an unreadable folder: look in the next
            }
        }
        return Optional.empty();
    }

    private static Path pocl() {
        OpenClTesting.device();
        Optional<Path> p = library("libpocl.so");
        Assumptions.assumeTrue(p.isPresent(), "PoCL's libpocl.so is not installed in a usual folder");
        return p.get();
    }

    @Test
    void aPathThatIsNotThereIsNamedWithTheProperty() {
        OpenClException e = assertThrows(OpenClException.class, () -> ClLibrary.open("/no/such/libOpenCL.so"));
        assertTrue(e.getMessage().contains("-Dbforest.opencl.library=/no/such/libOpenCL.so")
                && e.getMessage().contains("names no file"), e.getMessage());
    }

    @Test
    void aLibraryThatIsNotOpenClIsNamedWithTheProperty() {
        Path notCl = Path.of(System.getProperty("java.home"), "lib", "libzip.so");
        Assumptions.assumeTrue(Files.exists(notCl), notCl + " is not there");
        OpenClException e = assertThrows(OpenClException.class, () -> ClLibrary.open(notCl.toString()));
        assertTrue(e.getMessage().contains("-Dbforest.opencl.library=" + notCl)
                && e.getMessage().contains("not an OpenCL library"), e.getMessage());
    }

    @Test
    void pocLsOwnLibraryIsReachedThroughItsDispatchTable() {
        Path pocl = pocl();
        SymbolLookup lib = ClLibrary.open(pocl.toString());
        for (String name : ClLibrary.DISPATCH.keySet()) {
            assertTrue(lib.find(name).isPresent(), name);
        }
    }

    @Test
    void aTreeRunsOnPoclLoadedByPathAndOnTheLoaderLoadedByPath() throws Exception {
        Path pocl = pocl();
        String out = child(pocl.toString());
        assertTrue(out.contains("child ok") && out.contains("Portable Computing Language"), out);
        Optional<Path> loader = library("libOpenCL.so.1");
        if (loader.isPresent()) {
            out = child(loader.get().toString());
            assertTrue(out.contains("child ok"), out);
        }
        out = child("/no/such/libOpenCL.so");
        assertTrue(out.contains("child failed") && out.contains("-Dbforest.opencl.library=/no/such/libOpenCL.so"), out);
    }

    /** A JVM on this class path running {@link ClLibraryChild} with the property set; its output. */
    private static String child(String library) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(List.of("--enable-native-access=ALL-UNNAMED", "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-D" + OpenClDevice.LIBRARY_PROPERTY + "=" + library, "-cp", System.getProperty("java.class.path"),
                ClLibraryChild.class.getName()));
        Path log = Files.createTempFile("bforest-cl-library", ".log");
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("the child JVM ran past 2 minutes: " + Files.readString(log));
            }
            String out = Files.readString(log, StandardCharsets.UTF_8);
            assertEquals(0, p.exitValue(), out);
            return out;
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
