// Minimum degree column order for the sparse determinant (see sparse_determinant.hpp).
#include "numeric/sparse_determinant.hpp"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/minimum_degree_ordering.hpp>

namespace pmcount::numeric {

PivotOrder minimum_degree_order(const BipartiteGraph& pattern,
                                const std::vector<vertex_t>& col_match) {
    const auto n = static_cast<std::size_t>(pattern.n_right());
    PivotOrder order;
    order.preferred_row = col_match;
    if (n == 0) {
        return order;
    }
    std::vector<vertex_t> row_to_node(static_cast<std::size_t>(pattern.n_left()), -1);
    for (std::size_t c = 0; c < n; ++c) {
        row_to_node[static_cast<std::size_t>(col_match[c])] = static_cast<vertex_t>(c);
    }
    // Boost's MMD wants a directed graph holding both directions of every symmetric entry, once
    // (repeated arcs corrupt its quotient graph).
    std::vector<std::pair<std::size_t, std::size_t>> arcs;
    for (vertex_t r = 0; r < pattern.n_left(); ++r) {
        const auto a = static_cast<std::size_t>(row_to_node[static_cast<std::size_t>(r)]);
        for (const vertex_t c : pattern.right_neighbours(r)) {
            if (static_cast<std::size_t>(c) != a) {
                arcs.emplace_back(a, static_cast<std::size_t>(c));
                arcs.emplace_back(static_cast<std::size_t>(c), a);
            }
        }
    }
    std::sort(arcs.begin(), arcs.end());
    arcs.erase(std::unique(arcs.begin(), arcs.end()), arcs.end());
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
    Graph g(arcs.begin(), arcs.end(), n);
    std::vector<int> degree(n, 0), inverse_perm(n, 0), perm(n, 0), supernode_size(n, 1);
    // delta = 0: multiple elimination of nodes of exactly the minimum degree (Liu's MMD).
    boost::minimum_degree_ordering(
        g, boost::make_iterator_property_map(degree.begin(), boost::get(boost::vertex_index, g)),
        inverse_perm.data(), perm.data(),
        boost::make_iterator_property_map(supernode_size.begin(),
                                          boost::get(boost::vertex_index, g)),
        0, boost::get(boost::vertex_index, g));
    order.columns.assign(perm.begin(), perm.end());  // perm[k]: the node eliminated k-th
    return order;
}

}  // namespace pmcount::numeric
