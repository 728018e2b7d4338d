// The public counting entry points: resolve the arithmetic, settle what needs no engine (unequal
// sides, an odd number of vertices, an empty line), then hand the matrix to the planner
// (lib/plan: the permanent's or the hafnian's front end), refuse infeasible plans, evaluate, and
// fill CountResult.
#include "pmcount/count.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "backend/device.hpp"
#include "core/hash.hpp"
#include "core/memory.hpp"
#include "core/names.hpp"
#include "core/stop.hpp"
#include "exact/brute_force.hpp"
#include "exact/ryser/ryser_gpu.hpp"
#include "exact/ryser/ryser_kernel.hpp"
#include "numeric/cpp_int_bridge.hpp"
#include "numeric/scaled.hpp"
#include "plan/engines.hpp"
#include "plan/floating_result.hpp"
#include "plan/plan.hpp"
#include "pmcount/build_info.hpp"
#include "pmcount/distributed.hpp"
#include "pmcount/error.hpp"
#include "pmcount/io.hpp"
#include "run/chunked_run.hpp"
#include "run/mpi.hpp"
#include "run/session.hpp"

namespace pmcount {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

/// An exact integer known without running an engine.
CountResult exact_result(ValueKind kind, const BigInt& value, std::string note) {
    CountResult r;
    r.kind = kind;
    r.is_exact = true;
    r.exact = value;
    r.value = value.to_double();
    r.complex_value = r.value;
    r.log10_abs = value.log10_abs();
    r.sign = value.sign();
    r.method = "none";
    r.backend = "cpu";
    r.arithmetic = "none";
    r.note = std::move(note);
    return r;
}

/// The GPUs CUDA sees (queried once: the set does not change while the process runs).
const std::vector<DeviceInfo>& visible_devices() {
    static const std::vector<DeviceInfo> devices = [] {
        std::string status;
        return backend::cuda::devices(status);
    }();
    return devices;
}

/// The arithmetic a problem runs in: the option, or exact for integers and double otherwise.
template <class T>
Precision resolve_precision(Precision requested, ValueKind kind) {
    constexpr bool integral = std::is_same_v<T, std::int64_t>;
    const Precision p = requested != Precision::automatic
                            ? requested
                            : (integral ? Precision::exact : Precision::double_precision);
    if (p == Precision::exact && !integral) {
        throw InvalidArgument("exact arithmetic needs integer entries; this matrix is " +
                              std::string(to_string(kind)) + " (use --precision double or dd)");
    }
    if (p == Precision::double_double && std::is_same_v<T, std::complex<double>>) {
        throw InvalidArgument("--precision dd is available for real and integer matrices only");
    }
    if (p == Precision::certified && std::is_same_v<T, std::complex<double>>) {
        throw InvalidArgument(
            "--precision certified is available for real and integer matrices only");
    }
    return p;
}

/// The engines the plan uses, e.g. "ryser" or "direct+ryser"; "structure" when the front end
/// alone settled the count.
std::string leaf_methods(const StructureReport& report) {
    std::string methods;
    for (const BlockReport& leaf : report.leaves) {
        if (leaf.engine != "empty" && methods.find(leaf.engine) == std::string::npos) {
            methods += methods.empty() ? leaf.engine : "+" + leaf.engine;
        }
    }
    return methods.empty() ? "structure" : methods;
}

/// Refuses a plan that cannot finish: an engine's order limit, or the predicted time limit.
void check_feasible(const StructureReport& report, const CountOptions& options, int threads) {
    for (const BlockReport& leaf : report.leaves) {
        if (!std::isfinite(leaf.predicted_s) && leaf.engine.rfind("none", 0) == 0) {
            // The planner wrote "none (why)".
            const std::string why = leaf.engine.substr(6, leaf.engine.size() - 7);
            if (options.method != Method::automatic) {
                throw ProblemTooLarge(std::string("--method ") + to_string(options.method) +
                                      " cannot count a block of order " +
                                      std::to_string(leaf.order) + ": " + why +
                                      " (--method auto chooses among every engine)");
            }
            if (why.find("(--max-memory)") != std::string::npos) {
                throw ProblemTooLarge("a block of order " + std::to_string(leaf.order) +
                                      " remains after the structure front end, and no exact "
                                      "engine fits the memory limit: " +
                                      why + " (raise --max-memory, or --approx estimates it)");
            }
            throw ProblemTooLarge("a block of order " + std::to_string(leaf.order) +
                                  " remains after the structure front end, too large for the "
                                  "exact engines: " +
                                  why +
                                  "; exact counting of general graphs this large is out of "
                                  "reach (--approx estimates it). Run with --explain to see "
                                  "the plan");
        }
    }
    if (report.predicted_s > options.max_predicted_seconds) {
        char buffer[200];
        std::snprintf(buffer, sizeof buffer,
                      "the plan is predicted to take %.3g s on %d thread(s) (%.3g days), more "
                      "than the limit of %.3g s",
                      report.predicted_s, threads, report.predicted_s / 86400,
                      options.max_predicted_seconds);
        throw ProblemTooLarge(std::string(buffer) +
                              "; raise the limit (--max-time) or see the plan with --explain");
    }
}

/// What a checkpoint must match: the version, the input's entries (and whether they are read
/// as a permanent's or a hafnian's matrix), the precision and each leaf's engine and order.
template <class T>
run::Identity run_identity(const SparseMatrix<T>& m, bool hafnian, Precision precision,
                           const StructureReport& plan) {
    std::uint64_t input = fnv1a(hafnian ? "hafnian" : "permanent");
    input = fnv1a_value(fnv1a_value(input, m.rows()), m.cols());
    for (const auto& t : m.triplets()) {
        input = fnv1a_value(fnv1a_value(fnv1a_value(input, t.row), t.col), t.value);
    }
    std::uint64_t leaves = fnv1a(to_string(precision));
    std::string engines;
    for (std::size_t k = 0; k < plan.leaves.size(); ++k) {
        const BlockReport& leaf = plan.leaves[k];
        leaves = fnv1a_value(fnv1a(leaf.engine, leaves), leaf.order);
        if (k < 4) {
            engines += (k == 0 ? "" : ", ") + leaf.engine + " " + std::to_string(leaf.order);
        }
    }
    char text[160];
    std::snprintf(text, sizeof text, "%d×%d, %lld entries, hash %016llx", m.rows(), m.cols(),
                  static_cast<long long>(m.nnz()), static_cast<unsigned long long>(input));
    run::Identity id;
    id.version = build_info().version;
    id.input = text;
    std::snprintf(text, sizeof text, "; leaves: %zu%s, hash %016llx", plan.leaves.size(),
                  plan.leaves.size() > 4 ? " (the first 4 shown)" : "",
                  static_cast<unsigned long long>(leaves));
    id.plan = std::string(to_string(precision)) + " precision, engines " + engines + text;
    return id;
}

/// The first row or column without a nonzero entry, named (the cheapest certificate of zero).
template <class T>
std::optional<std::string> empty_line(const SparseMatrix<T>& m, const char* row_name,
                                      const char* col_name) {
    std::vector<char> row_used(static_cast<std::size_t>(m.rows()), 0);
    std::vector<char> col_used(static_cast<std::size_t>(m.cols()), 0);
    for (const auto& t : m.triplets()) {
        if (t.value != T{}) {
            row_used[static_cast<std::size_t>(t.row)] = 1;
            col_used[static_cast<std::size_t>(t.col)] = 1;
        }
    }
    for (const auto& [used, name] :
         {std::pair{&row_used, row_name}, std::pair{&col_used, col_name}}) {
        const auto it = std::find(used->begin(), used->end(), 0);
        if (it != used->end()) {
            return std::string(name) + " " + std::to_string(it - used->begin()) +
                   " has no nonzero entries";
        }
    }
    return std::nullopt;
}

/// Floating inputs: every row, then every column, divided by a power of two that brings its
/// largest |entry| into [1/2, 1). Only exponents change, so this is exact (unless an entry is
/// more than 2^1021 times smaller than both its row's and its column's largest), and the
/// engines, reductions and direct formulas then see entries near 1 whatever the input's range:
/// perm(A) = 2^shift · perm(balanced A). T is double or complex.
template <class T>
SparseMatrix<T> balanced_by_powers_of_two(const SparseMatrix<T>& a, std::int64_t& shift) {
    auto size = [](const T& v) {
        if constexpr (std::is_same_v<T, double>) {
            return std::fabs(v);
        } else {
            return std::max(std::fabs(v.real()), std::fabs(v.imag()));
        }
    };
    std::vector<Triplet<T>> entries = a.triplets();
    shift = 0;
    auto balance = [&](auto line_of, vertex_t lines) {
        std::vector<double> largest(static_cast<std::size_t>(lines), 0.0);
        for (const auto& t : entries) {
            double& m = largest[static_cast<std::size_t>(line_of(t))];
            m = std::max(m, size(t.value));
        }
        std::vector<int> exponent(largest.size(), 0);
        for (std::size_t k = 0; k < largest.size(); ++k) {
            if (largest[k] > 0 && std::isfinite(largest[k])) {
                std::frexp(largest[k], &exponent[k]);
                shift += exponent[k];
            }
        }
        for (auto& t : entries) {
            const int e = exponent[static_cast<std::size_t>(line_of(t))];
            if constexpr (std::is_same_v<T, double>) {
                t.value = std::ldexp(t.value, -e);
            } else {
                t.value = {std::ldexp(t.value.real(), -e), std::ldexp(t.value.imag(), -e)};
            }
        }
    };
    balance([](const Triplet<T>& t) { return t.row; }, a.rows());
    balance([](const Triplet<T>& t) { return t.col; }, a.cols());
    return SparseMatrix<T>(a.rows(), a.cols(), std::move(entries));
}

/// The same for a hafnian, which only allows the symmetric scaling D·A·D (haf(DAD) = Π d_i ·
/// haf(A)): vertex i is divided by 2^e_i, e_i = ⌊E_i/2⌋ with E_i the binary exponent of its largest
/// off-diagonal |entry| m_i < 2^E_i. Since |a_ij| ≤ √(m_i·m_j) < 2^((E_i + E_j)/2), every scaled
/// entry is below 2 in magnitude whatever the input's range; only exponents change (exact).
template <class T>
SparseMatrix<T> balanced_symmetric(const SparseMatrix<T>& a, std::int64_t& shift) {
    std::vector<double> largest(static_cast<std::size_t>(a.rows()), 0.0);
    for (const auto& t : a.triplets()) {
        if (t.row != t.col) {
            double& m = largest[static_cast<std::size_t>(t.row)];
            m = std::max(m, std::abs(t.value));
        }
    }
    std::vector<int> exponent(largest.size(), 0);
    shift = 0;
    for (std::size_t k = 0; k < largest.size(); ++k) {
        if (largest[k] > 0 && std::isfinite(largest[k])) {
            int e = 0;
            std::frexp(largest[k], &e);
            exponent[k] = e / 2;
            shift += exponent[k];
        }
    }
    std::vector<Triplet<T>> entries = a.triplets();
    for (auto& t : entries) {
        const int e =
            -exponent[static_cast<std::size_t>(t.row)] - exponent[static_cast<std::size_t>(t.col)];
        if constexpr (std::is_same_v<T, double>) {
            t.value = std::ldexp(t.value, e);
        } else {
            t.value = {std::ldexp(t.value.real(), e), std::ldexp(t.value.imag(), e)};
        }
    }
    return SparseMatrix<T>(a.rows(), a.cols(), std::move(entries));
}

template <class T>
CountResult recount_after_cancellation(ValueKind kind, const SparseMatrix<T>& matrix,
                                       plan::Problem problem, const char* row_name,
                                       const char* col_name, const CountOptions& options,
                                       CountResult first);

/// `note`, with `more` after it.
std::string noted(std::string note, const std::string& more) {
    return note.empty() ? more : note + "; " + more;
}

/// The default precision's double result is counted again when its error figure exceeds this
/// fraction of the value: fewer than six digits are left. Not lower: random dense matrices lose
/// about half of double's digits by order 40 (figure 1.3e-8 of the value on an H200, the actual
/// error 6.4 times less) and must not pay a recount for it (issue 32); the figure holds
/// on cancelling inputs (walk_error.hpp), so a result below this keeps what it states.
constexpr double kCancellationRelError = 1e-6;

template <class T>
CountResult count_unguarded(ValueKind kind, const SparseMatrix<T>& matrix, plan::Problem problem,
                            const char* row_name, const char* col_name, const CountOptions& options,
                            const Embedding* embedding);

/// Every count: what needs no engine, then the planner (structure front end, engines,
/// combination). The stop request that interrupts it is withdrawn as it leaves. `embedding`:
/// the graph's, when it came with one (a permanent's vertices: rows, then columns).
template <class T>
CountResult count_matrix(ValueKind kind, const SparseMatrix<T>& matrix, plan::Problem problem,
                         const char* row_name, const char* col_name, const CountOptions& options,
                         const Embedding* embedding = nullptr) {
    return detail::stop_boundary([&] {
        return count_unguarded(kind, matrix, problem, row_name, col_name, options, embedding);
    });
}

template <class T>
CountResult count_unguarded(ValueKind kind, const SparseMatrix<T>& matrix, plan::Problem problem,
                            const char* row_name, const char* col_name, const CountOptions& options,
                            const Embedding* embedding) {
    const auto start = Clock::now();
    run::check_run_options(options);
    pmcount::detail::throw_if_stopped(
        "preparing the count");  // also when no engine or planner will run
    if (problem == plan::Problem::permanent && options.general) {
        return count_matrix(kind, plan::bipartite_embedding(matrix), plan::Problem::hafnian,
                            "vertex", "vertex", options, embedding);
    }
    const bool hafnian = problem == plan::Problem::hafnian;
    const Precision precision = resolve_precision<T>(options.precision, kind);
    if (hafnian && matrix.rows() % 2 != 0) {
        CountResult r = exact_result(kind, 0,
                                     "an odd number of vertices (" + std::to_string(matrix.rows()) +
                                         ") has no perfect matching, count is 0");
        r.stats.n = matrix.rows();
        r.stats.nnz = matrix.nnz();
        r.structure.general = true;
        r.timings.total_s = seconds_since(start);
        return r;
    }
    if (!matrix.is_square()) {
        CountResult r = exact_result(kind, 0,
                                     "the " + std::string(row_name) + " side has " +
                                         std::to_string(matrix.rows()) + " vertices and the " +
                                         col_name + " side " + std::to_string(matrix.cols()) +
                                         ": no perfect matching, count is 0");
        r.stats.n = std::max(matrix.rows(), matrix.cols());
        r.stats.nnz = matrix.nnz();
        r.timings.total_s = seconds_since(start);
        return r;
    }
    if (precision == Precision::certified) {
        // Only dense Ryser (CPU and GPU) tracks its roundings; Forbert–Marx merges would round
        // the entries before it sees them.
        if (hafnian) {
            throw InvalidArgument(
                "--precision certified counts permanents (bipartite graphs and "
                "matrices), not hafnians");
        }
        if (options.method != Method::automatic && options.method != Method::ryser) {
            throw InvalidArgument(
                "--precision certified runs the dense Ryser engine (--method "
                "ryser), not " +
                std::string(to_string(options.method)));
        }
    }
    plan::Settings settings;
    settings.dulmage_mendelsohn = options.dulmage_mendelsohn;
    settings.reductions = options.reductions && precision != Precision::certified;
    settings.method = options.method;
    settings.precision = precision;
    settings.backend = options.backend;
    settings.gpu_kernels = options.gpu_kernels;
    settings.threads = run::resolve_threads(options.threads);
    settings.ranks = options.distributed ? std::max(1, mpi_world().size) : 1;
    settings.gpus = options.gpus;
    if (options.backend != Backend::cpu && exact::gpu_available()) {
        const std::vector<DeviceInfo>& devices = visible_devices();
        const bool shared = options.gpus.empty() && settings.ranks > 1;
        settings.gpus = run::mpi::gpus_to_use(devices, options.gpus, settings.ranks > 1);
        settings.gpu_throughput = plan::gpu_throughput(devices, settings.gpus, settings.ranks,
                                                       mpi_world().local_size, shared);
    }
    settings.time_limit_s = options.max_predicted_seconds;
    settings.general = options.general;
    settings.max_memory = options.max_memory;
    settings.embedding = embedding;
    if (options.backend == Backend::cuda && !exact::gpu_available()) {
        std::string status;
        backend::cuda::devices(status);
        throw DeviceError("--backend cuda, but " +
                          (status.empty() ? std::string("no GPU is visible") : status));
    }

    // (A hafnian's isolated vertex is left to the blossom front end, which names a Tutte set.)
    if (auto empty = hafnian ? std::nullopt : empty_line(matrix, row_name, col_name)) {
        CountResult r = exact_result(kind, 0, *empty + ": no perfect matching, count is 0");
        r.stats.n = matrix.rows();
        r.stats.nnz = matrix.nnz();
        r.timings.total_s = seconds_since(start);
        return r;
    }
    CountResult r;
    r.kind = kind;
    r.stats.n = matrix.rows();
    r.stats.nnz = matrix.nnz();
    r.stats.threads = settings.threads;
    if constexpr (std::is_same_v<T, std::int64_t>) {
        // Beyond 2^53 an integer has no exact double: a floating answer would start from other
        // entries than the file's, outside its error bound.
        constexpr std::int64_t kExactInDouble = std::int64_t{1} << 53;
        if (precision != Precision::exact &&
            std::any_of(matrix.values().begin(), matrix.values().end(),
                        [](std::int64_t v) { return v > kExactInDouble || v < -kExactInDouble; })) {
            throw InvalidArgument(
                "entries beyond 2^53 have no exact double; use --precision exact (the default "
                "for integer entries)");
        }
    }
    std::optional<SparseMatrix<T>> balanced;  // floating inputs only
    if constexpr (!std::is_same_v<T, std::int64_t>) {
        if (precision != Precision::exact) {
            balanced = hafnian ? balanced_symmetric(matrix, settings.exponent2)
                               : balanced_by_powers_of_two(matrix, settings.exponent2);
        }
    }
    const SparseMatrix<T>& planned = balanced ? *balanced : matrix;
    const double vertices =
        hafnian ? matrix.rows() : static_cast<double>(matrix.rows()) + matrix.cols();
    detail::require_memory(plan::planning_bytes(vertices, static_cast<double>(matrix.nnz())),
                           options.max_memory, "planning needs",
                           std::to_string(static_cast<std::int64_t>(vertices)) + " vertices, " +
                               std::to_string(matrix.nnz()) + " entries");
    const plan::Node<T> root = hafnian ? plan::build_hafnian_plan(planned, settings, r.structure)
                                       : plan::build_plan(planned, settings, r.structure);
    r.method = leaf_methods(r.structure);
    r.timings.preprocess_s = seconds_since(start);
    if (matrix.rows() == 0) {
        r.note = hafnian ? "the empty graph has one perfect matching (the empty one)"
                         : "the empty matrix has permanent 1";
    } else if (!r.structure.tutte_set.empty() || r.structure.tutte_odd_components > 0) {
        r.note = "removing the " + std::to_string(r.structure.tutte_set.size()) +
                 " vertex(es) of a Tutte set leaves " +
                 std::to_string(r.structure.tutte_odd_components) +
                 " odd component(s) (Tutte's condition fails): no perfect matching, count is 0";
    } else if (!r.structure.hall_rows.empty()) {
        r.note = std::to_string(r.structure.hall_rows.size()) + " " + row_name + "(s) have only " +
                 std::to_string(r.structure.hall_cols.size()) +
                 " neighbour(s) together (Hall's condition fails): no perfect matching, count is 0";
    }
    if (options.explain_only) {
        r.backend = r.backend.empty() ? "cpu" : r.backend;
        r.explained_only = true;
        r.timings.total_s = seconds_since(start);
        return r;
    }
    check_feasible(r.structure, options, settings.threads);
    const auto engine_start = Clock::now();
    run::Session session(run_identity(matrix, hafnian, precision, r.structure),
                         run::SessionOptions{options.checkpoint, options.resume,
                                             options.checkpoint_interval_s, options.distributed});
    plan::evaluate_plan(root, settings, options, r, session);
    r.stats.ranks = session.ranks();
    r.stats.resumed_chunks = session.resumed_chunks();
    if (r.backend.empty()) {
        r.backend = "cpu";
    }
    if (precision == Precision::double_plain && r.backend != "cuda" && !r.is_exact) {
        r.note = noted(r.note,
                       "plain-double is the GPUs' uncompensated accumulation; the CPU engines "
                       "always compensate (a few additions per term), so this ran as --precision "
                       "double there");
    }
    if (r.arithmetic.empty()) {  // the front end settled everything: only products and sums
        r.arithmetic = precision == Precision::exact ? "exact integers" : "double";
    }
    r.error_kind = r.is_exact ? "none" : precision == Precision::certified ? "bound" : "estimate";
    r.timings.count_s = seconds_since(engine_start);
    r.timings.total_s = seconds_since(start);
    if constexpr (!std::is_same_v<T, std::int64_t>) {
        if (options.precision == Precision::automatic && !r.is_exact && r.abs_error > 0 &&
            !(r.rel_error <= kCancellationRelError)) {
            return recount_after_cancellation(kind, matrix, problem, row_name, col_name, options,
                                              std::move(r));
        }
    }
    return r;
}

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

/// The default precision's answer to cancellation (kCancellationRelError): the same count again
/// exactly when every entry is an integer (a real matrix of integer values), else in certified
/// arithmetic (real permanents dense Ryser can take), else in double-double, the first of these
/// that the plan predicts within the recount budget; otherwise the double result with a note
/// naming the arithmetic that would settle it and its predicted time. Not under a checkpoint (its
/// records are the double count's) or several MPI ranks.
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
            // Small walks already ran certified (ryser_driver.hpp's kCertifiedWalkLog2): then
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

/// `r` (the permanent of a matrix) divided by k! (k ≥ 2): exactly for integers; in floating
/// point by 2, 3, ..., k in turn, each quotient rounded once (relative error ≤ u = 2^-53 in
/// every component), so the stated error grows by ≤ 1.01·(k − 1)·u·|quotient|: a bound stays a
/// bound.
void divide_by_factorial(CountResult& r, int k) {
    if (r.explained_only) {
        return;
    }
    if (r.is_exact) {
        numeric::cpp_int factorial = 1;
        for (int j = 2; j <= k; ++j) {
            factorial *= j;
        }
        const numeric::cpp_int value = numeric::to_cpp_int(r.exact);
        if (value % factorial != 0) {
            throw InternalError("the permanent of the square extension, " + r.exact.to_string() +
                                ", is not a multiple of " + std::to_string(k) + "!");
        }
        r.exact = numeric::from_cpp_int(value / factorial);
        r.value = r.exact.to_double();
        r.complex_value = r.value;
        r.log10_abs = r.exact.log10_abs();
        r.sign = r.exact.sign();
        return;
    }
    using numeric::Scaled;
    Scaled value = Scaled::from(r.mantissa, r.exponent2);
    Scaled error = Scaled::from(r.abs_error);
    for (int j = 2; j <= k; ++j) {
        value = Scaled::from(value.mantissa / static_cast<double>(j), value.exponent);
        // Rounded up: two roundings of 2^-53 each are outweighed by the factor 1 + 2^-50.
        error =
            Scaled::from(error.mantissa / static_cast<double>(j) * (1 + 0x1p-50), error.exponent);
    }
    const double rounding = 1.01 * (k - 1) * 0x1p-53;
    error = error + Scaled::from(std::abs(value.mantissa) * rounding, value.exponent);
    plan::set_floating_result(r, value, error);
}

/// The permanent of a non-square matrix: for m < n rows, the sum over the injective maps σ of
/// its rows into its columns of Π_i a_{i,σ(i)}; for m > n that of its transpose. A column
/// without a nonzero entry is in no term, so only the n' columns with one count: n' < m gives
/// 0, otherwise appending n' − m rows of ones J gives a square matrix whose every permutation
/// is such a map completed by one of the (n' − m)! orderings of the columns it misses, so
///     perm([A; J]) = (n' − m)! · perm(A)
/// (Ryser 1963, Combinatorial Mathematics, ch. 2, §3). The extension goes through the planner
/// and every square engine, arithmetic and backend as it is (exact integers by multi-modular
/// CRT, then an exact division), at the cost of a permanent of order n': O(2^n'·n') dense
/// Ryser, whatever m. A 0×n matrix has permanent 1 (the empty map), counted as the 0×0 matrix.
/// `rows` × `cols` is the matrix's shape as declared: `matrix` may lack some lines of the longer
/// side (a file's vertices that no entry touches; they are zero), never of the shorter.
template <class T>
CountResult rectangular_permanent(ValueKind kind, const SparseMatrix<T>& matrix, vertex_t rows,
                                  vertex_t cols, const CountOptions& options) {
    const auto start = Clock::now();
    const bool transposed = rows > cols;
    const vertex_t m = std::min(rows, cols);
    const vertex_t n = std::max(rows, cols);
    const std::string shape = std::to_string(rows) + "×" + std::to_string(cols);
    const char* short_name = transposed ? "column" : "row";
    const char* long_name = transposed ? "row" : "column";
    // Phase 1: the lines of the longer side with a nonzero entry, numbered in order.
    std::vector<vertex_t> long_index(
        static_cast<std::size_t>(transposed ? matrix.rows() : matrix.cols()), -1);
    std::vector<vertex_t> long_line;  // the inverse: an extension column's line in `matrix`
    std::vector<Triplet<T>> entries;
    entries.reserve(static_cast<std::size_t>(matrix.nnz()));
    for (const auto& t : matrix.triplets()) {
        if (t.value == T{}) {
            continue;
        }
        const vertex_t line = transposed ? t.row : t.col;
        vertex_t& index = long_index[static_cast<std::size_t>(line)];
        if (index < 0) {
            index = 0;  // numbered below, in order
        }
        entries.push_back({transposed ? t.col : t.row, line, t.value});
    }
    for (std::size_t line = 0; line < long_index.size(); ++line) {
        if (long_index[line] == 0) {
            long_index[line] = static_cast<vertex_t>(long_line.size());
            long_line.push_back(static_cast<vertex_t>(line));
        }
    }
    const auto used = static_cast<vertex_t>(long_line.size());
    std::string how = "the permanent of the " + shape + " matrix is " +
                      (transposed ? "that of its transpose, " : "");
    if (m > 0 && used < m) {
        CountResult r =
            exact_result(kind, 0,
                         how + "0: only " + std::to_string(used) + " " + long_name +
                             "(s) have a nonzero entry, fewer than the " + std::to_string(m) + " " +
                             short_name + "s, so every injective map meets a zero");
        r.stats.n = n;
        r.stats.nnz = matrix.nnz();
        r.timings.total_s = seconds_since(start);
        return r;
    }
    const vertex_t order = m > 0 ? used : 0;
    const std::string k = std::to_string(order - m);
    const std::string dropped =
        used < n ? "dropping the " + std::to_string(n - used) + " zero " + long_name + "(s)" : "";
    const std::string appended = order > m
                                     ? "appending " + k + (order - m == 1 ? " row" : " rows") +
                                           " of ones, divided by " + k + "!"
                                     : "";
    how += m == 0 ? "1 (the empty map of no " + std::string(short_name) + "s)"
                  : "that of the " + std::to_string(order) + "×" + std::to_string(order) +
                        " matrix made by " + dropped +
                        (dropped.empty() || appended.empty() ? "" : " and ") + appended;
    // Phase 2: the square extension [A; J], its permanent, and the division.
    if (m == 0) {
        entries.clear();
    } else {
        detail::require_memory(
            (static_cast<double>(entries.size()) + static_cast<double>(order - m) * order) *
                sizeof(Triplet<T>) * 4,
            options.max_memory, "the square extension of the " + shape + " matrix needs", how);
        for (Triplet<T>& t : entries) {
            t.col = long_index[static_cast<std::size_t>(t.col)];
        }
        entries.reserve(entries.size() +
                        static_cast<std::size_t>(order - m) * static_cast<std::size_t>(order));
        for (vertex_t row = m; row < order; ++row) {
            for (vertex_t col = 0; col < order; ++col) {
                entries.push_back({row, col, T{1}});
            }
        }
    }
    CountResult r = count_matrix(kind, SparseMatrix<T>(order, order, std::move(entries)),
                                 plan::Problem::permanent, short_name, long_name, options);
    if (m > 0) {
        divide_by_factorial(r, order - m);
    }
    if (transposed) {
        // The extension's rows are the matrix's columns: a Hall witness would name the wrong
        // lines (the note says it in words).
        r.structure.hall_rows.clear();
        r.structure.hall_cols.clear();
    } else {
        for (vertex_t& col : r.structure.hall_cols) {
            col = long_line[static_cast<std::size_t>(col)];
        }
    }
    r.stats.n = std::max(r.stats.n, order);
    r.note = r.note.empty() || m == 0 ? how : how + "; " + r.note;
    return r;
}

template <class T>
ValueKind kind_of() {
    if constexpr (std::is_same_v<T, std::int64_t>) {
        return ValueKind::integer;
    } else if constexpr (std::is_same_v<T, double>) {
        return ValueKind::real;
    } else {
        return ValueKind::complex;
    }
}

/// A 0-1 matrix of a bipartite graph's edges.
SparseMatrix<std::int64_t> ones(const BipartiteGraph& g) {
    std::vector<Triplet<std::int64_t>> entries;
    entries.reserve(static_cast<std::size_t>(g.num_edges()));
    for (const auto& [u, v] : g.edges()) {
        entries.push_back({u, v, 1});
    }
    return {g.n_left(), g.n_right(), std::move(entries)};
}

}  // namespace


