// Hafnians and permanents with repeated rows and columns (see repeated.hpp for the formulas).
//
// Phases: (1) validate; drop modes of multiplicity 0; for a permanent, sum over the side with the
// smaller Π(m + 1); (2) split the points ν into chunks (the first modes walked in a Gray code
// inside a chunk, the others fixed by the chunk's index); (3) per chunk, a State set from scratch
// at the chunk's first point and updated by one mode's ±1 at each later one, its terms summed:
// modulo each prime of the bound (exact), or in floating point with each term's error bound;
// (4) the chunks' sums in chunk order; CRT, or value and figure.
// Workspaces: per thread one State (O(k) values), per chunk one partial sum.
#include "exact/hafnian/repeated.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>

#include "core/stop.hpp"
#include "exact/hafnian/repeated_terms.hpp"
#include "numeric/crt.hpp"
#include "numeric/permanent_bound.hpp"
#include "pmcount/error.hpp"

namespace pmcount::exact {

namespace {

using repeated::FloatSum;
using repeated::HafnianFloat;
using repeated::HafnianMod;
using repeated::kU;
using repeated::Mod;
using repeated::ModSum;
using repeated::PermanentFloat;
using repeated::PermanentMod;
using repeated::Wide;

// ---- (1) Validation and (4) the drivers --------------------------------------------------------

void check_counts(const std::vector<int>& counts, vertex_t lines, const char* what) {
    if (counts.size() != static_cast<std::size_t>(lines)) {
        throw InvalidArgument(std::string(what) + " has " + std::to_string(counts.size()) +
                              " entries for " + std::to_string(lines) + " rows/columns");
    }
    for (std::size_t i = 0; i < counts.size(); ++i) {
        if (counts[i] < 0) {
            throw InvalidArgument(std::string(what) + "[" + std::to_string(i) + "] is " +
                                  std::to_string(counts[i]) + "; multiplicities are at least 0");
        }
    }
    const double photons = std::accumulate(counts.begin(), counts.end(), 0.0);
    if (photons > kMaxRepeatedPhotons) {
        throw ProblemTooLarge(std::string(what) + " sums to " + std::to_string(photons) +
                              "; at most " + std::to_string(kMaxRepeatedPhotons) +
                              " are supported");
    }
}

double points_of(const std::vector<int>& radix) {
    double points = 1;
    for (const int r : radix) {
        points *= r + 1;
    }
    return points;
}

void check_points(const std::vector<int>& radix) {
    if (points_of(radix) > kMaxRepeatedPoints) {
        throw ProblemTooLarge("the multiplicities give " + std::to_string(points_of(radix)) +
                              " points to sum over; at most 1e11 are supported");
    }
}

/// Residues modulo primes for a bound 2^bound_log2, CRT checked by the spare.
template <class MakeState>
ExactOutcome exact_sum(const std::vector<int>& radix, double bound_log2, const run::EngineRun& run,
                       MakeState make_state, const char* engine) {
    const std::vector<std::uint64_t> primes = numeric::large_primes_with_spare(bound_log2);
    std::vector<std::uint64_t> residues;
    for (const std::uint64_t p : primes) {
        const Mod f(p);
        const ModSum s = repeated::walk_all<ModSum>(
            radix, run, [&] { return make_state(f); },
            [&](ModSum& into, const ModSum& from) { into.value = f.add(into.value, from.value); });
        residues.push_back(f.residue(s.value));
    }
    ExactOutcome out;
    out.value = numeric::crt_with_spare(residues, primes, engine);
    out.primes = static_cast<int>(primes.size());
    out.gray_steps = static_cast<std::uint64_t>(points_of(radix)) * primes.size();
    out.arithmetic = "modular (" + std::to_string(primes.size()) +
                     " primes of 62 bits, one spare) + CRT over " +
                     std::to_string(static_cast<std::uint64_t>(points_of(radix))) + " points";
    return out;
}

template <class T, class MakeState>
FloatOutcome float_sum(const std::vector<int>& radix, const run::EngineRun& run,
                       MakeState make_state) {
    using S = Wide<T>;
    const FloatSum<S> s = repeated::walk_all<FloatSum<S>>(
        radix, run, make_state,
        [](FloatSum<S>& into, const FloatSum<S>& from) { repeated::merge_float(into, from); });
    const std::complex<double> value = repeated::narrow(s.value);
    if (!std::isfinite(std::abs(value)) || !std::isfinite(s.error)) {
        throw ProblemTooLarge(
            "the terms of the sum over the multiplicities overflow double; scale the matrix");
    }
    FloatOutcome out;
    out.mantissa = value;
    // The sum's own additions (each within 2u² of its partial sum; complex: both parts) and
    // the rounding of the double-double result to double.
    out.abs_error_mantissa =
        (s.error + 4.0 * 0x1p-106 * s.partial + kU * std::abs(value)) * (1 + 1e-12);
    out.gray_steps = s.terms;
    out.arithmetic =
        std::string(std::is_same_v<T, double> ? "double-double" : "complex double-double") +
        ", each term with its error bound, over " + std::to_string(s.terms) + " points";
    return out;
}

}  // namespace

template <class T>
void keep_present(const DenseMatrix<T>& a, const std::vector<int>& rpt, const std::vector<T>* mu,
                  DenseMatrix<T>& kept, std::vector<int>& r, std::vector<T>& kept_mu) {
    std::vector<vertex_t> modes;
    for (std::size_t i = 0; i < rpt.size(); ++i) {
        if (rpt[i] > 0) {
            modes.push_back(static_cast<vertex_t>(i));
            r.push_back(rpt[i]);
            if (mu != nullptr) {
                kept_mu.push_back((*mu)[i]);
            }
        }
    }
    const auto k = static_cast<vertex_t>(modes.size());
    kept = DenseMatrix<T>(k, k, T{});
    for (vertex_t i = 0; i < k; ++i) {
        for (vertex_t j = 0; j < k; ++j) {
            kept(i, j) = a(modes[static_cast<std::size_t>(i)], modes[static_cast<std::size_t>(j)]);
        }
    }
}

template <class T>
double hafnian_repeated_bound_log2(const DenseMatrix<T>& a, const std::vector<int>& r,
                                   const std::vector<T>* mu) {
    const int k = a.rows();
    const int n = std::accumulate(r.begin(), r.end(), 0);
    long double bound = 0;
    for (int i = 0; i < k; ++i) {
        long double norm = 0,
                    largest = mu != nullptr ? std::abs((*mu)[static_cast<std::size_t>(i)]) : 0;
        for (int j = 0; j < k; ++j) {
            norm += std::abs(static_cast<long double>(a(i, j))) * r[static_cast<std::size_t>(j)];
            largest = std::max<long double>(largest, std::abs(static_cast<long double>(a(i, j))));
        }
        const long double line = mu != nullptr ? largest : norm;
        if (line == 0) {
            return -std::numeric_limits<double>::infinity();
        }
        bound += (mu != nullptr ? 1.0L : 0.5L) * r[static_cast<std::size_t>(i)] * std::log2(line);
    }
    if (mu != nullptr) {
        bound += numeric::involutions_log2(n);
    }
    return static_cast<double>(bound * (1 + 1e-9L) + 1);
}

template <class T>
void check_hafnian_repeated(const DenseMatrix<T>& a, const std::vector<int>& rpt,
                            const std::vector<T>* mu) {
    if (!a.is_square()) {
        throw InvalidArgument("hafnian_repeated needs a square matrix, got " +
                              std::to_string(a.rows()) + "×" + std::to_string(a.cols()));
    }
    for (vertex_t i = 0; i < a.rows(); ++i) {
        for (vertex_t j = 0; j < i; ++j) {
            if (a(i, j) != a(j, i)) {
                throw InvalidArgument("hafnian_repeated needs a symmetric matrix: entry (" +
                                      std::to_string(i) + ", " + std::to_string(j) +
                                      ") differs from entry (" + std::to_string(j) + ", " +
                                      std::to_string(i) + ")");
            }
        }
    }
    check_counts(rpt, a.rows(), "rpt");
    if (mu != nullptr && mu->size() != static_cast<std::size_t>(a.rows())) {
        throw InvalidArgument("mu has " + std::to_string(mu->size()) + " entries for " +
                              std::to_string(a.rows()) + " modes");
    }
}

ExactOutcome hafnian_repeated_exact(const DenseMatrix<std::int64_t>& a, const std::vector<int>& rpt,
                                    const std::vector<std::int64_t>* mu,
                                    const run::EngineRun& run) {
    check_hafnian_repeated(a, rpt, mu);
    DenseMatrix<std::int64_t> kept;
    std::vector<int> r;
    std::vector<std::int64_t> kept_mu;
    keep_present(a, rpt, mu, kept, r, kept_mu);
    const int n = std::accumulate(r.begin(), r.end(), 0);
    ExactOutcome out;
    out.arithmetic = "exact integers";
    if (n == 0 || (mu == nullptr && n % 2 != 0)) {
        out.value = n == 0 ? 1 : 0;
        return out;
    }
    check_points(r);
    const std::vector<std::int64_t>* loops = mu != nullptr ? &kept_mu : nullptr;
    const double bound = hafnian_repeated_bound_log2(kept, r, loops);
    if (std::isinf(bound)) {
        out.value = 0;
        return out;
    }
    return exact_sum(
        r, bound, run, [&](const Mod& f) { return HafnianMod(f, kept, r, loops); },
        "hafnian_repeated");
}

template <class T>
FloatOutcome hafnian_repeated_float(const DenseMatrix<T>& a, const std::vector<int>& rpt,
                                    const std::vector<T>* mu, const run::EngineRun& run) {
    check_hafnian_repeated(a, rpt, mu);
    DenseMatrix<T> kept;
    std::vector<int> r;
    std::vector<T> kept_mu;
    keep_present(a, rpt, mu, kept, r, kept_mu);
    const int n = std::accumulate(r.begin(), r.end(), 0);
    if (n == 0 || (mu == nullptr && n % 2 != 0)) {
        FloatOutcome out;
        out.mantissa = n == 0 ? 1.0 : 0.0;
        out.arithmetic = "none";
        return out;
    }
    check_points(r);
    const std::vector<T>* loops = mu != nullptr ? &kept_mu : nullptr;
    return float_sum<T>(r, run, [&] { return HafnianFloat<T>(kept, r, loops); });
}

ExactOutcome permanent_repeated_exact(const DenseMatrix<std::int64_t>& a,
                                      const std::vector<int>& rows, const std::vector<int>& cols,
                                      const run::EngineRun& run) {
    check_counts(rows, a.rows(), "rows");
    check_counts(cols, a.cols(), "cols");
    ExactOutcome out;
    out.arithmetic = "exact integers";
    const int n = std::accumulate(rows.begin(), rows.end(), 0);
    if (n != std::accumulate(cols.begin(), cols.end(), 0)) {
        out.value = 0;
        return out;
    }
    if (points_of(rows) < points_of(cols)) {  // sum over the side with fewer points
        DenseMatrix<std::int64_t> t(a.cols(), a.rows());
        for (vertex_t i = 0; i < a.rows(); ++i) {
            for (vertex_t j = 0; j < a.cols(); ++j) {
                t(j, i) = a(i, j);
            }
        }
        return permanent_repeated_exact(t, cols, rows, run);
    }
    check_points(cols);
    long double bound = 0;
    for (vertex_t i = 0; i < a.rows(); ++i) {
        long double norm = 0;
        for (vertex_t j = 0; j < a.cols(); ++j) {
            norm += std::abs(static_cast<long double>(a(i, j))) * cols[static_cast<std::size_t>(j)];
        }
        if (rows[static_cast<std::size_t>(i)] > 0) {
            if (norm == 0) {
                out.value = 0;
                return out;
            }
            bound += rows[static_cast<std::size_t>(i)] * std::log2(norm);
        }
    }
    return exact_sum(
        cols, static_cast<double>(bound * (1 + 1e-9L) + 1), run,
        [&](const Mod& f) { return PermanentMod(f, a, rows, cols); }, "permanent_repeated");
}

template <class T>
FloatOutcome permanent_repeated_float(const DenseMatrix<T>& a, const std::vector<int>& rows,
                                      const std::vector<int>& cols, const run::EngineRun& run) {
    check_counts(rows, a.rows(), "rows");
    check_counts(cols, a.cols(), "cols");
    const int n = std::accumulate(rows.begin(), rows.end(), 0);
    if (n != std::accumulate(cols.begin(), cols.end(), 0)) {
        FloatOutcome out;
        out.arithmetic = "none";
        return out;
    }
    if (points_of(rows) < points_of(cols)) {
        DenseMatrix<T> t(a.cols(), a.rows());
        for (vertex_t i = 0; i < a.rows(); ++i) {
            for (vertex_t j = 0; j < a.cols(); ++j) {
                t(j, i) = a(i, j);
            }
        }
        return permanent_repeated_float(t, cols, rows, run);
    }
    check_points(cols);
    return float_sum<T>(cols, run, [&] { return PermanentFloat<T>(a, rows, cols); });
}

#define PMCOUNT_REPEATED_HELPERS(T)                                                       \
    template void keep_present(const DenseMatrix<T>&, const std::vector<int>&,            \
                               const std::vector<T>*, DenseMatrix<T>&, std::vector<int>&, \
                               std::vector<T>&);
PMCOUNT_REPEATED_HELPERS(std::int64_t)
PMCOUNT_REPEATED_HELPERS(double)
PMCOUNT_REPEATED_HELPERS(std::complex<double>)
#undef PMCOUNT_REPEATED_HELPERS
template double hafnian_repeated_bound_log2(const DenseMatrix<std::int64_t>&,
                                            const std::vector<int>&,
                                            const std::vector<std::int64_t>*);
template void check_hafnian_repeated(const DenseMatrix<std::int64_t>&, const std::vector<int>&,
                                     const std::vector<std::int64_t>*);
template void check_hafnian_repeated(const DenseMatrix<double>&, const std::vector<int>&,
                                     const std::vector<double>*);
template void check_hafnian_repeated(const DenseMatrix<std::complex<double>>&,
                                     const std::vector<int>&,
                                     const std::vector<std::complex<double>>*);
template FloatOutcome hafnian_repeated_float(const DenseMatrix<double>&, const std::vector<int>&,
                                             const std::vector<double>*, const run::EngineRun&);
template FloatOutcome hafnian_repeated_float(const DenseMatrix<std::complex<double>>&,
                                             const std::vector<int>&,
                                             const std::vector<std::complex<double>>*,
                                             const run::EngineRun&);
template FloatOutcome permanent_repeated_float(const DenseMatrix<double>&, const std::vector<int>&,
                                               const std::vector<int>&, const run::EngineRun&);
template FloatOutcome permanent_repeated_float(const DenseMatrix<std::complex<double>>&,
                                               const std::vector<int>&, const std::vector<int>&,
                                               const run::EngineRun&);

}  // namespace pmcount::exact
