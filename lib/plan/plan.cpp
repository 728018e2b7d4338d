// Building and evaluating plans (see plan.hpp for the pipeline).
#include "plan/plan.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <limits>
#include <optional>
#include <sstream>
#include <type_traits>

#include "core/memory.hpp"
#include "exact/brute_force.hpp"
#include "exact/frontier/frontier.hpp"
#include "exact/planar/kasteleyn.hpp"
#include "exact/ryser/ryser.hpp"
#include "exact/ryser/ryser_gpu.hpp"
#include "exact/ryser/ryser_kernel.hpp"
#include "exact/ryser/sparse_ryser.hpp"
#include "numeric/permanent_bound.hpp"
#include "numeric/primes.hpp"
#include "numeric/scaled.hpp"
#include "plan/builder.hpp"
#include "plan/cost_model.hpp"
#include "plan/engines.hpp"
#include "plan/floating_result.hpp"
#include "pmcount/error.hpp"
#include "pmcount/structure.hpp"
#include "run/chunked_run.hpp"

namespace pmcount::plan {

namespace {

using detail::kComplex;
using detail::kIntegral;
using numeric::Scaled;
constexpr double kUnitRoundoff = 0x1p-53;
template <class T>
std::complex<double> as_complex(const T& v) {
    if constexpr (kComplex<T>) {
        return v;
    } else {
        return {static_cast<double>(v), 0.0};
    }
}

std::string format_seconds(double s) {
    char buffer[48];
    if (!std::isfinite(s)) {
        return "unbounded";
    }
    if (s < 1e-3) {
        std::snprintf(buffer, sizeof buffer, "%.2g ms", s * 1e3);
    } else if (s < 120) {
        std::snprintf(buffer, sizeof buffer, "%.3g s", s);
    } else if (s < 2 * 86400) {
        std::snprintf(buffer, sizeof buffer, "%.3g h", s / 3600);
    } else {
        std::snprintf(buffer, sizeof buffer, "%.3g days", s / 86400);
    }
    return buffer;
}

/// The plan as an indented tree, at most kMaxPlanLines lines (big plans have thousands of
/// nodes; the counts in the report cover all of them).
constexpr int kMaxPlanLines = 120;

template <class T>
void render(const Node<T>& node, int depth, std::ostringstream& out, int& lines, int& hidden) {
    if (lines >= kMaxPlanLines) {
        ++hidden;
        for (const Node<T>& child : node.children) {
            render(child, depth + 1, out, lines, hidden);
        }
        return;
    }
    ++lines;
    out << std::string(static_cast<std::size_t>(2 * depth), ' ');
    if (!node.origin.empty()) {
        out << node.origin;
    }
    if (node.reductions.any()) {
        out << " [" << node.reduced_from << "×" << node.reduced_from << ": "
            << node.reductions.eliminated << " eliminated, " << node.reductions.merged
            << " merged, " << node.reductions.split << " split]";
    }
    switch (node.kind) {
        case Node<T>::Kind::zero:
            out << " → 0";
            break;
        case Node<T>::Kind::leaf:
            if (node.matrix.rows() == 0) {
                out << " → fully reduced";
            } else {
                out << " → " << node.engine
                    << (node.detail.empty() ? std::string() : " (" + node.detail + ")") << " on "
                    << node.matrix.rows() << "×" << node.matrix.rows() << " (" << node.matrix.nnz()
                    << " nonzeros)";
            }
            break;
        case Node<T>::Kind::product:
            out << " → product of " << node.children.size();
            break;
        case Node<T>::Kind::sum:
            out << " → sum of " << node.children.size();
            break;
    }
    out << ", predicted " << format_seconds(node.predicted_s) << "\n";
    for (const Node<T>& child : node.children) {
        render(child, depth + 1, out, lines, hidden);
    }
}

template <class T>
void collect_leaves(const Node<T>& node, std::vector<BlockReport>& leaves) {
    if (node.kind == Node<T>::Kind::leaf) {
        leaves.push_back({node.matrix.rows(), node.matrix.nnz(), node.engine, node.origin,
                          node.predicted_s, 0.0});
    }
    for (const Node<T>& child : node.children) {
        collect_leaves(child, leaves);
    }
}

template <class T>
void count_reductions(const Node<T>& node, StructureReport& report) {
    report.eliminated += node.reductions.eliminated;
    report.merged += node.reductions.merged;
    report.split += node.reductions.split;
    for (const Node<T>& child : node.children) {
        count_reductions(child, report);
    }
}

// ---- Evaluating ---------------------------------------------------------------------------------

/// Runs the leaves' engines in plan order with overall progress and per-leaf timings.
template <class T>
class Evaluator {
public:
    Evaluator(const Settings& settings, const CountOptions& options, CountResult& result,
              double predicted_total, run::Session& session)
        : settings_(settings), options_(options), result_(result), total_(predicted_total) {
        run_.session = &session;
    }

