// The default precision's answer to cancellation (kCancellationRelError): a double result whose
// error figure leaves fewer than six digits is counted again in an arithmetic that settles it,
// within a budget of time.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "core/names.hpp"
#include "count/pipeline.hpp"
#include "pmcount/error.hpp"

namespace pmcount::counting {

namespace {

/// A recount may take this many times the double count, or this many seconds if more.
constexpr double kRecountFactor = 4;
constexpr double kRecountFloor_s = 10;

/// The matrix as integers when every entry is one below 2^53 in magnitude (so the double is the
/// integer), else nullopt.
std::optional<SparseMatrix<std::int64_t>> integer_valued(const SparseMatrix<double>& matrix) {
    constexpr double kExactDoubleLimit = 9007199254740992.0;  // 2^53
    std::vector<Triplet<std::int64_t>> entries;
    for (const auto& t : matrix.triplets()) {
        if (!(std::nearbyint(t.value) == t.value && std::fabs(t.value) < kExactDoubleLimit)) {
            return std::nullopt;
        }
        entries.push_back({t.row, t.col, static_cast<std::int64_t>(t.value)});
    }
    return SparseMatrix<std::int64_t>(matrix.rows(), matrix.cols(), std::move(entries));
}

}  // namespace

template <class T>
CountResult recount_after_cancellation(ValueKind kind, const SparseMatrix<T>& matrix,
                                       plan::Problem problem, const char* row_name,
                                       const char* col_name, const CountOptions& options,
                                       CountResult first) {
    char figure[32];
    std::snprintf(figure, sizeof figure, "%.1e", first.rel_error);
    std::string why = "cancellation: the double result's error estimate is " + std::string(figure) +
                      " of its value";
    if (!options.checkpoint.empty() || first.stats.ranks > 1) {
        first.note = noted(first.note, why + " (not recounted under " +
                                           (first.stats.ranks > 1 ? std::string("MPI ranks")
                                                                  : std::string("a checkpoint")) +
                                           "; --precision certified or dd settles it)");
        return first;
    }
    const double budget = std::max(kRecountFloor_s, kRecountFactor * first.timings.count_s);
    std::string declined, trying;
    // The count of `m` (value kind k) in precision p, when its plan fits the budget.
    auto recount = [&](ValueKind k, const auto& m, Precision p,
                       const std::string& label) -> std::optional<CountResult> {
        CountOptions o = options;
        o.precision = p;
        o.explain_only = true;
        double predicted = 0;
        try {
            predicted = count_matrix(k, m, problem, row_name, col_name, o).structure.predicted_s;
        } catch (const Error&) {
            return std::nullopt;  // no engine of this arithmetic takes the plan
        }
        if (predicted > budget) {
            char seconds[32];
            std::snprintf(seconds, sizeof seconds, "%.3g", predicted);
            declined += std::string(declined.empty() ? "" : ", ") + "--precision " + to_string(p) +
                        " (predicted " + seconds + " s)";
            return std::nullopt;
        }
        o.explain_only = false;
        trying = label;
        CountResult second = count_matrix(k, m, problem, row_name, col_name, o);
        second.escalated_from = "double";
        second.note = noted(second.note, why + "; counted again in " + label);
        second.timings.total_s += first.timings.total_s;
        return second;
    };
    try {
        if constexpr (std::is_same_v<T, double>) {
            if (const auto integral = integer_valued(matrix)) {
                if (auto second = recount(ValueKind::integer, *integral, Precision::exact,
                                          "exact integers (every entry is an integer)")) {
                    return *second;
                }
            }
            // Small walks already ran certified (walk_error.hpp's kCertifiedWalkLog2): then
            // only double-double adds digits.
            const bool certified = first.arithmetic.find("certified") != std::string::npos;
            if (!certified && problem == plan::Problem::permanent && !options.general &&
                (options.method == Method::automatic || options.method == Method::ryser)) {
                if (auto second = recount(kind, matrix, Precision::certified,
                                          "certified arithmetic (a bound)")) {
                    return *second;
                }
            }
            if (auto second = recount(kind, matrix, Precision::double_double, "double-double")) {
                return *second;
            }
        }
    } catch (const Interrupted&) {
        throw;
    } catch (const Error& e) {  // the double result stands, with what went wrong
        first.note =
            noted(first.note, why + "; counting again in " + trying + " failed: " + e.what());
        return first;
    }
    first.note =
        noted(first.note, why + (declined.empty() ? std::string("; no other arithmetic takes it")
                                                  : "; not counted again: " + declined));
    return first;
}

template CountResult recount_after_cancellation(ValueKind, const SparseMatrix<double>&,
                                                plan::Problem, const char*, const char*,
                                                const CountOptions&, CountResult);
template CountResult recount_after_cancellation(ValueKind,
                                                const SparseMatrix<std::complex<double>>&,
                                                plan::Problem, const char*, const char*,
                                                const CountOptions&, CountResult);

}  // namespace pmcount::counting
