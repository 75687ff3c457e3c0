package org.bforest.ignite.bench;

import java.util.HashSet;
import java.util.List;
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
import org.apache.ignite.IgniteDataStreamer;
import org.apache.ignite.cache.CacheAtomicityMode;
import org.apache.ignite.cache.CacheEntryProcessor;
import org.apache.ignite.cache.CachePeekMode;
import org.apache.ignite.cache.CacheWriteSynchronizationMode;
import org.apache.ignite.cache.QueryEntity;
import org.apache.ignite.cache.query.FieldsQueryCursor;
import org.apache.ignite.cache.query.SqlFieldsQuery;
import org.apache.ignite.configuration.CacheConfiguration;
import org.bforest.LongCursor;
import org.bforest.LongEntryVisitor;
import org.bforest.LongIndex;

/**
 * The peer: the same entries in a plain Ignite cache (Ignite's default affinity, one backup,
 * {@code TRANSACTIONAL} with {@code FULL_SYNC} writes, as the index cache) with a SQL table on it,
 * {@code KV(k BIGINT key, v BIGINT)}, whose primary-key index is Ignite's own B+-tree over its
 * page memory (the {@code ignite-indexing} module, which must be on the class path). Point
 * operations are the cache's ({@code get}, {@code getAll}, {@code getAndPut}, ...); ordered ones
 * are SQL: a range is {@code SELECT k, v FROM KV WHERE k >= ? AND k < ? ORDER BY k LIMIT ?} (the
 * bounds' operators as asked), a neighbour {@code SELECT MIN(k) ... WHERE k >= ?}, a count
 * {@code SELECT COUNT(*)}. Ignite sends each query to every server node and merges their sorted
 * answers.
 */
public final class SqlKeyIndex implements LongIndex, AutoCloseable {
    private static final String TABLE = "KV";

    private final Ignite ignite;
    private final IgniteCache<Long, Long> cache;
    private long defaultReturnValue;

    private SqlKeyIndex(Ignite ignite, IgniteCache<Long, Long> cache) {
        this.ignite = ignite;
        this.cache = cache;
    }

    /**
     * Creates the cache {@code name} (dropping one of that name first) and loads the entries with
     * a data streamer.
     *
     * @param ignite a node of the cluster
     * @param name   the cache's name
     * @param keys   the keys
     * @param values their values, as many
     * @return the peer over the loaded cache
     */
    public static SqlKeyIndex create(Ignite ignite, String name, long[] keys, long[] values) {
        Objects.requireNonNull(ignite, "ignite");
        if (keys.length != values.length) {
            throw new IllegalArgumentException("keys has " + keys.length + " entries and values " + values.length);
        }
        ignite.destroyCache(name);
        QueryEntity table = new QueryEntity(Long.class, Long.class)
                .setTableName(TABLE)
                .addQueryField("k", Long.class.getName(), null)
                .addQueryField("v", Long.class.getName(), null)
                .setKeyFieldName("k")
                .setValueFieldName("v");
        IgniteCache<Long, Long> cache = ignite.createCache(new CacheConfiguration<Long, Long>(name)
                .setBackups(1)
                .setAtomicityMode(CacheAtomicityMode.TRANSACTIONAL)
                .setWriteSynchronizationMode(CacheWriteSynchronizationMode.FULL_SYNC)
                .setQueryEntities(List.of(table)));
        try (IgniteDataStreamer<Long, Long> streamer = ignite.dataStreamer(name)) {
            for (int i = 0; i < keys.length; i++) {
                streamer.addData(keys[i], values[i]);
            }
        }
        return new SqlKeyIndex(ignite, cache);
    }

    // ---- point operations: the cache --------------------------------------------------------------

    @Override
    public long get(long key, long absent) {
        Long v = cache.get(key);
        return v == null ? absent : v;
    }

    @Override
    public boolean containsKey(long key) {
        return cache.containsKey(key);
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
        Set<Long> set = new HashSet<>(keys.length * 2);
        for (long k : keys) {
            set.add(k);
        }
        Map<Long, Long> found = cache.getAll(set);
        for (int i = 0; i < keys.length; i++) {
            Long v = found.get(keys[i]);
            values[i] = v == null ? absent : v;
        }
    }

    @Override
    public long put(long key, long value) {
        Long previous = cache.getAndPut(key, value);
        return previous == null ? defaultReturnValue : previous;
    }

    @Override
    public boolean upsert(long key, long value) {
        return cache.getAndPut(key, value) == null;
    }

    @Override
    public void putAll(long[] keys, long[] values) {
        TreeMap<Long, Long> map = new TreeMap<>(); // sorted: transactional batches lock in key order
        for (int i = 0; i < keys.length; i++) {
            map.put(keys[i], values[i]);
        }
        cache.putAll(map);
    }

    @Override
    public long remove(long key) {
        Long previous = cache.getAndRemove(key);
        return previous == null ? defaultReturnValue : previous;
    }

