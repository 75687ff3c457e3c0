package org.bforest.ignite;

import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReferenceArray;
import javax.cache.Cache;
import org.apache.ignite.Ignite;
import org.apache.ignite.IgniteCache;
import org.apache.ignite.cache.query.QueryCursor;
import org.apache.ignite.cache.query.ScanQuery;
import org.apache.ignite.events.CacheRebalancingEvent;
import org.apache.ignite.events.Event;
import org.apache.ignite.events.EventType;
import org.apache.ignite.internal.IgniteEx;
import org.apache.ignite.internal.processors.cache.IgniteInternalCache;
import org.apache.ignite.internal.processors.cache.distributed.dht.topology.GridDhtInvalidPartitionException;
import org.apache.ignite.internal.processors.cache.distributed.dht.topology.GridDhtLocalPartition;
import org.apache.ignite.internal.processors.cache.distributed.dht.topology.GridDhtPartitionState;
import org.apache.ignite.internal.processors.cache.distributed.dht.topology.GridDhtPartitionTopology;
import org.apache.ignite.lang.IgnitePredicate;
import org.bforest.ConcurrentLongIndex;

/**
 * The bforest trees one server node keeps for one index cache: one {@link PartitionTree} for each
 * partition the node holds (primary or backup) that has been asked for or has arrived, kept in
 * the node's local map ({@code Ignite.cluster().nodeLocalMap()}) so that the cache's interceptor
 * and the compute jobs of one node find the same trees.
 *
 * <p>How the trees follow the partitions:
 * <ul>
 *   <li>a partition that arrives on the node by rebalancing (a node joined or left) fires
 *       {@code EVT_CACHE_REBALANCE_PART_LOADED}: its tree is loaded afresh from a scan of the
 *       local copy, on this object's loader thread;</li>
 *   <li>a partition that leaves (evicted after the new owners took it) fires
 *       {@code EVT_CACHE_REBALANCE_PART_UNLOADED}, a lost one {@code EVT_CACHE_REBALANCE_PART_DATA_LOST}:
 *       its tree is dropped;</li>
 *   <li>a partition the node held from the start (no rebalance, no event) gets its tree the first
 *       time a job asks for it, loaded by that job (which holds the partition reserved);</li>
 *   <li>a backup promoted to primary keeps its tree: the interceptor kept it current.</li>
 * </ul>
 * A job waits for a loading tree before it answers, so a node answers for a partition only with
 * all of it.
 */
final class NodeTrees {
    /** The rebalancing events the trees follow; every server node must record them. */
    static final int[] EVENTS = {EventType.EVT_CACHE_REBALANCE_PART_LOADED, EventType.EVT_CACHE_REBALANCE_PART_UNLOADED,
        EventType.EVT_CACHE_REBALANCE_PART_DATA_LOST};
    /** How long a job waits for a partition's tree to load. */
    static final long LOAD_WAIT_MILLIS = 60_000;
    private static final String KEY_PREFIX = "org.bforest.ignite.NodeTrees:";

    private final Ignite ignite;
    private final String cacheName;
    private final RangePartitions ranges;
    private final AtomicReferenceArray<PartitionTree> trees;
    private final ExecutorService loader;
    private final IgnitePredicate<Event> listener;
    private final String misconfigured;
    private volatile boolean closed;
    private volatile GridDhtPartitionTopology topology;

