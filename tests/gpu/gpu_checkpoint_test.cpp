// The GPU Ryser engines (dense, SpaRyser walk, SkipPer's 0-1 path; table and generated kernels)
// and the GPU hafnian through the count's session (ctest label gpu): a count stopped by
// request_stop() and resumed from its checkpoint gives the uninterrupted value, bit for bit for
// floating ones, having loaded the finished units instead of computing them. Skips cleanly without
// a GPU.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "exact/ryser/ryser_gpu.hpp"
#include "pmcount/count.hpp"
#include "pmcount/error.hpp"
#include "support/general_graphs.hpp"
#include "support/random_matrices.hpp"
#include "support/scratch.hpp"

namespace pmcount {
namespace {

namespace fs = std::filesystem;

class GpuCheckpoints : public test::ScratchDirectoryTest {
protected:
    GpuCheckpoints() : ScratchDirectoryTest("pmcount_gpu_run_") {}
    void SetUp() override {
        if (!exact::gpu_available()) {
            GTEST_SKIP() << "no GPU visible (or a build without CUDA): GPU tests skipped";
        }
        ScratchDirectoryTest::SetUp();
    }

    /// One leaf on the GPU with `method` and `kernels`: no structure pass in the way.
    static CountOptions on_gpu(Method method, GpuKernels kernels, Precision precision) {
        CountOptions options;
        options.backend = Backend::cuda;
        options.method = method;
        options.gpu_kernels = kernels;
        options.precision = precision;
        options.dulmage_mendelsohn = false;
        options.reductions = false;
        return options;
    }

    /// Counts with a checkpoint, stopped once `stop_at` of the run is done, then resumed; checks
    /// that the stop happened and that the resumed run loaded finished units.
    template <class Count>
    CountResult interrupted_and_resumed(const Count& count, CountOptions options,
                                        const std::string& name) {
        options.checkpoint = (dir_ / (name + ".ckpt")).string();
        CountOptions stopping = options;
        stopping.progress_interval_s = 0;
        stopping.progress = [](const Progress& p) {
            if (p.fraction >= 0.3) {
                request_stop();
            }
        };
        EXPECT_THROW(count(stopping), Interrupted) << name;
        EXPECT_TRUE(fs::exists(options.checkpoint)) << name;
        options.resume = true;
        const CountResult resumed = count(options);
        EXPECT_GT(resumed.stats.resumed_chunks, 0U) << name;
        return resumed;
    }
};

TEST_F(GpuCheckpoints, ExactEnginesResumeToTheUninterruptedCount) {
    // Orders where the range has many units and several batches (2^35 steps and more).
    const auto dense = test::random_binary_with_matching(36, 0.5, 41);
    const auto sparse = test::random_binary_with_matching(40, 0.15, 42);
    struct Case {
        const DenseMatrix<std::int64_t>* a;
        Method method;
        GpuKernels kernels;
        const char* name;
    };
    for (const Case& c : {Case{&dense, Method::ryser, GpuKernels::tables, "ryser-gpu"},
                          Case{&sparse, Method::skipper, GpuKernels::tables, "skipper-gpu"},
                          Case{&sparse, Method::skipper, GpuKernels::generated, "skipper-gen"},
                          Case{&sparse, Method::sparyser, GpuKernels::tables, "sparyser-gpu"}}) {
        const CountOptions options = on_gpu(c.method, c.kernels, Precision::exact);
        auto count = [&](const CountOptions& o) { return permanent(*c.a, o); };
        const CountResult plain = count(options);
        const CountResult resumed = interrupted_and_resumed(count, options, c.name);
        EXPECT_EQ(resumed.exact.to_string(), plain.exact.to_string()) << c.name;
        EXPECT_EQ(resumed.structure.leaves.at(0).engine, plain.structure.leaves.at(0).engine);
        EXPECT_NE(plain.structure.leaves.at(0).engine.find("gpu"), std::string::npos) << c.name;
    }
}

TEST_F(GpuCheckpoints, FloatingEnginesResumeBitForBit) {
    const auto dense = test::random_real(36, -1, 1, 0.7, 43);
    const auto sparse = test::random_real(38, -1, 1, 0.15, 44);
    for (const Precision precision : {Precision::double_precision, Precision::double_double}) {
        for (const auto& [a, method, kernels] :
             {std::tuple{&dense, Method::ryser, GpuKernels::tables},
              std::tuple{&sparse, Method::sparyser, GpuKernels::tables},
              std::tuple{&sparse, Method::sparyser, GpuKernels::generated}}) {
            const CountOptions options = on_gpu(method, kernels, precision);
            const std::string name = std::string(to_string(method)) + "-" +
                                     (kernels == GpuKernels::tables ? "tables" : "generated") +
                                     "-" + std::string(to_string(precision));
            auto count = [a = a](const CountOptions& o) { return permanent(*a, o); };
            const CountResult plain = count(options);
            const CountResult resumed = interrupted_and_resumed(count, options, name);
            EXPECT_EQ(resumed.mantissa, plain.mantissa) << name;
            EXPECT_EQ(resumed.exponent2, plain.exponent2) << name;
            EXPECT_EQ(resumed.abs_error, plain.abs_error) << name;
        }
    }
}

TEST_F(GpuCheckpoints, TheHafnianResumesToTheUninterruptedValue) {
    // Order 48: 128 subtree roots per prime, 8 batches each; exact (several primes in one loop)
    // and double (bit for bit).
    const auto a = test::random_symmetric_integer(48, 0.5, 1, 1, 45);
    const auto r = test::random_symmetric_float<double>(48, 0.0, 1.0, 46);
    for (const Precision precision : {Precision::exact, Precision::double_precision}) {
        const CountOptions options = on_gpu(Method::hafnian, GpuKernels::automatic, precision);
        const std::string name = "hafnian-" + std::string(to_string(precision));
        auto count = [&](const CountOptions& o) {
            return precision == Precision::exact ? hafnian(a, o) : hafnian(r, o);
        };
        const CountResult plain = count(options);
        EXPECT_EQ(plain.method, "hafnian-gpu") << name;
        const CountResult resumed = interrupted_and_resumed(count, options, name);
        EXPECT_EQ(resumed.method, "hafnian-gpu") << name;
        EXPECT_EQ(resumed.exact.to_string(), plain.exact.to_string()) << name;
        EXPECT_EQ(resumed.mantissa, plain.mantissa) << name;
        EXPECT_EQ(resumed.exponent2, plain.exponent2) << name;
        EXPECT_EQ(resumed.abs_error, plain.abs_error) << name;
    }
}

}  // namespace
}  // namespace pmcount
