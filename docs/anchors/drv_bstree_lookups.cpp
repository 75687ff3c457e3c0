// Driver for the reference single-threaded BS-tree (src/single_thread), the same protocol as
// drv_bstree_olc.cpp (bulk load, OPS lookups of <prefix>_A.sosd, reps), for the 1-thread ratio.
#include "drv_common.h"
#include "def.h"
#include "bstree.h"
int main(int argc, char** argv) {
    const std::string prefix = argv[1];
    const int reps = argc > 2 ? atoi(argv[2]) : 3;
    std::vector<uint64_t> load = drv::read_sosd(prefix + "_load.sosd", 64);
    const uint64_t N = load.size() - 64;
    uint64_t* sep = construct_leaves(load.data(), N);
    construct_inners(sep);
    free(sep);
    std::vector<uint64_t> ops = drv::read_sosd(prefix + "_A.sosd");
    const uint64_t OPS = ops.size();
    for (int r = 0; r < reps; r++) {
        uint64_t found = 0;
        double t1 = drv::now_s();
        for (uint64_t i = 0; i < OPS; i++) found += ::search(ops[i]);
        double secs = drv::now_s() - t1;
        fprintf(stderr, "[bstree A] found=%llu/%llu\n", (unsigned long long)found, (unsigned long long)OPS);
        printf("bstree_ref,u64,A,1,%.4f\n", OPS / secs / 1e6);
    }
    return 0;
}
