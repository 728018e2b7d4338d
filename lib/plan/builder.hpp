// The bipartite planner's tree builder (plan.cpp documents the pipeline): the block tree of the
// structure front end (front_end.hpp: Hopcroft–Karp, fine Dulmage–Mendelsohn blocks, Forbert–Marx
// reductions, no cost decisions) with what costs decide added: the splits that pay and each leaf's
// engine by the cost model. Shared by build_plan and by the hafnian planner (general.cpp), which
// hands it the bipartite pieces of a general graph. Library-internal.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "core/memory.hpp"
#include "core/stop.hpp"
#include "exact/brute_force.hpp"
#include "exact/frontier/frontier.hpp"
#include "exact/planar/kasteleyn.hpp"
#include "exact/planar/pfaffian.hpp"
#include "exact/ryser/ryser.hpp"
#include "exact/ryser/ryser_gpu.hpp"
#include "exact/ryser/ryser_kernel.hpp"
#include "exact/ryser/sparse_ryser.hpp"
#include "numeric/permanent_bound.hpp"
#include "numeric/primes.hpp"
#include "plan/cost_model.hpp"
#include "plan/engines.hpp"
#include "plan/front_end.hpp"
#include "plan/plan.hpp"
#include "plan/walk_estimate.hpp"
#include "pmcount/error.hpp"
#include "pmcount/structure.hpp"
#include "run/chunked_run.hpp"

