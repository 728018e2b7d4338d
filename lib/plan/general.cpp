// The hafnian planner: haf(A) of a symmetric matrix with an empty diagonal, i.e. the (weighted)
// number of perfect matchings of a general graph (plan.hpp shows the pipeline).
//
// Phases of GeneralBuilder::build, each a product of independent counts or a reduction:
//   (1) Edmonds' blossom matching: no perfect matching → 0 (at the top, with a Tutte set);
//   (2) edges in no perfect matching dropped (one alternating search per vertex, O(V·E): only
//       where that work is small — the polynomial and exponential engines do not need it);
//   (3) connected components → product;
//   (4) a bipartite component → its biadjacency matrix, planned as a permanent by the bipartite
//       planner (Dulmage–Mendelsohn, Forbert–Marx, Ryser/planar/frontier engines), unless
//       Settings::general keeps it a hafnian;
//   (5) the block (cut vertex) split: each cut vertex is matched into the one block that parity
//       allows, so the count is the product over the pieces;
//   (6) forced edges (a vertex of degree 1) multiplied out and degree-2 vertices contracted
//       (reduce/symmetric.hpp), a vertex of degree 3–4 split in two where the cost model says
//       the parts are cheaper, then (1)–(5) again on what is left;
//   (7) a leaf: the cheapest hafnian engine (engines.hpp), the planarity test only where the
//       Pfaffian engine would win.
// Every split strictly shrinks the problem or ends in a leaf, so the recursion terminates; its
// depth is at most the number of vertices.
#include "structure/general.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "exact/frontier/frontier_torus.hpp"
#include "exact/hafnian/hafnian.hpp"
#include "exact/planar/pfaffian.hpp"
#include "exact/planar/surface.hpp"
#include "exact/planar/torus_fourier.hpp"
#include "numeric/permanent_bound.hpp"
#include "numeric/primes.hpp"
#include "plan/builder.hpp"
#include "plan/cost_model.hpp"
#include "plan/engines.hpp"
#include "plan/plan.hpp"
#include "pmcount/structure.hpp"
#include "reduce/symmetric.hpp"

namespace pmcount::plan {

namespace {

using detail::kIntegral;
using detail::kLeafOverhead_s;
using detail::kMinSplitSaving_s;

/// Dropping the edges in no perfect matching costs one alternating search per vertex; beyond
/// this bound on the entries scanned (structure::allowed_edges_work_bound; a 100×100 triangular
/// patch is 6.9·10^8 and takes 0.02 s, the searches stop early) it is skipped: the engines that
/// take such large graphs (the Pfaffian of a planar graph) do not need it, and exponential leaves
/// are small.
constexpr double kAllowedEdgesWork = 2e9;

/// The graph of the nonzero entries off the diagonal.
template <class T>
UndirectedGraph nonzero_graph(const SparseMatrix<T>& a) {
    std::vector<UndirectedGraph::Edge> edges;
    edges.reserve(static_cast<std::size_t>(a.nnz()) / 2);
    for (const auto& t : a.triplets()) {
        if (t.row < t.col && t.value != T{}) {
            edges.emplace_back(t.row, t.col);
        }
    }
    return {a.rows(), std::move(edges)};
}

/// The principal submatrix on `vertices` (ascending), renumbered 0..k−1, keeping only the entries
/// of `keep`'s edges.
template <class T>
SparseMatrix<T> principal(const SparseMatrix<T>& a, const std::vector<vertex_t>& vertices,
                          const UndirectedGraph& keep) {
    std::vector<vertex_t> local(static_cast<std::size_t>(a.rows()), -1);
    for (std::size_t k = 0; k < vertices.size(); ++k) {
        local[static_cast<std::size_t>(vertices[k])] = static_cast<vertex_t>(k);
    }
    std::vector<Triplet<T>> entries;
    for (const auto& t : a.triplets()) {
        const vertex_t r = local[static_cast<std::size_t>(t.row)];
        const vertex_t c = local[static_cast<std::size_t>(t.col)];
        if (r >= 0 && c >= 0 && t.value != T{} && keep.has_edge(t.row, t.col)) {
            entries.push_back({r, c, t.value});
        }
    }
    const auto n = static_cast<vertex_t>(vertices.size());
    return {n, n, std::move(entries)};
}

/// A bipartite graph's biadjacency matrix: colour-0 vertices are rows, colour-1 vertices
/// columns, both in vertex order. Non-square when the colour classes differ in size.
template <class T>
SparseMatrix<T> biadjacency(const SparseMatrix<T>& a, const std::vector<std::uint8_t>& colour) {
    std::vector<vertex_t> index(colour.size());
    vertex_t rows = 0, cols = 0;
    for (std::size_t v = 0; v < colour.size(); ++v) {
        index[v] = colour[v] == 0 ? rows++ : cols++;
    }
    std::vector<Triplet<T>> entries;
    for (const auto& t : a.triplets()) {
        if (colour[static_cast<std::size_t>(t.row)] == 0 && t.value != T{}) {
            entries.push_back({index[static_cast<std::size_t>(t.row)],
                               index[static_cast<std::size_t>(t.col)], t.value});
        }
    }
    return {rows, cols, std::move(entries)};
}

template <class T>
bool all_binary(const SparseMatrix<T>& a) {
    if constexpr (kIntegral<T>) {
        return std::all_of(a.values().begin(), a.values().end(),
                           [](std::int64_t v) { return v == 0 || v == 1; });
    } else {
        return false;
    }
}

template <class T>
class GeneralBuilder {
public:
    GeneralBuilder(const Settings& settings, StructureReport& report)
        : settings_(settings), report_(report), bipartite_(settings, report) {}

