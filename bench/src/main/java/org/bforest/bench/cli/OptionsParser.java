package org.bforest.bench.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import org.bforest.bench.BenchException;
import org.bforest.bench.structures.Structure;
import org.bforest.bench.workloads.SlidingWindow;
import org.bforest.bench.workloads.Workload;
import org.bforest.bench.workloads.WorkloadGenerator;

/** Parses {@code ./bforest bench} arguments; {@code --name value} and {@code --name=value} both work. */
public final class OptionsParser {
    private OptionsParser() {
    }

    public static final String HELP = """
            Usage: ./bforest bench [options]

            Runs the BS-tree paper's workloads (section 8.1) on bforest's structures and on the
            ordered maps a Java user would otherwise pick, and prints Mops/s per structure and
            workload, build seconds and bytes per key. With no options it runs a default that
            takes a few minutes: every structure, workloads A to E, 1M keys of the uniform and of
            the dense dataset, 250K operations.

            Options:
              --structures LIST  comma list of: bstree (plain BS-tree), cbstree (compressed
                                 BS-tree), bstree-auto (Indexes.bsTree: the paper's decision
                                 picks plain or compressed from the keys), treemap
                                 (java.util.TreeMap), skiplist (ConcurrentSkipListMap),
                                 fastutil-avl, fastutil-rb, sorted-array (binary search on a
                                 long[]; read-only, so workload A only), bstree-set (the
                                 key-only BS-tree, Indexes.bsTreeKeyOnly: no values stored, as
                                 the papers measure it; its lookups are containsKey and give
                                 the value the others store, so checksums still compare),
                                 bplus (plain B+-tree: binary search, no gaps, no SIMD, as
                                 STX), bplus-sparse (the same bulk-loaded 75% full), bminus
                                 (the B-minus tree: nodes of 32 keys padded with infinities,
                                 SIMD rank, masked-shift inserts), bminus16 and bminus64 (its
                                 node sizes 16 and 64), csb (the CSB+-tree: one pointer a
                                 node to its contiguous group of children, nodes of two cache
                                 lines), csb-segmented (two segments a node), csb-full (groups
                                 allocated at full size), csb1 and csb4 (csb with nodes of one
                                 and four lines), bstree-olc (the concurrent BS-tree,
                                 Indexes.concurrentBsTree: optimistic lock coupling,
                                 thread-safe), gpu-btree (the GPU B+-tree on OpenCL) and
                                 hybrid (BS-tree inner levels on the CPU, leaf pages on
                                 the device), which run every operation in batches (--batch)
                                 and need an OpenCL device (PoCL on a CPU: ./bforest bench
                                 installs it when they are named and it runs as root),
                                 ignite (IgniteLongIndex: the keys in an Ignite cache range-
                                 partitioned in 1024, a bforest tree a partition on each node)
                                 and ignite-sql (the same in a plain Ignite cache with
                                 Ignite's SQL index on the key), which run on --nodes server
                                 nodes started in the bench's JVM; or 'all' (the default:
                                 every structure but the OpenCL and Ignite ones)
              --dataset LIST     comma list of: uniform (splitmix64, seed 1), dense (small random
                                 gaps, seed 2), lognormal (seed 3), u32 (32-bit keys uniform in
                                 [0, 2^30), seed 3, as the B- tree article's), or the path of a
                                 SOSD key file (little-endian uint64 count, then the uint64
                                 keys). Default uniform,dense
              --keys N[,N...]    keys bulk-loaded before each workload: 1000, 10K, 10M, 1.5M ...
                                 (default 1M). A comma list is a size sweep, e.g.
                                 --keys 1K,10K,100K,1M,10M: every size runs every dataset and
                                 workload (sizes in ascending order, duplicates dropped; the
                                 keys are generated afresh per size; a workload that writes
                                 runs at most as many operations as the size has keys, so it
                                 measures a tree of that size). Each CSV row carries its
                                 size (keys column), and the report draws throughput against
                                 the number of keys per dataset and workload: a line per
                                 structure, keys on a log axis, where the cache levels show
                                 as steps
              --ops N            operations per workload, generated before timing (default 250K)
              --workloads LIST   comma list of A,B,C,D,E,F,W (default A-E, the BS-tree paper's):
                                   A read-only    100% lookups of present keys
                                   B write-only   100% inserts of new keys
                                   C read-write   50% lookups / 50% inserts
                                   D range-write  95% range scans of 100-150 keys / 5% inserts
                                   E mixed        60% lookups / 35% inserts / 5% deletes
                                   F delete-only  100% deletes of present keys (at most half
                                                  the keys: --ops <= --keys / 2)
                                   W sliding-window  time-ordered keys, the oldest removed:
                                                  the dataset's keys sorted, the first --keys
                                                  bulk-loaded; each put of the next key is
                                                  followed by the remove of the oldest (a
                                                  put and a remove are 2 of --ops, at least
                                                  20). Timed in ten tenths: Mops/s and bytes
                                                  per live key (memoryBytes()/size()) of
                                                  each, and after the load, in the table and
                                                  the CSV's w_ columns. Single-threaded only
              --build MODE       how each repetition builds the structure: bulk (default: a
                                 bulk load of the sorted keys) or stabilized (the CSB+-tree
                                 paper's: bulk-load every 10th key, insert the other 90% in a
                                 seeded random order; build_s includes the inserts; read-only
                                 structures are skipped)
              --values MODE      the value of each key: key (default: ~key, which the
                                 CBS-tree compresses well), random (a splitmix64 mix of the
                                 key and the dataset's seed: deterministic, nothing to
                                 compress) or none (0). Checksums compare across structures
                                 in every mode
              --batch N[,N...]   also run workloads A, B, C, E and F in batches, N operations a
                                 call at most, each size a cell of its own (A/bN, B/bN, ...;
                                 single-threaded; off by default). N from 1 to 1M, a count or
                                 a comma list (16,256,4K,64K,1M: a batch-size sweep, ascending,
                                 duplicates dropped). A batch is a run of consecutive operations
                                 of one kind within a window of N: lookups go to
                                 LongIndex.getAll, inserts to putAll, deletes to removeAll,
                                 so every answer, checksum and final content is the one the
                                 stream gives one operation at a time (A, B and F: N a call;
                                 C and E: their runs of one kind, about 2 operations). The
                                 structures without batched calls (treemap, skiplist,
                                 fastutil, sorted-array) loop, one operation at a time. D
                                 (range scans) and W (the sliding window) stay unbatched. The
                                 OpenCL structures hand every workload to the device in
                                 batches of the largest N (default 1M on a GPU, 64K on a CPU
                                 emulation). With --report, a batch-size sweep draws Mops/s
                                 against N (log axis) per workload, dataset and size. The
                                 CSV has one row per batch size and structure
              --anchors DIR      reference figures of outside programs (e.g. the authors' C++
                                 BS-tree), read from every *.csv file in DIR: the header
                                 source,dataset,keys,workload,mops, then a row per figure
                                 (keys as --keys takes them, workload A-F or W, Mops/s running
                                 one operation at a time; # comments and blank lines allowed).
                                 The figures that match a cell's dataset, keys and workload are
                                 printed under the table and drawn as dashed horizontal lines
                                 on the report's batch-size charts. A missing folder or a bad
                                 line is an error naming the file and line
              --threads T        threads running each workload (default 1; a comma list runs each).
                                 With T > 1 the structures that are not thread-safe are skipped
                                 with a note (all but bstree-olc and skiplist); the operations are split
                                 into T contiguous slices run at once. Workload W runs with 1
                                 thread only (a note skips it at the other counts)
              --nodes N          server nodes of the Ignite cluster that ignite and ignite-sql run
                                 on (default 3): started in the bench's JVM, on 127.0.0.1 only,
                                 when the first of them is built, stopped at the end
              --seed S           replaces the datasets' fixed seeds (uniform 1, dense 2,
                                 lognormal 3, u32 3, SOSD sampling 4); operation streams derive from it
              --reps R           timed repetitions per structure and workload (default 3); each
                                 runs on a freshly built structure; the repetitions of the
                                 structures are interleaved (rep 1 of each, then rep 2 of
                                 each, ...) so that noise lands on all of them alike, and the
                                 median is reported with the spread (min-max) beside it
              --warmup W         untimed repetitions before those (default 1)
              --csv FILE         also write the results as CSV, one row per structure, dataset,
                                 workload, thread count and key count, with the header
                                 structure,dataset,workload,threads,keys,ops,mops,build_s,
                                 bytes_per_key,mops_min,mops_max,reps,batch,
                                 bytes_per_key_after,values,commit,cpu,vector,
                                 w_bytes_per_key_load,w_bytes_per_key_1..10,
                                 w_mops_1..10,snap_... (below)
                                 The first nine as they always were (mops: the median). Then
                                 mops_min, mops_max: the slowest and fastest of the reps timed
                                 repetitions; batch: operations a batched call at most (0
                                 but on the --batch rows, whose workload column is A/bN,
                                 B/bN, ...: one row per batch size and structure);
                                 bytes_per_key_after: heap per key held after a workload
                                 that writes (empty after A); values: the --values mode;
                                 commit, cpu, vector: the bforest commit (-dirty: with local
                                 changes), the CPU model and the node-search kernel the row
                                 was measured with;
                                 w_...: workload W's rows only (empty on the others):
                                 bytes per live key after the bulk load and at the end of
                                 each tenth of the operations (own accounting, first timed
                                 repetition), Mops/s of each tenth (the median);
                                 then, with --snapshot, its rows (workload "snapshot")
                                 fill snap_entries,snap_bytes,snap_bytes_per_key,
                                 snap_save_s(_min,_max),snap_save_gbps,
                                 snap_load_s(_min,_max),snap_load_gbps,
                                 snap_cold_load_s(_min,_max),snap_cold_load_gbps,
                                 snap_map_ms(_min,_max),snap_mapped_vs_a,
                                 snap_save_vs_disk,snap_load_vs_disk,
                                 snap_cold_load_vs_disk,snap_load_vs_treemap,
                                 snap_kind,snap_load_kind
                                 (empty on the other rows; bench/README.md says more);
                                 then, with --visit-all, its rows (workload "visit": ops the
                                 entries visited, mops/mops_min/mops_max million entries a
                                 second, reps; the other figures empty)
              --report DIR       write a report into DIR: index.html (a self-contained page with
                                 charts: throughput, memory per key, build time, ratios, every
                                 figure, notes, machine and JVM; with several --keys, a line
                                 chart per dataset and workload of Mops/s against the number of
                                 keys on a log axis, and the bar charts and ratios per size;
                                 with several --batch sizes (or one and --anchors), a line
                                 chart per workload, dataset and size of Mops/s against the
                                 batch size, the --anchors figures as dashed lines),
                                 results.csv and summary.txt
              --snapshot DIR     after the usual cells, per dataset and number of keys: every
                                 bforest structure of the run saved into DIR
                                 (LongIndex.snapshot: a temp file, fsync, rename), loaded back
                                 (Indexes.load: from the page cache, then cold, its pages
                                 dropped first where Linux allows) and mapped (Indexes.map:
                                 the time to open it, then workload A's lookups on the mapped
                                 index, Mops/s, beside the structure's own A), each over the
                                 repetitions, the file deleted between saves. The loaded
                                 index must equal the original (size and a checksum of the
                                 entries), or the run fails. Beside them, on the same
                                 entries: the disk's own sequential write (with force) and
                                 read (warm, then cold) of a file the size of the largest
                                 snapshot, a TreeMap<Long,Long> through ObjectOutputStream/
                                 ObjectInputStream (the first 10M entries at most) and
                                 fastutil's BinIO.storeLongs/loadLongs of the keys and values
                                 arrays. The peers (treemap, skiplist, fastutil,
                                 sorted-array) have no snapshot. A "Snapshots" table per
                                 dataset and size (and in the report); the CSV's rows of
                                 workload "snapshot"
              --visit-all        after the usual cells, per dataset and number of keys: every
                                 structure built once, then a full visit that sums every
                                 value, timed over the repetitions (warm-ups first): the
                                 OpenCL trees in one pass on the device (sumValues(): a
                                 work-group a leaf page, no entry shipped), the bforest trees
                                 through forEach, the peers through their own iteration (the
                                 GPU B+-tree paper's visit-all experiment). Every sum must
                                 equal the sum of the loaded values (a note otherwise). A
                                 "Visit-all" table per dataset and size, million entries
                                 visited a second (median [slowest-fastest]) and the ratio to
                                 treemap's; the CSV's rows of workload "visit"
              --scale paper      the papers' scale: 150M keys, 50M operations (needs a large heap:
                                 set BFOREST_JVM_OPTS=-Xmx...; peers that cannot fit are skipped).
                                 --keys and --ops still override it. --scale default is the default
              --sosd-unsigned-shift
                                 map every key k of a SOSD file to k - 2^63 (order kept), so files
                                 with keys at or above 2^63 load; without it such keys are an error
              --progress MODE    auto (default: one updating bar line if stderr is a terminal,
                                 plain lines otherwise), bar, plain or off
              -h, --help         this help

            Memory: bytes_per_key in the CSV is the heap growth across the build, measured after
            full GCs; the table and summary also give the structure's own accounting (memoryBytes
            for bforest structures, an object-layout estimate for the peers). After a workload
            that inserts or deletes (B to E), its first timed repetition measures both again, per
            key then held (bytes_per_key_after; the table under the figures).
            JVM flags: BFOREST_JVM_OPTS is passed to the JVM (e.g. -Xmx24g).
            """;