namespace pmcount::plan::detail {

/// Fixed cost of a leaf or a split (structure work, engine set-up), so that splitting small
/// matrices, which saves nothing, is not chosen.
constexpr double kLeafOverhead_s = 5e-6;
/// A split is only tried on a matrix predicted to take longer than this: planning its two parts
/// (structure, walk estimates) takes tens of microseconds to milliseconds.
constexpr double kMinSplitSaving_s = 2e-3;
/// Below this order every engine takes well under a millisecond: the sparse-walk estimate
/// (tens of microseconds) is skipped and the cost model assumes no zeros.
constexpr vertex_t kMinWalkEstimateOrder = 16;

/// "~12 GiB, over the memory limit (--max-memory) of 11.7 GiB": why an engine predicted past
/// the limit does not apply (LeafFacts::max_memory).
inline std::string over_memory_limit(double bytes, const LeafFacts& facts) {
    return "~" + pmcount::detail::format_bytes(bytes) +
           ", over the memory limit (--max-memory) of " +
           pmcount::detail::format_bytes(facts.max_memory);
}

/// Whether a leaf's engine is polynomial: the planar or frontier engine, the Pfaffian, or the
/// planar engine or the Pfaffian left untested for planarity (choose_leaf_engine's label).
inline bool polynomial_engine(const std::string& engine) {
    return engine == "frontier" || engine.rfind("planar", 0) == 0 ||
           engine.rfind("pfaffian", 0) == 0;
}

/// What every leaf's facts start from: its problem and size, the run's threads, ranks, GPUs,
/// kernels and memory limit, and the arithmetic the precision asks for. Each builder adds what
/// its engines need (walk estimates, bounds, structure).
template <class T>
LeafFacts leaf_facts(Problem problem, const SparseMatrix<T>& a, const Settings& settings) {
    LeafFacts facts;
    facts.problem = problem;
    facts.order = a.rows();
    facts.nnz = a.nnz();
    facts.threads = settings.threads;
    facts.ranks = settings.ranks;
    facts.gpus = settings.gpu_throughput;
    facts.max_memory = pmcount::detail::memory_limit(settings.max_memory);
    facts.gpu_kernels = settings.gpu_kernels;
    facts.arithmetic = settings.precision == Precision::exact ? Arithmetic::exact
                       : kComplex<T>                          ? Arithmetic::complex
                       : settings.precision == Precision::double_double
                           ? Arithmetic::double_double
                           : Arithmetic::double_precision;
    facts.certified = settings.precision == Precision::certified;
    return facts;
}

template <class T>
DenseMatrix<std::int64_t> integer_dense(const DenseMatrix<T>& a) {
    if constexpr (kIntegral<T>) {
        return a;
    } else {
        throw InvalidArgument("exact arithmetic needs integer entries");
    }
}

// ---- Building -----------------------------------------------------------------------------------

/// Planarity (Boyer–Myrvold; linear in theory, but the slowest fact and about 1 KB of memory
/// per vertex: 10 s on the 400×400 grid) is tested — by `test()`, which returns it — only where
/// it decides the plan: when the planar engine would be chosen if the pattern were planar, and
/// would finish within the time limit. Sets facts.planar; returns the planar engine's predicted
/// seconds when the time limit kept the test from running (infinity otherwise).
template <class Test>
double planarity_fact(LeafFacts& facts, const Settings& settings, Test test) {
    LeafFacts planar = facts;
    planar.planar = true;
    // Tested also where the memory limit alone rules the engine out, so that the plan says so.
    planar.max_memory = std::numeric_limits<double>::infinity();
    const Engine* engine = nullptr;
    {
        // A hypothesis: what its predictions want of the machine-speed probe is not the plan's.
        std::optional<DeferredProbe> hypothetical;
        if (DeferredProbe::current() != nullptr) {
            hypothetical.emplace();
        }
        engine = choose_engine(planar, settings.method, settings.backend);
    }
    if (engine == nullptr || engine->method != Method::planar) {
        return std::numeric_limits<double>::infinity();  // not chosen even if planar
    }
    const double planar_s = engine->predict_s(planar);
    if (planar_s > settings.time_limit_s) {
        return planar_s;
    }
    facts.planar = test();
    return std::numeric_limits<double>::infinity();
}

/// Whether a pattern is planar (Boyer–Myrvold, Boost). Boost's test is super-linear on grids
/// (Boost.Graph issue #247: 18 s on the 400×400 grid, about a minute on 700×700) and cannot be
/// interrupted, so beyond a few thousand vertices it runs on a thread of its own while the
/// planner keeps checking for a stop request.
template <class Graph>
bool planar_pattern(const Graph& pattern) {
    constexpr edge_t kInterruptibleFromEdges = 16384;  // ~0.3 s on a grid
    if (pattern.num_edges() < kInterruptibleFromEdges) {
        return exact::is_planar(pattern);
    }
    return pmcount::detail::run_interruptibly([pattern] { return exact::is_planar(pattern); },
                                              kPlanning);
}

/// Puts the cheapest engine for `facts` on a leaf (engine name, predicted seconds), or records
/// why none takes it (`why_none()`). `untested_planar_s` from planarity_fact: the planar engine,
/// named `planar_name`, would be the plan if the pattern is planar, but not in time — the leaf
/// takes at least that long either way. Returns the engine, or nullptr.
template <class T, class WhyNone>
const Engine* choose_leaf_engine(const LeafFacts& facts, const Settings& settings,
                                 double untested_planar_s, const char* planar_name, Node<T>& node,
                                 WhyNone why_none) {
    const Engine* engine = choose_engine(facts, settings.method, settings.backend);
    if (untested_planar_s < (engine ? engine->predict_s(facts) : untested_planar_s + 1)) {
        node.engine =
            std::string(planar_name) + " (planarity not tested: predicted beyond the time limit)";
        node.predicted_s += untested_planar_s;
        return nullptr;
    }
    if (engine) {
        node.engine = engine->name;
        node.predicted_s += engine->predict_s(facts);
    } else {
        node.engine = "none (" + why_none() + ")";
        node.predicted_s = std::numeric_limits<double>::infinity();
    }
    return engine;
}

template <class T>
class Builder {
public:
    Builder(const Settings& settings, StructureReport& report)
        : settings_(settings), report_(report), splits_left_(settings.max_splits) {}

    /// Ready to plan the same matrix again (build_plan's second pass), keeping what it measured.
    void restart() {
        splits_left_ = settings_.max_splits;
        splits_allowed_ = true;
    }