    /// Plan for haf(a); `reduce`: try the forced-edge and degree-2 rules (false right after they
    /// ran to exhaustion on this very matrix).
    Node<T> build(const SparseMatrix<T>& a, bool reduce, std::string origin, int depth) {
        pmcount::detail::throw_if_stopped(detail::kPlanning);
        const vertex_t n = a.rows();
        if (n % 2 != 0) {
            return zero(origin + ": an odd number of vertices (" + std::to_string(n) + ")");
        }
        if (n > 0 && settings_.dulmage_mendelsohn) {
            UndirectedGraph graph = nonzero_graph(a);
            // (1) A perfect matching, or a Tutte set that rules one out.
            const GeneralMatching matching = maximum_matching(graph);
            if (depth == 0) {
                report_.matching_size = matching.size;
            }
            if (!matching.is_perfect()) {
                if (depth == 0) {
                    report_.tutte_set = matching.tutte_set;
                    report_.tutte_odd_components = matching.odd_components;
                }
                return zero(origin + ": no perfect matching (maximum matching " +
                            std::to_string(matching.size) + " of " + std::to_string(n / 2) +
                            " edges)");
            }
            // (2) Edges in no perfect matching.
            SparseMatrix<T> pruned;
            if (structure::allowed_edges_work_bound(graph) <= kAllowedEdgesWork) {
                UndirectedGraph allowed = structure::allowed_edges(graph, matching.mate);
                if (allowed.num_edges() < graph.num_edges()) {
                    report_.dropped_entries += graph.num_edges() - allowed.num_edges();
                    graph = std::move(allowed);
                    std::vector<vertex_t> all(static_cast<std::size_t>(n));
                    std::iota(all.begin(), all.end(), 0);
                    pruned = principal(a, all, graph);
                }
            }
            const SparseMatrix<T>& b = pruned.rows() == n ? pruned : a;
            // (3) Connected components.
            const structure::Components components = structure::connected_components(graph);
            if (components.count > 1) {
                std::vector<std::vector<vertex_t>> parts(
                    static_cast<std::size_t>(components.count));
                for (vertex_t v = 0; v < n; ++v) {
                    parts[static_cast<std::size_t>(components.id[static_cast<std::size_t>(v)])]
                        .push_back(v);
                }
                return product(b, graph, parts, origin, "component", reduce, depth);
            }
            // (4) A bipartite graph is a permanent.
            const auto colour = structure::two_colouring(graph);
            if (colour && !settings_.general) {
                return bipartite(b, *colour, origin, depth);
            }
            // (5) Blocks: the pieces left once every cut vertex went to its block. (The matching
            // above rules out an infeasible split; it stays a zero for safety of the recursion.)
            const structure::CutVertexSplit split = structure::split_at_cut_vertices(graph);
            if (!split.feasible) {
                return zero(origin + ": no perfect matching (a cut vertex's parity)");
            }
            if (split.pieces.size() > 1) {
                return product(b, graph, split.pieces, origin, "block", reduce, depth);
            }
            if (depth == 0) {
                report_.block_orders.assign(1, n);
            }
            if (settings_.reductions && reduce) {
                return reduce_then_build(b, std::move(origin), depth);
            }
            return leaf(b, std::move(origin));
        }
        if (n > 0 && settings_.reductions && reduce) {
            return reduce_then_build(a, std::move(origin), depth);
        }
        return leaf(a, std::move(origin));
    }

private:
    Node<T> zero(std::string origin) {
        Node<T> node;
        node.kind = Node<T>::Kind::zero;
        node.problem = Problem::hafnian;
        node.origin = std::move(origin);
        return node;
    }

