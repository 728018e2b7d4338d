// connected_components, two_colouring, induced_subgraph: breadth-first search (Moore 1959; any
// textbook, e.g. Cormen et al., "Introduction to Algorithms", §22.2), O(V + E) each.
//
// Workspaces (n = vertices): queue[≤ n] of reached vertices not yet scanned (one queue serves all
// starting vertices: it is only appended to); the result arrays double as the visited marks
// (component id or colour −1/2 until reached); induced_subgraph: position[n], the new id of each
// chosen vertex (−1 elsewhere).
#include "structure/general.hpp"

#include <string>
#include <utility>

#include "pmcount/error.hpp"
#include "pmcount/structure.hpp"

namespace pmcount::structure {

namespace {

constexpr std::uint8_t kUncoloured = 2;

}  // namespace

Components connected_components(const UndirectedGraph& graph) {
    const vertex_t n = graph.num_vertices();
    Components c;
    c.id.assign(static_cast<std::size_t>(n), -1);
    std::vector<vertex_t> queue;
    queue.reserve(static_cast<std::size_t>(n));
    for (vertex_t start = 0; start < n; ++start) {
        if (c.id[static_cast<std::size_t>(start)] >= 0) {
            continue;
        }
        c.id[static_cast<std::size_t>(start)] = c.count;
        queue.push_back(start);
        for (std::size_t head = queue.size() - 1; head < queue.size(); ++head) {
            for (const vertex_t w : graph.neighbours(queue[head])) {
                if (c.id[static_cast<std::size_t>(w)] < 0) {
                    c.id[static_cast<std::size_t>(w)] = c.count;
                    queue.push_back(w);
                }
            }
        }
        ++c.count;
    }
    return c;
}

std::optional<std::vector<std::uint8_t>> two_colouring(const UndirectedGraph& graph) {
    const vertex_t n = graph.num_vertices();
    std::vector<std::uint8_t> colour(static_cast<std::size_t>(n), kUncoloured);
    std::vector<vertex_t> queue;
    queue.reserve(static_cast<std::size_t>(n));
    for (vertex_t start = 0; start < n; ++start) {
        if (colour[static_cast<std::size_t>(start)] != kUncoloured) {
            continue;
        }
        colour[static_cast<std::size_t>(start)] = 0;
        queue.push_back(start);
        for (std::size_t head = queue.size() - 1; head < queue.size(); ++head) {
            const vertex_t v = queue[head];
            const auto other = static_cast<std::uint8_t>(1 - colour[static_cast<std::size_t>(v)]);
            for (const vertex_t w : graph.neighbours(v)) {
                std::uint8_t& cw = colour[static_cast<std::size_t>(w)];
                if (cw == kUncoloured) {
                    cw = other;
                    queue.push_back(w);
                } else if (cw != other) {
                    return std::nullopt;  // v and w have one colour: an odd closed walk
                }
            }
        }
    }
    return colour;
}

UndirectedGraph induced_subgraph(const UndirectedGraph& graph,
                                 const std::vector<vertex_t>& vertices) {
    const vertex_t n = graph.num_vertices();
    std::vector<vertex_t> position(static_cast<std::size_t>(n), -1);
    for (std::size_t i = 0; i < vertices.size(); ++i) {
        const vertex_t v = vertices[i];
        if (v < 0 || v >= n || position[static_cast<std::size_t>(v)] >= 0) {
            throw InvalidArgument(
                "induced_subgraph: vertex " + std::to_string(v) +
                (v < 0 || v >= n ? " outside [0, " + std::to_string(n) + ")" : " listed twice"));
        }
        position[static_cast<std::size_t>(v)] = static_cast<vertex_t>(i);
    }
    std::vector<UndirectedGraph::Edge> edges;
    for (std::size_t i = 0; i < vertices.size(); ++i) {
        for (const vertex_t w : graph.neighbours(vertices[i])) {
            const vertex_t j = position[static_cast<std::size_t>(w)];
            if (j > static_cast<vertex_t>(i)) {  // each edge once, from its earlier end
                edges.emplace_back(static_cast<vertex_t>(i), j);
            }
        }
    }
    return {static_cast<vertex_t>(vertices.size()), std::move(edges)};
}

}  // namespace pmcount::structure

namespace pmcount {

std::optional<Bipartition> bipartition(const UndirectedGraph& graph) {
    const std::optional<std::vector<std::uint8_t>> colour = structure::two_colouring(graph);
    if (!colour) {
        return std::nullopt;
    }
    Bipartition sides;
    std::vector<vertex_t> index(colour->size());  // the vertex's position on its side
    for (vertex_t v = 0; v < graph.num_vertices(); ++v) {
        std::vector<vertex_t>& side = (*colour)[static_cast<std::size_t>(v)] == 0 ? sides.left
                                                                                  : sides.right;
        index[static_cast<std::size_t>(v)] = static_cast<vertex_t>(side.size());
        side.push_back(v);
    }
    std::vector<BipartiteGraph::Edge> edges;
    edges.reserve(static_cast<std::size_t>(graph.num_edges()));
    for (const auto& [u, v] : graph.edges()) {
        const bool u_left = (*colour)[static_cast<std::size_t>(u)] == 0;
        const vertex_t l = u_left ? u : v;
        const vertex_t r = u_left ? v : u;
        edges.emplace_back(index[static_cast<std::size_t>(l)], index[static_cast<std::size_t>(r)]);
    }
    sides.graph = BipartiteGraph(static_cast<vertex_t>(sides.left.size()),
                                 static_cast<vertex_t>(sides.right.size()), std::move(edges));
    return sides;
}

}  // namespace pmcount