    /// Plan for perm(a): its block tree (front_end) with an engine for each leaf and the splits
    /// that pay. `irreducible`: a is known to be one fine DM block; `reduce`: try the
    /// Forbert–Marx rules (false right after they ran to exhaustion on this very matrix).
    Node<T> build(const SparseMatrix<T>& a, bool irreducible, bool reduce, std::string origin,
                  int depth) {
        const Block<T> tree = front_end(a, settings_.dulmage_mendelsohn, settings_.reductions,
                                        irreducible, reduce, std::move(origin));
        if (depth == 0 && tree.decomposed) {
            report_.matching_size = tree.matching_size;
            report_.hall_rows = tree.hall_rows;
            report_.hall_cols = tree.hall_cols;
            report_.dropped_entries = tree.dropped_entries;
            report_.block_orders.insert(report_.block_orders.end(), tree.block_orders.begin(),
                                        tree.block_orders.end());
        }
        return plan(tree, depth);
    }

private:
    /// Whether the sparse-walk estimate enters a prediction: the sparse engines', and dense
    /// Ryser's in exact arithmetic (terms with a zero skip the modular work).
    bool walk_matters() const {
        switch (settings_.method) {
            case Method::automatic:
            case Method::sparyser:
            case Method::skipper:
                return true;
            case Method::ryser:
                return settings_.precision == Precision::exact;
            default:
                return false;
        }
    }

    /// Whether a leaf with these facts may go to a generated sparse GPU kernel, so that its
    /// prediction needs to know whether the kernel is compiled already (the probe writes the
    /// kernel's source: milliseconds).
    bool generated_kernels_matter(const LeafFacts& facts) const {
        const bool sparse = settings_.method == Method::automatic ||
                            settings_.method == Method::sparyser ||
                            settings_.method == Method::skipper;
        return sparse && settings_.backend != Backend::cpu &&
               settings_.gpu_kernels != GpuKernels::tables && facts.gpus.shared_rate > 0 &&
               facts.order >= kMinWalkEstimateOrder && !facts.certified &&
               (facts.arithmetic != Arithmetic::exact || (facts.gpu_exact_fits && kIntegral<T>));
    }

    Node<T> zero(std::string origin) {
        Node<T> node;
        node.kind = Node<T>::Kind::zero;
        node.origin = std::move(origin);
        return node;
    }

    Node<T> leaf(SparseMatrix<T> a, std::string origin) {
        Node<T> node;
        node.kind = Node<T>::Kind::leaf;
        node.origin = std::move(origin);
        node.predicted_s = kLeafOverhead_s;
        if (a.rows() == 0) {
            node.engine = "empty";
            node.matrix = std::move(a);
            return node;
        }
        LeafFacts facts = leaf_facts(Problem::permanent, a, settings_);
        std::optional<DenseMatrix<T>> dense;
        if (a.rows() <= exact::kMaxRyserOrder) {
            dense = a.to_dense();
            // Without the estimate: no zeros, and SpaRyser's column updates cost about a
            // column's nonzeros on average (an over-estimate: SortOrder flips the sparse ones
            // most often).
            facts.entries_per_step = static_cast<double>(a.nnz()) / std::max<vertex_t>(1, a.rows());
            if (a.rows() >= kMinWalkEstimateOrder && walk_matters()) {
                const SparseWalkEstimate& walk = walk_estimate(*dense);
                facts.term_fraction = walk.term_fraction;
                facts.visit_fraction = walk.visit_fraction;
                facts.entries_per_step = walk.entries_per_step;
                facts.binary_walk = walk.binary;
                facts.sub_bits = walk.sub_bits;
                facts.dynamic_rows = walk.dynamic_rows;
                facts.tested_rows = walk.tested_rows;
                facts.walk_trusted = walk.trusted;
            }
        }
        if (settings_.precision == Precision::exact) {
            if (dense) {
                const DenseMatrix<std::int64_t> integer = integer_dense(*dense);
                facts.binary = std::all_of(integer.data().begin(), integer.data().end(),
                                           [](std::int64_t v) { return v == 0 || v == 1; });
                const double bound = numeric::permanent_bound_log2(integer, facts.binary);
                facts.primes = std::isinf(bound)
                                   ? 0
                                   : static_cast<int>((bound + 1) / numeric::kLargePrimeLog2) + 2;
                facts.products = exact::exact_products(integer);
                // Only the GPU engine asks; its prime search is not free.
                facts.gpu_exact_fits = settings_.backend != Backend::cpu &&
                                       exact::gpu_available() &&
                                       exact::gpu_exact_fits(integer, facts.binary);
            }
        }
        if (dense && generated_kernels_matter(facts)) {
            generated_kernel_facts(*dense, settings_.precision, settings_.gpus, facts);
        }
        double untested_planar_s = std::numeric_limits<double>::infinity();
        if (a.rows() >= kMinPolynomialOrder || settings_.method == Method::planar ||
            settings_.method == Method::frontier) {
            const BipartiteGraph pattern = nonzero_pattern(a);
            PatternFacts& known = pattern_facts(pattern);
            polynomial_facts(a, known, dense.has_value(), facts);
            untested_planar_s = planarity_fact(facts, settings_, [&] {
                if (!known.planar) {
                    known.planar = planar_pattern(pattern);
                }
                return *known.planar;
            });
        }
        const Engine* engine =
            choose_leaf_engine(facts, settings_, untested_planar_s, "planar", node,
                               [&] { return no_engine_reason(a.rows(), facts); });
        node.detail = engine_choice_detail(facts, engine);
        node.matrix = std::move(a);
        return node;
    }

