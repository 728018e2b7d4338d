// Dense Ryser engines (library-internal API; count.hpp is the public entry).
#pragma once

#include <complex>
#include <cstdint>
#include <string>

#include "exact/outcome.hpp"
#include "pmcount/matrix.hpp"
#include "pmcount/options.hpp"
#include "run/chunked_run.hpp"

namespace pmcount::exact {

/// Exact perm(A) for a square integer matrix, n ≤ 64: enough 62-bit primes for a proven bound
/// on |perm(A)| plus one spare, CRT into a big integer, and a check of the result against the
/// spare residue (InternalError on mismatch). `binary` enables Brégman's bound.
ExactOutcome ryser_exact(const DenseMatrix<std::int64_t>& a, bool binary,
                         const run::EngineRun& run);

/// How ryser_exact (and the sparse engines) multiply the y_i of an integer matrix, fastest
/// first: exact 128-bit products of 4 lanes (no modular work per term), 4 or 8 exact lanes
/// reduced modulo every prime, or one modular pass per prime. Chosen from the row norms
/// (ryser_driver.hpp); the cost model needs it.
enum class ExactProducts { compact, lanes4, lanes8, modular };
ExactProducts exact_products(const DenseMatrix<std::int64_t>& a);

/// perm(A) mod p, for an odd prime p < 2^62, with the general modular arithmetic.
std::uint64_t ryser_modular(const DenseMatrix<std::int64_t>& a, std::uint64_t p,
                            const run::EngineRun& run);

/// perm(A) of a real matrix in double (compensated) or double-double precision.
FloatOutcome ryser_real(const DenseMatrix<double>& a, Precision precision,
                        const run::EngineRun& run);
/// perm(A) of a complex matrix in double precision.
FloatOutcome ryser_complex(const DenseMatrix<std::complex<double>>& a, const run::EngineRun& run);

}  // namespace pmcount::exact
