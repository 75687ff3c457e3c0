package org.bforest.bench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The commit in the CSV and reports: the launcher's property first, then git, then "unknown". */
class CommitTest {

    @Test
    void thePropertyWins() {
        String before = System.getProperty(Commit.PROPERTY);
        try {
            System.setProperty(Commit.PROPERTY, "abc1234-dirty");
            assertEquals("abc1234-dirty", Commit.current());
            assertEquals("abc1234-dirty", Environment.current().commit());
        } finally {
            if (before == null) {
                System.clearProperty(Commit.PROPERTY);
            } else {
                System.setProperty(Commit.PROPERTY, before);
            }
        }
    }

    @Test
    void gitIsAskedWhenThePropertyIsMissing() {
        // The tests run inside the bforest checkout, unless git is missing or the sources came without it.
        String c = Commit.fromGit(Path.of("").toAbsolutePath());
        assertTrue(c.matches("[0-9a-f]{4,40}(-dirty)?") || c.equals(Commit.UNKNOWN), c);
    }

    @Test
    void outsideACheckoutItIsUnknown(@TempDir Path dir) {
        assertEquals(Commit.UNKNOWN, Commit.fromGit(dir));
    }
}