    /// What the planar and frontier engines need to know of a pattern: the frontier order's
    /// measures and whether it is planar (tested by planarity_fact only where that decides the
    /// plan). Computed once per pattern: a reduction that ends in a split attempt plans the
    /// matrix it keeps, and a split attempt plans its parts twice (without splits, then with).
    struct PatternFacts {
        /// The narrowest order found (exact::frontier_order), or, when `width_is_bound`, a lower
        /// bound that already rules the frontier out: the least degree (the first vertex of any
        /// order puts all its neighbours on the frontier), with no order searched.
        int frontier_width = -1;
        bool width_is_bound = false;
        int frontier_slots = 0;
        double frontier_states = 0;
        double frontier_peak_states = 0;
        std::optional<bool> planar;
    };

    PatternFacts& pattern_facts(const BipartiteGraph& pattern) {
        const auto& offsets = pattern.left_offsets();
        const auto& adjacency = pattern.left_adjacency();
        std::string key(sizeof(vertex_t) + offsets.size() * sizeof(edge_t) +
                            adjacency.size() * sizeof(vertex_t),
                        '\0');
        const vertex_t cols = pattern.n_right();
        std::memcpy(key.data(), &cols, sizeof cols);
        std::memcpy(key.data() + sizeof cols, offsets.data(), offsets.size() * sizeof(edge_t));
        std::memcpy(key.data() + sizeof cols + offsets.size() * sizeof(edge_t), adjacency.data(),
                    adjacency.size() * sizeof(vertex_t));
        auto it = patterns_.find(key);
        if (it != patterns_.end()) {
            return it->second;
        }
        PatternFacts facts;
        const vertex_t n = pattern.n_left();
        const int cap = frontier_width_that_matters(n);
        edge_t least_degree = std::numeric_limits<edge_t>::max();
        for (vertex_t u = 0; u < n; ++u) {
            least_degree = std::min<edge_t>(least_degree, pattern.right_neighbours(u).size());
        }
        for (vertex_t v = 0; v < cols; ++v) {
            least_degree = std::min<edge_t>(least_degree, pattern.left_neighbours(v).size());
        }
        if (n > 0 && least_degree > cap) {
            // Dense patterns: the search (O(E log w) per candidate, and Boost's Cuthill–McKee
            // on a copy of the graph) took seconds and a gigabyte on regular:2048,2047.
            facts.frontier_width = facts.frontier_slots = static_cast<int>(least_degree);
            facts.width_is_bound = true;
            facts.frontier_states = facts.frontier_peak_states =
                std::numeric_limits<double>::infinity();
        } else {
            const exact::FrontierOrder order = exact::frontier_order(pattern, cap);
            facts.frontier_width = order.width;
            facts.frontier_slots = order.slots;
            facts.frontier_states = order.states;
            facts.frontier_peak_states = order.peak_states;
        }
        return patterns_.emplace(std::move(key), facts).first->second;
    }

