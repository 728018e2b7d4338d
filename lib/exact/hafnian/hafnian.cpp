// The hafnian engine's drivers (hafnian.hpp): validation, the arithmetic policies of
// recursion.hpp, primes and CRT for exact results, power-of-two scaling and the error bound for
// floating ones, and the parallel walk over the recursion's subtrees.
//
// Phases of every driver: (1) validate (square, symmetric, order); odd order → 0, order 0 → 1;
// (2) exact: primes in (2^26, 2^27) for the bound plus a spare, kPrimeLanes per pass; floating:
// each vertex scaled by a power of two (exact) so that every entry is below 2 in magnitude;
// (3) run::run_chunks over the subtrees below the split depth, one walker per thread, the chunks'
// sums merged in chunk order (bit-identical for any number of threads); (4) CRT checked against
// the spare, or the value with its figure: double, the leaves' running error; double-double, a
// bound (for a signed matrix, a second walk on |A| for the monomials' magnitudes). The loop
// hafnian's drivers are the same walks with the walker's loops on (recursion.hpp), after padding
// an odd order with a unit loop.
#include "exact/hafnian/hafnian.hpp"

#include <omp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <memory>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "core/stop.hpp"
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

/// Leaf sums of the double arithmetics, which carry each coefficient's first-order error (below):
/// the signed value, Σ|leaf|, the signed error Σ ε_leaf and Σ|ε_leaf|.
template <class Sum, class Error>
struct TrackedLeaves {
    Sum sum{};
    double magnitude = 0;
    Error error{};
    double error_magnitude = 0;
};

/// acc + x·y with its rounding: acc.v becomes fl(fl(x·y) + acc.v) and `error` gains what the
/// two roundings dropped, exactly (TwoProduct by FMA, TwoSum).
inline void add_product(double& acc, double& error, double x, double y) {
    const double p = x * y;
    double rounding = 0;
    numeric::two_sum(acc, p, acc, rounding);
    error += std::fma(x, y, -p) + rounding;
}

/// Double with a running first-order error: a coefficient is (v, e) with e ≈ exact − v, where
/// "exact" is the recursion in exact arithmetic on the (exactly) scaled entries. A multiply-add
/// acc += a·b adds the roundings it makes (add_product) and the propagated errors a.v·b.e +
/// a.e·b.v, so e follows the signs through every cancellation; only products of two errors
/// and the roundings of e's own arithmetic are dropped (second order: the figure bounds them,
/// hafnian_real). The GPU's double mode (cuda/kernels/hafnian.cuh, Ring<0>) does the same
/// operations in the same order.
class DoubleArith {
public:
    struct Elem {
        double v = 0;
        double e = 0;
    };
    using Wide = Elem;
    using Leaves = TrackedLeaves<numeric::CompensatedSum, double>;
    static Elem zero() { return {}; }
    static Elem wide(Elem x) { return x; }
    static void mac(Elem& acc, Elem a, Elem b) {
        add_product(acc.v, acc.e, a.v, b.v);
        acc.e += a.v * b.e + a.e * b.v;
    }
    static Elem narrow(Elem x) { return x; }
    static void leaf(Leaves& leaves, Elem dot, int sign) {
        leaves.sum.add(sign > 0 ? dot.v : -dot.v);
        leaves.magnitude += std::fabs(dot.v);
        leaves.error += sign > 0 ? dot.e : -dot.e;
        leaves.error_magnitude += std::fabs(dot.e);
    }
    static void merge(Leaves& into, const Leaves& from) {
        into.sum.add(from.sum);
        into.magnitude += from.magnitude;
        into.error += from.error;
        into.error_magnitude += from.error_magnitude;
    }
};

