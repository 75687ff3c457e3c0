package org.bforest.ignite;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.bforest.ConcurrentLongIndex;
import org.bforest.Indexes;

/**
 * One partition's bforest tree on one node, and how it comes to be: while the node loads the
 * partition's entries from its local copy, the writes that reach the partition meanwhile are
 * logged; once the tree is built from the scan, the log is replayed onto it in order and the tree
 * takes the writes itself.
 *
 * <p>Why that is exact: the log starts before the scan does, so a write either landed in the
 * store before the scan began (the scan sees it, or a later value that is itself logged) or is
 * logged. Replaying the log in the order Ignite applied the writes leaves every logged key with
 * its last value, and every other key as the scan read it. Ignite applies the writes to one key
 * one at a time (a transaction holds the key's lock on the primary; a backup applies a
 * partition's updates on one stripe thread), and calls the interceptor, which calls
 * {@link #put} and {@link #remove}, as it applies each.
 *
 * <p>Reads go to the tree without a lock (it is the concurrent BS-tree); a write takes this
 * object's monitor only while the tree is not there yet, to append to the log or to see that the
 * load finished.
 */
final class PartitionTree {
    private static final byte PUT = 0;
    private static final byte REMOVE = 1;

    final int partition;
    private final CompletableFuture<ConcurrentLongIndex> ready = new CompletableFuture<>();
    private volatile ConcurrentLongIndex tree;
    // the writes that arrived while loading, in order; null once the tree is there
    private EntryBuffer log = new EntryBuffer(64);
    private byte[] logOps = new byte[64];

    PartitionTree(int partition) {
        this.partition = partition;
    }

    /** A partition tree that starts empty and ready: the partition is known to hold nothing. */
    static PartitionTree empty(int partition) {
        PartitionTree t = new PartitionTree(partition);
        t.finish(new EntryBuffer(0));
        return t;
    }

    void put(long key, long value) {
        ConcurrentLongIndex t = tree;
        if (t != null) {
            t.put(key, value);
            return;
        }
        synchronized (this) {
            if (tree != null) {
                tree.put(key, value);
            } else {
                append(key, value, PUT);
            }
        }
    }

    void remove(long key) {
        ConcurrentLongIndex t = tree;
        if (t != null) {
            t.remove(key);
            return;
        }
        synchronized (this) {
            if (tree != null) {
                tree.remove(key);
            } else {
                append(key, 0, REMOVE);
            }
        }
    }

    private void append(long key, long value, byte op) {
        int at = log.size();
        if (at == logOps.length) {
            logOps = java.util.Arrays.copyOf(logOps, at * 2);
        }
        logOps[at] = op;
        log.add(key, value);
    }

    /**
     * Builds the tree from {@code scanned} (the partition's entries as a scan that began after
     * this object was published read them, in any order), replays the writes logged meanwhile and
     * makes the tree ready.
     */
    void finish(EntryBuffer scanned) {
        scanned.sortByKey();
        ConcurrentLongIndex built = Indexes.concurrentBsTree(scanned.keys(), scanned.values());
        synchronized (this) {
            for (int i = 0; i < log.size(); i++) {
                if (logOps[i] == PUT) {
                    built.put(log.key(i), log.value(i));
                } else {
                    built.remove(log.key(i));
                }
            }
            log = null;
            logOps = null;
            tree = built;
        }
        ready.complete(built);
    }

    /** Ends a load that could not finish: whoever waits gets {@code cause}. */
    void fail(Throwable cause) {
        ready.completeExceptionally(cause);
    }

    boolean isReady() {
        return tree != null;
    }

    /** The tree, when ready; null while loading. */
    ConcurrentLongIndex treeOrNull() {
        return tree;
    }

    /**
     * The tree, waiting at most {@code millis} for the load to finish.
     *
     * @throws IllegalStateException if the load failed or did not finish in time
     */
    ConcurrentLongIndex await(long millis) {
        ConcurrentLongIndex t = tree;
        if (t != null) {
            return t;
        }
        try {
            return ready.get(millis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("partition " + partition + "'s tree could not be loaded: " + e.getCause(),
                    e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("partition " + partition + "'s tree was still loading after " + millis
                    + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while partition " + partition + "'s tree was loading", e);
        }
    }
}