    /// The leaf's facts for the planar and frontier engines but planarity (planarity_fact): the
    /// pattern's frontier order and, in exact arithmetic, the permanent bound (primes for planar,
    /// integer width for frontier) also for leaves too large for the dense facts.
    void polynomial_facts(const SparseMatrix<T>& a, const PatternFacts& known, bool dense_facts,
                          LeafFacts& facts) const {
        facts.frontier_width = known.frontier_width;
        facts.frontier_width_is_bound = known.width_is_bound;
        facts.frontier_slots = known.frontier_slots;
        facts.frontier_states = known.frontier_states;
        facts.frontier_peak_states = known.frontier_peak_states;
        if constexpr (kIntegral<T>) {
            if (facts.arithmetic == Arithmetic::exact) {
                const bool binary = std::all_of(a.values().begin(), a.values().end(),
                                                [](std::int64_t v) { return v == 0 || v == 1; });
                const double bound = numeric::permanent_bound_log2(a, binary);
                facts.bound_log2 = std::isinf(bound) ? 0 : bound;
                if (!dense_facts) {
                    facts.binary = binary;
                    facts.primes =
                        static_cast<int>((facts.bound_log2 + 1) / numeric::kLargePrimeLog2) + 2;
                }
            }
        }
    }

    /// Why no engine takes a leaf: the forced method's limit, or every engine's.
    std::string no_engine_reason(vertex_t order, const LeafFacts& facts) const {
        const bool dd = facts.arithmetic == Arithmetic::double_double;
        const char* no_dd = "the planar and frontier engines have no double-double arithmetic";
        switch (settings_.method) {
            case Method::planar:
                return dd ? no_dd : planar_reason(facts);
            case Method::frontier:
                return dd ? no_dd : frontier_reason(facts);
            case Method::brute_force:
                return "brute force handles order ≤ " + std::to_string(exact::kMaxBruteForceOrder);
            case Method::ryser:
            case Method::sparyser:
            case Method::skipper:
                return "Ryser's engines handle order ≤ " + std::to_string(exact::kMaxRyserOrder);
            default:
                return "order " + std::to_string(order) + " is beyond Ryser's engines (≤ " +
                       std::to_string(exact::kMaxRyserOrder) + ")" +
                       (dd ? ", and " + std::string(no_dd)
                        : facts.frontier_width >= 0
                            ? ", " + planar_reason(facts) + ", and " + frontier_reason(facts)
                            : std::string());
        }
    }

public:
    /// Why the frontier engine does not take a leaf (the hafnian planner's too).
    static std::string frontier_reason(const LeafFacts& facts) {
        if (facts.frontier_width >= 0 && facts.frontier_width <= exact::kMaxFrontierWidth &&
            frontier_bytes(facts) > facts.max_memory) {
            return "the frontier DP's state tables (width " + std::to_string(facts.frontier_width) +
                   ") need " + over_memory_limit(frontier_bytes(facts), facts);
        }
        return "frontier width " + std::string(facts.frontier_width_is_bound ? "at least " : "") +
               std::to_string(facts.frontier_width) +
               (facts.frontier_width_is_bound ? " (the least degree)" : "") +
               " is beyond the frontier engine's limit of " +
               std::to_string(exact::kMaxFrontierWidth);
    }

private:
    /// Why the planar engine does not take a leaf that is not double-double: not planar, or its
    /// elimination predicted past the memory limit.
    static std::string planar_reason(const LeafFacts& facts) {
        return facts.planar ? "the planar engine's elimination needs " +
                                  over_memory_limit(planar_bytes(facts), facts)
                            : "the pattern is not planar";
    }

