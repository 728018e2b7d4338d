// Estimates of the monomer–dimer partition function and the number of all matchings
// (pmcount/matchings.hpp): the input as one weighted graph (a bipartite input's two sides as one
// graph, as the exact count reads it), its sweep order — the frontier DP's narrowest order
// (exact::frontier_order), so that the particles of a population differ only on a narrow front —
// and the estimator of approx/monomer_dimer.hpp.
#include <cmath>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "approx/monomer_dimer.hpp"
#include "count/pipeline.hpp"
#include "exact/frontier/frontier.hpp"
#include "plan/engines.hpp"
#include "pmcount/error.hpp"
#include "pmcount/io.hpp"
#include "pmcount/matchings.hpp"

namespace pmcount {

namespace {

/// The monomer weight of an estimate: what the exact count accepts (monomer_weight_value) or
/// any decimal floating-point number, positive and finite.
double estimate_weight(const std::string& text) {
    try {
        return counting::monomer_weight_value(text);
    } catch (const InvalidArgument&) {
        char* end = nullptr;
        const double x = std::strtod(text.c_str(), &end);
        if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(x)) {
            throw InvalidArgument("monomer weight '" + text +
                                  "': not a number (give a decimal, 2.5e-3, or a fraction p/q)");
        }
        return x;
    }
}

/// The edges (row < col) of a symmetric matrix's off-diagonal entries; a negative or non-finite
/// one is an UnusableWeight.
struct UnusableWeight {
    vertex_t row, col;
    double value;
};
template <class T>
std::vector<approx::Entry> upper_edges(const SparseMatrix<T>& a) {
    std::vector<approx::Entry> edges;
    for (const auto& t : a.triplets()) {
        const double v = static_cast<double>(t.value);
        if (t.row >= t.col || v == 0) {
            continue;
        }
        if (!(v > 0) || !std::isfinite(v)) {
            throw UnusableWeight{t.row, t.col, v};
        }
        edges.push_back({t.row, t.col, v});
    }
    return edges;
}

EstimateResult estimate_edges(vertex_t n, const std::vector<approx::Entry>& edges, double x,
                              const EstimateOptions& options) {
    if (!(x > 0) || !std::isfinite(x)) {
        throw InvalidArgument(
            "the monomer-dimer estimator needs a positive finite monomer "
            "weight (Z(0) is the number of perfect matchings: estimate it "
            "without one)");
    }
    std::vector<UndirectedGraph::Edge> pattern;
    pattern.reserve(edges.size());
    for (const approx::Entry& e : edges) {
        pattern.emplace_back(e.row, e.col);
    }
    const exact::FrontierOrder order = exact::frontier_order(UndirectedGraph(n, pattern));
    return approx::estimate_monomer_dimer(n, edges, order.order, x, options);
}

}  // namespace

EstimateResult estimate_monomer_dimer(const UndirectedGraph& graph, double monomer_weight,
                                      const EstimateOptions& options) {
    std::vector<approx::Entry> edges;
    for (const auto& [u, v] : graph.edges()) {
        edges.push_back({u, v, 1.0});
    }
    return estimate_edges(graph.num_vertices(), edges, monomer_weight, options);
}

EstimateResult estimate_monomer_dimer(const SparseMatrix<double>& symmetric, double monomer_weight,
                                      const EstimateOptions& options) {
    counting::check_symmetric(symmetric, "the monomer-dimer estimator");
    try {
        return estimate_edges(symmetric.rows(), upper_edges(symmetric), monomer_weight, options);
    } catch (const UnusableWeight& e) {
        throw InvalidArgument(
            "the monomer-dimer estimator needs nonnegative finite weights; entry (" +
            std::to_string(e.row) + ", " + std::to_string(e.col) + ") is " +
            std::to_string(e.value));
    }
}

EstimateResult estimate_all_matchings(const UndirectedGraph& graph,
                                      const EstimateOptions& options) {
    return estimate_monomer_dimer(graph, 1.0, options);
}

EstimateResult estimate_matchings(const Input& input, MatchingQuery query,
                                  const std::string& monomer_weight,
                                  const EstimateOptions& options) {
    if (query != MatchingQuery::all && query != MatchingQuery::monomer_dimer) {
        throw InvalidArgument(std::string("the estimator gives all matchings and the "
                                          "monomer-dimer Z(x); the ") +
                              to_string(query) + " is counted exactly");
    }
    const double x = query == MatchingQuery::all ? 1.0 : estimate_weight(monomer_weight);
    if (!(x > 0)) {
        throw InvalidArgument("monomer weight '" + monomer_weight +
                              "': the estimator needs a positive one (Z(0) is the number of "
                              "perfect matchings: estimate it without --monomer-weight)");
    }
    vertex_t n = 0;
    std::vector<approx::Entry> edges;
    try {
        std::visit(
            [&](const auto& data) {
                using D = std::decay_t<decltype(data)>;
                if constexpr (std::is_same_v<D, UndirectedGraph>) {
                    n = data.num_vertices();
                    for (const auto& [u, v] : data.edges()) {
                        edges.push_back({u, v, 1.0});
                    }
                } else if constexpr (std::is_same_v<D, BipartiteGraph>) {
                    const SparseMatrix<std::int64_t> a =
                        plan::bipartite_embedding(counting::ones(data));
                    n = a.rows();
                    edges = upper_edges(a);
                } else if constexpr (std::is_same_v<D, SparseMatrix<std::int64_t>> ||
                                     std::is_same_v<D, SparseMatrix<double>>) {
                    const D a = input.hafnian ? data : plan::bipartite_embedding(data);
                    n = a.rows();
                    edges = upper_edges(a);
                } else if constexpr (std::is_same_v<D, Digraph>) {
                    throw InvalidArgument(input.source +
                                          ": matchings are counted on undirected graphs; this is "
                                          "a digraph (read it as a bipartite graph or a general "
                                          "one)");
                } else {
                    throw InvalidInput(input.source, 0,
                                       "the monomer-dimer estimator needs nonnegative weights, "
                                       "not complex ones");
                }
            },
            input.data);
    } catch (const UnusableWeight& e) {
        // Entry (r, c) of the graph of both sides: a permanent's column c is vertex rows + c.
        const bool sides = !input.hafnian && !std::holds_alternative<UndirectedGraph>(input.data);
        const vertex_t rows = input.rows();
        const std::string where = sides ? "row " + std::to_string(input.row_label(e.row)) +
                                              ", column " +
                                              std::to_string(input.col_label(e.col - rows))
                                        : "row " + std::to_string(input.row_label(e.row)) +
                                              ", column " + std::to_string(input.col_label(e.col));
        throw InvalidInput(input.source, 0,
                           "the monomer-dimer estimator needs nonnegative finite weights; the "
                           "entry at " +
                               where + " is " + std::to_string(e.value));
    }
    // Vertices a huge header declares and no entry touches: single in every matching.
    if (input.isolated) {
        const vertex_t declared =
            input.is_general() ? input.isolated->rows : input.isolated->rows + input.isolated->cols;
        n = std::max(n, declared);
    }
    return estimate_edges(n, edges, x, options);
}

}  // namespace pmcount
