// allowed_edges: the edges of a graph with a perfect matching M that lie in at least one perfect
// matching ("allowed" or "maximally matchable" edges; Lovász & Plummer, "Matching Theory", 1986,
// ch. 5, where the graph of the allowed edges is shown to split into elementary components).
//
// Characterisation: a non-matching edge uv is in a perfect matching iff G − u − v has one. In
// G − u the matching M − uu′ leaves only u′ = M(u) exposed, and it is maximum; the vertices missed
// by some maximum matching of G − u are exactly those an alternating search from u′ labels outer
// (Gallai–Edmonds). So v is allowed with u iff v is outer in that search. Matching edges are
// allowed.
//
// Phases, for u = 0, 1, …:
//   1. pending: the edges at u not yet decided (an edge decided from its other end is skipped,
//      and u is skipped when none is left: a greedy vertex cover of the non-matching edges);
//   2. search: expose u′, exclude u, grow AlternatingForest from u′ (no augmenting path exists:
//      u′ is the only exposed vertex); stop as soon as every pending neighbour is outer;
//   3. record: an edge is allowed iff its end was reached outer, at both of its adjacency slots.
//
// Complexity: at most V searches of O(E·α(V)) each (the forest resets only what it touched);
// allowed_edges_work_bound() returns the bound V·(V + 2E) on adjacency entries scanned.
//
// Workspaces (n = vertices, 2E adjacency slots): mate[n] (a copy of M, with u and u′ unmatched
// during u's search), excluded[n] (only u set), watched[n] (pending neighbours not yet reached
// outer), decided[2E] and allowed[2E] per adjacency slot, pending[≤ max degree] slots; the
// AlternatingForest's.
#include <algorithm>
#include <string>

#include "pmcount/error.hpp"
#include "core/stop.hpp"
#include "structure/alternating_forest.hpp"
#include "structure/general.hpp"

namespace pmcount::structure {

namespace {

void check_perfect_matching(const UndirectedGraph& g, const std::vector<vertex_t>& mate) {
    const vertex_t n = g.num_vertices();
    if (mate.size() != static_cast<std::size_t>(n)) {
        throw InvalidArgument("allowed_edges: perfect_mate has " + std::to_string(mate.size()) +
                              " entries for " + std::to_string(n) + " vertices");
    }
    for (vertex_t v = 0; v < n; ++v) {
        const vertex_t u = mate[static_cast<std::size_t>(v)];
        if (u < 0 || u >= n || mate[static_cast<std::size_t>(u)] != v || !g.has_edge(u, v)) {
            throw InvalidArgument(
                "allowed_edges: perfect_mate is not a perfect matching at vertex " +
                std::to_string(v));
        }
    }
}

}  // namespace

UndirectedGraph allowed_edges(const UndirectedGraph& graph,
                              const std::vector<vertex_t>& perfect_mate) {
    check_perfect_matching(graph, perfect_mate);
    const vertex_t n = graph.num_vertices();
    const auto& offsets = graph.offsets();
    const auto& adjacency = graph.adjacency();
    std::vector<vertex_t> mate = perfect_mate;
    std::vector<char> excluded(static_cast<std::size_t>(n), 0);
    std::vector<char> watched(static_cast<std::size_t>(n), 0);
    std::vector<char> decided(adjacency.size(), 0), allowed(adjacency.size(), 0);
    std::vector<edge_t> pending;
    AlternatingForest forest(graph);

    // The slot of u in v's (sorted) adjacency list.
    const auto slot_of = [&](vertex_t v, vertex_t u) {
        const auto first = adjacency.begin() + offsets[static_cast<std::size_t>(v)];
        const auto last = adjacency.begin() + offsets[static_cast<std::size_t>(v) + 1];
        return static_cast<std::size_t>(std::lower_bound(first, last, u) - adjacency.begin());
    };

    for (vertex_t u = 0; u < n; ++u) {
        const vertex_t partner = mate[static_cast<std::size_t>(u)];
        // Phase 1: pending edges at u.
        pending.clear();
        for (edge_t s = offsets[static_cast<std::size_t>(u)];
             s < offsets[static_cast<std::size_t>(u) + 1]; ++s) {
            const vertex_t v = adjacency[static_cast<std::size_t>(s)];
            if (v == partner) {
                decided[static_cast<std::size_t>(s)] = allowed[static_cast<std::size_t>(s)] = 1;
            } else if (decided[static_cast<std::size_t>(s)] == 0) {
                pending.push_back(s);
                watched[static_cast<std::size_t>(v)] = 1;
            }
        }
        if (pending.empty()) {
            continue;
        }
        pmcount::detail::throw_if_stopped("finding the edges of perfect matchings");  // a search: O(E·α(V))

        // Phase 2: search G − u from the partner, until every pending neighbour is outer.
        mate[static_cast<std::size_t>(u)] = mate[static_cast<std::size_t>(partner)] = -1;
        excluded[static_cast<std::size_t>(u)] = 1;
        std::size_t unreached = pending.size();
        forest.grow(mate, {&partner, 1}, &excluded, [&](vertex_t v) {
            if (watched[static_cast<std::size_t>(v)] == 0) {
                return false;
            }
            watched[static_cast<std::size_t>(v)] = 0;
            return --unreached == 0;
        });
        forest.clear();
        mate[static_cast<std::size_t>(u)] = partner;
        mate[static_cast<std::size_t>(partner)] = u;
        excluded[static_cast<std::size_t>(u)] = 0;

        // Phase 3: record both slots of each pending edge.
        for (const edge_t s : pending) {
            const vertex_t v = adjacency[static_cast<std::size_t>(s)];
            const char is_allowed = watched[static_cast<std::size_t>(v)] == 0 ? 1 : 0;
            watched[static_cast<std::size_t>(v)] = 0;
            const std::size_t mirror = slot_of(v, u);
            decided[static_cast<std::size_t>(s)] = decided[mirror] = 1;
            allowed[static_cast<std::size_t>(s)] = allowed[mirror] = is_allowed;
        }
    }

    std::vector<UndirectedGraph::Edge> edges;
    for (vertex_t u = 0; u < n; ++u) {
        for (edge_t s = offsets[static_cast<std::size_t>(u)];
             s < offsets[static_cast<std::size_t>(u) + 1]; ++s) {
            const vertex_t v = adjacency[static_cast<std::size_t>(s)];
            if (u < v && allowed[static_cast<std::size_t>(s)] != 0) {
                edges.emplace_back(u, v);
            }
        }
    }
    return {n, std::move(edges)};
}

double allowed_edges_work_bound(const UndirectedGraph& graph) {
    const auto n = static_cast<double>(graph.num_vertices());
    return n * (n + 2.0 * static_cast<double>(graph.num_edges()));
}

}  // namespace pmcount::structure
