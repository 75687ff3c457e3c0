// The GPU B+-tree (Kaczmarek's paper, sections 2 and 3: pages searched, filled and split on the
// device under a host-driven descent). A page holds P sorted keys, the unused tail LONG_MAX; a
// leaf page has P values beside its keys, an inner page with m separators has P + 1 child ids,
// children m + 1 .. P repeating child m. Long.MAX_VALUE itself never reaches the device: the host
// keeps it out of band.
//
// The host plans every structural change (which pages grow, which split into how many, which new
// page ids they get) from the occupancy it keeps, so that it can make room on the device before
// anything changes; the kernels here only move keys. One work-item a query, a key or a slot:
// flat index spaces over a batch's jobs instead of one work-group a page, so that a batch of
// small updates and one large merge keep the device equally busy.

#define MAXKEY 0x7fffffffffffffffL

// How many of the first len keys of p are < q.
static inline int rank_lt(__global const long *p, int len, long q)
{
    if (len == 0) {
        return 0;
    }
    int base = 0;
    while (len > 1) {
        int step = len >> 1;
        base = p[base + step - 1] < q ? base + step : base;
        len -= step;
    }
    return base + (p[base] < q ? 1 : 0);
}

// The job of item i from a tile table: tiles[t] is the job of item t * TILE (the host's), so that
// an item walks forward over the few jobs that start inside its tile instead of a binary search
// over every job: a job holds a page's worth of items or so, far more than a tile. Same answer as
// job_of: the last j with starts[j] <= i.
#define TILE_BITS 10
static inline int job_in_tile(__global const int *starts, int jobs, __global const int *tiles, int i)
{
    int j = tiles[i >> TILE_BITS];
    while (j + 1 < jobs && starts[j + 1] <= i) {
        j++;
    }
    return j;
}

// The job of item i: the last j with starts[j] <= i (starts ascending, starts[0] == 0).
static inline int job_of(__global const int *starts, int jobs, int i)
{
    int lo = 0;
    int hi = jobs - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) >> 1;
        if (starts[mid] <= i) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    return lo;
}

// Query i's answer in leaf page p, where r keys are <= q: value, slot (or -(insertion point) - 1)
// and page into out, longs at [0, n), [n, 2n) and [2n, 3n), and, as ints from long 3n, the page,
// or ~page where the key is not there (all an update batch's plan reads back: 4 bytes a key).
// The value goes to out[i] or, with to_at >= 0 (a look-up that wants values alone), to
// out[to[to_at + i]]: the queries reach the device in an order of the host's making, and their
// answers leave it in the caller's (the host copies them, it does not scatter them).
static inline void leaf_answer(__global const long *keys, __global const long *values, int page_keys, int p, long q,
                        int r, __global long *out, long absent, int n, int i, int full, __global const int *to,
                        int to_at)
{
    long base = (long) p * page_keys;
    bool hit = r > 0 && keys[base + r - 1] == q;
    out[to_at >= 0 ? to[to_at + i] : i] = hit ? values[base + r - 1] : absent;
    if (full) {
        out[n + i] = hit ? r - 1 : -r - 1;
        out[2L * n + i] = p;
        ((__global int *) (out + 3L * n))[i] = hit ? p : ~p;
    }
}

// ---- the descent ---------------------------------------------------------------------------------

// Queries a work-item of the one-query kernels below (a build option: -D LANES=n): 1 on a GPU,
// whose thousands of work-items in flight hide each other's memory latency. A CPU device runs a
// work-item's binary searches one after another, each step a load the next waits for, and does
// not vectorize a work-item loop that holds a loop; LANES searches in lock-step give its
// out-of-order core LANES independent loads a step to overlap (PoCL, 64 against 1: getAll 2.1x
// on the GPU tree, 1.5x on the hybrid; docs/BENCHMARKS.md, "The OpenCL trees ready for a real GPU").
#ifndef LANES
#define LANES 1
#endif

