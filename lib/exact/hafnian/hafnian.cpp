// The hafnian engine's drivers (hafnian.hpp): validation, the arithmetic policies of
// recursion.hpp, primes and CRT for exact results, power-of-two scaling and the error bound for
// floating ones, and the parallel walk over the recursion's subtrees.
//
// Phases of every driver: (1) validate (square, symmetric, order); odd order → 0, order 0 → 1;
// (2) exact: primes in (2^26, 2^27) for the bound plus a spare, kPrimeLanes per pass; floating:
// each vertex scaled by a power of two (exact) so that every entry is below 2 in magnitude;
// (3) run_chunks over the subtrees below the split depth, one walker per thread, the chunks'
// sums merged in chunk order (bit-identical for any number of threads); (4) CRT checked against
// the spare, or the value with its bound (and, for a signed or complex matrix, a second walk on
// |A| for the monomials' magnitudes).
#include "exact/hafnian/hafnian.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "exact/hafnian/prime_lanes.hpp"
#include "exact/hafnian/recursion.hpp"
#include "numeric/compensated.hpp"
#include "numeric/crt.hpp"
#include "numeric/double_double.hpp"
#include "numeric/permanent_bound.hpp"
#include "numeric/primes.hpp"
#include "pmcount/error.hpp"

namespace pmcount::exact {

namespace {

using hafnian::Recursion;
constexpr double kUnitRoundoff = 0x1p-53;

// ---- Floating arithmetics -----------------------------------------------------------------------

/// Leaf sums of the floating arithmetics: the signed value and Σ|leaf values|.
template <class Sum>
struct FloatLeaves {
    Sum sum{};
    double magnitude = 0;
};

class DoubleArith {
public:
    using Elem = double;
    using Wide = double;
    using Leaves = FloatLeaves<numeric::CompensatedSum>;
    static double zero() { return 0; }
    static double wide(double x) { return x; }
    static void mac(double& acc, double a, double b) { acc += a * b; }
    static double narrow(double x) { return x; }
    static void leaf(Leaves& leaves, double dot, int sign) {
        leaves.sum.add(sign > 0 ? dot : -dot);
        leaves.magnitude += std::fabs(dot);
    }
    static void merge(Leaves& into, const Leaves& from) {
        into.sum.add(from.sum);
        into.magnitude += from.magnitude;
    }
};

class DoubleDoubleArith {
public:
    using DD = numeric::DoubleDouble;
    using Elem = DD;
    using Wide = DD;
    using Leaves = FloatLeaves<DD>;
    static DD zero() { return {}; }
    static DD wide(DD x) { return x; }
    static void mac(DD& acc, DD a, DD b) { acc += a * b; }
    static DD narrow(DD x) { return x; }
    static void leaf(Leaves& leaves, DD dot, int sign) {
        leaves.sum += sign > 0 ? dot : -dot;
        leaves.magnitude += std::fabs(dot.hi);
    }
    static void merge(Leaves& into, const Leaves& from) {
        into.sum += from.sum;
        into.magnitude += from.magnitude;
    }
};

using numeric::Complex;
using numeric::ComplexSum;

class ComplexArith {
public:
    using Elem = Complex;
    using Wide = Complex;
    using Leaves = FloatLeaves<ComplexSum>;
    static Complex zero() { return {}; }
    static Complex wide(Complex x) { return x; }
    static void mac(Complex& acc, Complex a, Complex b) {
        acc.re += a.re * b.re - a.im * b.im;
        acc.im += a.re * b.im + a.im * b.re;
    }
    static Complex narrow(Complex x) { return x; }
    static void leaf(Leaves& leaves, Complex dot, int sign) {
        leaves.sum.re.add(sign > 0 ? dot.re : -dot.re);
        leaves.sum.im.add(sign > 0 ? dot.im : -dot.im);
        leaves.magnitude += std::hypot(dot.re, dot.im);
    }
    static void merge(Leaves& into, const Leaves& from) {
        into.sum.re.add(from.sum.re);
        into.sum.im.add(from.sum.im);
        into.magnitude += from.magnitude;
    }
};

// ---- The walk over the subtrees
// -------------------------------------------------------------------

/// Σ of the leaves of the recursion for the order-n matrix whose entry(i, j) (i > j) is given in
/// the arithmetic's Elem; `one` is 1 in it. One walker per thread; chunks merged in chunk order.
template <class Arith, class Entry>
typename Arith::Leaves walk(const Arith& arith, int n, typename Arith::Elem one, Entry entry,
                            const EngineRun& run) {
    const int m = n / 2;
    const int split = m - chunk_log2_for(m);
    std::vector<typename Arith::Leaves> partial(std::size_t{1} << split);
    std::vector<std::unique_ptr<Recursion<Arith>>> walkers(
        static_cast<std::size_t>(resolve_threads(run.threads)));
    const ChunkRecords records = records_of(partial);
    run_chunks(
        m, run,
        [&](std::uint64_t chunk, std::uint64_t, std::uint64_t) {
            auto& walker = walkers[static_cast<std::size_t>(omp_get_thread_num())];
            if (!walker) {
                walker = std::make_unique<Recursion<Arith>>(arith, n, one);
                walker->load_root(entry);
            }
            walker->run_chunk(chunk, split, partial[chunk]);
        },
        records);
    typename Arith::Leaves total{};
    for (const auto& p : partial) {
        arith.merge(total, p);
    }
    return total;
}

// ---- Validation and scaling
// -----------------------------------------------------------------------

template <class T>
void check_symmetric(const DenseMatrix<T>& a) {
    if (!a.is_square()) {
        throw InvalidArgument("a hafnian needs a square matrix, got " + std::to_string(a.rows()) +
                              "×" + std::to_string(a.cols()));
    }
    for (vertex_t i = 0; i < a.rows(); ++i) {
        for (vertex_t j = 0; j < i; ++j) {
            if (a(i, j) != a(j, i)) {
                throw InvalidArgument("a hafnian needs a symmetric matrix: entry (" +
                                      std::to_string(i) + ", " + std::to_string(j) +
                                      ") differs from entry (" + std::to_string(j) + ", " +
                                      std::to_string(i) + ")");
            }
        }
    }
    if (a.rows() > kMaxHafnianOrder) {
        throw ProblemTooLarge("order " + std::to_string(a.rows()) +
                              " is beyond the hafnian engine's limit of " +
                              std::to_string(kMaxHafnianOrder) + " (it would need 2^" +
                              std::to_string(a.rows() / 2) + " subsets of vertex pairs)");
    }
}

/// Vertex i is divided by 2^e_i, e_i = ⌊E_i/2⌋ with E_i the binary exponent of its largest
/// off-diagonal |entry|: every scaled entry a_ij·2^−(e_i + e_j) is below 2 in magnitude, and
/// haf(A) = 2^Σe_i · haf(scaled). False when a vertex has no nonzero entry (haf = 0).
template <class T>
bool vertex_exponents(const DenseMatrix<T>& a, std::vector<int>& exponent) {
    exponent.assign(static_cast<std::size_t>(a.rows()), 0);
    for (vertex_t i = 0; i < a.rows(); ++i) {
        double largest = 0;
        for (vertex_t j = 0; j < a.cols(); ++j) {
            if (j != i) {
                largest = std::max(largest, std::abs(a(i, j)));
            }
        }
        if (largest == 0) {
            return false;
        }
        int e = 0;
        std::frexp(largest, &e);
        exponent[static_cast<std::size_t>(i)] = e / 2;
    }
    return true;
}

FloatOutcome float_outcome(std::complex<double> value, double error, std::int64_t exponent2, int n,
                           const char* arithmetic) {
    FloatOutcome out;
    out.mantissa = value;
    out.abs_error_mantissa = error;
    out.exponent2 = exponent2;
    out.gray_steps = std::uint64_t{1} << (n / 2);
    out.arithmetic = arithmetic;
    return out;
}

/// Σ_leaves of the recursion on |A| (scaled): the magnitudes of the monomials for the error bound.
template <class T>
double monomial_magnitudes(const DenseMatrix<T>& a, const std::vector<int>& e,
                           const EngineRun& run) {
    const DoubleArith arith;
    const auto leaves = walk(
        arith, a.rows(), 1.0,
        [&](int i, int j) {
            return std::ldexp(std::abs(a(i, j)),
                              -e[static_cast<std::size_t>(i)] - e[static_cast<std::size_t>(j)]);
        },
        run);
    return leaves.magnitude;
}

/// The trivial orders (odd, 0) and a vertex without a neighbour, which need no walk.
template <class T>
bool trivial_float(const DenseMatrix<T>& a, std::vector<int>& e, const char* arithmetic,
                   FloatOutcome& out) {
    out = float_outcome(0.0, 0.0, 0, 0, arithmetic);
    out.gray_steps = 0;
    if (a.rows() == 0) {
        out.mantissa = 1.0;
        return true;
    }
    return a.rows() % 2 != 0 || !vertex_exponents(a, e);
}

}  // namespace

double hafnian_error_factor(int n) {
    const double m = n / 2;
    return 8 * m * m + 64;
}

int hafnian_primes(double bound_log2) {
    // Symmetric reconstruction needs Π p > 2·|haf| + 1; one more prime checks the result.
    return static_cast<int>(std::max(0.0, bound_log2 + 1.0) / hafnian::kLanePrimeLog2) + 2;
}

ExactOutcome hafnian_exact(const DenseMatrix<std::int64_t>& a, const EngineRun& run) {
    check_symmetric(a);
    const vertex_t n = a.rows();
    ExactOutcome out;
    out.arithmetic = "exact integers";
    if (n == 0 || n % 2 != 0) {
        out.value = n == 0 ? 1 : 0;
        return out;
    }
    bool binary = true;
    for (vertex_t i = 0; i < n; ++i) {
        for (vertex_t j = 0; j < n; ++j) {
            binary = binary && (i == j || a(i, j) == 0 || a(i, j) == 1);
        }
    }
    const double bound = numeric::hafnian_bound_log2(a, binary);
    if (std::isinf(bound)) {
        out.value = 0;
        out.arithmetic = "none (a vertex without a neighbour)";
        return out;
    }
    const auto count = static_cast<std::size_t>(hafnian_primes(bound));
    const std::vector<std::uint64_t> primes =
        numeric::largest_primes_below(hafnian::kLanePrimeBits, count);
    const std::size_t passes = (count + hafnian::kPrimeLanes - 1) / hafnian::kPrimeLanes;
    std::vector<std::uint64_t> residues;
    for (std::size_t pass = 0; pass < passes; ++pass) {
        // Lanes past the last prime repeat it: the extra residues are dropped.
        std::vector<std::uint64_t> lane_primes;
        for (int l = 0; l < hafnian::kPrimeLanes; ++l) {
            lane_primes.push_back(primes[std::min(
                count - 1, pass * hafnian::kPrimeLanes + static_cast<std::size_t>(l))]);
        }
        const hafnian::PrimeLanes arith(lane_primes);
        const auto leaves = walk(
            arith, n, arith.from_integer(1, lane_primes),
            [&](int i, int j) { return arith.from_integer(a(i, j), lane_primes); },
            pass_run(run, pass, passes));
        const std::vector<std::uint64_t> r = arith.residues(leaves);
        for (int l = 0; l < hafnian::kPrimeLanes && residues.size() < count; ++l) {
            residues.push_back(r[static_cast<std::size_t>(l)]);
        }
    }
    out.primes = static_cast<int>(count);
    out.gray_steps = (std::uint64_t{1} << (n / 2)) * passes;
    out.arithmetic = "modular, " + std::to_string(hafnian::kPrimeLanes) + " primes per pass (" +
                     std::to_string(count) + " primes of 27 bits, one spare) + CRT";
    out.value = numeric::crt_with_spare(residues, primes, "hafnian");
    return out;
}

std::uint64_t hafnian_modular(const DenseMatrix<std::int64_t>& a, std::uint64_t p,
                              const EngineRun& run) {
    check_symmetric(a);
    if (p <= (std::uint64_t{1} << 26) || p >= (std::uint64_t{1} << 27) || !numeric::is_prime(p)) {
        throw InvalidArgument("hafnian_modular needs a prime between 2^26 and 2^27");
    }
    const vertex_t n = a.rows();
    if (n == 0 || n % 2 != 0) {
        return n == 0 ? 1 : 0;
    }
    const std::vector<std::uint64_t> lane_primes(hafnian::kPrimeLanes, p);
    const hafnian::PrimeLanes arith(lane_primes);
    const auto leaves = walk(
        arith, n, arith.from_integer(1, lane_primes),
        [&](int i, int j) { return arith.from_integer(a(i, j), lane_primes); }, run);
    return arith.residues(leaves)[0];
}

FloatOutcome hafnian_real(const DenseMatrix<double>& a, Precision precision, const EngineRun& run) {
    check_symmetric(a);
    const bool dd = precision == Precision::double_double;
    const char* arithmetic = dd ? "double-double" : "double, compensated leaf sum";
    std::vector<int> e;
    FloatOutcome out;
    if (trivial_float(a, e, arithmetic, out)) {
        return out;
    }
    const vertex_t n = a.rows();
    auto scaled = [&](int i, int j) {
        return std::ldexp(a(i, j),
                          -e[static_cast<std::size_t>(i)] - e[static_cast<std::size_t>(j)]);
    };
    bool nonnegative = true;
    for (const double v : a.data()) {
        nonnegative = nonnegative && v >= 0;
    }
    const std::int64_t exponent2 = std::accumulate(e.begin(), e.end(), std::int64_t{0});
    const double factor = hafnian_error_factor(n);
    // A signed matrix's monomials cancel inside the leaves: their magnitudes come from |A|.
    if (dd) {
        using DD = numeric::DoubleDouble;
        const auto leaves = walk(
            DoubleDoubleArith{}, n, DD{1.0}, [&](int i, int j) { return DD{scaled(i, j)}; },
            pass_run(run, 0, nonnegative ? 1 : 2));
        const double magnitude =
            nonnegative ? leaves.magnitude : monomial_magnitudes(a, e, pass_run(run, 1, 2));
        // Double-double products and sums round to about 4u² relative.
        const double value = leaves.sum.to_double();
        return float_outcome(value,
                             factor * 4 * kUnitRoundoff * kUnitRoundoff * magnitude +
                                 kUnitRoundoff * std::fabs(value),
                             exponent2, n, arithmetic);
    }
    const auto leaves = walk(DoubleArith{}, n, 1.0, scaled, pass_run(run, 0, nonnegative ? 1 : 2));
    const double magnitude =
        nonnegative ? leaves.magnitude : monomial_magnitudes(a, e, pass_run(run, 1, 2));
    const double value = leaves.sum.value();
    return float_outcome(value,
                         factor * kUnitRoundoff * magnitude + kUnitRoundoff * std::fabs(value),
                         exponent2, n, arithmetic);
}

FloatOutcome hafnian_complex(const DenseMatrix<std::complex<double>>& a, const EngineRun& run) {
    check_symmetric(a);
    const char* arithmetic = "complex double, compensated leaf sum";
    std::vector<int> e;
    FloatOutcome out;
    if (trivial_float(a, e, arithmetic, out)) {
        return out;
    }
    const vertex_t n = a.rows();
    const std::int64_t exponent2 = std::accumulate(e.begin(), e.end(), std::int64_t{0});
    const auto leaves = walk(
        ComplexArith{}, n, Complex{1.0, 0.0},
        [&](int i, int j) {
            const int s = -e[static_cast<std::size_t>(i)] - e[static_cast<std::size_t>(j)];
            return Complex{std::ldexp(a(i, j).real(), s), std::ldexp(a(i, j).imag(), s)};
        },
        pass_run(run, 0, 2));
    const double magnitude = monomial_magnitudes(a, e, pass_run(run, 1, 2));
    const std::complex<double> value{leaves.sum.re.value(), leaves.sum.im.value()};
    // A complex product rounds to at most √5·u (Brent, Percival, Zimmermann 2007): twice the
    // real factor covers it.
    return float_outcome(value,
                         2 * hafnian_error_factor(n) * kUnitRoundoff * magnitude +
                             2 * kUnitRoundoff * std::abs(value),
                         exponent2, n, arithmetic);
}

}  // namespace pmcount::exact
