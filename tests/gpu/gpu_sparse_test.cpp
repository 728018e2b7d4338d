// The GPU sparse engines (SpaRyser walk, SkipPer's 0-1 path; table and generated kernels) against
// the CPU engines, and the generated kernels' disk cache (ctest label gpu). Every test skips
// cleanly when this build has no CUDA backend or no GPU is visible.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "exact/ryser/ryser.hpp"
#include "exact/ryser/ryser_device.hpp"
#include "exact/ryser/ryser_gpu.hpp"
#include "exact/ryser/sparse_ryser.hpp"
#include "pmcount/count.hpp"
#include "support/random_matrices.hpp"
#include "support/scoped_env.hpp"

namespace pmcount::exact {
namespace {

#define SKIP_WITHOUT_GPU()                                                             \
    if (!gpu_available()) {                                                           \
        GTEST_SKIP() << "no GPU visible (or a build without CUDA): GPU tests skipped"; \
    }

constexpr SparseVariant kVariants[] = {SparseVariant::sparyser, SparseVariant::skipper};
constexpr GpuKernelCode kCodes[] = {GpuKernelCode::tables, GpuKernelCode::generated};

const char* name(GpuKernelCode code) { return code == GpuKernelCode::tables ? "tables" : "generated"; }

double value(const FloatOutcome& o) { return std::ldexp(o.mantissa.real(), static_cast<int>(o.exponent2)); }
double error_bound(const FloatOutcome& o) {
    return std::ldexp(o.abs_error_mantissa, static_cast<int>(o.exponent2));
}

bool binary(const DenseMatrix<std::int64_t>& a) {
    for (const std::int64_t v : a.data()) {
        if (v != 0 && v != 1) {
            return false;
        }
    }
    return true;
}

/// A kernel cache directory of its own for the duration of a test.
class ScratchCache {
public:
    ScratchCache()
        : path_(std::filesystem::temp_directory_path() /
                ("pmcount-gpu-sparse-test-" + std::to_string(::getpid()))),
          env_("PMCOUNT_KERNEL_CACHE", path_.string()) {
        std::filesystem::remove_all(path_);
        backend::cuda::forget_loaded_kernels();
    }
    ~ScratchCache() {
        std::filesystem::remove_all(path_);
        backend::cuda::forget_loaded_kernels();
    }
    std::vector<std::filesystem::path> files() const {
        std::vector<std::filesystem::path> out;
        for (const auto& e : std::filesystem::directory_iterator(path_)) {
            out.push_back(e.path());
        }
        return out;
    }

private:
    std::filesystem::path path_;
    test::ScopedEnv env_;
};

// 120 seeded sparse matrices (0-1 with a planted perfect matching, and small integers; orders
// 4..27, densities 0.1..0.35): every GPU sparse engine gives the CPU's exact value.
TEST(GpuSparse, ExactMatchesTheCpuOnRandomBinaryAndIntegerMatrices) {
    SKIP_WITHOUT_GPU();
    int compared = 0;
    for (std::uint64_t seed = 0; seed < 120; ++seed) {
        const int n = 4 + static_cast<int>(seed % 24);
        const double density = 0.1 + 0.05 * static_cast<double>(seed % 6);
        const auto a = seed % 3 == 2 ? test::random_integer(n, -3, 3, density, 1000 + seed)
                                     : test::random_binary_with_matching(n, density, 1000 + seed);
        const bool is_binary = binary(a);
        if (!gpu_exact_fits(a, is_binary)) {
            continue;
        }
        const BigInt cpu = sparse_ryser_exact(a, is_binary, SparseVariant::skipper, {}).value;
        ASSERT_EQ(cpu, ryser_exact(a, is_binary, {}).value) << "seed " << seed;
        for (const SparseVariant variant : kVariants) {
            for (const GpuKernelCode code : kCodes) {
                const ExactOutcome gpu = sparse_ryser_exact_gpu(a, is_binary, variant, code, {});
                EXPECT_EQ(gpu.value, cpu) << to_string(variant) << " " << name(code) << " seed " << seed
                                          << " n " << n << " " << gpu.arithmetic;
                ++compared;
            }
        }
    }
    EXPECT_GE(compared, 4 * 100);
}

// SkipPer's 0-1 path where it skips most of the range (density 0.1, n = 30..36), against the CPU.
TEST(GpuSparse, SkipperAtDensityOneTenth) {
    SKIP_WITHOUT_GPU();
    for (std::uint64_t seed = 0; seed < 4; ++seed) {
        const int n = 30 + 2 * static_cast<int>(seed);
        const auto a = test::random_binary_with_matching(n, 0.1, 77 + seed);
        const BigInt cpu = sparse_ryser_exact(a, true, SparseVariant::skipper, {}).value;
        for (const GpuKernelCode code : kCodes) {
            const ExactOutcome gpu = sparse_ryser_exact_gpu(a, true, SparseVariant::skipper, code, {});
            EXPECT_EQ(gpu.value, cpu) << name(code) << " n " << n;
            EXPECT_NE(gpu.arithmetic.find("SkipPer 0-1 path"), std::string::npos) << gpu.arithmetic;
        }
    }
}

// Real and complex sparse matrices in every arithmetic, to the error bounds, against the CPU's
// double-double value.
TEST(GpuSparse, FloatingArithmeticsAgreeWithTheCpuWithinTheBounds) {
    SKIP_WITHOUT_GPU();
    for (std::uint64_t seed = 0; seed < 24; ++seed) {
        const int n = 6 + static_cast<int>(seed);  // 6..29
        const double density = 0.15 + 0.05 * static_cast<double>(seed % 4);
        const auto a = test::random_real(n, seed % 2 == 0 ? 0.0 : -1.0, 1.0, density, 300 + seed);
        const FloatOutcome cpu = ryser_real(a, Precision::double_double, {});
        const GpuKernelCode code = kCodes[seed % 2];
        for (const Precision p :
             {Precision::double_precision, Precision::double_plain, Precision::double_double}) {
            const FloatOutcome gpu = sparse_ryser_real_gpu(a, p, kVariants[seed / 2 % 2], code, {});
            EXPECT_LE(std::fabs(value(gpu) - value(cpu)), error_bound(gpu) + error_bound(cpu))
                << to_string(p) << " " << name(code) << " seed " << seed << " n " << n;
        }
        if (seed % 2 == 0) {
            const auto c = test::random_complex(n, density, 400 + seed);
            const FloatOutcome cpu_c = ryser_complex(c, {});
            for (const GpuKernelCode c_code : kCodes) {
                const FloatOutcome gpu_c = sparse_ryser_complex_gpu(c, SparseVariant::sparyser, c_code, {});
                ASSERT_EQ(cpu_c.exponent2, gpu_c.exponent2);
                EXPECT_LE(std::abs(gpu_c.mantissa - cpu_c.mantissa),
                          gpu_c.abs_error_mantissa + cpu_c.abs_error_mantissa)
                    << "complex " << name(c_code) << " seed " << seed;
            }
        }
    }
}

/// PMCOUNT_GPU_SPARSE_UNROLL for one scope.
struct UnrollOverride : test::ScopedEnv {
    explicit UnrollOverride(const char* m) : ScopedEnv("PMCOUNT_GPU_SPARSE_UNROLL", m) {}
};

TEST(GpuSparse, EveryWalkUnrollGivesTheSameAnswerAndAMalformedOneIsAnError) {
    SKIP_WITHOUT_GPU();
    // The walk's super-block length M is a template argument, and the generated kernel's row
    // layers depend on it (GeneratedPattern::layer): every M from 1 to 6 must agree with the
    // CPU, in both codes (the generated compensated walk's default is 6, the others' less).
    const auto a = test::random_real(18, -1.0, 1.0, 0.3, 77);
    const FloatOutcome cpu = ryser_real(a, Precision::double_double, {});
    for (const char* m : {"1", "2", "3", "4", "5", "6"}) {
        const UnrollOverride override(m);
        for (const GpuKernelCode code : kCodes) {
            const FloatOutcome gpu = sparse_ryser_real_gpu(a, Precision::double_precision,
                                                           SparseVariant::sparyser, code, {});
            EXPECT_LE(std::fabs(value(gpu) - value(cpu)), error_bound(gpu) + error_bound(cpu))
                << "M " << m << " " << name(code);
        }
    }
    test::expect_refused("PMCOUNT_GPU_SPARSE_UNROLL", {"0", "7", "3,", "x", "-1"}, [&] {
        sparse_ryser_real_gpu(a, Precision::double_precision, SparseVariant::sparyser,
                              GpuKernelCode::generated, {});
    });
}

TEST(GpuSparse, EveryBatchDivisorGivesTheSameBitsAndAMalformedOneIsAnError) {
    SKIP_WITHOUT_GPU();
    // Batches are whole units and units are merged in order, so how many units a batch takes
    // (PMCOUNT_GPU_BATCH_DIVISOR, else two per GPU) never changes a bit: exact SkipPer and a
    // floating walk at orders with many units and several batches.
    const auto b = test::random_binary_with_matching(36, 0.12, 61);
    const auto r = test::random_real(34, -1.0, 1.0, 0.2, 62);
    auto counts = [&] {
        return std::pair{
            sparse_ryser_exact_gpu(b, true, SparseVariant::skipper, GpuKernelCode::generated, {})
                .value.to_string(),
            sparse_ryser_real_gpu(r, Precision::double_precision, SparseVariant::sparyser,
                                  GpuKernelCode::tables, {})
                .mantissa};
    };
    const auto reference = counts();
    for (const char* d : {"1", "3", "16", "64"}) {
        const test::ScopedEnv divisor("PMCOUNT_GPU_BATCH_DIVISOR", d);
        EXPECT_EQ(counts(), reference) << "divisor " << d;
    }
    test::expect_refused("PMCOUNT_GPU_BATCH_DIVISOR", {"0", "65", "2x", "x", "-1"}, counts);
}

// Repeated runs and two queues on one GPU (as two GPUs would) give the same bits; table and
// generated kernels (which multiply in another order: partial products) agree within their
// bounds, and exactly in modular arithmetic.
TEST(GpuSparse, ResultDoesNotDependOnTheSchedule) {
    SKIP_WITHOUT_GPU();
    const auto a = test::random_real(26, 0.0, 1.0, 0.2, 9);
    run::EngineRun two_queues;
    two_queues.gpus = {0, 0};
    for (const GpuKernelCode code : kCodes) {
        const FloatOutcome one =
            sparse_ryser_real_gpu(a, Precision::double_precision, SparseVariant::sparyser, code, {});
        const FloatOutcome again =
            sparse_ryser_real_gpu(a, Precision::double_precision, SparseVariant::sparyser, code, {});
        const FloatOutcome two =
            sparse_ryser_real_gpu(a, Precision::double_precision, SparseVariant::sparyser, code, two_queues);
        EXPECT_EQ(one.mantissa, again.mantissa) << name(code);
        EXPECT_EQ(one.mantissa, two.mantissa) << name(code);
    }
    const FloatOutcome tables =
        sparse_ryser_real_gpu(a, Precision::double_precision, SparseVariant::sparyser, GpuKernelCode::tables, {});
    const FloatOutcome generated = sparse_ryser_real_gpu(a, Precision::double_precision, SparseVariant::sparyser,
                                                         GpuKernelCode::generated, {});
    EXPECT_LE(std::fabs(value(tables) - value(generated)), error_bound(tables) + error_bound(generated));
    const auto b = test::random_binary_with_matching(28, 0.15, 10);
    const BigInt one = sparse_ryser_exact_gpu(b, true, SparseVariant::skipper, GpuKernelCode::generated, {}).value;
    EXPECT_EQ(one, sparse_ryser_exact_gpu(b, true, SparseVariant::skipper, GpuKernelCode::tables, two_queues).value);
}

// The generated kernel's cache: compiled on a miss, from memory next, from disk in a new process
// (forget_loaded_kernels stands for one); a corrupted file is compiled again and rewritten, never
// loaded; generation and compile times are reported.
TEST(GpuSparse, GeneratedKernelCacheHitMissAndCorruptFiles) {
    SKIP_WITHOUT_GPU();
    const ScratchCache cache;
    const auto a = test::random_binary_with_matching(22, 0.2, 5);
    const BigInt expected = ryser_exact(a, true, {}).value;
    auto run = [&] {
        const ExactOutcome out = sparse_ryser_exact_gpu(a, true, SparseVariant::skipper, GpuKernelCode::generated, {});
        EXPECT_EQ(out.value, expected);
        return out.where;
    };
    const DeviceReport miss = run();
    EXPECT_EQ(miss.kernel_cache, "compiled");
    EXPECT_GT(miss.codegen_seconds, 0);
    EXPECT_GT(miss.compile_seconds, 0);
    EXPECT_EQ(run().kernel_cache, "memory");
    backend::cuda::forget_loaded_kernels();
    const DeviceReport hit = run();
    EXPECT_EQ(hit.kernel_cache, "disk");
    EXPECT_LT(hit.compile_seconds, miss.compile_seconds);

    // Corrupt every cache file in three ways in turn: flipped bytes in the cubin, a truncated
    // file, and garbage without a header.
    const auto files = cache.files();
    ASSERT_FALSE(files.empty());
    for (int damage = 0; damage < 3; ++damage) {
        for (const auto& file : files) {
            std::string text;
            {
                std::ifstream in(file, std::ios::binary);
                text.assign(std::istreambuf_iterator<char>(in), {});
            }
            if (damage == 0) {
                for (std::size_t k = text.size() / 2; k < text.size() / 2 + 64 && k < text.size(); ++k) {
                    text[k] = static_cast<char>(text[k] ^ 0x5a);
                }
            } else if (damage == 1) {
                text.resize(text.size() / 3);
            } else {
                text = "not a cubin\n";
            }
            std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
        }
        backend::cuda::forget_loaded_kernels();
        EXPECT_EQ(run().kernel_cache, "compiled") << "damage " << damage;
        backend::cuda::forget_loaded_kernels();
        EXPECT_EQ(run().kernel_cache, "disk") << "damage " << damage << ": the file was not rewritten";
    }
}

TEST(GpuSparse, PlannerTakesTheSparseGpuEnginesWhenAsked) {
    SKIP_WITHOUT_GPU();
    const auto a = test::random_binary_with_matching(30, 0.12, 31);
    const BigInt expected = sparse_ryser_exact(a, true, SparseVariant::skipper, {}).value;
    for (const GpuKernels kernels : {GpuKernels::tables, GpuKernels::generated}) {
        CountOptions options;
        options.backend = Backend::cuda;
        options.method = Method::skipper;
        options.gpu_kernels = kernels;
        options.dulmage_mendelsohn = false;
        options.reductions = false;
        const CountResult r = permanent(a, options);
        EXPECT_EQ(r.exact.to_string(), expected.to_string());
        ASSERT_EQ(r.structure.leaves.size(), 1U);
        EXPECT_EQ(r.structure.leaves[0].engine,
                  kernels == GpuKernels::tables ? "skipper-gpu" : "skipper-gpu-generated");
        EXPECT_GT(r.structure.leaves[0].predicted_s, 0);
        if (kernels == GpuKernels::generated) {
            EXPECT_FALSE(r.timings.kernel_cache.empty());
        }
    }
}

// A generated kernel's prediction includes NVRTC's compilation (1 s) only while the kernel cache
// lacks the kernel: after a count, in this process and (forget_loaded_kernels standing for a new
// process) from the disk, the same leaf is predicted a second faster; with the cache emptied, the
// compilation is back. Both variants, 0-1 exact (SkipPer's 0-1 kernel and the walk) and real.
TEST(GpuSparse, GeneratedPredictionsCountTheCompilationOnlyOnACacheMiss) {
    SKIP_WITHOUT_GPU();
    const auto b = test::random_binary_with_matching(30, 0.15, 47);
    // Real values on a pattern with a perfect matching (no zero row: the engine needs a kernel).
    const auto pattern = test::random_binary_with_matching(28, 0.2, 48);
    DenseMatrix<double> r(28, 28);
    for (vertex_t i = 0; i < 28; ++i) {
        for (vertex_t j = 0; j < 28; ++j) {
            r(i, j) = static_cast<double>(pattern(i, j)) * (1 + (7 * i + 3 * j) % 5) / 5.0;
        }
    }
    for (const Method method : {Method::skipper, Method::sparyser}) {
        for (const Precision precision : {Precision::exact, Precision::double_precision}) {
            const ScratchCache cache;
            CountOptions options;
            options.backend = Backend::cuda;
            options.method = method;
            options.gpu_kernels = GpuKernels::generated;
            options.precision = precision;
            options.dulmage_mendelsohn = false;
            options.reductions = false;
            const std::string name =
                std::string(to_string(method)) + " " + std::string(to_string(precision));
            auto count = [&](bool explain) {
                CountOptions o = options;
                o.explain_only = explain;
                return precision == Precision::exact ? permanent(b, o) : permanent(r, o);
            };
            const double miss = count(true).structure.predicted_s;
            const CountResult counted = count(false);
            EXPECT_EQ(counted.timings.kernel_cache, "compiled") << name;
            EXPECT_NEAR(miss - count(true).structure.predicted_s, 1.0, 1e-9) << name;
            backend::cuda::forget_loaded_kernels();
            EXPECT_NEAR(miss - count(true).structure.predicted_s, 1.0, 1e-9) << name << ", disk";
            for (const auto& file : cache.files()) {
                std::filesystem::remove(file);
            }
            backend::cuda::forget_loaded_kernels();
            EXPECT_DOUBLE_EQ(count(true).structure.predicted_s, miss) << name << ", emptied";
        }
    }
}

}  // namespace
}  // namespace pmcount::exact
