// pmcount._core's matchings of every size (pmcount/matchings.hpp): a general graph as a vertex
// count and an edge array with integer weights (1 for a plain graph), the query by name, the
// result as a dict of Python ints.
#include "pmcount/matchings.hpp"

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "pmcount/matrix.hpp"

namespace pmcount::bindings {

namespace {

MatchingQuery query_named(const std::string& name) {
    if (name == "all") {
        return MatchingQuery::all;
    }
    if (name == "polynomial") {
        return MatchingQuery::polynomial;
    }
    if (name == "size") {
        return MatchingQuery::size;
    }
    if (name == "monomer_dimer") {
        return MatchingQuery::monomer_dimer;
    }
    throw InvalidArgument("no matchings query named '" + name + "'");
}

/// The symmetric matrix of a general graph on n vertices: each edge (u, v) with its weight at
/// (u, v) and (v, u).
template <class T>
SparseMatrix<T> weighted_graph(std::int64_t n, const Pairs& edges, const Vector<T>& weights) {
    const vertex_t order = checked_order(n, "vertex count");
    const auto pairs = pairs_of(edges, n, n);
    if (weights.shape(0) != pairs.size()) {
        throw DimensionMismatch("one weight per edge: " + std::to_string(pairs.size()) +
                                " edges, " + std::to_string(weights.shape(0)) + " weights");
    }
    std::vector<Triplet<T>> entries;
    for (std::size_t k = 0; k < pairs.size(); ++k) {
        const auto [u, v] = pairs[k];
        if (u == v) {
            throw InvalidArgument("edge " + std::to_string(k) + " is a self-loop");
        }
        entries.push_back({u, v, weights.data()[k]});
        entries.push_back({v, u, weights.data()[k]});
    }
    return SparseMatrix<T>(order, order, std::move(entries));
}

}  // namespace

void bind_matchings(nb::module_& m) {
    using namespace nb::literals;
    m.def(
        "count_matchings_general",
        [](std::int64_t n, const Pairs& edges, const Vector<std::int64_t>& weights,
           const std::string& query, int size, const std::string& monomer_weight,
           const CountOptions& o, const ProgressArg& progress) {
            const SparseMatrix<std::int64_t> a = weighted_graph(n, edges, weights);
            const MatchingQuery q = query_named(query);
            const CountOptions options = with_progress(o, progress);
            const MatchingsResult r = released([&] {
                switch (q) {
                    case MatchingQuery::polynomial:
                        return matching_polynomial(a, options);
                    case MatchingQuery::size:
                        return count_matchings_of_size(a, size, options);
                    case MatchingQuery::monomer_dimer:
                        return monomer_dimer(a, monomer_weight, options);
                    default:
                        return count_all_matchings(a, options);
                }
            });
            nb::list coefficients;
            for (const BigInt& c : r.coefficients) {
                coefficients.append(python_int(c));
            }
            nb::dict out;
            out["coefficients"] = coefficients;
            out["numerator"] = python_int(r.numerator);
            out["denominator"] = python_int(r.denominator);
            out["method"] = r.method;
            out["arithmetic"] = r.arithmetic;
            out["components"] = r.components;
            out["seconds"] = r.seconds;
            return out;
        },
        "n"_a, "edges"_a, "weights"_a, "query"_a, "size"_a, "monomer_weight"_a, "options"_a,
        "progress"_a = nb::none());
    m.def(
        "estimate_matchings_general",
        [](std::int64_t n, const Pairs& edges, const Vector<double>& weights, double monomer_weight,
           const EstimateOptions& o, const ProgressArg& progress) {
            const SparseMatrix<double> a = weighted_graph(n, edges, weights);
            const EstimateOptions options = with_progress(o, progress);
            return released([&] { return estimate_monomer_dimer(a, monomer_weight, options); });
        },
        "n"_a, "edges"_a, "weights"_a, "monomer_weight"_a, "options"_a, "progress"_a = nb::none());
}

}  // namespace pmcount::bindings
