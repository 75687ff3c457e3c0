// The partial order of a look-up batch made on the device (Harmonia's partially sorted queries,
// Yan et al.): a counting sort of the queries by bucket, so that neighbouring work-items of the
// search that follows read the same pages. The host only copies the keys as the caller gave them;
// the device counts, scans and scatters them into the look-up's query layout, each key with its
// place in the caller's order, where the search writes its answer.
//
// A query's bucket is its leaf page's id shifted right by `shift` where the host found the
// leaves (the hybrid tree's CPU descent: leaves_at >= 0, the leaves after the keys in the same
// buffer), else the leading bits of its key above the batch's smallest: key - base shifted right
// by `shift`, in ulong, where the difference wraps as defined (the range may span 2^64 - 1).
// Equal buckets keep no particular order: the scatter takes places by atomic counters, and each
// query carries its place, so the answers are the same in any order.
// Helpers are static inline: plain inline breaks clang/nvptx with -cl-opt-disable.

// The largest work-group order_scan is launched with (its local memory).
#define ORDER_GROUP 256

static inline int order_bucket(__global const long *keys, __global const int *leaves, int leaves_at, long base,
                               int shift, int i)
{
    return leaves_at >= 0 ? leaves[leaves_at + i] >> shift : (int) (((ulong) keys[i] - (ulong) base) >> shift);
}

// counts[b] += the queries of bucket b (counts zeroed before).
__kernel void order_count(__global const long *keys,
                          __global const int *leaves,
                          const int leaves_at,
                          const long base,
                          const int shift,
                          const int n,
                          __global int *counts)
{
    int i = get_global_id(0);
    if (i < n) {
        atomic_inc(&counts[order_bucket(keys, leaves, leaves_at, base, shift, i)]);
    }
}

// counts[0, nb) into their exclusive prefix sums, in place: one work-group, each item a run of
// buckets (its sum, then the group's sums in local memory, then its run rewritten).
__kernel void order_scan(__global int *counts, const int nb)
{
    __local int sums[ORDER_GROUP];
    int lid = get_local_id(0);
    int g = (int) get_local_size(0);
    int per = (nb + g - 1) / g;
    int lo = min(nb, lid * per);
    int hi = min(nb, lo + per);
    int s = 0;
    for (int b = lo; b < hi; b++) {
        s += counts[b];
    }
    sums[lid] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        int at = 0;
        for (int t = 0; t < g; t++) {
            int c = sums[t];
            sums[t] = at;
            at += c;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int at = sums[lid];
    for (int b = lo; b < hi; b++) {
        int c = counts[b];
        counts[b] = at;
        at += c;
    }
}

// Query i to its place in its bucket (counts: the buckets' starts, advanced as places are taken):
// its key to queries[place], i to to[to_at + place], and where the host found the leaves, its
// leaf to pages[place].
__kernel void order_scatter(__global const long *keys,
                            __global const int *leaves,
                            const int leaves_at,
                            const long base,
                            const int shift,
                            const int n,
                            __global int *counts,
                            __global long *queries,
                            __global int *to,
                            const int to_at,
                            __global int *pages)
{
    int i = get_global_id(0);
    if (i < n) {
        int at = atomic_inc(&counts[order_bucket(keys, leaves, leaves_at, base, shift, i)]);
        queries[at] = keys[i];
        to[to_at + at] = i;
        if (leaves_at >= 0) {
            pages[at] = leaves[leaves_at + i];
        }
    }
}