std::string CountResult::value_string() const {
    if (is_exact) {
        return exact.to_string();
    }
    auto format = [](double v) {
        char buffer[64];
        std::snprintf(buffer, sizeof buffer, "%.17g", v);
        return std::string(buffer);
    };
    // mantissa · 2^exponent2 in decimal, 17 significant digits rounded exactly: the value is an
    // integer N times 2^E, written as N·2^E or N·5^−E·10^E with big-integer arithmetic.
    auto scientific = [](double m, std::int64_t e2) {
        if (m == 0) {
            return std::string("0");
        }
        auto power = [](std::int64_t base, std::int64_t k) {
            BigInt result = 1, square = base;
            for (; k > 0; k /= 2) {
                if (k % 2 == 1) {
                    result *= square;
                }
                if (k > 1) {
                    square *= square;
                }
            }
            return result;
        };
        int m_exponent = 0;
        const double fraction = std::frexp(std::fabs(m), &m_exponent);
        const std::int64_t e = e2 + m_exponent - 53;
        const BigInt n = BigInt(static_cast<std::int64_t>(std::ldexp(fraction, 53))) *
                         (e >= 0 ? power(2, e) : power(5, -e));
        std::string digits = n.to_string();
        std::int64_t exponent =
            static_cast<std::int64_t>(digits.size()) - 1 + std::min<std::int64_t>(e, 0);
        if (digits.size() > 17) {
            const bool up = digits[17] >= '5';
            digits.resize(17);
            for (std::size_t i = digits.size(); up && i-- > 0;) {
                if (digits[i] != '9') {
                    ++digits[i];
                    break;
                }
                digits[i] = '0';
                if (i == 0) {
                    digits.insert(digits.begin(), '1');
                    digits.pop_back();
                    ++exponent;
                }
            }
        }
        while (digits.size() > 1 && digits.back() == '0') {
            digits.pop_back();
        }
        std::string text = m < 0 ? "-" : "";
        text += digits.substr(0, 1);
        if (digits.size() > 1) {
            text += "." + digits.substr(1);
        }
        return text + (exponent < 0 ? "e-" : "e+") + std::to_string(std::llabs(exponent));
    };
    auto in_range = [](double v, double m) {
        return std::isfinite(v) && (m == 0 || std::fabs(v) >= std::numeric_limits<double>::min());
    };
    const int e2 = static_cast<int>(std::clamp<std::int64_t>(exponent2, -5000, 5000));
    const std::complex<double> v{std::ldexp(mantissa.real(), e2), std::ldexp(mantissa.imag(), e2)};
    const bool normal = in_range(v.real(), mantissa.real()) && in_range(v.imag(), mantissa.imag());
    auto part = [&](double in_double, double m) {
        return normal ? format(in_double) : scientific(m, exponent2);
    };
    if (kind != ValueKind::complex) {
        return part(v.real(), mantissa.real());
    }
    const double im = mantissa.imag();
    return part(v.real(), mantissa.real()) + (std::signbit(im) ? "-" : "+") +
           part(std::fabs(v.imag()), std::fabs(im)) + "i";
}

