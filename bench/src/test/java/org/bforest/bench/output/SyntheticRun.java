package org.bforest.bench.output;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.bforest.bench.cli.Anchors;
import org.bforest.bench.cli.Options;
import org.bforest.bench.cli.BuildMode;
import org.bforest.bench.cli.ProgressMode;
import org.bforest.bench.cli.ValueMode;
import org.bforest.bench.runner.DatasetInfo;
import org.bforest.bench.runner.Environment;
import org.bforest.bench.runner.Machine;
import org.bforest.bench.runner.Result;
import org.bforest.bench.runner.RunSummary;
import org.bforest.bench.structures.Structure;
import org.bforest.bench.workloads.Workload;

/**
 * A made-up run for the report writers: fixed figures, no benchmark. bstree runs at 8 Mops/s
 * on A (treemap 1, sorted-array 10); sorted-array only runs A; skiplist also runs with 2
 * threads (twice as fast); the notes and the dataset name carry markup characters. As a size
 * sweep ({@link #create(List, List, List)}), every figure falls by a tenth per tenfold keys.
 */
final class SyntheticRun {
    static final String NASTY_NOTE = "sorted-array: skipped on B <because> \"read-only\" & 'so on'";
    static final String NASTY_DATASET = "/data/<books>&\"keys\"_uint64";
    static final List<String> ARGS = List.of("--keys", "1K", "--dataset", "uniform," + NASTY_DATASET, "--report",
            "/tmp/my report", "--threads", "1,2");

    private SyntheticRun() {
    }

    static RunSummary create(List<String> datasets, List<Integer> threads) {
        return create(datasets, threads, List.of(1000));
    }

    static RunSummary create(List<String> datasets, List<Integer> threads, List<Integer> sizes) {
        List<Structure> structures = List.of(Structure.BSTREE, Structure.TREEMAP, Structure.SKIPLIST,
                Structure.FASTUTIL_AVL, Structure.FASTUTIL_RB, Structure.SORTED_ARRAY);
        List<Workload> workloads = Workload.PAPER;
        Options o = new Options(structures, datasets, sizes, 500, workloads, threads, null, 3, 1, null,
                Path.of("/tmp/report"), false, ProgressMode.OFF, "default", false, ValueMode.KEY, List.of(),
                BuildMode.BULK, null);
        Environment env = new Environment("25.0.1", "OpenJDK 64-Bit Server VM 25.0.1+8", List.of("--add-modules",
                "jdk.incubator.vector", "-Xmx2g"), 8, 2L << 30, "Linux 6.1 amd64", "object header 12 B, reference 4 B",
                "2025-06-01T12:34:56.789+02:00", "Eclipse Adoptium", new Machine("Test <CPU> & co", 4, 16_000_000_000L),
                "SIMD 512-bit, 8 lanes", List.of("G1 Young Generation"), "/usr/bin/java -cp a.jar org.bforest.bench.Main",
                "abc1234");
        List<DatasetInfo> infos = new ArrayList<>();
        List<Result> results = new ArrayList<>();
        double[] perStructure = {8, 1, 0.9, 2, 1.8, 10};
        double[] heap = {36, 88, 84, 40, 40, 16};
        double[] build = {0.002, 0.01, 0.012, 0.02, 0.025, 0.0002};
        for (int n : sizes) {
            double slower = 1 - 0.1 * Math.log10(n / 1000.0);
            for (int di = 0; di < datasets.size(); di++) {
                String ds = datasets.get(di);
                infos.add(new DatasetInfo(ds, "made up <" + ds + ">", di + 1, n, 500, 1, 1_000_000,
                        di == 0 ? List.of() : List.of("dropped 2 duplicate keys & sorted")));
                for (Workload w : workloads) {
                    for (int t : threads) {
                        for (int si = 0; si < structures.size(); si++) {
                            Structure s = structures.get(si);
                            if ((s == Structure.SORTED_ARRAY && w != Workload.A) || (t > 1 && !s.threadSafe())) {
                                continue;
                            }
                            double mops = perStructure[si] * (1 + 0.1 * w.ordinal() + 0.05 * di) * (t > 1 ? 2 : 1)
                                    * slower;
                            double after = w.readOnly() ? Double.NaN : heap[si] + 2;
                            results.add(new Result(s, ds, w, t, 0, n, 500, mops, new double[] {mops * 0.9, mops,
                                    mops * 1.1}, build[si], heap[si] + 0.5, heap[si], after, after - 1,
                                    0xabcL + w.ordinal()));
                        }
                    }
                }
            }
        }
        return new RunSummary(o, env, infos, results, List.of(NASTY_NOTE, "a plain note"), 12.5).withArgs(ARGS);
    }