/// Σ|leaf| of the recursion on |A| (monomial_magnitudes): plain double, no error.
class MagnitudeArith {
public:
    using Elem = double;
    using Wide = double;
    using Leaves = double;
    static double zero() { return 0; }
    static double wide(double x) { return x; }
    static void mac(double& acc, double a, double b) { acc += a * b; }
    static double narrow(double x) { return x; }
    static void leaf(Leaves& leaves, double dot, int) { leaves += std::fabs(dot); }
    static void merge(Leaves& into, const Leaves& from) { into += from; }
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

/// Complex double with a running first-order error, as DoubleArith: each of the four real
/// products of a complex multiply-add is rounded and summed with its rounding kept.
class ComplexArith {
public:
    struct Elem {
        Complex v;
        Complex e;
    };
    using Wide = Elem;
    using Leaves = TrackedLeaves<ComplexSum, Complex>;
    static Elem zero() { return {}; }
    static Elem wide(Elem x) { return x; }
    static void mac(Elem& acc, Elem a, Elem b) {
        add_product(acc.v.re, acc.e.re, a.v.re, b.v.re);
        add_product(acc.v.re, acc.e.re, -a.v.im, b.v.im);
        add_product(acc.v.im, acc.e.im, a.v.re, b.v.im);
        add_product(acc.v.im, acc.e.im, a.v.im, b.v.re);
        acc.e.re += (a.v.re * b.e.re - a.v.im * b.e.im) + (a.e.re * b.v.re - a.e.im * b.v.im);
        acc.e.im += (a.v.re * b.e.im + a.v.im * b.e.re) + (a.e.re * b.v.im + a.e.im * b.v.re);
    }
    static Elem narrow(Elem x) { return x; }
    static void leaf(Leaves& leaves, Elem dot, int sign) {
        const double s = sign > 0 ? 1.0 : -1.0;
        leaves.sum.re.add(s * dot.v.re);
        leaves.sum.im.add(s * dot.v.im);
        leaves.magnitude += std::hypot(dot.v.re, dot.v.im);
        leaves.error.re += s * dot.e.re;
        leaves.error.im += s * dot.e.im;
        leaves.error_magnitude += std::hypot(dot.e.re, dot.e.im);
    }
    static void merge(Leaves& into, const Leaves& from) {
        into.sum.re.add(from.sum.re);
        into.sum.im.add(from.sum.im);
        into.magnitude += from.magnitude;
        into.error.re += from.error.re;
        into.error.im += from.error.im;
        into.error_magnitude += from.error_magnitude;
    }
};

/// kLanes coefficients side by side, one per vector lane (a subtree's or a matrix's): each lane
/// does the scalar arithmetic's operations in the same order (so the same values, bit for bit),
/// in arrays the compiler vectorises across. Layout holds the arrays (Elem), their multiply-add
/// (mac: written out per layout, which GCC vectorises; a generic loop over lane() and set() ran
/// the double lanes 3× slower) and moves one lane in and out (lane, set, negated); the leaves are
/// recorded in the order the walk reaches them and replayed into a scalar sum lane by lane
/// (recursion.hpp: run_chunk_in_lanes).
constexpr int kLanes = hafnian::kSubtreeLanes;

template <class Scalar, class Layout>
class Lanes : public Layout {
public:
    using Elem = typename Layout::Elem;
    using Wide = Elem;
    using Leaves = std::vector<std::pair<Elem, int>>;
    static Elem zero() { return {}; }
    static Elem wide(const Elem& x) { return x; }
    static Elem narrow(const Elem& x) { return x; }
    static void leaf(Leaves& leaves, const Elem& dot, int sign) { leaves.emplace_back(dot, sign); }
    /// Lane l's leaves added to `into` one by one, as the scalar walk adds them.
    static void replay(const Leaves& leaves, int l, typename Scalar::Leaves& into) {
        for (const auto& [dot, sign] : leaves) {
            Scalar::leaf(into, Layout::lane(dot, l), sign);
        }
    }
};

struct ComplexLayout {
    struct Elem {
        double vr[kLanes];
        double vi[kLanes];
        double er[kLanes];
        double ei[kLanes];
    };
    static ComplexArith::Elem lane(const Elem& x, int l) {
        return {{x.vr[l], x.vi[l]}, {x.er[l], x.ei[l]}};
    }
    static void set(Elem& x, int l, const ComplexArith::Elem& v) {
        x.vr[l] = v.v.re;
        x.vi[l] = v.v.im;
        x.er[l] = v.e.re;
        x.ei[l] = v.e.im;
    }
    static ComplexArith::Elem negated(const ComplexArith::Elem& x) {
        return {{-x.v.re, -x.v.im}, {-x.e.re, -x.e.im}};
    }
    static void mac(Elem& acc, const Elem& a, const Elem& b) {
#pragma omp simd
        for (int l = 0; l < kLanes; ++l) {
            ComplexArith::Elem c = lane(acc, l);
            ComplexArith::mac(c, lane(a, l), lane(b, l));
            acc.vr[l] = c.v.re;
            acc.vi[l] = c.v.im;
            acc.er[l] = c.e.re;
            acc.ei[l] = c.e.im;
        }
    }
};

struct DoubleLayout {
    struct Elem {
        double v[kLanes];
        double e[kLanes];
    };
    static DoubleArith::Elem lane(const Elem& x, int l) { return {x.v[l], x.e[l]}; }
    static void set(Elem& x, int l, const DoubleArith::Elem& v) {
        x.v[l] = v.v;
        x.e[l] = v.e;
    }
    static DoubleArith::Elem negated(const DoubleArith::Elem& x) { return {-x.v, -x.e}; }
    static void mac(Elem& acc, const Elem& a, const Elem& b) {
#pragma omp simd
        for (int l = 0; l < kLanes; ++l) {
            DoubleArith::Elem c{acc.v[l], acc.e[l]};
            DoubleArith::mac(c, {a.v[l], a.e[l]}, {b.v[l], b.e[l]});
            acc.v[l] = c.v;
            acc.e[l] = c.e;
        }
    }
};

using ComplexLanes = Lanes<ComplexArith, ComplexLayout>;
using DoubleLanes = Lanes<DoubleArith, DoubleLayout>;

/// The lane arithmetic of a scalar one (void: none; the walk stays scalar).
template <class Arith>
struct LanesOf {
    using type = void;
};
template <>
struct LanesOf<ComplexArith> {
    using type = ComplexLanes;
};
template <>
struct LanesOf<DoubleArith> {
    using type = DoubleLanes;
};

// ---- The walk over the subtrees
// -------------------------------------------------------------------

/// Σ of the leaves of the recursion for the order-n matrix whose entry(i, j) (i > j) is given in
/// the arithmetic's Elem; `one` is 1 in it. One walker per thread; chunks merged in chunk order.
template <class Arith, class Entry>
typename Arith::Leaves walk(const Arith& arith, int n, typename Arith::Elem one, Entry entry,
                            const run::EngineRun& run, bool loops = false) {
    const int m = n / 2;
    const int split = m - run::chunk_log2_for(m);
    std::vector<typename Arith::Leaves> partial(std::size_t{1} << split);
    const auto threads = static_cast<std::size_t>(run::resolve_threads(run.threads));
    std::vector<std::unique_ptr<Recursion<Arith>>> walkers(threads);
    // Double and complex double: each chunk's subtree four grandchildren at a time in vector
    // lanes (about 2× faster), from three levels down.
    using Lanes = typename LanesOf<Arith>::type;
    constexpr bool kHasLanes = !std::is_void_v<Lanes>;
    const bool in_lanes = kHasLanes && m - split >= 3;
    using LaneArith = std::conditional_t<kHasLanes, Lanes, DoubleLanes>;  // unused without lanes
    using LaneWalker = Recursion<LaneArith>;
    const LaneArith lane_arith{};
    std::vector<std::unique_ptr<LaneWalker>> lane_walkers(threads);
    const run::ChunkRecords records = run::records_of(partial);
    run::run_chunks(
        m, run,
        [&](std::uint64_t chunk, std::uint64_t, std::uint64_t) {
            const auto t = static_cast<std::size_t>(omp_get_thread_num());
            auto& walker = walkers[t];
            if (!walker) {
                walker = std::make_unique<Recursion<Arith>>(arith, n, one, loops);
                walker->load_root(entry);
            }
            if constexpr (kHasLanes) {
                if (in_lanes) {
                    auto& lanes = lane_walkers[t];
                    if (!lanes) {
                        lanes = std::make_unique<LaneWalker>(lane_arith, n - 2 * split - 4, m,
                                                             typename LaneArith::Elem{}, loops);
                    }
                    walker->run_chunk_in_lanes(chunk, split, partial[chunk], *lanes);
                    return;
                }
            }
            walker->run_chunk(chunk, split, partial[chunk]);
        },
        records, kThreadsFromPairs);
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
/// haf(A) = 2^Σe_i · haf(scaled). With `loops` the diagonal is scaled by 2^−e_i (a loop covers
/// its vertex once), and e_i is raised to the exponent of |a_ii| where that is larger, so a loop
/// stays below 1 too. False when a vertex has no nonzero entry that enters (the value is 0).
template <class T>
bool vertex_exponents(const DenseMatrix<T>& a, std::vector<int>& exponent, bool loops = false) {
    exponent.assign(static_cast<std::size_t>(a.rows()), 0);
    for (vertex_t i = 0; i < a.rows(); ++i) {
        double largest = 0;
        for (vertex_t j = 0; j < a.cols(); ++j) {
            if (j != i) {
                largest = std::max(largest, std::abs(a(i, j)));
            }
        }
        const double loop = loops ? std::abs(a(i, i)) : 0.0;
        if (largest == 0 && loop == 0) {
            return false;
        }
        int e = 0, d = 0;
        std::frexp(largest, &e);
        std::frexp(loop, &d);
        exponent[static_cast<std::size_t>(i)] =
            largest == 0 ? d : (loop == 0 ? e / 2 : std::max(e / 2, d));
    }
    return true;
}

/// The scale of entry (i, j) under the exponents: 2^−(e_i + e_j) off the diagonal, 2^−e_i on it
/// (loops).
int entry_shift(const std::vector<int>& e, int i, int j) {
    return i == j ? -e[static_cast<std::size_t>(i)]
                  : -e[static_cast<std::size_t>(i)] - e[static_cast<std::size_t>(j)];
}

/// An odd-order matrix with a vertex appended that has a loop of weight 1 and no edge: the same
/// loop hafnian (that vertex always takes its loop), at even order.
template <class T>
DenseMatrix<T> with_unit_loop(const DenseMatrix<T>& a) {
    const vertex_t n = a.rows();
    DenseMatrix<T> b(n + 1, n + 1);
    for (vertex_t i = 0; i < n; ++i) {
        for (vertex_t j = 0; j < n; ++j) {
            b(i, j) = a(i, j);
        }
    }
    b(n, n) = T{1};
    return b;
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
                           const run::EngineRun& run, bool loops) {
    return walk(
        MagnitudeArith{}, a.rows(), 1.0,
        [&](int i, int j) { return std::ldexp(std::abs(a(i, j)), entry_shift(e, i, j)); }, run,
        loops);
}

/// The trivial orders (odd, 0) and a vertex without a neighbour, which need no walk.
template <class T>
bool trivial_float(const DenseMatrix<T>& a, std::vector<int>& e, const char* arithmetic,
                   FloatOutcome& out, bool loops) {
    out = float_outcome(0.0, 0.0, 0, 0, arithmetic);
    out.gray_steps = 0;
    if (a.rows() == 0) {
        out.mantissa = 1.0;
        return true;
    }
    return a.rows() % 2 != 0 || !vertex_exponents(a, e, loops);
}

}  // namespace

double hafnian_error_factor(int n) {
    const double m = n / 2;
    return 8 * m * m + 64;
}

double hafnian_tracked_error(double error, double error_magnitude, double magnitude, int n) {
    const double u = kUnitRoundoff;
    const double factor = hafnian_error_factor(n);
    return error + factor * u * (error_magnitude + factor * u * magnitude);
}

int hafnian_primes(double bound_log2) {
    // Symmetric reconstruction needs Π p > 2·|haf| + 1; one more prime checks the result.
    return static_cast<int>(std::max(0.0, bound_log2 + 1.0) / hafnian::kLanePrimeLog2) + 2;
}

namespace {

/// The exact drivers' walk: the primes for a bound of 2^bound_log2, kPrimeLanes per pass, CRT
/// checked against the spare. n even, ≥ 2.
ExactOutcome exact_walk(const DenseMatrix<std::int64_t>& a, double bound, const run::EngineRun& run,
                        bool loops) {
    const vertex_t n = a.rows();
    ExactOutcome out;
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
            run::pass_run(run, pass, passes), loops);
        const std::vector<std::uint64_t> r = arith.residues(leaves);
        for (int l = 0; l < hafnian::kPrimeLanes && residues.size() < count; ++l) {
            residues.push_back(r[static_cast<std::size_t>(l)]);
        }
    }
    out.primes = static_cast<int>(count);
    out.gray_steps = (std::uint64_t{1} << (n / 2)) * passes;
    out.arithmetic = "modular, " + std::to_string(hafnian::kPrimeLanes) + " primes per pass (" +
                     std::to_string(count) + " primes of 27 bits, one spare) + CRT";
    out.value = numeric::crt_with_spare(residues, primes, loops ? "loop hafnian" : "hafnian");
    return out;
}