CountResult count_perfect_matchings(const BipartiteGraph& graph, const CountOptions& options) {
    return count_matrix(ValueKind::binary, ones(graph), plan::Problem::permanent, "left vertex",
                        "right vertex", options);
}

CountResult count_perfect_matchings(const BipartiteGraph& graph, const Embedding& embedding,
                                    const CountOptions& options) {
    return count_matrix(ValueKind::binary, ones(graph), plan::Problem::permanent, "left vertex",
                        "right vertex", options, &embedding);
}

namespace {

SparseMatrix<std::int64_t> adjacency_matrix(const UndirectedGraph& graph) {
    std::vector<Triplet<std::int64_t>> entries;
    entries.reserve(graph.adjacency().size());
    for (vertex_t u = 0; u < graph.num_vertices(); ++u) {
        for (const vertex_t v : graph.neighbours(u)) {
            entries.push_back({u, v, 1});
        }
    }
    const vertex_t n = graph.num_vertices();
    return {n, n, std::move(entries)};
}

}  // namespace

CountResult count_perfect_matchings(const UndirectedGraph& graph, const CountOptions& options) {
    return count_matrix(ValueKind::binary, adjacency_matrix(graph), plan::Problem::hafnian,
                        "vertex", "vertex", options);
}

CountResult count_perfect_matchings(const UndirectedGraph& graph, const Embedding& embedding,
                                    const CountOptions& options) {
    return count_matrix(ValueKind::binary, adjacency_matrix(graph), plan::Problem::hafnian,
                        "vertex", "vertex", options, &embedding);
}