    BigInt exact_value(const Node<T>& node) {
        BigInt value = 1;
        switch (node.kind) {
            case Node<T>::Kind::zero:
                return 0;
            case Node<T>::Kind::leaf:
                value = timed_leaf(node, [&] { return exact_leaf(node); });
                break;
            case Node<T>::Kind::product:
                for (const auto& child : node.children) {
                    value *= exact_value(child);
                }
                break;
            case Node<T>::Kind::sum:
                value = 0;
                for (const auto& child : node.children) {
                    value += exact_value(child);
                }
                break;
        }
        if constexpr (kIntegral<T>) {
            for (const T& f : node.factors) {
                value *= BigInt(f);
            }
        }
        return value;
    }

    /// Value and an absolute error bound (first order).
    struct Float {
        Scaled value;
        Scaled error;
    };

    Float float_value(const Node<T>& node) {
        Float out{Scaled::from(1.0), Scaled{}};
        switch (node.kind) {
            case Node<T>::Kind::zero:
                return {Scaled{}, Scaled{}};
            case Node<T>::Kind::leaf:
                out = timed_leaf(node, [&] { return float_leaf(node); });
                break;
            case Node<T>::Kind::product:
                for (const auto& child : node.children) {
                    out = multiply(out, float_value(child));
                }
                break;
            case Node<T>::Kind::sum:
                out = {Scaled{}, Scaled{}};
                for (const auto& child : node.children) {
                    const Float term = float_value(child);
                    out.value = out.value + term.value;
                    out.error = out.error + term.error +
                                Scaled::from(kUnitRoundoff) * (out.value.magnitude());
                }
                break;
        }
        for (const T& f : node.factors) {
            out = multiply(out, Float{Scaled::from(as_complex(f)), Scaled{}});
        }
        if constexpr (!kIntegral<T>) {
            // Each merge rounds the merged entries (≤ 3 roundings each); perm of a nonnegative
            // matrix is monotone in them, so its relative error grows by at most 3u per merge.
            out.error = out.error + Scaled::from(3 * kUnitRoundoff * node.reductions.merged) *
                                        out.value.magnitude();
        }
        return out;
    }

private:
    static Float multiply(const Float& a, const Float& b) {
        // |ab − âb̂| ≤ |a|·err_b + |b|·err_a (+ err_a·err_b) plus one rounding of the product.
        const Scaled value = a.value * b.value;
        Scaled error = a.value.magnitude() * b.error + b.value.magnitude() * a.error +
                       a.error * b.error + Scaled::from(2 * kUnitRoundoff) * value.magnitude();
        return {value, error};
    }