    /// The product over vertex-disjoint parts (components or block pieces) of `graph`.
    Node<T> product(const SparseMatrix<T>& a, const UndirectedGraph& graph,
                    const std::vector<std::vector<vertex_t>>& parts, const std::string& origin,
                    const char* part_name, bool reduce, int depth) {
        Node<T> node;
        node.kind = Node<T>::Kind::product;
        node.problem = Problem::hafnian;
        node.origin = origin + ": " + std::to_string(parts.size()) + " " + part_name + "s";
        for (std::size_t k = 0; k < parts.size(); ++k) {
            if (depth == 0) {
                report_.block_orders.push_back(static_cast<vertex_t>(parts[k].size()));
            }
            node.children.push_back(build(principal(a, parts[k], graph), reduce,
                                          std::string(part_name) + " " + std::to_string(k + 1) +
                                              " of " + std::to_string(parts.size()),
                                          depth + 1));
            node.predicted_s += node.children.back().predicted_s;
        }
        return node;
    }

    /// A bipartite piece: haf = perm of its biadjacency matrix (0 when the sides differ).
    Node<T> bipartite(const SparseMatrix<T>& a, const std::vector<std::uint8_t>& colour,
                      const std::string& origin, int depth) {
        const SparseMatrix<T> b = biadjacency(a, colour);
        if (depth == 0) {
            report_.block_orders.assign(1, a.rows());
        }
        if (!b.is_square()) {
            return zero(origin + ": bipartite with sides of " + std::to_string(b.rows()) + " and " +
                        std::to_string(b.cols()) + " vertices");
        }
        // The bipartite planner reports its own top-level facts only at depth 0.
        return bipartite_.build(b, false, true,
                                origin + ", bipartite: permanent " + std::to_string(b.rows()) +
                                    "×" + std::to_string(b.cols()),
                                depth + 1);
    }

