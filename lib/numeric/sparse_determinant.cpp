// Minimum degree column order for the sparse determinant (see sparse_determinant.hpp).
#include "numeric/sparse_determinant.hpp"

#include <utility>

#include "numeric/minimum_degree.hpp"

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
    std::vector<std::pair<vertex_t, vertex_t>> edges;
    edges.reserve(static_cast<std::size_t>(pattern.num_edges()));
    for (vertex_t r = 0; r < pattern.n_left(); ++r) {
        const vertex_t a = row_to_node[static_cast<std::size_t>(r)];
        for (const vertex_t c : pattern.right_neighbours(r)) {
            edges.emplace_back(a, c);
        }
    }
    order.columns = minimum_degree_ordering(pattern.n_right(), std::move(edges));
    return order;
}

}  // namespace pmcount::numeric
