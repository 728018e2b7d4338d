// Multiple minimum degree through Boost.Graph (see minimum_degree.hpp).
#include "numeric/minimum_degree.hpp"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/minimum_degree_ordering.hpp>

namespace pmcount::numeric {

std::vector<vertex_t> minimum_degree_ordering(vertex_t n,
                                              std::vector<std::pair<vertex_t, vertex_t>> edges) {
    const auto size = static_cast<std::size_t>(n);
    if (size == 0) {
        return {};
    }
    // Boost's MMD wants a directed graph holding both directions of every symmetric entry, once
    // (repeated arcs corrupt its quotient graph).
    std::vector<std::pair<std::size_t, std::size_t>> arcs;
    arcs.reserve(2 * edges.size());
    for (const auto& [u, v] : edges) {
        if (u != v) {
            arcs.emplace_back(static_cast<std::size_t>(u), static_cast<std::size_t>(v));
            arcs.emplace_back(static_cast<std::size_t>(v), static_cast<std::size_t>(u));
        }
    }
    edges = {};
    std::sort(arcs.begin(), arcs.end());
    arcs.erase(std::unique(arcs.begin(), arcs.end()), arcs.end());
    // One isolated node more: Boost's MMD looks one degree bucket past the largest it allocates
    // (its debug assertion `i < head.size()` fires on a single edge; in release builds it reads
    // past the end). The padding node is numbered first, as an isolated node, and the order of
    // the others stays the same (checked on 3000 random graphs against the unpadded call).
    const std::size_t padded = size + 1;
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
    Graph g(arcs.begin(), arcs.end(), padded);
    std::vector<int> degree(padded, 0), inverse_perm(padded, 0), perm(padded, 0),
        supernode_size(padded, 1);
    boost::minimum_degree_ordering(
        g, boost::make_iterator_property_map(degree.begin(), boost::get(boost::vertex_index, g)),
        inverse_perm.data(), perm.data(),
        boost::make_iterator_property_map(supernode_size.begin(),
                                          boost::get(boost::vertex_index, g)),
        0, boost::get(boost::vertex_index, g));
    std::vector<vertex_t> order;  // order[k]: the node eliminated k-th
    order.reserve(size);
    for (const int node : perm) {
        if (static_cast<std::size_t>(node) < size) {
            order.push_back(node);
        }
    }
    return order;
}

}  // namespace pmcount::numeric
