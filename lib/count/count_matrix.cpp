// A square count: settle what needs no engine (an odd number of vertices, unequal sides, an
// empty line), resolve the arithmetic, give the planner its settings (lib/plan: the permanent's
// or the hafnian's front end), refuse infeasible plans, evaluate, and fill CountResult; the
// default precision's double result may then be counted again (recount.cpp).
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "backend/device.hpp"
#include "core/clock.hpp"
#include "core/memory.hpp"
#include "core/names.hpp"
#include "core/stop.hpp"
#include "count/pipeline.hpp"
#include "exact/ryser/ryser_gpu.hpp"
#include "plan/engines.hpp"
#include "plan/plan.hpp"
#include "pmcount/distributed.hpp"
#include "pmcount/error.hpp"
#include "run/chunked_run.hpp"
#include "run/mpi.hpp"

namespace pmcount::counting {

namespace {

using detail::Clock;
using detail::seconds_since;

/// The GPUs CUDA sees (queried once: the set does not change while the process runs).
const std::vector<DeviceInfo>& visible_devices() {
    static const std::vector<DeviceInfo> devices = [] {
        std::string status;
        return backend::cuda::devices(status);
    }();
    return devices;
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

template <class T>
CountResult count_unguarded(ValueKind kind, const SparseMatrix<T>& matrix, plan::Problem problem,
                            const char* row_name, const char* col_name, const CountOptions& options,
                            const Embedding* embedding);

}  // namespace

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

std::string noted(std::string note, const std::string& more) {
    return note.empty() ? more : note + "; " + more;
}

template <class T>
CountResult count_matrix(ValueKind kind, const SparseMatrix<T>& matrix, plan::Problem problem,
                         const char* row_name, const char* col_name, const CountOptions& options,
                         const Embedding* embedding) {
    return detail::stop_boundary([&] {
        return count_unguarded(kind, matrix, problem, row_name, col_name, options, embedding);
    });
}

namespace {

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

}  // namespace

template CountResult count_matrix(ValueKind, const SparseMatrix<std::int64_t>&, plan::Problem,
                                  const char*, const char*, const CountOptions&, const Embedding*);
template CountResult count_matrix(ValueKind, const SparseMatrix<double>&, plan::Problem,
                                  const char*, const char*, const CountOptions&, const Embedding*);
template CountResult count_matrix(ValueKind, const SparseMatrix<std::complex<double>>&,
                                  plan::Problem, const char*, const char*, const CountOptions&,
                                  const Embedding*);

}  // namespace pmcount::counting