    /**
     * A batch-size sweep: bstree, treemap and sorted-array on uniform at 100K keys, A to E and F,
     * each batchable workload also at every size of {@code batches} (bstree gaining with the size
     * up to 4x, treemap flat), with {@code anchors} as the options' reference figures.
     */
    static RunSummary batched(List<Integer> batches, Anchors anchors) {
        List<Structure> structures = List.of(Structure.BSTREE, Structure.TREEMAP, Structure.SORTED_ARRAY);
        List<Workload> workloads = List.of(Workload.A, Workload.B, Workload.C, Workload.D, Workload.E, Workload.F);
        int n = 100_000;
        Options o = new Options(structures, List.of("uniform"), List.of(n), 50_000, workloads, List.of(1), null, 3, 1,
                null, Path.of("/tmp/report"), false, ProgressMode.OFF, "default", false, ValueMode.KEY, batches,
                BuildMode.BULK, anchors);
        List<Result> results = new ArrayList<>();
        double[] perStructure = {8, 1, 10};
        for (Workload w : workloads) {
            for (int si = 0; si < structures.size(); si++) {
                Structure s = structures.get(si);
                if (s == Structure.SORTED_ARRAY && w != Workload.A) {
                    continue;
                }
                double mops = perStructure[si] * (1 + 0.1 * w.ordinal());
                results.add(new Result(s, "uniform", w, 1, 0, n, 50_000, mops, new double[] {mops * 0.9, mops,
                        mops * 1.1}, 0.01, 40, 38, Double.NaN, Double.NaN, 0xabcL + w.ordinal()));
                for (int b : w.batchable() ? batches : List.<Integer>of()) {
                    double gain = s == Structure.BSTREE ? Math.min(4, 1 + Math.log10(b)) : 1;
                    double m = mops * gain;
                    results.add(new Result(s, "uniform", w, 1, b, n, 50_000, m, new double[] {m * 0.95, m, m * 1.05},
                            0.01, 40, 38, Double.NaN, Double.NaN, 0xabcL + w.ordinal()));
                }
            }
        }
        List<DatasetInfo> infos = List.of(new DatasetInfo("uniform", "made up", 1, n, 50_000, 1, 1_000_000,
                List.of()));
        return new RunSummary(o, create(List.of("uniform"), List.of(1)).environment(), infos, results,
                List.of("a plain note"), 30).withArgs(List.of("--batch", "16,1K,64K"));
    }

    /**
     * The report's crowded case: every structure on the CPU (the default run's twenty), two
     * datasets, A to E, one thread, or with {@code threads} {1, 2} the thread-safe ones twice. The
     * figures vary by structure and workload; on uniform, csb4's A is the noisy row a shared
     * machine gives ({@code 5.76 [0.91–6.63]}), and the build times span 0.2 ms to 1.9 s.
     */
    static RunSummary many(List<Integer> threads) {
        List<Structure> structures = Structure.onTheCpu();
        List<String> datasets = List.of("uniform", "dense");
        List<Workload> workloads = Workload.PAPER;
        int n = 1_000_000;
        Options o = new Options(structures, datasets, List.of(n), 250_000, workloads, threads, null, 3, 1, null,
                Path.of("/tmp/report"), false, ProgressMode.OFF, "default", false, ValueMode.KEY, List.of(),
                BuildMode.BULK, null);
        Environment env = new Environment("25.0.1", "OpenJDK 64-Bit Server VM 25.0.1+8", List.of("--add-modules",
                "jdk.incubator.vector"), 2, 8L << 30, "Linux 6.1 amd64", "object header 12 B, reference 4 B",
                "2025-06-01T12:34:56.789+02:00", "Eclipse Adoptium", new Machine("Test CPU", 2, 16_000_000_000L),
                "SIMD 512-bit, 8 lanes", List.of("G1 Young Generation"), "/usr/bin/java org.bforest.bench.Main",
                "abc1234");
        List<DatasetInfo> infos = new ArrayList<>();
        List<Result> results = new ArrayList<>();
        for (int di = 0; di < datasets.size(); di++) {
            String ds = datasets.get(di);
            infos.add(new DatasetInfo(ds, "made up " + ds, di + 1, n, 250_000, 1, 1_000_000_000L, List.of()));
            for (Workload w : workloads) {
                for (int t : threads) {
                    for (Structure s : structures) {
                        if ((!s.updatable() && !w.readOnly()) || (t > 1 && !s.threadSafe())) {
                            continue;
                        }
                        int k = s.ordinal();
                        double mops = (0.3 + ((k * 37 + w.ordinal() * 11 + di * 5) % 40) / 9.0)
                                * (w == Workload.D ? 0.15 : 1) * (t > 1 ? 1.8 : 1);
                        double[] reps = {mops * 0.96, mops, mops * 1.05};
                        if (s == Structure.CSB4 && w == Workload.A && di == 0 && t == 1) {
                            mops = 5.76;
                            reps = new double[] {0.91, 5.76, 6.63};
                        }
                        double heap = 8 + (k * 13) % 90;
                        double after = w.readOnly() ? Double.NaN : heap + 2;
                        double build = 0.0002 * Math.pow(1.5, k % 22);
                        results.add(new Result(s, ds, w, t, 0, n, 250_000, mops, reps, build, heap + 0.4, heap,
                                after, after - 1, 0xabcL + w.ordinal()));
                    }
                }
            }
        }
        return new RunSummary(o, env, infos, results, List.of("a plain note"), 160).withArgs(List.of("--report",
                "/tmp/report"));
    }
}