// How many of the first len keys of page pg[k] of pages are <= q[k], into r[k], for the LANES
// queries of a work-item at once (a branch-free binary search each, len the same for all: the
// pages' padding compares greater than every query).
static inline void ranks_le(__global const long *pages, const int *pg, int page_keys, int len, const long *q, int *r)
{
    __global const long *at[LANES];
    for (int k = 0; k < LANES; k++) {
        at[k] = pages + (long) pg[k] * page_keys;
        r[k] = 0;
    }
    if (len == 0) {
        return;
    }
    while (len > 1) {
        int step = len >> 1;
        for (int k = 0; k < LANES; k++) {
            r[k] = at[k][r[k] + step - 1] <= q[k] ? r[k] + step : r[k];
        }
        len -= step;
    }
    for (int k = 0; k < LANES; k++) {
        r[k] += at[k][r[k]] <= q[k] ? 1 : 0;
    }
}

// The leaf search of a work-item's LANES queries, queries[first + k] in leaf page p[k], and the
// answers of those below n (see leaf_answer).
static inline void leaf_answers(__global const long *keys, __global const long *values, int page_keys, const int *p,
                                const long *q, __global long *out, long absent, int n, int first, int full,
                                __global const int *to, int to_at)
{
    int r[LANES];
    ranks_le(keys, p, page_keys, page_keys, q, r);
    for (int k = 0; k < min(LANES, n - first); k++) {
        leaf_answer(keys, values, page_keys, p[k], q[k], r[k], out, absent, n, first + k, full, to, to_at);
    }
}

// The whole descent of queries[i] in one launch: the paper launches a kernel a level from the host;
// one launch for every level costs a launch instead of height + 1, and the path is kept all the
// same (row 0 the root, row height the leaf), so that an insert that splits pages finds the
// parents on the way back up. Then the leaf: out[i] is the value of queries[i] (or absent),
// out[n + i] the slot it is in, or -(insertion point) - 1 when it is not there (as
// Arrays.binarySearch), out[2n + i] its leaf page: one transfer brings all three back. Unless
// full: then a look-up that wants the values alone (getAll) writes its value (see leaf_answer)
// and nothing else, no path, no slot, no page (a third of the bytes written, a quarter with the
// path). Work-item w takes queries w * LANES .. w * LANES + LANES - 1; those past n search a copy
// of the last query and write nothing.
__kernel void descend_lookup(__global const long *inner_keys,
                             __global const int *kids,
                             __global const long *keys,
                             __global const long *values,
                             const int page_keys,
                             const int height,
                             const int root,
                             const int root_keys,
                             __global int *path,
                             __global const long *queries,
                             __global long *out,
                             const long absent,
                             const int n,
                             const int full,
                             __global const int *to,
                             const int to_at)
{
    int first = get_global_id(0) * LANES;
    if (first >= n) {
        return;
    }
    int mine = min(LANES, n - first);
    long q[LANES];
    int p[LANES];
    int r[LANES];
    for (int k = 0; k < LANES; k++) {
        q[k] = queries[min(first + k, n - 1)];
        p[k] = root;
    }
    if (full) {
        for (int k = 0; k < mine; k++) {
            path[first + k] = root;
        }
    }
    for (int row = 0; row < height; row++) {
        // The root's keys are known (every query searches it, and it is often nearly empty);
        // below it, a page is searched whole: its padding compares greater than every query.
        ranks_le(inner_keys, p, page_keys, row == 0 ? root_keys : page_keys, q, r);
        for (int k = 0; k < LANES; k++) {
            p[k] = kids[(long) p[k] * (page_keys + 1) + r[k]];
        }
        if (full) {
            for (int k = 0; k < mine; k++) {
                path[(long) (row + 1) * n + first + k] = p[k];
            }
        }
    }
    leaf_answers(keys, values, page_keys, p, q, out, absent, n, first, full, to, to_at);
}

// The hybrid tree's leaf level: the CPU has descended its inner levels and left each query's leaf
// page in pages[i]; the device searches the leaves, with out as descend_lookup leaves it, LANES
// queries a work-item as there.
__kernel void lookup_at(__global const long *keys,
                        __global const long *values,
                        const int page_keys,
                        __global const int *pages,
                        __global const long *queries,
                        __global long *out,
                        const long absent,
                        const int n,
                        const int full,
                        __global const int *to,
                        const int to_at)
{
    int first = get_global_id(0) * LANES;
    if (first >= n) {
        return;
    }
    long q[LANES];
    int p[LANES];
    for (int k = 0; k < LANES; k++) {
        int j = min(first + k, n - 1);
        q[k] = queries[j];
        p[k] = pages[j];
    }
    leaf_answers(keys, values, page_keys, p, q, out, absent, n, first, full, to, to_at);
}