    /// (6) Forced edges and degree-2 contractions until neither applies, then a split of a
    /// vertex with 3–4 neighbours where planning says the two parts are cheaper; then the
    /// structure again on what is left (not reduced a second time).
    Node<T> reduce_then_build(const SparseMatrix<T>& a, std::string origin, int depth) {
        reduce::WorkSymmetric<T> work(a);
        std::vector<T> factors;
        for (std::int64_t step = 0;; ++step) {
            if ((step & 0xfff) == 0) {
                pmcount::detail::throw_if_stopped(detail::kPlanning);
            }
            const auto [degree, v] = work.min_vertex();
            if (degree < 0) {
                break;  // everything eliminated
            }
            if (degree == 0) {
                Node<T> node = zero(origin + ": a vertex lost its last neighbour while reducing");
                node.reductions = work.counts();
                node.reduced_from = a.rows();
                return node;
            }
            if (degree == 1) {
                factors.push_back(work.eliminate(v));
                continue;
            }
            if (degree == 2 && work.contract(v)) {
                continue;
            }
            if (degree >= 3 && degree <= 4 && work.can_contract() && splits_allowed_ &&
                splits_left_ > 0) {
                if (auto sum = try_split(work, v, degree, origin, depth)) {
                    sum->factors = std::move(factors);
                    sum->reductions = work.counts();
                    sum->reduced_from = a.rows();
                    return std::move(*sum);
                }
            }
            break;
        }
        if (!work.counts().any()) {
            return leaf(a, std::move(origin));
        }
        std::vector<vertex_t> original;
        Node<T> node = build(work.extract(original), false, origin + ", reduced", depth + 1);
        node.factors.insert(node.factors.end(), factors.begin(), factors.end());
        node.reductions += work.counts();
        node.reduced_from = a.rows();
        return node;
    }

    /// The split of vertex v (3–4 neighbours) into two hafnians that add up, when the parts,
    /// planned without further splits (linear planning time), are predicted cheaper than the
    /// matrix as it stands; then planned in full (which can only lower their cost).
    std::optional<Node<T>> try_split(reduce::WorkSymmetric<T>& work, vertex_t v, int degree,
                                     const std::string& origin, int depth) {
        std::vector<vertex_t> original;
        const SparseMatrix<T> current = work.extract(original);
        const Node<T> keep = leaf(current, "");
        if (keep.predicted_s < kMinSplitSaving_s || detail::polynomial_engine(keep.engine)) {
            return std::nullopt;  // cheap already, or polynomial: two parts cost about twice
        }
        --splits_left_;  // every attempt counts, kept or not: planning time stays bounded
        auto [first, second] = work.split(v);
        const SparseMatrix<T> part1 = first.extract(original);
        const SparseMatrix<T> part2 = second.extract(original);
        auto plan_parts = [&](bool splits) {
            const bool outer = splits_allowed_;
            splits_allowed_ = splits;
            Node<T> sum;
            sum.kind = Node<T>::Kind::sum;
            sum.problem = Problem::hafnian;
            sum.origin =
                origin + ": split of a vertex with " + std::to_string(degree) + " neighbours";
            sum.children.push_back(build(part1, true, "part 1", depth + 1));
            sum.children.push_back(build(part2, true, "part 2", depth + 1));
            sum.predicted_s =
                kLeafOverhead_s + sum.children[0].predicted_s + sum.children[1].predicted_s;
            splits_allowed_ = outer;
            return sum;
        };
        if (plan_parts(false).predicted_s < keep.predicted_s) {
            return plan_parts(true);
        }
        return std::nullopt;
    }

    /// (7) The cheapest hafnian engine for the leaf.
    Node<T> leaf(SparseMatrix<T> a, std::string origin) {
        Node<T> node;
        node.kind = Node<T>::Kind::leaf;
        node.problem = Problem::hafnian;
        node.origin = std::move(origin);
        node.predicted_s = kLeafOverhead_s;
        if (a.rows() == 0) {
            node.engine = "empty";
            node.matrix = std::move(a);
            return node;
        }
        LeafFacts facts = detail::leaf_facts(Problem::hafnian, a, settings_);
        if constexpr (kIntegral<T>) {
            if (settings_.precision == Precision::exact) {
                facts.binary = all_binary(a);
                const double bound = numeric::hafnian_bound_log2(a, facts.binary);
                facts.bound_log2 = std::isinf(bound) ? 0 : bound;
                facts.primes = exact::hafnian_primes(facts.bound_log2);
            }
        }
        if (a.rows() >= kMinPolynomialOrder || settings_.method == Method::frontier) {
            frontier_facts(nonzero_graph(a), facts);
        }
        const double untested_planar_s = detail::planarity_fact(
            facts, settings_, [&a] { return detail::planar_pattern(nonzero_graph(a)); });
        detail::choose_leaf_engine(facts, settings_, untested_planar_s, "pfaffian", node,
                                   [&] { return no_engine_reason(facts); });
        node.matrix = std::move(a);
        return node;
    }