    template <class F>
    auto timed_leaf(const Node<T>& node, F compute) {
        const auto start = std::chrono::steady_clock::now();
        run_.threads = settings_.threads;
        run_.gpus = settings_.gpus;
        run_.progress_interval_s = options_.progress_interval_s;
        run_.progress = nullptr;
        if (options_.progress && total_ > 0) {
            const double before = done_, share = node.predicted_s;
            run_.progress = [this, before, share](const Progress& p) {
                options_.progress(
                    Progress{std::min(1.0, (before + p.fraction * share) / total_), p.elapsed_s});
            };
        }
        auto value = compute();
        done_ += node.predicted_s;
        auto& leaf = result_.structure.leaves[leaf_index_++];
        leaf.seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return value;
    }

    BigInt exact_leaf(const Node<T>& node) {
        if (node.matrix.rows() == 0) {
            return 1;
        }
        if constexpr (kIntegral<T>) {
            const Engine& engine = engine_named(node.engine, node.problem);
            run_.embedding = node.embedded ? settings_.embedding : nullptr;
            exact::ExactOutcome out = engine.count_exact(node.matrix, run_);
            note_backend(engine, out.where);
            result_.stats.primes = std::max(result_.stats.primes, out.primes);
            result_.stats.gray_steps += out.gray_steps;
            result_.stats.multiply_adds += out.multiply_adds * std::max(1, out.primes);
            note_arithmetic(out.arithmetic);
            return out.value;
        } else {
            throw InvalidArgument("exact arithmetic needs integer entries");
        }
    }

    Float float_leaf(const Node<T>& node) {
        const SparseMatrix<T>& a = node.matrix;
        if (a.rows() == 0) {
            return {Scaled::from(1.0), Scaled{}};
        }
        const Engine& engine = engine_named(node.engine, node.problem);
        run_.embedding = node.embedded ? settings_.embedding : nullptr;
        exact::FloatOutcome out;
        if constexpr (kComplex<T>) {
            out = engine.count_complex(a, run_);
        } else if constexpr (kIntegral<T>) {
            std::vector<Triplet<double>> entries;
            for (const auto& t : a.triplets()) {
                entries.push_back({t.row, t.col, static_cast<double>(t.value)});
            }
            out = engine.count_real(SparseMatrix<double>(a.rows(), a.cols(), std::move(entries)),
                                    settings_.precision, run_);
        } else {
            out = engine.count_real(a, settings_.precision, run_);
        }
        result_.stats.gray_steps += out.gray_steps;
        result_.stats.multiply_adds += out.multiply_adds;
        note_arithmetic(out.arithmetic);
        note_backend(engine, out.where);
        return {Scaled::from(out.mantissa, out.exponent2),
                Scaled::from(out.abs_error_mantissa, out.exponent2)};
    }

    void note_backend(const Engine& engine, const exact::DeviceReport& where) {
        result_.timings.device_s += where.device_seconds;
        result_.timings.codegen_s += where.codegen_seconds;
        result_.timings.compile_s += where.compile_seconds;
        if (!where.kernel_cache.empty()) {
            result_.timings.kernel_cache = where.kernel_cache;
        }
        const std::string name = engine.backend == Backend::cuda ? "cuda" : "cpu";
        if (result_.backend.empty() || result_.backend == name) {
            result_.backend = name;
        } else if (result_.backend.find(name) == std::string::npos) {
            result_.backend = "cpu+cuda";
        }
        if (engine.backend == Backend::cuda) {
            result_.device = where.device;
        }
    }

    void note_arithmetic(const std::string& arithmetic) {
        if (result_.arithmetic.empty() || result_.arithmetic == "none") {
            result_.arithmetic = arithmetic;
        } else if (result_.arithmetic.find(arithmetic) == std::string::npos) {
            result_.arithmetic += "; " + arithmetic;
        }
    }

