package org.bforest.ignite;

import java.util.ArrayList;
import java.util.List;
import javax.cache.Cache;
import org.apache.ignite.Ignite;
import org.apache.ignite.IgniteCache;
import org.apache.ignite.cache.affinity.Affinity;
import org.apache.ignite.cache.query.QueryCursor;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.cache.query.ScanQuery;
import org.apache.ignite.configuration.CacheConfiguration;
import org.apache.ignite.lang.IgniteCallable;
import org.apache.ignite.resources.IgniteInstanceResource;
import org.bforest.ConcurrentLongIndex;

/**
 * The work an {@link IgniteLongIndex} sends to the nodes: each job names the cache and, for the
 * per-partition ones, the partition, and runs against that node's tree of it. The per-partition
 * jobs go out with {@code affinityCall(cache, partition, job)}, which runs them on the
 * partition's primary node and keeps the partition there until they return.
 */
final class PartitionJobs {
    private PartitionJobs() {
    }

    /** How a server's answer to {@link Configured} starts when the cache is not an index cache. */
    static final String NOT_INDEX = "not an index cache: ";

    /** The message for a cache whose interceptor is not the index's. */
    static String notIndexInterceptor(String name, Object interceptor) {
        return "cache " + name + " is not an index cache: its interceptor is " + interceptor
                + ", not the one IgniteLongIndex.cacheConfiguration sets for it";
    }

    /** The neighbour a {@link Neighbour} job looks for. */
    enum Direction { CEILING, HIGHER, FLOOR, LOWER }

    private static NodeTrees trees(Ignite ignite, String cacheName) {
        NodeTrees known = NodeTrees.existing(ignite, cacheName);
        if (known != null) {
            return known; // the common case: no look at the cache's configuration, which is copied
        }
        IgniteCache<Long, Long> cache = ignite.cache(cacheName);
        if (cache == null) {
            throw new IllegalStateException("no cache " + cacheName + " on node " + ignite.name());
        }
        @SuppressWarnings("unchecked")
        CacheConfiguration<Long, Long> cfg = cache.getConfiguration(CacheConfiguration.class);
        if (!(cfg.getAffinity() instanceof RangeAffinityFunction f)) {
            throw new IllegalStateException("cache " + cacheName + " is not an index cache (its affinity is "
                    + cfg.getAffinity() + ")");
        }
        return NodeTrees.of(ignite, cacheName, f.ranges());
    }

    /** A job on one partition's tree. */
    abstract static class OnPartition<R> implements IgniteCallable<R> {
        private static final long serialVersionUID = 1L;
        final String cacheName;
        final int partition;
        @IgniteInstanceResource
        transient Ignite ignite;

        OnPartition(String cacheName, int partition) {
            this.cacheName = cacheName;
            this.partition = partition;
        }

        @Override
        public final R call() {
            ConcurrentLongIndex tree = trees(ignite, cacheName).ready(partition).await(NodeTrees.LOAD_WAIT_MILLIS);
            return on(tree);
        }

        abstract R on(ConcurrentLongIndex tree);
    }

    /**
     * Up to {@code limit} entries of one partition between two bounds, ascending, as
     * {@code [k0, v0, k1, v1, ...]}; fewer than {@code limit} means the partition has no more.
     */
    static final class Chunk extends OnPartition<long[]> {
        private static final long serialVersionUID = 1L;
        private final long from;
        private final boolean fromInclusive;
        private final long to;
        private final boolean toInclusive;
        private final int limit;

        Chunk(String cacheName, int partition, long from, boolean fromInclusive, long to, boolean toInclusive,
              int limit) {
            super(cacheName, partition);
            this.from = from;
            this.fromInclusive = fromInclusive;
            this.to = to;
            this.toInclusive = toInclusive;
            this.limit = limit;
        }