/// The real drivers (hafnian_real, loop_hafnian_real) on a matrix of even order.
FloatOutcome real_walk(const DenseMatrix<double>& a, Precision precision, const run::EngineRun& run,
                       bool loops) {
    const bool dd = precision == Precision::double_double;
    const char* arithmetic =
        dd ? "double-double" : "double with a running error, compensated leaf sum";
    std::vector<int> e;
    FloatOutcome out;
    if (trivial_float(a, e, arithmetic, out, loops)) {
        return out;
    }
    const vertex_t n = a.rows();
    // A loop adds a product level (l_0·l_1) to what the recursion without loops rounds.
    const int order = loops ? n + 2 : n;
    auto scaled = [&](int i, int j) { return std::ldexp(a(i, j), entry_shift(e, i, j)); };
    const std::int64_t exponent2 = std::accumulate(e.begin(), e.end(), std::int64_t{0});
    if (dd) {
        // A signed matrix's monomials cancel inside the leaves: their magnitudes come from |A|.
        bool nonnegative = true;
        for (const double v : a.data()) {
            nonnegative = nonnegative && v >= 0;
        }
        using DD = numeric::DoubleDouble;
        const auto leaves = walk(
            DoubleDoubleArith{}, n, DD{1.0}, [&](int i, int j) { return DD{scaled(i, j)}; },
            run::pass_run(run, 0, nonnegative ? 1 : 2), loops);
        const double magnitude = nonnegative
                                     ? leaves.magnitude
                                     : monomial_magnitudes(a, e, run::pass_run(run, 1, 2), loops);
        // Double-double products and sums round to about 4u² relative.
        const double value = leaves.sum.to_double();
        return float_outcome(
            value,
            hafnian_error_factor(order) * 4 * kUnitRoundoff * kUnitRoundoff * magnitude +
                kUnitRoundoff * std::fabs(value),
            exponent2, n, arithmetic);
    }
    const auto leaves = walk(
        DoubleArith{}, n, DoubleArith::Elem{1.0, 0.0},
        [&](int i, int j) {
            return DoubleArith::Elem{scaled(i, j), 0.0};
        },
        run, loops);
    const double value = leaves.sum.value();
    // The error of the value: the leaves' (Σe) and the rounding of their sum to one double.
    const double error = std::fabs(leaves.error + leaves.sum.rounding());
    return float_outcome(
        value, hafnian_tracked_error(error, leaves.error_magnitude, leaves.magnitude, order),
        exponent2, n, arithmetic);
}

