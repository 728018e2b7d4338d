// The cost model's predictions for fixed leaves, pinned: a change of a rate or a formula shows
// here first, and is made on purpose. The values were printed by the model before the rates moved
// from constants in cost_model.cpp into lib/plan/rates/*.txt (issue 34), which left every one as
// it was, and again when the calibrated CPU rates and the walks' error-figure replay came in
// (2026-11-29: dense Ryser's double, complex, dd and exact rows, SpaRyser, the hafnian in every
// arithmetic, brute force). Predictions are made under a
// DeferredProbe, so the machine-speed probe never runs and they are the model's own (each test
// runs in its own process: no earlier prediction has measured the speed). Exact hafnians use
// three primes, one group of prime lanes with AVX2 and AVX-512 alike.
#include "plan/cost_model.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace pmcount::plan {
namespace {

LeafFacts leaf(vertex_t order, Arithmetic arithmetic) {
    LeafFacts f;
    f.order = order;
    f.nnz = static_cast<edge_t>(order) * order / 4;
    f.arithmetic = arithmetic;
    f.primes = 3;
    f.threads = 2;
    f.term_fraction = 0.6;
    f.visit_fraction = 0.8;
    f.entries_per_step = 3.5;
    f.bound_log2 = 120;
    return f;
}

DeviceInfo h100() {
    DeviceInfo d;
    d.compute_major = 9;
    d.multiprocessors = 132;
    return d;
}

LeafFacts on_gpu(LeafFacts f) {
    f.gpus = gpu_throughput({h100()}, {}, 1, 1, false);
    return f;
}

/// Two ranks on two hosts (the thresholds from which ranks share a loop).
LeafFacts on_two_ranks(LeafFacts f) {
    f.ranks = 2;
    f.gpus = gpu_throughput({h100()}, {}, 2, 1, false);
    return f;
}

struct Pinned {
    const char* name;
    std::function<double()> predict;
    double expected;
};

std::vector<Pinned> pinned_predictions() {
    using A = Arithmetic;
    const auto modular = [] {
        LeafFacts f = leaf(30, A::exact);
        f.products = exact::ExactProducts::modular;
        return f;
    };
    const auto lanes = [] {
        LeafFacts f = leaf(30, A::exact);
        f.products = exact::ExactProducts::lanes4;
        return f;
    };
    const auto certified = [] {
        LeafFacts f = leaf(28, A::double_precision);
        f.certified = true;
        f.ranks = 4;
        return f;
    };
    const auto binary_walk = [] {
        LeafFacts f = leaf(40, A::exact);
        f.binary_walk = true;
        f.sub_bits = 3;
        f.dynamic_rows = 12;
        f.tested_rows = 21;
        f.term_fraction = 0.01;
        f.visit_fraction = 0.05;
        return f;
    };
    const auto frontier = [](A arithmetic, int threads) {
        LeafFacts f = leaf(300, arithmetic);
        f.threads = threads;
        f.frontier_width = 16;
        f.frontier_states = 3e7;
        f.frontier_peak_states = 1e6;
        f.bound_log2 = 700;
        return f;
    };
    return {
        {"ryser exact", [] { return ryser_seconds(leaf(30, A::exact)); }, 3.3582549287424},
        {"ryser double", [] { return ryser_seconds(leaf(30, A::double_precision)); },
         1.2858892206591999},
        {"ryser dd", [] { return ryser_seconds(leaf(26, A::double_double)); }, 1.361121979648},
        {"ryser complex", [] { return ryser_seconds(leaf(26, A::complex)); }, 0.856373144832},
        {"ryser modular", [=] { return ryser_seconds(modular()); }, 26.575130143999999},
        {"ryser lanes4", [=] { return ryser_seconds(lanes()); }, 4.4534715892224},
        {"ryser certified ranks", [=] { return ryser_seconds(certified()); }, 0.15323356304383998},
        {"ryser one thread", [] { return ryser_seconds(leaf(16, A::double_precision)); },
         0.00011311354879999999},
        {"sparyser exact", [] { return sparyser_seconds(leaf(32, A::exact)); }, 15.077503519733762},
        {"sparyser modular", [=] { return sparyser_seconds(modular()); }, 19.275710571264},
        {"skipper double", [] { return skipper_seconds(leaf(32, A::double_precision)); },
         21.786435709614082},
        {"skipper exact", [] { return skipper_seconds(leaf(32, A::exact)); }, 21.786435709614082},
        {"skipper 0-1", [=] { return skipper_seconds(binary_walk()); }, 371.85513251384327},
        {"gpu ryser double",
         [] { return gpu_ryser_seconds(on_gpu(leaf(40, A::double_precision))); },
         3.6549076547200809},
        {"gpu ryser exact", [] { return gpu_ryser_seconds(on_gpu(leaf(40, A::exact))); },
         8.4722109538053267},
        {"gpu ryser certified", [=] { return gpu_ryser_seconds(on_gpu(certified())); },
         0.30110656255896651},
        {"gpu sparyser generated",
         [] { return gpu_sparse_seconds(on_gpu(leaf(40, A::double_precision)), false, true); },
         2.0030866454053942},
        {"gpu sparyser tables",
         [] { return gpu_sparse_seconds(on_gpu(leaf(40, A::exact)), false, false); },
         22.655298122317461},
        {"gpu sparyser dd",
         [] { return gpu_sparse_seconds(on_gpu(leaf(40, A::double_double)), false, true); },
         99.700315162597775},
        {"gpu sparyser complex",
         [] { return gpu_sparse_seconds(on_gpu(leaf(40, A::complex)), false, false); },
         17.214326092547076},
        {"gpu skipper generated",
         [=] { return gpu_sparse_seconds(on_gpu(binary_walk()), true, true); }, 2.555018159734221},
        {"gpu skipper tables",
         [=] { return gpu_sparse_seconds(on_gpu(binary_walk()), true, false); },
         2.3916969328903686},
        {"planar exact", [] { return planar_seconds(leaf(5000, A::exact)); }, 0.44424978336205567},
        {"planar band", [=] { return planar_seconds(frontier(A::double_precision, 2)); },
         0.019766691823720258},
        {"frontier exact", [=] { return frontier_seconds(frontier(A::exact, 1)); },
         1.5484697931904745},
        {"frontier complex 16", [=] { return frontier_seconds(frontier(A::complex, 16)); },
         0.73505479528406759},
        {"frontier bytes", [=] { return frontier_bytes(frontier(A::exact, 1)); }, 454500000.0},
        {"planar bytes", [] { return planar_bytes(leaf(5000, A::exact)); }, 34016543.691646591},
        {"pfaffian bytes", [] { return pfaffian_bytes(leaf(5000, A::exact)); }, 15728271.845823294},
        {"hafnian bytes", [] { return hafnian_bytes(leaf(40, A::exact)); }, 14210560.0},
        {"planning bytes", [] { return planning_bytes(1e4, 3e4); }, 24300000.0},
        {"brute force", [] { return brute_force_seconds(10); }, 0.06061490124380812},
        {"hafnian exact", [] { return hafnian_seconds(leaf(40, A::exact)); }, 0.46866746243250007},
        {"hafnian double", [] { return hafnian_seconds(leaf(22, A::double_precision)); },
         0.00053812554200000009},
        {"hafnian dd", [] { return hafnian_seconds(leaf(30, A::double_double)); },
         0.034009528160000004},
        {"hafnian complex", [] { return hafnian_seconds(leaf(30, A::complex)); },
         0.027108392240000004},
        {"gpu hafnian exact", [] { return gpu_hafnian_seconds(on_gpu(leaf(56, A::exact))); },
         2.9875494083787877},
        {"gpu hafnian double",
         [] { return gpu_hafnian_seconds(on_gpu(leaf(56, A::double_precision))); },
         3.8511514022332016},
        {"gpu hafnian complex", [] { return gpu_hafnian_seconds(on_gpu(leaf(40, A::complex))); },
         0.19153276931818181},
        {"pfaffian exact", [] { return pfaffian_seconds(leaf(10000, A::exact)); },
         0.34247120503306988},
        {"surface exact", [] { return surface_pfaffian_seconds(leaf(4096, A::exact), 4); },
         0.37268197658719154},
        {"surface complex", [] { return surface_pfaffian_seconds(leaf(4096, A::complex), 16); },
         2.3508102399999999},
        // Around the thresholds of run_chunks (threads), the session (ranks) and the hafnian walk.
        {"ryser 18 threads", [] { return ryser_seconds(leaf(18, A::double_precision)); },
         0.0026680672768},
        {"ryser 19 threads", [] { return ryser_seconds(leaf(19, A::double_precision)); },
         0.0027877851648},
        {"ryser 20 ranks", [] { return ryser_seconds(on_two_ranks(leaf(20, A::exact))); },
         0.0029383967232},
        {"ryser 21 ranks", [] { return ryser_seconds(on_two_ranks(leaf(21, A::exact))); },
         0.0029383967232},
        {"hafnian 24 threads", [] { return hafnian_seconds(leaf(24, A::double_precision)); },
         0.00064715149099999999},
        {"hafnian bytes 22", [] { return hafnian_bytes(leaf(22, A::double_precision)); }, 84304.0},
        {"hafnian bytes 24", [] { return hafnian_bytes(leaf(24, A::double_precision)); }, 237120.0},
        {"hafnian 38 ranks", [] { return hafnian_seconds(on_two_ranks(leaf(38, A::complex))); },
         0.70560018789700019},
        {"hafnian 40 ranks", [] { return hafnian_seconds(on_two_ranks(leaf(40, A::complex))); },
         0.78367996491250014},
        {"gpu hafnian 38 ranks",
         [] { return gpu_hafnian_seconds(on_two_ranks(leaf(38, A::double_precision))); },
         0.15328023347167324},
        {"gpu hafnian 40 ranks",
         [] { return gpu_hafnian_seconds(on_two_ranks(leaf(40, A::double_precision))); },
         0.15364322537878788},
        {"pairings", [] { return pairings_seconds(14); }, 0.0021621600000000002},
        {"frontier width that matters", [] { return double(frontier_width_that_matters(1 << 20)); },
         112.0},
        {"gpu fp64 rate sm80",
         [] {
             DeviceInfo d;
             d.compute_major = 8;
             d.multiprocessors = 108;
             return gpu_fp64_rate(d);
         },
         9720000000000.0},
    };
}

// A relative 1e-12 rather than bit equality: the same formulas may contract into FMAs
// differently with another compiler or instruction set; a changed rate moves a prediction by far
// more.
TEST(CostModel, PredictionsPinned) {
    const DeferredProbe no_probe;
    for (const Pinned& p : pinned_predictions()) {
        const double got = p.predict();
        EXPECT_NEAR(got, p.expected, 1e-12 * std::fabs(p.expected)) << p.name;
    }
}

}  // namespace
}  // namespace pmcount::plan
