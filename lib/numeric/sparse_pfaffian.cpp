// Minimum degree pairing order for the sparse Pfaffian (see sparse_pfaffian.hpp).
#include "numeric/sparse_pfaffian.hpp"

#include <utility>

#include "numeric/minimum_degree.hpp"

namespace pmcount::numeric {

PairingOrder minimum_degree_pairing(const UndirectedGraph& pattern,
                                    const std::vector<vertex_t>& mate) {
    const std::vector<UndirectedGraph::Edge> edges = pattern.edges();
    PairingOrder order;
    order.vertices = minimum_degree_ordering(pattern.num_vertices(), {edges.begin(), edges.end()});
    order.partner = mate;
    return order;
}

}  // namespace pmcount::numeric
