package org.bforest.ignite;

import java.io.Serial;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.apache.ignite.cache.affinity.AffinityFunction;
import org.apache.ignite.cache.affinity.AffinityFunctionContext;
import org.apache.ignite.cache.affinity.rendezvous.RendezvousAffinityFunction;
import org.apache.ignite.cluster.ClusterNode;

/**
 * An Ignite {@link AffinityFunction} that puts {@code Long} keys into partitions by key range
 * ({@link RangePartitions}) instead of by hash: each partition holds one contiguous run of keys,
 * so a node's partitions can each be kept as an ordered index and a range query visits only the
 * partitions its range covers ({@link RangePartitions#partitionsCovering}).
 *
 * <p>Only the key-to-partition step is ours. Which nodes hold a partition (its primary and
 * backups) is left to Ignite's {@link RendezvousAffinityFunction}, over the same partition
 * count: replication, rebalancing when nodes join or leave, and the stability of the assignment
 * (a partition moves only when its owner changes) are Ignite's tested code, and they do not
 * depend on how keys were cut into partitions. With few partitions rendezvous placement is
 * uneven (a node may own twice its share); use hundreds of partitions or more for a real cluster.
 *
 * <pre>{@code
 * CacheConfiguration<Long, Long> cfg = new CacheConfiguration<Long, Long>("orders")
 *     .setAffinity(new RangeAffinityFunction(RangePartitions.even(1024)))
 *     .setBackups(1);
 * }</pre>
 *
 * <p>The function travels inside the cache configuration to every node, so this class (and
 * bforest-ignite) must be on every server node's class path: peer class loading does not carry
 * cache configurations.
 */
public final class RangeAffinityFunction implements AffinityFunction {
    /** The serialized form's version. */
    @Serial
    private static final long serialVersionUID = 1L;

    /** Key to partition. */
    private final RangePartitions ranges;
    /** Partition to nodes; keys never reach it. */
    private final RendezvousAffinityFunction placement;

    /**
     * A function over these partitions.
     *
     * @param ranges the key ranges, one a partition
     * @throws NullPointerException if {@code ranges} is null
     */
    public RangeAffinityFunction(RangePartitions ranges) {
        this.ranges = Objects.requireNonNull(ranges, "ranges");
        this.placement = new RendezvousAffinityFunction(false, ranges.partitions());
    }

    /**
     * The key ranges of the partitions.
     *
     * @return the partitions this function was made with
     */
    public RangePartitions ranges() {
        return ranges;
    }

    @Override
    public int partitions() {
        return ranges.partitions();
    }

    /**
     * The partition of a {@code Long} key, by its range.
     *
     * @throws NullPointerException     if {@code key} is null
     * @throws IllegalArgumentException if {@code key} is not a {@code java.lang.Long}
     */
    @Override
    public int partition(Object key) {
        if (key instanceof Long k) {
            return ranges.partition(k);
        }
        Objects.requireNonNull(key, "key");
        throw new IllegalArgumentException("RangeAffinityFunction partitions java.lang.Long keys only, got a "
                + key.getClass().getName() + ": use Long keys in this cache, or another affinity function");
    }

    @Override
    public List<List<ClusterNode>> assignPartitions(AffinityFunctionContext ctx) {
        return placement.assignPartitions(ctx);
    }

    @Override
    public void reset() {
        placement.reset();
    }

    @Override
    public void removeNode(UUID nodeId) {
        placement.removeNode(nodeId);
    }

    @Override
    public String toString() {
        return "RangeAffinityFunction[" + ranges + "]";
    }
}