CountResult count_cycle_covers(const Digraph& graph, const CountOptions& options) {
    return count_matrix(ValueKind::binary, ones(graph.as_bipartite()), plan::Problem::permanent,
                        "vertex (out-arcs)", "vertex (in-arcs)", options);
}

namespace {

template <class T>
CountResult permanent_drawn(const SparseMatrix<T>& matrix, const CountOptions& options,
                            const Embedding* embedding) {
    if (!matrix.is_square()) {
        return rectangular_permanent(kind_of<T>(), matrix, matrix.rows(), matrix.cols(), options);
    }
    return count_matrix(kind_of<T>(), matrix, plan::Problem::permanent, "row", "column", options,
                        embedding);
}

template <class T>
CountResult hafnian_drawn(const SparseMatrix<T>& matrix, const CountOptions& options,
                          const Embedding* embedding) {
    if (!matrix.is_square()) {
        throw DimensionMismatch("a hafnian needs a square matrix, got " +
                                std::to_string(matrix.rows()) + "×" +
                                std::to_string(matrix.cols()));
    }
    for (vertex_t r = 0; r < matrix.rows(); ++r) {
        for (edge_t e = matrix.row_offsets()[static_cast<std::size_t>(r)];
             e < matrix.row_offsets()[static_cast<std::size_t>(r) + 1]; ++e) {
            const vertex_t c = matrix.col_indices()[static_cast<std::size_t>(e)];
            if (matrix.at(c, r) != matrix.values()[static_cast<std::size_t>(e)]) {
                throw InvalidArgument("a hafnian needs a symmetric matrix: entry (" +
                                      std::to_string(r) + ", " + std::to_string(c) +
                                      ") differs from entry (" + std::to_string(c) + ", " +
                                      std::to_string(r) + ")");
            }
        }
    }
    std::vector<Triplet<T>> off_diagonal;  // the hafnian never uses the diagonal
    for (const auto& t : matrix.triplets()) {
        if (t.row != t.col) {
            off_diagonal.push_back(t);
        }
    }
    return count_matrix(kind_of<T>(),
                        SparseMatrix<T>(matrix.rows(), matrix.cols(), std::move(off_diagonal)),
                        plan::Problem::hafnian, "vertex", "vertex", options, embedding);
}

}  // namespace

