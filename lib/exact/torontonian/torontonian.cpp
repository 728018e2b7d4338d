// The torontonian engine (torontonian.hpp has the conventions and the algorithm).
//
// Phases: (1) the input checked, each mode alone checked positive definite, I − O built in mode
// order (mode k's rows 2k and 2k + 1), real arithmetic when O and γ are real; (2)
// run::run_chunks over the sets of the first D modes (a chunk per set P, D = N − the chunk
// length's log2): the complement of I − O_P on the modes D…N−1 by |P| eliminations, then the
// depth-first walk over the subsets of D…N−1 (tor::Walker, walk.hpp), in double with
// tracked errors or in double-double with bounds (policies.hpp); (3) the chunks' sums in chunk
// order and the figure, or the first failing set named in the error.
// Workspaces: per thread one Walker (a complement and its errors per depth, O(N³) values).
#include "exact/torontonian/torontonian.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "core/stop.hpp"
#include "exact/torontonian/entries.hpp"
#include "exact/torontonian/policies.hpp"
#include "exact/torontonian/torontonian_device.hpp"
#include "exact/torontonian/walk.hpp"
#include "numeric/compensated.hpp"
#include "numeric/double_double.hpp"
#include "pmcount/error.hpp"

namespace pmcount::exact {

namespace {

using namespace tor;  // NOLINT(google-build-using-namespace): the engine's own pieces

/// Threads start from 2^12 sets (a set costs tens of nanoseconds to a microsecond).
constexpr int kThreadsFromSets = 12;

std::string modes_text(std::uint64_t set) {
    std::string text;
    for (int k = 0; k < 64; ++k) {
        if ((set >> k) & 1U) {
            text += (text.empty() ? "" : ", ") + std::to_string(k);
        }
    }
    return "{" + text + "}";
}

/// I − O in mode order (entry (2a + α, 2b + β) from O's (a + αN, b + βN)), the lower triangle,
/// each entry's error (the diagonal's 1 − o_ii rounds in double, exactly known; double-double
/// holds it exactly); v = γ* in the same order.
template <class E, class Err>
Problem<E, Err> problem_of(const DenseMatrix<std::complex<double>>& o,
                           const std::vector<std::complex<double>>* gamma) {
    Problem<E, Err> p;
    p.modes = static_cast<int>(o.rows() / 2);
    const int n = p.modes, n2 = 2 * n;
    p.loop = gamma != nullptr;
    p.m.resize(static_cast<std::size_t>(n2) * n2);
    p.me.assign(p.m.size(), Err{});
    const auto row = [n](int i) { return static_cast<vertex_t>(i / 2 + (i % 2) * n); };
    for (int i = 0; i < n2; ++i) {
        for (int j = 0; j <= i; ++j) {
            const std::complex<double> x = o(row(i), row(j));
            const std::size_t at = static_cast<std::size_t>(i) * n2 + j;
            if (i != j) {
                p.m[at] = entry_of<E>(-x);
            } else if constexpr (std::is_same_v<E, double> || std::is_same_v<E, Cx<double>>) {
                double d = 0, rounding = 0;  // Hermitian: the diagonal's imaginary part dropped
                numeric::two_sum(1.0, -x.real(), d, rounding);
                p.m[at] = entry_of<E>(d);
                if constexpr (std::is_same_v<Err, double>) {
                    p.me[at] = std::fabs(rounding);
                } else {
                    p.me[at] = entry_of<Err>(rounding);
                }
            } else if constexpr (std::is_same_v<E, DoubleDouble>) {
                p.m[at] = DoubleDouble(1.0) - DoubleDouble(x.real());
            } else {
                p.m[at] = {DoubleDouble(1.0) - DoubleDouble(x.real()), DoubleDouble(0.0)};
            }
        }
        if (gamma != nullptr) {
            p.v.push_back(entry_of<E>(std::conj((*gamma)[static_cast<std::size_t>(row(i))])));
        }
    }
    return p;
}

/// The chunks' sums (in chunk order) as the result: the value, the figure, or the first
/// failure as its error.
FloatOutcome summarize(const std::vector<Sums>& partial, bool tracked) {
    DoubleDouble total;
    double magnitude = 0, loose2 = 0, tracked_error = 0, bound = 0;
    std::uint64_t nodes = 0;
    for (const Sums& p : partial) {
        if (p.failure == static_cast<int>(Failure::not_positive_definite)) {
            throw InvalidArgument(
                "a torontonian needs I − O Hermitian positive definite (O = I − Q⁻¹ of a Gaussian "
                "state); its submatrix on modes " +
                modes_text(p.failed_set) + " is not");
        }
        if (p.failure == static_cast<int>(Failure::lost)) {
            if (tracked) {
                FloatOutcome lost;
                lost.abs_error_mantissa = std::numeric_limits<double>::infinity();
                lost.arithmetic = "double (precision lost)";
                return lost;
            } else {
                throw InvalidArgument(
                    "a torontonian needs det(I − O_Z) > 0 for every set of modes Z; on modes " +
                    modes_text(p.failed_set) +
                    " it cannot be told from 0 in double-double (I − O is singular or nearly so)");
            }
        }
        total += DoubleDouble(p.hi, p.lo);
        magnitude += p.magnitude;
        loose2 += p.loose2;
        tracked_error += p.tracked;
        bound += p.bound;
        nodes += p.nodes;
    }
    if (!std::isfinite(total.hi) || !std::isfinite(magnitude)) {
        throw InvalidArgument(
            "a torontonian's terms exp(q_Z/2)/√det(I − O_Z) overflow double's "
            "range (10^308): I − O is too near singular for this O and gamma");
    }
    FloatOutcome out;
    out.mantissa = total.to_double();
    // Tracked: the first-order error Σ δ_X·T_X with 5% for its own rounding and the
    // higher orders' Σ|term|·rho² (at most rho ≤ 2^−26·N per factor: far below the first order).
    // Bounded: the bound with 1% for the higher orders. Both: the double-double sums' rounding
    // (each addition within 3u² of a partial sum, at most Σ|term|) and the final rounding.
    const double first = tracked ? 1.05 * std::fabs(tracked_error) + 4 * loose2 : 1.01 * bound;
    out.abs_error_mantissa =
        first + 3 * 0x1p-106 * static_cast<double>(nodes + partial.size()) * magnitude +
        0x1p-53 * std::fabs(out.mantissa.real());
    out.gray_steps = nodes;
    out.arithmetic = tracked ? "double" : "double-double";
    return out;
}

/// Each mode alone first (its 2×2 block of I − O positive definite): the common failure gets a
/// message naming one mode.
void check_each_mode(const DenseMatrix<std::complex<double>>& c) {
    for (vertex_t k = 0; k < c.rows() / 2; ++k) {
        const vertex_t x = k, p = k + c.rows() / 2;
        const double a = 1 - c(x, x).real(), d = 1 - c(p, p).real();
        if (!(a > 0) || !(a * d - std::norm(c(p, x)) > 0)) {
            throw InvalidArgument(
                "a torontonian needs I − O Hermitian positive definite (O = I − "
                "Q⁻¹ of a Gaussian state); its submatrix on modes " +
                modes_text(std::uint64_t{1} << k) + " is not");
        }
    }
}

template <class Policy>
FloatOutcome walk(const DenseMatrix<std::complex<double>>& o,
                  const std::vector<std::complex<double>>* gamma, const run::EngineRun& run) {
    using E = typename Policy::E;
    using Err = typename Policy::Err;
    constexpr bool tracked = std::is_same_v<Policy, Tracked<E>>;
    const Problem<E, Err> problem = problem_of<E, Err>(o, gamma);
    const int n = problem.modes;
    const int suffix = n == 0 ? 0 : run::chunk_log2_for(n);
    std::vector<Sums> partial(std::size_t{1} << (n - suffix));
    std::vector<std::unique_ptr<Walker<Policy>>> walkers(
        static_cast<std::size_t>(run::resolve_threads(run.threads)));
    const run::ChunkRecords records = run::records_of(partial);
    run::run_chunks(
        n, run,
        [&](std::uint64_t chunk, std::uint64_t, std::uint64_t) {
            auto& walker = walkers[static_cast<std::size_t>(omp_get_thread_num())];
            if (!walker) {
                walker = std::make_unique<Walker<Policy>>(problem, suffix);
            }
            walker->run_chunk(chunk, partial[chunk]);
        },
        records, kThreadsFromSets);
    return summarize(partial, tracked);
}

/// The walk on GPUs (cuda/torontonian_gpu.cu): the Tracked policy in complex double, a thread
/// per chunk of 2^min(N − 10, 16) sets, the chunks split evenly over run.gpus (all visible when
/// empty).
FloatOutcome walk_gpu(const DenseMatrix<std::complex<double>>& o,
                      const std::vector<std::complex<double>>* gamma, const run::EngineRun& run) {
    const Problem<Cx<double>, Cx<double>> problem = problem_of<Cx<double>, Cx<double>>(o, gamma);
    const int n = problem.modes, n2 = 2 * n;
    backend::cuda::GpuTorontonianJob job;
    job.modes = n;
    job.suffix = std::clamp(n - 10, 0, 16);
    job.loop = problem.loop;
    for (int i = 0; i < n2; ++i) {
        for (int j = 0; j <= i; ++j) {
            const std::size_t at = static_cast<std::size_t>(i) * n2 + j;
            job.m_re.push_back(problem.m[at].re);
            job.m_im.push_back(problem.m[at].im);
            job.e_re.push_back(problem.me[at].re);
            job.e_im.push_back(problem.me[at].im);
        }
    }
    for (const auto& v : problem.v) {
        job.v_re.push_back(v.re);
        job.v_im.push_back(v.im);
    }
    job.devices = run.gpus;
    job.keep_going = [] { return !pmcount::detail::stop_requested(); };
    const backend::cuda::GpuTorontonianResult r = backend::cuda::torontonian(job);
    if (r.stopped) {
        throw Interrupted("interrupted while computing a torontonian on the GPU");
    }
    std::vector<Sums> partial(r.chunks.size());
    for (std::size_t c = 0; c < partial.size(); ++c) {
        const auto& g = r.chunks[c];
        partial[c] = Sums{g.hi,     g.lo,         g.magnitude,
                          g.loose2, g.tracked,    0.0,
                          g.nodes,  g.failed_set, static_cast<int>(g.failure)};
    }
    FloatOutcome out = summarize(partial, true);
    out.where.device = r.device;
    out.where.device_seconds = r.seconds;
    return out;
}

bool is_real(const DenseMatrix<std::complex<double>>& o,
             const std::vector<std::complex<double>>* gamma) {
    for (const auto& x : o.data()) {
        if (x.imag() != 0) {
            return false;
        }
    }
    if (gamma != nullptr) {
        for (const auto& x : *gamma) {
            if (x.imag() != 0) {
                return false;
            }
        }
    }
    return true;
}

template <class T>
DenseMatrix<std::complex<double>> complex_of(const DenseMatrix<T>& o) {
    DenseMatrix<std::complex<double>> c(o.rows(), o.cols());
    for (vertex_t i = 0; i < o.rows(); ++i) {
        for (vertex_t j = 0; j < o.cols(); ++j) {
            c(i, j) = o(i, j);
        }
    }
    return c;
}

template <class T>
std::vector<std::complex<double>> complex_of(const std::vector<T>& v) {
    return {v.begin(), v.end()};
}

// ---- The oracle
// ------------------------------------------------------------------------------------------

using CDD = Cx<DoubleDouble>;

CDD mul(const CDD& a, const CDD& b) {
    return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
CDD div(const CDD& a, const CDD& b) {
    const DoubleDouble d = b.re * b.re + b.im * b.im;
    return {(a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d};
}

/// det(M) and, with `rhs`, M⁻¹·rhs (in rhs), by Gaussian elimination with partial pivoting.
CDD determinant(std::vector<CDD> m, int k, std::vector<CDD>* rhs) {
    CDD det{DoubleDouble(1), DoubleDouble(0)};
    const auto at = [k](int i, int j) { return static_cast<std::size_t>(i) * k + j; };
    for (int c = 0; c < k; ++c) {
        int best = c;
        for (int i = c + 1; i < k; ++i) {
            if (mag(m[at(i, c)]) > mag(m[at(best, c)])) {
                best = i;
            }
        }
        if (best != c) {
            for (int j = 0; j < k; ++j) {
                std::swap(m[at(c, j)], m[at(best, j)]);
            }
            if (rhs != nullptr) {
                std::swap((*rhs)[static_cast<std::size_t>(c)],
                          (*rhs)[static_cast<std::size_t>(best)]);
            }
            det = {-det.re, -det.im};
        }
        const CDD pivot = m[at(c, c)];
        det = mul(det, pivot);
        if (pivot.re.hi == 0 && pivot.im.hi == 0) {
            return det;
        }
        for (int i = c + 1; i < k; ++i) {
            const CDD f = div(m[at(i, c)], pivot);
            for (int j = c; j < k; ++j) {
                const CDD p = mul(f, m[at(c, j)]);
                m[at(i, j)] = {m[at(i, j)].re - p.re, m[at(i, j)].im - p.im};
            }
            if (rhs != nullptr) {
                const CDD p = mul(f, (*rhs)[static_cast<std::size_t>(c)]);
                auto& x = (*rhs)[static_cast<std::size_t>(i)];
                x = {x.re - p.re, x.im - p.im};
            }
        }
    }
    if (rhs != nullptr) {  // back substitution
        for (int i = k - 1; i >= 0; --i) {
            CDD x = (*rhs)[static_cast<std::size_t>(i)];
            for (int j = i + 1; j < k; ++j) {
                const CDD p = mul(m[at(i, j)], (*rhs)[static_cast<std::size_t>(j)]);
                x = {x.re - p.re, x.im - p.im};
            }
            (*rhs)[static_cast<std::size_t>(i)] = div(x, m[at(i, i)]);
        }
    }
    return det;
}

}  // namespace

template <class T>
void check_torontonian(const DenseMatrix<T>& o, const std::vector<T>* gamma) {
    if (!o.is_square() || o.rows() % 2 != 0) {
        throw InvalidArgument(
            "a torontonian needs a square matrix of even order (2N×2N, xxpp), "
            "got " +
            std::to_string(o.rows()) + "×" + std::to_string(o.cols()));
    }
    double largest = 0;
    for (const auto& x : o.data()) {
        if (!std::isfinite(std::abs(x))) {
            throw InvalidArgument("a torontonian needs finite entries");
        }
        largest = std::max(largest, std::abs(x));
    }
    for (vertex_t i = 0; i < o.rows(); ++i) {
        for (vertex_t j = 0; j <= i; ++j) {
            const std::complex<double> a = o(i, j), b = o(j, i);
            if (std::abs(a - std::conj(b)) > 1e-10 * largest) {
                throw InvalidArgument(
                    "a torontonian needs a Hermitian O (I − O Hermitian positive "
                    "definite): entry (" +
                    std::to_string(i) + ", " + std::to_string(j) +
                    ") is not the conjugate of entry (" + std::to_string(j) + ", " +
                    std::to_string(i) + ")");
            }
        }
    }
    if (gamma != nullptr) {
        if (gamma->size() != static_cast<std::size_t>(o.rows())) {
            throw InvalidArgument("a loop torontonian's gamma needs " + std::to_string(o.rows()) +
                                  " entries (one per row of O), got " +
                                  std::to_string(gamma->size()));
        }
        for (const auto& x : *gamma) {
            if (!std::isfinite(std::abs(x))) {
                throw InvalidArgument("a loop torontonian needs a finite gamma");
            }
        }
    }
    if (o.rows() / 2 > kMaxTorontonianModes) {
        throw ProblemTooLarge(std::to_string(o.rows() / 2) +
                              " modes are beyond the torontonian's limit of " +
                              std::to_string(kMaxTorontonianModes) + " (2^" +
                              std::to_string(o.rows() / 2) + " sets of modes)");
    }
}

/// The checked input as complex entries (o, and gamma when given), each mode checked alone; the
/// walk `run_walk(o, gamma or null)`, its arithmetic marked real or complex.
template <class T, class Walk>
FloatOutcome checked_walk(const DenseMatrix<T>& o, const std::vector<T>* gamma, Walk run_walk) {
    check_torontonian(o, gamma);
    const DenseMatrix<std::complex<double>> c = complex_of(o);
    std::vector<std::complex<double>> g;
    if (gamma != nullptr) {
        g = complex_of(*gamma);
    }
    const auto* gp = gamma != nullptr ? &g : nullptr;
    check_each_mode(c);
    FloatOutcome out = run_walk(c, gp);
    out.arithmetic += is_real(c, gp) ? " (real)" : " (complex)";
    return out;
}

template <class T>
FloatOutcome torontonian(const DenseMatrix<T>& o, const std::vector<T>* gamma, bool double_double,
                         const run::EngineRun& run) {
    return checked_walk(o, gamma, [&](const auto& c, const auto* gp) {
        if (is_real(c, gp)) {
            return double_double ? walk<Bounded<DoubleDouble, DoubleDouble>>(c, gp, run)
                                 : walk<Tracked<double>>(c, gp, run);
        }
        return double_double ? walk<Bounded<DoubleDouble, CDD>>(c, gp, run)
                             : walk<Tracked<Cx<double>>>(c, gp, run);
    });
}

template <class T>
FloatOutcome torontonian_gpu(const DenseMatrix<T>& o, const std::vector<T>* gamma,
                             const run::EngineRun& run) {
    return checked_walk(o, gamma,
                        [&](const auto& c, const auto* gp) { return walk_gpu(c, gp, run); });
}

template <class T>
FloatOutcome torontonian_brute_force(const DenseMatrix<T>& o, const std::vector<T>* gamma) {
    check_torontonian(o, gamma);
    const int n = static_cast<int>(o.rows() / 2);
    if (n > 12) {
        throw ProblemTooLarge("the torontonian's brute force takes at most 12 modes, got " +
                              std::to_string(n));
    }
    const Problem<CDD, double> p = problem_of<CDD, double>(complex_of(o), nullptr);
    DoubleDouble total, magnitude;
    for (std::uint64_t set = 0; set < (std::uint64_t{1} << n); ++set) {
        std::vector<int> rows;  // the full order's rows of Z's modes
        for (int k = 0; k < n; ++k) {
            if ((set >> k) & 1U) {
                rows.push_back(2 * k);
                rows.push_back(2 * k + 1);
            }
        }
        const int k = static_cast<int>(rows.size());
        std::vector<CDD> m(static_cast<std::size_t>(k) * k);
        std::vector<CDD> x;
        for (int i = 0; i < k; ++i) {
            const int gi = rows[static_cast<std::size_t>(i)];
            for (int j = 0; j < k; ++j) {
                const int gj = rows[static_cast<std::size_t>(j)];
                const CDD lower =
                    p.m[static_cast<std::size_t>(std::max(gi, gj)) * (2 * n) + std::min(gi, gj)];
                m[static_cast<std::size_t>(i) * k + j] =
                    gi >= gj ? lower : CDD{lower.re, -lower.im};
            }
            if (gamma != nullptr) {
                const std::complex<double> y =
                    (*gamma)[static_cast<std::size_t>(gi / 2 + (gi % 2) * n)];
                x.push_back({DoubleDouble(y.real()), DoubleDouble(-y.imag())});
            }
        }
        std::vector<CDD> solved = x;
        const CDD det = determinant(m, k, gamma != nullptr ? &solved : nullptr);
        if (!(det.re.hi > 0)) {
            throw InvalidArgument(
                "a torontonian needs I − O Hermitian positive definite; its submatrix on modes " +
                modes_text(set) + " has determinant " + std::to_string(det.re.hi));
        }
        DoubleDouble term = DoubleDouble(1) / numeric::sqrt(det.re);
        if (gamma != nullptr) {
            DoubleDouble q;  // γ_Zᵀ M⁻¹ γ_Z* = Σ conj(x_i)·solved_i, real for Hermitian M
            for (std::size_t i = 0; i < x.size(); ++i) {
                q += x[i].re * solved[i].re + x[i].im * solved[i].im;
            }
            term = term * numeric::exp(q * DoubleDouble(0.5));
        }
        const int parity = (n - k / 2) % 2;
        total += parity != 0 ? -term : term;
        magnitude += abs(term);
    }
    FloatOutcome out;
    out.mantissa = total.to_double();
    out.abs_error_mantissa =
        0x1p-80 * magnitude.to_double() + 0x1p-53 * std::fabs(total.to_double());
    out.gray_steps = std::uint64_t{1} << n;
    out.arithmetic = "double-double (brute force)";
    return out;
}

template void check_torontonian(const DenseMatrix<double>&, const std::vector<double>*);
template void check_torontonian(const DenseMatrix<std::complex<double>>&,
                                const std::vector<std::complex<double>>*);
template FloatOutcome torontonian(const DenseMatrix<double>&, const std::vector<double>*, bool,
                                  const run::EngineRun&);
template FloatOutcome torontonian(const DenseMatrix<std::complex<double>>&,
                                  const std::vector<std::complex<double>>*, bool,
                                  const run::EngineRun&);
template FloatOutcome torontonian_gpu(const DenseMatrix<double>&, const std::vector<double>*,
                                      const run::EngineRun&);
template FloatOutcome torontonian_gpu(const DenseMatrix<std::complex<double>>&,
                                      const std::vector<std::complex<double>>*,
                                      const run::EngineRun&);
template FloatOutcome torontonian_brute_force(const DenseMatrix<double>&,
                                              const std::vector<double>*);
template FloatOutcome torontonian_brute_force(const DenseMatrix<std::complex<double>>&,
                                              const std::vector<std::complex<double>>*);

}  // namespace pmcount::exact
