// The GPU torontonian (ctest label gpu) against the CPU walk it mirrors and the definition set by
// set: values within the figures, the tracked figures alike, failures named alike. Skips cleanly
// without a GPU (or in a build without CUDA).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>
#include <string>
#include <vector>

#include "exact/ryser/ryser_gpu.hpp"
#include "exact/torontonian/torontonian.hpp"
#include "pmcount/count.hpp"
#include "pmcount/error.hpp"
#include "support/engine_run.hpp"
#include "support/float_outcome.hpp"
#include "support/gaussian_states.hpp"

namespace pmcount::exact {
namespace {

using C = std::complex<double>;
using test::error_of;
using test::random_gamma;
using test::random_o;
using test::threads;
using test::value_of;

#define SKIP_WITHOUT_GPU()                                                             \
    if (!gpu_available()) {                                                            \
        GTEST_SKIP() << "no GPU visible (or a build without CUDA): GPU tests skipped"; \
    }

/// A real matrix or vector as complex entries (the GPU walk runs complex; real inputs too).
DenseMatrix<C> complex_of(const DenseMatrix<double>& a) {
    DenseMatrix<C> c(a.rows(), a.cols());
    for (vertex_t i = 0; i < a.rows(); ++i) {
        for (vertex_t j = 0; j < a.cols(); ++j) {
            c(i, j) = a(i, j);
        }
    }
    return c;
}

TEST(GpuTorontonian, MatchesTheCpuWalkAndTheDefinition) {
    SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(36);
    for (int trial = 0; trial < 24; ++trial) {
        const int modes = 1 + trial % 12 + (trial >= 20 ? 8 : 0);
        const bool complex = trial % 3 != 0;
        const double eps = trial % 4 == 0 ? 1e-3 : 0.2;
        const DenseMatrix<C> o = complex ? random_o<C>(rng, modes, 1.0, eps)
                                         : complex_of(random_o<double>(rng, modes, 1.0, eps));
        std::vector<C> g = random_gamma<C>(rng, 2 * modes, 0.3);
        if (!complex) {
            for (auto& x : g) {
                x = x.real();
            }
        }
        for (const bool loop : {false, true}) {
            const auto* gp = loop ? &g : nullptr;
            const FloatOutcome gpu = torontonian_gpu(o, gp, threads(1));
            const FloatOutcome cpu = torontonian(o, gp, false, threads(2));
            const FloatOutcome dd = torontonian(o, gp, true, threads(2));
            const std::string what = std::to_string(modes) + " modes, trial " +
                                     std::to_string(trial) + (loop ? ", loop" : "");
            EXPECT_LE(std::abs(value_of(gpu) - value_of(dd)), error_of(gpu) + error_of(dd)) << what;
            EXPECT_LE(error_of(gpu), 10 * std::abs(value_of(gpu) - value_of(dd)) +
                                         0x1p-50 * std::abs(value_of(dd)))
                << what;
            EXPECT_EQ(gpu.gray_steps, cpu.gray_steps) << what;
            EXPECT_FALSE(gpu.where.device.empty());
            if (modes <= 10) {
                const FloatOutcome oracle = torontonian_brute_force(o, gp);
                EXPECT_LE(std::abs(value_of(gpu) - value_of(oracle)),
                          error_of(gpu) + error_of(oracle))
                    << what;
            }
        }
    }
}

TEST(GpuTorontonian, SplittingTheChunksOverDevicesChangesNothing) {
    SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(11);
    const auto o = random_o<C>(rng, 18, 1.0, 0.1);
    run::EngineRun one = threads(1), split = threads(1);
    one.gpus = {0};
    split.gpus = {0, 0, 0};  // three ranges of chunks, one host thread each (the same GPU here)
    const FloatOutcome a = torontonian_gpu(o, static_cast<const std::vector<C>*>(nullptr), one);
    const FloatOutcome b = torontonian_gpu(o, static_cast<const std::vector<C>*>(nullptr), split);
    EXPECT_EQ(value_of(a), value_of(b));
    EXPECT_EQ(error_of(a), error_of(b));
    EXPECT_NE(b.where.device.find("3 GPUs"), std::string::npos) << b.where.device;
}

TEST(GpuTorontonian, TheEntryPointRunsItAndNamesFailures) {
    SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(7);
    const auto o = random_o<C>(rng, 14, 1.0, 0.1);
    CountOptions gpu;
    gpu.backend = Backend::cuda;
    const CountResult r = pmcount::torontonian(o, gpu);
    EXPECT_EQ(r.backend, "cuda");
    EXPECT_FALSE(r.device.empty());
    const CountResult c = pmcount::torontonian(o);
    EXPECT_LE(std::fabs(r.value - c.value), r.abs_error + c.abs_error);
    // Indefinite on modes {2, 5} together (each mode alone is fine): named as the CPU names it.
    DenseMatrix<C> bad(2 * 8, 2 * 8);
    for (int i = 0; i < 16; ++i) {
        bad(i, i) = 0.5;
    }
    bad(2, 5) = bad(5, 2) = -0.9;  // I − O has [[0.5, 0.9], [0.9, 0.5]] on the x rows of 2 and 5
    try {
        pmcount::torontonian(bad, gpu);
        FAIL() << "an indefinite I − O was accepted";
    } catch (const InvalidArgument& e) {
        EXPECT_NE(std::string(e.what()).find("modes {2, 5}"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace pmcount::exact
