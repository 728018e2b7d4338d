// Plane embeddings and what the Kasteleyn signing and the FKT orientation build on them: the
// Boyer–Myrvold embedding (Boost.Graph), the face walks (boost::planar_face_traversal), a
// spanning forest and the dual forest over its complement (library-internal).
//
// Both constructions (kasteleyn.cpp, pfaffian_orientation.cpp) give every edge of a spanning
// forest a fixed value and then fix one face at a time, leaves of the dual forest first, by the
// face's edge to its parent face (Lovász & Plummer, "Matching Theory", §8.3). The complement of
// a spanning forest of a plane graph is a spanning forest of its dual: in each connected
// component with V vertices and E edges there are E − V + 2 faces (Euler) and E − V + 1 non-tree
// edges, and a non-tree edge is no bridge, so it borders two distinct faces.
//
// Cost: O(V + E) for the embedding, the forest and the dual forest; the face traversal keeps a
// std::map and a std::set per edge (Boost's implementation), O(E log) in practice.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "pmcount/types.hpp"

namespace pmcount::exact {

/// An embedded graph on [0, n): edge k joins ends[k].first and ends[k].second (no loops, no
/// repeated edges); rotation[v] lists the edges at v in the embedding's cyclic order.
struct PlaneEmbedding {
    vertex_t n = 0;
    std::vector<std::pair<vertex_t, vertex_t>> ends;
    std::vector<std::vector<int>> rotation;
};

/// Boyer–Myrvold: an embedding of the graph (n, ends), or nullopt when it is not planar. O(V + E).
/// Edges go into Boost's graph in a fixed pseudo-random order (see the .cpp for why).
std::optional<PlaneEmbedding> embed_planar(vertex_t n,
                                           std::vector<std::pair<vertex_t, vertex_t>> ends);

/// The planarity test alone (no embedding kept). O(V + E).
bool is_planar_graph(vertex_t n, const std::vector<std::pair<vertex_t, vertex_t>>& ends);

/// The embedding with only the edges `kept` (ascending ids of `plane`); edge k of the result is
/// edge kept[k] of `plane`. Deleting edges keeps an embedding plane. O(V + E).
PlaneEmbedding keep_edges(const PlaneEmbedding& plane, const std::vector<int>& kept);

/// An edge walked along a face: from ends[edge].first to ends[edge].second when `forward`.
struct Dart {
    int edge;
    bool forward;
};

/// The face walks of the embedding, each a closed walk of darts. Every dart of every edge lies in
/// exactly one walk, and all walks turn the same way (each face lies on the same side of its
/// darts), so an edge between two faces is walked once in each, in opposite directions, and a
/// bridge is walked twice by one face. Each connected component with an edge has its own faces;
/// an isolated vertex has none.
std::vector<std::vector<Dart>> face_walks(const PlaneEmbedding& plane);

/// A spanning forest by union–find over the edges in id order: in_tree[k] != 0 for its edges.
/// Every bridge is in it. O(E α(V)).
std::vector<char> spanning_forest(vertex_t n,
                                  const std::vector<std::pair<vertex_t, vertex_t>>& ends);

/// The dual forest over the non-tree edges, by breadth-first search from the first face of each
/// component: `order` lists the faces, parents before children; parent_edge[f] is the non-tree
/// edge from f to its parent face, −1 for a root (the face left unconstrained in its component).
struct DualForest {
    std::vector<int> order;
    std::vector<int> parent_edge;
};
DualForest dual_forest(const std::vector<std::vector<Dart>>& faces,
                       const std::vector<char>& in_tree);

/// Fixes the parent edge of every face of `dual` but the roots, leaves first, so that the face
/// has an odd number of darts along `orientation` (+1 for edge k: ends[k].first → .second); the
/// other edges keep their values. FKT's last phase (pfaffian.hpp), also on surfaces (surface.hpp).
/// O(E).
void orient_faces(const std::vector<std::vector<Dart>>& faces, const DualForest& dual,
                  std::vector<std::int8_t>& orientation);

}  // namespace pmcount::exact
