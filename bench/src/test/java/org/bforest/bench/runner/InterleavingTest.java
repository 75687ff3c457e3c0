package org.bforest.bench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bforest.bench.cli.Options;
import org.bforest.bench.cli.OptionsParser;
import org.bforest.bench.cli.ProgressMode;
import org.bforest.bench.cli.ValueMode;
import org.bforest.bench.structures.Values;
import org.junit.jupiter.api.Test;

/** The runner's schedule: repetitions interleaved across structures, rotating who goes first. */
class InterleavingTest {

    @Test
    void roundRRunsRepetitionROfEveryStructureBeforeAnyRoundAfterIt() {
        Options o = OptionsParser.parse("--structures", "bstree,treemap,sorted-array", "--dataset", "uniform",
                "--keys", "2K", "--ops", "1K", "--workloads", "A,B", "--reps", "3", "--warmup", "1");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RunSummary run;
        try (Progress p = Progress.create(ProgressMode.PLAIN, new PrintStream(out, true, StandardCharsets.UTF_8))) {
            run = new BenchmarkRunner(o, p).run();
        }
        Pattern step = Pattern.compile("\\] (\\S+) uniform (\\S+) (warm-up|rep) (\\d+)/");
        Map<String, List<String[]>> byWorkload = new LinkedHashMap<>();
        for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
            Matcher m = step.matcher(line);
            if (m.find()) {
                int round = m.group(3).equals("warm-up") ? 0 : Integer.parseInt(m.group(4));
                byWorkload.computeIfAbsent(m.group(2), k -> new ArrayList<>())
                        .add(new String[] {m.group(1), Integer.toString(round)});
            }
        }
        assertEquals(List.of("A", "B"), new ArrayList<>(byWorkload.keySet()));
        for (Map.Entry<String, List<String[]>> e : byWorkload.entrySet()) {
            List<String[]> steps = e.getValue();
            int structures = e.getKey().equals("A") ? 3 : 2; // sorted-array cannot insert
            assertEquals(4 * structures, steps.size(), e.getKey());
            String previousFirst = null;
            for (int round = 0; round < 4; round++) {
                List<String> who = new ArrayList<>();
                for (int j = 0; j < structures; j++) {
                    String[] s = steps.get(round * structures + j);
                    assertEquals(Integer.toString(round), s[1], "round " + round + " of " + e.getKey());
                    who.add(s[0]);
                }
                assertEquals(structures, who.stream().distinct().count(), "each structure once a round: " + who);
                if (previousFirst != null) {
                    assertNotEquals(previousFirst, who.get(0), "the first structure rotates");
                }
                previousFirst = who.get(0);
            }
        }
        assertTrue(run.notes().stream().noneMatch(n -> n.contains("different results")), run.notes().toString());
    }

    @Test
    void aBatchWithNothingToRunIsANoteNotASilence() {
        Options o = OptionsParser.parse("--structures", "bstree,treemap", "--dataset", "uniform", "--keys", "1K",
                "--ops", "500", "--workloads", "D", "--reps", "1", "--warmup", "0", "--batch", "16");
        RunSummary run;
        try (Progress p = Progress.create(ProgressMode.OFF, System.err)) {
            run = new BenchmarkRunner(o, p).run();
        }
        assertTrue(run.notes().stream().anyMatch(n -> n.startsWith("--batch 16 had nothing to run")
                && n.contains("A, B, C, E and F") && n.contains("none of them")), run.notes().toString());
        assertTrue(run.results().stream().noneMatch(r -> r.batch() > 0));
    }

    @Test
    void valueModesAreFunctionsOfTheKey() {
        try {
            Values.use(ValueMode.KEY, 7);
            assertEquals(~42L, Values.of(42));
            Values.use(ValueMode.NONE, 7);
            assertEquals(0, Values.of(42));
            Values.use(ValueMode.RANDOM, 7);
            long a = Values.of(42);
            assertEquals(a, Values.of(42));
            assertNotEquals(a, Values.of(43));
            assertNotEquals(~42L, a);
            Values.use(ValueMode.RANDOM, 8);
            assertNotEquals(a, Values.of(42), "the seed salts them");
        } finally {
            Values.use(ValueMode.KEY, 0);
        }
    }
}
