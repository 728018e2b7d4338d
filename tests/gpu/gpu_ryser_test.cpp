// The GPU dense engine against the CPU engines (ctest label gpu). Every test skips cleanly when
// this build has no CUDA backend or no GPU is visible.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <string>

#include "exact/ryser/ryser.hpp"
#include "exact/ryser/ryser_gpu.hpp"
#include "numeric/cpp_int_bridge.hpp"
#include "pmcount/count.hpp"
#include "support/cancelling_matrices.hpp"
#include "support/closed_forms.hpp"
#include "support/random_matrices.hpp"
#include "support/scoped_env.hpp"

namespace pmcount::exact {
namespace {

#define SKIP_WITHOUT_GPU()                                                         \
    if (!gpu_available()) {                                                       \
        GTEST_SKIP() << "no GPU visible (or a build without CUDA): GPU tests skipped"; \
    }

double value(const FloatOutcome& o) { return std::ldexp(o.mantissa.real(), static_cast<int>(o.exponent2)); }
double error_bound(const FloatOutcome& o) {
    return std::ldexp(o.abs_error_mantissa, static_cast<int>(o.exponent2));
}

TEST(GpuRyser, ExactModularMatchesTheCpuOnRandomBinaryAndIntegerMatrices) {
    SKIP_WITHOUT_GPU();
    for (std::uint64_t seed = 0; seed < 24; ++seed) {
        const int n = 2 + static_cast<int>(seed % 29);  // 2..30
        const bool binary = seed % 2 == 0;
        const auto a = binary ? test::random_binary(n, 0.6, seed) : test::random_integer(n, -5, 5, 0.8, seed);
        if (!gpu_exact_fits(a, binary)) {
            continue;
        }
        const ExactOutcome gpu = ryser_exact_gpu(a, binary, {});
        EXPECT_EQ(gpu.value, ryser_exact(a, binary, {}).value) << "seed " << seed << " n " << n;
        if (gpu.arithmetic.rfind("none", 0) != 0) {  // a zero row or column needs no GPU
            EXPECT_NE(gpu.where.device.find("GPU"), std::string::npos) << gpu.where.device;
        }
    }
}

TEST(GpuRyser, EveryFloatingArithmeticAgreesWithTheCpu) {
    SKIP_WITHOUT_GPU();
    for (std::uint64_t seed = 0; seed < 12; ++seed) {
        const int n = 6 + static_cast<int>(seed * 2);  // 6..28
        const auto a = test::random_real(n, seed % 2 == 0 ? 0.0 : -1.0, 1.0, 1.0, 100 + seed);
        const FloatOutcome cpu = ryser_real(a, Precision::double_double, {});
        for (const Precision p :
             {Precision::double_precision, Precision::double_plain, Precision::double_double}) {
            const FloatOutcome gpu = ryser_real_gpu(a, p, {});
            EXPECT_LE(std::fabs(value(gpu) - value(cpu)), error_bound(gpu) + error_bound(cpu))
                << to_string(p) << " seed " << seed << " n " << n;
        }
        const auto c = test::random_complex(n, 1.0, 200 + seed);
        const FloatOutcome cpu_c = ryser_complex(c, {});
        const FloatOutcome gpu_c = ryser_complex_gpu(c, {});
        ASSERT_EQ(cpu_c.exponent2, gpu_c.exponent2);
        EXPECT_LE(std::abs(gpu_c.mantissa - cpu_c.mantissa),
                  gpu_c.abs_error_mantissa + cpu_c.abs_error_mantissa)
            << "complex seed " << seed;
    }
}

TEST(GpuRyser, ResultDoesNotDependOnTheSchedule) {
    SKIP_WITHOUT_GPU();
    // Warps take groups dynamically and GPUs take batches dynamically, but every group and
    // segment is reduced in a fixed order: repeated runs, and two queues on one GPU (two host
    // threads sharing the batches, as two GPUs would), give bit-identical sums.
    const auto a = test::random_real(30, 0.0, 1.0, 1.0, 7);
    const FloatOutcome one = ryser_real_gpu(a, Precision::double_precision, {});
    const FloatOutcome again = ryser_real_gpu(a, Precision::double_precision, {});
    run::EngineRun two_queues;
    two_queues.gpus = {0, 0};
    const FloatOutcome two = ryser_real_gpu(a, Precision::double_precision, two_queues);
    EXPECT_EQ(one.mantissa, again.mantissa);
    EXPECT_EQ(one.mantissa, two.mantissa);
    EXPECT_NE(two.where.device.find(" 0 ("), two.where.device.rfind(" 0 (")) << two.where.device;  // two queues
    const auto b = test::random_binary(30, 0.7, 3);
    EXPECT_EQ(ryser_exact_gpu(b, true, two_queues).value, ryser_exact(b, true, {}).value);
}

/// PMCOUNT_GPU_SHAPE for one scope.
struct ShapeOverride : test::ScopedEnv {
    explicit ShapeOverride(const char* shape) : ScopedEnv("PMCOUNT_GPU_SHAPE", shape) {}
};

TEST(GpuRyser, EveryKernelShapeGivesTheSameAnswer) {
    SKIP_WITHOUT_GPU();
    // The shape (unrolled columns M, blocks per SM, fused top product) is chosen once on the
    // host and is a template argument of the kernel: any M from 1 to 6, with or without fusion,
    // must agree with the CPU (an M the host and kernel disagreed on read a column never passed).
    const auto a = test::random_real(23, -1.0, 1.0, 1.0, 11);
    const FloatOutcome cpu = ryser_real(a, Precision::double_double, {});
    for (const char* shape : {"1,1,0", "2,1,1", "3,2,0", "4,1,1", "5,1,0", "6,1,1"}) {
        const ShapeOverride override(shape);
        for (const Precision p : {Precision::double_plain, Precision::double_precision}) {
            const FloatOutcome gpu = ryser_real_gpu(a, p, {});
            EXPECT_LE(std::fabs(value(gpu) - value(cpu)), error_bound(gpu) + error_bound(cpu))
                << shape << " " << to_string(p);
        }
    }
    const auto b = test::random_binary(22, 0.6, 5);
    const ShapeOverride override("3,1,0");
    EXPECT_EQ(ryser_exact_gpu(b, true, {}).value, ryser_exact(b, true, {}).value);
}

TEST(GpuRyser, MalformedShapeOverrideIsAnError) {
    SKIP_WITHOUT_GPU();
    const auto a = test::random_real(12, 0.0, 1.0, 1.0, 1);
    test::expect_refused("PMCOUNT_GPU_SHAPE", {"4", "0,1,0", "3,1,2", "7,1,0", "3,1,0,", "x"},
                         [&] { ryser_real_gpu(a, Precision::double_plain, {}); });
}

TEST(GpuRyser, AllOnesOfOrder40) {
    SKIP_WITHOUT_GPU();
    // perm(J_40) = 40!, after cancellation of terms up to 10^4 times larger. Plain double
    // products alone leave 2.7e-11 relative error (an exact simulation over the 40 distinct
    // terms, docs/gpu.md); the compensated mode's error-free top products and sums reach 1e-11.
    const DenseMatrix<double> j(40, 40, 1.0);
    const double exact = static_cast<double>(test::factorial(40));
    const FloatOutcome compensated = ryser_real_gpu(j, Precision::double_precision, {});
    const double error = std::fabs(value(compensated) - exact) / exact;
    EXPECT_LE(error, 1e-11) << "relative error " << error;
    EXPECT_LE(std::fabs(value(compensated) - exact), error_bound(compensated));
}

TEST(GpuRyser, CertifiedIntervalHoldsTheExactPermanentOfCancellingMatrices) {
    SKIP_WITHOUT_GPU();
    // As the CPU's certified test (tests/unit/exact/certified_test.cpp): matrices of 46–50-bit
    // entries whose rows or permanent cancel, the interval checked in exact rational arithmetic
    // against the exact engine's count of the integer copy. The GPU recomputes y every 2^8 steps
    // (the CPU every 2^6), so its bound may be a few times the CPU's, not more.
    double worst_ratio = 0;
    for (std::uint64_t seed = 0; seed < 60; ++seed) {
        const int n = 6 + static_cast<int>(seed % 11);  // 6 … 16
        const DenseMatrix<std::int64_t> m = seed % 2 == 0
                                                ? test::nearly_singular_matrix(n, 7000 + seed)
                                                : test::cancelling_matrix(n, 8000 + seed);
        const BigInt exact = test::exact_permanent(m);
        const DenseMatrix<double> a = test::scaled_copy(m);
        const FloatOutcome gpu = ryser_real_gpu(a, Precision::certified, {});
        const FloatOutcome cpu = ryser_real(a, Precision::certified, {});
        EXPECT_EQ(gpu.arithmetic, "double, certified error bound");
        EXPECT_TRUE(test::holds(exact, n, value(gpu), error_bound(gpu)))
            << "seed " << seed << " n " << n << ": " << value(gpu) << " ± " << error_bound(gpu)
            << ", exact " << exact.to_string() << " · 2^-" << test::kEntryBits * n;
        ASSERT_GT(error_bound(cpu), 0);
        worst_ratio = std::max(worst_ratio, error_bound(gpu) / error_bound(cpu));
    }
    EXPECT_LT(worst_ratio, 8.0) << "GPU bound / CPU bound";
    std::cout << "[ certified ] GPU bound / CPU bound, worst of 60: " << worst_ratio << "\n";
}

TEST(GpuRyser, EveryFloatingModeHoldsItsFigureOnAThousandCancellingMatrices) {
    SKIP_WITHOUT_GPU();
    // Issue 32 on the GPU: the five families of tests/unit/exact/walk_error_test.cpp (orders 5–14
    // and 18–20), every floating mode of the dense engine, the SpaRyser walk on the sparse
    // family, the complex engine on the complex one, each held to its figure exactly.
    int checked = 0, misses = 0;
    auto check = [&](const FloatOutcome& o, const test::cpp_int& truth, int scale,
                     const std::string& what) {
        ++checked;
        if (!test::within(truth, scale, value(o), error_bound(o))) {
            ++misses;
            ADD_FAILURE() << what << ": " << value(o) << " ± " << error_bound(o) << " ("
                          << o.arithmetic << "), exact " << truth.str() << " · 2^-" << scale;
        }
    };
    for (std::uint64_t seed = 0; seed < 200; ++seed) {
        const int n = seed % 10 == 9 ? 18 + static_cast<int>(seed / 10 % 3)
                                     : 5 + static_cast<int>(seed % 10);
        const test::Scaled families[4] = {
            test::plus_minus_matrix(n, seed),
            {test::cancelling_matrix(n, 100 + seed), test::kEntryBits},
            {test::nearly_singular_matrix(std::min(n, 14), 300 + seed), test::kEntryBits},
            test::sparse_cancelling_matrix(n, 500 + seed)};
        for (int f = 0; f < 4; ++f) {
            const test::Scaled& s = families[f];
            const int order = s.m.rows();
            const test::cpp_int truth(test::exact_permanent(s.m).to_string());
            const DenseMatrix<double> a = test::to_doubles(s);
            const std::string what = "family " + std::to_string(f) + " seed " +
                                     std::to_string(seed) + " n " + std::to_string(order);
            for (const Precision p : {Precision::double_precision, Precision::double_plain,
                                      Precision::double_double, Precision::certified}) {
                check(ryser_real_gpu(a, p, {}), truth, s.shift * order,
                      what + " " + to_string(p));
            }
            if (f == 3) {
                check(sparse_ryser_real_gpu(a, Precision::double_precision,
                                            SparseVariant::sparyser, GpuKernelCode::tables, {}),
                      truth, s.shift * order, what + " SpaRyser");
            }
        }
        const int m = std::min(n, seed % 10 == 9 ? 14 : 12);
        const DenseMatrix<std::int64_t> re = test::cancelling_matrix(m, 700 + seed);
        const DenseMatrix<std::int64_t> im = test::cancelling_matrix(m, 8477 + seed);
        const auto [truth_re, truth_im] = test::gaussian_permanent(re, im);
        DenseMatrix<std::complex<double>> c(m, m);
        for (int i = 0; i < m; ++i) {
            for (int j = 0; j < m; ++j) {
                c(i, j) = {std::ldexp(static_cast<double>(re(i, j)), -test::kEntryBits),
                           std::ldexp(static_cast<double>(im(i, j)), -test::kEntryBits)};
            }
        }
        const FloatOutcome o = ryser_complex_gpu(c, {});
        const double scale = std::ldexp(1.0, static_cast<int>(o.exponent2));
        const double error = o.abs_error_mantissa * scale;
        ++checked;
        if (!test::within(truth_re, test::kEntryBits * m, o.mantissa.real() * scale, error) ||
            !test::within(truth_im, test::kEntryBits * m, o.mantissa.imag() * scale, error)) {
            ++misses;
            ADD_FAILURE() << "complex seed " << seed << " n " << m << ": " << o.mantissa * scale
                          << " ± " << error;
        }
    }
    std::cout << "[ figures ] " << checked << " GPU results on 1000 matrices, " << misses
              << " outside their figure\n";
    EXPECT_EQ(misses, 0);
}

TEST(GpuRyser, CertifiedIntervalHoldsFortyFactorial) {
    SKIP_WITHOUT_GPU();
    // perm(J_40) = 40!, every term ± and up to 10^4 times the result: the interval must hold it
    // and stay narrow (3.4e-6 of the value on the H100; a bound is wider than the compensated
    // estimate, ~1e-11, since it charges every term its worst case).
    const DenseMatrix<double> j(40, 40, 1.0);
    const double exact = static_cast<double>(test::factorial(40));  // within u·40! of 40!
    const FloatOutcome certified = ryser_real_gpu(j, Precision::certified, {});
    EXPECT_LE(std::fabs(value(certified) - exact) + 0x1p-52 * exact, error_bound(certified));
    EXPECT_LT(error_bound(certified), 1e-4 * exact);
    // Through the public API: the planner takes the GPU for a certified count when asked.
    CountOptions options;
    options.backend = Backend::cuda;
    options.precision = Precision::certified;
    const CountResult r = permanent(test::random_real(24, -1.0, 1.0, 1.0, 5), options);
    EXPECT_EQ(r.error_kind, "bound");
    EXPECT_EQ(r.backend, "cuda");
    const FloatOutcome cpu =
        ryser_real(test::random_real(24, -1.0, 1.0, 1.0, 5), Precision::double_double, {});
    EXPECT_LE(std::fabs(r.value - value(cpu)), r.abs_error + error_bound(cpu));
}

TEST(GpuRyser, PublicApiRunsOnTheGpuWhenAsked) {
    SKIP_WITHOUT_GPU();
    CountOptions options;
    options.backend = Backend::cuda;
    const CountResult r = permanent(test::all_ones(22), options);
    EXPECT_TRUE(r.is_exact);
    EXPECT_EQ(r.exact.to_string(), test::factorial(22).str());
    EXPECT_EQ(r.backend, "cuda");
    EXPECT_NE(r.device.find("GPU 0"), std::string::npos) << r.device;
}

}  // namespace
}  // namespace pmcount::exact
