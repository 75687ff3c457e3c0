// One pass over every entry of a paged tree's leaf pages on the device (the "all elements
// visiting" of Kaczmarek's GPU B+-tree paper): one work-group a leaf page, its work-items striding
// over the page's used slots. The host prepends the caller's function,
//     static inline long bforest_map(long key, long value, long p0, long p1)
// and sends, once a call, the pages to visit and their counts: meta[0, jobs) the page ids,
// meta[jobs, 2 jobs) how many slots of each are used (they come first in a page; the rest are
// padding). Sums are taken in ulong, so that they wrap as Java's long addition does.
// Helpers are static inline: plain inline breaks clang/nvptx with -cl-opt-disable.

// The largest work-group these kernels are launched with (the reduction's local memory).
#define VISIT_GROUP 256

// The sum of the work-group's values of mine, a power of two of them; the total lands in sums[0].
static inline ulong visit_group_sum(__local ulong *sums, ulong mine)
{
    int lid = get_local_id(0);
    int n = (int) get_local_size(0);
    sums[lid] = mine;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = n >> 1; s > 0; s >>= 1) {
        if (lid < s) {
            sums[lid] += sums[lid + s];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    return sums[0];
}

// Group g sums bforest_map over the used slots of page meta[g] (count_only: counts where it is
// not 0) into partials[g].
__kernel void visit_reduce(__global const long *keys,
                           __global const long *values,
                           const int page_keys,
                           __global const int *meta,
                           const int jobs,
                           const int count_only,
                           const long p0,
                           const long p1,
                           __global long *partials)
{
    __local ulong sums[VISIT_GROUP];
    int g = get_group_id(0);
    int lid = get_local_id(0);
    int n = (int) get_local_size(0);
    long base = (long) meta[g] * page_keys;
    int count = meta[jobs + g];
    ulong mine = 0;
    for (int i = lid; i < count; i += n) {
        long r = bforest_map(keys[base + i], values[base + i], p0, p1);
        mine += count_only ? (ulong) (r != 0) : (ulong) r;
    }
    ulong total = visit_group_sum(sums, mine);
    if (lid == 0) {
        partials[g] = (long) total;
    }
}

// Group g replaces every used slot's value of page meta[g] by bforest_map(key, value).
__kernel void visit_transform(__global const long *keys,
                              __global long *values,
                              const int page_keys,
                              __global const int *meta,
                              const int jobs,
                              const long p0,
                              const long p1)
{
    int g = get_group_id(0);
    int n = (int) get_local_size(0);
    long base = (long) meta[g] * page_keys;
    int count = meta[jobs + g];
    for (int i = get_local_id(0); i < count; i += n) {
        values[base + i] = bforest_map(keys[base + i], values[base + i], p0, p1);
    }
}
