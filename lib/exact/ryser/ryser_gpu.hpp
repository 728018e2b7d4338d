// Dense Ryser on GPUs (library side): builds the tables the CUDA backend walks, chooses primes,
// and assembles perm(A) with the shared Ryser driver's helpers. The kernels are in
// cuda/kernels/ryser_dense.cuh; without CUDA every function throws NotCompiled.
#pragma once

#include <complex>
#include <cstdint>
#include <string>

#include "exact/ryser/ryser.hpp"
#include "exact/ryser/sparse_ryser.hpp"
#include "pmcount/matrix.hpp"
#include "pmcount/options.hpp"
#include "run/chunked_run.hpp"

namespace pmcount::exact {

/// Whether a GPU can run dense Ryser here (built with CUDA and a device visible).
bool gpu_available() noexcept;

/// Exact perm(A) for integer matrices whose rows fit four exact lanes (each lane's product of row
/// 1-norms below 2^53) and whose bound needs at most 15 primes of 31 bits plus a spare:
/// multi-modular on the GPU, CRT on the host, checked against the spare. InvalidArgument when the
/// matrix does not fit (the CPU engines handle it).
ExactOutcome ryser_exact_gpu(const DenseMatrix<std::int64_t>& a, bool binary,
                             const run::EngineRun& run);

/// Whether ryser_exact_gpu accepts this matrix.
bool gpu_exact_fits(const DenseMatrix<std::int64_t>& a, bool binary);

/// perm(A) of a real matrix: Precision::double_precision (compensated), double_plain,
/// double_double or certified (a rigorous bound, as the CPU's certified_permanent). The
/// outcome's `device` names the GPUs and how the work was split.
FloatOutcome ryser_real_gpu(const DenseMatrix<double>& a, Precision precision,
                            const run::EngineRun& run);
FloatOutcome ryser_complex_gpu(const DenseMatrix<std::complex<double>>& a,
                               const run::EngineRun& run);

/// How the sparse GPU engines hand the matrix to the kernel (backend::cuda::GpuCode): tables in
/// shared memory, or a kernel generated for the matrix (literals, x in registers; NVRTC, cached).
enum class GpuKernelCode { tables, generated };

/// SpaRyser and SkipPer on GPUs (cuda/kernels/ryser_sparse.cuh), with the CPU engines' column
/// orders and the dense GPU engine's arithmetic (exact: the same lanes, primes and CRT;
/// floating: the same scaling and error model). SkipPer's jumps take its 0-1 path (exact
/// arithmetic on a 0-1 matrix); other matrices run the SpaRyser walk in SkipPer's column order,
/// since per-lane jumps with a y to carry would leave the lanes of a warp updating different
/// columns (the arithmetic string says which ran).
ExactOutcome sparse_ryser_exact_gpu(const DenseMatrix<std::int64_t>& a, bool binary,
                                    SparseVariant variant, GpuKernelCode code,
                                    const run::EngineRun& run);
FloatOutcome sparse_ryser_real_gpu(const DenseMatrix<double>& a, Precision precision,
                                   SparseVariant variant, GpuKernelCode code,
                                   const run::EngineRun& run);
FloatOutcome sparse_ryser_complex_gpu(const DenseMatrix<std::complex<double>>& a,
                                      SparseVariant variant, GpuKernelCode code,
                                      const run::EngineRun& run);

/// Whether the kernel sparse_ryser_*_gpu would generate for this matrix (GpuKernelCode::generated)
/// is compiled already, loaded in this process or in the disk cache, on the first of `gpus`
/// (empty: GPU 0): the planner's predictions then leave NVRTC's compilation out. True when the
/// engine needs no kernel (a zero permanent). Builds the engine's job and writes its source
/// (milliseconds at order 48); throws as the engines do.
bool sparse_generated_cached(const DenseMatrix<std::int64_t>& a, bool binary, SparseVariant variant,
                             const std::vector<int>& gpus);
bool sparse_generated_cached(const DenseMatrix<double>& a, Precision precision,
                             const std::vector<int>& gpus);
bool sparse_generated_cached(const DenseMatrix<std::complex<double>>& a,
                             const std::vector<int>& gpus);

}  // namespace pmcount::exact
