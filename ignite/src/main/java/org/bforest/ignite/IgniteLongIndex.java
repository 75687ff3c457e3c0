package org.bforest.ignite;

import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.cache.processor.EntryProcessorResult;
import javax.cache.processor.MutableEntry;
import org.apache.ignite.Ignite;
import org.apache.ignite.IgniteCache;
import org.apache.ignite.IgniteClientDisconnectedException;
import org.apache.ignite.IgniteDataStreamer;
import org.apache.ignite.cache.CacheAtomicityMode;
import org.apache.ignite.cache.CacheEntryProcessor;
import org.apache.ignite.cache.CacheMode;
import org.apache.ignite.cache.CachePeekMode;
import org.apache.ignite.cache.CacheWriteSynchronizationMode;
import org.apache.ignite.cache.PartitionLossPolicy;
import org.apache.ignite.cluster.ClusterGroup;
import org.apache.ignite.configuration.CacheConfiguration;
import org.apache.ignite.configuration.IgniteConfiguration;
import org.apache.ignite.lang.IgniteFuture;
import org.bforest.ConcurrentLongIndex;
import org.bforest.LongCursor;
import org.bforest.LongEntryVisitor;
import org.bforest.LongIndex;

/**
 * An ordered {@code long -> long} map over an Apache Ignite cluster: the data is an
 * {@code IgniteCache<Long, Long>} that Ignite partitions, replicates and moves between nodes,
 * partitioned by key range ({@link RangeAffinityFunction}), and every server node keeps one bforest
 * tree for each partition it holds as the ordered index over it.
 *
 * <pre>{@code
 * Ignite ignite = Ignition.start(IgniteLongIndex.serverConfiguration(cfg));      // on every server
 * try (IgniteLongIndex index = IgniteLongIndex.create(ignite, "prices", RangePartitions.even(1024))) {
 *     index.put(42, 7);
 *     index.rangeVisit(0, 1000, (k, v) -> { use(k, v); return true; });
 * }
 * }</pre>
 *
 * <h2>Where each operation runs</h2>
 * <ul>
 *   <li>Point operations ({@code get}, {@code put}, {@code remove}, {@code containsKey}) and their
 *       batches are the cache's own: Ignite sends each to the key's primary node (a batch, one
 *       message a node). The cache's interceptor ({@link TreeInterceptor}) applies each write to
 *       the tree of its partition on every node that holds a copy, primary and backup, as Ignite
 *       applies it to that copy.</li>
 *   <li>Ordered operations (ranges, neighbours, first and last, range counts) run on the trees:
 *       one job a partition they cover, on its primary node ({@code affinityCall}, which keeps the
 *       partition there while the job runs), several partitions at once, the answers merged here
 *       in key order; a neighbour query that finds nothing in its partition moves on to the next.</li>
 *   <li>A handle on a server node answers the reads of the partitions that node owns now (primary
 *       or backup, its copy complete: Ignite's {@code OWNING} state) from the node's own trees,
 *       without a message:
 *       {@code get}, {@code containsKey}, {@code getAll}'s share and those partitions' part of an
 *       ordered query. A backup's tree is as current as the primary's, since a write returns only
 *       once both applied it.</li>
 *   <li>A partition that arrives on a node (a node joined or left) is loaded into its tree from a
 *       scan of the node's copy before the node answers for it; one that leaves drops its tree.</li>
 * </ul>
 *
 * <h2>Consistency</h2>
 * The cache is {@code TRANSACTIONAL} with {@code FULL_SYNC} writes and one backup: a write returns
 * once the primary and the backup have both applied it (and so their trees), so a read that
 * starts after a write returned sees it, from any client, through the cache or the trees. A
 * transaction's two-phase commit is why: if the primary dies in the middle of a write, Ignite's
 * transaction recovery commits it on the backup or rolls it back on both, so the copies, and the
 * trees beside them, never disagree; the caller of an interrupted write gets an exception (and may
 * retry: every write here is idempotent). With {@code ATOMIC}, a primary that dies between
 * updating itself and its backup leaves the two copies different until read repair. A range, a
 * neighbour and a count are consistent within each partition and not across partitions: a
 * write that runs at the same time may be seen in one partition and not yet in another, as in
 * {@code ConcurrentSkipListMap}'s weakly consistent iteration. The partition loss policy is
 * {@code READ_WRITE_SAFE}: if both copies of a partition are lost, its keys fail with an exception
 * instead of reading as absent.
 *
 * <h2>What is not here</h2>
 * {@link #cursor()} and {@link #asNavigableMap()} (live views with a position) would hold a
 * place in a remote tree between calls: they throw {@link UnsupportedOperationException}; walk
 * with {@link #rangeVisit}. {@link #snapshot} works (a weakly consistent cut, entry by entry
 * through this client). Writes made to the cache directly through {@code put}, {@code putAll},
 * {@code remove}, {@code invoke} or a transaction reach the trees; {@code IgniteCache.clear()},
 * {@code localClear} and a data streamer without {@code allowOverwrite(true)} bypass the
 * interceptor and must not be used on an index cache.
 *
 * <p>An instance is a handle, safe from any number of threads at once; {@link #close()} closes the
 * handle, not the cache: the data and the trees stay with the cluster ({@code Ignite.destroyCache}
 * removes them).
 */