    @Override
    public boolean delete(long key) {
        return cache.remove(key);
    }

    @Override
    public long removeAll(long[] keys) {
        Set<Long> set = new TreeSet<>();
        for (long k : keys) {
            set.add(k);
        }
        long removed = 0;
        for (EntryProcessorResult<Boolean> r : cache.invokeAll(set, new Remove()).values()) {
            removed += Boolean.TRUE.equals(r.get()) ? 1 : 0;
        }
        return removed;
    }

    private static final class Remove implements CacheEntryProcessor<Long, Long, Boolean> {
        private static final long serialVersionUID = 1L;

        @Override
        public Boolean process(MutableEntry<Long, Long> entry, Object... arguments) {
            boolean there = entry.exists();
            if (there) {
                entry.remove();
            }
            return there;
        }
    }

    @Override
    public void clear() {
        cache.removeAll();
    }

    @Override
    public long size() {
        return cache.sizeLong(CachePeekMode.PRIMARY);
    }

    // ---- ordered operations: SQL --------------------------------------------------------------------

    @Override
    public long ceilingKey(long key, long absent) {
        return single("SELECT MIN(k) FROM " + TABLE + " WHERE k >= ?", key, absent);
    }

    @Override
    public long higherKey(long key, long absent) {
        return single("SELECT MIN(k) FROM " + TABLE + " WHERE k > ?", key, absent);
    }

    @Override
    public long floorKey(long key, long absent) {
        return single("SELECT MAX(k) FROM " + TABLE + " WHERE k <= ?", key, absent);
    }

    @Override
    public long lowerKey(long key, long absent) {
        return single("SELECT MAX(k) FROM " + TABLE + " WHERE k < ?", key, absent);
    }

    @Override
    public long firstKey() {
        if (size() == 0) {
            throw new NoSuchElementException("the table is empty");
        }
        return single("SELECT MIN(k) FROM " + TABLE + " WHERE k >= ?", Long.MIN_VALUE, 0);
    }

    @Override
    public long lastKey() {
        if (size() == 0) {
            throw new NoSuchElementException("the table is empty");
        }
        return single("SELECT MAX(k) FROM " + TABLE + " WHERE k <= ?", Long.MAX_VALUE, 0);
    }

    private long single(String sql, long key, long absent) {
        try (FieldsQueryCursor<List<?>> rows = cache.query(new SqlFieldsQuery(sql).setArgs(key))) {
            for (List<?> row : rows) {
                Object v = row.get(0);
                return v == null ? absent : ((Number) v).longValue();
            }
        }
        return absent;
    }

    @Override
    public long rangeCount(long from, boolean fromInclusive, long to, boolean toInclusive) {
        String sql = "SELECT COUNT(*) FROM " + TABLE + " WHERE k " + (fromInclusive ? ">=" : ">") + " ? AND k "
                + (toInclusive ? "<=" : "<") + " ?";
        try (FieldsQueryCursor<List<?>> rows = cache.query(new SqlFieldsQuery(sql).setArgs(from, to))) {
            for (List<?> row : rows) {
                return ((Number) row.get(0)).longValue();
            }
        }
        return 0;
    }

    @Override
    public long rangeVisit(long from, boolean fromInclusive, long to, boolean toInclusive, LongEntryVisitor visitor) {
        Objects.requireNonNull(visitor, "visitor");
        String sql = "SELECT k, v FROM " + TABLE + " WHERE k " + (fromInclusive ? ">=" : ">") + " ? AND k "
                + (toInclusive ? "<=" : "<") + " ? ORDER BY k LIMIT ?";
        long visited = 0;
        try (FieldsQueryCursor<List<?>> rows = cache.query(new SqlFieldsQuery(sql)
                .setArgs(from, to, Integer.MAX_VALUE))) {
            for (List<?> row : rows) {
                visited++;
                if (!visitor.visit(((Number) row.get(0)).longValue(), ((Number) row.get(1)).longValue())) {
                    break;
                }
            }
        }
        return visited;
    }

    /** @throws UnsupportedOperationException always: the peer is measured through ranges */
    @Override
    public LongCursor cursor() {
        throw new UnsupportedOperationException("the SQL peer has no cursor: use rangeVisit");
    }

    /** @throws UnsupportedOperationException always */
    @Override
    public NavigableMap<Long, Long> asNavigableMap() {
        throw new UnsupportedOperationException("the SQL peer has no NavigableMap view");
    }

    /** 0: the cache's pages are Ignite's off-heap memory, which this peer does not account. */
    @Override
    public long memoryBytes() {
        return 0;
    }

    @Override
    public String toString() {
        return "SqlKeyIndex[" + cache.getName() + ", table " + TABLE + ", Ignite's SQL index on the key]";
    }

    /** Drops the cache. */
    @Override
    public void close() {
        ignite.destroyCache(cache.getName());
    }
}
