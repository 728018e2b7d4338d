// FKT Pfaffian orientation of a planar graph from a plane embedding (see pfaffian.hpp for the
// theorem and the face-walk proof; the embedding, faces and forests come from
// plane_embedding.hpp).
//
// Phases: (1) Boyer–Myrvold embedding; (2) face walks as darts; (3) spanning forest by union–find,
// tree edges oriented u → v; (4) dual forest over the non-tree edges by breadth-first search;
// faces in reverse order orient their edge to the parent face so that an odd number of their
// darts run along the orientation.
// Cost: O(V + E) besides Boost's face traversal. Workspaces: the embedding (2E edge ids), the
// face walks (2E darts), union–find parent (V), faces_of_edge (2E), the dual order and parent
// edges (one per face), the orientation (E).
#include <cstdint>
#include <optional>
#include <vector>

#include "exact/planar/pfaffian.hpp"
#include "exact/planar/plane_embedding.hpp"

namespace pmcount::exact {

bool is_planar(const UndirectedGraph& graph) {
    // Euler: a simple planar graph on V ≥ 3 vertices has at most 3V − 6 edges.
    const edge_t vertices = graph.num_vertices();
    if (vertices >= 3 && graph.num_edges() > 3 * vertices - 6) {
        return false;
    }
    return is_planar_graph(graph.num_vertices(), graph.edges());
}

void orient_faces(const std::vector<std::vector<Dart>>& faces, const DualForest& dual,
                  std::vector<std::int8_t>& orientation) {
    // Every other dart of the face is fixed; its parent edge (walked once by the face, being no
    // bridge) makes the count of darts along the orientation odd.
    for (auto it = dual.order.rbegin(); it != dual.order.rend(); ++it) {
        const auto f = static_cast<std::size_t>(*it);
        const int e = dual.parent_edge[f];
        if (e < 0) {
            continue;  // the root face of a component stays unconstrained
        }
        int along = 0;
        bool parent_forward = false;
        for (const Dart& d : faces[f]) {
            if (d.edge == e) {
                parent_forward = d.forward;
            } else {
                along += (orientation[static_cast<std::size_t>(d.edge)] > 0) == d.forward ? 1 : 0;
            }
        }
        const bool parent_along = along % 2 == 0;
        orientation[static_cast<std::size_t>(e)] = parent_along == parent_forward ? 1 : -1;
    }
}

std::optional<std::vector<std::int8_t>> pfaffian_orientation(const UndirectedGraph& graph) {
    // (1) Embedding; ends[k] = (u, v) with u < v, so a forward dart runs u → v.
    const std::optional<PlaneEmbedding> plane = embed_planar(graph.num_vertices(), graph.edges());
    if (!plane) {
        return std::nullopt;
    }
    // (2) Faces.
    const std::vector<std::vector<Dart>> faces = face_walks(*plane);
    // (3) Spanning forest: its edges keep u → v.
    std::vector<std::int8_t> orientation(plane->ends.size(), 1);
    const std::vector<char> in_tree = spanning_forest(plane->n, plane->ends);
    // (4) Leaves of the dual forest first.
    orient_faces(faces, dual_forest(faces, in_tree), orientation);
    return orientation;
}

}  // namespace pmcount::exact