        @Override
        long[] on(ConcurrentLongIndex tree) {
            EntryBuffer out = new EntryBuffer(Math.min(limit, 256));
            tree.rangeVisit(from, fromInclusive, to, toInclusive, (k, v) -> {
                out.add(k, v);
                return out.size() < limit;
            });
            long[] packed = new long[out.size() * 2];
            for (int i = 0; i < out.size(); i++) {
                packed[2 * i] = out.key(i);
                packed[2 * i + 1] = out.value(i);
            }
            return packed;
        }
    }

    /** How many keys of one partition lie between two bounds. */
    static final class Count extends OnPartition<Long> {
        private static final long serialVersionUID = 1L;
        private final long from;
        private final boolean fromInclusive;
        private final long to;
        private final boolean toInclusive;

        Count(String cacheName, int partition, long from, boolean fromInclusive, long to, boolean toInclusive) {
            super(cacheName, partition);
            this.from = from;
            this.fromInclusive = fromInclusive;
            this.to = to;
            this.toInclusive = toInclusive;
        }

        @Override
        Long on(ConcurrentLongIndex tree) {
            return tree.rangeCount(from, fromInclusive, to, toInclusive);
        }
    }

    /** Several ranges' counts in one partition (each range already clipped to it). */
    static final class Counts extends OnPartition<long[]> {
        private static final long serialVersionUID = 1L;
        private final long[] from;
        private final long[] to;

        Counts(String cacheName, int partition, long[] from, long[] to) {
            super(cacheName, partition);
            this.from = from;
            this.to = to;
        }

        @Override
        long[] on(ConcurrentLongIndex tree) {
            long[] counts = new long[from.length];
            for (int i = 0; i < from.length; i++) {
                counts[i] = tree.rangeCount(from[i], true, to[i], true);
            }
            return counts;
        }
    }

    /** A key's neighbour within one partition, or null when the partition has none. */
    static final class Neighbour extends OnPartition<Long> {
        private static final long serialVersionUID = 1L;
        private final Direction direction;
        private final long key;

        Neighbour(String cacheName, int partition, Direction direction, long key) {
            super(cacheName, partition);
            this.direction = direction;
            this.key = key;
        }

        @Override
        Long on(ConcurrentLongIndex tree) {
            // The sentinel is a key the answer can only be when it is in the tree; asked then.
            return switch (direction) {
                case CEILING -> found(tree, tree.ceilingKey(key, Long.MIN_VALUE), Long.MIN_VALUE);
                case HIGHER -> found(tree, tree.higherKey(key, Long.MIN_VALUE), Long.MIN_VALUE);
                case FLOOR -> found(tree, tree.floorKey(key, Long.MAX_VALUE), Long.MAX_VALUE);
                case LOWER -> found(tree, tree.lowerKey(key, Long.MAX_VALUE), Long.MAX_VALUE);
            };
        }

        private Long found(ConcurrentLongIndex tree, long answer, long sentinel) {
            if (answer != sentinel) {
                return answer;
            }
            boolean real = tree.containsKey(sentinel) && switch (direction) {
                case CEILING -> sentinel >= key;
                case HIGHER -> sentinel > key;
                case FLOOR -> sentinel <= key;
                case LOWER -> sentinel < key;
            };
            return real ? sentinel : null;
        }
    }

    /** A job on every server node that holds the cache. */
    abstract static class OnNode<R> implements IgniteCallable<R> {
        private static final long serialVersionUID = 1L;
        final String cacheName;
        @IgniteInstanceResource
        transient Ignite ignite;

        OnNode(String cacheName) {
            this.cacheName = cacheName;
        }
    }

    /**
     * Loads the trees of every partition this node holds, primary and backup, that has none yet:
     * run when a handle opens, so that the first ordered query finds them built. A partition that
     * moves away meanwhile is skipped (its next owner loads it).
     */
    static final class LoadAll extends OnNode<Integer> {
        private static final long serialVersionUID = 1L;
        private final boolean afresh;

        /** @param afresh whether to reload the trees that exist too (after a bulk load's streamer) */
        LoadAll(String cacheName, boolean afresh) {
            super(cacheName);
            this.afresh = afresh;
        }