    /// The frontier DP's facts of a general leaf: its narrowest order (exact::frontier_order),
    /// or, when the least degree is already past any width that could matter, that bound with
    /// no order searched (dense pieces: the search would cost more than it could save).
    static void frontier_facts(const UndirectedGraph& g, LeafFacts& facts) {
        const vertex_t n = g.num_vertices();
        const int cap = frontier_width_that_matters(n);
        vertex_t least_degree = n;
        for (vertex_t v = 0; v < n; ++v) {
            least_degree = std::min(least_degree, g.degree(v));
        }
        if (n > 0 && least_degree > cap) {
            facts.frontier_width = facts.frontier_slots = static_cast<int>(least_degree);
            facts.frontier_width_is_bound = true;
            facts.frontier_states = facts.frontier_peak_states =
                std::numeric_limits<double>::infinity();
            return;
        }
        const exact::FrontierOrder order = exact::frontier_order(g, cap);
        facts.frontier_width = order.width;
        facts.frontier_slots = order.slots;
        facts.frontier_states = order.states;
        facts.frontier_peak_states = order.peak_states;
    }

    /// Why no hafnian engine takes a leaf: the forced method's limit, or every engine's.
    std::string no_engine_reason(const LeafFacts& facts) const {
        const std::string limit = facts.order <= exact::kMaxHafnianOrder
                                      ? "the hafnian engine's tables need " +
                                            detail::over_memory_limit(hafnian_bytes(facts), facts)
                                      : "the hafnian engine handles up to " +
                                            std::to_string(exact::kMaxHafnianOrder) + " vertices";
        const std::string not_planar =
            facts.planar ? "the Pfaffian engine's elimination needs " +
                               detail::over_memory_limit(pfaffian_bytes(facts), facts)
                         : "the graph is not planar";
        const bool dd = facts.arithmetic == Arithmetic::double_double;
        switch (settings_.method) {
            case Method::planar:
                return dd ? "the Pfaffian engine has no double-double arithmetic" : not_planar;
            case Method::brute_force:
                return "brute force (pairings) handles up to " +
                       std::to_string(exact::kMaxPairingsOrder) + " vertices";
            case Method::hafnian:
                return limit;
            case Method::frontier:
                return dd ? "the frontier DP has no double-double arithmetic"
                          : detail::Builder<T>::frontier_reason(facts);
            case Method::automatic:
                return std::to_string(facts.order) + " vertices: " + limit +
                       (dd ? ", and the Pfaffian engine has no double-double arithmetic"
                           : ", and " + not_planar);
            default:
                return std::string("--method ") + to_string(settings_.method) +
                       " counts permanents (bipartite pieces), and this piece is not bipartite";
        }
    }

