// Every NVRTC program the GPU engines compile at run time, compiled for sm_90 here, where CI runs
// (NVRTC needs no GPU): a kernel source that does not compile, or a kernel name the host builds
// that matches no template, fails this test instead of a user's first GPU count. The programs
// come from the functions the engines load them with (cuda/kernel_programs.cuh). Built where the
// CUDA backend is; label unit.
#include "kernel_programs.cuh"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "nvrtc_cache.cuh"
#include "pmcount/error.hpp"

namespace pmcount::backend::cuda {
namespace {

constexpr int kMajor = 9, kMinor = 0;

/// A sparse walk job of order n with a few zeros, in `mode`'s words (pairs for complex and
/// double-double), with two primes for the modular mode.
GpuSparseJob walk_job(int n, GpuMode mode, GpuCode code) {
    GpuSparseJob job;
    job.n = n;
    job.mode = mode;
    job.code = code;
    const int words = mode == GpuMode::complex || mode == GpuMode::double_double ? 2 : 1;
    for (int i = 0; i < n * words; ++i) {
        job.base.push_back(0.5 + i);
    }
    job.col_start.push_back(0);
    for (int j = 0; j + 1 < n; ++j) {
        for (int i = 0; i < n; ++i) {
            if ((i + j) % 3 != 0) {
                job.col_row.push_back(i);
                for (int w = 0; w < words; ++w) {
                    job.col_value.push_back(2.0 + i - j + w);
                }
            }
        }
        job.col_start.push_back(static_cast<int>(job.col_row.size()));
    }
    if (mode == GpuMode::modular) {
        job.primes = {2147483629U, 2147483587U};
    }
    return job;
}

/// SkipPer's 0-1 job of order n (modular, no rows that can be zero).
GpuSparseJob binary_job(int n, GpuCode code) {
    GpuSparseJob job = walk_job(n, GpuMode::modular, code);
    job.kernel = GpuSparseKernel::skip_binary;
    for (int i = 0; i < n; ++i) {
        job.row_mask.push_back((std::uint64_t{1} << (i % (n - 1))) | 1U);
    }
    return job;
}

void expect_compiles(const KernelProgram& program) {
    try {
        EXPECT_GT(compile_program(program, kMajor, kMinor), 0U) << program.names.front();
    } catch (const Error& e) {
        ADD_FAILURE() << program.names.front() << ": " << e.what();
    }
}

TEST(KernelPrograms, DenseRyserProgramsCompileForEveryArithmetic) {
    for (const int n : {12, 40}) {
        const std::vector<KernelProgram> programs = ryser_dense_programs(n);
        EXPECT_EQ(programs.size(), 8U);
        for (const KernelProgram& p : programs) {
            expect_compiles(p);
        }
    }
}

TEST(KernelPrograms, SparseTableAndGeneratedKernelsCompile) {
    for (const GpuMode mode : {GpuMode::double_plain, GpuMode::double_compensated,
                               GpuMode::double_double, GpuMode::complex, GpuMode::modular}) {
        expect_compiles(ryser_sparse_program(walk_job(12, mode, GpuCode::tables)));
    }
    for (const GpuMode mode : {GpuMode::double_compensated, GpuMode::modular}) {
        const KernelProgram generated =
            ryser_sparse_program(walk_job(12, mode, GpuCode::generated));
        EXPECT_EQ(generated.file_name, "ryser_generated.cu");
        expect_compiles(generated);
    }
    expect_compiles(ryser_sparse_program(binary_job(12, GpuCode::tables)));
    expect_compiles(ryser_sparse_program(binary_job(12, GpuCode::generated)));
    // A malformed job is refused before any compilation.
    GpuSparseJob bad = walk_job(12, GpuMode::double_compensated, GpuCode::tables);
    bad.col_start.pop_back();
    EXPECT_THROW(ryser_sparse_program(bad), InvalidArgument);
}

TEST(KernelPrograms, HafnianProgramsCompileForEveryArithmetic) {
    // Order 12 only: the order enters the kernels as a template argument, and the three programs
    // of order 64 take NVRTC two minutes on the 2-core machine.
    for (const int n : {12}) {
        for (const GpuHafnianMode mode :
             {GpuHafnianMode::double_precision, GpuHafnianMode::complex, GpuHafnianMode::modular}) {
            const KernelProgram p = hafnian_program(n, mode);
            EXPECT_EQ(p.names.size(), 3U);
            expect_compiles(p);
        }
    }
}

TEST(KernelPrograms, ABrokenSourceFailsWithNvrtcsLog) {
    KernelProgram broken = hafnian_program(12, GpuHafnianMode::double_precision);
    broken.text += "\nnamespace pmcount_hafnian { int broken = ; }\n";
    try {
        compile_program(broken, kMajor, kMinor);
        ADD_FAILURE() << "a syntax error compiled";
    } catch (const DeviceError& e) {
        EXPECT_NE(std::string(e.what()).find("NVRTC could not compile"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("error"), std::string::npos) << e.what();
    }
    // A name the source does not define fails too.
    KernelProgram unknown = hafnian_program(12, GpuHafnianMode::complex);
    unknown.names.front() = "pmcount_hafnian::no_such_kernel<12>";
    EXPECT_THROW(compile_program(unknown, kMajor, kMinor), DeviceError);
}

}  // namespace
}  // namespace pmcount::backend::cuda