constexpr const char* kComplexArithmetic =
    "complex double with a running error, compensated leaf sum";

/// The complex engines' outcome from the leaves' sums of an order-n matrix.
FloatOutcome complex_outcome(const ComplexArith::Leaves& leaves, std::int64_t exponent2, int n,
                             bool loops) {
    // A loop adds a product level (l_0·l_1) to what the recursion without loops rounds.
    const int order = loops ? n + 2 : n;
    const std::complex<double> value{leaves.sum.re.value(), leaves.sum.im.value()};
    const double error = std::hypot(leaves.error.re + leaves.sum.re.rounding(),
                                    leaves.error.im + leaves.sum.im.rounding());
    return float_outcome(
        value, hafnian_tracked_error(error, leaves.error_magnitude, leaves.magnitude, order),
        exponent2, n, kComplexArithmetic);
}

/// The scaled entry (i, j) of a complex matrix under the vertex exponents e.
ComplexArith::Elem scaled_complex(const DenseMatrix<std::complex<double>>& a,
                                  const std::vector<int>& e, int i, int j) {
    const int s = entry_shift(e, i, j);
    return {{std::ldexp(a(i, j).real(), s), std::ldexp(a(i, j).imag(), s)}, {}};
}

/// The complex drivers on a matrix of even order.
FloatOutcome complex_walk(const DenseMatrix<std::complex<double>>& a, const run::EngineRun& run,
                          bool loops) {
    std::vector<int> e;
    FloatOutcome out;
    if (trivial_float(a, e, kComplexArithmetic, out, loops)) {
        return out;
    }
    const vertex_t n = a.rows();
    const std::int64_t exponent2 = std::accumulate(e.begin(), e.end(), std::int64_t{0});
    const auto leaves = walk(
        ComplexArith{}, n, ComplexArith::Elem{{1.0, 0.0}, {}},
        [&](int i, int j) { return scaled_complex(a, e, i, j); }, run, loops);
    return complex_outcome(leaves, exponent2, n, loops);
}