    const Settings& settings_;
    const CountOptions& options_;
    CountResult& result_;
    double total_;
    double done_ = 0;
    std::size_t leaf_index_ = 0;
    run::EngineRun run_;
};

}  // namespace

template <class T>
void detail::finish_plan(const Node<T>& root, StructureReport& report) {
    std::ostringstream text;
    int lines = 0, hidden = 0;
    render(root, 0, text, lines, hidden);
    if (hidden > 0) {
        text << "... " << hidden << " more node(s) not shown\n";
    }
    report.plan_text = text.str();
    report.predicted_s = root.predicted_s;
    collect_leaves(root, report.leaves);
    count_reductions(root, report);
}

template <class T>
Node<T> build_plan(const SparseMatrix<T>& a, const Settings& settings, StructureReport& report) {
    report.dulmage_mendelsohn = settings.dulmage_mendelsohn;
    report.reductions = settings.reductions;
    std::optional<Node<T>> surface = detail::surface_leaf(a, Problem::permanent, settings);
    if (surface && detail::surface_without_plan(*surface, settings, report)) {
        return std::move(*surface);
    }
    std::optional<Node<T>> torus = detail::torus_frontier_leaf(a, Problem::permanent, settings);
    if (torus && detail::surface_without_plan(*torus, settings, report)) {
        return std::move(*torus);
    }
    const StructureReport given = report;
    detail::Builder<T> builder(settings, report);
    const std::string origin =
        "matrix " + std::to_string(a.rows()) + "×" + std::to_string(a.cols());
    Node<T> root;
    bool probe_wanted = false;
    {
        const DeferredProbe deferred;
        root = builder.build(a, false, true, origin, 0);
        probe_wanted = deferred.wanted();
    }
    if (probe_wanted && root.predicted_s >= kProbeFrom_s) {
        // Worth this machine's speed: measured now, and the plan made again with it (the walk
        // estimates are kept).
        report = given;
        builder.restart();
        root = builder.build(a, false, true, origin, 0);
        report.machine_speed_measured = true;
    }
    if (!settings.dulmage_mendelsohn) {
        report.block_orders.assign(1, a.rows());
    }
    detail::finish_plan(root, report);
    detail::prefer_surface(std::move(surface), root, report);
    detail::prefer_surface(std::move(torus), root, report);
    return root;
}

template <class T>
void evaluate_plan(const Node<T>& root, const Settings& settings, const CountOptions& options,
                   CountResult& result, run::Session& session) {
    Evaluator<T> evaluator(settings, options, result, root.predicted_s, session);
    result.stats.threads = settings.threads;
    if (settings.precision == Precision::exact) {
        result.exact = evaluator.exact_value(root);
        result.is_exact = true;
        result.value = result.exact.to_double();
        result.complex_value = result.value;
        result.log10_abs = result.exact.log10_abs();
        result.sign = result.exact.sign();
        return;
    }
    auto f = evaluator.float_value(root);
    set_floating_result(result,
                        Scaled::from(f.value.mantissa, f.value.exponent + settings.exponent2),
                        Scaled::from(f.error.mantissa, f.error.exponent + settings.exponent2));
}

template void detail::finish_plan(const Node<std::int64_t>&, StructureReport&);
template void detail::finish_plan(const Node<double>&, StructureReport&);
template void detail::finish_plan(const Node<std::complex<double>>&, StructureReport&);
template Node<std::int64_t> build_plan(const SparseMatrix<std::int64_t>&, const Settings&,
                                       StructureReport&);
template Node<double> build_plan(const SparseMatrix<double>&, const Settings&, StructureReport&);
template Node<std::complex<double>> build_plan(const SparseMatrix<std::complex<double>>&,
                                               const Settings&, StructureReport&);
template void evaluate_plan(const Node<std::int64_t>&, const Settings&, const CountOptions&,
                            CountResult&, run::Session&);
template void evaluate_plan(const Node<double>&, const Settings&, const CountOptions&, CountResult&,
                            run::Session&);
template void evaluate_plan(const Node<std::complex<double>>&, const Settings&, const CountOptions&,
                            CountResult&, run::Session&);

}  // namespace pmcount::plan
