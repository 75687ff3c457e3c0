package org.bforest.bench.runner;

import java.util.List;

/** What the report says about one dataset (its keys themselves are long gone by then). */
public record DatasetInfo(String name, String description, long seed, int keys, int inserts, long firstKey,
                          long lastKey, List<String> notes) {
}