/// Runs the recursion in lanes arithmetic `Arith` for the matrices of `group` (one even order
/// n ≥ 2, at most kLanes; the lanes past its end repeat its first matrix), lane l's entry (i, j)
/// given by entry(k, i, j) for its matrix k, on one thread: the chunks of walk() in its order.
template <class Arith, class Entry>
std::array<ComplexArith::Leaves, kLanes> lanes_walk(std::size_t group_size, int n, bool loops,
                                                    Entry entry) {
    const int m = n / 2;
    const int split = m - run::chunk_log2_for(m);
    typename Arith::Elem one{};
    for (int l = 0; l < kLanes; ++l) {
        Arith::set(one, l, {{1.0, 0.0}, {}});
    }
    const Arith arith;
    hafnian::Recursion<Arith> walker(arith, n, one, loops);
    walker.load_root([&](int i, int j) {
        typename Arith::Elem x{};
        for (int l = 0; l < kLanes; ++l) {
            entry(x, l, static_cast<std::size_t>(l) < group_size ? static_cast<std::size_t>(l) : 0,
                  i, j);
        }
        return x;
    });
    std::array<ComplexArith::Leaves, kLanes> total{};
    typename Arith::Leaves part;
    for (std::uint64_t chunk = 0; chunk < (std::uint64_t{1} << split); ++chunk) {
        part.clear();
        walker.run_chunk(chunk, split, part);
        for (int l = 0; l < kLanes; ++l) {
            ComplexArith::Leaves lane{};
            Arith::replay(part, l, lane);
            ComplexArith::merge(total[static_cast<std::size_t>(l)], lane);
        }
    }
    return total;
}

}  // namespace