    private NodeTrees(Ignite ignite, String cacheName, RangePartitions ranges) {
        this.ignite = ignite;
        this.cacheName = cacheName;
        this.ranges = ranges;
        this.trees = new AtomicReferenceArray<>(ranges.partitions());
        String node = ignite.name();
        this.loader = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "bforest-ignite-load-" + node + "-" + cacheName);
            t.setDaemon(true);
            return t;
        });
        this.misconfigured = missingEvents(ignite);
        this.listener = this::onEvent;
        if (misconfigured == null) {
            ignite.events().localListen(listener, EVENTS);
        }
    }

    /** This node's trees for {@code cacheName}, made (and its event listener registered) on first use. */
    static NodeTrees of(Ignite ignite, String cacheName, RangePartitions ranges) {
        ConcurrentMap<String, Object> local = ignite.cluster().nodeLocalMap();
        String key = KEY_PREFIX + cacheName;
        Object o = local.get(key);
        if (o == null) {
            o = local.computeIfAbsent(key, k -> new NodeTrees(ignite, cacheName, ranges));
        }
        return (NodeTrees) o;
    }

    /** This node's trees for {@code cacheName} if made already, else null. */
    static NodeTrees existing(Ignite ignite, String cacheName) {
        return (NodeTrees) ignite.cluster().nodeLocalMap().get(KEY_PREFIX + cacheName);
    }

    /** Forgets this node's trees for {@code cacheName} (the cache stopped here), if it had any. */
    static void close(Ignite ignite, String cacheName) {
        Object o = ignite.cluster().nodeLocalMap().remove(KEY_PREFIX + cacheName);
        if (o instanceof NodeTrees t) {
            t.close();
        }
    }

    /**
     * Why this node cannot keep trees (its configuration does not record the rebalancing events),
     * or null when it can.
     */
    static String missingEvents(Ignite ignite) {
        int[] included = ignite.configuration().getIncludeEventTypes();
        StringBuilder missing = new StringBuilder();
        for (int e : EVENTS) {
            boolean found = false;
            for (int i = 0; included != null && i < included.length; i++) {
                found |= included[i] == e;
            }
            if (!found) {
                missing.append(missing.isEmpty() ? "" : ", ").append(e);
            }
        }
        return missing.isEmpty() ? null : "server node " + ignite.name() + " does not record the rebalancing events"
                + " the bforest trees follow (event types " + missing + "): start every server node with a"
                + " configuration passed through IgniteLongIndex.serverConfiguration(cfg)";
    }

    RangePartitions ranges() {
        return ranges;
    }

    /** The interceptor's hook: {@code key} now maps to {@code value} in this node's copy. */
    void onPut(long key, long value) {
        PartitionTree t = trees.get(ranges.partition(key));
        if (t != null) {
            t.put(key, value);
        }
    }

    /** The interceptor's hook: {@code key} is gone from this node's copy. */
    void onRemove(long key) {
        PartitionTree t = trees.get(ranges.partition(key));
        if (t != null) {
            t.remove(key);
        }
    }

    /**
     * Partition {@code p}'s tree, loading it in this thread first if the node has none (a job that
     * holds the partition reserved calls this); waits while another thread loads it.
     *
     * @throws IllegalStateException if the node is misconfigured, closed, or the load fails
     */
    PartitionTree ready(int p) {
        if (misconfigured != null) {
            throw new IllegalStateException(misconfigured);
        }
        if (closed) {
            throw new IllegalStateException("the bforest trees of cache " + cacheName + " on node " + ignite.name()
                    + " are closed (the cache stopped here)");
        }
        PartitionTree t = trees.get(p);
        if (t == null) {
            if (!owning(p)) {
                throw new IllegalStateException("node " + ignite.name() + " does not own partition " + p + " of cache "
                        + cacheName + " (its copy is arriving or leaving): ask its primary");
            }
            PartitionTree fresh = new PartitionTree(p);
            if (trees.compareAndSet(p, null, fresh)) {
                load(fresh);
                t = fresh;
            } else {
                t = trees.get(p);
            }
        }
        return t;
    }

    /**
     * Loads partition {@code p}'s tree afresh in this thread, from a scan that starts now,
     * replacing the one there (after writes that bypassed the interceptor: a bulk load's streamer).
     */
    void reload(int p) {
        PartitionTree fresh = new PartitionTree(p);
        PartitionTree old = trees.getAndSet(p, fresh);
        if (old != null && !old.isReady()) {
            old.fail(new IllegalStateException("partition " + p + " was reloaded while loading"));
        }
        load(fresh);
    }

    /**
     * Partition {@code p}'s tree if this node owns the partition now and has its tree loaded, else
     * null (never waits, never loads): what a handle on this node may read in place.
     */
    ConcurrentLongIndex readyOrNull(int p) {
        PartitionTree t = trees.get(p);
        ConcurrentLongIndex tree = t == null ? null : t.treeOrNull();
        return tree != null && owning(p) ? tree : null;
    }

    /**
     * Whether this node's copy of partition {@code p} is complete and current: Ignite's
     * {@code OWNING} state. Not the affinity's word: a new backup is in the affinity while its
     * copy is still arriving ({@code MOVING}), and an old owner keeps its copy a while after
     * leaving it ({@code RENTING}). The state is not in Ignite's public API; this reads it from
     * the cache's partition topology, the module's one internal call into Ignite.
     */
    boolean owning(int p) {
        GridDhtPartitionTopology top = topology;
        if (top == null) {
            IgniteInternalCache<Object, Object> cache = ((IgniteEx) ignite).cachex(cacheName);
            if (cache == null) {
                return false;
            }
            top = cache.context().topology();
            topology = top;
        }
        try {
            GridDhtLocalPartition part = top.localPartition(p);
            return part != null && part.state() == GridDhtPartitionState.OWNING;
        } catch (GridDhtInvalidPartitionException notHere) {
            return false;
        }
    }

    /** Every tree this node holds that is ready, for checks and memory figures. */
    PartitionTree[] readyTrees() {
        PartitionTree[] all = new PartitionTree[trees.length()];
        int n = 0;
        for (int p = 0; p < trees.length(); p++) {
            PartitionTree t = trees.get(p);
            if (t != null && t.isReady()) {
                all[n++] = t;
            }
        }
        return java.util.Arrays.copyOf(all, n);
    }

    private boolean onEvent(Event e) {
        if (closed) {
            return false; // unregisters
        }
        if (e instanceof CacheRebalancingEvent r && cacheName.equals(r.cacheName())) {
            int p = r.partition();
            if (p < 0 || p >= trees.length()) {
                return true;
            }
            if (r.type() == EventType.EVT_CACHE_REBALANCE_PART_LOADED) {
                PartitionTree fresh = new PartitionTree(p);
                PartitionTree old = trees.getAndSet(p, fresh);
                if (old != null && !old.isReady()) {
                    old.fail(new IllegalStateException("partition " + p + " arrived again while loading"));
                }
                loader.execute(() -> load(fresh));
            } else {
                PartitionTree old = trees.getAndSet(p, null);
                if (old != null && !old.isReady()) {
                    old.fail(new IllegalStateException("partition " + p + " left node " + ignite.name()
                            + " while its tree was loading"));
                }
            }
        }
        return true;
    }

    /** Loads {@code t} from a scan of the node's copy of its partition (begun after {@code t} was published). */
    private void load(PartitionTree t) {
        try {
            IgniteCache<Long, Long> cache = ignite.cache(cacheName);
            EntryBuffer entries = new EntryBuffer(1024);
            try (QueryCursor<Cache.Entry<Long, Long>> cursor =
                         cache.query(new ScanQuery<Long, Long>().setPartition(t.partition).setLocal(true))) {
                for (Cache.Entry<Long, Long> e : cursor) {
                    entries.add(e.getKey(), e.getValue());
                }
            }
            t.finish(entries);
        } catch (RuntimeException | Error e) {
            t.fail(e);
            trees.compareAndSet(t.partition, t, null); // the next job tries again
            throw e;
        }
    }

    private void close() {
        closed = true;
        if (misconfigured == null) {
            ignite.events().stopLocalListen(listener, EVENTS);
        }
        loader.shutdownNow();
        for (int p = 0; p < trees.length(); p++) {
            PartitionTree t = trees.getAndSet(p, null);
            if (t != null && !t.isReady()) {
                t.fail(new IllegalStateException("cache " + cacheName + " stopped on node " + ignite.name()));
            }
        }
    }
}
