package org.bforest.bench.datasets;

import java.util.List;

/**
 * The keys of one benchmark run: {@code loaded} is bulk-loaded before every workload (sorted,
 * distinct), {@code inserts} are the new keys the workloads insert, in order (distinct, none of
 * them loaded). {@code notes} say what the generator or loader had to fix (duplicates dropped,
 * unsorted input sorted, ...), for the report.
 *
 * @param name        how the dataset appears in the table and CSV ("uniform", a file's name)
 * @param description one line: where the keys come from, for the report
 * @param seed        the seed that produced (or sampled) the keys
 */
public record Dataset(String name, String description, long seed, long[] loaded, long[] inserts,
                      List<String> notes) {

    public Dataset {
        notes = List.copyOf(notes);
    }

    public int keyCount() {
        return loaded.length;
    }
}