std::vector<FloatOutcome> loop_hafnians_complex(
    const std::vector<DenseMatrix<std::complex<double>>>& matrices, const run::EngineRun& run) {
    using Matrix = DenseMatrix<std::complex<double>>;
    std::vector<Matrix> padded;
    padded.reserve(matrices.size());
    std::vector<const Matrix*> even(matrices.size());
    for (std::size_t k = 0; k < matrices.size(); ++k) {
        check_symmetric(matrices[k]);
        if (matrices[k].rows() % 2 != 0) {
            padded.push_back(with_unit_loop(matrices[k]));
            even[k] = &padded.back();
        } else {
            even[k] = &matrices[k];
        }
    }
    // The trivial ones at once; the others in groups of kLanes of one order.
    std::vector<FloatOutcome> out(matrices.size());
    std::vector<std::vector<int>> exponents(matrices.size());
    std::map<int, std::vector<std::size_t>> by_order;
    for (std::size_t k = 0; k < matrices.size(); ++k) {
        if (!trivial_float(*even[k], exponents[k], kComplexArithmetic, out[k], true)) {
            by_order[even[k]->rows()].push_back(k);
        }
    }
    std::vector<std::vector<std::size_t>> groups;
    for (const auto& [order, items] : by_order) {
        for (std::size_t first = 0; first < items.size(); first += kLanes) {
            groups.emplace_back(items.begin() + static_cast<std::ptrdiff_t>(first),
                                items.begin() + static_cast<std::ptrdiff_t>(
                                                    std::min(items.size(), first + kLanes)));
        }
    }
    run::parallel_for(
        static_cast<std::int64_t>(groups.size()), run::resolve_threads(run.threads),
        [&](std::int64_t g) {
            const std::vector<std::size_t>& items = groups[static_cast<std::size_t>(g)];
            const int n = even[items[0]]->rows();
            const auto leaves = lanes_walk<ComplexLanes>(
                items.size(), n, true,
                [&](ComplexLanes::Elem& x, int l, std::size_t k, int i, int j) {
                    ComplexLanes::set(x, l,
                                      scaled_complex(*even[items[k]], exponents[items[k]], i, j));
                });
            for (std::size_t i = 0; i < items.size(); ++i) {
                const std::vector<int>& e = exponents[items[i]];
                out[items[i]] = complex_outcome(
                    leaves[i], std::accumulate(e.begin(), e.end(), std::int64_t{0}), n, true);
            }
        });
    // A walker asked to stop abandons its chunk: no partial sum may be returned.
    pmcount::detail::throw_if_stopped("counting loop hafnians in vector lanes");
    return out;
}

