// Driver for the reference OLC BS-tree (github.com/dTsitsigkos/DAMON-2025-BsTree, src/olc), bulk-loaded with
// its own construct_leaves + construct_inners, then OPS lookups of <prefix>_A.sosd split into T
// contiguous slices run by T std::threads. stdout: structure,dataset,workload,threads,mops
#include "drv_common.h"
#include "defOLC.h"
#include "help_functions.h"
#include "bstreeOLC.h"
#include <thread>
int main(int argc, char** argv) {
    const std::string prefix = argv[1];
    const int T = atoi(argv[2]);
    const int reps = argc > 3 ? atoi(argv[3]) : 3;
    const size_t PAD = 64;
    std::vector<uint64_t> load = drv::read_sosd(prefix + "_load.sosd", PAD);
    const uint64_t N = load.size() - PAD;
    double t0 = drv::now_s();
    uint64_t* sep = construct_leaves(load.data(), N);
    construct_inners(sep);
    double build_s = drv::now_s() - t0;
    free(sep);
    std::vector<uint64_t> ops = drv::read_sosd(prefix + "_A.sosd");
    const uint64_t OPS = ops.size();
    for (int r = 0; r < reps; r++) {
        std::atomic<uint64_t> found(0);
        double t1 = drv::now_s();
        std::vector<std::thread> th;
        for (int t = 0; t < T; t++) {
            th.emplace_back([&, t]() {
                uint64_t from = OPS * t / T, to = OPS * (t + 1) / T, f = 0;
                for (uint64_t i = from; i < to; i++) f += search(ops[i]);
                found += f;
            });
        }
        for (auto& x : th) x.join();
        double secs = drv::now_s() - t1;
        fprintf(stderr, "[bstree_olc A T=%d] build_s=%.3f found=%llu/%llu height=%u\n", T, build_s,
                (unsigned long long)found.load(), (unsigned long long)OPS, (unsigned)bt_stats.height);
        printf("bstree_olc_ref,u64,A,%d,%.4f\n", T, OPS / secs / 1e6);
    }
    return 0;
}
