// maximum_matching / gallai_edmonds for general graphs: maximum-cardinality matching by Edmonds'
// blossom algorithm ("Paths, trees, and flowers", Canad. J. Math. 17, 1965), one search per
// exposed vertex with blossoms kept in a union–find structure (Gabow, J. ACM 23(2), 1976; Tarjan,
// "Data Structures and Network Algorithms", 1983, ch. 9), and the Gallai–Edmonds decomposition
// (Lovász & Plummer, "Matching Theory", 1986, Thm 3.2.1) read off a final search.
//
// Phases:
//   1. greedy: each vertex, in id order, takes its first exposed neighbour;
//   2. augment: a search (AlternatingForest) from each vertex still exposed. A search that finds
//      no augmenting path leaves a Hungarian (frustrated) tree: every edge leaving its outer
//      vertices goes to its inner vertices, so no later augmenting path can use its vertices
//      (Cook, Cunningham, Pulleyblank & Schrijver, "Combinatorial Optimization", 1998, §5.2).
//      They are excluded from the later searches, which keeps those searches local;
//   3. certificate: when some vertex stays exposed, one search from all exposed vertices at once
//      over the whole graph. It finds no augmenting path (phase 2 left none: Berge), and its
//      labels are the Gallai–Edmonds decomposition: D = outer vertices (missed by some maximum
//      matching), A = inner vertices (the neighbours of D outside D), C = unlabelled. Every edge
//      between outer vertices lies inside one blossom, so the components of G[D] are the final
//      blossoms (and single outer vertices): these are the odd components of G − A, the C
//      components being even; Tutte–Berge gives odd components − |A| = exposed vertices.
//
// Why this variant rather than Micali–Vazirani's O(E·√V): after the greedy start few vertices
// are exposed and most searches meet an exposed vertex nearby, so each labels a small region and
// costs time proportional to it (the forest resets only what it touched). Worst case
// O(V·E·α(V)), O(E·α(V)) per search; measured on triangular lattice patches with shuffled vertex
// ids in tests/unit/structure/blossom_test.cpp.
//
// Workspaces (n = vertices): mate[n]; dead[n] (vertices of Hungarian trees, phase 2); the
// AlternatingForest's (alternating_forest.hpp); exposed[≤ n] (phase 3 roots).
#include <algorithm>
#include <utility>
#include <vector>

#include "pmcount/error.hpp"
#include "pmcount/structure.hpp"
#include "core/stop.hpp"
#include "structure/alternating_forest.hpp"

namespace pmcount {

namespace {

using structure::AlternatingForest;

GallaiEdmonds decompose(const UndirectedGraph& g) {
    const vertex_t n = g.num_vertices();
    GallaiEdmonds ge;
    GeneralMatching& m = ge.matching;
    m.mate.assign(static_cast<std::size_t>(n), -1);
    auto& mate = m.mate;

    // Phase 1: greedy.
    for (vertex_t v = 0; v < n; ++v) {
        if (mate[static_cast<std::size_t>(v)] >= 0) {
            continue;
        }
        for (const vertex_t u : g.neighbours(v)) {
            if (mate[static_cast<std::size_t>(u)] < 0) {
                mate[static_cast<std::size_t>(v)] = u;
                mate[static_cast<std::size_t>(u)] = v;
                break;
            }
        }
    }

    // Phase 2: one search per exposed vertex; Hungarian trees are excluded from then on.
    AlternatingForest forest(g);
    std::vector<char> dead(static_cast<std::size_t>(n), 0);
    for (vertex_t r = 0; r < n; ++r) {
        if (mate[static_cast<std::size_t>(r)] >= 0 || dead[static_cast<std::size_t>(r)] != 0) {
            continue;
        }
        pmcount::detail::throw_if_stopped("finding a maximum matching");  // a search is O(E·α(V)) at most
        if (!forest.grow(mate, {&r, 1}, &dead)) {
            for (const vertex_t v : forest.touched()) {
                dead[static_cast<std::size_t>(v)] = 1;
            }
        }
        forest.clear();
    }

    std::vector<vertex_t> exposed;
    for (vertex_t v = 0; v < n; ++v) {
        if (mate[static_cast<std::size_t>(v)] < 0) {
            exposed.push_back(v);
        }
    }
    m.size = (n - static_cast<vertex_t>(exposed.size())) / 2;
    ge.part.assign(static_cast<std::size_t>(n), GallaiEdmondsPart::c);
    if (exposed.empty()) {
        return ge;
    }

    // Phase 3: the forest of all exposed vertices gives the decomposition.
    if (forest.grow(mate, exposed, nullptr)) {
        throw InternalError("maximum_matching: an augmenting path survived the searches");
    }
    std::vector<char> is_component_base(static_cast<std::size_t>(n), 0);
    for (const vertex_t v : forest.touched()) {
        if (forest.label(v) == AlternatingForest::Label::inner) {
            ge.part[static_cast<std::size_t>(v)] = GallaiEdmondsPart::a;
            m.tutte_set.push_back(v);
        } else {
            ge.part[static_cast<std::size_t>(v)] = GallaiEdmondsPart::d;
            char& seen = is_component_base[static_cast<std::size_t>(forest.base(v))];
            m.odd_components += seen == 0 ? 1 : 0;
            seen = 1;
        }
    }
    std::sort(m.tutte_set.begin(), m.tutte_set.end());
    return ge;
}

}  // namespace

GallaiEdmonds gallai_edmonds(const UndirectedGraph& graph) {
    return decompose(graph);
}

GeneralMatching maximum_matching(const UndirectedGraph& graph) {
    return std::move(decompose(graph).matching);
}

}  // namespace pmcount
