package org.bforest.ignite;

import java.util.Objects;
import javax.cache.Cache;
import org.apache.ignite.Ignite;
import org.apache.ignite.cache.CacheInterceptorAdapter;
import org.apache.ignite.lifecycle.LifecycleAware;
import org.apache.ignite.resources.IgniteInstanceResource;

/**
 * The index cache's interceptor: Ignite calls it on every node that holds a copy of a key
 * (primary and backup) as it applies a write to that copy, whoever made the write (an
 * {@link IgniteLongIndex}, or the plain cache API: {@code put}, {@code putAll}, {@code remove},
 * {@code invoke}, a transaction), and it applies the same write to the node's tree of that key's
 * partition. Rebalancing does not go through it (a partition that arrives is loaded whole, see
 * {@link NodeTrees}); nor do {@code IgniteCache.clear()} and a data streamer that does not
 * {@code allowOverwrite(true)}, which therefore must not be used on an index cache once it has
 * trees.
 *
 * <p>It travels inside the cache's configuration to every node, so it holds only the split points.
 */
final class TreeInterceptor extends CacheInterceptorAdapter<Long, Long> implements LifecycleAware {
    private static final long serialVersionUID = 1L;

    private final String cacheName;
    private final RangePartitions ranges;
    @IgniteInstanceResource
    private transient Ignite ignite;
    private transient volatile NodeTrees trees;

    TreeInterceptor(String cacheName, RangePartitions ranges) {
        this.cacheName = Objects.requireNonNull(cacheName, "cacheName");
        this.ranges = Objects.requireNonNull(ranges, "ranges");
    }

    String cacheName() {
        return cacheName;
    }

    RangePartitions ranges() {
        return ranges;
    }

    @Override
    public void start() {
        if (ignite != null && !ignite.cluster().localNode().isClient()) {
            trees = NodeTrees.of(ignite, cacheName, ranges);
        }
    }

    @Override
    public void stop() {
        if (ignite != null && trees != null) {
            trees = null;
            NodeTrees.close(ignite, cacheName);
        }
    }

    @Override
    public void onAfterPut(Cache.Entry<Long, Long> entry) {
        NodeTrees t = trees();
        if (t != null) {
            t.onPut(entry.getKey(), entry.getValue());
        }
    }

    @Override
    public void onAfterRemove(Cache.Entry<Long, Long> entry) {
        NodeTrees t = trees();
        if (t != null) {
            t.onRemove(entry.getKey());
        }
    }

    private NodeTrees trees() {
        NodeTrees t = trees;
        if (t == null && ignite != null && !ignite.cluster().localNode().isClient()) {
            t = NodeTrees.of(ignite, cacheName, ranges);
            trees = t;
        }
        return t;
    }
}