    /// Applies the Forbert–Marx rules until none applies; a split is kept only when the two
    /// parts' plans are predicted cheaper than counting the matrix as it stands.
    /// The plan of a block tree: its leaves' engines, and a split wherever one is weighed and
    /// pays.
    Node<T> plan(const Block<T>& block, int depth) {
        pmcount::detail::throw_if_stopped(kPlanning);
        switch (block.kind) {
            case Block<T>::Kind::zero: {
                Node<T> node = zero(block.origin);
                node.reductions = block.reductions;
                node.reduced_from = block.reduced_from;
                return node;
            }
            case Block<T>::Kind::product: {
                Node<T> product;
                product.kind = Node<T>::Kind::product;
                product.origin = block.origin;
                for (const Block<T>& child : block.children) {
                    product.children.push_back(plan(child, depth + 1));
                    product.predicted_s += product.children.back().predicted_s;
                }
                return product;
            }
            case Block<T>::Kind::leaf:
            case Block<T>::Kind::reduced:
                break;
        }
        if (std::optional<Node<T>> sum = split_if_it_pays(block, depth)) {
            return std::move(*sum);
        }
        if (block.kind == Block<T>::Kind::leaf) {
            return leaf(block.matrix, block.origin);
        }
        Node<T> node = plan(block.children.front(), depth + 1);
        node.factors.insert(node.factors.end(), block.factors.begin(), block.factors.end());
        node.reductions += block.reductions;
        node.reduced_from = block.reduced_from;
        return node;
    }

    /// Where the reductions stopped at a line of 3 or 4 nonzeros (Block::splittable): the sum of
    /// the two parts' plans when it is predicted faster than the matrix kept whole, else nullopt.
    /// Tried only on matrices predicted over kMinSplitSaving_s, not on polynomial leaves (two
    /// parts of order n − 1 cost about twice as much), and at most Settings::max_splits times.
    std::optional<Node<T>> split_if_it_pays(const Block<T>& block, int depth) {
        if (!block.splittable || !splits_allowed_ || splits_left_ <= 0) {
            return std::nullopt;
        }
        // The matrix as the reductions hold it: a leaf's without its stored zeros.
        std::vector<vertex_t> rows, cols;
        const Node<T> keep = leaf(block.kind == Block<T>::Kind::leaf
                                      ? reduce::WorkMatrix<T>(block.matrix).extract(rows, cols)
                                      : block.matrix,
                                  "");
        const double keep_s = keep.predicted_s;
        if (keep_s < kMinSplitSaving_s || polynomial_engine(keep.engine)) {
            return std::nullopt;
        }
        --splits_left_;  // every attempt counts, kept or not: planning time stays bounded
        const auto [parts, degree] = split_least_line(block.matrix);
        // Decide on the parts planned without further splits (linear planning time: a full plan
        // of both parts at every attempt would grow exponentially with the depth); a kept split
        // is then planned in full, which can only lower its cost.
        const std::string split_origin =
            block.origin + ": split of a line with " + std::to_string(degree) + " nonzeros";
        auto plan_parts = [&](bool splits) {
            const bool outer = splits_allowed_;
            splits_allowed_ = splits;
            Node<T> sum;
            sum.kind = Node<T>::Kind::sum;
            sum.origin = split_origin;
            sum.children.push_back(build(parts.first, false, true, "part 1", depth + 1));
            sum.children.push_back(build(parts.second, false, true, "part 2", depth + 1));
            sum.predicted_s =
                kLeafOverhead_s + sum.children[0].predicted_s + sum.children[1].predicted_s;
            splits_allowed_ = outer;
            return sum;
        };
        if (plan_parts(false).predicted_s >= keep_s) {
            return std::nullopt;
        }
        Node<T> sum = plan_parts(true);
        sum.factors = block.factors;
        sum.reductions = block.reductions;
        ++sum.reductions.split;
        sum.reduced_from = block.reduced_from;
        return sum;
    }

