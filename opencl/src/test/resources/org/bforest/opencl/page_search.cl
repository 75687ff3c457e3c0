// In-page search of the GPU B+-tree: pages of PAGE_KEYS sorted 64-bit keys, the unused tail of a
// page filled with LONG_MAX (so a search never needs the page's count). One work-item a query;
// the rank is the number of keys <= the query (the child to follow in an inner page, one past the
// key in a leaf). A branch-free binary search: every work-item of a group runs the same steps.

__kernel void page_rank(__global const long *keys,
                        const int page_keys,
                        __global const int *page_of,
                        __global const long *queries,
                        __global int *ranks,
                        const int n)
{
    int i = get_global_id(0);
    if (i >= n) {
        return;
    }
    long q = queries[i];
    __global const long *p = keys + (long) page_of[i] * page_keys;
    int base = 0;
    int len = page_keys;
    while (len > 1) {
        int step = len >> 1;
        base = p[base + step - 1] <= q ? base + step : base;
        len -= step;
    }
    ranks[i] = base + (p[base] <= q ? 1 : 0);
}
