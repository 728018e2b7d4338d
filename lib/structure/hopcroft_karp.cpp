// maximum_matching: maximum-cardinality bipartite matching by Hopcroft and Karp,
// "An n^{5/2} algorithm for maximum matchings in bipartite graphs", SIAM J. Comput. 2(4), 1973.
//
// Complexity O(E·√V): each phase finds a maximal set of vertex-disjoint shortest augmenting
// paths (one BFS, one DFS sweep), and there are O(√V) phases. A greedy pass first matches most
// vertices of typical inputs, so few phases remain.
//
// Workspaces (n = left vertices, m = right vertices):
//   layer[n]     BFS distance of each left vertex from the free left vertices (kUnreached if none)
//   next[n]      per left vertex, the next adjacency slot the DFS will try (each slot once a phase)
//   stack[n]     DFS path of left vertices; via[n] the right vertex used to leave each of them
//   queue[n]     BFS queue of left vertices
// Postcondition: no augmenting path exists, so the matching is maximum (Berge). The Hall
// violator is the set of left vertices reachable from free left vertices by alternating paths.
#include <algorithm>
#include <limits>

#include "pmcount/structure.hpp"
#include "core/stop.hpp"

namespace pmcount {

namespace {

constexpr vertex_t kUnreached = std::numeric_limits<vertex_t>::max();

/// What an interrupted search was doing (pmcount::detail::throw_if_stopped: every phase, O(E), and every
/// 65536 roots of a phase's search).
constexpr const char* kMatching = "finding a maximum matching";

/// Phase 1: BFS layers from the free left vertices. Returns true when a free right vertex is
/// reachable, i.e. an augmenting path exists.
bool build_layers(const BipartiteGraph& g, const Matching& m, std::vector<vertex_t>& layer,
                  std::vector<vertex_t>& queue) {
    const vertex_t n = g.n_left();
    queue.clear();
    for (vertex_t u = 0; u < n; ++u) {
        if (m.row_match[static_cast<std::size_t>(u)] < 0) {
            layer[static_cast<std::size_t>(u)] = 0;
            queue.push_back(u);
        } else {
            layer[static_cast<std::size_t>(u)] = kUnreached;
        }
    }
    bool found = false;
    vertex_t free_layer = kUnreached;  // stop expanding past the first layer reaching a free vertex
    for (std::size_t head = 0; head < queue.size(); ++head) {
        const vertex_t u = queue[head];
        const vertex_t d = layer[static_cast<std::size_t>(u)];
        if (d >= free_layer) {
            break;
        }
        for (const vertex_t v : g.right_neighbours(u)) {
            const vertex_t w = m.col_match[static_cast<std::size_t>(v)];
            if (w < 0) {
                found = true;
                free_layer = d + 1;
            } else if (layer[static_cast<std::size_t>(w)] == kUnreached) {
                layer[static_cast<std::size_t>(w)] = d + 1;
                queue.push_back(w);
            }
        }
    }
    return found;
}

/// Phase 2: from each free left vertex, a DFS along the layers; every path found is augmented
/// at once. Dead ends are removed from the layering so each edge is tried once per phase.
void augment_along_layers(const BipartiteGraph& g, Matching& m, std::vector<vertex_t>& layer,
                          std::vector<edge_t>& next, std::vector<vertex_t>& stack,
                          std::vector<vertex_t>& via) {
    const vertex_t n = g.n_left();
    const auto& offsets = g.left_offsets();
    const auto& adjacency = g.left_adjacency();
    for (vertex_t u = 0; u < n; ++u) {
        next[static_cast<std::size_t>(u)] = offsets[static_cast<std::size_t>(u)];
    }
    for (vertex_t root = 0; root < n; ++root) {
        if ((root & 0xffff) == 0) {
            pmcount::detail::throw_if_stopped(kMatching);
        }
        if (m.row_match[static_cast<std::size_t>(root)] >= 0 ||
            layer[static_cast<std::size_t>(root)] != 0) {
            continue;
        }
        stack.assign(1, root);
        while (!stack.empty()) {
            const vertex_t u = stack.back();
            const auto us = static_cast<std::size_t>(u);
            bool advanced = false;
            while (next[us] < offsets[us + 1]) {
                const vertex_t v = adjacency[static_cast<std::size_t>(next[us]++)];
                const vertex_t w = m.col_match[static_cast<std::size_t>(v)];
                if (w < 0) {
                    // Free right vertex: flip the matching along the whole stack.
                    via[us] = v;
                    for (std::size_t k = stack.size(); k-- > 0;) {
                        const vertex_t x = stack[k];
                        const vertex_t y = via[static_cast<std::size_t>(x)];
                        m.row_match[static_cast<std::size_t>(x)] = y;
                        m.col_match[static_cast<std::size_t>(y)] = x;
                    }
                    ++m.size;
                    stack.clear();
                    advanced = true;
                    break;
                }
                if (layer[static_cast<std::size_t>(w)] == layer[us] + 1) {
                    via[us] = v;
                    stack.push_back(w);
                    advanced = true;
                    break;
                }
            }
            if (!advanced) {
                layer[us] = kUnreached;  // dead end for the rest of this phase
                stack.pop_back();
            }
        }
    }
}

/// Left vertices reachable from free left vertices by alternating paths, and their neighbours.
void hall_violator(const BipartiteGraph& g, Matching& m) {
    std::vector<char> row_seen(static_cast<std::size_t>(g.n_left()), 0);
    std::vector<char> col_seen(static_cast<std::size_t>(g.n_right()), 0);
    std::vector<vertex_t> queue;
    for (vertex_t u = 0; u < g.n_left(); ++u) {
        if (m.row_match[static_cast<std::size_t>(u)] < 0) {
            row_seen[static_cast<std::size_t>(u)] = 1;
            queue.push_back(u);
        }
    }
    for (std::size_t head = 0; head < queue.size(); ++head) {
        for (const vertex_t v : g.right_neighbours(queue[head])) {
            if (col_seen[static_cast<std::size_t>(v)] != 0) {
                continue;
            }
            col_seen[static_cast<std::size_t>(v)] = 1;
            m.hall_neighbours.push_back(v);
            const vertex_t w = m.col_match[static_cast<std::size_t>(v)];  // matched: maximum
            if (w >= 0 && row_seen[static_cast<std::size_t>(w)] == 0) {
                row_seen[static_cast<std::size_t>(w)] = 1;
                queue.push_back(w);
            }
        }
    }
    m.hall_violator = std::move(queue);
    std::sort(m.hall_violator.begin(), m.hall_violator.end());
    std::sort(m.hall_neighbours.begin(), m.hall_neighbours.end());
}

}  // namespace

Matching maximum_matching(const BipartiteGraph& g, bool greedy_start) {
    const auto n = static_cast<std::size_t>(g.n_left());
    Matching m;
    m.row_match.assign(n, -1);
    m.col_match.assign(static_cast<std::size_t>(g.n_right()), -1);
    if (greedy_start) {
        for (vertex_t u = 0; u < g.n_left(); ++u) {
            for (const vertex_t v : g.right_neighbours(u)) {
                if (m.col_match[static_cast<std::size_t>(v)] < 0) {
                    m.row_match[static_cast<std::size_t>(u)] = v;
                    m.col_match[static_cast<std::size_t>(v)] = u;
                    ++m.size;
                    break;
                }
            }
        }
    }
    std::vector<vertex_t> layer(n), queue, stack, via(n);
    std::vector<edge_t> next(n);
    queue.reserve(n);
    while (build_layers(g, m, layer, queue)) {
        pmcount::detail::throw_if_stopped(kMatching);
        augment_along_layers(g, m, layer, next, stack, via);
    }
    if (m.size < g.n_left()) {
        hall_violator(g, m);
    }
    return m;
}

}  // namespace pmcount