// ---- group search: a few work-items cooperate on one query's page ---------------------------------
//
// What later GPU trees found fast (Awad et al., PPoPP'19: a warp cooperating on a node; Harmonia,
// PPoPP'19: thread groups narrowed to the node's fanout): `group` consecutive work-items (a power
// of two, at most 64) search one query's page together, a group-ary search instead of a binary
// one. Each step splits the range into group pieces; item t compares the last key of piece t; the
// number of pieces whose last key is <= q, counted through local memory, says which piece holds
// the answer. The range starts at the least power of group that covers the page (keys past the
// page count as greater than everything), so every query takes the same steps and the barriers
// are reached by every item of the work-group; items past the batch's end search a copy of its
// last query and write nothing.

// How many of the page's keys are <= q: the group's items t = 0 .. group - 1 call it together
// with the same p and q; flags is the group's stretch of local memory.
static inline int group_rank_le(__global const long *p, int page_keys, int span, long q, int t, int group,
                         __local int *flags)
{
    int base = 0;
    while (span > 1) {
        span /= group;
        int last = base + (t + 1) * span - 1;
        flags[t] = last < page_keys && p[last] <= q ? 1 : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        int c = 0;
        for (int u = 0; u < group; u++) {
            c += flags[u];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        base += c * span;
    }
    return base;
}

// descend_lookup with group work-items a query (global size n * group, a multiple of the
// work-group size, which is a multiple of group); span: the least power of group >= page_keys.
__kernel void descend_lookup_group(__global const long *inner_keys,
                                   __global const int *kids,
                                   __global const long *keys,
                                   __global const long *values,
                                   const int page_keys,
                                   const int height,
                                   const int root,
                                   __global int *path,
                                   __global const long *queries,
                                   __global long *out,
                                   const long absent,
                                   const int n,
                                   const int full,
                                   __global const int *to,
                                   const int to_at,
                                   const int group,
                                   const int span,
                                   __local int *flags)
{
    int g = get_global_id(0);
    int t = g & (group - 1);
    int i = g / group;
    bool writes = i < n && t == 0;
    long q = queries[min(i, n - 1)];
    __local int *mine = flags + (get_local_id(0) - t);
    int p = root;
    if (writes && full) {
        path[i] = p;
    }
    for (int row = 0; row < height; row++) {
        int r = group_rank_le(inner_keys + (long) p * page_keys, page_keys, span, q, t, group, mine);
        p = kids[(long) p * (page_keys + 1) + r];
        if (writes && full) {
            path[(long) (row + 1) * n + i] = p;
        }
    }
    int r = group_rank_le(keys + (long) p * page_keys, page_keys, span, q, t, group, mine);
    if (writes) {
        leaf_answer(keys, values, page_keys, p, q, r, out, absent, n, i, full, to, to_at);
    }
}

// lookup_at with group work-items a query (see descend_lookup_group).
__kernel void lookup_at_group(__global const long *keys,
                              __global const long *values,
                              const int page_keys,
                              __global const int *pages,
                              __global const long *queries,
                              __global long *out,
                              const long absent,
                              const int n,
                              const int full,
                              __global const int *to,
                              const int to_at,
                              const int group,
                              const int span,
                              __local int *flags)
{
    int g = get_global_id(0);
    int t = g & (group - 1);
    int i = g / group;
    int j = min(i, n - 1);
    int p = pages[j];
    long q = queries[j];
    int r = group_rank_le(keys + (long) p * page_keys, page_keys, span, q, t, group, flags + (get_local_id(0) - t));
    if (i < n && t == 0) {
        leaf_answer(keys, values, page_keys, p, q, r, out, absent, n, i, full, to, to_at);
    }
}

// The values of the keys that were there are replaced in place (slot >= 0, as descend_lookup
// left it in out); the new values follow the n queries in their buffer.
__kernel void leaf_replace(__global long *values,
                           const int page_keys,
                           __global const long *out,
                           __global const long *queries,
                           const int n)
{
    int i = get_global_id(0);
    if (i < n && out[n + i] >= 0) {
        values[out[2L * n + i] * page_keys + out[n + i]] = queries[n + i];
    }
}

// ---- merges: new entries into pages (inserts), entries out of pages (deletes) -------------------
//
// A job is one page and a sorted run of entries for it; job j is described by
// job[JOB * j + ...]: the page, its count, where its run starts in the run arrays and how long it
// is, then (in the scatter) how many pages its result is spread over and where their ids start.
// The result of job j lands in scratch at out_start[j] (an exclusive prefix sum of the jobs'
// result lengths), from where `scatter` copies it into the pages. A batch's tables (jobs, starts,
// destination pages, gather positions) travel to the device in one int buffer, meta, at the
// offsets given; its runs in one long buffer, the keys and then, at run_values_at, the values.

#define JOB 6
#define J_PAGE 0
#define J_COUNT 1
#define J_RUN 2
#define J_RUN_LEN 3
#define J_PIECES 4
#define J_DEST 5

// Inserts: item i of job j is old entry r (r < count) or new entry r - count; each lands at its
// rank in the union (the two sets are disjoint: keys that were there were replaced, not merged).
// Inner pages merge (separator, right child) pairs: entry r is keys[r] with kids[r + 1].
__kernel void merge(__global const long *keys,
                    __global const long *values,
                    __global const int *kids,
                    const int inner,
                    const int page_keys,
                    __global const int *meta,
                    const int job_at,
                    const int in_at,
                    const int out_at,
                    const int jobs,
                    const int tile_at,
                    __global const long *run_keys,
                    const int run_values_at,
                    __global long *scratch_keys,
                    __global long *scratch_values,
                    const int items)
{
    int i = get_global_id(0);
    if (i >= items) {
        return;
    }
    __global const int *in_start = meta + in_at;
    __global const int *out_start = meta + out_at;
    __global const long *run_values = run_keys + run_values_at;
    int j = job_in_tile(in_start, jobs, meta + tile_at, i);
    int r = i - in_start[j];
    __global const int *jb = meta + job_at + JOB * j;
    long page = jb[J_PAGE];
    int count = jb[J_COUNT];
    __global const long *run = run_keys + jb[J_RUN];
    int run_len = jb[J_RUN_LEN];
    long k;
    long v;
    int at;
    if (r < count) {
        k = keys[page * page_keys + r];
        v = inner ? (long) kids[page * (page_keys + 1) + r + 1] : values[page * page_keys + r];
        at = r + rank_lt(run, run_len, k);
    } else {
        int e = r - count;
        k = run[e];
        v = run_values[jb[J_RUN] + e];
        at = e + rank_lt(keys + page * page_keys, count, k);
    }
    scratch_keys[out_start[j] + at] = k;
    scratch_values[out_start[j] + at] = v;
}

// Deletes: item i of job j is old entry r of a leaf; unless its key is in the job's run (keys
// known to be there), it moves down by the number of run keys below it.
__kernel void compact(__global const long *keys,
                      __global const long *values,
                      const int page_keys,
                      __global const int *meta,
                      const int job_at,
                      const int in_at,
                      const int out_at,
                      const int jobs,
                      const int tile_at,
                      __global const long *run_keys,
                      __global long *scratch_keys,
                      __global long *scratch_values,
                      const int items)
{
    int i = get_global_id(0);
    if (i >= items) {
        return;
    }
    __global const int *in_start = meta + in_at;
    __global const int *out_start = meta + out_at;
    int j = job_in_tile(in_start, jobs, meta + tile_at, i);
    int r = i - in_start[j];
    __global const int *jb = meta + job_at + JOB * j;
    long page = jb[J_PAGE];
    __global const long *run = run_keys + jb[J_RUN];
    int run_len = jb[J_RUN_LEN];
    long k = keys[page * page_keys + r];
    int below = rank_lt(run, run_len, k);
    if (below < run_len && run[below] == k) {
        return;
    }
    scratch_keys[out_start[j] + r - below] = k;
    scratch_values[out_start[j] + r - below] = values[page * page_keys + r];
}

// Copies job j's merged result (total = out_start[j + 1] - out_start[j] entries) into its pieces
// pages, piece t taking entries [t * total / pieces, (t + 1) * total / pieces); item i is one slot
// of one destination page, and every slot is written, the unused ones as padding. Piece 0 is the
// job's own page. In an inner page the first entry of pieces 1.. moves up (the host inserts it in
// the parent) and its child becomes the new page's child 0; piece 0 keeps its child 0.
__kernel void scatter(__global long *keys,
                      __global long *values,
                      __global int *kids,
                      const int inner,
                      const int page_keys,
                      __global const int *meta,
                      const int job_at,
                      const int slot_at,
                      const int out_at,
                      const int jobs,
                      const int dest_at,
                      const int tile_at,
                      __global const long *scratch_keys,
                      __global const long *scratch_values,
                      const int items)
{
    int i = get_global_id(0);
    if (i >= items) {
        return;
    }
    __global const int *slot_start = meta + slot_at;
    __global const int *out_start = meta + out_at;
    __global const int *dest = meta + dest_at;
    int j = job_in_tile(slot_start, jobs, meta + tile_at, i);
    int q = i - slot_start[j];
    __global const int *jb = meta + job_at + JOB * j;
    int pieces = jb[J_PIECES];
    int piece = pieces == 1 ? 0 : q / page_keys;
    int s = q - piece * page_keys;
    long total = out_start[j + 1] - out_start[j];
    // A page that does not split (most of them) needs no division.
    int from = pieces == 1 ? 0 : (int) (piece * total / pieces);
    int to = pieces == 1 ? (int) total : (int) ((piece + 1) * total / pieces);
    long page = dest[jb[J_DEST] + piece];
    long src = out_start[j];
    if (!inner) {
        bool used = s < to - from;
        keys[page * page_keys + s] = used ? scratch_keys[src + from + s] : MAXKEY;
        values[page * page_keys + s] = used ? scratch_values[src + from + s] : 0;
        return;
    }
    __global int *k = kids + page * (page_keys + 1);
    int first = piece == 0 ? from : from + 1;   // pieces 1.. promote their first entry
    int len = to - first;
    if (piece > 0 && s == 0) {
        k[0] = (int) scratch_values[src + from];
    }
    if (s < len) {
        keys[page * page_keys + s] = scratch_keys[src + first + s];
        k[s + 1] = (int) scratch_values[src + first + s];
    } else {
        keys[page * page_keys + s] = MAXKEY;
        // the last child repeats; with no entries it is child 0 (of piece 0: already in place)
        long last = len > 0 ? scratch_values[src + to - 1]
                            : (piece == 0 ? (long) k[0] : scratch_values[src + from]);
        k[s + 1] = (int) last;
    }
}

// out[i] = src[at[i]]: the separators the host inserts one level up.
// The descent's path rows above the leaves of the queries reps[0, k): out[out_at + d * k + j] =
// path[d * n + reps[j]] for the rows d below height (what a batch's splits read back: the paths of
// its splitting leaves, not every query's).
__kernel void gather_path(__global const int *path, const int n, __global const int *reps, const int k,
                          const int height, __global int *out, const int out_at)
{
    int i = get_global_id(0);
    if (i < k * height) {
        int d = i / k;
        out[out_at + i] = path[(long) d * n + reps[i - d * k]];
    }
}

__kernel void gather(__global const long *src, __global const int *meta, const int at_at, __global long *out,
                     const int n)
{
    int i = get_global_id(0);
    if (i < n) {
        out[i] = src[meta[at_at + i]];
    }
}

// Visit-all (the paper's third operation): every entry of the leaf pages listed in meta, in the
// order listed (the chain's), packed into out_keys / out_values from 0: item i is entry
// i - starts[j] of page pages[j] (starts an exclusive prefix sum of the pages' counts).
__kernel void visit_all(__global const long *keys,
                        __global const long *values,
                        const int page_keys,
                        __global const int *meta,
                        const int pages_at,
                        const int starts_at,
                        const int jobs,
                        __global long *out_keys,
                        __global long *out_values,
                        const int items)
{
    int i = get_global_id(0);
    if (i >= items) {
        return;
    }
    int j = job_of(meta + starts_at, jobs, i);
    long at = (long) meta[pages_at + j] * page_keys + (i - meta[starts_at + j]);
    out_keys[i] = keys[at];
    out_values[i] = values[at];
}
