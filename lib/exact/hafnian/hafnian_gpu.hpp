// The hafnian on GPUs (library side): validation, scaling or residues and primes, and the
// assembly of haf(A) from the CUDA backend's sums (cuda/hafnian_gpu.cu, kernels in
// cuda/kernels/hafnian.cuh: Björklund's recursive algorithm, SODA 2012, Algorithm 2).
// haf(A) = Σ over the perfect matchings M of the complete graph of Π_{uv∈M} a_uv, for a symmetric
// matrix of even order (the diagonal is not used): the number of perfect matchings of a graph
// when A is its 0-1 adjacency matrix. Without CUDA every engine throws NotCompiled once the input
// has been validated.
#pragma once

#include <complex>
#include <cstdint>

#include "exact/outcome.hpp"
#include "pmcount/matrix.hpp"
#include "pmcount/options.hpp"
#include "run/chunked_run.hpp"

namespace pmcount::exact {

/// Largest order the GPU hafnian takes.
vertex_t gpu_hafnian_max_order() noexcept;

/// The number of primes hafnian_exact_gpu takes at order n for |haf| ≤ 2^bound_log2 (spare
/// included): the planner's predictions count them.
int gpu_hafnian_primes(vertex_t n, double bound_log2);

/// Multiply-adds of the recursion at order n (m = n/2): the include child of each node at level
/// c + 1 costs (c(2c−1) entries + g's update) over m coefficients, and each of the 2^(m−1) leaves
/// an m-term dot product; about 5·m²·2^m (2.1·10^13 at n = 64). The GPU also issues the m(m−1)/2
/// zero products that keep g's update in step with the entries' tasks.
std::uint64_t gpu_hafnian_multiply_adds(vertex_t n) noexcept;

/// Exact haf(A) of a symmetric integer matrix: multi-modular on the GPU (primes below
/// 2^gpu_hafnian_prime_bits(n), as many as numeric::hafnian_bound_log2 needs for the symmetric
/// residue, plus a spare that checks the result), CRT on the host. Odd order: 0; order 0: 1.
/// Throws DimensionMismatch (not square), InvalidArgument (not symmetric), ProblemTooLarge
/// (n > gpu_hafnian_max_order()), InternalError (the spare disagrees), DeviceError, NotCompiled.
ExactOutcome hafnian_exact_gpu(const DenseMatrix<std::int64_t>& a, const run::EngineRun& run);

/// haf(A) of a symmetric real matrix in double (Precision::double_precision or double_plain;
/// double_double and exact throw InvalidArgument), with the error estimate of hafnian_gpu.cpp.
/// The matrix is scaled by powers of two, D·A·D, so every entry is below 1 (exact; the scale
/// goes into exponent2). Non-finite entries throw InvalidArgument; otherwise as hafnian_exact_gpu.
FloatOutcome hafnian_real_gpu(const DenseMatrix<double>& a, Precision precision,
                              const run::EngineRun& run);

/// haf(A) of a complex symmetric (A = Aᵀ, not Hermitian) matrix in complex double.
FloatOutcome hafnian_complex_gpu(const DenseMatrix<std::complex<double>>& a,
                                 const run::EngineRun& run);

}  // namespace pmcount::exact
