// The repeated-rows entry points (pmcount/count.hpp): hafnian_repeated, loop_hafnian_repeated and
// permanent_repeated, over the engine of exact/hafnian/repeated.hpp, in the arithmetic the
// entries and the options ask for.
#include "exact/hafnian/repeated.hpp"

#include <chrono>
#include <complex>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "core/clock.hpp"
#include "core/stop.hpp"
#include "count/pipeline.hpp"
#include "exact/hafnian/hafnian.hpp"
#include "exact/hafnian/paired.hpp"
#include "numeric/permanent_bound.hpp"
#include "numeric/scaled.hpp"
#include "plan/cost_model.hpp"
#include "plan/floating_result.hpp"
#include "pmcount/count.hpp"
#include "pmcount/error.hpp"

namespace pmcount {

namespace {

using detail::Clock;
using detail::seconds_since;

template <class T>
ValueKind kind_of(const DenseMatrix<T>& a) {
    if constexpr (std::is_same_v<T, std::int64_t>) {
        for (const std::int64_t v : a.data()) {
            if (v != 0 && v != 1) {
                return ValueKind::integer;
            }
        }
        return ValueKind::binary;
    } else if constexpr (std::is_same_v<T, double>) {
        return ValueKind::real;
    } else {
        return ValueKind::complex;
    }
}

/// The options these functions have: CPU threads, exact (integers) or floating arithmetic.
Precision checked(const CountOptions& options, ValueKind kind, bool integral, const char* what) {
    if (options.method != Method::automatic) {
        throw InvalidArgument(std::string(what) +
                              " sums over the multiplicities; it takes no method");
    }
    if (options.backend == Backend::cuda) {
        throw InvalidArgument(std::string(what) +
                              " runs on CPU threads (no GPU engine for it yet)");
    }
    const Precision p = options.precision;
    if (p == Precision::certified || p == Precision::double_plain) {
        throw InvalidArgument(std::string(what) +
                              " has exact arithmetic for integers and double-double (rounded to "
                              "double, with a bound) otherwise");
    }
    if (p == Precision::exact && !integral) {
        throw InvalidArgument(
            std::string("exact arithmetic needs integer entries; this matrix is ") +
            to_string(kind));
    }
    return integral && (p == Precision::automatic || p == Precision::exact)
               ? Precision::exact
               : Precision::double_double;
}

/// The engine's outcome as a CountResult.
CountResult result_of(ValueKind kind, const exact::ExactOutcome* e, const exact::FloatOutcome* f,
                      const char* method, const CountOptions& options) {
    CountResult r;
    if (e != nullptr) {
        r = counting::exact_result(kind, e->value, "");
        r.stats.primes = e->primes;
        r.stats.gray_steps = e->gray_steps;
        r.arithmetic = e->arithmetic;
    } else {
        r.kind = kind;
        plan::set_floating_result(r, numeric::Scaled::from(f->mantissa, f->exponent2),
                                  numeric::Scaled::from(f->abs_error_mantissa, f->exponent2));
        r.error_kind = "bound";
        r.stats.gray_steps = f->gray_steps;
        r.arithmetic = f->arithmetic;
    }
    r.method = method;
    r.backend = "cpu";
    r.stats.threads = run::resolve_threads(options.threads);
    return r;
}

template <class Out>
DenseMatrix<Out> converted(const DenseMatrix<std::int64_t>& a) {
    DenseMatrix<Out> b(a.rows(), a.cols());
    for (vertex_t i = 0; i < a.rows(); ++i) {
        for (vertex_t j = 0; j < a.cols(); ++j) {
            b(i, j) = static_cast<double>(a(i, j));
        }
    }
    return b;
}

/// B = reduction(A, rpt) with mu on the copies' diagonal (zero without loops), when its order is
/// one the hafnian engine takes; empty otherwise.
template <class T>
DenseMatrix<T> expansion(const DenseMatrix<T>& a, const std::vector<int>& rpt,
                         const std::vector<T>* mu) {
    std::vector<vertex_t> copy_of;
    for (std::size_t i = 0; i < rpt.size(); ++i) {
        copy_of.insert(copy_of.end(), static_cast<std::size_t>(std::max(0, rpt[i])),
                       static_cast<vertex_t>(i));
    }
    const auto n = static_cast<vertex_t>(copy_of.size());
    if (n > exact::kMaxHafnianOrder || rpt.size() != static_cast<std::size_t>(a.rows()) ||
        !a.is_square()) {
        return {};
    }
    DenseMatrix<T> b(n, n, T{});
    for (vertex_t x = 0; x < n; ++x) {
        for (vertex_t y = 0; y < n; ++y) {
            b(x, y) =
                x != y
                    ? a(copy_of[static_cast<std::size_t>(x)], copy_of[static_cast<std::size_t>(y)])
                    : (mu != nullptr
                           ? (*mu)[static_cast<std::size_t>(copy_of[static_cast<std::size_t>(x)])]
                           : T{});
        }
    }
    return b;
}

/// The engines for repeated rows, by predicted time (plan/cost_model.hpp).
enum class RepeatedEngine { expand, sum, paired };

/// The fastest of: the hafnian engine on the expanded matrix b (when it takes its order), the sum
/// over the multiplicities, and the paired copies (when its tables fit); the predictions for
/// the note in `why`.
template <class T>
RepeatedEngine fastest(const DenseMatrix<T>& a, const DenseMatrix<T>& b,
                       const std::vector<int>& rpt, const std::vector<T>* mu, Precision precision,
                       bool paired_allowed, const CountOptions& options, std::string& why) {
    const bool loops = mu != nullptr;
    double points = 1, units = 0;
    for (const int r : rpt) {
        points *= r + 1;
        units += r > 0 ? r + 1 : 0;
    }
    const plan::Arithmetic arithmetic = precision == Precision::exact ? plan::Arithmetic::exact
                                        : std::is_same_v<T, std::complex<double>>
                                            ? plan::Arithmetic::complex
                                            : plan::Arithmetic::double_precision;
    const int threads = run::resolve_threads(options.threads);
    int primes = 1;
    if constexpr (std::is_same_v<T, std::int64_t>) {
        DenseMatrix<std::int64_t> kept;
        std::vector<int> r;
        std::vector<std::int64_t> kept_mu;
        exact::keep_present(a, rpt, mu, kept, r, kept_mu);
        const double bound =
            exact::hafnian_repeated_bound_log2(kept, r, loops ? &kept_mu : nullptr);
        primes = static_cast<int>(std::ceil(std::max(0.0, bound) / 61)) + 2;
    }
    const double inf = std::numeric_limits<double>::infinity();
    double expand_s = inf;
    // The hafnian engine has no complex double-double.
    const bool expandable =
        !(std::is_same_v<T, std::complex<double>> && options.precision == Precision::double_double);
    if (b.rows() >= 2 && expandable) {
        plan::LeafFacts f;
        f.problem = plan::Problem::hafnian;
        f.order = b.rows() + (loops && b.rows() % 2 != 0 ? 1 : 0);
        f.threads = threads;
        f.arithmetic = arithmetic;
        if constexpr (std::is_same_v<T, std::int64_t>) {
            const double bound =
                loops ? numeric::loop_hafnian_bound_log2(b) : numeric::hafnian_bound_log2(b, false);
            f.primes = exact::hafnian_primes(std::isinf(bound) ? 0 : bound);
        }
        // The loops add about a third to the recursion (docs/photonics.md).
        expand_s = plan::hafnian_seconds(f) * (loops ? 1.35 : 1.0);
    }
    const double sum_s = plan::repeated_seconds(points, units, arithmetic, primes, threads);
    double paired_s = inf;
    if (const exact::PairedWork w = exact::paired_work(rpt, loops);
        paired_allowed && w.points > 0 && w.held <= exact::kMaxPairedHeld) {
        paired_s = plan::paired_seconds(w.points, w.nodes, w.modes, w.half, loops, arithmetic,
                                        primes, threads);
    }
    auto shown = [&](double s) { return std::isinf(s) ? std::string("—") : std::to_string(s); };
    why = "predicted " + shown(expand_s) + " s for the hafnian of the expanded " +
          std::to_string(b.rows()) + "×" + std::to_string(b.rows()) + " matrix, " + shown(sum_s) +
          " s for the sum over the multiplicities, " + shown(paired_s) + " s for the paired copies";
    if (paired_s <= expand_s && paired_s <= sum_s) {
        return RepeatedEngine::paired;
    }
    return expand_s < sum_s ? RepeatedEngine::expand : RepeatedEngine::sum;
}

/// A floating paired count whose figure exceeds this fraction of the value is counted again by
/// the engine with a bound (as the torontonian's double).
constexpr double kPairedRecount = 1e-6;

template <class T>
CountResult hafnian_repeated_of(const DenseMatrix<T>& a, const std::vector<int>& rpt,
                                const std::vector<T>* mu, const CountOptions& options) {
    const Clock::time_point start = Clock::now();
    const ValueKind kind = kind_of(a);
    const char* what = mu != nullptr ? "loop_hafnian_repeated" : "hafnian_repeated";
    const Precision p = checked(options, kind, std::is_same_v<T, std::int64_t>, what);
    const run::EngineRun run = counting::engine_run(options);
    exact::check_hafnian_repeated(a, rpt, mu);
    // The paired engine's floating figure is an estimate: not where double-double was asked for.
    const bool paired_allowed = p == Precision::exact ||
                                options.precision == Precision::automatic ||
                                options.precision == Precision::double_precision;
    std::string why;
    const DenseMatrix<T> b = expansion(a, rpt, mu);
    RepeatedEngine engine = fastest(a, b, rpt, mu, p, paired_allowed, options, why);
    CountResult r;
    std::string recounted;
    if (engine == RepeatedEngine::paired) {
        if constexpr (std::is_same_v<T, std::int64_t>) {
            if (p == Precision::exact) {
                const exact::ExactOutcome e = exact::hafnian_paired_exact(a, rpt, mu, run);
                r = result_of(kind, &e, nullptr, what, options);
            }
        }
        if (p != Precision::exact) {
            using F = std::conditional_t<std::is_same_v<T, std::int64_t>, double, T>;
            std::vector<F> float_mu;
            if (mu != nullptr) {
                float_mu.assign(mu->begin(), mu->end());
            }
            exact::FloatOutcome f;
            if constexpr (std::is_same_v<T, std::int64_t>) {
                f = exact::hafnian_paired_float(converted<double>(a), rpt,
                                                mu != nullptr ? &float_mu : nullptr, run);
            } else {
                f = exact::hafnian_paired_float(a, rpt, mu, run);
            }
            if (f.abs_error_mantissa <= kPairedRecount * std::abs(f.mantissa)) {
                r = result_of(kind, nullptr, &f, what, options);
                r.error_kind = "estimate";
            } else {
                recounted = "the paired copies' figure was " +
                            std::to_string(f.abs_error_mantissa / std::abs(f.mantissa)) +
                            " of the value: counted again with a bound; ";
                engine = fastest(a, b, rpt, mu, p, false, options, why);
            }
        }
        if (engine == RepeatedEngine::paired) {
            r.note = counting::noted(r.note, "summed over the paired copies: " + why);
        }
    }
    if (engine == RepeatedEngine::expand) {
        r = mu != nullptr ? loop_hafnian(b, options) : hafnian(b, options);
        r.note = counting::noted(r.note, recounted +
                                             "counted as the (loop) hafnian of thewalrus's "
                                             "reduction: " +
                                             why);
        return r;
    }
    if (engine == RepeatedEngine::sum) {
        if constexpr (std::is_same_v<T, std::int64_t>) {
            if (p == Precision::exact) {
                const exact::ExactOutcome e = exact::hafnian_repeated_exact(a, rpt, mu, run);
                r = result_of(kind, &e, nullptr, what, options);
            } else {
                std::vector<double> real_mu;
                if (mu != nullptr) {
                    real_mu.assign(mu->begin(), mu->end());
                }
                const exact::FloatOutcome f = exact::hafnian_repeated_float(
                    converted<double>(a), rpt, mu != nullptr ? &real_mu : nullptr, run);
                r = result_of(kind, nullptr, &f, what, options);
            }
        } else {
            const exact::FloatOutcome f = exact::hafnian_repeated_float(a, rpt, mu, run);
            r = result_of(kind, nullptr, &f, what, options);
        }
        r.note = counting::noted(r.note, recounted + "summed over the multiplicities: " + why);
    }
    r.stats.n = a.rows();
    r.timings.total_s = r.timings.count_s = seconds_since(start);
    return r;
}

}  // namespace

template <class T>
CountResult hafnian_repeated(const DenseMatrix<T>& matrix, const std::vector<int>& rpt,
                             const CountOptions& options) {
    return detail::stop_boundary(
        [&] { return hafnian_repeated_of<T>(matrix, rpt, nullptr, options); });
}

template <class T>
CountResult loop_hafnian_repeated(const DenseMatrix<T>& matrix, const std::vector<int>& rpt,
                                  const std::vector<T>& mu, const CountOptions& options) {
    return detail::stop_boundary([&] { return hafnian_repeated_of<T>(matrix, rpt, &mu, options); });
}

template <class T>
CountResult permanent_repeated(const DenseMatrix<T>& matrix, const std::vector<int>& rows,
                               const std::vector<int>& cols, const CountOptions& options) {
    return detail::stop_boundary([&] {
        const Clock::time_point start = Clock::now();
        const ValueKind kind = kind_of(matrix);
        const char* what = "permanent_repeated";
        const Precision p = checked(options, kind, std::is_same_v<T, std::int64_t>, what);
        const run::EngineRun run = counting::engine_run(options);
        CountResult r;
        if constexpr (std::is_same_v<T, std::int64_t>) {
            if (p == Precision::exact) {
                const exact::ExactOutcome e =
                    exact::permanent_repeated_exact(matrix, rows, cols, run);
                r = result_of(kind, &e, nullptr, what, options);
            } else {
                const exact::FloatOutcome f =
                    exact::permanent_repeated_float(converted<double>(matrix), rows, cols, run);
                r = result_of(kind, nullptr, &f, what, options);
            }
        } else {
            const exact::FloatOutcome f = exact::permanent_repeated_float(matrix, rows, cols, run);
            r = result_of(kind, nullptr, &f, what, options);
        }
        r.stats.n = std::max(matrix.rows(), matrix.cols());
        r.timings.total_s = r.timings.count_s = seconds_since(start);
        return r;
    });
}

#define PMCOUNT_REPEATED(T)                                                                    \
    template CountResult hafnian_repeated(const DenseMatrix<T>&, const std::vector<int>&,      \
                                          const CountOptions&);                                \
    template CountResult loop_hafnian_repeated(const DenseMatrix<T>&, const std::vector<int>&, \
                                               const std::vector<T>&, const CountOptions&);    \
    template CountResult permanent_repeated(const DenseMatrix<T>&, const std::vector<int>&,    \
                                            const std::vector<int>&, const CountOptions&);
PMCOUNT_REPEATED(std::int64_t)
PMCOUNT_REPEATED(double)
PMCOUNT_REPEATED(std::complex<double>)
#undef PMCOUNT_REPEATED

}  // namespace pmcount
