// Kasteleyn signing from a planar embedding: spanning forest, faces, dual tree (see
// kasteleyn.hpp for the theorem; the embedding, faces and forests come from plane_embedding.hpp).
//
// Phases: (1) Boyer–Myrvold embedding of the whole graph; (2) fine Dulmage–Mendelsohn
// decomposition, keep the edges inside blocks; (3) the whole embedding restricted to the kept
// edges and its face walks; (4) spanning forest by union–find, tree edges +1; (5) breadth-first
// search of the dual forest over the non-tree edges; faces in reverse BFS order fix their edge to
// the parent face; (6) the constant c from the decomposition's perfect matching.
// Workspaces: faces (darts of kept edges, total 2E), faces_of_edge (2 per kept edge), union–find
// parent (V), face parent edge and BFS order (F = E − V + components + …).
#include "exact/planar/kasteleyn.hpp"

#include <algorithm>
#include <utility>

#include "exact/planar/plane_embedding.hpp"
#include "numeric/elimination_fields.hpp"
#include "pmcount/structure.hpp"

namespace pmcount::exact {

namespace {

/// Left vertex u is vertex u, right vertex v is n_left + v; edge k is the k-th entry of
/// graph.left_adjacency().
std::vector<std::pair<vertex_t, vertex_t>> edge_ends(const BipartiteGraph& graph) {
    std::vector<std::pair<vertex_t, vertex_t>> ends;
    ends.reserve(static_cast<std::size_t>(graph.num_edges()));
    for (vertex_t u = 0; u < graph.n_left(); ++u) {
        for (const vertex_t v : graph.right_neighbours(u)) {
            ends.emplace_back(u, graph.n_left() + v);
        }
    }
    return ends;
}

}  // namespace

bool is_planar(const BipartiteGraph& graph) {
    // Euler: a simple planar bipartite graph on V ≥ 3 vertices has at most 2V − 4 edges. Denser
    // patterns are rejected without copying them into Boost's graph (a second, on 4·10^6 edges).
    const edge_t vertices = static_cast<edge_t>(graph.n_left()) + graph.n_right();
    if (vertices >= 3 && graph.num_edges() > 2 * vertices - 4) {
        return false;
    }
    return is_planar_graph(graph.n_left() + graph.n_right(), edge_ends(graph));
}

std::optional<KasteleynSigning> kasteleyn_signing(const BipartiteGraph& graph) {
    // (1) Planarity and an embedding of the input as given: a non-planar graph is rejected even
    // when its perfect-matching edges happen to form a planar graph, so that the answer to "does
    // the planar engine apply" depends only on the input. The kept edges' embedding is this one
    // with the other edges left out (deleting edges keeps an embedding planar).
    const std::optional<PlaneEmbedding> whole =
        embed_planar(graph.n_left() + graph.n_right(), edge_ends(graph));
    if (!whole) {
        return std::nullopt;
    }
    KasteleynSigning signing;
    signing.sign.assign(static_cast<std::size_t>(graph.num_edges()), 0);
    if (!graph.is_balanced()) {
        return signing;
    }
    if (graph.n_left() == 0) {
        signing.constant = 1;  // the empty matching
        return signing;
    }
    // (2) Edges inside fine blocks: exactly those in some perfect matching.
    const DMDecomposition dm = dulmage_mendelsohn(graph);
    if (!dm.has_perfect_matching()) {
        return signing;
    }
    const auto& offsets = graph.left_offsets();
    const auto& adjacency = graph.left_adjacency();
    std::vector<int> kept;
    for (vertex_t u = 0; u < graph.n_left(); ++u) {
        for (edge_t e = offsets[static_cast<std::size_t>(u)];
             e < offsets[static_cast<std::size_t>(u) + 1]; ++e) {
            const vertex_t v = adjacency[static_cast<std::size_t>(e)];
            if (dm.row_block[static_cast<std::size_t>(u)] >= 0 &&
                dm.row_block[static_cast<std::size_t>(u)] ==
                    dm.col_block[static_cast<std::size_t>(v)]) {
                kept.push_back(static_cast<int>(e));
            }
        }
    }
    // (3) Embedding of the kept edges and faces.
    const PlaneEmbedding plane = keep_edges(*whole, kept);
    const std::vector<std::vector<Dart>> faces = face_walks(plane);

    // (4) Spanning forest: tree edges keep sign +1.
    const std::size_t m = kept.size();
    std::vector<std::int8_t> local_sign(m, 1);
    const std::vector<char> in_tree = spanning_forest(plane.n, plane.ends);

    // (5) Dual forest over the non-tree edges; faces fixed leaves first by their parent edge.
    const DualForest dual = dual_forest(faces, in_tree);
    for (auto it = dual.order.rbegin(); it != dual.order.rend(); ++it) {
        const auto f = static_cast<std::size_t>(*it);
        const int e = dual.parent_edge[f];
        if (e < 0) {
            continue;  // a root: the face left unconstrained (the "outer" face)
        }
        // A face of length 2ℓ needs #negative ≡ ℓ + 1 (mod 2); the other edges are fixed.
        int negative = 0;
        for (const Dart& d : faces[f]) {
            negative += (d.edge != e && local_sign[static_cast<std::size_t>(d.edge)] < 0) ? 1 : 0;
        }
        const int wanted = static_cast<int>(faces[f].size() / 2 + 1) % 2;
        local_sign[static_cast<std::size_t>(e)] = (negative % 2 == wanted) ? 1 : -1;
    }
    for (std::size_t k = 0; k < m; ++k) {
        signing.sign[static_cast<std::size_t>(kept[k])] = local_sign[k];
    }
    // (6) c = sgn(σ₀) · Π s(u, σ₀(u)) for the decomposition's perfect matching σ₀.
    int constant = numeric::permutation_sign(dm.matching.row_match);
    for (vertex_t u = 0; u < graph.n_left(); ++u) {
        const auto first = adjacency.begin() + offsets[static_cast<std::size_t>(u)];
        const auto last = adjacency.begin() + offsets[static_cast<std::size_t>(u) + 1];
        const auto it =
            std::lower_bound(first, last, dm.matching.row_match[static_cast<std::size_t>(u)]);
        constant *= signing.sign[static_cast<std::size_t>(it - adjacency.begin())];
    }
    signing.constant = constant;
    signing.col_match = dm.matching.col_match;
    return signing;
}

}  // namespace pmcount::exact