public final class IgniteLongIndex implements LongIndex, AutoCloseable {
    /** Entries a range job returns at most; a partition with more is read in several. */
    static final int CHUNK = 4096;
    /** Partitions a range or neighbour query asks at once. */
    static final int AHEAD = 4;

    private final Ignite ignite;
    private final String name;
    private final IgniteCache<Long, Long> cache;
    private final RangePartitions ranges;
    private final Collection<String> cacheNames;
    private final ClusterGroup servers;
    // on a server node that holds the cache: its own trees, read in place for the partitions it holds
    private final NodeTrees local;
    private volatile boolean closed;
    private volatile long defaultReturnValue;

    private IgniteLongIndex(Ignite ignite, String name, IgniteCache<Long, Long> cache, RangePartitions ranges) {
        this.ignite = ignite;
        this.name = name;
        this.cache = cache;
        this.ranges = ranges;
        this.cacheNames = java.util.List.of(name);
        this.servers = ignite.cluster().forServers();
        this.local = ignite.cluster().localNode().isClient() ? null : NodeTrees.of(ignite, name, ranges);
    }

    // ---- set-up -------------------------------------------------------------------------------

    /**
     * {@code cfg} with what a server node of a cluster with index caches needs: it records the
     * rebalancing events that tell a node a partition arrived or left (Ignite records none by
     * default). Every server node's configuration goes through this; the event types already
     * included stay.
     *
     * @param cfg a node configuration
     * @return {@code cfg}, changed
     * @throws NullPointerException if {@code cfg} is null
     */
    public static IgniteConfiguration serverConfiguration(IgniteConfiguration cfg) {
        Objects.requireNonNull(cfg, "cfg");
        Set<Integer> types = new TreeSet<>();
        if (cfg.getIncludeEventTypes() != null) {
            for (int t : cfg.getIncludeEventTypes()) {
                types.add(t);
            }
        }
        for (int t : NodeTrees.EVENTS) {
            types.add(t);
        }
        return cfg.setIncludeEventTypes(types.stream().mapToInt(Integer::intValue).toArray());
    }