        @Override
        public Integer call() {
            NodeTrees trees = trees(ignite, cacheName);
            Affinity<Long> affinity = ignite.affinity(cacheName);
            ClusterNode local = ignite.cluster().localNode();
            int loaded = 0;
            for (int[] held : new int[][] {affinity.primaryPartitions(local), affinity.backupPartitions(local)}) {
                for (int p : held) {
                    if (!trees.owning(p)) {
                        continue; // still arriving: its PART_LOADED event loads it
                    }
                    try {
                        if (afresh) {
                            trees.reload(p);
                        }
                        trees.ready(p).await(NodeTrees.LOAD_WAIT_MILLIS);
                        loaded++;
                    } catch (RuntimeException movedAway) {
                        // loaded where it is now, when a job first asks for it
                    }
                }
            }
            return loaded;
        }
    }

    /** The bytes of this node's ready trees. */
    static final class Memory extends OnNode<Long> {
        private static final long serialVersionUID = 1L;

        Memory(String cacheName) {
            super(cacheName);
        }

        @Override
        public Long call() {
            long bytes = 0;
            for (PartitionTree t : trees(ignite, cacheName).readyTrees()) {
                bytes += t.treeOrNull().memoryBytes();
            }
            return bytes;
        }
    }

    /** Whether this node can keep the cache's trees: null if so, else why not. */
    static final class Configured extends OnNode<String> {
        private static final long serialVersionUID = 1L;

        Configured(String cacheName) {
            super(cacheName);
        }

        @Override
        public String call() {
            IgniteCache<Long, Long> cache = ignite.cache(cacheName);
            if (cache != null) {
                @SuppressWarnings("unchecked")
                CacheConfiguration<Long, Long> cfg = cache.getConfiguration(CacheConfiguration.class);
                if (!(cfg.getInterceptor() instanceof TreeInterceptor)) {
                    return NOT_INDEX + notIndexInterceptor(cacheName, cfg.getInterceptor());
                }
            }
            return NodeTrees.missingEvents(ignite);
        }
    }

    /**
     * Compares every ready tree on this node with the node's copy of its partition, key by key;
     * returns the differences found (empty when the trees equal the copies).
     */
    static final class Verify extends OnNode<List<String>> {
        private static final long serialVersionUID = 1L;

        Verify(String cacheName) {
            super(cacheName);
        }

        @Override
        public List<String> call() {
            List<String> problems = new ArrayList<>();
            IgniteCache<Long, Long> cache = ignite.cache(cacheName);
            for (PartitionTree t : trees(ignite, cacheName).readyTrees()) {
                EntryBuffer copy = new EntryBuffer(1024);
                try (QueryCursor<Cache.Entry<Long, Long>> cursor =
                             cache.query(new ScanQuery<Long, Long>().setPartition(t.partition).setLocal(true))) {
                    for (Cache.Entry<Long, Long> e : cursor) {
                        copy.add(e.getKey(), e.getValue());
                    }
                } catch (RuntimeException e) {
                    continue; // the partition left this node meanwhile: nothing to compare
                }
                copy.sortByKey();
                ConcurrentLongIndex tree = t.treeOrNull();
                if (tree.size() != copy.size()) {
                    problems.add(ignite.name() + ": partition " + t.partition + " tree has " + tree.size()
                            + " keys, cache copy " + copy.size());
                }
                for (int i = 0; i < copy.size() && problems.size() < 20; i++) {
                    long k = copy.key(i);
                    if (!tree.containsKey(k) || tree.get(k, ~copy.value(i)) != copy.value(i)) {
                        problems.add(ignite.name() + ": partition " + t.partition + " key " + k + " is "
                                + copy.value(i) + " in the cache, "
                                + (tree.containsKey(k) ? String.valueOf(tree.get(k, 0)) : "absent") + " in the tree");
                    }
                }
            }
            return problems;
        }
    }
}
