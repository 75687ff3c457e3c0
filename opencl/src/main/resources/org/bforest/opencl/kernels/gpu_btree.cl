// The GPU B+-tree's read path (Kaczmarek's paper, section 2: pages searched on the device under a
// host-driven descent). Pages hold PAGE_KEYS sorted keys, the unused tail LONG_MAX; an inner page
// with m separators has m + 1 children. Long.MAX_VALUE itself never reaches the device: the host
// keeps it out of band. One work-item a query; the rank is a branch-free binary search.

inline int rank_in_page(__global const long *p, int page_keys, long q)
{
    int base = 0;
    int len = page_keys;
    while (len > 1) {
        int step = len >> 1;
        base = p[base + step - 1] <= q ? base + step : base;
        len -= step;
    }
    return base + (p[base] <= q ? 1 : 0);
}

// Every query starts at the root.
__kernel void start(__global int *page_of, const int root, const int n)
{
    int i = get_global_id(0);
    if (i < n) {
        page_of[i] = root;
    }
}

// One inner level for every query: page_of[i] becomes the child whose range holds queries[i].
__kernel void descend(__global const long *keys,
                      __global const int *kids,
                      const int page_keys,
                      __global int *page_of,
                      __global const long *queries,
                      const int n)
{
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    int p = page_of[i];
    int r = rank_in_page(keys + (long) p * page_keys, page_keys, queries[i]);
    page_of[i] = kids[(long) p * (page_keys + 1) + r];
}

// The leaf level: the value of queries[i], or absent.
__kernel void leaf_get(__global const long *keys,
                       __global const long *values,
                       const int page_keys,
                       __global const int *page_of,
                       __global const long *queries,
                       __global long *out,
                       const long absent,
                       const int n)
{
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    long q = queries[i];
    long base = (long) page_of[i] * page_keys;
    int r = rank_in_page(keys + base, page_keys, q);
    out[i] = r > 0 && keys[base + r - 1] == q ? values[base + r - 1] : absent;
}
