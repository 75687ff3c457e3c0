package org.bforest.bench.runner;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The bforest commit a run measures, for the CSV and the reports: the system property
 * {@value #PROPERTY} when set (the launcher sets it from {@code git rev-parse --short HEAD}, with
 * "-dirty" when tracked files have changes: the robust way), else the same asked of git in the
 * working directory (a run from an IDE or Maven), else "unknown" (no git, not a checkout).
 */
final class Commit {
    static final String PROPERTY = "bforest.commit";
    static final String UNKNOWN = "unknown";
    private static String fromGit;

    private Commit() {
    }

    static String current() {
        String set = System.getProperty(PROPERTY);
        if (set != null && !set.isBlank()) {
            return set.trim();
        }
        synchronized (Commit.class) {
            if (fromGit == null) {
                fromGit = fromGit(Path.of("").toAbsolutePath());
            }
            return fromGit;
        }
    }

    /** "3dd80f6", "3dd80f6-dirty", or "unknown" when git cannot say. */
    static String fromGit(Path dir) {
        String head = git(dir, "rev-parse", "--short", "HEAD");
        if (head == null || head.isEmpty()) {
            return UNKNOWN;
        }
        String status = git(dir, "status", "--porcelain", "--untracked-files=no");
        return status == null || status.isEmpty() ? head : head + "-dirty";
    }

    /** Git's trimmed output, or null when git is missing, fails or takes over 10 seconds. */
    private static String git(Path dir, String... args) {
        List<String> command = new ArrayList<>(List.of("git", "-C", dir.toString()));
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out;
            try (InputStream in = p.getInputStream()) {
                out = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
            }
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null;
            }
            return p.exitValue() == 0 ? out : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