ExactOutcome hafnian_exact(const DenseMatrix<std::int64_t>& a, const run::EngineRun& run) {
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
    return exact_walk(a, bound, run, false);
}

ExactOutcome loop_hafnian_exact(const DenseMatrix<std::int64_t>& a, const run::EngineRun& run) {
    check_symmetric(a);
    if (a.rows() % 2 != 0) {
        return loop_hafnian_exact(with_unit_loop(a), run);
    }
    ExactOutcome out;
    out.arithmetic = "exact integers";
    const double bound = numeric::loop_hafnian_bound_log2(a);
    if (a.rows() == 0 || std::isinf(bound)) {
        out.value = a.rows() == 0 ? 1 : 0;
        out.arithmetic = a.rows() == 0 ? "exact integers" : "none (a vertex without an entry)";
        return out;
    }
    return exact_walk(a, bound, run, true);
}

std::uint64_t hafnian_modular(const DenseMatrix<std::int64_t>& a, std::uint64_t p,
                              const run::EngineRun& run) {
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

FloatOutcome hafnian_real(const DenseMatrix<double>& a, Precision precision,
                          const run::EngineRun& run) {
    check_symmetric(a);
    return real_walk(a, precision, run, false);
}

FloatOutcome loop_hafnian_real(const DenseMatrix<double>& a, Precision precision,
                               const run::EngineRun& run) {
    check_symmetric(a);
    return real_walk(a.rows() % 2 != 0 ? with_unit_loop(a) : a, precision, run, true);
}

FloatOutcome hafnian_complex(const DenseMatrix<std::complex<double>>& a,
                             const run::EngineRun& run) {
    check_symmetric(a);
    return complex_walk(a, run, false);
}

FloatOutcome loop_hafnian_complex(const DenseMatrix<std::complex<double>>& a,
                                  const run::EngineRun& run) {
    check_symmetric(a);
    return complex_walk(a.rows() % 2 != 0 ? with_unit_loop(a) : a, run, true);
}

}  // namespace pmcount::exact