    /// The walk estimate of `a`, once per matrix: a split attempt plans its parts without
    /// splits and then again with them, and the same part turns up under several attempts.
    const SparseWalkEstimate& walk_estimate(const DenseMatrix<T>& a) {
        std::string key(sizeof(vertex_t) + a.data().size() * sizeof(T), '\0');
        const vertex_t n = a.rows();
        std::memcpy(key.data(), &n, sizeof n);
        std::memcpy(key.data() + sizeof n, a.data().data(), a.data().size() * sizeof(T));
        auto it = walks_.find(key);
        if (it == walks_.end()) {
            it = walks_.emplace(std::move(key), estimate_sparse_walk(a)).first;
        }
        return it->second;
    }

    const Settings& settings_;
    StructureReport& report_;
    int splits_left_;
    bool splits_allowed_ = true;
    std::unordered_map<std::string, SparseWalkEstimate> walks_;
    std::unordered_map<std::string, PatternFacts> patterns_;
};

/// Renders the plan text and fills the report's leaves, predicted time and reduction counts
/// (plan.cpp).
template <class T>
void finish_plan(const Node<T>& root, StructureReport& report);

// ---- Pfaffians on a surface (general.cpp) ----
// Where the graph came with an embedding (Settings::embedding) whose components have genus at
// most exact::kMaxComponentGenus, the Pfaffians on its surface count the whole graph in one
// leaf, in polynomial time. Planning the graph otherwise (walk estimates, frontier orders,
// splits) can cost more than that leaf: 15 ms against 9 ms on the 10×10 torus, 1.3 s against
// 2 ms with --general. So a leaf predicted under kSurfaceWithoutPlan_s is counted without
// planning anything else; a slower one competes with the plan.

/// The plan that planning could at most improve by this much is not worth planning.
inline constexpr double kSurfaceWithoutPlan_s = 0.05;

/// The same for a torus whose Pfaffians factor by Fourier transform: its cost grows as V² (V
/// sites times the primes for a count of V·0.3 bits), and planning (the front end's search for
/// the edges in no perfect matching alone) takes as long as the count on the 100×100 brick wall
/// (0.58 s against 0.06 s), while the other engines' exponential cost in the torus's width (two
/// sides of cells at least) cannot win once the count takes seconds.
inline constexpr double kTorusWithoutPlan_s = 10;

/// The whole graph's surface leaf (a hafnian: a permanent's rows and columns are the
/// embedding's vertices as in bipartite_embedding), or nullopt when the engine does not apply
/// (no embedding, another --method, double-double or certified, memory). An embedding that does
/// not fit the graph, or puts a component on a surface of genus above
/// exact::kMaxComponentGenus, is an InvalidArgument.
template <class T>
std::optional<Node<T>> surface_leaf(const SparseMatrix<T>& a, Problem problem,
                                    const Settings& settings);

/// Whether `leaf` is the plan without planning anything else: under --method planar (the surface
/// leaf), or when
/// predicted under kSurfaceWithoutPlan_s, and the graph has a perfect matching (else the front
/// end's plan names the witness). Then fills `report` for it (the decomposition did not run).
template <class T>
bool surface_without_plan(const Node<T>& leaf, const Settings& settings, StructureReport& report);

/// The whole graph's leaf for the frontier DP's trace on a torus
/// (exact/frontier/frontier_torus.hpp) when the embedding carries a tiling that fits the graph (a
/// permanent's as in surface_leaf; integer entries, exact arithmetic, --method automatic or
/// frontier), or nullopt. surface_without_plan and prefer_surface take it as they take the surface
/// leaf: it competes with the plan by prediction, under --method frontier too.
template <class T>
std::optional<Node<T>> torus_frontier_leaf(const SparseMatrix<T>& a, Problem problem,
                                           const Settings& settings);

/// Replaces `root` by `leaf` when that is predicted faster; the report keeps the front end's
/// facts (matching, blocks) and describes the new plan.
template <class T>
void prefer_surface(std::optional<Node<T>> leaf, Node<T>& root, StructureReport& report);

}  // namespace pmcount::plan::detail