    /**
     * The configuration of an index cache: partitioned by {@code ranges}, one backup,
     * {@code TRANSACTIONAL}, {@code FULL_SYNC}, loss policy {@code READ_WRITE_SAFE}, and the
     * interceptor that keeps the trees. Change what the class comment does not depend on (the
     * backups, a data region, persistence) before creating the cache with it; keep the affinity
     * function, the interceptor and the atomicity and synchronization modes.
     *
     * @param name   the cache's name
     * @param ranges the key ranges of its partitions
     * @return a new configuration
     * @throws NullPointerException if an argument is null
     */
    public static CacheConfiguration<Long, Long> cacheConfiguration(String name, RangePartitions ranges) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(ranges, "ranges");
        return new CacheConfiguration<Long, Long>(name)
                .setCacheMode(CacheMode.PARTITIONED)
                .setBackups(1)
                .setAtomicityMode(CacheAtomicityMode.TRANSACTIONAL)
                .setWriteSynchronizationMode(CacheWriteSynchronizationMode.FULL_SYNC)
                .setPartitionLossPolicy(PartitionLossPolicy.READ_WRITE_SAFE)
                .setAffinity(new RangeAffinityFunction(ranges))
                .setInterceptor(new TreeInterceptor(name, ranges));
    }

    /**
     * Opens the index cache {@code name}, creating it with {@link #cacheConfiguration} if the
     * cluster has none of that name.
     *
     * @param ignite a node of the cluster, client or server
     * @param name   the cache's name
     * @param ranges the key ranges of its partitions, when it is created
     * @return a handle on the index
     * @throws IllegalStateException    if the cluster has no server node, or a server node was not
     *                                  started with {@link #serverConfiguration}
     * @throws IllegalArgumentException if a cache of that name exists and is not an index cache
     *                                  with these ranges
     */
    public static IgniteLongIndex create(Ignite ignite, String name, RangePartitions ranges) {
        Objects.requireNonNull(ignite, "ignite");
        Objects.requireNonNull(ranges, "ranges");
        return create(ignite, cacheConfiguration(name, ranges));
    }

    /**
     * Opens the index cache {@code cfg} names, creating it with {@code cfg} if the cluster has none
     * of that name.
     *
     * @param ignite a node of the cluster, client or server
     * @param cfg    an index cache configuration ({@link #cacheConfiguration}, perhaps adjusted)
     * @return a handle on the index
     * @throws IllegalStateException    if the cluster has no server node, or a server node was not
     *                                  started with {@link #serverConfiguration}
     * @throws IllegalArgumentException if {@code cfg}, or the cache of that name that exists, is not
     *                                  an index cache
     */
    public static IgniteLongIndex create(Ignite ignite, CacheConfiguration<Long, Long> cfg) {
        Objects.requireNonNull(ignite, "ignite");
        Objects.requireNonNull(cfg, "cfg");
        RangePartitions ranges = checkIndexConfiguration(cfg.getName(), cfg, true);
        requireServers(ignite, cfg.getName());
        IgniteCache<Long, Long> cache = ignite.getOrCreateCache(cfg);
        IgniteLongIndex index = open(ignite, cfg.getName());
        if (!index.ranges.equals(ranges)) {
            throw new IllegalArgumentException("cache " + cfg.getName() + " exists with other partition ranges ("
                    + index.ranges + ") than asked for (" + ranges + "); open it with IgniteLongIndex.open");
        }
        return index;
    }

    /**
     * Creates the index cache {@code cfg} names and fills it with the entries, the fast way: a data
     * streamer that writes each node's share straight into its partitions (not through the
     * interceptor), after which every server node loads its trees from its copies, each once.
     * Writes through other handles may run meanwhile (the trees' loads take them in); what they
     * read before this returns may miss part of the entries.
     *
     * @param ignite a node of the cluster, client or server
     * @param cfg    an index cache configuration ({@link #cacheConfiguration}, perhaps adjusted)
     * @param keys   the keys, in any order (a key given twice keeps one of its values)
     * @param values their values, exactly as many
     * @return a handle on the filled index
     * @throws IllegalArgumentException if the arrays differ in length, if {@code cfg} is not an
     *                                  index cache's, or if a cache of that name exists (nothing is
     *                                  created then)
     * @throws IllegalStateException    if the cluster has no server node
     */
    public static IgniteLongIndex bulkLoad(Ignite ignite, CacheConfiguration<Long, Long> cfg, long[] keys,
                                           long[] values) {
        Objects.requireNonNull(ignite, "ignite");
        Objects.requireNonNull(cfg, "cfg");
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(values, "values");
        if (keys.length != values.length) {
            throw new IllegalArgumentException("keys has " + keys.length + " entries and values " + values.length
                    + ": they must be as long; nothing was created");
        }
        checkIndexConfiguration(cfg.getName(), cfg, true);
        requireServers(ignite, cfg.getName());
        if (ignite.cache(cfg.getName()) != null) {
            throw new IllegalArgumentException("cache " + cfg.getName() + " exists: a bulk load creates its cache;"
                    + " add to an existing index with load or putAll");
        }
        ignite.createCache(cfg);
        try (IgniteDataStreamer<Long, Long> streamer = ignite.dataStreamer(cfg.getName())) {
            for (int i = 0; i < keys.length; i++) {
                streamer.addData(keys[i], values[i]);
            }
        }
        // the streamer went around the interceptor: every tree is loaded from the copies as they are now
        ignite.compute(ignite.cluster().forServers()).broadcast(new PartitionJobs.LoadAll(cfg.getName(), true));
        return open(ignite, cfg.getName());
    }

    /**
     * Opens the existing index cache {@code name}.
     *
     * @param ignite a node of the cluster, client or server
     * @param name   the cache's name
     * @return a handle on the index
     * @throws IllegalStateException    if the cluster has no server node, or a server node was not
     *                                  started with {@link #serverConfiguration}
     * @throws IllegalArgumentException if there is no cache {@code name}, or it is not an index cache
     */
    public static IgniteLongIndex open(Ignite ignite, String name) {
        Objects.requireNonNull(ignite, "ignite");
        Objects.requireNonNull(name, "name");
        requireServers(ignite, name);
        IgniteCache<Long, Long> cache = ignite.cache(name);
        if (cache == null) {
            throw new IllegalArgumentException("the cluster has no cache named " + name
                    + "; create it with IgniteLongIndex.create");
        }
        @SuppressWarnings("unchecked")
        CacheConfiguration<Long, Long> cfg = cache.getConfiguration(CacheConfiguration.class);
        RangePartitions ranges = checkIndexConfiguration(name, cfg, false);
        for (String problem : ignite.compute(ignite.cluster().forServers())
                .broadcast(new PartitionJobs.Configured(name))) {
            if (problem != null && problem.startsWith(PartitionJobs.NOT_INDEX)) {
                throw new IllegalArgumentException(problem.substring(PartitionJobs.NOT_INDEX.length()));
            }
            if (problem != null) {
                throw new IllegalStateException(problem);
            }
        }
        // every server builds the trees of the partitions it holds now, before the first query waits for one
        ignite.compute(ignite.cluster().forServers()).broadcast(new PartitionJobs.LoadAll(name, false));
        return new IgniteLongIndex(ignite, name, cache, ranges);
    }

    private static RangePartitions checkIndexConfiguration(String name, CacheConfiguration<?, ?> cfg,
                                                           boolean creating) {
        if (!(cfg.getAffinity() instanceof RangeAffinityFunction f)) {
            throw new IllegalArgumentException("cache " + name + " is not an index cache: its affinity function is "
                    + (cfg.getAffinity() == null ? "Ignite's default" : cfg.getAffinity().getClass().getName())
                    + ", not a RangeAffinityFunction; make index caches with IgniteLongIndex.cacheConfiguration");
        }
        // a client node's copy of the configuration has no interceptor: servers check theirs (Configured)
        boolean client = cfg.getInterceptor() == null && !creating;
        if (!client && (!(cfg.getInterceptor() instanceof TreeInterceptor t) || !t.ranges().equals(f.ranges())
                || !t.cacheName().equals(name))) {
            throw new IllegalArgumentException(PartitionJobs.notIndexInterceptor(name, cfg.getInterceptor()));
        }
        if (cfg.getAtomicityMode() != CacheAtomicityMode.TRANSACTIONAL
                || cfg.getWriteSynchronizationMode() != CacheWriteSynchronizationMode.FULL_SYNC) {
            throw new IllegalArgumentException("cache " + name + " is " + cfg.getAtomicityMode() + " with "
                    + cfg.getWriteSynchronizationMode() + " writes; an index cache is TRANSACTIONAL with FULL_SYNC"
                    + " writes (see IgniteLongIndex, Consistency)");
        }
        return f.ranges();
    }

    private static void requireServers(Ignite ignite, String name) {
        if (noServers(ignite)) {
            throw new IllegalStateException("the cluster of node " + ignite.name() + " has no server node to hold"
                    + " index " + name + ": start server nodes (IgniteLongIndex.serverConfiguration) first");
        }
    }

    /**
     * Puts every {@code keys[i] -> values[i]} through a data streamer, which groups the entries by
     * node: the fast way to fill an index (its writes reach the trees, as any write does).
     *
     * @param keys   the keys, in any order (a key given twice ends with one of its values)
     * @param values their values, exactly as many
     * @throws IllegalArgumentException if the arrays differ in length; nothing is put
     */
    public void load(long[] keys, long[] values) {
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(values, "values");
        if (keys.length != values.length) {
            throw new IllegalArgumentException("keys has " + keys.length + " entries and values " + values.length
                    + ": they must be as long; nothing was put");
        }
        checkOpen();
        try (IgniteDataStreamer<Long, Long> streamer = ignite.dataStreamer(name)) {
            // through the cache's update path, so the interceptor sees every entry
            streamer.allowOverwrite(true);
            for (int i = 0; i < keys.length; i++) {
                streamer.addData(keys[i], values[i]);
            }
        }
    }

    /** The cache's name. */
    public String name() {
        return name;
    }

    /** The key ranges of the cache's partitions. */
    public RangePartitions ranges() {
        return ranges;
    }

    /** The cache that holds the data (the source of truth the trees follow). */
    public IgniteCache<Long, Long> cache() {
        return cache;
    }

    // ---- point operations: the cache's own ------------------------------------------------------

    @Override
    public long get(long key, long absent) {
        checkOpen();
        ConcurrentLongIndex t = localTree(ranges.partition(key));
        if (t != null) {
            return t.get(key, absent);
        }
        Long v = cache.get(key);
        return v == null ? absent : v;
    }

    @Override
    public boolean containsKey(long key) {
        checkOpen();
        ConcurrentLongIndex t = localTree(ranges.partition(key));
        return t != null ? t.containsKey(key) : cache.containsKey(key);
    }

    /**
     * This node's tree of partition {@code p} when the handle is on a server node that owns the
     * partition now (primary or backup, its copy complete) and has its tree loaded; else null,
     * and the caller asks the cluster. A backup's tree is as current as the primary's: a write
     * returns only once both applied it.
     */
    private ConcurrentLongIndex localTree(int p) {
        return local == null ? null : local.readyOrNull(p);
    }

    @Override
    public long defaultReturnValue() {
        return defaultReturnValue;
    }

    @Override
    public void defaultReturnValue(long value) {
        defaultReturnValue = value;
    }

    @Override
    public void getAll(long[] keys, long[] values, long absent) {
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(values, "values");
        if (values.length < keys.length) {
            throw new IllegalArgumentException("values has " + values.length + " entries, fewer than keys' "
                    + keys.length);
        }
        checkOpen();
        // the keys this node holds are read here; the others in one getAll
        Set<Long> remote = new HashSet<>();
        for (int i = 0; i < keys.length; i++) {
            ConcurrentLongIndex t = localTree(ranges.partition(keys[i]));
            if (t != null) {
                values[i] = t.get(keys[i], absent);
            } else {
                remote.add(keys[i]);
            }
        }
        if (remote.isEmpty()) {
            return;
        }
        Map<Long, Long> found = cache.getAll(remote);
        for (int i = 0; i < keys.length; i++) {
            if (remote.contains(keys[i])) {
                Long v = found.get(keys[i]);
                values[i] = v == null ? absent : v;
            }
        }
    }

    @Override
    public long put(long key, long value) {
        checkOpen();
        Long previous = cache.getAndPut(key, value);
        return previous == null ? defaultReturnValue : previous;
    }

    @Override
    public boolean upsert(long key, long value) {
        checkOpen();
        return cache.getAndPut(key, value) == null;
    }

    @Override
    public void putAll(long[] keys, long[] values) {
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(values, "values");
        if (keys.length != values.length) {
            throw new IllegalArgumentException("keys has " + keys.length + " entries and values " + values.length
                    + ": they must be as long; nothing was put");
        }
        checkOpen();
        // sorted: a transactional putAll locks its keys in the map's order, and two batches that
        // lock in different orders could deadlock
        TreeMap<Long, Long> map = new TreeMap<>();
        for (int i = 0; i < keys.length; i++) {
            map.put(keys[i], values[i]);
        }
        cache.putAll(map);
    }

    @Override
    public long remove(long key) {
        checkOpen();
        Long previous = cache.getAndRemove(key);
        return previous == null ? defaultReturnValue : previous;
    }

    @Override
    public boolean delete(long key) {
        checkOpen();
        return cache.remove(key);
    }

    @Override
    public long removeAll(long[] keys) {
        Objects.requireNonNull(keys, "keys");
        checkOpen();
        Set<Long> set = new TreeSet<>();
        for (long k : keys) {
            set.add(k);
        }
        long removed = 0;
        for (EntryProcessorResult<Boolean> r : cache.invokeAll(set, new RemoveIfPresent()).values()) {
            removed += Boolean.TRUE.equals(r.get()) ? 1 : 0;
        }
        return removed;
    }

    /** Removes an entry and says whether it was there: {@link #removeAll}'s count, in one pass. */
    static final class RemoveIfPresent implements CacheEntryProcessor<Long, Long, Boolean> {
        private static final long serialVersionUID = 1L;

        @Override
        public Boolean process(MutableEntry<Long, Long> entry, Object... arguments) {
            if (!entry.exists()) {
                return false;
            }
            entry.remove();
            return true;
        }
    }

    /** Removes every entry, through the interceptor (not {@code IgniteCache.clear()}, which bypasses it). */
    @Override
    public void clear() {
        checkOpen();
        cache.removeAll();
    }

    /** The number of keys: the cache's count of primary copies. */
    @Override
    public long size() {
        checkOpen();
        return cache.sizeLong(CachePeekMode.PRIMARY);
    }

    // ---- ordered operations: the trees ----------------------------------------------------------

    @Override
    public long ceilingKey(long key, long absent) {
        return neighbour(PartitionJobs.Direction.CEILING, key, absent);
    }

    @Override
    public long higherKey(long key, long absent) {
        return neighbour(PartitionJobs.Direction.HIGHER, key, absent);
    }

    @Override
    public long floorKey(long key, long absent) {
        return neighbour(PartitionJobs.Direction.FLOOR, key, absent);
    }

    @Override
    public long lowerKey(long key, long absent) {
        return neighbour(PartitionJobs.Direction.LOWER, key, absent);
    }

    /** @throws NoSuchElementException if the index is empty */
    @Override
    public long firstKey() {
        Long k = neighbourOrNull(PartitionJobs.Direction.CEILING, Long.MIN_VALUE);
        if (k == null) {
            throw new NoSuchElementException("index " + name + " is empty: it has no first key");
        }
        return k;
    }

    /** @throws NoSuchElementException if the index is empty */
    @Override
    public long lastKey() {
        Long k = neighbourOrNull(PartitionJobs.Direction.FLOOR, Long.MAX_VALUE);
        if (k == null) {
            throw new NoSuchElementException("index " + name + " is empty: it has no last key");
        }
        return k;
    }

    private long neighbour(PartitionJobs.Direction d, long key, long absent) {
        Long k = neighbourOrNull(d, key);
        return k == null ? absent : k;
    }

    /**
     * The neighbour of {@code key}: asked of its own partition first; when that has none, of the
     * next partitions in the query's direction, {@link #AHEAD} at once, taking the nearest that
     * has one.
     */
    private Long neighbourOrNull(PartitionJobs.Direction d, long key) {
        checkOpen();
        boolean up = d == PartitionJobs.Direction.CEILING || d == PartitionJobs.Direction.HIGHER;
        if ((d == PartitionJobs.Direction.HIGHER && key == Long.MAX_VALUE)
                || (d == PartitionJobs.Direction.LOWER && key == Long.MIN_VALUE)) {
            return null;
        }
        int p = ranges.partition(key);
        Long found = ask(p, new PartitionJobs.Neighbour(name, p, d, key)).get();
        int step = up ? 1 : -1;
        int next = p + step;
        // the following partitions: any key of theirs is past key, so their first (or last) key is the answer
        PartitionJobs.Direction inside = up ? PartitionJobs.Direction.CEILING : PartitionJobs.Direction.FLOOR;
        while (found == null && next >= 0 && next < ranges.partitions()) {
            int n = up ? Math.min(AHEAD, ranges.partitions() - next) : Math.min(AHEAD, next + 1);
            @SuppressWarnings("unchecked")
            Answer<Long>[] asked = new Answer[n];
            for (int i = 0; i < n; i++) {
                int q = next + i * step;
                long edge = up ? ranges.lowest(q) : ranges.highest(q);
                asked[i] = ask(q, new PartitionJobs.Neighbour(name, q, inside, edge));
            }
            for (int i = 0; i < n && found == null; i++) {
                found = asked[i].get();
            }
            next += n * step;
        }
        return found;
    }

    @Override
    public long rangeCount(long from, boolean fromInclusive, long to, boolean toInclusive) {
        checkOpen();
        RangePartitions.Span span = ranges.partitionsCovering(from, fromInclusive, to, toInclusive);
        if (span.isEmpty()) {
            return 0;
        }
        @SuppressWarnings("unchecked")
        Answer<Long>[] counts = new Answer[span.count()];
        for (int p = span.first(); p <= span.last(); p++) {
            boolean first = p == span.first();
            boolean last = p == span.last();
            counts[p - span.first()] = ask(p, new PartitionJobs.Count(name, p, first ? from : ranges.lowest(p),
                    !first || fromInclusive, last ? to : ranges.highest(p), !last || toInclusive));
        }
        long total = 0;
        for (Answer<Long> c : counts) {
            total += c.get();
        }
        return total;
    }

    /**
     * Visits the keys between the bounds in ascending order: each partition the range covers
     * answers in chunks of up to {@value #CHUNK} entries, the first chunks of {@value #AHEAD}
     * partitions asked at once; the visitor sees them in key order, here, and may stop the walk.
     * Each partition's part is read at one instant; see the class comment on consistency.
     */
    @Override
    public long rangeVisit(long from, boolean fromInclusive, long to, boolean toInclusive, LongEntryVisitor visitor) {
        Objects.requireNonNull(visitor, "visitor");
        checkOpen();
        RangePartitions.Span span = ranges.partitionsCovering(from, fromInclusive, to, toInclusive);
        if (span.isEmpty()) {
            return 0;
        }
        int count = span.count();
        @SuppressWarnings("unchecked")
        Answer<long[]>[] firstChunks = new Answer[count];
        long visited = 0;
        for (int i = 0; i < count; i++) {
            for (int j = i; j < Math.min(count, i + AHEAD); j++) {
                if (firstChunks[j] == null) {
                    firstChunks[j] = ask(span.first() + j, chunk(span, span.first() + j, from, fromInclusive, to,
                            toInclusive));
                }
            }
            int p = span.first() + i;
            long[] chunk = firstChunks[i].get();
            firstChunks[i] = null;
            while (true) {
                for (int e = 0; e < chunk.length; e += 2) {
                    visited++;
                    if (!visitor.visit(chunk[e], chunk[e + 1])) {
                        return visited;
                    }
                }
                if (chunk.length < 2 * CHUNK) {
                    break;
                }
                long last = chunk[chunk.length - 2];
                boolean lastPartition = p == span.last();
                chunk = ask(p, new PartitionJobs.Chunk(name, p, last, false, lastPartition ? to : ranges.highest(p),
                        !lastPartition || toInclusive, CHUNK)).get();
            }
        }
        return visited;
    }

    private PartitionJobs.Chunk chunk(RangePartitions.Span span, int p, long from, boolean fromInclusive, long to,
                                      boolean toInclusive) {
        boolean first = p == span.first();
        boolean last = p == span.last();
        return new PartitionJobs.Chunk(name, p, first ? from : ranges.lowest(p), !first || fromInclusive,
                last ? to : ranges.highest(p), !last || toInclusive, CHUNK);
    }

    /** An answer of one partition: from this node's own tree, or on its way from the partition's primary. */
    private interface Answer<R> {
        R get();
    }

    /**
     * Asks partition {@code p}: here, against this node's tree, when it holds the partition (the
     * job runs when the answer is read, so a walk that stops early reads no further); otherwise a
     * job on the partition's primary, sent now.
     */
    private <R> Answer<R> ask(int p, PartitionJobs.OnPartition<R> job) {
        ConcurrentLongIndex t = localTree(p);
        if (t != null) {
            return () -> job.on(t);
        }
        IgniteFuture<R> remote = ignite.compute().affinityCallAsync(cacheNames, p, job);
        return remote::get;
    }

    // ---- what a remote index does not have ----------------------------------------------------

    /**
     * Not supported: a cursor would hold a position in a remote tree between calls.
     *
     * @throws UnsupportedOperationException always; walk with {@link #rangeVisit}
     */
    @Override
    public LongCursor cursor() {
        throw new UnsupportedOperationException("an IgniteLongIndex has no cursor (it would hold a position in a"
                + " remote tree between calls): walk with rangeVisit");
    }

    /**
     * Not supported: the view's iterators are cursors.
     *
     * @throws UnsupportedOperationException always; use the cache ({@link #cache()}) or the primitive methods
     */
    @Override
    public NavigableMap<Long, Long> asNavigableMap() {
        throw new UnsupportedOperationException("an IgniteLongIndex has no NavigableMap view (its iterators would be"
                + " remote cursors): use cache() for a java.util-style map, rangeVisit for order");
    }

    /** The bytes of every tree on every server node, backups' trees included (the cache's own memory is not counted). */
    @Override
    public long memoryBytes() {
        checkOpen();
        long bytes = 0;
        for (Long b : ignite.compute(ignite.cluster().forServers()).broadcast(new PartitionJobs.Memory(name))) {
            bytes += b;
        }
        return bytes;
    }

    /**
     * Compares, on every server node, each tree with the node's copy of its partition.
     *
     * @return the differences found, empty when every tree equals its copy
     */
    public java.util.List<String> verify() {
        checkOpen();
        java.util.List<String> problems = new java.util.ArrayList<>();
        for (java.util.List<String> p : ignite.compute(ignite.cluster().forServers())
                .broadcast(new PartitionJobs.Verify(name))) {
            problems.addAll(p);
        }
        return problems;
    }

    /** Closes this handle; the cache and its trees stay. A second call does nothing. */
    @Override
    public void close() {
        closed = true;
    }

    /** Whether {@code ignite}'s cluster has no server node, or {@code ignite} is a client cut off from it. */
    private static boolean noServers(Ignite ignite) {
        try {
            return ignite.cluster().forServers().nodes().isEmpty();
        } catch (IgniteClientDisconnectedException e) {
            return true;
        }
    }

    /**
     * Refuses a call on a closed handle, or when the cluster has no server node left (a client's
     * calls would otherwise wait for one to come back). Cheap: a field, the client's reconnect
     * future, and the server group's current members, all local.
     */
    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("index " + name + " is closed: open a new handle with IgniteLongIndex.open");
        }
        if (ignite.cluster().clientReconnectFuture() != null || servers.nodes().isEmpty()) {
            throw new IllegalStateException("the cluster of node " + ignite.name() + " has no server node left to"
                    + " hold index " + name + ": start server nodes (IgniteLongIndex.serverConfiguration)");
        }
    }

    @Override
    public String toString() {
        return "IgniteLongIndex[" + name + ", " + ranges.partitions() + " partitions]";
    }
}
