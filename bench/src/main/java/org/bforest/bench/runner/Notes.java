package org.bforest.bench.runner;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The run's notes, each said once: a skip for the same structure and reason on several workloads
 * becomes one line ("sorted-array: skipped on B, C, D, E: ..."). New notes also go to the
 * progress display as they happen.
 */
final class Notes {
    private final Map<String, Set<String>> skips = new LinkedHashMap<>();
    private final Map<String, Set<Integer>> skipThreads = new LinkedHashMap<>();
    private final Map<String, String> skipText = new LinkedHashMap<>();
    private final Map<String, Boolean> order = new LinkedHashMap<>();
    private final Progress progress;

    Notes(Progress progress) {
        this.progress = progress;
    }

    /** A plain note, shown once however often it is added. */
    void add(String text) {
        if (order.putIfAbsent("n:" + text, Boolean.TRUE) == null) {
            progress.note(text);
        }
    }

    /** {@code who} is skipped on workload {@code where} with {@code threads} threads because of {@code reason}. */
    void skip(String who, String where, int threads, String reason) {
        String key = "s:" + who + "\u0000" + reason;
        if (order.putIfAbsent(key, Boolean.TRUE) == null) {
            progress.note(who + ": skipped: " + reason);
        }
        skips.computeIfAbsent(key, k -> new java.util.TreeSet<>()).add(where);
        skipThreads.computeIfAbsent(key, k -> new java.util.TreeSet<>()).add(threads);
        skipText.put(key, who + "\u0000" + reason);
    }

    List<String> all() {
        List<String> out = new ArrayList<>();
        for (String key : order.keySet()) {
            if (key.startsWith("n:")) {
                out.add(key.substring(2));
            } else {
                String[] wr = skipText.get(key).split("\u0000", 2);
                Set<Integer> threads = skipThreads.get(key);
                String t = threads.equals(Set.of(1)) ? ""
                        : " (" + String.join(" and ", threads.stream().map(String::valueOf).toList()) + " threads)";
                out.add(wr[0] + ": skipped on " + String.join(", ", skips.get(key)) + t + ": " + wr[1]);
            }
        }
        return out;
    }
}
