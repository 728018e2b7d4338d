// The planar engine: permanents of matrices whose nonzero pattern is a planar bipartite graph,
// in polynomial time, as c·det(K) of a Kasteleyn-signed matrix (kasteleyn.hpp) computed by sparse
// elimination with a minimum degree order (numeric/sparse_determinant.hpp). Library-internal.
#pragma once

#include <complex>
#include <cstdint>

#include "exact/outcome.hpp"
#include "pmcount/matrix.hpp"
#include "run/chunked_run.hpp"

namespace pmcount::exact {

/// Exact perm(A) for any square integer matrix with a planar pattern: det(K) modulo enough
/// 62-bit primes for the proven bound on |perm(A)| (numeric/permanent_bound.hpp) plus a spare,
/// primes in parallel on run.threads, CRT checked against the spare. InvalidArgument when the
/// pattern of nonzeros is not planar.
ExactOutcome planar_exact(const SparseMatrix<std::int64_t>& a, const run::EngineRun& run);

/// perm(A) in double (complex double) arithmetic: one elimination with threshold pivoting, the
/// product of pivots kept as mantissa·2^exponent. The error estimate n·u·ρ·|det| (ρ: growth of
/// the entries) is the backward-error estimate of LU, not a proven forward bound.
FloatOutcome planar_real(const SparseMatrix<double>& a, const run::EngineRun& run);
FloatOutcome planar_complex(const SparseMatrix<std::complex<double>>& a, const run::EngineRun& run);

}  // namespace pmcount::exact