    public static Options parse(String... args) {
        List<Structure> structures = Structure.onTheCpu();
        List<String> datasets = List.of("uniform", "dense");
        List<Long> keys = null;
        Long ops = null;
        List<Workload> workloads = Workload.PAPER;
        List<Integer> threads = List.of(1);
        Long seed = null;
        int reps = Options.DEFAULT_REPS;
        int warmups = Options.DEFAULT_WARMUPS;
        Path csv = null;
        Path report = null;
        boolean shift = false;
        ProgressMode progress = ProgressMode.AUTO;
        String scale = "default";
        boolean help = false;
        ValueMode values = ValueMode.KEY;
        List<Integer> batches = List.of();
        Path anchors = null;
        BuildMode build = BuildMode.BULK;
        Path snapshot = null;
        int nodes = Options.DEFAULT_NODES;
        boolean visitAll = false;

        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String name = arg;
            String value = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                name = arg.substring(0, eq);
                value = arg.substring(eq + 1);
            }
            switch (name) {
                case "-h", "--help" -> help = true;
                case "--sosd-unsigned-shift" -> shift = true;
                case "--visit-all" -> visitAll = true;
                case "--structures", "--dataset", "--datasets", "--keys", "--ops", "--workloads", "--threads",
                     "--seed", "--reps", "--warmup", "--csv", "--report", "--scale", "--progress", "--values",
                     "--batch", "--build", "--anchors", "--snapshot", "--nodes" -> {
                    if (value == null) {
                        if (i + 1 >= args.length) {
                            throw new BenchException(name + " needs a value (see --help)");
                        }
                        value = args[++i];
                    }
                    try {
                        switch (name) {
                            case "--structures" -> structures = structures(value);
                            case "--dataset", "--datasets" -> datasets = list(name, value);
                            case "--keys" -> keys = counts(name, value);
                            case "--ops" -> ops = Counts.parse(name, value);
                            case "--workloads" -> workloads = workloads(value);
                            case "--threads" -> threads = threads(value);
                            case "--seed" -> seed = Long.decode(value.trim());
                            case "--reps" -> reps = positive(name, Counts.parse(name, value), 1);
                            case "--warmup" -> warmups = positive(name, Counts.parse(name, value), 0);
                            case "--csv" -> csv = Path.of(value);
                            case "--report" -> report = Path.of(value);
                            case "--scale" -> scale = scale(value);
                            case "--progress" -> progress = progress(value);
                            case "--values" -> values = ValueMode.parse(value);
                            case "--build" -> build = BuildMode.parse(value);
                            case "--batch" -> batches = batches(name, value);
                            case "--anchors" -> anchors = Path.of(value);
                            case "--snapshot" -> snapshot = snapshotDir(value);
                            case "--nodes" -> nodes = nodes(name, value);
                            default -> throw new AssertionError(name);
                        }
                    } catch (NumberFormatException e) {
                        throw new BenchException(name + " wants a number, not '" + value + "'");
                    } catch (IllegalArgumentException e) {
                        throw new BenchException(e.getMessage());
                    }
                }
                default -> throw new BenchException("unknown option '" + arg + "' (see ./bforest bench --help)");
            }
        }
        boolean paper = scale.equals("paper");
        List<Integer> k = sizes("--keys", keys != null ? keys
                : List.of((long) (paper ? Options.PAPER_KEYS : Options.DEFAULT_KEYS)));
        int o = count("--ops", ops != null ? ops : paper ? Options.PAPER_OPS : Options.DEFAULT_OPS, 1);
        deletesFit(workloads, k, o);
        slidingWindowFits(workloads, k, o, threads);
        // Read now, before anything runs: a malformed file should not cost a whole run first.
        Anchors a = anchors == null || help ? Anchors.NONE : Anchors.load(anchors);
        return new Options(structures, datasets, k, o, workloads, threads, seed, reps, warmups, csv, report, shift,
                progress, scale, help, values, batches, build, a, snapshot, nodes, visitAll);
    }

    /**
     * Refuses, before any key is generated, a workload that would delete more than half the keys at
     * some size (F: {@code --ops} above half of {@code --keys}; E: above about ten times). In a size
     * sweep a workload that writes runs at most as many operations as the size has keys (the
     * runner's {@code opsAt}), so that is the count checked there.
     */
    private static void deletesFit(List<Workload> workloads, List<Integer> sizes, int ops) {
        for (Workload w : workloads) {
            for (int n : sizes) {
                int runs = sizes.size() > 1 && !w.readOnly() ? Math.min(ops, n) : ops;
                if (runs > WorkloadGenerator.maxOps(w, n)) {
                    throw new BenchException(WorkloadGenerator.tooManyDeletes(w, n, runs));
                }
            }
        }
    }

    /**
     * Refuses workload W where it cannot run: fewer than {@link SlidingWindow#MIN_OPS} operations
     * at some size (a sweep runs at most as many as the size has keys), or no single-threaded run
     * (W runs with one thread only; other thread counts skip it with a note).
     */
    private static void slidingWindowFits(List<Workload> workloads, List<Integer> sizes, int ops,
                                          List<Integer> threads) {
        if (!workloads.contains(Workload.W)) {
            return;
        }
        if (!threads.contains(1)) {
            throw new BenchException("workload W runs single-threaded only (a sliding window is one sequence in"
                    + " time: each remove takes the oldest key): add 1 to --threads, or leave workload W out");
        }
        for (int n : sizes) {
            int runs = sizes.size() > 1 ? Math.min(ops, n) : ops;
            if (runs < SlidingWindow.MIN_OPS) {
                throw new BenchException("workload W runs its operations in ten tenths of whole put-and-remove pairs:"
                        + " it needs --ops of at least " + SlidingWindow.MIN_OPS + (sizes.size() > 1
                        ? " at every size (a size sweep runs at most --keys operations; " + n + " keys here)" : "")
                        + ", or leave workload W out");
            }
        }
    }

    /**
     * The {@code --snapshot} folder: a path that is a folder or does not exist yet (the run creates
     * it); refused before anything runs when it is a file.
     */
    private static Path snapshotDir(String value) {
        if (value.isBlank()) {
            throw new IllegalArgumentException("--snapshot needs a folder to write the snapshots into");
        }
        Path dir = Path.of(value);
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new IllegalArgumentException("--snapshot " + value + " is a file, not a folder: name a folder"
                    + " (it is created if missing) to write the snapshots into");
        }
        return dir;
    }

    /** The largest batch: 2^20 keys a call (what a GPU tree takes by default). */
    public static final int MAX_BATCH = 1 << 20;

    /** A comma list of batch sizes, each from 1 to {@link #MAX_BATCH}, then ascending and distinct. */
    private static List<Integer> batches(String name, String value) {
        TreeSet<Integer> out = new TreeSet<>();
        for (long v : counts(name, value)) {
            if (v < 1 || v > MAX_BATCH) {
                throw new IllegalArgumentException(name + " must be between 1 and 1M keys a call, got " + v);
            }
            out.add((int) v);
        }
        return List.copyOf(out);
    }

    /** A comma list of counts, each parsed by {@link Counts#parse} (blank elements ignored). */
    private static List<Long> counts(String name, String value) {
        List<Long> out = new ArrayList<>();
        for (String s : value.split(",")) {
            if (!s.isBlank()) {
                out.add(Counts.parse(name, s.trim()));
            }
        }
        if (out.isEmpty()) {
            Counts.parse(name, value); // throws, naming the value
        }
        return out;
    }

    /** Each count checked as {@link #count} does, then ascending and distinct. */
    private static List<Integer> sizes(String name, List<Long> values) {
        TreeSet<Integer> out = new TreeSet<>();
        for (long v : values) {
            out.add(count(name, v, 1));
        }
        return List.copyOf(out);
    }

    private static int count(String name, long v, long min) {
        if (v < min) {
            throw new BenchException(name + " must be at least " + min + ", got " + v);
        }
        if (v > Integer.MAX_VALUE / 2) {
            throw new BenchException(name + " " + v + " is too large: the keys live in Java arrays (at most "
                    + Integer.MAX_VALUE / 2 + " here)");
        }
        return (int) v;
    }

    private static int nodes(String name, String value) {
        long n = Counts.parse(name, value);
        if (n < 1 || n > 8) {
            throw new BenchException(name + " must be between 1 and 8 (server nodes started in this JVM), got " + n);
        }
        return (int) n;
    }

    private static int positive(String name, long v, int min) {
        if (v < min || v > 1000) {
            throw new BenchException(name + " must be between " + min + " and 1000, got " + v);
        }
        return (int) v;
    }

    private static List<String> list(String name, String value) {
        List<String> out = new ArrayList<>();
        for (String s : value.split(",")) {
            if (!s.isBlank()) {
                out.add(s.trim());
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(name + " needs at least one name");
        }
        return List.copyOf(new LinkedHashSet<>(out));
    }

    private static List<Structure> structures(String value) {
        List<Structure> out = new ArrayList<>();
        for (String s : list("--structures", value)) {
            if (s.equalsIgnoreCase("all")) {
                out.addAll(Structure.onTheCpu());
            } else {
                out.add(Structure.parse(s));
            }
        }
        return List.copyOf(new LinkedHashSet<>(out));
    }

    private static List<Workload> workloads(String value) {
        List<Workload> out = new ArrayList<>();
        for (String s : list("--workloads", value)) {
            out.add(Workload.parse(s));
        }
        return List.copyOf(new LinkedHashSet<>(out));
    }

    private static List<Integer> threads(String value) {
        List<Integer> out = new ArrayList<>();
        for (String s : list("--threads", value)) {
            int t = Integer.parseInt(s);
            if (t < 1 || t > 1024) {
                throw new IllegalArgumentException("--threads must be between 1 and 1024, got " + t);
            }
            out.add(t);
        }
        return List.copyOf(new LinkedHashSet<>(out));
    }

    private static String scale(String value) {
        String s = value.trim().toLowerCase(Locale.ROOT);
        if (!s.equals("paper") && !s.equals("default")) {
            throw new IllegalArgumentException("--scale is 'paper' (150M keys, 50M ops) or 'default', not '" + value
                    + "'");
        }
        return s;
    }

    private static ProgressMode progress(String value) {
        try {
            return ProgressMode.valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--progress is auto, bar, plain or off, not '" + value + "'");
        }
    }
}
