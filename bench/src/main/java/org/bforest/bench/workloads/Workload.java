package org.bforest.bench.workloads;

import java.util.List;

/**
 * The five workloads of the BS-tree paper, §8.1 (Tsitsigkos et al.), as percentages of
 * {@link Op#LOOKUP}, {@link Op#INSERT}, {@link Op#DELETE} and {@link Op#SCAN}; F, deletes
 * only, which the CSB+-tree paper times on its own (its "stabilized" experiment); and W, ours, a
 * sliding window of time-ordered keys: each put of the next ascending key is followed by the
 * remove of the oldest live one ({@link SlidingWindow} generates it, from keys of its own).
 */
public enum Workload {
    A("read-only", 100, 0, 0, 0),
    B("write-only", 0, 100, 0, 0),
    C("read-write", 50, 50, 0, 0),
    D("range-write", 0, 5, 0, 95),
    E("mixed", 60, 35, 5, 0),
    F("delete-only", 0, 0, 100, 0),
    W("sliding-window", 0, 50, 50, 0);

    /** The BS-tree paper's five, A to E: the default run. */
    public static final List<Workload> PAPER = List.of(A, B, C, D, E);

    private final String title;
    private final int[] percent;

    Workload(String title, int lookups, int inserts, int deletes, int scans) {
        this.title = title;
        this.percent = new int[] {lookups, inserts, deletes, scans};
    }

    /** The paper's name for the workload ("read-only", ...). */
    public String title() {
        return title;
    }

    /** The share of operations with code {@code op}, in percent. */
    public int percent(int op) {
        return percent[op];
    }

    /** Whether every operation leaves the structure as it was (only A). */
    public boolean readOnly() {
        return percent[Op.INSERT] == 0 && percent[Op.DELETE] == 0;
    }

    /**
     * Whether {@code --batch} runs it batched: every workload of lookups, inserts and deletes (A,
     * B, C, E, F). Not D, whose range scans run one a call anyway, nor W, a sequence in time
     * timed in tenths.
     */
    public boolean batchable() {
        return percent[Op.SCAN] == 0 && this != W;
    }

    /** "100% lookups", "95% scans / 5% inserts", ... */
    public String mix() {
        if (this == W) {
            return "50% puts of the next ascending key / 50% removes of the oldest";
        }
        StringBuilder sb = new StringBuilder();
        int[] order = {Op.LOOKUP, Op.SCAN, Op.INSERT, Op.DELETE};
        for (int op : order) {
            if (percent[op] > 0) {
                if (!sb.isEmpty()) {
                    sb.append(" / ");
                }
                sb.append(percent[op]).append("% ").append(Op.name(op)).append('s');
            }
        }
        return sb.toString();
    }

    /** Parses "A" or "a". */
    public static Workload parse(String s) {
        for (Workload w : values()) {
            if (w.name().equalsIgnoreCase(s.trim())) {
                return w;
            }
        }
        throw new IllegalArgumentException("unknown workload '" + s + "' (the workloads are A, B, C, D, E, F and W)");
    }
}
