// The torontonian's entry points (pmcount/count.hpp): torontonian and loop_torontonian, over the
// engine of exact/torontonian/torontonian.hpp, in the arithmetic the options ask for — by default
// double, counted again in double-double when the double figure shows cancellation or lost
// precision.
#include "exact/torontonian/torontonian.hpp"

#include <cmath>
#include <complex>
#include <string>
#include <type_traits>
#include <vector>

#include "core/clock.hpp"
#include "core/stop.hpp"
#include "count/pipeline.hpp"
#include "numeric/scaled.hpp"
#include "plan/floating_result.hpp"
#include "pmcount/count.hpp"
#include "pmcount/error.hpp"

namespace pmcount {

namespace {

using detail::Clock;
using detail::seconds_since;

/// The arithmetic asked for: double_precision, double_double, or automatic (double, then
/// double-double on cancellation).
Precision checked(const CountOptions& options, const char* what) {
    if (options.method != Method::automatic && options.method != Method::brute_force) {
        throw InvalidArgument(std::string(what) +
                              " sums over the sets of modes (or brute force); it takes no method " +
                              to_string(options.method));
    }
    const Precision p = options.precision;
    if (options.backend == Backend::cuda &&
        (p == Precision::double_double || options.method == Method::brute_force)) {
        throw InvalidArgument(std::string(what) +
                              " runs on a GPU in double only (double-double and brute force run "
                              "on CPU threads)");
    }
    if (p != Precision::automatic && p != Precision::double_precision &&
        p != Precision::double_double) {
        throw InvalidArgument(std::string(what) +
                              " has double and double-double arithmetic (its terms are square "
                              "roots), not " +
                              to_string(p));
    }
    return p;
}

std::string plan_text(vertex_t order, bool loop) {
    const vertex_t n = order / 2;
    return std::string(loop ? "loop torontonian" : "torontonian") + " of " + std::to_string(n) +
           " modes (a " + std::to_string(order) + "×" + std::to_string(order) + " matrix): 2^" +
           std::to_string(n) +
           " sets of modes walked as a tree, each child's determinant from its parent's Schur "
           "complement (about 12·2^" +
           std::to_string(n) + " multiply-adds)\n";
}

template <class T>
CountResult torontonian_of(const DenseMatrix<T>& o, const std::vector<T>* gamma,
                           const CountOptions& options) {
    const Clock::time_point start = Clock::now();
    const char* what = gamma != nullptr ? "a loop torontonian" : "a torontonian";
    const Precision p = checked(options, what);
    exact::check_torontonian(o, gamma);
    CountResult r;
    r.kind = ValueKind::real;  // the value is real for a complex (Hermitian) O too
    r.method = options.method == Method::brute_force ? "brute-force"
               : gamma != nullptr                    ? "loop-torontonian"
                                                     : "torontonian";
    r.backend = "cpu";
    if (options.explain_only) {
        r.explained_only = true;
        r.structure.plan_text = plan_text(o.rows(), gamma != nullptr);
        return r;
    }
    const run::EngineRun run = counting::engine_run(options);
    exact::FloatOutcome f;
    std::string note;
    if (options.method == Method::brute_force) {
        f = exact::torontonian_brute_force(o, gamma);
    } else {
        const bool gpu = options.backend == Backend::cuda;
        f = gpu ? exact::torontonian_gpu(o, gamma, run)
                : exact::torontonian(o, gamma, p == Precision::double_double, run);
        if (gpu) {
            r.backend = "cuda";
            r.device = f.where.device;
        }
        const double rel = f.abs_error_mantissa / std::fabs(f.mantissa.real());
        if (p == Precision::automatic && !(rel <= counting::kCancellationRelError)) {
            note = "the double result's figure (" + std::to_string(rel) +
                   " of the value) showed cancellation or lost precision: counted again in "
                   "double-double" +
                   std::string(gpu ? " on the CPU" : "");
            f = exact::torontonian(o, gamma, true, run);
            r.escalated_from = "double";
        }
    }
    plan::set_floating_result(r, numeric::Scaled::from(f.mantissa, f.exponent2),
                              numeric::Scaled::from(f.abs_error_mantissa, f.exponent2));
    // Double tracks its first-order error (an estimate that follows the actual error); the
    // double-double walk and the brute force bound theirs.
    r.error_kind = f.arithmetic.rfind("double-double", 0) == 0 ? "bound" : "estimate";
    r.arithmetic = f.arithmetic;
    r.note = note;
    r.stats.n = o.rows();
    r.stats.gray_steps = f.gray_steps;
    r.stats.threads = run::resolve_threads(options.threads);
    r.timings.total_s = r.timings.count_s = seconds_since(start);
    return r;
}

}  // namespace

template <class T>
CountResult torontonian(const DenseMatrix<T>& matrix, const CountOptions& options) {
    return detail::stop_boundary([&] { return torontonian_of<T>(matrix, nullptr, options); });
}

template <class T>
CountResult loop_torontonian(const DenseMatrix<T>& matrix, const std::vector<T>& gamma,
                             const CountOptions& options) {
    return detail::stop_boundary([&] { return torontonian_of<T>(matrix, &gamma, options); });
}

template CountResult torontonian(const DenseMatrix<double>&, const CountOptions&);
template CountResult torontonian(const DenseMatrix<std::complex<double>>&, const CountOptions&);
template CountResult loop_torontonian(const DenseMatrix<double>&, const std::vector<double>&,
                                      const CountOptions&);
template CountResult loop_torontonian(const DenseMatrix<std::complex<double>>&,
                                      const std::vector<std::complex<double>>&,
                                      const CountOptions&);

}  // namespace pmcount
