package org.bforest.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's API example compiles as written: the first {@code ```java} block of the
 * repository's README.md, its leading imports put at the top of a class and the rest made the
 * body of a method, compiled against this module's test class path (core and opencl on it). It
 * is compiled only, never run: its second half needs an OpenCL device. When this fails, the
 * README's example no longer matches the API: fix the example (or the API change) so that a user
 * can paste it.
 */
class ReadmeSnippetTest {
    private static final String OPEN = "```java";
    private static final String CLOSE = "```";

    /**
     * The README's example split into its imports and its statements, as the test wraps it;
     * {@code bodyLine} is the markdown line (from 1) of the first statement.
     */
    record Snippet(List<String> imports, List<String> body, int bodyLine) {
        /** The compilation unit: the imports, then one class whose one method holds the statements. */
        String source(String className) {
            StringBuilder s = new StringBuilder();
            imports.forEach(i -> s.append(i).append('\n'));
            s.append("\npublic final class ").append(className).append(" {\n");
            s.append("    static void example() {\n");
            body.forEach(l -> s.append("        ").append(l).append('\n'));
            s.append("    }\n}\n");
            return s.toString();
        }

        /** The markdown line of {@link #source}'s line {@code sourceLine}, or -1 outside the body. */
        long markdownLine(long sourceLine) {
            long first = imports.size() + 4;   // the imports, a blank line, the class, the method
            return sourceLine >= first && sourceLine < first + body.size() ? bodyLine + sourceLine - first : -1;
        }
    }

    /**
     * The first {@code ```java} block of {@code markdown}: lines up to the first that is neither
     * blank nor an {@code import} are the imports, the rest the body.
     */
    static Snippet firstJavaBlock(String markdown) {
        List<String> lines = markdown.lines().toList();
        int open = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).strip().equals(OPEN)) {
                open = i;
                break;
            }
        }
        if (open < 0) {
            fail("README.md has no " + OPEN + " block: the API example is missing or its fence lost its language");
        }
        int close = -1;
        for (int i = open + 1; i < lines.size(); i++) {
            if (lines.get(i).strip().equals(CLOSE)) {
                close = i;
                break;
            }
        }
        if (close < 0) {
            fail("README.md's " + OPEN + " block at line " + (open + 1) + " is never closed with " + CLOSE);
        }
        List<String> block = lines.subList(open + 1, close);
        int firstStatement = 0;
        while (firstStatement < block.size()
                && (block.get(firstStatement).isBlank() || block.get(firstStatement).startsWith("import "))) {
            firstStatement++;
        }
        List<String> imports = new ArrayList<>();
        for (String l : block.subList(0, firstStatement)) {
            if (!l.isBlank()) {
                imports.add(l);
            }
        }
        return new Snippet(imports, List.copyOf(block.subList(firstStatement, block.size())),
                open + 2 + firstStatement);
    }

    /** Compiles {@code source} as {@code className}.java into {@code out}; the diagnostics of kind ERROR. */
    static List<Diagnostic<? extends JavaFileObject>> compile(String className, String source, Path out)
            throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertNotNull(javac, "no system Java compiler: run the tests on a JDK, not a JRE");
        JavaFileObject unit = new SimpleJavaFileObject(URI.create("string:///" + className + ".java"),
                JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return source;
            }
        };
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        List<String> options = List.of(
                "-classpath", System.getProperty("java.class.path"),
                "--add-modules", "jdk.incubator.vector",
                "-proc:none",
                "-d", out.toString());
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT,
                StandardCharsets.UTF_8)) {
            StringWriter compilerOutput = new StringWriter();
            javac.getTask(compilerOutput, files, diagnostics, options, null, List.of(unit)).call();
        }
        return diagnostics.getDiagnostics().stream()
                .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
                .collect(Collectors.toList());
    }

    private static String describe(List<Diagnostic<? extends JavaFileObject>> errors, Snippet snippet,
                                   String source) {
        List<String> lines = source.lines().toList();
        StringBuilder s = new StringBuilder();
        for (Diagnostic<? extends JavaFileObject> d : errors) {
            long line = d.getLineNumber();
            long md = snippet.markdownLine(line);
            s.append(md > 0 ? "\n  README.md line " + md : "\n  the imports (wrapped line " + line + ")")
                    .append(": ").append(d.getMessage(Locale.ROOT));
            if (line >= 1 && line <= lines.size()) {
                s.append("\n    ").append(lines.get((int) line - 1).strip());
            }
        }
        return s.toString();
    }

    private static Path readme() {
        // Surefire runs the tests in the module's directory; the README is the repository's.
        Path readme = Path.of("..", "README.md").toAbsolutePath().normalize();
        assertTrue(Files.isRegularFile(readme), "no README.md at " + readme
                + ": run the bench module's tests from its directory (bench/), as Maven does");
        return readme;
    }

    @Test
    void theReadmesApiExampleCompilesAsWritten(@TempDir Path out) throws IOException {
        Path readme = readme();
        Snippet snippet = firstJavaBlock(Files.readString(readme, StandardCharsets.UTF_8));
        assertFalse(snippet.imports().isEmpty(), "the README's example imports nothing: " + snippet);
        assertTrue(snippet.body().stream().anyMatch(l -> l.contains("Indexes.")),
                "the README's first java block is not the API example (no Indexes. call): " + snippet);
        String source = snippet.source("ReadmeExample");
        List<Diagnostic<? extends JavaFileObject>> errors = compile("ReadmeExample", source, out);
        assertTrue(errors.isEmpty(), readme + "'s first " + OPEN + " block (the API example) does not compile"
                + " as written; fix the example so that a user can paste it:" + describe(errors, snippet, source));
        assertTrue(Files.isRegularFile(out.resolve("ReadmeExample.class")), "javac reported no error but wrote no class");
    }

    /** The check itself can fail: a snippet with an undeclared name is reported, with its line. */
    @Test
    void aSnippetThatDoesNotCompileIsReported(@TempDir Path out) throws IOException {
        Snippet broken = firstJavaBlock("""
                # title

                ```java
                import org.bforest.Indexes;

                long[] keys = {1, 2, 3};
                Indexes.bsTree(keys, undeclaredValues);
                ```
                """);
        assertEquals(List.of("import org.bforest.Indexes;"), broken.imports());
        assertEquals(List.of("long[] keys = {1, 2, 3};", "Indexes.bsTree(keys, undeclaredValues);"), broken.body());
        String source = broken.source("Broken");
        List<Diagnostic<? extends JavaFileObject>> errors = compile("Broken", source, out);
        String report = describe(errors, broken, source);
        assertEquals(1, errors.size(), report);
        assertTrue(report.contains("README.md line 7: ") && report.contains("undeclaredValues"), report);
    }
}