    const Settings& settings_;
    StructureReport& report_;
    detail::Builder<T> bipartite_;
    int splits_left_ = settings_.max_splits;
    bool splits_allowed_ = true;
};

}  // namespace

template <class T>
Node<T> build_hafnian_plan(const SparseMatrix<T>& a, const Settings& settings,
                           StructureReport& report) {
    report.dulmage_mendelsohn = settings.dulmage_mendelsohn;
    report.reductions = settings.reductions;
    report.general = true;
    std::optional<Node<T>> surface = detail::surface_leaf(a, Problem::hafnian, settings);
    if (surface && detail::surface_without_plan(*surface, settings, report)) {
        return std::move(*surface);
    }
    std::optional<Node<T>> torus = detail::torus_frontier_leaf(a, Problem::hafnian, settings);
    if (torus && detail::surface_without_plan(*torus, settings, report)) {
        return std::move(*torus);
    }
    GeneralBuilder<T> builder(settings, report);
    Node<T> root = builder.build(a, true, "graph of " + std::to_string(a.rows()) + " vertices", 0);
    if (report.block_orders.empty()) {
        report.block_orders.assign(1, a.rows());
    }
    detail::finish_plan(root, report);
    detail::prefer_surface(std::move(surface), root, report);
    detail::prefer_surface(std::move(torus), root, report);
    return root;
}

template <class T>
std::optional<Node<T>> detail::torus_frontier_leaf(const SparseMatrix<T>& a, Problem problem,
                                                   const Settings& settings) {
    if constexpr (kIntegral<T>) {
        if (settings.embedding == nullptr || !settings.embedding->cells ||
            (settings.method != Method::automatic && settings.method != Method::frontier) ||
            settings.precision != Precision::exact ||
            (problem == Problem::permanent && !a.is_square())) {
            return std::nullopt;
        }
        SparseMatrix<T> graph = problem == Problem::permanent ? bipartite_embedding(a) : a;
        const std::optional<exact::TorusTransfer> transfer =
            exact::torus_transfer(graph, *settings.embedding->cells);
        if (!transfer) {
            return std::nullopt;
        }
        LeafFacts facts = leaf_facts(Problem::hafnian, graph, settings);
        facts.binary = all_binary(graph);
        facts.bound_log2 = std::max(0.0, numeric::hafnian_bound_log2(graph, facts.binary));
        Node<T> leaf;
        leaf.kind = Node<T>::Kind::leaf;
        leaf.problem = Problem::hafnian;
        leaf.origin = "torus of " + std::to_string(graph.rows()) + " vertices";
        leaf.engine = "frontier";
        leaf.detail = transfer->description;
        leaf.predicted_s = kLeafOverhead_s + torus_frontier_seconds(facts, transfer->lane_updates);
        leaf.embedded = true;
        leaf.matrix = std::move(graph);
        return leaf;
    } else {
        (void)a;
        (void)problem;
        (void)settings;
        return std::nullopt;
    }
}

template <class T>
std::optional<Node<T>> detail::surface_leaf(const SparseMatrix<T>& a, Problem problem,
                                            const Settings& settings) {
    const bool asked = settings.method == Method::planar;
    if (settings.embedding == nullptr || (settings.method != Method::automatic && !asked) ||
        settings.precision == Precision::double_double ||
        settings.precision == Precision::certified ||
        (problem == Problem::permanent && !a.is_square())) {
        return std::nullopt;
    }
    SparseMatrix<T> graph = problem == Problem::permanent ? bipartite_embedding(a) : a;
    const UndirectedGraph pattern = nonzero_graph(graph);
    const exact::SurfaceGenus genus = exact::surface_genus(pattern, *settings.embedding);
    if (genus.largest > exact::kMaxComponentGenus) {
        // Given to be used: a rotation out of order (which raises the genus) must not pass for
        // a graph no engine can count.
        throw InvalidArgument("the embedding puts a component of the graph on a surface of genus " +
                              std::to_string(genus.largest) +
                              "; the Pfaffians on a surface count "
                              "genus up to " +
                              std::to_string(exact::kMaxComponentGenus) +
                              " (check the rotations' order, or count without the embedding)");
    }
    LeafFacts facts = leaf_facts(Problem::hafnian, graph, settings);
    facts.planar = true;
    std::optional<exact::TorusGrid> grid;  // the torus by Fourier transform (exact only)
    if constexpr (kIntegral<T>) {
        if (settings.precision == Precision::exact) {
            facts.binary = all_binary(graph);
            const double bound = exact::pfaffian_bound_log2(graph);
            facts.bound_log2 = std::isinf(bound) ? 0 : bound;
            if (settings.embedding->cells) {
                grid = exact::torus_grid(graph, *settings.embedding);
            }
        }
    }
    if (pfaffian_bytes(facts) > facts.max_memory) {
        return std::nullopt;
    }
    const int orientations = 1 << (2 * genus.total);
    Node<T> leaf;
    leaf.kind = Node<T>::Kind::leaf;
    leaf.problem = Problem::hafnian;
    leaf.origin = "graph of " + std::to_string(graph.rows()) +
                  " vertices embedded on a surface of genus " + std::to_string(genus.total);
    leaf.engine = "pfaffian-surface";
    leaf.detail = std::to_string(orientations) + " Pfaffian" + (orientations > 1 ? "s" : "");
    leaf.predicted_s = kLeafOverhead_s + surface_pfaffian_seconds(facts, orientations);
    if (grid) {
        leaf.detail += " by Fourier transform over " + std::to_string(grid->rows) + "×" +
                       std::to_string(grid->cols) + " cells of " + std::to_string(grid->sites) +
                       " sites";
        leaf.predicted_s =
            kLeafOverhead_s + torus_fourier_seconds(facts,
                                                    static_cast<double>(grid->rows) * grid->cols,
                                                    grid->sites, 2 * grid->classes);
        leaf.fourier = true;
    }
    leaf.embedded = true;
    leaf.matrix = std::move(graph);
    return leaf;
}

template <class T>
bool detail::surface_without_plan(const Node<T>& leaf, const Settings& settings,
                                  StructureReport& report) {
    // --method planar takes the surface leaf whatever its cost; the frontier DP's trace on a
    // torus competes with the ordinary frontier DP (a brick wall's tiling groups 2×2 cells, and
    // its trace loses to one sweep).
    const bool forced = settings.method == Method::planar && leaf.engine != "frontier";
    if (!forced &&
        leaf.predicted_s >= (leaf.fourier ? kTorusWithoutPlan_s : kSurfaceWithoutPlan_s)) {
        return false;
    }
    // Without a perfect matching the front end's plan says why the count is 0.
    const GeneralMatching matching = maximum_matching(nonzero_graph(leaf.matrix));
    if (!matching.is_perfect()) {
        return false;
    }
    report.dulmage_mendelsohn = false;
    report.matching_size = report.general ? matching.size : leaf.matrix.rows() / 2;
    finish_plan(leaf, report);
    return true;
}

template <class T>
void detail::prefer_surface(std::optional<Node<T>> leaf, Node<T>& root, StructureReport& report) {
    if (!leaf || root.predicted_s <= leaf->predicted_s) {
        return;
    }
    root = std::move(*leaf);
    report.leaves.clear();
    report.eliminated = report.merged = report.split = 0;
    finish_plan(root, report);
}

#define PMCOUNT_SURFACE(T)                                                                         \
    template std::optional<Node<T>> detail::surface_leaf(const SparseMatrix<T>&, Problem,          \
                                                         const Settings&);                         \
    template bool detail::surface_without_plan(const Node<T>&, const Settings&, StructureReport&); \
    template void detail::prefer_surface(std::optional<Node<T>>, Node<T>&, StructureReport&);      \
    template std::optional<Node<T>> detail::torus_frontier_leaf(const SparseMatrix<T>&, Problem,   \
                                                                const Settings&);
PMCOUNT_SURFACE(std::int64_t)
PMCOUNT_SURFACE(double)
PMCOUNT_SURFACE(std::complex<double>)
#undef PMCOUNT_SURFACE

template Node<std::int64_t> build_hafnian_plan(const SparseMatrix<std::int64_t>&, const Settings&,
                                               StructureReport&);
template Node<double> build_hafnian_plan(const SparseMatrix<double>&, const Settings&,
                                         StructureReport&);
template Node<std::complex<double>> build_hafnian_plan(const SparseMatrix<std::complex<double>>&,
                                                       const Settings&, StructureReport&);

}  // namespace pmcount::plan
