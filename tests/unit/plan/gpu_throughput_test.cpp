// The cost model's GPU throughput (plan/cost_model.hpp): the rate and multiprocessors a count's
// predictions use for the GPUs it will run on, alone and shared by MPI ranks.
#include <gtest/gtest.h>

#include <vector>

#include "plan/cost_model.hpp"
#include "pmcount/build_info.hpp"

namespace pmcount {
namespace {

TEST(GpuShare, PredictionsCountTheGpusTheCountUses) {
    // Four H100s (132 multiprocessors, sm_90) seen by every rank of a host.
    std::vector<DeviceInfo> host;
    for (int g = 0; g < 4; ++g) {
        host.push_back({g, "H100", 9, 0, 132, 0});
    }
    const double one = plan::gpu_fp64_rate(host[0]);
    EXPECT_NEAR(one, 16.67e12, 0.01e12);
    // One process: --gpus 1 is one GPU, no --gpus all four.
    plan::GpuThroughput t = plan::gpu_throughput(host, {1}, 1, 1, false);
    EXPECT_DOUBLE_EQ(t.own_rate, one);
    EXPECT_DOUBLE_EQ(t.shared_rate, one);
    EXPECT_DOUBLE_EQ(t.own_multiprocessors, 132);
    EXPECT_DOUBLE_EQ(plan::gpu_throughput(host, {}, 1, 1, false).shared_rate, 4 * one);
    EXPECT_DOUBLE_EQ(t.shared_multiprocessors, 132);
    // Four ranks splitting the host (gpu_share: one GPU each) share loops at four GPUs' rate and
    // multiprocessors (the hafnian's rates are per multiprocessor); a loop too short to share
    // runs whole on each rank's own GPU.
    t = plan::gpu_throughput(host, {2}, 4, 4, true);
    EXPECT_DOUBLE_EQ(t.own_rate, one);
    EXPECT_DOUBLE_EQ(t.shared_rate, 4 * one);
    EXPECT_DOUBLE_EQ(t.own_multiprocessors, 132);
    EXPECT_DOUBLE_EQ(t.shared_multiprocessors, 4 * 132);
    // Eight ranks on four GPUs (two to a GPU): still four GPUs; on two hosts of four ranks: eight.
    EXPECT_DOUBLE_EQ(plan::gpu_throughput(host, {1}, 8, 8, true).shared_rate, 4 * one);
    EXPECT_DOUBLE_EQ(plan::gpu_throughput(host, {1}, 8, 4, true).shared_rate, 8 * one);
    EXPECT_DOUBLE_EQ(plan::gpu_throughput(host, {1}, 8, 4, true).shared_multiprocessors, 8 * 132);
    // Two ranks both naming --gpus 0 share that one GPU.
    EXPECT_DOUBLE_EQ(plan::gpu_throughput(host, {0}, 2, 2, false).shared_rate, one);
    // No GPU: nothing to predict with.
    EXPECT_DOUBLE_EQ(plan::gpu_throughput({}, {}, 1, 1, false).shared_rate, 0);
}

TEST(GpuShare, RanksShareTheGpuHafnianFromTwentyPairs) {
    // The session spreads loops of 2^20 steps or more over the ranks; the GPU hafnian's loop has
    // 2^(n/2) of them, so from order 40 four ranks of one GPU each bring four GPUs to it.
    std::vector<DeviceInfo> host;
    for (int g = 0; g < 4; ++g) {
        host.push_back({g, "H100", 9, 0, 132, 0});
    }
    plan::LeafFacts alone;
    alone.arithmetic = plan::Arithmetic::double_precision;
    alone.gpus = plan::gpu_throughput(host, {2}, 1, 1, false);
    plan::LeafFacts ranks = alone;
    ranks.gpus = plan::gpu_throughput(host, {2}, 4, 4, true);
    ranks.ranks = 4;
    for (const vertex_t n : {36, 38}) {
        alone.order = ranks.order = n;
        EXPECT_DOUBLE_EQ(plan::gpu_hafnian_seconds(ranks), plan::gpu_hafnian_seconds(alone)) << n;
    }
    alone.order = ranks.order = 64;  // about 19 s on one H100, so the set-up hardly counts
    EXPECT_NEAR(plan::gpu_hafnian_seconds(alone) / plan::gpu_hafnian_seconds(ranks), 4, 0.2);
}

}  // namespace
}  // namespace pmcount