template <class T>
CountResult permanent(const SparseMatrix<T>& matrix, const CountOptions& options) {
    return permanent_drawn(matrix, options, nullptr);
}

template <class T>
CountResult hafnian(const SparseMatrix<T>& matrix, const CountOptions& options) {
    return hafnian_drawn(matrix, options, nullptr);
}

template <class T>
CountResult hafnian(const DenseMatrix<T>& matrix, const CountOptions& options) {
    return hafnian(SparseMatrix<T>(matrix), options);
}

template <class T>
CountResult permanent(const DenseMatrix<T>& matrix, const CountOptions& options) {
    return permanent(SparseMatrix<T>(matrix), options);
}

CountResult count(const Input& input, const CountOptions& options) {
    return std::visit(
        [&](const auto& data) -> CountResult {
            using D = std::decay_t<decltype(data)>;
            if (input.isolated) {
                // The arithmetic asked for must still suit the entries, as for any input.
                if constexpr (std::is_same_v<D, SparseMatrix<double>> ||
                              std::is_same_v<D, SparseMatrix<std::complex<double>>>) {
                    resolve_precision<typename D::value_type>(options.precision, input.kind());
                } else {
                    resolve_precision<std::int64_t>(options.precision, input.kind());
                }
                if constexpr (std::is_same_v<D, SparseMatrix<std::int64_t>> ||
                              std::is_same_v<D, SparseMatrix<double>> ||
                              std::is_same_v<D, SparseMatrix<std::complex<double>>>) {
                    // A non-square permanent: vertices missing from the longer side only are
                    // zero lines, used by no term; the shorter side's are used by every one.
                    const bool tall = input.rows() > input.cols();
                    if (!input.hafnian && !input.directed && !input.two_coloured &&
                        input.rows() != input.cols() &&
                        (tall ? data.cols() == input.cols() : data.rows() == input.rows())) {
                        return rectangular_permanent(input.kind(), data, input.rows(), input.cols(),
                                                     options);
                    }
                }
                CountResult r = exact_result(
                    input.kind(), 0, input.isolated->witness + ": no perfect matching, count is 0");
                r.stats.n = std::max(input.rows(), input.cols());
                r.stats.nnz = input.nnz();
                r.structure.general = input.is_general();
                return r;
            }
            if constexpr (std::is_same_v<D, BipartiteGraph> || std::is_same_v<D, UndirectedGraph>) {
                return input.embedding ? count_perfect_matchings(data, *input.embedding, options)
                                       : count_perfect_matchings(data, options);
            } else if constexpr (std::is_same_v<D, Digraph>) {
                return count_cycle_covers(data, options);
            } else {
                if ((input.directed || input.two_coloured) && !data.is_square()) {
                    // Cycle covers of a digraph, perfect matchings of a graph whose sides the
                    // reader chose: a non-square matrix has none (the note says why), though it
                    // has a permanent.
                    return count_matrix(input.kind(), data, plan::Problem::permanent, "row",
                                        "column", options,
                                        input.embedding ? &*input.embedding : nullptr);
                }
                const Embedding* drawn = input.embedding ? &*input.embedding : nullptr;
                return input.hafnian ? hafnian_drawn(data, options, drawn)
                                     : permanent_drawn(data, options, drawn);
            }
        },
        input.data);
}

template CountResult permanent(const SparseMatrix<std::int64_t>&, const CountOptions&);
template CountResult permanent(const SparseMatrix<double>&, const CountOptions&);
template CountResult permanent(const SparseMatrix<std::complex<double>>&, const CountOptions&);
template CountResult permanent(const DenseMatrix<std::int64_t>&, const CountOptions&);
template CountResult permanent(const DenseMatrix<double>&, const CountOptions&);
template CountResult permanent(const DenseMatrix<std::complex<double>>&, const CountOptions&);
template CountResult hafnian(const SparseMatrix<std::int64_t>&, const CountOptions&);
template CountResult hafnian(const SparseMatrix<double>&, const CountOptions&);
template CountResult hafnian(const SparseMatrix<std::complex<double>>&, const CountOptions&);
template CountResult hafnian(const DenseMatrix<std::int64_t>&, const CountOptions&);
template CountResult hafnian(const DenseMatrix<double>&, const CountOptions&);
template CountResult hafnian(const DenseMatrix<std::complex<double>>&, const CountOptions&);

}  // namespace pmcount
