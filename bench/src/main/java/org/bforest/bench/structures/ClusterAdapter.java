package org.bforest.bench.structures;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.bforest.LongIndex;
import org.bforest.bench.BenchException;
import org.bforest.bench.workloads.Op;
import org.bforest.bench.workloads.Operations;

/**
 * The structures that run on an Apache Ignite cluster ({@code ignite}, {@code ignite-sql}):
 * built by the {@code bforest-ignite} module's {@code org.bforest.ignite.bench.BenchIndexes} on
 * server nodes it starts in this JVM ({@code --nodes}), and driven through {@link LongIndex},
 * the batched form through {@link Batching} as the trees are. The module is reached by name, at
 * run time: the bench compiles without Ignite, which is on its class path only. The loop is this
 * class's own, as every adapter's (see {@link IndexAdapter}): shared with {@link LongIndexAdapter},
 * it would make bstree-auto's call sites bimorphic in a run that has both.
 *
 * <p>The calls go through the first server node: what it holds (primary or backup) it answers
 * itself; every other operation is a message to another node over loopback TCP, marshalled both
 * ways. The figures are an Ignite cluster's on one machine, without a physical network's latency,
 * and with the nodes' threads sharing this machine's cores.
 */
public final class ClusterAdapter implements IndexAdapter {
    private static final String ENTRY = "org.bforest.ignite.bench.BenchIndexes";
    private static volatile int nodes = 3;

    private final String kind;
    private final ScanSum scan = new ScanSum();
    private LongIndex index;

    ClusterAdapter(String kind) {
        this.kind = kind;
    }

    /** The number of server nodes the next cluster starts with ({@code --nodes}). */
    public static void useNodes(int n) {
        nodes = n;
    }

    /** Stops the embedded cluster, if one was started (at the end of a run). */
    public static void shutdown() {
        try {
            Class<?> entry = Class.forName(ENTRY, false, ClusterAdapter.class.getClassLoader());
            MethodHandles.publicLookup().findStatic(entry, "shutdown", MethodType.methodType(void.class)).invoke();
        } catch (ClassNotFoundException notThere) {
            // nothing was started
        } catch (Throwable t) {
            throw new BenchException("could not stop the embedded Ignite nodes: " + t);
        }
    }

    @Override
    public void build(long[] sortedKeys, long[] values) {
        try {
            index = (LongIndex) handle("build", MethodType.methodType(LongIndex.class, String.class, int.class,
                    long[].class, long[].class)).invoke(kind, nodes, sortedKeys, values);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new BenchException("could not build " + kind + ": " + t);
        }
    }

    private static MethodHandle handle(String name, MethodType type) {
        try {
            return MethodHandles.publicLookup().findStatic(Class.forName(ENTRY), name, type);
        } catch (ClassNotFoundException e) {
            throw new BenchException("the Ignite structures need the bforest-ignite module on the class path (run"
                    + " ./bforest bench, which puts it there)");
        } catch (ReflectiveOperationException e) {
            throw new BenchException("bforest-ignite has no " + name + ": " + e);
        }
    }

    @Override
    public long run(Operations ops, int from, int to) {
        final LongIndex ix = index;
        final byte[] codes = ops.codes();
        final long[] keys = ops.keys();
        final long[] ends = ops.ends();
        final ScanSum visitor = scan;
        long sum = 0;
        for (int i = from; i < to; i++) {
            long k = keys[i];
            switch (codes[i]) {
                case Op.LOOKUP -> sum += ix.get(k, Values.ABSENT);
                case Op.INSERT -> sum += Values.effect(ix.upsert(k, Values.of(k)));
                case Op.DELETE -> sum += Values.effect(ix.delete(k));
                default -> ix.rangeVisit(k, ends[i], visitor);
            }
        }
        return sum + visitor.take();
    }

    @Override
    public long runBatched(Operations ops, int from, int to, BatchBuffers buffers) {
        return Batching.run(index, false, scan, ops, from, to, buffers) + scan.take();
    }

    @Override
    public void release() {
        try {
            handle("release", MethodType.methodType(void.class)).invoke();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new BenchException("could not drop " + kind + "'s cache: " + t);
        }
        index = null;
    }

    @Override
    public long size() {
        return index.size();
    }

    @Override
    public long memoryBytes() {
        return index.memoryBytes();
    }

    @Override
    public String describeBuilt() {
        return index.toString();
    }

    /** Null: the bench's snapshot figures are for the trees in this JVM, not for a cluster. */
    @Override
    public long visitSum() {
        return ValueSum.of(index);
    }

    @Override
    public LongIndex longIndex() {
        return null;
    }
}
